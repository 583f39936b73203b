"""The solve stage alone on N pinned workers, on a copy of a finished store: seconds per iteration and,
per part, the wall and CPU milliseconds per iteration of each step and of the waits for the other parts.

    .venv/bin/python bench/solve_parts.py build/5x5.zarr --workers 1,2 [--rounds 2]

Each run copies the store into a temporary directory (the original is only read), starts a scheduler
and the workers under ``taskset`` (one core each, one thread: bench/scaling.py's cluster) and runs
``pipeline.unitile.solve_stage.run_solve`` from this process. The step times come from wrapping the
parts' methods in the workers (wall and thread CPU time); a step's wall time well above its CPU time
means its core was busy with other processes. The numbers are only as quiet as the machine.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from scaling import LocalDaskCluster  # noqa: E402

#: The part's methods timed in the workers.
STEPS = ("wait_halo", "reduce", "even_step", "odd_step", "update", "direction")


def time_steps() -> None:
    """In a worker: wrap the timed methods of :class:`Partition` to add up their wall and CPU seconds."""
    import time

    from pipeline.unitile import partition

    totals: dict[str, float] = partition.__dict__.setdefault("_bench_steps", {})
    for name in STEPS:
        method = getattr(partition.Partition, name, None)
        if method is None or getattr(method, "_timed", False):
            continue

        def timed(self: Any, *args: Any, _method: Any = method, _name: str = name, **kwargs: Any) -> Any:
            wall, cpu = time.perf_counter(), time.thread_time()
            try:
                return _method(self, *args, **kwargs)
            finally:
                totals[_name] = totals.get(_name, 0.0) + time.perf_counter() - wall
                totals[_name + " cpu"] = totals.get(_name + " cpu", 0.0) + time.thread_time() - cpu

        timed._timed = True  # type: ignore[attr-defined]
        setattr(partition.Partition, name, timed)


def step_totals() -> dict[str, float]:
    """In a worker: the seconds added up by :func:`time_steps`."""
    from pipeline.unitile import partition

    return dict(partition.__dict__.get("_bench_steps", {}))


def run(store: Path, workers: int) -> dict[str, Any]:
    """One solve of a copy of ``store`` on ``workers`` pinned workers."""
    import zarr

    from pipeline.executor import DaskExecutor
    from pipeline.unitile.context import Context
    from pipeline.unitile.solve_stage import run_solve
    from pipeline.unitile.store import Store
    from unitile_py.unitile.board import Board

    board = Board.parse(zarr.open_group(str(store), mode="r").attrs["unitile"]["board"])
    tmp = Path(tempfile.mkdtemp(prefix="solve-parts-"))
    try:
        copy = tmp / store.name
        shutil.copytree(store, copy)
        load = os.getloadavg()[0]
        cluster = LocalDaskCluster(tmp, workers, None, pin=True)
        try:
            cluster.client.run(time_steps)
            executor = DaskExecutor(scheduler=cluster.address.removeprefix("tcp://"), show_progress=False)
            try:
                ctx = Context(board, Store(str(copy), board), executor, log=lambda msg: None)
                record = run_solve(ctx, 1e-12, 15.0)
                steps = cluster.client.run(step_totals)
            finally:
                executor.close()
        finally:
            cluster.close()
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    n = record["iterations"]
    return {
        "workers": workers,
        "driver": record.get("driver", "client"),
        "iterations": n,
        "ms_per_iteration": round(record["seconds_per_iteration"] * 1e3, 1),
        "phase_seconds": record["phase_seconds"],
        "load": [round(load, 2), round(os.getloadavg()[0], 2)],
        "parts_ms_per_iteration": [{k: round(v / n * 1e3, 1) for k, v in st.items()}
                                   for st in steps.values()],
    }


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("store", help="a finished store (only read)")
    p.add_argument("--workers", default="1,2", help="worker counts, comma separated")
    p.add_argument("--rounds", type=int, default=1, help="runs of every worker count, alternately")
    args = p.parse_args()
    for _ in range(args.rounds):
        for workers in (int(w) for w in args.workers.split(",")):
            row = run(Path(args.store), workers)
            print(f"{row['workers']} worker(s), driver {row['driver']}: {row['iterations']} iterations, "
                  f"{row['ms_per_iteration']} ms each, load {row['load'][0]}-{row['load'][1]}, "
                  f"phases {row['phase_seconds']}", flush=True)  # fmt: skip
            for part in row["parts_ms_per_iteration"]:
                print(f"  part: {part} (ms per iteration)", flush=True)


if __name__ == "__main__":
    main()
