"""A rebuild of a finished store (``python -m pipeline build`` again) checks what it would have written:
the tables go to the ``--tables DIR`` it is given."""

from __future__ import annotations

import hashlib
import shutil
from pathlib import Path

import pytest

from pipeline.cli import main
from pipeline.unitile.store import Store
from tests.pipeline.test_reliability import build33, cli
from unitile_py.unitile import Board

B33 = Board.get(3, 3)


def digests(folder: Path) -> dict[str, str]:
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in folder.iterdir() if p.is_file()}


@pytest.fixture(scope="module")
def finished(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """A complete 3x3 build: ``(store, tables folder)`` (copy it before changing anything)."""
    tmp = tmp_path_factory.mktemp("rebuild33")
    store, tables = tmp / "3x3.zarr", tmp / "tables"
    assert main(build33(store, tables)) == 0
    return store, tables


@pytest.fixture
def copy(finished: tuple[Path, Path], tmp_path: Path) -> tuple[Path, Path]:
    """A copy of the finished build whose tables record names the copied tables folder."""
    store, tables = tmp_path / "3x3.zarr", tmp_path / "tables"
    shutil.copytree(finished[0], store)
    shutil.copytree(finished[1], tables)
    s = Store(str(store), B33)
    s.mark_done("tables", {**s.require("tables"), "directory": str(tables)})
    return store, tables


def rebuild(store: Path, *extra: str) -> tuple[int, str]:
    out = cli("build", "--board", "3x3", "--store", str(store), *extra, "--in-process")
    return out.returncode, out.stderr.decode()


def test_build_writes_the_tables_into_a_new_tables_folder(copy: tuple[Path, Path], tmp_path: Path) -> None:
    """It said every stage was done and wrote nothing there."""
    store, tables = copy
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

