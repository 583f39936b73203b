"""A rebuild of 3x3 and 3x5 must give the committed lookup tables bit for bit; tables-verify sees every
position."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from pipeline import table_stages
from pipeline.cli import main as pipeline_main
from pipeline.legal import UNITED
from pipeline.store import Store
from unitile_py import Board

ROOT = Path(__file__).resolve().parents[2]
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


def test_tables_verify_sees_every_position(tmp_path: Path) -> None:
    """tables-verify decodes every position of a cell: a changed best mask in the cell's last active
    position, and a changed legal byte in its first, are each found."""
    board = Board.get(3, 3)
    store_path, out = tmp_path / "s.zarr", tmp_path / "tables"
    argv = ["build", "--board", "3x3", "--store", str(store_path), "--tables", str(out)]
    assert pipeline_main([*argv, "--in-process", "--quiet"]) == 0
    tasks = [table_stages.CellTask(str(store_path), "3x3", b, 1, str(out)) for b in range(board.cells)]
    assert all(table_stages.check_task(t) == (0, 0) for t in tasks)
    store = Store(str(store_path), board)
    c = board.colourings
    active = np.flatnonzero((store.read("moves/legal")[:c] & UNITED) == 0)
    best = store.array("perfect/best")
    best[active[-1] : active[-1] + 1] = best[active[-1] : active[-1] + 1] ^ 1
    assert table_stages.check_task(tasks[0]) == (0, 1)
    legal = store.array("moves/legal")
    legal[active[0] : active[0] + 1] = legal[active[0] : active[0] + 1] ^ 1
    assert table_stages.check_task(tasks[0]) == (1, 1)
