"""``puzzles --from FILE`` of both games: on seeded match files, exactly the plies ``review`` marks as
mistakes, each with the winning moves ``analyze`` lists; and each side's accuracy in the review agrees
with its verdicts."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest

from tests.game.test_game_files import MATCHES, cli, match_file
from tests.game.unitile.test_match import run_cli
from unitile_py.review import BEST, MISTAKE

#: More seeded matches, of weak levels, so that the games hold mistakes of both sides.
MORE = {
    "unitile": ([], ["--red", "1", "--blue", "1", "--games", "3", "--seed", "5"]),
    "nd": (["nd"], ["--size", "3x3", "--red", "1", "--blue", "2", "--games", "4", "--seed", "5"]),
}


def files(game: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> list[Path]:
    """The seeded match files of ``game``: the three-game file of the other tests and one more."""
    prefix, args = MORE[game]
    more = tmp_path / f"more-{game}.txt"
    assert run_cli([*prefix, "match", *args, "--records", str(more)], capsys)[0] == 0
    return [match_file(game, tmp_path, capsys), more]


def json_lines(game: str, argv: list[str], capsys: pytest.CaptureFixture[str]) -> list[dict[str, Any]]:
    status, out, err = cli(game, argv, capsys)
    assert (status, err) == (0, ""), err
    return [json.loads(line) for line in out.splitlines()]


def analyses(
    game: str, positions: list[str], capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> list[dict[str, Any]]:
    """``analyze - --json`` of each position."""
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO("\n".join(positions).encode())))
    return json_lines(game, ["analyze", "-", "--json"], capsys)


@pytest.mark.parametrize("game", sorted(MATCHES))
def test_puzzles_from_a_file_are_its_mistakes(
    game: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    found = 0
    for path in files(game, tmp_path, capsys):
        review = json_lines(game, ["review", str(path), "--json"], capsys)
        mistakes = [row for row in review if row.get("verdict") == MISTAKE]
        puzzles = json_lines(game, ["puzzles", "--from", str(path), "--json"], capsys)
        assert [(p["game"], p["ply"], p["position"], p["played"], p["mover"]) for p in puzzles] == [
            (m["game"], m["ply"], m["position"], m["move"], m["mover"]) for m in mistakes
        ]
        infos = analyses(game, [p["position"] for p in puzzles], capsys, monkeypatch) if puzzles else []
        for puzzle, info in zip(puzzles, infos, strict=True):
            wins = sorted(move for move, result in info["moves"].items() if result["outcome"] == "win")
            assert puzzle["solutions"] == wins and wins and puzzle["played"] not in wins
            assert (info["outcome"], info["distance"]) == ("win", puzzle["distance"])
        found += len(puzzles)
        status, text, err = cli(game, ["puzzles", "--from", str(path)], capsys)
        headings = [line for line in text.splitlines() if line.startswith("puzzle ")]
        assert (status, err, len(headings)) == (0, "", len(puzzles))
    assert found >= 5  # the seeded games hold mistakes to make puzzles of


@pytest.mark.parametrize("game", sorted(MATCHES))
def test_puzzles_from_a_bad_file(game: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "bad.txt"
    path.write_text("1. zz *\n")
    status, out, err = cli(game, ["puzzles", "--from", str(path)], capsys)
    assert status == 2 and out == "" and len(err.splitlines()) == 1 and err.startswith(f"error: {path}: ")
    status, out, err = cli(game, ["puzzles", "--from", str(tmp_path / "missing.txt")], capsys)
    assert status == 2 and "No such file" in err and len(err.splitlines()) == 1


@pytest.mark.parametrize("game", sorted(MATCHES))
def test_accuracy_agrees_with_the_verdicts(
    game: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for path in files(game, tmp_path, capsys):
        lines = json_lines(game, ["review", str(path), "--json"], capsys)
        summaries = {line["game"]: line["summary"] for line in lines if "summary" in line}
        assert sorted(summaries) == sorted({line["game"] for line in lines})
        for number, summary in summaries.items():
            for side in ("red", "blue"):
                verdicts = [r["verdict"] for r in lines if r["game"] == number and r.get("mover") == side]
                kept = len(verdicts) - verdicts.count(MISTAKE)
                best = verdicts.count(BEST)
                assert summary[side]["accuracy"] == {
                    "moves": len(verdicts),
                    "kept_result": kept,
                    "kept_distance": best,
                    "result": round(100 * kept / len(verdicts), 1) if verdicts else None,
                    "distance": round(100 * best / kept, 1) if kept else None,
                }
                assert summary[side]["mistakes"] == verdicts.count(MISTAKE)
