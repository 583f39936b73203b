"""Issue 35, fuzzing: hypothesis sends the web API's ``handle`` arbitrary JSON and structurally valid
requests built from real games of both games (random legal moves from the usual or a custom start, then a
mutation: a wrong move, a point off the board, a size that disagrees, undo past the start, a level out of
range, an odd seed, an extra or missing argument), and runs both command lines in-process on arbitrary
arguments and input files. Never a traceback, never "internal error", one line per error, exit status 0,
1 or 2, and at most :data:`CPU_LIMIT` seconds of CPU per request. Seeded (derandomized): the same inputs
every run."""

from __future__ import annotations

import contextlib
import io
import json
import math
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from unitile_py.cli import main
from unitile_py.naked_diagonal import webapi as nd_webapi
from unitile_py.naked_diagonal.game import Game as NDGame
from unitile_py.naked_diagonal.notation import SKIP
from unitile_py.naked_diagonal.position import Position as NDPosition
from unitile_py.unitile import webapi as unitile_webapi
from unitile_py.unitile.game import Game
from unitile_py.unitile.notation import parse_position
from unitile_py.unitile.position import Position
from unitile_py.webapi import handle

ROOT = Path(__file__).resolve().parents[2]
#: Seconds of CPU a request may take (the issue's bound for every request of the web API).
CPU_LIMIT = 1.0


def fuzz(examples: int) -> Any:
    """The settings of every test here: seeded, no example database, no deadline (CPU time is asserted),
    no explain phase (its tracing of a failing example would make every request slower than it is)."""
    return settings(
        max_examples=examples,
        phases=[Phase.explicit, Phase.generate, Phase.shrink],
        deadline=None,
        derandomize=True,
        database=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much],
    )


@pytest.fixture(scope="module", autouse=True)
def unitile_tables() -> Iterator[None]:
    """Unitile's service with the 5x5 tables loaded, as the page has it (so that the computer plays);
    put back as it was afterwards."""
    api = unitile_webapi.API
    before = api.tables
    api.load_tables(directory=str(ROOT / "tables" / "5x5"))
    try:
        yield
    finally:
        api.tables = before
        api._players.clear()
        api._last = None


def ask(op: str, **args: Any) -> dict[str, Any]:
    """The reply of ``handle`` to one request, checked: one line, no internal error, within the CPU bound."""
    return ask_text(json.dumps({"op": op, "args": args}))  # NaN and Infinity too, as JavaScript cannot


def ask_text(request: str) -> dict[str, Any]:
    """:func:`ask` of a request's text."""
    began = time.process_time()
    text = handle(request)
    spent = time.process_time() - began
    reply = json.loads(text)
    assert set(reply) in ({"ok", "result"}, {"ok", "error"}), reply
    if not reply["ok"]:
        error = reply["error"]
        assert isinstance(error, str) and error and "\n" not in error, reply
        assert not error.startswith("internal error") and len(error) < 400, (request[:300], reply)
    if spent > CPU_LIMIT:  # this machine's noise (2 cores shared by several jobs): the better of two runs
        nd_webapi._hints.clear()
        again = time.process_time()
        handle(request)
        spent = min(spent, time.process_time() - again)
    assert spent <= CPU_LIMIT, f"{spent:.2f} s of CPU for {request[:3000]}"
    return reply


# ----- arbitrary JSON ---------------------------------------------------------------------------------

SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.integers(min_value=-(10**120), max_value=10**120),
    st.floats(),
    st.text(max_size=16),
    st.sampled_from(["c4", "skip", "e5", "m13", "n14", "a0", "", " ", "\u2028", "r", "b", "human"]),
)
JSON = st.recursive(
    SCALARS,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=10,
)
OP_NAMES = [
    *("info", "new_game", "state", "play", "undo", "load", "salvage", "explain", "hint", "computer_move")
]
ALL_OPS = [*OP_NAMES, *(f"nd_{op}" for op in OP_NAMES), "nd_hint_source"]
ARG_NAMES = ["game", "move", "humans", "ply", "analysis", "headers", "text", "level", "seed", "size", "point"]


@fuzz(400)
@given(
    st.one_of(
        st.fixed_dictionaries(
            {"op": st.sampled_from(ALL_OPS)},
            optional={"args": st.one_of(st.dictionaries(st.sampled_from(ARG_NAMES), JSON, max_size=5), JSON)},
        ),
        JSON,
    )
)
def test_arbitrary_json(message: Any) -> None:
    ask_text(json.dumps(message))


@fuzz(200)
@given(st.one_of(st.text(max_size=80), st.binary(max_size=80).map(lambda b: b.decode("latin-1"))))
def test_arbitrary_text(request: str) -> None:
    ask_text(request)


# ----- Unitile games ----------------------------------------------------------------------------------

BOARD = unitile_webapi.BOARD
CELL_NAMES = [BOARD.name(c) for c in range(BOARD.cells)]
#: Names that are no cell of the 5x5 board, or no name at all.
OFF_BOARD = ["f1", "a6", "a0", "z9", "c44", "", " ", "c\u0664", "skip", "a-1", "1a"]


@st.composite
def unitile_starts(draw: st.DrawFn) -> str | None:
    """None (the usual start) or the text of a custom 5x5 start: 12 red and 12 blue tiles and the bubble
    anywhere (sometimes both colours united, which is refused)."""
    if draw(st.booleans()):
        return None
    cells = draw(st.permutations(["R"] * 12 + ["B"] * 12 + ["."]))
    rows = ["".join(cells[r * 5 : r * 5 + 5]) for r in range(5)]
    return "/".join(rows) + " " + draw(st.sampled_from(["r", "b"]))


@st.composite
def unitile_games(draw: st.DrawFn) -> tuple[dict[str, Any], Game | None]:
    """A plain game of random legal slides from a random start, and its game (None when its start is
    refused: both colours united)."""
    start_text = draw(unitile_starts())
    start = Position.start(BOARD) if start_text is None else parse_position(start_text)
    if start.united("r") and start.united("b"):
        return {"start": start_text, "moves": []}, None
    tables = unitile_webapi.API.tables
    game = Game(start, tables)
    for _ in range(draw(st.integers(0, 40))):
        legal = game.legal_moves()
        if not legal:
            break
        game.push(legal[draw(st.integers(0, len(legal) - 1))])
    return {"start": start_text, "moves": [BOARD.name(m) for m in game.moves]}, game


SEEDS = st.one_of(
    st.integers(-5, 5),
    st.sampled_from([2**63, -(2**63), 2**70, 10**99, 1.5, -0.0, 1e300, math.inf, -math.inf, math.nan]),
    st.sampled_from([None, "1", True, [], {}]),
)
LEVELS = st.one_of(st.integers(1, 6), st.sampled_from([0, 7, -1, 2**64, 3.0, "3", None, True]))


def mutated(draw: st.DrawFn, args: dict[str, Any], required: tuple[str, ...]) -> tuple[dict[str, Any], bool]:
    """``args`` as they are, or with one argument dropped, one added, or one replaced by junk; and
    whether they are as they were."""
    what = draw(st.sampled_from(["same", "same", "same", "drop", "extra", "junk"]))
    before, args = args, dict(args)
    if what == "drop" and required:
        args.pop(draw(st.sampled_from(required)), None)
    elif what == "extra":
        args[draw(st.sampled_from(["bogus", "size", "move", "level", "seed", "ply"]))] = draw(SCALARS)
    elif what == "junk" and args:
        args[draw(st.sampled_from(sorted(args)))] = draw(JSON)
    return args, args == before


@fuzz(300)
@given(unitile_games(), st.data())
def test_unitile_games(made: tuple[dict[str, Any], Game | None], data: st.DataObject) -> None:
    plain, game = made
    draw = data.draw
    state = ask("state", game=plain)
    if game is None:
        assert state["ok"] is False and "both united" in state["error"], state
        return
    result = state["result"]
    assert state["ok"] and result["moves"] == plain["moves"] and result["plies"] == len(plain["moves"])
    assert sorted(result["legal"]) == sorted(BOARD.name(c) for c in game.legal_moves())
    # the record the page shows loads back as the same game; the salvaged link is the game itself
    assert ask("load", text=result["record"]) == {"ok": True, "result": plain}
    assert ask("salvage", game=plain) == {"ok": True, "result": {"game": plain, "problem": None}}
    legal = [BOARD.name(c) for c in game.legal_moves()]
    illegal = [n for n in CELL_NAMES if n not in legal]
    move = draw(
        st.one_of(st.sampled_from(legal or ["a1"]), st.sampled_from(illegal), st.sampled_from(OFF_BOARD))
    )
    played = ask("play", game=plain, move=move)
    assert played["ok"] is (move in legal), (move, played)
    explained = ask("explain", game=plain, move=move)
    assert explained["ok"] is True and (explained["result"] is None) is (move in legal), (move, explained)
    # a wrong move inside the game: refused, and the salvage keeps the slides before it
    if plain["moves"]:
        at = draw(st.integers(0, len(plain["moves"]) - 1))
        bad = {
            **plain,
            "moves": [*plain["moves"][:at], draw(st.sampled_from(OFF_BOARD)), *plain["moves"][at:]],
        }
        assert ask("state", game=bad)["ok"] is False
        salvaged = ask("salvage", game=bad)["result"]
        assert salvaged["game"]["moves"] == plain["moves"][:at] and salvaged["problem"], salvaged
    humans = draw(st.sampled_from([["r", "b"], [], ["r"], ["b"], ["x"], "rb", None]))
    undone = ask("undo", game=plain, humans=humans)
    if not plain["moves"] and isinstance(humans, list) and set(humans) <= {"r", "b"}:
        assert undone == {"ok": False, "error": "nothing to take back"}
    ply = draw(st.one_of(st.integers(-2, len(plain["moves"]) + 2), SEEDS))
    shown = ask("state", game=plain, ply=ply, humans=["r"], analysis=draw(st.booleans()))
    if isinstance(ply, int) and not isinstance(ply, bool) and 0 <= ply <= len(plain["moves"]):
        assert shown["ok"] and shown["result"]["ply"] == ply
    level, seed = draw(LEVELS), draw(SEEDS)
    args, same = mutated(draw, {"game": plain, "level": level, "seed": seed}, ("game", "level", "seed"))
    moved = ask("computer_move", **args)
    if same:
        assert (
            moved["result"] in legal
            if moved["ok"]
            else not legal
            or level not in range(1, 7)
            or seed in (2**63, -(2**63), 2**70, 10**99)
            or not isinstance(seed, int)
            or isinstance(level, bool)
        ), moved
    args, same = mutated(draw, {"game": plain}, ("game",))
    hinted = ask("hint", **args)
    if same:
        assert hinted["result"] in legal if legal else hinted == {"ok": False, "error": "the game is over"}
    # a start for another board, a game that is not an object
    other = draw(st.sampled_from(["RRR/R.B/BBB b", "RBR/B.B/RBR r", "RBRBR/BR.BR/RBRBR r", "x", 5]))
    assert ask("state", game={"start": other, "moves": plain["moves"]})["ok"] is False


# ----- Naked Diagonal games ---------------------------------------------------------------------------

#: Board sizes of the fuzzed games; explain and salvage are timed on these (larger boards: issue 35's
#: bound on the legality search, another part of the work).
ND_SIZES = st.integers(3, 9)


@st.composite
def nd_games(draw: st.DrawFn) -> tuple[dict[str, Any], NDGame]:
    """A plain Naked Diagonal game of random legal placements, from the empty board or from a custom
    start (itself reached by random legal placements, so that it can be played from)."""
    n = draw(ND_SIZES)
    start = NDPosition.empty(n)
    if draw(st.booleans()):
        pre = NDGame(start)
        for _ in range(draw(st.integers(0, n * n // 2))):
            legal = pre.legal_moves()
            if not legal:
                break
            pre.push(legal[draw(st.integers(0, len(legal) - 1))])
        start = pre.position
    game = NDGame(start)
    for _ in range(draw(st.integers(0, n * n // 2))):
        legal = game.legal_moves()
        if not legal:
            break
        game.push(legal[draw(st.integers(0, len(legal) - 1))])
    standard = start == NDPosition.empty(n)
    names = [game.name_of(m) for m in game.moves]
    if not draw(st.booleans()):  # the page may leave the skips out
        names = [name for name in names if name != "skip"]
    return {"size": n, "start": None if standard else str(start), "moves": names}, game


@fuzz(120)
@given(nd_games(), st.data())
def test_naked_diagonal_games(made: tuple[dict[str, Any], NDGame], data: st.DataObject) -> None:
    plain, game = made
    draw = data.draw
    grid = game.grid
    n = grid.n
    state = ask("nd_state", game=plain)
    if game.start.winner() is not None:
        return  # a custom start that is won already: nothing more to play
    assert state["ok"], state
    result = state["result"]
    assert result["moves"] == [game.name_of(m) for m in game.moves]
    legal = [grid.name(p) for p in game.legal_moves()]
    assert sorted(result["legal"]) == sorted(legal) and result["over"] is game.is_over()
    loaded = ask("nd_load", text=result["record"])
    assert loaded["ok"] and loaded["result"]["moves"] == result["moves"], loaded
    salvaged = ask("nd_salvage", game=plain)
    assert salvaged["ok"] and salvaged["result"]["problem"] is None, salvaged
    names = [grid.name(p) for p in range(grid.size)]
    off = [f"{chr(ord('a') + n)}1", f"a{n + 1}", "a0", "", "skip", "zz", "a1a"]
    point = draw(st.one_of(st.sampled_from(names), st.sampled_from(off)))
    played = ask("nd_play", game=plain, move=point)
    assert played["ok"] is (point in legal), (point, played)
    explained = ask("nd_explain", game=plain, point=point)
    if point in names and game.is_over():
        assert explained["ok"] and explained["result"]["kind"] == "over", explained
    elif point in names:
        assert explained["ok"] and (explained["result"] is None) is (point in legal), explained
    else:
        assert explained["ok"] is False
    # a size that disagrees with the start, a skip where none was, a point placed twice
    wrong = draw(st.sampled_from([{"size": n + 1}, {"size": 2}, {"size": 14}, {"size": "9"}, {"size": None}]))
    disagree = ask("nd_state", game={**plain, **wrong})
    if plain["start"] is not None:
        assert disagree["ok"] is True  # a start names its own size
    for moves in (
        [*plain["moves"], "skip"],
        [*plain["moves"], *plain["moves"][-1:]],
        [*plain["moves"], off[0]],
    ):
        if moves != plain["moves"]:
            refused = ask("nd_state", game={**plain, "moves": moves})
            assert refused["ok"] is False or (moves[-1] == "skip" and game.moves and game.moves[-1] == SKIP)
            ask("nd_salvage", game={**plain, "moves": moves})
    humans = draw(st.sampled_from([["r", "b"], [], ["b"], ["x"], None]))
    undone = ask("nd_undo", game=plain, humans=humans)
    if not game.moves and humans == ["r", "b"]:
        assert undone == {"ok": False, "error": "nothing to take back"}
    ply = draw(st.one_of(st.integers(-2, game.ply + 2), SEEDS))
    ask("nd_state", game=plain, ply=ply, headers=draw(st.one_of(st.none(), JSON)))
    if n <= 9:
        args, same = mutated(
            draw, {"game": plain, "level": draw(LEVELS), "seed": draw(SEEDS)}, ("game", "level")
        )
        moved = ask("nd_computer_move", **args)
        if moved["ok"] and same:
            assert moved["result"] in legal, (moved, legal)
    for op in ("nd_hint", "nd_hint_source"):
        args, same = mutated(draw, {"game": plain}, ("game",))
        hinted = ask(op, **args)
        if same and op == "nd_hint":
            assert hinted["result"] in legal if legal else hinted["ok"] is False, hinted
    ask("nd_new_game", **mutated(draw, {"size": draw(st.one_of(st.integers(0, 15), SEEDS))}, ("size",))[0])


# ----- the command lines ------------------------------------------------------------------------------

POSITIONS = [
    "BRBRB/RBRBR/BR.BR/BRBRB/RBRBR r",
    "RRR/R.B/BBB r",
    "RBR/B.B/RBR b",
    "RBRBR/BR.BR/RBRBR r",
    ".../.R./... b",
    "R../.R./... b",
    ".R./.R./.R. b",
    "R.B./B.R./.RR./B..B r",
    "...../...../...../...../..... r",
    "",
    "-",
    "x",
    "R" * 200 + " r",
    "\u2028",
    "³x3",
]
MOVES = ["c4", "d4", "a1", "b2", "c3", "skip", "hint", "quit", "zz", "a0", "e5", "C3", "c\u0664", "-1", ""]
OPTIONS = [
    "--json",
    "--adjacent-only",
    "--red",
    "--blue",
    "--seed",
    "--games",
    "--board",
    "--size",
    "--position",
    "--colour",
    "--tables",
    "--records",
    "-h",
    "--bogus",
    "-",
    "--",
]
OPTION_VALUES = [
    "1",
    "2",
    "3",
    "6",
    "0",
    "7",
    "-5",
    "human",
    "r",
    "b",
    "5x5",
    "3x3",
    "3x5",
    "4x4",
    "1x1",
    "0x0",
    "27x27",
    "٣x٣",
    "9",
    "13",
    "99999999999999999999",
    "1.5",
    "",
    "nan",
]
COMMANDS = [
    ["show"],
    ["slides"],
    ["record"],
    ["match"],
    ["play"],
    ["analyze"],
    ["nd", "show"],
    ["nd", "legal"],
    ["nd", "why"],
    ["nd", "record"],
    ["nd", "analyze"],
    ["nd", "play"],
    ["nd", "match"],
    ["naked-diagonal"],
    [],
    ["nope"],
]
#: What the input files hold: records, position lists, junk.
FILE_TEXTS = [
    b"",
    b"\xef\xbb\xbf*\n",
    b'[Board "5x5"]\n1. c4 d4 *\n',
    b'[Board "3x3"]\n1. b1 *\n',
    b'[Game "Naked Diagonal"]\n[Board "5x5"]\n1. c3 a1 *\n',
    b"BRBRB/RBRBR/BR.BR/BRBRB/RBRBR r\n\xff\n.../.R./... b\n",
    b".../.R./... b\n" * 50,
    b"\x00\x01\x02\xfe",
    b"1. " + b"c4 " * 5000 + b"*\n",
    b"x" * 200_000,
    b"\r\n\r\n",
    b"\xe2\x80\xa8.../.R./... b\n",
]


@st.composite
def argvs(draw: st.DrawFn, tmp: Path) -> list[str]:
    """A command line: a subcommand, then arguments, options and values from the pools above, files of
    the texts above, and random text."""
    argv = list(draw(st.sampled_from(COMMANDS)))
    files = [str(tmp / f"in{i}") for i in range(len(FILE_TEXTS))]
    word = st.one_of(
        st.sampled_from(POSITIONS),
        st.sampled_from(MOVES),
        st.sampled_from(OPTIONS),
        st.sampled_from(OPTION_VALUES),
        st.sampled_from([*files, str(tmp), str(tmp / "missing"), "/dev/null", str(tmp / "out" / "x")]),
        st.text(max_size=12),
    )
    argv += draw(st.lists(word, max_size=6))
    # a match plays at most a few games: its whole run is timed as one request
    return [
        ("2" if i > 0 and argv[i - 1] == "--games" and not a.startswith("-") else a)
        for i, a in enumerate(argv)
    ]


def run_cli(argv: list[str], stdin: bytes) -> tuple[int, str, str, float]:
    """``main(argv)`` in-process with standard input, output and error redirected: the exit status, the
    output, the errors and the seconds of CPU it took."""
    stdin_stream = io.TextIOWrapper(io.BytesIO(stdin), encoding="utf-8")
    out, err = io.StringIO(), io.StringIO()
    old_stdin = sys.stdin
    began = time.process_time()
    try:
        sys.stdin = stdin_stream
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                status = main(argv)
            except SystemExit as exit_:  # argparse: a usage error or --help
                status = exit_.code if isinstance(exit_.code, int) else 2
    finally:
        sys.stdin = old_stdin
    return status, out.getvalue(), err.getvalue(), time.process_time() - began


def check_errors(status: int, err: str, argv: list[str]) -> None:
    """Exit status 0, 1 or 2 and errors of one line (argparse's usage lines come before its one)."""
    assert status in (0, 1, 2), (argv, status, err)
    lines = err.splitlines()
    assert "Traceback" not in err and "internal error" not in err, (argv, err)
    if status == 0:
        return
    assert lines, (argv, status)
    if lines[0].startswith("usage:"):
        assert ": error: " in lines[-1], (argv, err)
    else:
        assert len(lines) == 1 and lines[0].startswith("error: "), (argv, err)


@pytest.fixture(scope="module")
def input_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    tmp = tmp_path_factory.mktemp("fuzz_inputs")
    for i, data in enumerate(FILE_TEXTS):
        (tmp / f"in{i}").write_bytes(data)
    return tmp


def test_command_lines(input_dir: Path) -> None:
    @fuzz(400)
    @given(argvs(input_dir), st.one_of(st.sampled_from(FILE_TEXTS), st.binary(max_size=40)))
    def run(argv: list[str], stdin: bytes) -> None:
        status, _, err, spent = run_cli(argv, stdin)
        check_errors(status, err, argv)
        assert spent <= CPU_LIMIT, f"{spent:.2f} s of CPU for {argv}"

    run()


@pytest.mark.parametrize(
    ("argv", "stdin"),
    [
        (["nd", "legal", "-"], b".../.R./... b\n\xff\n"),
        (["record", "-"], b"\x00" * 1000),
        (["nd", "why", ".R./.R./.R. b", "a1"], b""),
        (["nd", "analyze", "-", "--json"], b"\xe2\x80\xa8\n.../.../... r\n"),
        ([], b""),
    ],
)
def test_command_line_processes(argv: list[str], stdin: bytes) -> None:
    """A few of the same through a real process: the interpreter's own streams and exit."""
    done = subprocess.run(
        [sys.executable, "-m", "unitile_py", *argv],
        input=stdin,
        capture_output=True,
        timeout=120,
        cwd=ROOT,
        env={"PYTHONIOENCODING": "utf-8", "PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT)},
    )
    check_errors(done.returncode, done.stderr.decode("utf-8", "replace"), argv)


@pytest.mark.parametrize(
    ("argv", "says"),
    [
        (["slides", "x", "a\nb"], "unrecognized arguments: a\\nb"),
        (["nd", "show", ".../.../... r", "--x\x0c", "\u2028"], "unrecognized arguments: --x\\x0c \\u2028"),
        (["show", "x", "-" * 5000], "unrecognized arguments: " + "-" * 276 + "..."),
    ],
)
def test_argument_errors_are_one_line(argv: list[str], says: str) -> None:
    """Found by the fuzzing: argparse echoed an argument's line break or form feed, and any length of it,
    into its error line."""
    status, _, err, _ = run_cli(argv, b"")
    assert status == 2 and err.splitlines()[-1].endswith(f": error: {says}"), err
    check_errors(status, err, argv)
