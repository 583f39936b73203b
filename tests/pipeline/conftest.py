"""Fixtures of every pipeline test: one finished 3x3 build (values and tables), made once a session."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from pipeline.cli import main
from pipeline.unitile.store import Store
from tests.pipeline.test_bad_input_and_damage import B33, build33


@pytest.fixture(scope="session")
def built33(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """A complete 3x3 build: ``(store, tables folder)`` (copy it before changing anything)."""
    tmp = tmp_path_factory.mktemp("b33")
    store, tables = tmp / "3x3.zarr", tmp / "tables"
    assert main(build33(store, tables)) == 0
    return store, tables


@pytest.fixture
def copy33(built33: tuple[Path, Path], tmp_path: Path) -> tuple[Path, Path]:
    """A copy of the 3x3 build whose tables record names the copied tables folder."""
    store, tables = tmp_path / "3x3.zarr", tmp_path / "tables"
    shutil.copytree(built33[0], store)
    shutil.copytree(built33[1], tables)
    s = Store(str(store), B33)
    s.mark_done("tables", {**s.require("tables"), "directory": str(tables)})
    return store, tables
