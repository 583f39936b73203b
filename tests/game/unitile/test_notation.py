"""The notation: positions, move names and records round-trip; malformed input is a clear error."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from tests.game.unitile.strategies import positions
from unitile_py.errors import GameError
from unitile_py.unitile import (
    Board,
    Position,
    Record,
    format_record,
    parse_position,
    parse_record,
)

START = "BRBRB/RBRBR/BR.BR/BRBRB/RBRBR r"


@given(positions())
def test_position_text_round_trips(p: Position) -> None:
    assert parse_position(str(p)) == p
    assert str(parse_position(str(p))) == str(p)


@given(st.sampled_from([Board.get(3, 3), Board.get(5, 5), Board.get(3, 7)]), st.data())
def test_cell_names_round_trip(board: Board, data: st.DataObject) -> None:
    cell = data.draw(st.integers(0, board.cells - 1))
    assert board.cell(board.name(cell)) == cell


def test_cell_names_5x5() -> None:
    board = Board.get(5, 5)
    assert [board.name(c) for c in (0, 4, 20, 24)] == ["a5", "e5", "a1", "e1"]


@given(positions(), st.data())
def test_records_round_trip(start: Position, data: st.DataObject) -> None:
    assume(not (start.united("r") and start.united("b")))  # no game starts there (check_start refuses it)
    moves = []
    p = start
    for _ in range(data.draw(st.integers(0, 12))):
        if p.winner() is not None:
            break
        cell = data.draw(st.sampled_from(p.slides()))
        moves.append(cell)
        p = p.play(cell)
    record = Record(start, moves, {"Position": str(start), "Red": 'A "quoted" name'})
    record.result = "1-0" if p.winner() == "r" else "0-1" if p.winner() == "b" else "*"
    text = format_record(record)
    again = parse_record(text)
    assert again == record
    assert format_record(again) == text


def test_record_example() -> None:
    record = parse_record('[Red "Ann"]\n[Blue "Bo"]\n[Board "5x5"]\n1. c4 d4 2. e4 *\n')
    assert [record.start.board.name(c) for c in record.moves] == ["c4", "d4", "e4"]
    assert record.headers == {"Red": "Ann", "Blue": "Bo", "Board": "5x5"}
    assert format_record(record).endswith("1. c4 d4 2. e4 *\n")
    assert parse_record("1. c4 *").start.board.rows == 5


@pytest.mark.parametrize(
    ("parse", "text", "message"),
    [
        (parse_position, "BRBRB/RBRBR/BR.BR/BRBRB/RBRB r", "row 5 has 4 cells"),
        (parse_position, "BRBRB/RBRBR/BR.BR/BRBRB/RBRBB r", "11 red tiles and 13 blue tiles: a position"),
        (parse_position, "BRBRB/RBRBR/BRRBR/BRBRB/RBRBR r", "13 red tiles and no empty cell"),
        (parse_position, "BRBRB/RBRBR/B..BR/BRBRB/RBRBR r", "11 red tiles and 2 empty cells"),
        (parse_position, "BRBRB/RBRBR/BR.BR/BRBRB/RBRBR x", "side to move 'x'"),
        (parse_position, "BRBRB/RBRBR/BR.BR/BRBRB/RBRBR", "expected the rows"),
        (parse_position, "BRBRB/RBXBR/BR.BR/BRBRB/RBRBR r", "row 2 has 'X'"),
        (parse_position, "BRBR/RBRB/BR.B/BRBR r", "must be odd"),
        (parse_record, "1. c4 a1 *", "ply 2, a1: not next to the bubble"),
        (parse_record, "1. c4 c4 *", "ply 2, c4: the empty cell, not a tile"),
        (parse_record, "1. c3 *", "ply 1, c3: the empty cell, not a tile"),
        (parse_record, "1. c4 d4 3. e4 *", "move number '3.'"),
        (parse_record, "1. c4 zz *", "ply 2: move 'zz'"),
        (parse_record, "1. c4 1. d4 *", "move number '1.' before a move of Blue: write 1..."),
        (parse_record, "1. c4 d4 2.", "'2.' is followed by no move"),
        (parse_record, "1. c4 2. d4 *", "'2.' where 1... was expected"),
        (parse_record, "1. c² *", "ply 1: move 'c²'"),
        (parse_record, "1. c٤ *", "ply 1: move 'c٤'"),
        (parse_record, '[Board "³x3"]\n*', "expected ROWSxCOLS"),
        (parse_record, "1" * 5000 + ". c4 *", "where 1. was expected"),
        (
            parse_record,
            '[Position "BRBRB/RBRBR/BR.BR/BRBRB/RBRBR b"]\n1. c4 *',
            "before a move of Blue: write 1...",
        ),
        (parse_record, "1. c4 1-0", "result 1-0 but the moves give \\*"),
        (parse_record, "[Red Ann]\n1. c4 *", "line 1"),
        (parse_record, "1. c4 * d4", "not the last token"),
        (parse_record, '[Board "4x4"]\n*', "must be odd"),
    ],
)
def test_bad_positions_and_records(parse: Callable[[str], object], text: str, message: str) -> None:
    with pytest.raises(GameError, match=message):  # the base class of both games' errors
        parse(text)
