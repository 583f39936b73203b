"""The committed lookup tables read by unitile_py.unitile.tables: answers against the reference, loading
errors, and the 5x5 checks from the rules."""

from __future__ import annotations

import hashlib
import json
import random
import shutil
import struct
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.game.unitile.oracle import oracle
from unitile_py.unitile import Board, Position, UnitileError
from unitile_py.unitile.table_files import HEADER, FrameFile
from unitile_py.unitile.tables import ENV, Tables, tables_for

ROOT = Path(__file__).resolve().parents[3]
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


#: For the tests that read the 5x5 tables.
needs_5x5 = pytest.mark.skipif(
    not (TABLES / "5x5" / "manifest.json").exists(), reason="tables/5x5 not built yet"
)


def board_tables_start_5x5() -> tuple[Board, Tables, Position]:
    """The 5x5 board, its tables and its start."""
    board = Board.get(5, 5)
    return board, tables_for(board), Position.start(board)


@needs_5x5
def test_5x5_checks_from_the_rules() -> None:
    board, tables, start = board_tables_start_5x5()
    outcome, plies = tables.outcome(start)
    assert outcome == "loss" and plies > 10  # Blue, the second player, wins with perfect play
    after = start.play(board.cell("c4"))
    legal = tables.legal(after)
    assert len(legal) == 3 and board.cell("c3") not in legal
    assert all(tables.outcome(start.play(c)) == ("win", plies - 1) for c in tables.best(start))


@needs_5x5
def test_5x5_perfect_play_reaches_the_end_in_the_promised_plies() -> None:
    _, tables, position = board_tables_start_5x5()
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
    data = bytearray((copy33 / "a3.bin").read_bytes())
    data[-4] ^= 0xFF  # inside the zlib stream (its checksum)
    frame = FrameFile("a3.bin", bytes(data), Board.get(3, 3))  # the file alone: no manifest, no sha256
    with pytest.raises(UnitileError, match=r"a3\.bin block 0 is corrupt"):
        frame.inflate(0)


def rehash(files: dict[str, bytes], name: str) -> None:
    """Make the manifest's size and sha256 of ``name`` agree with its (edited) bytes."""
    manifest = json.loads(files["manifest.json"])
    manifest["files"][name] = {"bytes": len(files[name]), "sha256": hashlib.sha256(files[name]).hexdigest()}
    files["manifest.json"] = json.dumps(manifest).encode()


def test_a_consistent_edit_of_a_symbol_is_caught_by_the_records_digest(copy33: Path) -> None:
    files = {p.name: p.read_bytes() for p in copy33.iterdir()}
    data = bytearray(files["b2.bin"])
    data[HEADER.size + 1] ^= 1  # the best set (Red to move) of symbol 0
    files["b2.bin"] = bytes(data)
    rehash(files, "b2.bin")
    with pytest.raises(UnitileError, match=r"b2\.bin records differ from manifest\.json \(records_sha256\)"):
        Tables.from_files("3x3", files)


def test_without_the_records_check_a_file_is_still_checked_by_its_sha256_and_plays_the_same(
    copy33: Path,
) -> None:
    """The browser loads the tables with check_records=False (no block inflated at load): an altered
    file is still refused by the manifest's sha256, and every answer is the same."""
    files = {p.name: p.read_bytes() for p in copy33.iterdir()}
    fast, full = Tables.from_files("3x3", files, check_records=False), Tables.from_files("3x3", files)
    position = Position.start(Board.get(3, 3))
    assert fast.moves(position) == full.moves(position) and fast.moves(position)
    data = bytearray(files["b2.bin"])
    data[HEADER.size + 1] ^= 1
    files["b2.bin"] = bytes(data)
    with pytest.raises(UnitileError, match=r"b2\.bin"):
        Tables.from_files("3x3", files, check_records=False)


def edited_manifest(copy33: Path, edit: Callable[[dict[str, Any]], object]) -> dict[str, bytes]:
    files = {p.name: p.read_bytes() for p in copy33.iterdir()}
    manifest = json.loads(files["manifest.json"])
    edit(manifest)
    files["manifest.json"] = json.dumps(manifest).encode()
    return files


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (lambda m: m.pop("frames"), "field 'frames' must be a list"),
        (lambda m: m.update(frames={}), "field 'frames' must be a list"),
        (lambda m: m.pop("files"), "field 'files' must be an object"),
        (lambda m: m["files"]["a3.bin"].pop("sha256"), r"files\['a3.bin'\]: field 'sha256' must be"),
        (lambda m: m["files"]["a3.bin"].update(bytes="67"), "field 'bytes' must be a whole number"),
        (lambda m: m["files"]["a3.bin"].update(bytes=True), "field 'bytes' must be a whole number"),
        (lambda m: m["frames"][0].pop("cell"), r"frames\[0\]: field 'cell' must be a cell number"),
        (lambda m: m["frames"][0].update(cell=99), r"frames\[0\]: cell 99 is off the 3x3 board"),
        (lambda m: m["frames"][0].update(records=None), "field 'records' must be a whole number"),
        (lambda m: m["frames"][0].update(kind="square"), "field 'kind' must be"),
        (lambda m: m["frames"][0].update(file="c9.bin"), "file 'c9.bin' is not listed in files"),
        (lambda m: m["frames"][1].update(file="a3.bin"), "a3.bin does not match manifest.json"),
        (lambda m: m["files"].update({"../x.bin": m["files"]["a3.bin"]}), "is not a cell name with .bin"),
        (lambda m: m["files"].update({"/etc/passwd": {}}), "is not a cell name with .bin"),
        (lambda m: m.update(format=[1]), r"has format \[1\]"),
        (lambda m: m.update(board=None), "is for board None"),
    ],
)
def test_bad_manifests_are_one_line_errors(
    copy33: Path, edit: Callable[[dict[str, Any]], object], message: str
) -> None:
    with pytest.raises(UnitileError, match=message) as info:
        Tables.from_files("3x3", edited_manifest(copy33, edit))
    assert "\n" not in str(info.value) and str(info.value).startswith("tables 3x3: ")


def test_deeply_nested_json_is_a_one_line_error(copy33: Path) -> None:
    files = {p.name: p.read_bytes() for p in copy33.iterdir()}
    files["manifest.json"] = b"[" * 100_000 + b"]" * 100_000
    with pytest.raises(UnitileError, match=r"manifest\.json is not valid JSON"):
        Tables.from_files("3x3", files)


@pytest.mark.parametrize(
    ("offset", "fmt", "value", "message"),
    [
        (12, "<I", 0, "records per block 0 is not a power of two"),
        (12, "<I", 3, "records per block 3 is not a power of two"),
        (12, "<I", 1 << 30, "records per block"),
        (8, "<I", 0xFFFFFFFF, "is truncated"),
        (16, "<H", 0, "symbols 0 and record width"),
        (16, "<H", 60000, "is truncated|record width"),
        (18, "<B", 2, "record width 2 disagree"),
        (6, "<B", 7, "header field kind 7"),
        (7, "<B", 200, "cell 200 is out of range"),
    ],
)
def test_bad_header_fields_are_one_line_errors(
    copy33: Path, offset: int, fmt: str, value: int, message: str
) -> None:
    files = {p.name: p.read_bytes() for p in copy33.iterdir()}
    data = bytearray(files["a3.bin"])
    struct.pack_into(fmt, data, offset, value)
    files["a3.bin"] = bytes(data)
    rehash(files, "a3.bin")
    with pytest.raises(UnitileError, match=message) as info:
        Tables.from_files("3x3", files)
    assert str(info.value).startswith("tables 3x3: a3.bin")


def test_a_symbol_with_impossible_bits_is_refused(copy33: Path) -> None:
    files = {p.name: p.read_bytes() for p in copy33.iterdir()}
    data = bytearray(files["b2.bin"])
    data[HEADER.size] = 0xFF  # legal bits of symbol 0: only 4 slides exist
    files["b2.bin"] = bytes(data)
    rehash(files, "b2.bin")
    with pytest.raises(UnitileError, match=r"symbol 0 .* has bits no record may hold"):
        Tables.from_files("3x3", files)


def test_an_unreadable_file_is_named(copy33: Path) -> None:
    (copy33 / "a3.bin").unlink()
    (copy33 / "a3.bin").mkdir()  # a directory where a file should be: reading it fails
    with pytest.raises(UnitileError, match=r"a3\.bin"):
        Tables.load("3x3", copy33)


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


@pytest.mark.parametrize("fmt", [2.0, "2", True])
def test_a_format_that_is_not_the_whole_number_is_refused(copy33: Path, fmt: object) -> None:
    """Issue 35: ``"format": 2.0`` was read as format 2 (and ``true`` as 1 where the format is 1)."""
    manifest = json.loads((copy33 / "manifest.json").read_text())
    manifest["format"] = fmt
    (copy33 / "manifest.json").write_text(json.dumps(manifest))
    one_line_error(copy33, "manifest.json has format .*; this reader reads 2")
