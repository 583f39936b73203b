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


def test_tables_verify_decodes_every_slice_of_a_cell(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """tables-verify decodes a cell in slices (bounded memory): with slices of 7 positions it still sees
    every position, down to a changed best mask in the cell's last active position."""
    board = Board.get(3, 3)
    store_path, out = tmp_path / "s.zarr", tmp_path / "tables"
    argv = ["build", "--board", "3x3", "--store", str(store_path), "--tables", str(out)]
    assert pipeline_main([*argv, "--in-process", "--quiet"]) == 0
    monkeypatch.setattr(table_stages, "DECODE_SLICE", 7)
    tasks = [table_stages.CellTask(str(store_path), "3x3", b, 1, str(out)) for b in range(board.cells)]
    assert all(table_stages.check_task(t) == (0, 0, 0, 0, 0) for t in tasks)
    store = Store(str(store_path), board)
    c = board.colourings
    last = int(np.flatnonzero((store.read("moves/legal")[:c] & UNITED) == 0)[-1])
    best = store.array("perfect/best")
    best[last : last + 1] = np.asarray(best[last : last + 1]) ^ 1
    assert table_stages.check_task(tasks[0])[1] == 1
    assert table_stages.check_task(tasks[0])[4] == 1
