"""How the build's cost grows with the board and the workers: a real ``dask scheduler`` and N
``dask worker`` processes on 127.0.0.1, ``python -m pipeline build --scheduler`` into a fresh store.

    .venv/bin/python bench/scaling.py [--boards 3x5,3x7] [--workers 1,2] [--memory-limit 2GiB] [--pin]
                                      [--existing build/5x5.zarr] [--out build/scaling.json]

For each board and worker count it reports the wall time of the build, each stage's seconds, CPU
seconds and bound ratio (from the stage records), the peak resident memory of the client (which holds
scalars and the halo traffic of the solve) and of the workers (their own ``ru_maxrss`` at the end,
and the largest per-stage peak of the stage records: the build resets the high-water mark at every
stage, so a worker's peak at the end is its last stage's), the machine's
load average before and after, and the cost per position. With ``--pin`` every worker runs under
``taskset`` on a core of its own (worker i on the i-th core this process may use), single-threaded, as
separate one-core machines would; a board built with several worker counts gets a line of each stage's
speedup over the fewest workers. ``--existing`` adds the stage seconds already
recorded in finished stores (no rebuild). The numbers are only as quiet as the machine.

    .venv/bin/python bench/scaling.py --halo build/5x5.zarr

reports instead the halo of the solve's parts (the values of other parts' classes that a part's rows
read, sent twice per CG iteration) if the classes of a finished store were split over 2-64 workers:
by ranges of the locality key (what the solve does) and in runs of consecutive ids.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from pipeline.executor import WORKER_MALLOC_ENV  # noqa: E402
from unitile_py.unitile.board import Board  # noqa: E402

DASK = str(Path(sys.executable).with_name("dask"))
MIB = 2**20


def _peak_rss_kib() -> int:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


class LocalDaskCluster:
    """``dask scheduler`` + ``workers`` ``dask worker`` processes, each in its own process group."""

    def __init__(self, tmp: Path, workers: int, memory_limit: str | None, pin: bool = False) -> None:
        from dask.distributed import Client

        self.procs: list[subprocess.Popen[bytes]] = []
        self.tmp = tmp
        # The allocator settings docs/cluster.md asks of a cluster's workers (a nanny's own default costs
        # every stage that works through arrays in blocks).
        env = {**WORKER_MALLOC_ENV, **os.environ, "PYTHONPATH": str(ROOT)}
        file = tmp / "scheduler.json"
        self._start([DASK, "scheduler", "--host", "127.0.0.1", "--port", "0", "--no-dashboard",
                     "--scheduler-file", str(file)], env, tmp / "scheduler.log")  # fmt: skip
        end = time.monotonic() + 60
        while not (file.exists() and file.stat().st_size > 0):
            if time.monotonic() > end:
                raise RuntimeError("the scheduler did not start")
            time.sleep(0.01)
        self.address = json.loads(file.read_text())["address"]
        extra = ["--memory-limit", memory_limit] if memory_limit else []
        cores = sorted(os.sched_getaffinity(0))
        if pin and workers > len(cores):
            raise SystemExit(f"--pin: {workers} workers but only {len(cores)} cores to pin them to")
        for i in range(workers):
            bound = ["taskset", "-c", str(cores[i])] if pin else []
            self._start([*bound, DASK, "worker", "--scheduler-file", str(file), "--host", "127.0.0.1",
                         "--nworkers", "1", "--nthreads", "1", "--no-dashboard", "--name", f"w{i}", *extra],
                        env, tmp / f"w{i}.log")  # fmt: skip
        self.client = Client(self.address, timeout="30s")
        self.client.wait_for_workers(workers, timeout=120)

    def _start(self, cmd: list[str], env: dict[str, str], log: Path) -> None:
        with open(log, "wb") as out:
            self.procs.append(
                subprocess.Popen(cmd, env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
            )

    def worker_peaks_mib(self) -> list[float]:
        """Each worker process's own peak resident memory."""
        peaks = self.client.run(_peak_rss_kib)
        return sorted(round(v / 1024, 1) for v in peaks.values())

    def memory_events(self) -> dict[str, int]:
        """Memory-limit events in the workers' logs: pauses at 80 % of the limit, and kills of a worker
        by its nanny (whose peak is then lost with it)."""
        logs = "".join(p.read_text(errors="replace") for p in self.tmp.glob("w*.log"))
        return {
            "pauses": logs.count("Pausing worker"),
            "kills": logs.count("exceeded 95% memory budget"),
        }

    def close(self) -> None:
        self.client.close()
        for p in self.procs:
            try:
                os.killpg(p.pid, signal.SIGTERM)
                p.wait(timeout=20)
            except (ProcessLookupError, subprocess.TimeoutExpired):
                os.killpg(p.pid, signal.SIGKILL)
                p.wait()


def run_one(board: Board, workers: int, memory_limit: str | None, scratch: Path, pin: bool = False
            ) -> dict[str, Any]:
    """One fresh build of ``board`` on a new cluster of ``workers`` workers (each on its own core with
    ``pin``)."""
    tmp = Path(tempfile.mkdtemp(prefix=f"scaling-{board}-{workers}w-", dir=scratch))
    store = tmp / f"{board}.zarr"
    cluster = LocalDaskCluster(tmp, workers, memory_limit, pin)
    try:
        cmd = [sys.executable, "-m", "pipeline", "build", "--board", str(board), "--store", str(store),
               "--tables", str(tmp / "tables"), "--scheduler", cluster.address.removeprefix("tcp://"),
               "--quiet"]  # fmt: skip
        load_before = os.getloadavg()[0]
        t0 = time.perf_counter()
        proc = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - t0
        proc.returncode = os.waitstatus_to_exitcode(status)
        err = proc.stderr.read().decode() if proc.stderr else ""
        if proc.returncode != 0:
            raise RuntimeError(f"build failed ({proc.returncode}): {err[-2000:]}")
        worker_peaks = cluster.worker_peaks_mib()
        events = cluster.memory_events()
    finally:
        cluster.close()
    import zarr

    stages = dict(zarr.open_group(str(store), mode="r").attrs["stages"])
    committed = ROOT / "tables" / str(board)
    identical = (
        sorted(p.name for p in committed.iterdir()) == sorted(p.name for p in (tmp / "tables").iterdir())
        and all((tmp / "tables" / p.name).read_bytes() == p.read_bytes() for p in committed.iterdir())
        if committed.is_dir()
        else None
    )
    stage_peaks = [v.get("usage", {}).get("worker_peak_gib") or 0 for v in stages.values()]
    tables_bytes = sum(p.stat().st_size for p in (tmp / "tables").iterdir())
    shutil.rmtree(tmp, ignore_errors=True)
    return {
        "board": str(board),
        "positions": board.positions,
        "classes": stages["classes"]["classes"],
        "solved_classes": stages["solve"]["solved_classes"],
        "iterations": stages["solve"]["iterations"],
        "workers": workers,
        "pinned": pin,
        "stage_tasks": {k: v.get("tasks") for k, v in stages.items()},
        "memory_limit": memory_limit,
        "wall_seconds": round(wall, 2),
        "stage_seconds": {k: v["seconds"] for k, v in stages.items()},
        "stage_cpu_seconds": {k: v.get("usage", {}).get("cpu_seconds") for k, v in stages.items()},
        "stage_ratio": {k: v.get("bound", {}).get("ratio") for k, v in stages.items()},
        "client_peak_mib": round(usage.ru_maxrss / 1024, 1),
        "client_cpu_seconds": round(usage.ru_utime + usage.ru_stime, 2),
        # The build resets each process's high-water mark at every stage (pipeline/usage.py), so a
        # worker's own peak at the end is its last stage's; the stage records hold each stage's.
        "worker_peak_mib": worker_peaks,
        "worker_peak_mib_over_stages": round(1024 * max(stage_peaks, default=0), 1),
        "worker_memory_events": events,
        "tables_bits_per_position": round(8 * tables_bytes / board.positions, 4),
        "tables_identical_to_committed": identical,
        "solve": {
            k: stages["solve"].get(k)
            for k in ("parts", "seconds_per_iteration", "part_peak_rss_gib", "phase_seconds")
        },
        "us_per_position": round(wall / board.positions * 1e6, 3),
        "load_before": round(load_before, 2),
        "load_after": round(os.getloadavg()[0], 2),
    }


def existing(path: str) -> dict[str, Any] | None:
    """The stage seconds recorded in a finished store (no rebuild)."""
    import zarr

    try:
        root = zarr.open_group(path, mode="r")
    except (FileNotFoundError, zarr.errors.GroupNotFoundError):
        return None
    board = Board.parse(root.attrs["unitile"]["board"])
    stages = dict(root.attrs.get("stages", {}))
    total = sum(v["seconds"] for v in stages.values())
    solve = stages.get("solve", {})
    return {
        "board": str(board),
        "positions": board.positions,
        "store": path,
        "stages": list(stages),
        "stage_seconds": {k: v["seconds"] for k, v in stages.items()},
        "sum_of_stage_seconds": round(total, 1),
        "us_per_position": round(total / board.positions * 1e6, 3),
        "solved_classes": solve.get("solved_classes"),
        "iterations": solve.get("iterations"),
        "seconds_per_iteration": solve.get("seconds_per_iteration"),
        "client_peak_gib_at_solve": solve.get("peak_rss_gib"),
    }


def halo(path: str, parts: int, by_key: bool) -> dict[str, Any]:
    """The halo of the solve's parts (:func:`pipeline.unitile.partition.plan_parts`) if the classes of a
    finished store were split over ``parts`` workers: in the solve order, by locality key (what the
    solve does), or in runs of consecutive class ids. Each CG iteration moves every halo value once (p's
    to the E rows that read it, t's to the O rows), part to part."""
    import zarr

    from pipeline.unitile.cg import local_parts
    from pipeline.unitile.class_stages import solve_order
    from pipeline.unitile.store import Store

    board = Board.parse(zarr.open_group(path, mode="r").attrs["unitile"]["board"])
    store = Store(path, board)
    nbr, info = store.read("graph/nbr"), store.read("graph/info")
    split = int(store.require("classes")["split"])
    group = local_parts(nbr, info, split, parts, solve_order(store) if by_key else None)
    halos = [p.o.halo.shape[0] + p.e.halo.shape[0] for p in group.parts]
    own = [p.plan.own_o + p.plan.own_e for p in group.parts]
    n = info.shape[0]
    return {
        "parts": len(group.parts),
        "partition": "locality key" if by_key else "runs of ids",
        "classes": n,
        "halo_values": sum(halos),
        "halo_over_classes": round(sum(halos) / n, 4),
        "largest_halo_over_own": round(max(h / o for h, o in zip(halos, own, strict=True)), 4),
        "bytes_per_iteration": 8 * sum(halos),
        "largest_part_over_mean": round(max(own) / (n / len(own)), 3),
    }


def table(rows: list[dict[str, Any]]) -> str:
    """The runs side by side."""
    head = (f"{'board':>5} {'positions':>11} {'wkr':>3} {'wall s':>8} {'solve s':>8} {'us/pos':>8} "
            f"{'client MiB':>10} {'worker MiB':>16} {'load':>9}")  # fmt: skip
    lines = [head]
    for r in rows:
        lines.append(
            f"{r['board']:>5} {r['positions']:>11,} {r['workers']:>3} {r['wall_seconds']:>8.1f} "
            f"{r['stage_seconds']['solve']:>8.2f} {r['us_per_position']:>8.2f} {r['client_peak_mib']:>10.0f} "
            f"{max(r['worker_peak_mib_over_stages'], *r['worker_peak_mib']):>16.0f} "
            f"{r['load_before']:>4.1f}-{r['load_after']:<4.1f}"
        )
    return "\n".join(lines)


def speedups(rows: list[dict[str, Any]]) -> list[str]:
    """Per board built with several worker counts: each stage's seconds with the fewest workers over its
    seconds with more, and the whole build's."""
    lines = []
    for board in dict.fromkeys(r["board"] for r in rows):
        runs = sorted((r for r in rows if r["board"] == board), key=lambda r: r["workers"])
        base = runs[0]
        for r in runs[1:]:
            parts = [f"{k} {base['stage_seconds'][k] / v:.2f}x" for k, v in r["stage_seconds"].items()
                     if k in base["stage_seconds"] and v > 0]
            lines.append(f"{board} {r['workers']} workers over {base['workers']}: build "
                         f"{base['wall_seconds'] / r['wall_seconds']:.2f}x; " + ", ".join(parts))
    return lines


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--boards", default="3x5,3x7")
    p.add_argument("--workers", default="1,2", help="worker counts, comma separated")
    p.add_argument("--memory-limit", help="each worker's --memory-limit (for example 2GiB)")
    p.add_argument("--pin", action="store_true", help="each worker on a core of its own (taskset)")
    p.add_argument("--existing", action="append", default=[], help="a finished store to report (no rebuild)")
    p.add_argument("--scratch", default=str(ROOT / "build"), help="where the fresh stores go (removed after)")
    p.add_argument(
        "--halo", metavar="STORE", help="only report the traffic per CG iteration split over workers"
    )
    p.add_argument("--out", help="write the results as JSON here")
    args = p.parse_args()
    if args.halo:
        for by_key in (False, True):
            for parts in (2, 4, 8, 16, 64):
                print(json.dumps(halo(args.halo, parts, by_key)), flush=True)
        return 0
    Path(args.scratch).mkdir(parents=True, exist_ok=True)
    rows = []
    for b in [b for b in args.boards.split(",") if b]:
        for n in (int(w) for w in args.workers.split(",")):
            row = run_one(Board.parse(b), n, args.memory_limit, Path(args.scratch), args.pin)
            print(json.dumps(row), file=sys.stderr, flush=True)
            rows.append(row)
    print(table(rows))
    for line in speedups(rows):
        print(line)
    recorded = [e for e in (existing(path) for path in args.existing) if e is not None]
    for e in recorded:
        print(f"{e['board']} (recorded in {e['store']}): {e['sum_of_stage_seconds']} s over stages "
              f"{', '.join(f'{k} {v:.0f}' for k, v in e['stage_seconds'].items())}; "
              f"{e['us_per_position']} us/position")  # fmt: skip
    if args.out:
        Path(args.out).write_text(
            json.dumps({"runs": rows, "recorded": recorded, "cores": os.cpu_count()}, indent=1)
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
