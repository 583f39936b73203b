"""``review`` of Unitile games: it agrees with ``analyze`` on every ply of seeded computer games, the
hand-checked 3x3 game, bad input in one line, and the web API's ``review`` request."""

from __future__ import annotations

import io
import itertools
import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.game.unitile.test_match import run_cli
from unitile_py.review import BEST, INACCURACY, MISTAKE
from unitile_py.unitile import Position
from unitile_py.unitile import webapi as unitile_webapi
from unitile_py.unitile.match import run_match
from unitile_py.unitile.tables import tables_for
from unitile_py.unitile.webapi import Api
from unitile_py.webapi import handle

#: The hand-checked 3x3 game of unitile_py/unitile/review.py's docstring.
GAME33 = '[Board "3x3"]\n1. b1 c1 2. c2 b2 3. b3 1-0\n'
#: The accuracy of a side without moves.
NO_MOVES = {"moves": 0, "kept_result": 0, "kept_distance": 0, "result": None, "distance": None}
#: Seeded computer games on 5x5: (Red's level, Blue's level, games, seed).
MATCHES = [(1, 6, 3, 1), (6, 1, 3, 2), (2, 1, 3, 3), (1, 2, 2, 4)]


def seeded_records() -> Iterator[tuple[str, list[str]]]:
    """The records of the seeded games of :data:`MATCHES`, and the names of their moves."""
    tables = tables_for("5x5")
    start = Position.start(tables.board)
    for red, blue, games, seed in MATCHES:
        _, played = run_match(red, blue, games, seed, tables, start)
        for result in played:
            yield result.game.record_text(), [tables.board.name(c) for c in result.moves]


def review_json(record: str, capsys: pytest.CaptureFixture[str], path: Path) -> list[dict]:
    path.write_text(record)
    status, out, err = run_cli(["review", str(path), "--json"], capsys)
    assert (status, err) == (0, ""), err
    *rows, last = [json.loads(line) for line in out.splitlines()]
    assert set(last) == {"summary"}  # the last line is the summary, with the accuracy
    return rows


def analyze_json(
    positions: list[str], capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> dict:
    """``analyze - --json`` of every position, by position text."""
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO("\n".join(positions).encode())))
    status, out, err = run_cli(["analyze", "-", "--json"], capsys)
    assert (status, err) == (0, "")
    infos = [json.loads(line) for line in out.splitlines()]
    return {info["position"]: info for info in infos}


def test_review_agrees_with_analyze_on_seeded_games(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    seen: set[str] = set()
    games = 0
    for record, moves in seeded_records():
        games += 1
        rows = review_json(record, capsys, tmp_path / "game.txt")
        assert [r["move"] for r in rows] == moves and [r["ply"] for r in rows] == list(
            range(1, len(moves) + 1)
        )
        infos = analyze_json([r["position"] for r in rows], capsys, monkeypatch)
        for row in rows:
            info = infos[row["position"]]
            assert row["mover"] == ("red" if row["position"].endswith(" r") else "blue")
            assert row["before"] == {"outcome": info["outcome"], "distance": info["distance"]}
            assert row["after"] == info["moves"][row["move"]]
            assert row["best"] == info["best"]
            had_win, loses = info["outcome"] == "win", info["moves"][row["move"]]["outcome"] == "loss"
            assert (row["verdict"] == MISTAKE) == (had_win and loses), row
            assert (row["verdict"] == BEST) == (row["move"] in info["best"]), row
            if row["verdict"] not in (MISTAKE, BEST):
                before, after = row["before"], row["after"]
                slower = (
                    before["outcome"] == after["outcome"] == "win" and after["distance"] > before["distance"]
                )
                hastened = (
                    before["outcome"] == after["outcome"] == "loss" and after["distance"] < before["distance"]
                )
                assert row["verdict"] == INACCURACY and (slower or hastened), row
            seen.add(row["verdict"])
        for row, after in itertools.pairwise(rows):
            assert row["mover"] != after["mover"]
    assert games == sum(m[2] for m in MATCHES)
    assert seen == {BEST, MISTAKE, INACCURACY}  # the games hold every verdict a review gives on 5x5


def test_the_hand_checked_3x3_game(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # From the 3x3 start Red loses in 5 plies, b3 the best (analyze's doctest); b1 loses in 4: a loss
    # hastened. Blue then wins in 3 by a1, c1 loses in 4: the win thrown away. The rest is perfect play.
    rows = review_json(GAME33, capsys, tmp_path / "g33.txt")
    assert [(r["move"], r["mover"], r["verdict"], r["best"]) for r in rows] == [
        ("b1", "red", INACCURACY, ["b3"]),
        ("c1", "blue", MISTAKE, ["a1"]),
        ("c2", "red", BEST, ["c2"]),
        ("b2", "blue", BEST, ["b2"]),
        ("b3", "red", BEST, ["a2", "b1", "b3"]),
    ]
    assert rows[0]["position"] == "BRB/R.B/RBR r"
    assert (rows[0]["before"], rows[0]["after"]) == (
        {"outcome": "loss", "distance": 5},
        {"outcome": "loss", "distance": 4},
    )
    assert (rows[1]["before"], rows[1]["after"]) == (
        {"outcome": "win", "distance": 3},
        {"outcome": "loss", "distance": 4},
    )
    status, out, err = run_cli(["review", str(tmp_path / "g33.txt")], capsys)
    assert status == 0 and err == ""
    lines = out.splitlines()
    assert lines[0].split() == ["ply", "mover", "move", "before", "after", "verdict", "best"]
    assert lines[2].split() == ["2", "blue", "c1", "win", "3", "loss", "4", "mistake", "a1"]
    assert lines[-2] == "red: 0 mistakes, 1 inaccuracy; blue: 1 mistake, 0 inaccuracies"
    assert lines[-1] == ("accuracy (result, distance): red 100.0% (3/3), 66.7% (2/3); "
                         "blue 50.0% (1/2), 100.0% (1/1)")


def test_a_record_without_moves_and_from_standard_input(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(b"*\n")))
    status, out, err = run_cli(["review", "-", "--json"], capsys)
    assert (status, err) == (0, "") and json.loads(out)["summary"]["red"]["accuracy"]["moves"] == 0
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(GAME33.encode())))
    status, out, _ = run_cli(["review", "-", "--json"], capsys)
    assert status == 0 and len(out.splitlines()) == 5 + 1


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("1. c4 c3 *", "-: ply 2, c3: neither unites a colour nor lowers the sum of the two values"),
        ("1. a1 *", "-: record: ply 1, a1: not next to the bubble"),
        ('[Board "3x7"]\n*', "-: tables 3x7: no lookup tables in"),
        ("1. c4 1-0", "-: record: result 1-0 but the moves give *"),
        ("\xff", "standard input: not UTF-8 text (byte 0)"),
        ("[Bad\n1. c4", "-: record line 1: expected"),
        ("", "-: record: empty"),
    ],
)
def test_bad_records_are_one_line(
    text: str, says: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(text.encode("latin-1"))))
    status, out, err = run_cli(["review", "-"], capsys)
    assert status == 2 and out == ""
    assert len(err.splitlines()) == 1 and err.startswith(f"error: {says}"), err


def test_bad_files_and_tables_are_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "g.txt").write_text(GAME33)
    for argv, says in (
        (["review", str(tmp_path / "missing.txt")], "No such file"),
        (["review", str(tmp_path)], "Is a directory"),
        (["review", str(tmp_path / "g.txt"), "--tables", str(tmp_path / "none")], "manifest.json is missing"),
        (["review"], "the following arguments are required: file"),
    ):
        status, out, err = run_cli(argv, capsys)
        assert status == 2 and out == "" and len(err.splitlines()) == 1 and says in err, (argv, err)


def test_the_web_api_review_request(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record, _ = next(seeded_records())
    rows = review_json(record, capsys, tmp_path / "game.txt")
    game = {"start": None, "moves": [r["move"] for r in rows]}
    request = json.dumps({"op": "review", "args": {"game": game}})
    monkeypatch.setattr(unitile_webapi.API, "tables", None)
    assert json.loads(handle(request)) == {
        "ok": False,
        "error": "the review needs the lookup tables, which are not loaded",
    }
    monkeypatch.setattr(unitile_webapi.API, "tables", tables_for("5x5"))
    monkeypatch.setattr(unitile_webapi.API, "_last", None)
    reply = json.loads(handle(request))
    assert reply["ok"], reply
    assert reply["result"]["plies"] == rows  # the command line's plies, one for one
    summary = reply["result"]["summary"]
    for side in ("red", "blue"):
        mine = [r["verdict"] for r in rows if r["mover"] == side]
        assert summary[side]["mistakes"] == mine.count(MISTAKE)
        assert summary[side]["inaccuracies"] == mine.count(INACCURACY)
        assert summary[side]["accuracy"]["moves"] == len(mine)
    assert json.loads(
        handle(json.dumps({"op": "review", "args": {"game": {"start": None, "moves": []}}}))
    ) == {
        "ok": True,
        "result": {"plies": [], "summary": {s: {"mistakes": 0, "inaccuracies": 0, "accuracy": NO_MOVES}
                                            for s in ("red", "blue")}},
    }
    bad = json.loads(
        handle(json.dumps({"op": "review", "args": {"game": {"start": None, "moves": ["c4", "c3"]}}}))
    )
    assert bad == {
        "ok": False,
        "error": "ply 2, c3: neither unites a colour nor lowers the sum of the two values",
    }
    assert not json.loads(handle(json.dumps({"op": "review", "args": {}})))["ok"]


def test_review_of_the_3x3_board_through_an_api() -> None:
    api = Api(tables_for("3x3").board, tables_for("3x3"))
    review = api.review(api.load(GAME33))
    assert [r["verdict"] for r in review["plies"]] == [INACCURACY, MISTAKE, BEST, BEST, BEST]
    assert {side: (s["mistakes"], s["inaccuracies"]) for side, s in review["summary"].items()} == {
        "red": (0, 1),
        "blue": (1, 0),
    }
