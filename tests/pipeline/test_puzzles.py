"""``python -m pipeline puzzles`` and ``nd-puzzles``: the committed small-board files reproduced byte for
byte, the Unitile scan against the game's own reader on every 3x3 position, no near duplicates, and an
atomic write."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from pipeline.cli import main
from pipeline.puzzles import write
from pipeline.unitile.puzzles import scan
from pipeline.unitile.store import Store
from tests.pipeline.test_bad_input_and_damage import B33, cli
from unitile_py.colours import RED
from unitile_py.puzzles import file_name, load
from unitile_py.unitile.position import Position
from unitile_py.unitile.tables import tables_for

ROOT = Path(__file__).resolve().parents[2]
COMMITTED = ROOT / "tables" / "puzzles"


def _arguments(name: str) -> list[str]:
    """The arguments of the command recorded in a committed file, without ``python -m pipeline``."""
    command = json.loads((COMMITTED / name).read_text())["command"].split()
    assert command[:3] == ["python", "-m", "pipeline"]
    return command[3:]


def test_nd_puzzles_reproduces_the_committed_3x3_file(tmp_path: Path) -> None:
    name = file_name("naked-diagonal", "3x3")
    assert main([*_arguments(name), "--out", str(tmp_path), "--quiet"]) == 0
    assert (tmp_path / name).read_bytes() == (COMMITTED / name).read_bytes()
    assert [p.name for p in tmp_path.iterdir()] == [name]  # no partial file left


def test_puzzles_reproduces_the_committed_3x3_file(built33: tuple[Path, Path], tmp_path: Path) -> None:
    name = file_name("unitile", "3x3")
    args = [*_arguments(name), "--store", str(built33[0]), "--out", str(tmp_path), "--quiet"]
    assert main(args) == 0
    assert (tmp_path / name).read_bytes() == (COMMITTED / name).read_bytes()
    other = tmp_path / "other"
    other.mkdir()
    assert main([*args[:-3], "--seed", "2", "--out", str(other), "--quiet"]) == 0
    assert (other / name).read_bytes() != (COMMITTED / name).read_bytes()


def test_the_unitile_scan_finds_exactly_the_positions_the_reader_calls_puzzles(
    built33: tuple[Path, Path],
) -> None:
    """Every 3x3 position, Red to move: exactly one winning slide of two or more, by the game's reader."""
    index, slots, distances = scan(Store(str(built33[0]), B33))
    found = {int(i): (int(k), int(d)) for i, k, d in zip(index, slots, distances, strict=True)}
    t = tables_for("3x3", built33[1])
    want = {}
    for i in range(B33.positions):
        p = Position.from_index(B33, i, RED)
        if p.winner() is not None:
            continue
        moves = t.moves(p)
        wins = [c for c, (kind, _) in moves.items() if kind == "win"]
        if len(wins) == 1 and len(moves) > 1:
            want[i] = (B33.neighbours[p.bubble].index(wins[0]), t.outcome(p)[1])
    assert found == want and len(want) > 20


@pytest.mark.parametrize(("game", "board"), [("unitile", "5x5"), ("naked-diagonal", "4x4")])
def test_no_two_shipped_puzzles_are_symmetric_or_on_one_line(game: str, board: str) -> None:
    """No symmetric images, and no puzzle is another one a move or two on (Unitile: within two slides;
    Naked Diagonal: its stones plus one or two)."""
    puzzles = load(game, board).puzzles
    if game == "unitile":
        from pipeline.unitile.puzzles import _key, _near
        from unitile_py.unitile.notation import parse_position

        keys = [_key(parse_position(p.position)) for p in puzzles]
        near = [set(_near(parse_position(p.position))) for p in puzzles]
    else:
        from pipeline.naked_diagonal.puzzles import _near as nd_near
        from unitile_py.naked_diagonal.keys import canonical_key
        from unitile_py.naked_diagonal.position import Position as NDPosition

        keys = [canonical_key(NDPosition.parse(p.position)) for p in puzzles]
        near = [set(nd_near(NDPosition.parse(p.position))) for p in puzzles]
    assert len(set(keys)) == len(keys)
    for i, k in enumerate(keys):
        assert all(k not in near[j] for j in range(len(keys)) if j != i)
    data = json.loads((COMMITTED / file_name(game, board)).read_text())
    per = {g: sum(p.grade == g for p in puzzles) for g in ("easy", "medium", "hard")}
    assert all(n == data["per_band"] or n == data["qualifying_by_grade"][g] for g, n in per.items()), per


def test_a_failed_write_leaves_the_old_file_and_no_partial_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "p.json"
    path.write_text("old")

    def refuse(a: str, b: str) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", refuse)
    with pytest.raises(OSError):
        write(path, {"format": 1, "puzzles": []})
    assert path.read_text() == "old" and [p.name for p in tmp_path.iterdir()] == ["p.json"]


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["puzzles", "--board", "4x4"], "must be odd"),
        (["puzzles", "--board", "3x3", "--per-band", "0"], "--per-band"),
        (["puzzles", "--board", "3x3", "--seed", "x"], "--seed"),
        (["nd-puzzles", "--board", "5x5"], "2x2 to 4x4"),
        (["nd-puzzles", "--board", "3x3", "--tables", "/nonexistent"], "no tables"),
    ],
)
def test_bad_arguments_are_one_line(args: list[str], words: str) -> None:
    done = cli(*args)
    err = done.stderr.decode().strip()
    assert done.returncode == 2 and err.count("\n") == 0 and words in err, err


@pytest.mark.parametrize("command", [["nd-puzzles", "--board", "3x3"],
                                     ["puzzles", "--board", "3x3", "--store", "/nonexistent/store"]])
def test_a_missing_out_folder_is_one_line_and_not_made(command: list[str], tmp_path: Path) -> None:
    """Found by a hostile user (issue 51): ``nd-puzzles --out /missing/dir`` made the missing folders.
    A missing ``--out`` folder, or a file there, is one line before any work, and nothing is made."""
    missing = tmp_path / "missing" / "dir"
    a_file = tmp_path / "file"
    a_file.write_text("x")
    for out, words in ((missing, "no such folder"), (a_file, "not a folder")):
        done = cli(*command, "--out", str(out))
        err = done.stderr.decode().strip()
        assert done.returncode == 2 and err.count("\n") == 0 and f"--out {out}: {words}" in err, err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["file"]
