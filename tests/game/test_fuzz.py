"""Hostile input never escapes as an exception: every parser raises only GameError (the base of both games'
errors) (one line, the quoted input cut short), and the web API's ``handle`` never raises at all, for both
games' requests
(Naked Diagonal's ``nd_`` ones too). Seeded, a few thousand inputs."""

from __future__ import annotations

import json
import subprocess
import sys
import threading
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from unitile_py.coords import QUOTE_LIMIT, parse_cell
from unitile_py.errors import GameError
from unitile_py.naked_diagonal.game import Game as NDGame
from unitile_py.naked_diagonal.game import parse_record as nd_parse_record
from unitile_py.naked_diagonal.position import Position as NDPosition
from unitile_py.unitile import Board, parse_position, parse_record
from unitile_py.unitile.notation import format_record
from unitile_py.webapi import handle

FUZZ = settings(
    max_examples=600, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow]
)

#: Characters that matter to the notation, digits that are not ASCII, controls and quotes.
ALPHABET = st.sampled_from([*list('RB.rb/ 12345c4x[]"\\\n\t*-0…²³٤é\x00'), "1-0", "0-1", "1.", "1...", "c4"])
TEXT = st.one_of(st.text(max_size=60), st.lists(ALPHABET, max_size=40).map("".join))


def one_line(exc: GameError) -> None:
    message = str(exc)
    assert "\n" not in message and len(message) < 400, message


@FUZZ
@given(TEXT)
def test_position_and_board_parsers(text: str) -> None:
    for parse in (parse_position, Board.parse, lambda t: parse_cell(t, 5, 5)):
        try:
            parse(text)
        except GameError as exc:
            one_line(exc)


@FUZZ
@given(
    st.lists(
        st.one_of(TEXT, st.sampled_from(['[Board "³x3"]', '[Position "x"]', "1" * 5000 + "."])), max_size=6
    )
)
def test_record_parser(lines: list[str]) -> None:
    try:
        parse_record("\n".join(lines))
    except GameError as exc:
        one_line(exc)


def test_long_input_is_quoted_short() -> None:
    with pytest.raises(GameError) as info:
        parse_position("R" * 1_000_000 + " r")
    assert len(str(info.value)) < 200
    with pytest.raises(GameError) as info:
        parse_record("1. " + "c" * 1_000_000 + " *")
    assert len(str(info.value)) < 200 and str(info.value).count("c") <= QUOTE_LIMIT + 5


JSON = st.recursive(
    st.one_of(
        st.none(),
        st.booleans(),
        st.integers(),
        st.floats(allow_nan=True),
        st.text(max_size=12),
        st.sampled_from(
            ["c4", "C4", "c²", "r", "b", "BRBRB/RBRBR/BR.BR/BRBRB/RBRBR b", "1" * 5000, "skip", "e5", "m13"]
        ),
        st.sampled_from([".../.R./... b", "RR..R/...../.BBBR/.B.../..RRB b", "R../.R./... b", 3, 5, 13, 14]),
    ),
    lambda inner: st.one_of(
        st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)
UNITILE_OPS = [
    *("info", "new_game", "state", "play", "undo", "load", "salvage", "explain", "hint", "computer_move"),
    "review",
]
#: Naked Diagonal's requests (unitile_py.naked_diagonal.webapi) through the same handle.
ND_OPS = [f"nd_{op}" for op in UNITILE_OPS]
OPS = st.sampled_from([*UNITILE_OPS, *ND_OPS, "nope", "nd_nope"])
#: Naked Diagonal games: small boards, so that the computer levels answer quickly.
ND_GAME = st.fixed_dictionaries(
    {"moves": st.lists(st.sampled_from(["c3", "a1", "b2", "skip", "C3", "d4", "zz", "e5"]), max_size=5)},
    optional={"size": st.sampled_from([3, 4, 5, 2, 14, "5", None]), "start": JSON},
)
ARGS = st.fixed_dictionaries(
    {},
    optional={
        "game": st.one_of(
            JSON, ND_GAME, st.fixed_dictionaries({"start": JSON, "moves": st.lists(JSON, max_size=5)})
        ),
        "move": JSON,
        "humans": JSON,
        "ply": JSON,
        "analysis": JSON,
        "headers": JSON,
        "text": st.one_of(JSON, TEXT),
        "level": JSON,
        "seed": JSON,
        "size": JSON,
        "point": JSON,
        "extra": JSON,
    },
)


@settings(max_examples=2000, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(st.fixed_dictionaries({"op": OPS, "args": st.one_of(ARGS, JSON)}), JSON))
def test_handle_never_raises(message: Any) -> None:
    try:
        request = json.dumps(message)
    except ValueError:
        request = repr(message)
    reply = json.loads(handle(request))
    assert set(reply) in ({"ok", "result"}, {"ok", "error"})
    if not reply["ok"]:
        assert "\n" not in reply["error"] and not reply["error"].startswith("internal error"), reply


@pytest.mark.parametrize(
    "request_text",
    [
        "[]",
        "null",
        "1",
        '"x"',
        "{",
        '{"op": "state", "args": {"game": {"moves": ["c4"]}, "ply": NaN}}',
        "\ud800",
    ],
)
def test_handle_odd_requests(request_text: str) -> None:
    reply = json.loads(handle(request_text))
    assert reply["ok"] is False and not reply["error"].startswith("internal error")


@pytest.mark.parametrize(
    ("request_text", "says"),
    [
        ("[" * 100_000, "request is nested too deeply"),
        ('{"op": "state", "args": {"ply": ' + "[" * 5000 + "]" * 5000 + "}}", "request is nested too deeply"),
        (
            '{"op": "state", "args": {"ply": ' + "7" * 5000 + "}}",
            "request has a number too long (more than 100 digits)",
        ),
        ("-" + "7" * 5000, "request has a number too long (more than 100 digits)"),
    ],
)
def test_handle_deep_and_huge_json_is_bad_input(request_text: str, says: str) -> None:
    """Issue 35: these were "internal error: RecursionError" and "internal error: ValueError". The answer
    does not hang on the recursion limit (another test module raises it to 10,000)."""
    limit = sys.getrecursionlimit()
    try:
        for recursion_limit in (1000, 20_000):
            sys.setrecursionlimit(recursion_limit)
            reply = json.loads(handle(request_text))
            assert reply == {"ok": False, "error": says}
    finally:
        sys.setrecursionlimit(limit)
    deep_string = json.dumps({"op": "nd_new_game", "args": {"size": 5}, "x": "[{" * 100})
    assert json.loads(handle(deep_string))["ok"] is True  # brackets inside a string do not count


def test_output_to_a_full_disk_and_a_closed_pipe() -> None:
    start = "BRBRB/RBRBR/BR.BR/BRBRB/RBRBR r"
    with open("/dev/full", "wb") as full:
        done = subprocess.run(
            [sys.executable, "-m", "unitile_py", "show", start],
            stdout=full,
            stderr=subprocess.PIPE,
            timeout=60,
        )
    assert (
        done.returncode == 2 and done.stderr == b"error: cannot write the output: No space left on device\n"
    )
    lines = "\n".join([start] * 3000) + "\n"
    pipe = subprocess.Popen(
        [sys.executable, "-m", "unitile_py", "analyze", "-"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )

    def write() -> None:  # as the replies come while the lines are sent, a reader must read meanwhile
        assert pipe.stdin is not None
        try:
            pipe.stdin.write(lines.encode())
            pipe.stdin.close()
        except BrokenPipeError:  # the command ended after the reader went away: expected
            pass

    writer = threading.Thread(target=write, daemon=True)
    writer.start()
    try:
        assert pipe.stdout is not None
        pipe.stdout.readline()
        pipe.stdout.close()  # like `| head -1`
        assert pipe.wait(timeout=60) == 0
        assert pipe.stderr is not None and pipe.stderr.read() == b""
    finally:
        pipe.kill()
        pipe.wait()
        writer.join(timeout=60)


HEADER_NAMES = st.from_regex(r"[A-Za-z0-9_]{1,12}", fullmatch=True).filter(
    lambda key: key not in ("Board", "Position", "Game")
)


@FUZZ
@given(st.dictionaries(HEADER_NAMES, st.text(max_size=40), max_size=4), st.booleans())
def test_any_header_text_survives_write_and_load(headers: dict[str, str], naked_diagonal: bool) -> None:
    """Issue 35: a value holding U+2028, U+0085, \\x0b, \\x1c... was written but could not be loaded."""
    if naked_diagonal:
        game = NDGame(NDPosition.empty(3), headers=headers)
        game.push(game.grid.point("b2", "move"))
        text = game.record_text()
        assert nd_parse_record(text).headers == game.record().headers
    else:
        record = parse_record('[Board "3x3"]\n1. b1 *')
        record.headers.update(headers)
        text = format_record(record)
        again = parse_record(text)
        assert again.headers == record.headers and again.moves == record.moves


@pytest.mark.parametrize(
    "value", ["\u2028", "\u2029", "\x85", "\x0b", "\x0c", "\x1c", "\x1d", "\x1e", "a\r\nb\\"]
)
def test_header_line_breaks_load_back(value: str) -> None:
    record = parse_record('[Board "3x3"]\n*')
    record.headers["Event"] = value
    assert parse_record(format_record(record)).headers["Event"] == value
