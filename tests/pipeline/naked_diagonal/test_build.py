"""The plan and its run (pipeline/naked_diagonal/build.py): a killed build resumes and ends with the same
tables bit for bit, and the dask executor gives the same tables."""

from __future__ import annotations

from pathlib import Path

import pytest

from pipeline.executor import DaskExecutor
from pipeline.naked_diagonal.store import Store
from tests.pipeline.naked_diagonal.solving import DyingExecutor, Interrupt, build


def _files(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())}


def test_a_killed_build_resumes_to_the_same_tables(solved: dict[int, Path], tmp_path: Path) -> None:
    with pytest.raises(Interrupt):
        build(3, tmp_path, DyingExecutor(12))
    store = Store(str(tmp_path / "s.zarr"), 3)
    done = store.stages()
    assert "tier-02" in done and "solve-00" not in done
    build(3, tmp_path)
    assert {k: v["finished"] for k, v in store.stages().items() if k in done} == {
        k: v["finished"] for k, v in done.items()
    }
    assert _files(tmp_path / "t") == _files(solved[3] / "t")


def test_dask_gives_the_same_tables(solved: dict[int, Path], tmp_path: Path) -> None:
    executor = DaskExecutor(workers=1, processes=False, show_progress=False)
    try:
        build(2, tmp_path, executor)
    finally:
        executor.close()
    assert _files(tmp_path / "t") == _files(solved[2] / "t")
