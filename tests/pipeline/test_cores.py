"""A task's numba threads are decided where it runs (:mod:`pipeline.cores`): within the cores its process
may run on and numba's pool, from the client's request or the dask worker's own threads.

A build bound to one core crashed in its first task (``ValueError: The number of threads must be between
1 and 1``): the client asked for its own ``os.cpu_count()`` divided by the workers. Here the build runs
under ``taskset -c 0`` in one process, and through a real scheduler with a worker started under
``taskset -c 0``, and gives the committed tables byte for byte.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numba
import pytest
import zarr

from pipeline import cores
from pipeline.cores import allowed_cores, usable_threads
from tests.pipeline.processes import Cluster, Processes, installed_env

ROOT = Path(__file__).resolve().parents[2]
TASKSET = shutil.which("taskset")
#: The prefix that runs a command on core 0 only.
PIN = (TASKSET or "taskset", "-c", "0")
needs_taskset = pytest.mark.skipif(TASKSET is None or not hasattr(os, "sched_getaffinity"),
                                   reason="needs taskset and CPU affinity")  # fmt: skip
#: The environment of the build and of the cluster: this checkout's code (where the project is installed
#: from this checkout, as in ``make``, the installed code is the same).
ENV = {**installed_env(), "PYTHONPATH": str(ROOT)}


@pytest.fixture
def machine(monkeypatch: pytest.MonkeyPatch) -> Any:
    """Set the allowed cores, numba's pool and the dask worker's threads that :mod:`pipeline.cores` sees."""

    def set_machine(allowed: int, pool: int, worker: int | None = None) -> None:
        monkeypatch.setattr(os, "sched_getaffinity", lambda pid: set(range(allowed)), raising=False)
        monkeypatch.setattr(numba.config, "NUMBA_NUM_THREADS", pool)
        monkeypatch.setattr(cores, "worker_threads", lambda: worker)
        monkeypatch.delenv("NUMBA_NUM_THREADS", raising=False)

    return set_machine


def test_a_request_is_clamped_to_the_allowed_cores_and_numbas_pool(machine: Any) -> None:
    machine(allowed=1, pool=2)
    assert allowed_cores() == 1
    assert [usable_threads(n) for n in (None, 0, 1, 2, 8)] == [1, 1, 1, 1, 1]
    machine(allowed=8, pool=2)
    assert [usable_threads(n) for n in (None, 0, 1, 2, 8)] == [2, 1, 1, 2, 2]
    machine(allowed=4, pool=16)
    assert [usable_threads(n) for n in (None, 1, 3, 64)] == [4, 1, 3, 4]


def test_without_a_request_a_dask_worker_uses_its_own_threads(machine: Any) -> None:
    """A worker started with ``--nthreads 1`` on a machine of 8 cores runs one numba thread per task; a
    request (the client started the workers on its own cores) is taken within the allowed cores."""
    machine(allowed=8, pool=8, worker=1)
    assert usable_threads(None) == 1
    assert usable_threads(4) == 4
    machine(allowed=2, pool=2, worker=4)
    assert usable_threads(None) == 2


def test_an_operators_numba_num_threads_outranks_the_workers_threads(
    machine: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``NUMBA_NUM_THREADS=4 dask worker --nthreads 1``: one task at a time, four threads each."""
    machine(allowed=8, pool=4, worker=1)
    monkeypatch.setenv("NUMBA_NUM_THREADS", "4")
    assert usable_threads(None) == 4
    assert usable_threads(2) == 2


def test_without_affinity_the_machines_cores_count(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delattr(os, "sched_getaffinity", raising=False)
    monkeypatch.setattr(os, "cpu_count", lambda: 3)
    assert allowed_cores() == 3


def test_a_real_dask_worker_reports_its_threads() -> None:
    """``get_worker().state.nthreads`` inside a task of a real (thread) worker; none outside a task."""
    from dask.distributed import Client, LocalCluster

    assert cores.worker_threads() is None
    with LocalCluster(n_workers=1, threads_per_worker=1, processes=False, dashboard_address=":0",
                      silence_logs=40) as cluster, Client(cluster) as client:  # fmt: skip
        assert client.submit(cores.worker_threads, pure=False).result() == 1
        assert client.submit(usable_threads, None, pure=False).result() == 1
        limit = min(allowed_cores(), cores.numba_limit())
        assert client.submit(usable_threads, 2, pure=False).result() == min(2, limit)


def assert_committed_tables(tables: Path, board: str) -> None:
    committed = ROOT / "tables" / board
    assert sorted(p.name for p in tables.iterdir()) == sorted(p.name for p in committed.iterdir())
    for path in committed.iterdir():
        assert (tables / path.name).read_bytes() == path.read_bytes(), path.name


def build(store: Path, *engine: str, pin: bool = False) -> subprocess.CompletedProcess[str]:
    """``python -m pipeline build`` of 3x5 into ``store`` (under ``taskset -c 0`` if ``pin``)."""
    cmd = [sys.executable, "-m", "pipeline", "build", "--board", "3x5", "--store", str(store), "--quiet"]
    out = subprocess.run(
        [*PIN, *cmd, *engine] if pin else [*cmd, *engine], cwd=store.parent, env=ENV, capture_output=True,
        text=True, timeout=300,
    )  # fmt: skip
    assert out.returncode == 0 and "Traceback" not in out.stderr, out.stderr[-3000:]
    return out


def solve_record(store: Path) -> dict[str, Any]:
    return dict(zarr.open_group(str(store), mode="r").attrs["stages"]["solve"])


@needs_taskset
def test_a_build_bound_to_one_core_gives_the_committed_tables(tmp_path: Path) -> None:
    store = tmp_path / "3x5.zarr"
    build(store, "--in-process", pin=True)
    assert_committed_tables(store.with_suffix(".tables"), "3x5")
    solve = solve_record(store)
    assert (solve["threads"], solve["cores"]) == ([1], [1])
    machine = zarr.open_group(str(store), mode="r").attrs["stages"]["classes"]["bound"]["machine"]
    assert (machine["threads"], machine["cores"]) == (1, 1)


@pytest.fixture
def cluster(tmp_path: Path) -> Iterator[Cluster]:
    """A scheduler without workers; every process it and the test start is killed at the end."""
    procs = Processes(tmp_path, ENV)
    c: Cluster | None = None
    try:
        c = Cluster(procs, tmp_path)
        yield c
    finally:
        if c is not None:
            c.client.close()
        procs.stop_all()


@needs_taskset
@pytest.mark.cluster
def test_a_worker_bound_to_one_core_gives_the_committed_tables(cluster: Cluster, tmp_path: Path) -> None:
    """A worker under ``taskset -c 0`` alone (the client on every core asked it for all of them), then
    beside an unbound ``--nthreads 1`` worker: each part of the solve uses one thread, whatever cores its
    worker may run on."""
    cluster.start_worker("pinned", PIN)
    cluster.wait_workers(1)
    address = cluster.address.removeprefix("tcp://")
    alone = tmp_path / "alone" / "3x5.zarr"
    alone.parent.mkdir()
    build(alone, "--scheduler", address)
    assert_committed_tables(alone.with_suffix(".tables"), "3x5")
    solve = solve_record(alone)
    assert (solve["threads"], solve["cores"]) == ([1], [1])

    cluster.start_worker("unbound")
    cluster.wait_workers(2)
    both = tmp_path / "both" / "3x5.zarr"
    both.parent.mkdir()
    build(both, "--scheduler", address)
    assert_committed_tables(both.with_suffix(".tables"), "3x5")
    solve = solve_record(both)
    assert solve["threads"] == [1, 1]
    assert sorted(solve["cores"]) == [1, allowed_cores()]
