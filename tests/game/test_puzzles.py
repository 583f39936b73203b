"""The puzzles of both games as shipped (tables/puzzles/): each one checked independently with ``analyze``,
the seeded choice, bad arguments and damaged files (one line, exit 2), and the web API's requests."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from unitile_py.naked_diagonal.webapi import Api as NDApi
from unitile_py.puzzles import GRADES, digest, file_name, grade_of, load, serialise
from unitile_py.unitile import Board
from unitile_py.unitile.tables import Tables
from unitile_py.unitile.webapi import Api
from unitile_py.webapi import handle

ROOT = Path(__file__).resolve().parents[2]
TABLES = ROOT / "tables"
ENV = {**os.environ, "PYTHONPATH": str(ROOT)}
#: (command prefix, game, board, size option) of every shipped puzzle file the commands read.
GAMES = [
    (["puzzles", "--board", "5x5"], "unitile", "5x5", ["analyze"]),
    (["nd", "puzzles", "--size", "4x4"], "naked-diagonal", "4x4", ["nd", "analyze"]),
    (["nd", "puzzles", "--size", "3x3"], "naked-diagonal", "3x3", ["nd", "analyze"]),
]


def run(args: list[str], stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "unitile_py", *args], capture_output=True, text=True,
                          input=stdin, timeout=300, env=ENV)  # fmt: skip


def one_error(done: subprocess.CompletedProcess[str], *words: str) -> str:
    """The one error line of a refused command (exit 2, nothing on standard output)."""
    err = done.stderr.strip()
    assert done.returncode == 2 and done.stdout == "" and err.count("\n") == 0, (done.returncode, err)
    assert all(w in err for w in words), err
    return err


@pytest.mark.parametrize(("command", "game", "board", "analyze"), GAMES)
def test_every_puzzle_has_exactly_one_winning_move_as_analyze_says(
    command: list[str], game: str, board: str, analyze: list[str]
) -> None:
    done = run([*command, "--count", "1000", "--json"])
    assert done.returncode == 0, done.stderr
    puzzles = [json.loads(line) for line in done.stdout.splitlines()]
    assert len(puzzles) >= 20 and len({p["position"] for p in puzzles}) == len(puzzles)
    assert {p["grade"] for p in puzzles} >= {"easy", "medium"}
    checked = run([*analyze, "-", "--json"], stdin="".join(p["position"] + "\n" for p in puzzles))
    assert checked.returncode == 0, checked.stderr
    for p, line in zip(puzzles, checked.stdout.splitlines(), strict=True):
        info = json.loads(line)
        assert p["position"].endswith(" r")
        assert (info["outcome"], info["distance"]) == ("win", p["distance"]), (p, info)
        wins = [m for m, r in info["moves"].items() if r["outcome"] == "win"]
        assert wins == [p["solution"]] and len(info["moves"]) > 1, (p, info)
        assert info["moves"][p["solution"]]["distance"] == p["distance"]
        assert p["grade"] == grade_of(p["distance"])


def test_the_same_seed_gives_the_same_puzzles() -> None:
    a, b, c = (run(["nd", "puzzles", "--size", "3x3", "--count", "5", "--seed", s, "--json"]) for s in "778")
    assert a.stdout == b.stdout and a.stdout != c.stdout and len(a.stdout.splitlines()) == 5
    hard = run(["puzzles", "--count", "3", "--seed", "2", "--grade", "hard", "--json"])
    assert [json.loads(line)["grade"] for line in hard.stdout.splitlines()] == ["hard"] * 3


def test_the_text_form_shows_the_board_and_the_solution() -> None:
    done = run(["puzzles", "--count", "1", "--seed", "4"])
    lines = done.stdout.splitlines()
    assert done.returncode == 0 and lines[0].startswith("puzzle ") and "red to move and win in" in lines[0]
    assert lines[-1].startswith("solution: ") and len(lines) > 6


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["puzzles", "--count", "0"], ["--count", "1 to 1000"]),
        (["puzzles", "--count", "x"], ["--count"]),
        (["puzzles", "--count", "1001"], ["--count"]),
        (["puzzles", "--seed", "-1"], ["--seed"]),
        (["puzzles", "--grade", "expert"], ["--grade"]),
        (["puzzles", "--board", "4x4"], ["board"]),
        (["puzzles", "--board", "3x7"], ["no puzzle file"]),
        (["nd", "puzzles", "--size", "9x9"], ["no puzzle file"]),
        (["nd", "puzzles", "--size", "nine"], ["expected NxN"]),
        (["nd", "puzzles", "--unknown"], ["unrecognized"]),
    ],
)
def test_bad_arguments_are_one_line(args: list[str], words: list[str]) -> None:
    one_error(run(args), *words)


def _copy(tmp_path: Path, name: str) -> Path:
    (tmp_path / "puzzles").mkdir()
    return Path(shutil.copyfile(TABLES / "puzzles" / name, tmp_path / "puzzles" / name))


def _damage(text: str, how: str) -> str:
    data = json.loads(text)
    if how == "truncated":
        return text[: len(text) // 2]
    if how == "edited":
        data["puzzles"][0]["distance"] += 2  # the checksum no longer matches
    elif how == "format":
        data["format"] = 2
    elif how == "game":
        data["game"] = "chess"
    elif how == "regraded":
        data["puzzles"][0]["grade"] = "hard"
        data["puzzles_sha256"] = digest(data["puzzles"])
    elif how == "not a list":
        data["puzzles"] = {}
    return serialise(data) if how != "not a list" else json.dumps(data)


@pytest.mark.parametrize("how", ["truncated", "edited", "format", "game", "regraded", "not a list", "empty"])
def test_a_damaged_puzzle_file_is_one_line(tmp_path: Path, how: str) -> None:
    path = _copy(tmp_path, file_name("naked-diagonal", "4x4"))
    path.write_text("" if how == "empty" else _damage(path.read_text(), how))
    err = one_error(run(["nd", "puzzles", "--tables", str(tmp_path)]), "is damaged", str(path))
    assert "Traceback" not in err


def test_a_missing_or_unreadable_puzzle_file_is_one_line(tmp_path: Path) -> None:
    one_error(run(["puzzles", "--tables", str(tmp_path)]), "no puzzle file")
    (tmp_path / "puzzles" / file_name("unitile", "5x5")).mkdir(parents=True)  # a folder, not a file
    one_error(run(["puzzles", "--tables", str(tmp_path)]), "no puzzle file")


# ----- the web API ----------------------------------------------------------------------------------


def ask(op: str, **args: Any) -> dict[str, Any]:
    """``handle``'s reply, within 1 s of CPU."""
    began = time.process_time()
    reply = json.loads(handle(json.dumps({"op": op, "args": args})))
    assert time.process_time() - began < 1.0, (op, args)
    return reply


def analyse(command: list[str], position: str) -> dict[str, Any]:
    done = run([*command, position, "--json"])
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)  # type: ignore[no-any-return]


@pytest.fixture(scope="module")
def loaded() -> None:
    ask("nd_info")
    from unitile_py.unitile.webapi import API  # the tables once, as the worker loads them

    if API.tables is None:
        API.load_tables(directory=str(TABLES))


REQUESTS = [("", {}, ["analyze"]), ("nd_", {"size": 4}, ["nd", "analyze"])]


@pytest.mark.parametrize(("prefix", "size", "analyze"), REQUESTS)
def test_puzzle_requests_answer_from_the_tables(
    loaded: None, prefix: str, size: dict[str, int], analyze: list[str]
) -> None:
    first = ask(prefix + "puzzle", index=0, **size)["result"]
    count = first["count"]
    assert "solution" not in first and first["index"] == 0 and first["turn"] == "r"
    seeded = [ask(prefix + "puzzle", seed=s, **size)["result"] for s in range(6)]
    assert seeded == [ask(prefix + "puzzle", seed=s, **size)["result"] for s in range(6)]
    assert len({p["index"] for p in seeded}) > 1
    hard = ask(prefix + "puzzle", seed=3, grade="medium", **size)["result"]
    assert hard["grade"] == "medium"
    p = seeded[0]
    info = analyse(analyze, p["position"])
    for move, result in info["moves"].items():
        reply = ask(prefix + "puzzle_try", index=p["index"], move=move, **size)["result"]
        assert reply["right"] == (result["outcome"] == "win")
        assert (reply["outcome"], reply["distance"]) == (result["outcome"], result["distance"])
        if not reply["right"]:
            unit = ("placement" if prefix else "ply") if result["distance"] == 1 else (
                "placements" if prefix else "plies")
            assert reply["text"].endswith(f"it loses in {result['distance']} {unit}.")
            assert "solution" not in reply
        else:
            assert reply["solution"] == move
    # A win in one: "1 ply" or "1 placement", not "1 plies".
    ones = [i for i in range(count) if ask(prefix + "puzzle", index=i, **size)["result"]["distance"] == 1]
    one = ask(prefix + "puzzle", index=ones[0], **size)["result"]
    assert one["text"] == f"Red to move and win (in 1 {'placement' if prefix else 'ply'} with perfect play)."
    for bad in ({"index": count}, {"index": -1}, {"index": "1"}, {"seed": -2}, {"grade": "expert"}):
        reply = ask(prefix + "puzzle", **bad, **size)
        assert reply["ok"] is False and "\n" not in reply["error"], (bad, reply)
    for move in ("z9", 5, None, "a1" if prefix else "a5"):
        reply = ask(prefix + "puzzle_try", index=p["index"], move=move, **size)
        legal = isinstance(move, str) and move in info["moves"]
        assert reply["ok"] is legal and ("\n" not in reply.get("error", "")), (move, reply)


def test_puzzle_requests_refuse_a_size_without_puzzles_and_damaged_text() -> None:
    reply = ask("nd_puzzle", size=7)
    assert reply["ok"] is False and "no puzzle file" in reply["error"]
    api, nd = Api(), NDApi()
    text = (TABLES / "puzzles" / file_name("unitile", "5x5")).read_text()
    api.load_puzzles(text)
    assert api.puzzle(index=1)["index"] == 1
    with pytest.raises(ValueError, match="is damaged"):
        api.load_puzzles(text[:-40])
    with pytest.raises(ValueError, match="is damaged"):
        nd.load_puzzles(4, text)  # Unitile's file for Naked Diagonal


def test_the_shipped_files_load_and_cover_every_grade_they_can() -> None:
    for game, board in (("unitile", "5x5"), ("naked-diagonal", "4x4"), ("unitile", "3x3"),
                        ("naked-diagonal", "3x3")):  # fmt: skip
        found = load(game, board)
        assert found.puzzles and {p.grade for p in found.puzzles} <= set(GRADES)


def _results(prefix: str, position: str) -> dict[str, tuple[str, int]]:
    """Each legal move's result for the mover with perfect play, from the tables (as ``analyze``)."""
    if prefix:
        from unitile_py.naked_diagonal.position import Position as NDPosition
        from unitile_py.naked_diagonal.tables import tables_for

        pos = NDPosition.parse(position)
        return {pos.grid.name(p): r for p, r in tables_for(pos.grid.n).moves(pos).items()}
    from unitile_py.unitile.notation import parse_position
    from unitile_py.unitile.webapi import API

    pos = parse_position(position)
    assert API.tables is not None
    return {pos.board.name(c): r for c, r in API.tables.moves(pos).items()}


@pytest.mark.parametrize(("prefix", "size"), [("", {}), ("nd_", {"size": 4})])
def test_puzzle_try_with_the_moves_played_judges_every_later_move(
    loaded: None, prefix: str, size: dict[str, int]
) -> None:
    """The Puzzles page plays a puzzle to the end: each of Red's later moves (``moves``: the turns since
    the puzzle's position) is right exactly when it keeps the win, a wrong one says it throws the win
    away and in how many moves it loses; level 6 answers; the game ends won by Red."""
    unit = "placements." if prefix else "plies."
    first = ask(prefix + "puzzle", index=0, **size)["result"]
    grades = [ask(prefix + "puzzle", index=i, **size)["result"]["grade"] for i in range(first["count"])]
    hard = [i for i, grade in enumerate(grades) if grade == "hard"]
    for index in hard[:3]:
        p = ask(prefix + "puzzle", index=index, **size)["result"]
        game: dict[str, Any] = {**size, "start": p["position"], "moves": []}
        later = 0
        while True:
            st = ask(prefix + "state", game=game)["result"]
            if st["over"]:
                break
            assert st["turn"] == "r"
            results = _results(prefix, st["position"])
            for move, (kind, distance) in results.items():
                args = {"index": index, "move": move, "moves": game["moves"], **size}
                reply = ask(prefix + "puzzle_try", **args)["result"]
                assert reply["right"] == (kind == "win") and reply["distance"] == distance, (move, reply)
                if game["moves"] and not reply["right"]:
                    assert reply["text"] == f"{move} throws the win away: it loses in {distance} {unit}"
                assert ("solution" in reply) == (reply["right"] and not game["moves"])
            best = min((d, m) for m, (k, d) in results.items() if k == "win")[1]
            game["moves"].append(best)
            later += 1
            st = ask(prefix + "state", game=game)["result"]
            if st["over"]:
                break
            if st["turn"] == "b":
                reply = ask(prefix + "computer_move", game=game, level=6, seed=1)
                game["moves"].append(reply["result"])
        assert st["winner"] == "r" and later >= 2, (index, game)
    # Blue to move: one line; so is a list of moves that is not one.
    st = ask(prefix + "puzzle", index=hard[0], **size)["result"]
    move = min((d, m) for m, (k, d) in _results(prefix, st["position"]).items() if k == "win")[1]
    for moves in ([move], "a1", [1], ["zz"]):
        reply = ask(prefix + "puzzle_try", index=hard[0], move=move, moves=moves, **size)
        assert reply["ok"] is False and "\n" not in reply["error"], (moves, reply)


def _move_results(game: str, position: str) -> dict[str, tuple[str, int]]:
    """Each legal move's result for the mover with perfect play, from the committed tables."""
    if game == "unitile":
        from unitile_py.unitile.notation import parse_position
        from unitile_py.unitile.tables import tables_for

        pos = parse_position(position)
        return {pos.board.name(c): r for c, r in tables_for(pos.board).moves(pos).items()}
    from unitile_py.naked_diagonal.position import Position
    from unitile_py.naked_diagonal.tables import tables_for as nd_tables_for

    nd = Position.parse(position)
    return {nd.grid.name(p): r for p, r in nd_tables_for(nd.grid.n).moves(nd).items()}


UNSOUND = {
    "unparsable": ("position", lambda p, results: "garbage", "position 'garbage'"),
    "another board": ("position", lambda p, results: "BRB/R.B/RBR r" if p["position"].count("/") == 4
                      else ".../.../... r", "is on a 3x3 board"),
    "blue to move": ("position", lambda p, results: p["position"][:-1] + "b", "Blue to move"),
    "illegal solution": ("solution", lambda p, results: "z9", "not a legal move"),
    "losing solution": ("solution", lambda p, results: min(m for m, r in results.items() if r[0] == "loss"),
                        "not the one winning move"),
    "wrong distance": ("distance", lambda p, results: p["distance"] + 2, "but the solution wins in"),
}


@pytest.mark.parametrize(("game", "board", "command"), [
    ("naked-diagonal", "4x4", ["nd", "puzzles", "--size", "4x4"]),
    ("unitile", "5x5", ["puzzles", "--board", "5x5"]),
])
@pytest.mark.parametrize("how", [*UNSOUND, "repeated"])
def test_an_unsound_puzzle_is_refused_though_its_checksum_matches(
    tmp_path: Path, game: str, board: str, command: list[str], how: str
) -> None:
    """Found by a hostile user (issue 51): a puzzle file whose checksum was signed again after a puzzle's
    position stopped parsing, moved to another board or to Blue, or its solution became illegal or losing,
    its distance wrong, or a puzzle was repeated, was accepted. Each is one line naming the puzzle."""
    path = _copy(tmp_path, file_name(game, board))
    folder = TABLES / "naked-diagonal" / board if game == "naked-diagonal" else TABLES / board
    shutil.copytree(folder, tmp_path / folder.relative_to(TABLES))
    data = json.loads(path.read_text())
    puzzle = data["puzzles"][3]
    if how == "repeated":
        data["puzzles"].append(dict(puzzle))
        says = f"puzzle {len(data['puzzles']) - 1} repeats puzzle 3"
    else:
        key, change, says = UNSOUND[how]
        puzzle[key] = change(puzzle, _move_results(game, puzzle["position"]))
        puzzle["grade"] = grade_of(puzzle["distance"])
    data["puzzles_sha256"] = digest(data["puzzles"])
    path.write_text(serialise(data))
    err = one_error(run([*command, "--tables", str(tmp_path), "--json"]), "is damaged", says)
    assert "Traceback" not in err
    # The page's worker gives the same text to the web service: it answers nothing from that puzzle.
    text = path.read_text()
    if game == "unitile":
        api = Api(Board.get(5, 5), Tables.load("5x5"))
        give, size = api.load_puzzles, {}
    else:
        nd = NDApi()
        give, size = lambda text: nd.load_puzzles(4, text), {"size": 4}
    if how == "repeated":
        with pytest.raises(ValueError, match=f"is damaged: {says}"):
            give(text)
        return
    give(text)
    service = api if game == "unitile" else nd
    for request, args in (("puzzle", {"index": 3}), ("puzzle_try", {"index": 3, "move": "c3"})):
        with pytest.raises(ValueError, match=f"is damaged: puzzle 3: .*{says}"):
            getattr(service, request)(**args, **size)
    assert service.puzzle(index=2, **size)["index"] == 2  # the sound ones still answer
