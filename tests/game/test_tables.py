"""The committed lookup tables read by unitile_py.tables: answers against the reference, loading errors,
and the 5x5 checks from the rules."""

from __future__ import annotations

import json
import random
import shutil
from pathlib import Path

import pytest

from tests.game.oracle import oracle
from unitile_py import Board, Position, UnitileError
from unitile_py.tables import ENV, Tables, tables_for

ROOT = Path(__file__).resolve().parents[2]
TABLES = ROOT / "tables"


@pytest.mark.parametrize("size", ["3x3", "3x5"])
def test_positions_match_the_reference(size: str) -> None:
    """Every position of 3x3; on 3x5 a seeded sample (the rebuild test decodes every 3x5 position)."""
    ref = oracle(size)
    board = ref.board
    tables = tables_for(size)
    indices = (
        range(board.positions) if size == "3x3" else random.Random(35).sample(range(board.positions), 600)
    )
    for i in indices:
        for turn in "rb":
            p = Position.from_index(board, i, turn)
            assert tables.legal(p) == ref.legal(p)
            if p.winner() is not None:
                assert tables.best(p) == ()
                with pytest.raises(UnitileError, match="game is over"):
                    tables.outcome(p)
                continue
            assert tables.outcome(p) == ref.outcome(p)
            assert tables.best(p) == ref.best(p)


def test_moves_give_the_result_after_each_legal_slide() -> None:
    ref = oracle("3x5")
    tables = tables_for("3x5")
    position = Position.start(ref.board)
    for _ in range(8):
        if position.winner() is not None:
            break
        moves = tables.moves(position)
        assert set(moves) == set(ref.legal(position))
        assert all(moves[c] == ref.after(position, c) for c in moves)
        position = position.play(tables.best(position)[0])


@pytest.mark.skipif(not (TABLES / "5x5" / "manifest.json").exists(), reason="tables/5x5 not built yet")
def test_5x5_checks_from_the_rules() -> None:
    board = Board.get(5, 5)
    tables = tables_for(board)
    start = Position.start(board)
    outcome, plies = tables.outcome(start)
    assert outcome == "loss" and plies > 10  # Blue, the second player, wins with perfect play
    after = start.play(board.cell("c4"))
    legal = tables.legal(after)
    assert len(legal) == 3 and board.cell("c3") not in legal
    assert all(tables.outcome(start.play(c)) == ("win", plies - 1) for c in tables.best(start))


@pytest.mark.skipif(not (TABLES / "5x5" / "manifest.json").exists(), reason="tables/5x5 not built yet")
def test_5x5_perfect_play_reaches_the_end_in_the_promised_plies() -> None:
    board = Board.get(5, 5)
    tables = tables_for(board)
    position = Position.start(board)
    outcome, plies = tables.outcome(position)
    played = 0
    while position.winner() is None:
        assert tables.outcome(position) == (outcome if played % 2 == 0 else _other(outcome), plies - played)
        legal = tables.legal(position)
        best = tables.best(position)
        assert best and set(best) <= set(legal)
        position = position.play(best[-1])
        played += 1
    assert played == plies
    loser = "r" if outcome == "loss" else "b"
    assert position.winner() != loser


def _other(outcome: str) -> str:
    return "loss" if outcome == "win" else "win"


@pytest.fixture
def copy33(tmp_path: Path) -> Path:
    target = tmp_path / "3x3"
    shutil.copytree(TABLES / "3x3", target)
    return target


def one_line_error(directory: Path, match: str) -> None:
    with pytest.raises(UnitileError, match=match) as info:
        Tables.load("3x3", directory)
    assert "\n" not in str(info.value)


def test_missing_file_is_named(copy33: Path) -> None:
    (copy33 / "b3.bin").unlink()
    one_line_error(copy33, "b3.bin is missing")


def test_truncated_file_is_named(copy33: Path) -> None:
    data = (copy33 / "a3.bin").read_bytes()
    (copy33 / "a3.bin").write_bytes(data[:-5])
    one_line_error(copy33, "a3.bin has .* bytes.*truncated")


def test_altered_file_is_named(copy33: Path) -> None:
    data = bytearray((copy33 / "b2.bin").read_bytes())
    data[-3] ^= 0x40
    (copy33 / "b2.bin").write_bytes(bytes(data))
    one_line_error(copy33, "b2.bin is altered")


def test_missing_or_broken_manifest_is_named(copy33: Path) -> None:
    text = (copy33 / "manifest.json").read_text()
    (copy33 / "manifest.json").write_text(text[: len(text) // 2])
    one_line_error(copy33, "manifest.json is not valid JSON")
    (copy33 / "manifest.json").unlink()
    one_line_error(copy33, "manifest.json is missing")


def test_tables_of_another_board_are_refused(copy33: Path) -> None:
    with pytest.raises(UnitileError, match=r"manifest.json is for board 3x3"):
        Tables.load("3x5", copy33)


def test_a_corrupt_block_is_reported_when_read(copy33: Path) -> None:
    files = {p.name: p.read_bytes() for p in copy33.iterdir()}
    manifest = json.loads(files["manifest.json"])
    data = bytearray(files["a3.bin"])
    data[-4] ^= 0xFF  # inside the zlib stream (its checksum)
    files["a3.bin"] = bytes(data)
    tables = Tables(Board.get(3, 3), manifest, files)  # bypasses the sha256 check on purpose
    with pytest.raises(UnitileError, match=r"a3\.bin block 0 is corrupt"):
        tables.legal(Position.start(Board.get(3, 3)).play(1).play(0))


def test_from_files_and_the_directory_forms_agree(copy33: Path) -> None:
    files = {p.name: p.read_bytes() for p in copy33.iterdir()}
    a = Tables.from_files("3x3", files)
    b = Tables.load(Board.get(3, 3), copy33.parent)  # the folder that holds 3x3/
    p = Position.start(Board.get(3, 3))
    assert a.legal(p) == b.legal(p) and a.outcome(p) == b.outcome(p) and a.best(p) == b.best(p)


def test_environment_variable_names_the_tables_root(copy33: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (copy33 / "a3.bin").unlink()
    monkeypatch.setenv(ENV, str(copy33.parent))
    with pytest.raises(UnitileError, match=r"a3\.bin is missing"):
        tables_for("3x3")


def test_positions_of_another_board_are_refused() -> None:
    with pytest.raises(UnitileError, match="position is on a 3x5 board"):
        tables_for("3x3").legal(Position.start(Board.get(3, 5)))
