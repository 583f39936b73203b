"""The build on a real dask.distributed cluster: a ``dask scheduler`` and two ``dask worker`` processes on
127.0.0.1, driven through ``python -m pipeline build --scheduler``.

Every process runs from the virtual environment the project is installed into, in a temporary
directory and without ``PYTHONPATH``, as on a node where the project was ``pip install``ed. Every store
built on the cluster must equal an in-process build bit for bit (every array, the table files and the
stage records without their timings), also when a worker is SIGKILLed mid-stage (and a replacement
joins) and when the client itself is SIGKILLed mid-build and rerun; the tables must equal the committed
tables/3x5. Each process is started in its own session and its whole process group is killed at the
end, also when a test fails.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import zarr

from tests.pipeline.processes import Cluster, Processes, installed_env, wait_for

pytestmark = pytest.mark.cluster

ROOT = Path(__file__).resolve().parents[2]
BOARD = "3x5"
#: The pipeline the environment has installed (run from / without PYTHONPATH).
INSTALLED = subprocess.run(
    [sys.executable, "-c", "import pipeline; print(pipeline.__file__)"], cwd="/", env=installed_env(),
    capture_output=True, text=True, check=True,
).stdout.strip()  # fmt: skip
#: The environment of every process: as installed, or, in a git worktree whose environment has another
#: checkout installed, this checkout through PYTHONPATH.
ENV = installed_env()
if Path(INSTALLED) != ROOT / "pipeline" / "__init__.py":
    ENV["PYTHONPATH"] = str(ROOT)
#: Record keys that hold times, machine load or the place of the output, not results.
VOLATILE = {
    "seconds",
    "finished",
    "tasks",
    "solve_seconds",
    "solve_cpu_seconds",
    "seconds_per_iteration",
    "peak_rss_gib",
    "load_average",
    "resumed",
    "driver",  # who ran the CG loop: the parts themselves on a cluster, the client in process
    "directory",
    "part_peak_rss_gib",
    "rounds",  # perfect play's rounds, each part's own classes and halo: they depend on the parts
    "own",
    "halo",
    "part_seconds",
    "phase_seconds",
    "parts",
    "threads",  # each part's numba threads and allowed cores (machine facts, not results)
    "cores",
    "usage",  # CPU seconds, peak memory and load of each stage
    "bound",  # the bound from rates measured at the start of the build, and the ratio
}
#: The stage of each task function (dask names a task's key after its function).
TASK_STAGE = {
    "classes_task": "classes",
    "graph_task": "graph",
    "t_task": "solve",
    "PerfectPart": "perfect",
    "positions_task": "positions",
    "verify_task": "verify",
    "tables_task": "tables",
    "check_task": "tables-verify",
}


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Cluster]:
    tmp = tmp_path_factory.mktemp("cluster")
    procs = Processes(tmp, ENV)
    c: Cluster | None = None
    try:
        c = Cluster(procs, tmp)
        c.start_worker("w1")
        c.start_worker("w2")
        c.wait_workers(2)
        # The workers run in the temporary directory and import this checkout's pipeline as installed.
        # (A lambda travels by value: the workers cannot import this test module.)
        seen = c.client.run(lambda: (os.getcwd(), __import__("pipeline").__file__, os.getenv("PYTHONPATH")))
        expected = (str(tmp.resolve()), str(ROOT / "pipeline" / "__init__.py"), ENV.get("PYTHONPATH"))
        assert set(seen.values()) == {expected}, seen
        yield c
    finally:
        if c is not None:
            c.client.close()
        procs.stop_all()


def build_cmd(store: Path, scheduler: str | None, url: bool = False) -> list[str]:
    """The build command; ``url`` names the store by its ``file://`` URL (through fsspec)."""
    where = store.as_uri() if url else str(store)
    engine = ["--scheduler", scheduler.removeprefix("tcp://")] if scheduler else ["--in-process"]
    return [
        sys.executable,
        "-m",
        "pipeline",
        "build",
        "--board",
        BOARD,
        "--store",
        where,
        "--quiet",
        *engine,
    ]


def run_build(store: Path, scheduler: str | None, url: bool = False) -> subprocess.CompletedProcess[str]:
    """The build command from the store's (temporary) directory, as installed."""
    out = subprocess.run(
        build_cmd(store, scheduler, url), cwd=store.parent, env=ENV, capture_output=True,
        text=True, timeout=300,
    )  # fmt: skip
    assert out.returncode == 0, out.stderr
    return out


@pytest.fixture(scope="module")
def local(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The reference: the same build with every task in one process."""
    store = tmp_path_factory.mktemp("local") / f"{BOARD}.zarr"
    run_build(store, None)
    return store


def arrays(store: Path) -> dict[str, np.ndarray]:
    out: dict[str, np.ndarray] = {}

    def walk(group: zarr.Group, prefix: str) -> None:
        for name, member in group.members():
            if isinstance(member, zarr.Group):
                walk(member, f"{prefix}{name}/")
            else:
                out[f"{prefix}{name}"] = np.asarray(member[...])

    walk(zarr.open_group(str(store), mode="r"), "")
    return out


def without_timings(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: without_timings(v) for k, v in value.items() if k not in VOLATILE}
    if isinstance(value, list):
        return [without_timings(v) for v in value]
    return value


def assert_identical(store: Path, reference: Path) -> None:
    """Every array bit for bit, every table file byte for byte, the records without their timings."""
    got, want = arrays(store), arrays(reference)
    assert sorted(got) == sorted(want)
    assert len(want) > 10
    for name, a in want.items():
        b = got[name]
        assert (b.dtype, b.shape) == (a.dtype, a.shape), name
        assert b.tobytes() == a.tobytes(), f"{name} differs"
    tables = {p.name: p.read_bytes() for p in store.with_suffix(".tables").iterdir()}
    assert tables == {p.name: p.read_bytes() for p in reference.with_suffix(".tables").iterdir()}
    records = zarr.open_group(str(store), mode="r").attrs["stages"]
    expected = zarr.open_group(str(reference), mode="r").attrs["stages"]
    assert without_timings(dict(records)) == without_timings(dict(expected))


def stage_records(store: Path) -> dict[str, Any]:
    """The stage records as the build left them on disk (empty while the group does not exist yet)."""
    try:
        return json.loads((store / "zarr.json").read_text())["attributes"].get("stages", {})
    except (FileNotFoundError, json.JSONDecodeError, KeyError):
        return {}


def test_cluster_build_into_a_file_url_equals_local_build_and_committed_tables(
    cluster: Cluster, local: Path, tmp_path: Path
) -> None:
    """The store named by a ``file://`` URL goes through fsspec in the client and in every worker; the
    tables are the committed ones, byte for byte."""
    store = tmp_path / "shared" / f"{BOARD}.zarr"
    store.parent.mkdir()
    out = run_build(store, cluster.address, url=True)
    assert f"tables: {store.with_suffix('.tables')}:" in out.stderr
    assert_identical(store, local)
    # Each worker's part ran the CG loop itself, and got the in-process solve's bits (assert_identical).
    solve = stage_records(store)["solve"]
    assert (solve["driver"], solve["parts"]) == ("parts", 2), solve
    assert stage_records(local)["solve"]["driver"] == "client"
    committed = ROOT / "tables" / BOARD
    built = store.with_suffix(".tables")
    assert sorted(p.name for p in built.iterdir()) == sorted(p.name for p in committed.iterdir())
    for path in committed.iterdir():
        assert (built / path.name).read_bytes() == path.read_bytes(), path.name


def test_worker_killed_mid_stage(cluster: Cluster, local: Path, tmp_path: Path) -> None:
    cluster.wait_workers(2)
    victim_name = next(iter(cluster.workers))
    victim = cluster.worker_address(victim_name)
    assert victim is not None
    store = tmp_path / f"{BOARD}.zarr"
    build = subprocess.Popen(
        build_cmd(store, cluster.address), cwd=tmp_path, env=ENV, stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, text=True, start_new_session=True,
    )  # fmt: skip
    try:
        keys = wait_for(
            lambda: cluster.processing(victim) or build.poll() is not None, "a task on the victim"
        )
        Processes.kill(cluster.workers.pop(victim_name))
        killed_at = time.time()
        cluster.start_worker(f"{victim_name}-replacement")
        assert build.poll() is None, "the build ended before the victim got a task"
        _out, err = build.communicate(timeout=300)
    finally:
        Processes.kill(build)
    assert build.returncode == 0, err
    # The victim held a task of a stage that finished only after the kill: the kill was mid-stage.
    stage = TASK_STAGE[keys[0].split("-", 1)[0]]
    assert stage_records(store)[stage]["finished"] > killed_at, keys
    assert cluster.worker_address(victim_name) is None
    assert_identical(store, local)


def solve_checkpoint(store: Path) -> int:
    """The iteration of the solve's last checkpoint (0 while there is none)."""
    try:
        attrs = json.loads((store / "solve" / "zarr.json").read_text())["attributes"]
    except (FileNotFoundError, json.JSONDecodeError, KeyError):
        return 0
    return int((attrs.get("checkpoint") or {}).get("iteration", 0))


def test_worker_killed_mid_solve(cluster: Cluster, local: Path, tmp_path: Path) -> None:
    """The parts of the solve live on the workers: losing one restarts them from the last checkpoint."""
    cluster.wait_workers(2)
    store = tmp_path / f"{BOARD}.zarr"
    build = subprocess.Popen(
        [*build_cmd(store, cluster.address), "--checkpoint-seconds", "0"], cwd=tmp_path,
        env=ENV, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        start_new_session=True,
    )  # fmt: skip
    try:
        wait_for(lambda: solve_checkpoint(store) >= 5 or build.poll() is not None, "a solve checkpoint")
        assert build.poll() is None, "the build ended before a checkpoint: " + build.communicate()[1][-3000:]
        victim_name = next(iter(cluster.workers))
        Processes.kill(cluster.workers.pop(victim_name))
        killed_at = time.time()
        cluster.start_worker(f"{victim_name}-after-solve")
        _out, err = build.communicate(timeout=300)
    finally:
        Processes.kill(build)
    assert build.returncode == 0, err
    assert "solve: a worker was lost" in err, err
    assert stage_records(store)["solve"]["finished"] > killed_at
    assert_identical(store, local)


def test_client_killed_mid_build_resumes(cluster: Cluster, local: Path, tmp_path: Path) -> None:
    cluster.wait_workers(2)
    store = tmp_path / f"{BOARD}.zarr"
    build = subprocess.Popen(
        build_cmd(store, cluster.address), cwd=tmp_path, env=ENV, stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL, start_new_session=True,
    )  # fmt: skip
    try:
        wait_for(lambda: stage_records(store) or build.poll() is not None, "a stage record")
        Processes.kill(build)
    finally:
        Processes.kill(build)
    done = set(stage_records(store))
    assert "classes" in done and "tables-verify" not in done, done
    out = run_build(store, cluster.address)
    assert "classes: done already" in out.stderr
    assert_identical(store, local)


def test_object_store_url_needs_a_shared_tables_dir(capsys: pytest.CaptureFixture[str]) -> None:
    """A store URL other than file:// cannot default the tables next to it: one line, status 2."""
    from pipeline.cli import main

    assert main(["build", "--board", BOARD, "--store", "s3://bucket/x.zarr", "--in-process", "--quiet"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("error: store s3://bucket/x.zarr: give --tables DIR")


def test_a_store_url_whose_file_system_is_not_installed_is_one_line(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """An fsspec scheme this machine cannot load (s3 without s3fs) ended in an ImportError traceback."""
    from pipeline.cli import main

    argv = ["build", "--board", BOARD, "--store", "s3://bucket/x.zarr", "--tables", "/nonexistent/t"]
    assert main([*argv, "--in-process", "--quiet"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("error: store s3://bucket/x.zarr: cannot open it ("), err


def test_three_parts_run_the_solve_themselves_bit_for_bit(cluster: Cluster, tmp_path: Path) -> None:
    """3x7 (three chunks of O positions) on three workers: each part runs the CG loop itself, exchanging
    halo values and partial sums with two others, and r is the in-memory one-part solve's, bit for bit."""
    from pipeline.unitile.cg import solve
    from pipeline.unitile.solver import SolverState
    from pipeline.unitile.store import Store, solve_order
    from unitile_py.unitile.board import Board

    cluster.start_worker("third")
    try:
        cluster.wait_workers(3)
        store = tmp_path / "3x7.zarr"
        cmd = build_cmd(store, cluster.address)
        cmd[cmd.index(BOARD)] = "3x7"
        out = subprocess.run(cmd, cwd=tmp_path, env=ENV, capture_output=True, text=True, timeout=300)
        assert out.returncode == 0, out.stderr
    finally:
        Processes.kill(cluster.workers.pop("third"))
    record = stage_records(store)["solve"]
    assert (record["driver"], record["parts"]) == ("parts", 3), record
    # Perfect play too ran as three parts, each running the bands itself (3x7 has 4 blocks of class ids).
    perfect = stage_records(store)["perfect"]
    assert (perfect["driver"], perfect["parts"], perfect["tasks"]) == ("parts", 3, 3), perfect
    assert perfect["rounds"] > perfect["bands"] > 1 and min(perfect["halo"]) > 0, perfect
    board = Board.parse("3x7")
    s = Store(str(store), board)
    order = solve_order(s)
    one = solve(s.read("graph/nbr"), s.read("graph/info"), order.split, SolverState.start(order.split),
                order=order)  # fmt: skip
    assert one.iterations == record["iterations"]
    assert np.array_equal(s.read("values/r"), one.x)


def _actors_on_workers(cluster: Cluster) -> int:
    """How many dask actors the workers hold (a lambda: the workers cannot import this module)."""
    return sum(cluster.client.run(lambda dask_worker: len(dask_worker.state.actors)).values())


def test_a_closed_group_leaves_no_actor_on_the_workers(cluster: Cluster) -> None:
    """An actor lives while a client holds its key. The solve's and perfect play's groups were let go only
    when the last reference to them was freed, some stages later: on 5x5 the workers held their solve
    parts into the verify stage, and 3x9's perfect play began with 4.1 GiB of them still resident. A
    closed group's actors, which hold each other's handles, are gone at once."""
    from pipeline.executor import DaskExecutor
    from pipeline.unitile.peers import Peers

    executor = DaskExecutor(scheduler=cluster.address, show_progress=False)
    try:
        group = executor.group(Peers, [(0,), (1,)])
        group.call("set_peers", [(group.handles,)] * group.size)
        assert _actors_on_workers(cluster) == 2
        group.close()
        assert group.size == 0
        wait_for(lambda: _actors_on_workers(cluster) == 0, "the closed group's actors to go")
    finally:
        executor.close()


def _tasks_on_workers(cluster: Cluster) -> int:
    """How many tasks the workers know of (a lambda: the workers cannot import this module)."""
    return sum(cluster.client.run(lambda dask_worker: len(dask_worker.state.tasks)).values())


def test_a_map_lets_each_task_go_once_its_result_is_in(cluster: Cluster) -> None:
    """A worker keeps a task, arguments and all, while the client holds its future: the 268 tasks that
    form T on 3x9, each carrying the 5.8 MB solve order, took a worker from 0.9 to 2.0 GiB. Once the last
    result is in, the workers hold none of them, while the map is still collecting."""
    from pipeline.executor import DaskExecutor

    executor = DaskExecutor(scheduler=cluster.address, show_progress=False)
    items = list(range(12))

    def last_result(i: int, value: int) -> None:
        got.append(value)
        if len(got) == len(items):
            wait_for(lambda: _tasks_on_workers(cluster) == 0, "the finished tasks to be let go")

    got: list[int] = []
    try:
        out = executor.map(lambda k: k * k, items, "squares", on_result=last_result)
        assert out == [k * k for k in items]
        assert sorted(got) == [k * k for k in items]
    finally:
        executor.close()


def test_a_shared_argument_goes_to_each_worker_once(cluster: Cluster) -> None:
    """``map_shared`` hands every task on a worker the same object (here counted up by each task, which
    one copy per task would not show), and lets it go at the end."""
    from pipeline.executor import DaskExecutor

    executor = DaskExecutor(scheduler=cluster.address, show_progress=False)

    def count(k: int, seen: np.ndarray) -> tuple[int, int, int]:
        seen[0] += 1
        return k, int(seen[0]), os.getpid()

    try:
        out = executor.map_shared(count, list(range(16)), np.zeros(1, dtype=np.int64), "count")
        assert [k for k, _, _ in out] == list(range(16))
        for pid in {p for _, _, p in out}:
            counts = sorted(c for _, c, p in out if p == pid)
            assert counts == list(range(1, len(counts) + 1)), counts
        wait_for(lambda: _tasks_on_workers(cluster) == 0, "the shared object to be let go")
    finally:
        executor.close()
