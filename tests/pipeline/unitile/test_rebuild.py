"""A rebuild of a finished store (``python -m pipeline build`` again) checks what it would have written:
the tables go to the ``--tables DIR`` it is given, table files missing or damaged are written again
(nothing else in the folder touched), and damaged chunks fail the build in one line (exit status 1)."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from pipeline.unitile.store import Store
from tests.pipeline.test_bad_input_and_damage import chunk_file, one_line
from tests.pipeline.unitile.conftest import digests, rebuild
from unitile_py.unitile import Board

B33 = Board.get(3, 3)


def test_build_writes_the_tables_into_a_new_tables_folder(copy33: tuple[Path, Path], tmp_path: Path) -> None:
    """It said every stage was done and wrote nothing there."""
    store, tables = copy33
    new = tmp_path / "elsewhere" / "tables"
    status, err = rebuild(store, "--tables", str(new))
    assert status == 0, err
    assert f"tables: they were written to {tables}, not {new}: writing them again" in err
    assert digests(new) == digests(tables)
    assert Store(str(store), B33).require("tables")["directory"] == str(new)
    assert Store(str(store), B33).done("tables-verify")
    # Without --tables, the folder the tables were last written to is the one kept up to date.
    status, err = rebuild(store)
    assert status == 0 and "tables: done already" in err, err


@pytest.mark.parametrize(
    ("damage", "says"),
    [
        (lambda t: (t / "a3.bin").unlink(), "a3.bin is missing"),
        (lambda t: (t / "b2.bin").write_bytes(b"UTBL damaged"), "b2.bin is not the file that was written"),
        (lambda t: (t / "manifest.json").unlink(), "manifest.json is missing"),
        (lambda t: (t / "manifest.json").write_text("{"), "manifest.json is not the file that was written"),
    ],
    ids=["a3-deleted", "b2-damaged", "manifest-deleted", "manifest-damaged"],
)
def test_build_writes_missing_or_damaged_table_files_again(
    copy33: tuple[Path, Path], damage: object, says: str
) -> None:
    """A rebuild said every stage was done and left the tables broken; a user's file stays."""
    store, tables = copy33
    before = digests(tables)
    (tables / "notes.txt").write_text("a user's notes")
    damage(tables)  # type: ignore[operator]
    status, err = rebuild(store)
    assert status == 0, err
    assert f"tables: {says}" in err and ": writing them again" in err, err
    assert "tables-verify: OK" in err
    assert digests(tables) == {**before, "notes.txt": hashlib.sha256(b"a user's notes").hexdigest()}
    assert not [p for p in tables.parent.iterdir() if ".partial-" in p.name]
    status, err = rebuild(store)
    assert status == 0 and "tables: done already" in err, err


def test_a_manifest_of_another_board_is_still_not_overwritten(copy33: tuple[Path, Path]) -> None:
    """What the store's record says it wrote stands in for a damaged manifest, not for someone else's."""
    store, tables = copy33
    manifest = json.loads((tables / "manifest.json").read_text())
    (tables / "manifest.json").write_text(json.dumps({**manifest, "board": "3x5"}))
    snapshot = digests(tables)
    status, err = rebuild(store)
    assert status == 2 and "holds the tables of board 3x5" in one_line(err.splitlines(True)[-1].encode())
    assert digests(tables) == snapshot


def flip_a_byte(path: Path) -> None:
    data = bytearray(path.read_bytes())
    data[len(data) // 3] ^= 0x10
    path.write_bytes(bytes(data))


@pytest.mark.parametrize(
    ("name", "damage", "says"),
    [
        ("graph/nbr", flip_a_byte, "array graph/nbr, entries 0..88: its bytes fail their crc32c checksum"),
        ("perfect/value", flip_a_byte, "array perfect/value, entries 0..69: its bytes fail their crc32c"),
        ("moves/legal", Path.unlink, "array moves/legal, entries 0..69: the chunk is missing"),
        ("values/r", Path.unlink, "array values/r, entries 0..88: the chunk is missing"),
    ],
    ids=["nbr-flipped", "value-flipped", "legal-deleted", "r-deleted"],
)
def test_build_fails_on_damaged_chunks_in_one_line(
    copy33: tuple[Path, Path], name: str, damage: object, says: str
) -> None:
    """It exited 0, every stage done already; ``--force tables`` wrote tables from the damaged store."""
    store, tables = copy33
    damage(chunk_file(store, name, 0))  # type: ignore[operator]
    before = digests(tables)
    for extra in ((), ("--force", "tables")):
        status, err = rebuild(store, *extra)
        assert status == 1, err
        last = err.splitlines(True)[-1]
        assert says in one_line(last.encode()), err
        assert "Traceback" not in err
    assert digests(tables) == before
    assert Store(str(store), B33).done("tables-verify"), "nothing was cleared"
