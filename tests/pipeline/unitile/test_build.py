"""Build mechanics: stage records, resuming after an interruption or SIGKILL, solver checkpoints,
thread-count independence, dask and in-process executors agreeing bit for bit, doctests."""

from __future__ import annotations

import doctest
import importlib
import math
import signal
import subprocess
import sys
import time
from dataclasses import replace
from pathlib import Path

import numba
import numpy as np
import pytest

from pipeline.executor import DaskExecutor, InProcessExecutor
from pipeline.unitile.build import run_build, value_stages
from pipeline.unitile.cg import solve
from pipeline.unitile.context import Context
from pipeline.unitile.solver import SolverState
from pipeline.unitile.store import Store
from pipeline.unitile.values import load_T
from tests.pipeline.unitile.conftest import B35, quiet_build
from unitile_py.errors import UnitileError
from unitile_py.unitile import Board

ROOT = Path(__file__).resolve().parents[3]


def graph_of(path: Path) -> tuple[np.ndarray, np.ndarray, int]:
    store = Store(str(path), B35)
    return store.read("graph/nbr"), store.read("graph/info"), int(store.require("classes")["split"])


def test_resumed_solve_continues_bit_for_bit(clean35: Path) -> None:
    """From a checkpoint of any iteration, those before the checks of the true residual begin and
    those among them (where a check may find the two residuals drifted apart and restart), a resumed
    solve stops at the same iteration with the same bits. A target below 3x5's usual one makes the solve
    reach the float64 floor and restart twice."""
    nbr, info, split = graph_of(clean35)
    tol = 1e-13
    saved: list[SolverState] = []

    def keep(st: SolverState) -> None:
        saved.append(replace(st, x=st.x.copy(), s=st.s.copy(), p=st.p.copy(), history=[*st.history]))

    full = solve(nbr, info, split, SolverState.start(split), tol=tol, checkpoint=keep, checkpoint_seconds=0)
    assert full.restarts >= 2, "the 3x5 solve no longer restarts: this test would not cover restarts"
    first_check = min(st.iteration for st in saved if st.checked < math.inf)
    starts = [st for st in saved if st.iteration == 40 or st.iteration >= first_check - 2]
    assert len(starts) >= 6
    for start in starts:
        resumed = solve(nbr, info, split, replace(start, history=[*start.history]), tol=tol)
        assert (resumed.iterations, resumed.restarts) == (full.iterations, full.restarts), start.iteration
        assert np.array_equal(resumed.x, full.x), start.iteration


def test_solve_does_not_depend_on_the_number_of_parts(clean35: Path) -> None:
    """Parts own whole reduction chunks, so splitting the graph as a cluster would changes no bit."""
    nbr, info, split = graph_of(clean35)
    one = solve(nbr, info, split, SolverState.start(split))
    for parts in (2, 3):
        other = solve(nbr, info, split, SolverState.start(split), parts=parts)
        assert other.iterations == one.iterations
        assert np.array_equal(other.x, one.x)


def test_solve_does_not_depend_on_thread_count(clean35: Path) -> None:
    nbr, info, split = graph_of(clean35)
    before = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        one = solve(nbr, info, split, SolverState.start(split)).x
    finally:
        numba.set_num_threads(before)
    assert np.array_equal(one, solve(nbr, info, split, SolverState.start(split)).x)


def test_interrupted_build_is_not_complete_and_resumes(tmp_path: Path, clean35: Path) -> None:
    path = tmp_path / "3x5.zarr"
    stages = value_stages()

    class Interrupting(InProcessExecutor):
        def map(self, fn, items, desc):  # type: ignore[no-untyped-def]
            if desc == "positions":
                fn(items[0])
                raise KeyboardInterrupt
            return super().map(fn, items, desc)

    store = Store(str(path), B35, create=True)
    with pytest.raises(KeyboardInterrupt):
        run_build(Context(B35, store, Interrupting(), log=lambda m: None), stages=stages)
    assert store.done("solve") and not store.done("positions") and not store.done("verify")
    with pytest.raises(UnitileError, match="not complete"):
        load_T(str(path), B35)
    records = quiet_build(path, B35)
    assert set(records) == {s.name for s in stages}
    assert np.array_equal(load_T(str(path), B35), load_T(str(clean35), B35))


def test_sigkilled_build_resumes_to_the_same_result(tmp_path: Path, clean35: Path) -> None:
    path = tmp_path / "k.zarr"
    cmd = [
        sys.executable,
        "-m",
        "pipeline",
        "build",
        "--board",
        "3x5",
        "--store",
        str(path),
        "--in-process",
        "--quiet",
    ]
    proc = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 120
        while proc.poll() is None and time.monotonic() < deadline:
            if (path / "graph").exists():
                break
            time.sleep(0.01)
        proc.send_signal(signal.SIGKILL)
    finally:
        proc.kill()
        proc.wait()
    store = Store(str(path), B35) if (path / "zarr.json").exists() else None
    assert store is None or not store.done("verify")
    out = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    assert np.array_equal(load_T(str(path), B35), load_T(str(clean35), B35))


def test_dask_local_cluster_gives_identical_values(tmp_path: Path) -> None:
    board = Board.get(3, 3)
    a, b = tmp_path / "a.zarr", tmp_path / "b.zarr"
    quiet_build(a, board)
    executor = DaskExecutor(workers=2, show_progress=False)
    try:
        quiet_build(b, board, executor)
    finally:
        executor.close()
    assert np.array_equal(load_T(str(a), board), load_T(str(b), board))


def test_store_rejects_another_board(clean35: Path) -> None:
    with pytest.raises(UnitileError, match="holds board 3x5"):
        Store(str(clean35), Board.get(3, 3))


@pytest.mark.parametrize(
    "module",
    ["pipeline.unitile.bits", "pipeline.unitile.geometry", "pipeline.unitile.classes",
    "pipeline.unitile.store", "pipeline.report"],
)
def test_pipeline_doctests(module: str) -> None:
    result = doctest.testmod(importlib.import_module(module))
    assert result.attempted > 0 and result.failed == 0


def test_checkpoint_interval_grows_with_the_write_time() -> None:
    """Checkpoints cost at most a tenth of the solve: a slow write puts the next one further away."""
    from pipeline.unitile.cg import CHECKPOINT_SHARE, checkpoint_interval

    assert checkpoint_interval(15.0, 0.5) == 15.0
    slow = checkpoint_interval(15.0, 40.0)
    assert 40.0 / (slow + 40.0) == pytest.approx(CHECKPOINT_SHARE)
    assert checkpoint_interval(0.0, 40.0) == 0.0  # --checkpoint-seconds 0: every iteration
