"""``python -m unitile_py naked-diagonal`` (or ``nd``): legal, show, why, record, match and play, and
one-line errors with exit status 2."""

from __future__ import annotations

import io
import json
import subprocess
import sys

import pytest

from tests.game.naked_diagonal.test_game import random_game
from unitile_py.cli import main
from unitile_py.naked_diagonal.legality import legal_placements
from unitile_py.naked_diagonal.position import Position
from unitile_py.webapi import handle


def run_cli(args: list[str], stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "unitile_py", *args], input=stdin, capture_output=True, text=True, timeout=120
    )


def test_command_line_legal_json_for_many_positions() -> None:
    positions = [str(random_game(4, s, plies=s % 6).position) for s in range(6)]
    done = run_cli(["nd", "legal", "-", "--json"], "\n".join([*positions, "garbage"]) + "\n")
    assert done.returncode == 2
    lines = [json.loads(line) for line in done.stdout.splitlines()]
    assert len(lines) == 7 and "error" in lines[-1]
    for text, info in zip(positions, lines, strict=False):
        position = Position.parse(text)
        red, blue = legal_placements(position)
        g = position.grid
        assert info == {
            "red": sorted(g.names(sum(1 << p for p in red))),
            "blue": sorted(g.names(sum(1 << p for p in blue))),
            "winner": None,
        }


def test_command_line_show_why_record_and_errors(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["naked-diagonal", "show", ".../.../... r", "b2", "c2"]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[-1] == "Red to move" and "2 . R B" in out
    assert main(["nd", "why", ".../.R./... r", "a3"]) == 0
    assert capsys.readouterr().out == "Red on a3 forms a naked diagonal with b2\n"
    assert main(["nd", "why", ".../.R./... b", "a3"]) == 0
    assert capsys.readouterr().out == "Blue on a3 is legal\n"
    for argv, message in (
        (["nd", "show", ".../.../... r", "b2", "b2"], "error: ply 2, b2: b2 is not empty\n"),
        (
            ["nd", "show", "R../.R./... r"],
            "error: position 'R../.R./... r': a3 and b2 form a naked diagonal of Red\n",
        ),
        (["nd", "why", ".../.../... r", "d9"], "error: point 'd9': no such cell on a 3x3 board\n"),
    ):
        assert main(argv) == 2
        assert capsys.readouterr().err == message
    done = run_cli(["nd", "record", "-"], '[Board "3x3"]\n1. b2 c2 2. b3 c3 3. a2 a1 4. b1 *\n')
    assert done.returncode == 0 and done.stdout.startswith('[Game "Naked Diagonal"]\n[Board "3x3"]\n')
    assert (
        "1. b2 c2 2. b3 c3 3. a2 a1 4. b1 1-0\n" in done.stdout and "Red has won: b3 a2 b2 b1" in done.stdout
    )


def test_command_line_match_and_play() -> None:
    done = run_cli(["nd", "match", "--red", "2", "--blue", "1", "--games", "4", "--size", "4x4", "--json"])
    assert done.returncode == 0
    summary = json.loads(done.stdout)
    assert summary["games"] == 4 and summary["red_wins"] + summary["blue_wins"] == 4
    done = run_cli(["nd", "play", "--size", "3x3", "--blue", "1"], "b2\nzz\nquit\n")
    assert done.returncode == 0 and "game left unfinished" in done.stdout
    assert "move 'zz': expected a file letter" in done.stdout


def test_why_after_a_win_says_the_game_is_over_as_the_web_api_does(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Issue 35: ``nd why ".R./.R./.R. b" a1`` said "Blue on a1 is legal" after Red had won."""
    over = "The game is over: Red has won."
    for argv in (["nd", "why", ".R./.R./.R. b", "a1"], ["nd", "why", ".R./.R./.R. b", "a1", "--colour", "r"]):
        assert main(argv) == 0
        assert capsys.readouterr().out == over + "\n"
    game = {"start": ".R./.R./.R. b", "moves": []}
    reply = json.loads(handle(json.dumps({"op": "nd_explain", "args": {"game": game, "move": "a1"}})))
    assert reply == {"ok": True, "result": {"kind": "over", "move": "a1", "colour": "b", "text": over}}


def test_every_command_taking_a_position_says_the_game_is_over_as_why_does(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Issue 35: ``nd legal ".R./.R./.R. b"`` printed "red: -" and "blue: -" after Red had won; analyze
    and play --position said it in words of their own."""
    won = ".R./.R./.R. b"
    over = "The game is over: Red has won."
    for argv in (["nd", "legal", won], ["nd", "analyze", won], ["nd", "why", won, "a1"]):
        assert main(argv) == 0
        assert capsys.readouterr().out == over + "\n", argv
    assert json.loads(run_cli(["nd", "legal", won, "--json"]).stdout)["winner"] == "red"
    done = run_cli(["nd", "legal", "-"], f"{won}\n.../.R./... b\n")
    assert done.returncode == 0 and done.stdout.startswith(over + "\nred: ")
    for argv in (["nd", "play", "--position", won], ["nd", "match", "--red", "1", "--blue", "1",
                                                      "--position", won]):
        assert main(argv) == 2
        assert capsys.readouterr().err == f"error: --position: {over}\n"


def test_a_start_with_an_nde_area_is_refused_by_play_match_and_record() -> None:
    """Issue 35: the web API refuses a start with an NDE area (no placement is legal there for either
    colour), but nd play drew ``R.B./B.R./.RR./B..B r`` and asked Red for a move there ("(; hint; quit)",
    a hint then ended the game in an error), match failed after starting, and nd record accepted it
    as "Red to move"."""
    nde = "R.B./B.R./.RR./B..B r"
    says = "the start position leaves the NDE area b4 b3: no placement is legal in it"
    for argv, stdin in (
        (["nd", "play", "--position", nde, "--blue", "1"], "hint\nquit\n"),
        (["nd", "play", "--position", nde, "--red", "1", "--blue", "1"], ""),
        (["nd", "match", "--position", nde, "--red", "1", "--blue", "1", "--games", "1"], ""),
    ):
        done = run_cli(argv, stdin)
        assert (done.returncode, done.stdout, done.stderr) == (2, "", f"error: --position: {says}\n"), argv
    done = run_cli(["nd", "record", "-"], f'[Position "{nde}"]\n*\n')
    assert (done.returncode, done.stdout, done.stderr) == (2, "", f"error: -: record: {says}\n")
    game = {"start": nde, "moves": []}
    reply = json.loads(handle(json.dumps({"op": "nd_state", "args": {"game": game}})))
    assert reply == {"ok": False, "error": says}  # the web API's words, the same rule


@pytest.mark.parametrize("args", [
    ["nd", "play", "--size", "14x14", "--red", "1", "--blue", "1"],
    ["nd", "match", "--size", "26x26", "--red", "1", "--blue", "1", "--games", "1"],
    ["nd", "legal", "/".join(["." * 20] * 20) + " r"],
    ["nd", "why", "/".join(["." * 14] * 14) + " r", "a1"],
    ["nd", "show", "/".join(["." * 26] * 26) + " r", "a1"],
    ["nd", "match", "--position", "/".join(["." * 24] * 24) + " b", "--red", "1", "--blue", "1"],
    ["nd", "record", "-"],
])
def test_a_board_larger_than_13x13_is_refused_in_one_line(args: list[str], capsys: pytest.CaptureFixture[str],
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    """The engine's grid goes to 26x26, where a match can run for minutes without a move
    (docs/naked-diagonal.md, "Requests in bounded time"); the command line stops where the site does,
    before any work."""
    monkeypatch.setattr(sys, "stdin", io.StringIO('[Game "Naked Diagonal"]\n[Board "20x20"]\n\na1 b2 *\n'))
    assert main(args) == 2
    out, err = capsys.readouterr()
    n = next(k for k in range(14, 27) if f"a {k}x{k} board" in err)
    assert out == "" and err.count("\n") == 1
    assert err == (f"error: {'-: ' if args[1] == 'record' else ''}a {n}x{n} board is refused: the command "
                   f"line plays up to 13x13, as the site does\n")


def test_13x13_is_still_played_on_the_command_line() -> None:
    done = run_cli(["nd", "match", "--size", "13x13", "--red", "1", "--blue", "1", "--games", "1", "--json"])
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["games"] == 1
