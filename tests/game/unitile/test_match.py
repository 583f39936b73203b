"""Matches between levels and the ``match`` and ``play`` subcommands (on the committed small tables)."""

from __future__ import annotations

import io
import json
import re
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.game.unitile.oracle import lookups, oracle
from unitile_py.cli import main
from unitile_py.colours import BLUE, RED
from unitile_py.seeds import game_seed
from unitile_py.unitile import Position, parse_record
from unitile_py.unitile.match import play_game, run_match
from unitile_py.unitile.players import make_player
from unitile_py.unitile.terminal_play import play_in_terminal


def run_cli(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    """Run the command line in this process: ``(status, stdout, stderr)``."""
    try:
        status = main(argv)
    except SystemExit as exc:  # argparse's own usage errors
        status = int(exc.code or 0)
    out, err = capsys.readouterr()
    return status, out, err


def test_match_summary_agrees_with_its_games() -> None:
    tables = lookups("tables:3x5")
    start = Position.start(tables.board)
    summary, played = run_match(5, 1, 30, 7, tables, start)
    assert summary.games == len(played) == 30
    assert summary.red_wins == sum(r.winner == RED for r in played)
    assert summary.red_wins + summary.blue_wins == 30
    assert summary.mean_plies == pytest.approx(sum(len(r.moves) for r in played) / 30)
    assert summary.red_wins >= 28  # Red wins 3x5 with perfect play; level 5 finds it against random
    for colour in (RED, BLUE):
        times = [t for r in played for t in r.seconds[colour]]
        assert summary.seconds_per_move[colour] == pytest.approx(sum(times) / len(times))
        assert all(t >= 0 for t in times)
    truth = oracle("3x5")
    for result in played:
        record = parse_record(result.game.record_text())
        assert record.moves == list(result.moves)
        assert record.result == ("1-0" if result.winner == RED else "0-1")
        assert record.headers["Red"].startswith("level 5 seed ")
        position = start
        for cell in record.moves:
            assert cell in truth.legal(position)
            position = position.play(cell)


def test_each_game_of_a_match_can_be_replayed_alone() -> None:
    tables = lookups("tables:5x5")
    start = Position.start(tables.board)
    _, played = run_match(4, 2, 3, 11, tables, start)
    _, again = run_match(4, 2, 3, 11, tables, start)
    assert [r.moves for r in played] == [r.moves for r in again]
    _, other = run_match(4, 2, 3, 12, tables, start)
    assert [r.moves for r in played] != [r.moves for r in other]
    g = 2
    alone = play_game(
        make_player(4, game_seed(11, g, RED), tables),
        make_player(2, game_seed(11, g, BLUE), tables),
        tables,
        start,
    )
    assert alone.moves == played[g].moves
    assert played[g].game.headers["Red"] == f"level 4 seed {game_seed(11, g, RED)}"


def test_match_json_and_records(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    records = tmp_path / "games.txt"
    argv = ["match", "--red", "1", "--blue", "6", "--games", "12", "--seed", "3", "--board", "3x5"]
    status, out, err = run_cli([*argv, "--json", "--records", str(records)], capsys)
    assert (status, err) == (0, "")
    lines = out.strip().splitlines()
    assert len(lines) == 1
    summary = json.loads(lines[0])
    assert set(summary) == {"red_wins", "blue_wins", "games", "mean_plies", "seconds_per_move"}
    assert set(summary["seconds_per_move"]) == {"red", "blue"}
    assert summary["games"] == 12 and summary["red_wins"] + summary["blue_wins"] == 12
    texts = records.read_text(encoding="utf-8").strip().split("\n\n")
    assert len(texts) == 12
    parsed = [parse_record(t) for t in texts]
    assert sum(r.result == "1-0" for r in parsed) == summary["red_wins"]
    assert sum(len(r.moves) for r in parsed) / 12 == pytest.approx(summary["mean_plies"])
    assert all(r.headers["Board"] == "3x5" and r.headers["Blue"].startswith("level 6") for r in parsed)
    # The same seed plays the same games; the text summary says the same.
    status, text, _ = run_cli(argv, capsys)
    assert status == 0
    assert f"red wins {summary['red_wins']} " in text
    assert f"mean game length {summary['mean_plies']:.2f} plies" in text


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--games", "-1"], "--games -1"),
        (["--board", "4x4"], "number of cells must be odd"),
        (["--board", "7x7"], "tables 7x7"),
        (["--tables", "/nonexistent/tables"], "manifest.json is missing"),
        (["--records", "/nonexistent/dir/games.txt"], "--records"),
    ],
)
def test_match_bad_input_is_one_line(
    args: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, err = run_cli(["match", "--red", "1", "--blue", "1", "--games", "2", *args], capsys)
    assert status == 2
    assert out == ""
    assert len(err.strip().splitlines()) == 1 and message in err, err


@pytest.mark.parametrize("level", ["0", "7", "x", "human"])
def test_match_rejects_other_levels(level: str, capsys: pytest.CaptureFixture[str]) -> None:
    status, _, err = run_cli(["match", "--red", level, "--blue", "1"], capsys)
    assert status == 2
    assert "expected 1 to 6" in err


def scripted(lines: list[str]) -> tuple[Callable[[str], str], list[str]]:
    """A reader that answers ``lines`` first, then the first legal slide named in each prompt."""
    prompts: list[str] = []

    def read(prompt: str) -> str:
        prompts.append(prompt)
        if lines:
            return lines.pop(0)
        match = re.search(r"\(([a-i1-9 ]+);", prompt)
        assert match, prompt
        return match.group(1).split()[0]

    return read, prompts


def test_human_against_level_6_with_bad_input_and_a_hint() -> None:
    tables = lookups("tables:3x3")
    start = Position.start(tables.board)
    # At the start of 3x3 the slides are b3, a2, c2, b1; only b3 and b1 are legal; b3 is best.
    read, prompts = scripted(["", "z9", "a1", "a2", "hint"])
    out: list[str] = []
    record = play_in_terminal({RED: "human", BLUE: "6"}, 1, tables, start, read, out.append)
    text = "\n".join(out)
    assert "type a move, one of: b3 b1" in text
    assert "'z9': no such cell on a 3x3 board; the legal moves are b3 b1" in text
    assert "a1: not next to the bubble; the legal moves are b3 b1" in text
    assert "a2: neither unites a colour nor lowers the sum of the two values" in text
    assert "hint: b3" in text
    assert prompts[0].startswith("red to move (b3 b1; hint; quit)")
    assert len(prompts) >= 6
    assert record.result == "0-1"  # Blue wins 3x3 with perfect play
    assert "blue wins" in text and text.endswith("0-1")
    position = start
    for cell in record.moves:
        assert cell in oracle("3x3").legal(position)
        position = position.play(cell)
    assert position.winner() == BLUE


def test_play_ends_cleanly_at_end_of_input(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("b3\n"))
    status, out, err = run_cli(["play", "--red", "human", "--blue", "6", "--board", "3x3"], capsys)
    assert (status, err) == (0, "")
    assert "blue (level 6) plays" in out
    assert "game left unfinished" in out
    assert out.rstrip().endswith("*")
    assert "Traceback" not in out


def test_play_quit(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("quit\n"))
    status, out, _ = run_cli(["play", "--board", "3x3"], capsys)
    assert status == 0
    assert "game left unfinished" in out


def test_play_between_computers_matches_game_1_of_a_match(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run_cli(["play", "--red", "5", "--blue", "2", "--seed", "4", "--board", "5x5"], capsys)
    assert (status, err) == (0, "")
    record_text = out[out.index("[Red") :]
    played = parse_record(record_text)
    _, games = run_match(5, 2, 1, 4, lookups("tables:5x5"), Position.start(played.start.board))
    assert played.moves == list(games[0].moves)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--red", "9"], "expected human or a level 1 to 6"),
        (["--position", "BRB/R.B/RBX r"], "cells are R, B or ."),
        (["--position", "RRR/R.B/BBB r"], "already united"),
    ],
)
def test_play_bad_arguments(args: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    status, _, err = run_cli(["play", *args], capsys)
    assert status == 2
    assert message in err
