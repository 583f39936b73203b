"""Fixtures shared by the pipeline tests: a finished 3x5 value build, a finished 3x3 build (values and
tables) to copy, and a rebuild of it through ``python -m pipeline``."""

from __future__ import annotations

import hashlib
import shutil
from pathlib import Path

import pytest

from pipeline.cli import main
from pipeline.executor import InProcessExecutor
from pipeline.unitile.build import run_build, value_stages
from pipeline.unitile.context import Context
from pipeline.unitile.store import Store
from tests.pipeline.test_reliability import build33, cli
from unitile_py.unitile import Board

B35 = Board.get(3, 5)


def quiet_build(path: Path, board: Board, executor: object | None = None) -> dict:
    """Run the value stages in process (or on ``executor``) without output."""
    store = Store(str(path), board, create=True)
    ctx = Context(board, store, executor or InProcessExecutor(), log=lambda msg: None)
    return run_build(ctx, stages=value_stages())


@pytest.fixture(scope="session")
def clean35(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A 3x5 store with the value stages done (read it; do not change it)."""
    path = tmp_path_factory.mktemp("b") / "3x5.zarr"
    quiet_build(path, B35)
    return path


def digests(folder: Path) -> dict[str, str]:
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in folder.iterdir() if p.is_file()}


@pytest.fixture(scope="session")
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
    s = Store(str(store), Board.get(3, 3))
    s.mark_done("tables", {**s.require("tables"), "directory": str(tables)})
    return store, tables


def rebuild(store: Path, *extra: str) -> tuple[int, str]:
    out = cli("build", "--board", "3x3", "--store", str(store), *extra, "--in-process")
    return out.returncode, out.stderr.decode()
