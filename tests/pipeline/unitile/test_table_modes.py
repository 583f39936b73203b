"""The table folder the pipeline writes follows the umask like any tool (it was 0700: a temporary
folder renamed into place)."""

from __future__ import annotations

import json
import os
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest

from pipeline.unitile.table_folder import write_tables
from unitile_py.unitile import Board

B33 = Board.get(3, 3)


@pytest.fixture
def umask() -> Iterator[None]:
    before = os.umask(0o022)
    try:
        yield
    finally:
        os.umask(before)


def files() -> dict[str, bytes]:
    names = ("a3.bin", "b2.bin", "b3.bin")
    out = {name: b"data " + name.encode() for name in names}
    out["manifest.json"] = json.dumps({"board": "3x3", "files": {k: {} for k in names}}).encode()
    return out


@pytest.mark.parametrize("mask", [0o022, 0o027, 0o002])
def test_the_tables_folder_and_files_follow_the_umask(tmp_path: Path, umask: None, mask: int) -> None:
    os.umask(mask)
    folder = tmp_path / "new" / "tables"
    for _ in range(2):  # a new folder, then one exchanged for the old
        write_tables(folder, B33, files())
        assert stat.S_IMODE(folder.stat().st_mode) == 0o777 & ~mask
        assert stat.S_IMODE(folder.parent.stat().st_mode) == 0o777 & ~mask
        for path in folder.iterdir():
            assert stat.S_IMODE(path.stat().st_mode) == 0o666 & ~mask, path
