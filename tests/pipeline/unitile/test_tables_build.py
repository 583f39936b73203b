"""A rebuild of 3x3 and 3x5 must give the committed lookup tables bit for bit; tables-verify sees every
position."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from pipeline.cli import main as pipeline_main
from pipeline.unitile import table_stages
from pipeline.unitile.compact import is_even
from pipeline.unitile.decode import check_cell, load_records
from pipeline.unitile.legal import UNITED
from pipeline.unitile.store import Store
from unitile_py.unitile import Board

ROOT = Path(__file__).resolve().parents[3]
TABLES = ROOT / "tables"


@pytest.mark.parametrize("size", ["3x3", "3x5"])
def test_rebuild_gives_the_committed_files_bit_for_bit(size: str, tmp_path: Path) -> None:
    out = tmp_path / "tables"
    argv = ["build", "--board", size, "--store", str(tmp_path / "s.zarr"), "--tables", str(out)]
    assert pipeline_main([*argv, "--in-process", "--quiet"]) == 0
    committed = sorted(p.name for p in (TABLES / size).iterdir())
    assert sorted(p.name for p in out.iterdir()) == committed
    for name in committed:
        assert (out / name).read_bytes() == (TABLES / size / name).read_bytes(), name
    if size == "3x3":  # pipeline verify reruns the tables checks too
        assert (
            pipeline_main(
                ["verify", "--board", size, "--store", str(tmp_path / "s.zarr"), "--in-process", "--quiet"]
            )
            == 0
        )
        report = Store(str(tmp_path / "s.zarr"), Board.get(3, 3)).require("tables-verify")["report"]
        assert report["ok"] and report["legal_decoded_wrongly"] == 0


@pytest.mark.parametrize("size", ["3x3", "3x5"])
def test_tables_verify_sees_every_position(size: str, tmp_path: Path) -> None:
    """tables-verify decodes every position of a cell, even and odd: a changed best mask in a cell's last
    active position, and a changed legal byte in its first, are each found; the stage's shared decoding
    (odd cells from the even cells' records) agrees with decoding a cell alone from the files."""
    board = Board.parse(size)
    store_path, out = tmp_path / "s.zarr", tmp_path / "tables"
    argv = ["build", "--board", size, "--store", str(store_path), "--tables", str(out)]
    assert pipeline_main([*argv, "--in-process", "--quiet"]) == 0
    tasks = [table_stages.CellTask(str(store_path), size, b, 1, str(out)) for b in range(board.cells)]
    even = [t for t in tasks if is_even(board, t.bubble)]
    odd = [t for t in tasks if not is_even(board, t.bubble)]
    assert all(table_stages.check_task(t) == (0, 0) for t in even + odd)
    store = Store(str(store_path), board)
    records = load_records(board, out)
    c = board.colourings
    for cell in (even[0].bubble, odd[0].bubble):
        sl = slice(cell * c, (cell + 1) * c)
        active = cell * c + np.flatnonzero((store.read("moves/legal")[sl] & UNITED) == 0)
        best = store.array("perfect/best")
        best[active[-1] : active[-1] + 1] = best[active[-1] : active[-1] + 1] ^ 1
        assert table_stages.check_task(tasks[cell]) == (0, 1)
        legal = store.array("moves/legal")
        legal[active[0] : active[0] + 1] = legal[active[0] : active[0] + 1] ^ 1
        assert table_stages.check_task(tasks[cell]) == (1, 1)
        arrays = [np.asarray(store.array(n)[sl]) for n in ("moves/legal", "perfect/best", "perfect/value")]
        assert check_cell(board, cell, records, *arrays) == (1, 1)


def test_the_default_store_writes_the_committed_tables_folder(tmp_path: Path) -> None:
    """The repository's ``build/<board>.zarr`` writes ``tables/<board>``, another store ``<store>.tables``."""
    board = Board.parse("3x3")
    folder = table_stages.default_tables_folder(str(ROOT / "build" / "3x3.zarr"), board)
    assert folder == ROOT / "tables" / "3x3"
    assert table_stages.default_tables_folder(str(tmp_path / "x.zarr"), board) == tmp_path / "x.tables"
