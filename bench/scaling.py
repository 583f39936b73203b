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

    .venv/bin/python bench/scaling.py --model --boards 5x7 [--machines 8,16,32,64] [--cores-per-machine 32]
                                      [--network-gbps 25] [--iterations 500,1000] [--measured FILE] ...

predicts instead the wall time of each stage of a build on N machines (:func:`predict`, its assumptions
in its docstring and in the output), from a build measured on one pinned core: the built-in 5x5 inputs
(docs/cluster.md, "A model for 5x7") or the one- and two-worker runs of a ``--pin --out FILE``. No build.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
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


def _stage_mib(stages: dict[str, Any], field: str) -> dict[str, float | None]:
    """A memory field of each stage record's usage, in MiB (None where the record has none)."""
    out = {}
    for name, record in stages.items():
        gib = record.get("usage", {}).get(field)
        out[name] = round(1024 * gib, 1) if isinstance(gib, (int, float)) else None
    return out


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
    stage_peaks = _stage_mib(stages, "worker_peak_gib")
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
        "worker_peak_mib_over_stages": max((v or 0.0 for v in stage_peaks.values()), default=0.0),
        # Each stage's largest worker peak, and the largest worker's resident memory as the stage began
        # (what the peak holds of the worker's baseline: code, libraries, memory not yet given back).
        "stage_worker_peak_mib": stage_peaks,
        "stage_worker_start_mib": _stage_mib(stages, "worker_start_gib"),
        "worker_memory_events": events,
        "tables_bits_per_position": round(8 * tables_bytes / board.positions, 4),
        "tables_identical_to_committed": identical,
        "solve": {
            k: stages["solve"].get(k)
            for k in ("parts", "seconds_per_iteration", "part_peak_rss_gib", "phase_seconds")
        },
        "perfect": {
            k: stages["perfect"].get(k)
            for k in ("parts", "bands", "rounds", "halo", "part_peak_rss_gib", "part_seconds")
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
    from pipeline.unitile.store import Store, solve_order

    board = Board.parse(zarr.open_group(path, mode="r").attrs["unitile"]["board"])
    store = Store(path, board)
    nbr, info = store.read("graph/nbr"), store.read("graph/info")
    split = int(store.require("classes")["split"])
    group = local_parts(nbr, info, split, parts, solve_order(store) if by_key else None)
    halos = [p.o.size + p.e.size for p in group.parts]
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


def against_fewest(rows: list[dict[str, Any]]) -> list[tuple[dict[str, Any], dict[str, Any]]]:
    """Per board built with several worker counts: ``(run with the fewest workers, another run)`` pairs."""
    pairs = []
    for board in dict.fromkeys(r["board"] for r in rows):
        runs = sorted((r for r in rows if r["board"] == board), key=lambda r: r["workers"])
        pairs += [(runs[0], r) for r in runs[1:]]
    return pairs


def speedups(rows: list[dict[str, Any]]) -> list[str]:
    """Per board built with several worker counts: each stage's seconds with the fewest workers over its
    seconds with more, and the whole build's."""
    lines = []
    for base, r in against_fewest(rows):
        parts = [f"{k} {base['stage_seconds'][k] / v:.2f}x" for k, v in r["stage_seconds"].items()
                 if k in base["stage_seconds"] and v > 0]  # fmt: skip
        lines.append(f"{r['board']} {r['workers']} workers over {base['workers']}: build "
                     f"{base['wall_seconds'] / r['wall_seconds']:.2f}x; " + ", ".join(parts))  # fmt: skip
    return lines


def memory_lines(rows: list[dict[str, Any]]) -> list[str]:
    """Per run: each stage's largest worker peak in MiB (and, in brackets, that worker's resident memory
    as the stage began); per board built with several worker counts, the largest worker peak over the
    stages against the fewest workers' largest."""
    lines = []
    for r in rows:
        starts = r.get("stage_worker_start_mib", {})
        peaks = r.get("stage_worker_peak_mib", {})
        parts = [f"{k} {v:.0f} ({starts.get(k) or 0:.0f})" for k, v in peaks.items() if v is not None]
        if parts:
            lines.append(f"{r['board']} {r['workers']} workers, peak (start) MiB: " + ", ".join(parts))
    for first, r in against_fewest(rows):
        base, peak = first["worker_peak_mib_over_stages"], r["worker_peak_mib_over_stages"]
        if base:
            lines.append(f"{r['board']} {r['workers']} workers: largest worker peak {peak:.0f} MiB, "
                         f"{100 * peak / base:.0f} % of {first['workers']} worker's {base:.0f} MiB")
    return lines


# The model of N machines (--model) ---------------------------------------------------------------------

#: What each stage's cost grows with: the board's positions, or its symmetry classes.
STAGE_UNITS = {"classes": "positions", "graph": "classes", "solve": "classes", "perfect": "classes",
               "positions": "positions", "verify": "positions", "tables": "positions",
               "tables-verify": "positions"}  # fmt: skip
#: Class ids per graph task, and per task that writes ``values/r`` and ``values/T_class`` after a solve in
#: several parts (CLASS_SHARD of pipeline/unitile/store.py, T_CHUNK of solve_stage.py).
GRAPH_TASK_CLASSES = 1 << 20
T_TASK_CLASSES = 1 << 18
#: The stages whose tasks are one per bubble cell as built, and the positions a task then covers.
CELL_STAGES = ("positions", "verify", "tables-verify")
#: CG iterations meet in this many message rounds (two halo pushes, two reductions: docs/cluster.md, "The
#: solve run by its parts").
ROUNDS_PER_ITERATION = 4
#: Bytes per halo value of the solve (float64) and of perfect play (an int64 index and an int16 value).
SOLVE_HALO_BYTES, PERFECT_HALO_BYTES = 8, 10
#: Bytes a solve part holds per own class beyond 2^31 classes: its graph rows (4 int64 neighbours, 1 B info,
#: an int64 colour-swap partner) and its vectors (five of 8 B on O, three on E): docs/cluster.md.
SOLVE_PART_BYTES = 41 + 32


@dataclass(frozen=True)
class Measured:
    """A board built on one pinned single-threaded worker (``bench/scaling.py --pin --workers 1``): each
    stage's seconds (on one core, so its core-seconds) and tasks, and the solve's seconds per CG iteration
    on one such worker (one part) and on two (two parts, one core each)."""

    board: str
    positions: int
    classes: int
    iterations: int
    stage_seconds: dict[str, float]
    tasks: dict[str, int]
    seconds_per_iteration: float
    seconds_per_iteration_2: float


#: The built-in inputs: 5x5 on one and on two pinned workers, `bench/scaling.py --pin --boards 5x5
#: --workers 1,2`, 2026-12-05, load 0.06-2.05 (docs/cluster.md, "A model for 5x7").
MEASURED_5X5 = Measured(
    board="5x5", positions=67_603_900, classes=8_455_438, iterations=136,
    stage_seconds={"classes": 2.668, "graph": 3.214, "solve": 9.275, "perfect": 5.161, "positions": 3.819,
                   "verify": 10.872, "tables": 5.299, "tables-verify": 8.746},
    tasks={"classes": 6, "graph": 9, "solve": 1, "perfect": 1, "positions": 25, "verify": 25, "tables": 6,
           "tables-verify": 25},
    seconds_per_iteration=0.04804, seconds_per_iteration_2=0.04499,
)  # fmt: skip

#: The solve's halo by locality key on 5x5 (``bench/scaling.py --halo build/5x5.zarr``, docs/cluster.md,
#: "The solve's halo"): parts -> (halo values / classes, the largest part's halo / its own classes).
HALO_5X5 = {2: (0.1829, 0.1888), 4: (0.4233, 0.5819), 8: (0.6468, 0.835), 16: (0.9013, 1.2499),
            64: (1.6479, 2.2463)}


@dataclass(frozen=True)
class Cluster:
    """``machines`` machines of ``cores`` cores each, every one with ``gbps`` Gb/s of network each way."""

    machines: int
    cores: int
    gbps: float


@dataclass(frozen=True)
class Assumptions:
    """What the model assumes rather than measures (every field is a flag of ``--model``)."""

    #: CG iterations of the target board.
    iterations: int
    #: Tasks a second through dask's scheduler, not overlapped with the tasks' work.
    tasks_per_second: float = 3000.0
    #: Bands of T of the tiered perfect stage, and the message rounds per band beyond the first (children
    #: in the same band on another part): rounds = bands x (1 + cross_depth). The defaults are the stage's
    #: and what 5x5 took on two parts (262 rounds for 32 bands, docs/cluster.md); more parts may need more.
    bands: int = 32
    cross_depth: float = 7.2
    #: Other parts that read each class's perfect value (at most its legal slides).
    perfect_reads: float = 1.5
    #: Split the per-cell stages' tasks into ranges of at most this many positions (None: one per cell).
    task_positions: int | None = None


def halo_at(parts: int, table: dict[int, tuple[float, float]]) -> tuple[float, float, bool]:
    """The solve's halo on ``parts`` parts from the measured ``table`` (:data:`HALO_5X5`): halo / classes
    and the largest part's halo / its own classes, interpolated linearly in log(parts) between measured
    counts, extended along the last two beyond them (then the flag is True). One part has no halo."""
    if parts <= 1:
        return 0.0, 0.0, False
    counts = sorted(table)
    if parts in table:
        return *table[parts], False
    lo = max([c for c in counts if c < parts], default=counts[0])
    hi = min([c for c in counts if c > parts], default=counts[-1])
    if lo == hi:  # outside the measured counts: the nearest two
        lo, hi = (counts[0], counts[1]) if parts < counts[0] else (counts[-2], counts[-1])
    w = (math.log(parts) - math.log(lo)) / (math.log(hi) - math.log(lo))
    total, largest = (max(0.0, a + w * (b - a)) for a, b in zip(table[lo], table[hi], strict=True))
    return total, largest, not counts[0] <= parts <= counts[-1]


def board_tasks(board: Board, classes: int, split: int | None = None) -> dict[str, int]:
    """Each task stage's tasks as the build makes them for ``board``: one per bubble orbit (classes,
    tables), per 2^20 classes (graph), per bubble cell (positions, verify, tables-verify); with ``split``,
    every per-position stage's cell or orbit is cut into ranges of at most ``split`` positions (not built:
    docs/cluster.md, "What is left of issue 7")."""
    orbits = len({min(perm[c] for perm in board.symmetries) for c in range(board.cells)})
    ranges = math.ceil(board.positions // board.cells / split) if split else 1
    return {"classes": orbits * ranges, "graph": math.ceil(classes / GRAPH_TASK_CLASSES),
            "tables": orbits * ranges, **dict.fromkeys(CELL_STAGES, board.cells * ranges)}  # fmt: skip


def predict(
    measured: Measured, positions: int, classes: int, tasks: dict[str, int], cluster: Cluster,
    assume: Assumptions, halo: dict[int, tuple[float, float]] = HALO_5X5,
) -> dict[str, Any]:  # fmt: skip
    """The predicted wall time of each stage of a build of ``positions`` positions in ``classes`` classes on
    ``cluster``, from a ``measured`` build on one core. Returns ``stages`` (seconds per stage), ``total``,
    ``terms`` (the seconds of each part of the model, to name what dominates) and ``solve`` (per
    iteration: compute, network and latency seconds, the halo fractions, whether extrapolated).

    Every stage's core-seconds scale with its unit (:data:`STAGE_UNITS`) from the measured board; the
    cores of a machine are assumed to scale perfectly.

    * A task stage of ``k`` tasks on ``W = machines x cores`` single-threaded workers: ``ceil(k / W)``
      waves of one task's core-seconds, plus ``k / tasks_per_second`` through the scheduler.
    * The solve, one part per machine using its cores: per iteration, the measured one-core iteration
      scaled by classes / W, plus the largest part's halo (measured fraction at ``machines`` parts, 8 B a
      value) over the machine's network, plus the measured overhead of two parts (their iteration minus
      half the one-part one) times log2(parts); its other phases (starting parts, checkpoints, writing r
      and T) scale by classes / W; with several parts, one scheduler task per 2^18 classes forms T.
    * Perfect play in tiers, one part per worker: the measured core-seconds per class / W, plus ``bands x
      (1 + cross_depth)`` rounds of a quarter of the two-part overhead times log2(parts), plus each
      class's value sent to ``perfect_reads`` other parts (10 B) over the machines' networks.
    """
    workers = cluster.machines * cluster.cores
    bandwidth = cluster.gbps * 1e9 / 8  # bytes a second into one machine
    rate = assume.tasks_per_second
    units = {"positions": positions / measured.positions, "classes": classes / measured.classes}
    cost = {s: measured.stage_seconds[s] * units[STAGE_UNITS[s]] for s in measured.stage_seconds}
    overhead_2 = max(0.0, measured.seconds_per_iteration_2 - measured.seconds_per_iteration / 2)
    round_seconds = overhead_2 / ROUNDS_PER_ITERATION
    stages: dict[str, float] = {}
    terms: dict[str, float] = {}
    for s, k in tasks.items():
        if s in ("solve", "perfect"):  # modelled below, not as tasks
            continue
        stages[s] = math.ceil(k / workers) * cost[s] / k + k / rate
        terms[f"{s} tasks"] = stages[s]
    # The solve.
    parts = cluster.machines
    scale = units["classes"]
    cg_measured = measured.seconds_per_iteration * measured.iterations
    other = (measured.stage_seconds["solve"] - cg_measured) * scale / workers
    compute = measured.seconds_per_iteration * scale / workers
    frac, largest, extrapolated = halo_at(parts, halo)
    network = largest * classes / parts * SOLVE_HALO_BYTES / bandwidth if parts > 1 else 0.0
    latency = overhead_2 * math.log2(parts)
    t_tasks = math.ceil(classes / T_TASK_CLASSES) if parts > 1 else 0
    it = assume.iterations
    stages["solve"] = it * (compute + network + latency) + other + (parts + t_tasks) / rate
    terms |= {"solve compute": it * compute + other, "solve network": it * network,
              "solve latency": it * latency}  # fmt: skip
    # Perfect play in tiers.
    rounds = assume.bands * (1 + assume.cross_depth) if workers > 1 else 0
    p_compute = cost["perfect"] / workers
    p_rounds = rounds * round_seconds * math.log2(workers)
    p_network = (assume.perfect_reads * classes * PERFECT_HALO_BYTES * (1 - 1 / workers)
                 / (cluster.machines * bandwidth)) if cluster.machines > 1 else 0.0  # fmt: skip
    stages["perfect"] = p_compute + p_rounds + p_network + workers / rate
    terms |= {"perfect compute": p_compute, "perfect rounds": p_rounds, "perfect network": p_network}
    order = [s for s in STAGE_UNITS if s in stages]
    return {
        "machines": cluster.machines,
        "cores": cluster.cores,
        "gbps": cluster.gbps,
        "iterations": it,
        "stages": {s: stages[s] for s in order},
        "total": sum(stages.values()),
        "terms": terms,
        "dominant": max(terms, key=lambda t: terms[t]),
        "solve": {"parts": parts, "compute": compute, "network": network, "latency": latency,
                  "halo_over_classes": frac, "largest_halo_over_own": largest, "extrapolated": extrapolated,
                  "part_bytes": classes / parts * (SOLVE_PART_BYTES + SOLVE_HALO_BYTES * largest)},
        "perfect": {"rounds": rounds, "round_seconds": round_seconds},
    }  # fmt: skip

def measured_from(path: str) -> Measured:
    """The inputs of the model from ``bench/scaling.py --pin --out FILE`` results: the largest board that
    was built on one worker and on two (the two-worker run gives the solve's overhead of two parts),
    pinned runs first."""
    try:
        runs = json.loads(Path(path).read_text())["runs"]
    except (OSError, ValueError, KeyError, TypeError) as e:
        raise SystemExit(f"--measured {path}: not the --out file of bench/scaling.py ({e})") from None
    boards = {r["board"] for r in runs if r["workers"] == 1} & {r["board"] for r in runs if r["workers"] == 2}
    if not boards:
        raise SystemExit(f"--measured {path}: no board built on both 1 and 2 workers")
    one = max((r for r in runs if r["workers"] == 1 and r["board"] in boards),
              key=lambda r: (r["positions"], bool(r.get("pinned"))))  # fmt: skip
    two = max((r for r in runs if r["workers"] == 2 and r["board"] == one["board"]),
              key=lambda r: bool(r.get("pinned")))  # fmt: skip
    return Measured(
        board=one["board"], positions=one["positions"], classes=one["classes"], iterations=one["iterations"],
        stage_seconds=dict(one["stage_seconds"]),
        tasks={k: int(v or 1) for k, v in one.get("stage_tasks", {}).items()},
        seconds_per_iteration=one["solve"]["seconds_per_iteration"],
        seconds_per_iteration_2=two["solve"]["seconds_per_iteration"],
    )  # fmt: skip


def _secs(x: float) -> str:
    return f"{x:,.0f}" if x >= 100 else f"{x:.1f}" if x >= 1 else f"{x:.2f}"


def model_report(
    measured: Measured, board: Board, machines: list[int], cores: int, gbps: float, iterations: list[int],
    assume: Assumptions,
) -> list[str]:  # fmt: skip
    """The model's predictions for ``board`` as lines of text: the inputs and assumptions, a table of each
    stage's seconds per machine count for every iteration count, and the solve's iteration per machine
    count."""
    # A board's classes: its positions over its symmetries (fixed points are a vanishing share).
    estimate = round(board.positions / len(board.symmetries))
    classes = measured.classes if str(board) == measured.board else estimate
    split = assume.task_positions
    tasks = board_tasks(board, classes, split)
    overhead_2 = measured.seconds_per_iteration_2 - measured.seconds_per_iteration / 2
    halo = ", ".join(f"{p}: {a} ({b})" for p, (a, b) in HALO_5X5.items())
    lines = [
        f"model of {board}: {board.positions:,} positions, {classes:,} classes; tasks "
        + ", ".join(f"{s} {k:,}" for s, k in tasks.items())
        + (f" (cells split into ranges of {split:,} positions)" if split else " (one per bubble cell)"),
        f"measured ({measured.board}, one pinned worker): {measured.positions:,} positions, "
        f"{measured.classes:,} classes, {measured.iterations} iterations; stage seconds "
        + ", ".join(f"{s} {v}" for s, v in measured.stage_seconds.items()),
        f"  solve: {measured.seconds_per_iteration * 1e3:.2f} ms per iteration on one part "
        f"({measured.seconds_per_iteration / measured.classes * 1e9:.2f} core-ns per class), "
        f"{measured.seconds_per_iteration_2 * 1e3:.2f} ms on two: overhead of parts "
        f"{overhead_2 * 1e3:.2f} ms per iteration x log2(parts), "
        f"{overhead_2 / ROUNDS_PER_ITERATION * 1e3:.2f} ms per message round",
        f"  halo by parts (halo/classes (largest/own)), 5x5 by locality key: {halo}",
        f"assumed: {cores} cores per machine scaling perfectly, {gbps:g} Gb/s per machine, the solve "
        f"one part per machine, {assume.tasks_per_second:,.0f} tasks/s through the scheduler (dask's "
        f"scaling study) not overlapped with work, perfect play {assume.bands} bands x "
        f"(1 + {assume.cross_depth:g}) rounds on one part per core, each class's value read by "
        f"{assume.perfect_reads:g} other parts; store bandwidth not modelled",
    ]
    head = ["machines", "cores", *STAGE_UNITS, "total s", "total h", "dominant", "solve GB/machine"]
    for it in iterations:
        a = Assumptions(it, assume.tasks_per_second, assume.bands, assume.cross_depth, assume.perfect_reads,
                        split)  # fmt: skip
        lines += ["", f"{board}, {it} CG iterations: predicted seconds per stage",
                  "| " + " | ".join(head) + " |", "|" + "---:|" * (len(head) - 2) + "---|---:|"]  # fmt: skip
        for n in machines:
            r = predict(measured, board.positions, classes, tasks, Cluster(n, cores, gbps), a)
            cells = [str(n), str(n * cores), *(_secs(v) for v in r["stages"].values()), _secs(r["total"]),
                     f"{r['total'] / 3600:.2f}", r["dominant"],
                     f"{r['solve']['part_bytes'] / 1e9:,.0f}"]  # fmt: skip
            lines.append("| " + " | ".join(cells) + " |")
    lines += ["", f"{board}: one CG iteration (ms)"]
    for n in machines:
        s = predict(measured, board.positions, classes, tasks, Cluster(n, cores, gbps), assume)["solve"]
        lines.append(
            f"{n:>4} machines: compute {s['compute'] * 1e3:,.1f} + network {s['network'] * 1e3:,.1f} (halo "
            f"{s['halo_over_classes']:.3f} x classes, largest {s['largest_halo_over_own']:.2f} x own"
            f"{', extrapolated' if s['extrapolated'] else ''}) + latency {s['latency'] * 1e3:,.1f} = "
            f"{(s['compute'] + s['network'] + s['latency']) * 1e3:,.1f}"
        )
    return lines


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--boards", default="3x5,3x7", help="boards to build (with --model: to predict)")
    p.add_argument("--workers", default="1,2", help="worker counts, comma separated")
    p.add_argument("--memory-limit", help="each worker's --memory-limit (for example 2GiB)")
    p.add_argument("--pin", action="store_true", help="each worker on a core of its own (taskset)")
    p.add_argument("--existing", action="append", default=[], help="a finished store to report (no rebuild)")
    p.add_argument("--scratch", default=str(ROOT / "build"), help="where the fresh stores go (removed after)")
    p.add_argument(
        "--halo", metavar="STORE", help="only report the traffic per CG iteration split over workers"
    )
    p.add_argument("--out", help="write the results as JSON here")
    m = p.add_argument_group("the model of N machines (--model; --boards are the boards to predict)")
    m.add_argument("--model", action="store_true", help="only predict the build's time on N machines")
    m.add_argument("--measured", metavar="FILE", help="--pin results (--out) to scale, not the built-in 5x5")
    m.add_argument("--machines", default="1,2,4,8,16,32,64", help="machine counts, comma separated")
    m.add_argument("--cores-per-machine", type=int, default=32)
    m.add_argument("--network-gbps", type=float, default=25.0, help="each machine's network, Gb/s")
    m.add_argument("--iterations", default="500,1000", help="CG iterations, comma separated")
    m.add_argument("--tasks-per-second", type=float, default=3000.0, help="through dask's scheduler")
    m.add_argument("--bands", type=int, default=32, help="bands of T of perfect play")
    m.add_argument("--cross-depth", type=float, default=7.2, help="perfect play's rounds per band beyond one")
    m.add_argument("--perfect-reads", type=float, default=1.5, help="parts reading each perfect value")
    m.add_argument("--task-positions", type=int, help="split each cell's tasks into ranges of this size")
    args = p.parse_args()
    if args.model:
        measured = measured_from(args.measured) if args.measured else MEASURED_5X5
        iterations = [int(i) for i in args.iterations.split(",")]
        assume = Assumptions(iterations[0], args.tasks_per_second, args.bands, args.cross_depth,
                             args.perfect_reads, args.task_positions)  # fmt: skip
        for b in [b for b in args.boards.split(",") if b]:
            machines = [int(n) for n in args.machines.split(",")]
            print("\n".join(model_report(measured, Board.parse(b), machines, args.cores_per_machine,
                                         args.network_gbps, iterations, assume)))  # fmt: skip
        return 0
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
    for line in [*speedups(rows), *memory_lines(rows)]:
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
