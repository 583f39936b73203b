"""What every stage record says of the work (issue 37): the tasks the stage ran, counted by the executor."""

from __future__ import annotations

from pathlib import Path

import zarr


def test_every_stage_record_counts_its_tasks(built33: tuple[Path, Path]) -> None:
    stages = dict(zarr.open_group(str(built33[0]), mode="r").attrs["stages"])
    tasks = {name: record["tasks"] for name, record in stages.items()}
    assert all(isinstance(n, int) and n >= 1 for n in tasks.values()), tasks
    # One task per bubble cell of the 3x3 board in the stages that work cell by cell.
    assert tasks["positions"] == tasks["verify"] == 9, tasks
