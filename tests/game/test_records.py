"""The record text both games share (unitile_py.records): what is refused, what is accepted, in one line."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from unitile_py.errors import GameError
from unitile_py.naked_diagonal.game import parse_record as nd_parse_record
from unitile_py.naked_diagonal.notation import format_record as nd_format_record
from unitile_py.unitile import format_record, parse_record

PARSERS = [parse_record, nd_parse_record]


@pytest.mark.parametrize("parse", PARSERS)
def test_a_byte_order_mark_at_the_start_is_accepted(parse: Callable[[str], Any]) -> None:
    """Issue 35: a record saved with a byte-order mark said "move '\\ufeff[Board': expected ..."."""
    assert parse('\ufeff[Board "3x3"]\n*') == parse('[Board "3x3"]\n*')


@pytest.mark.parametrize("parse", PARSERS)
@pytest.mark.parametrize("text", ["", "\n", "  \r\n\t\n", "\ufeff"])
def test_an_empty_record_is_refused(parse: Callable[[str], Any], text: str) -> None:
    """Issue 35: an empty record loaded as a new game on the default board."""
    with pytest.raises(GameError, match=r"^record: empty \(no headers, no moves, no result\)$"):
        parse(text)


@pytest.mark.parametrize("parse", PARSERS)
def test_a_repeated_header_is_refused(parse: Callable[[str], Any]) -> None:
    """Issue 35: the last of two [Board ...] lines silently won."""
    with pytest.raises(GameError, match=r"^record line 3: header 'Board' given twice$"):
        parse('[Board "3x3"]\n[Event "x"]\n[Board "5x5"]\n*')
    with pytest.raises(GameError) as info:
        parse(f'[{"K" * 5000} "a"]\n[{"K" * 5000} "b"]\n*')
    assert len(str(info.value)) < 100


@pytest.mark.parametrize("game", ["unitile", "naked_diagonal"])
def test_the_board_header_is_written_back_normalised(game: str) -> None:
    """Issue 35: [Board "003x003"] loaded as 3x3 and was written back as "003x003"."""
    if game == "unitile":
        text = format_record(parse_record('[Board "003x003"]\n1. b1 *'))
    else:
        text = nd_format_record(nd_parse_record('[Board "003x003"]\n1. b2 *'))
    assert '[Board "3x3"]' in text.splitlines() and "003" not in text
