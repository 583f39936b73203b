"""The ``solve`` stage: parts of the class graph on the workers running CG themselves, r and T stored.

Each worker holds one part (:class:`pipeline.unitile.partition.StoredPartition`: its rows of the graph in the
solve order of :mod:`pipeline.unitile.solve_order`, its slices of the vectors and its halo). On workers
every part runs the CG loop itself (:func:`drive_parts`) and this process polls the progress; parts held
in this process are driven from here, holding only scalars (:func:`pipeline.unitile.cg.run_cg`). The
parts write their rows of the solution, each into an array of its own (``solve/r_<part>``); then one task
per chunk of class ids writes ``values/r`` and ``values/T_class``.

The parts write checkpoints (:mod:`pipeline.unitile.checkpoint`); a lost worker (or a killed client)
costs a restart from the last one, and since the parts own whole reduction chunks, the continuation is
the same bit for bit whatever the number of workers.
"""

from __future__ import annotations

import math
import os
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np
import zarr

from unitile_py.unitile.board import Board

from ..cores import allowed_cores
from ..executor import progress
from ..groups import Group
from ..stages import retry_lost_workers
from ..usage import peak_rss
from .bounds import Cost
from .cg import PeerSteps, connect, run_cg, run_loop
from .checkpoint import T_CHUNK, checkpoint_meta, checkpoint_state, new_slot, point_at, save_checkpoint
from .context import Context, Stage
from .partition import Partition, PartPlan, SolutionParts, StoredPartition, plan_parts, write_class_values
from .solve_order import SolveOrder
from .solver import UNIT, SolveResult, SolverState
from .store import Store, solve_order


@contextmanager
def timed(phases: dict[str, float], name: str) -> Iterator[None]:
    """Add the wall seconds of the block to ``phases[name]``."""
    start = time.perf_counter()
    try:
        yield
    finally:
        phases[name] = phases.get(name, 0.0) + time.perf_counter() - start


@dataclass(frozen=True)
class TTask:
    """r and T = r + r[colour swap] for the classes ``[lo, hi)``."""

    path: str
    lo: int
    hi: int
    plans: tuple[PartPlan, ...]


def t_task(task: TTask, order: SolveOrder) -> tuple[float, float]:
    """Write ``values/r[lo:hi]`` and ``values/T_class[lo:hi]`` from the parts' solution arrays
    (:func:`pipeline.unitile.partition.write_class_values`); return T's ``(min, max)``. Reads only the
    chunks of the parts' arrays that hold the classes and their colour-swap partners. ``order`` is
    shared by the tasks (:meth:`pipeline.executor.Executor.map_shared`), not carried by each of them
    (docs/cluster.md gives its size)."""
    solution = SolutionParts(task.path, task.plans)
    _, low, high = write_class_values(task.path, order, task.lo, task.hi, solution.at)
    return low, high


def solve_on_parts(
    ctx: Context, order: SolveOrder, graph: str, tol: float, checkpoint_seconds: float,
    phases: dict[str, float],
) -> tuple[
    SolveResult, float, tuple[float, float] | None, list[float], list[tuple[int, int]], bool, str,
    tuple[PartPlan, ...],
]:  # fmt: skip
    """One attempt: start the parts (from the checkpoint if any), run CG, write r (and T, when one part
    holds every class). Returns the numbers (with T's minimum and maximum, if written, each part's
    numba threads and allowed cores, whether it resumed, what drove the loop, and the parts' plans) and
    adds the seconds of each phase to ``phases``. The parts are let go at the end (:meth:`Group.close`),
    so that their workers have the memory back for the next task."""
    store = ctx.store
    with timed(phases, "starting_parts"):
        # On one machine (a LocalCluster) a single part using every core beats moving halos between
        # processes; on a cluster of several machines, one part per worker bounds each one's memory.
        local = getattr(ctx.executor, "cluster", None) is not None
        parts = 1 if local else ctx.executor.workers
        plans = plan_parts(order.split, order.n, parts)
        # A LocalCluster's worker holding the only part may use every core this machine gives the build
        # (its workers inherit this process's affinity); elsewhere each part's worker decides.
        threads = allowed_cores() if local else ctx.task_threads
        group = ctx.executor.group(StoredPartition, [(store.path, p, plans, threads, order) for p in plans])
    try:
        return _solve_with(ctx, group, order, graph, tol, checkpoint_seconds, phases, plans)
    finally:
        group.close()


def _solve_with(
    ctx: Context, group: Group, order: SolveOrder, graph: str, tol: float, checkpoint_seconds: float,
    phases: dict[str, float], plans: list[PartPlan],
) -> tuple[
    SolveResult, float, tuple[float, float] | None, list[float], list[tuple[int, int]], bool, str,
    tuple[PartPlan, ...],
]:  # fmt: skip
    """:func:`solve_on_parts` once its parts are started."""
    store = ctx.store
    split, n = order.split, order.n
    with timed(phases, "starting_parts"):
        used = [(int(t), int(c)) for t, c in group.call("use_threads")]
        connect(group)
        meta = checkpoint_meta(store, graph, split)
        if meta is not None:
            ctx.log(f"solve: resuming at iteration {meta['iteration']}")
            group.call("load", [(store.path, meta["slot"])] * group.size)
            state = checkpoint_state(meta)
        else:
            state = SolverState.start(0)
    digits = -math.log10(tol)
    bar_steps = round(digits * 10)
    with timed(phases, "cg"), progress(bar_steps, "solve", ctx.show_progress, unit="0.1 digit") as bar:

        def show(iteration: int, smax: float) -> None:
            done = min(digits, max(0.0, -math.log10(smax))) if smax > 0 else digits
            step = round(done * 10) - bar.n
            if step > 0:
                bar.set_postfix_str(f"iteration {iteration}, residual {smax:.1e}", refresh=False)
                bar.update(step)

        driver = "parts" if group.remote and group.apart() else "client"
        if driver == "parts":
            # Every part runs the loop in its own process, exchanging halo values and partial sums with
            # the others; no round trip per step to here (measured: docs/cluster.md, "The solve run by
            # its parts").
            drive = Drive(store.path, str(ctx.board), graph, split, tol, checkpoint_seconds, state)
            runs = group.call("run", [(drive_parts, drive)] * group.size, on_wait=_poller(group, show))
            result, written = runs[0]
            if written:
                phases["checkpoints"] = phases.get("checkpoints", 0.0) + written
        else:
            # Parts in this process (or two on one worker after a lost one): rounds of calls from here.

            def checkpoint(st: SolverState) -> None:
                with timed(phases, "checkpoints"):
                    save_checkpoint(store, group, st, graph, split)

            result = run_cg(
                group,
                state,
                tol=tol,
                on_iteration=lambda st, smax: show(st.iteration, smax),
                checkpoint=checkpoint,
                checkpoint_seconds=checkpoint_seconds,
            )
    t_range: tuple[float, float] | None = None
    if group.size == 1:
        # One part holds every class: it writes r and T by class id itself.
        with timed(phases, "writing_r_and_T"):
            for name in ("values/r", "values/T_class"):
                store.create(name, (n,), None, np.float64, chunks=(min(n, T_CHUNK),), compress=False)
            [(r_max, t_min, t_max)] = group.call("write_values", [(store.path, order)])
            t_range = (t_min, t_max)
    else:
        # Several parts write r in solve positions; the tasks that form T by class id run after the
        # parts are gone (:func:`run_solve`), so that the workers have their memory back.
        with timed(phases, "writing_r"):
            # An array per part, in wide chunks: the tasks forming T read few of them (one array in
            # solve positions had to be cut in chunks of BLOCK positions, never shared by two parts,
            # and cost a read per small chunk).
            for plan in plans:
                size = plan.own_o + plan.own_e
                store.create(f"solve/r_{plan.index}", (size,), None, np.float64,
                             chunks=(max(1, min(size, T_CHUNK)),), compress=False)  # fmt: skip
            r_max = max(group.call("write_r", [(store.path,)] * group.size))
    peaks = group.call("peak_memory")
    return result, r_max, t_range, peaks, used, meta is not None, driver, tuple(plans)


def form_t(ctx: Context, order: SolveOrder, plans: tuple[PartPlan, ...]) -> tuple[float, float]:
    """``values/r`` and ``values/T_class`` by class id from the parts' ``solve/r``, one task per chunk
    (:func:`t_task`); returns T's ``(min, max)``."""
    store, n = ctx.store, order.n
    for name in ("values/r", "values/T_class"):
        store.create(name, (n,), None, np.float64, chunks=(min(n, T_CHUNK),), compress=False)
    tasks = [TTask(store.path, lo, min(lo + T_CHUNK, n), plans) for lo in range(0, n, T_CHUNK)]
    extremes = ctx.executor.map_shared(t_task, tasks, order, "T")
    return min(lo for lo, _ in extremes), max(hi for _, hi in extremes)


@dataclass(frozen=True)
class Drive:
    """What every part of a solve needs to run the whole CG loop in its own process."""

    path: str
    board: str
    graph: str
    split: int
    tol: float
    checkpoint_seconds: float
    #: The state to continue from, without its vectors (the parts hold them; ``rz < 0``: from x = 0).
    state: SolverState


#: Seconds a part waits for the others at a checkpoint (each writes its share of the vectors).
CHECKPOINT_TIMEOUT = 600.0


def drive_parts(part: Partition, drive: Drive) -> tuple[SolveResult, float]:
    """:func:`pipeline.unitile.cg.run_loop` on ``part`` and the others, in the part's process (through
    :meth:`Partition.run`, on every part at once: :class:`pipeline.unitile.cg.PeerSteps`), reporting
    each iteration in :attr:`Partition.status`. At a checkpoint part 0 creates the slot's arrays, every
    part writes its rows, and part 0 then points the attributes at the slot (the two-slot scheme of
    :func:`save_checkpoint`). Returns the result and the seconds spent writing checkpoints."""
    store = Store(drive.path, Board.parse(drive.board))
    spent: dict[str, float] = {}
    leader = part.plan.index == 0

    def on_iteration(st: SolverState, smax: float) -> None:
        part.status = (st.iteration, smax)

    def checkpoint(st: SolverState) -> None:
        with timed(spent, "checkpoints"):
            created = new_slot(store, len(part.plans), drive.split) if leader else None
            slot = part.reduce(created, CHECKPOINT_TIMEOUT)[0]
            part.save(drive.path, slot)
            part.reduce(None, CHECKPOINT_TIMEOUT)
            if leader:
                point_at(store, slot, st, drive.graph, drive.split)

    steps = PeerSteps(part, checkpoint, drive.checkpoint_seconds)
    result = run_loop(steps, drive.state, tol=drive.tol, on_iteration=on_iteration)
    return result, spent.get("checkpoints", 0.0)


#: Seconds between two looks at the progress of a solve that runs beside its part.
PROGRESS_SECONDS = 0.5


def _poller(group: Group, show: Callable[[int, float], None]) -> Callable[[], None]:
    """An ``on_wait`` for the call that runs :func:`drive_parts`: every :data:`PROGRESS_SECONDS`, asks
    the part for its :meth:`Partition.progress` and shows it."""
    last = [time.perf_counter()]

    def poll() -> None:
        if time.perf_counter() - last[0] < PROGRESS_SECONDS:
            return
        last[0] = time.perf_counter()
        try:
            iteration, smax = group.handles[0].progress().result(timeout=PROGRESS_SECONDS)
        except Exception:  # a busy or lost worker: no news now (the run call reports a loss)
            return
        show(int(iteration), float(smax))

    return poll


def run_solve(ctx: Context, tol: float, checkpoint_seconds: float) -> dict[str, Any]:
    """Solve for r on classes and store ``values/r`` and ``values/T_class``; return the record.

    The parts live on the workers (one per worker; in this process with the in-process executor). A
    worker lost during the solve costs a fresh start of the parts from the last checkpoint.
    """
    store = ctx.store
    graph = str(store.require("graph")["finished"])
    phases: dict[str, float] = {}
    with timed(phases, "starting_parts"):
        order = solve_order(store)
    outcome = retry_lost_workers(
        ctx, "solve", "starting again from the checkpoint",
        lambda: solve_on_parts(ctx, order, graph, tol, checkpoint_seconds, phases),
    )  # fmt: skip
    result, r_max, t_range, peaks, used, resumed, driver, plans = outcome
    if t_range is None:
        with timed(phases, "forming_T"):
            t_range = form_t(ctx, order, plans)
    t_min, t_max = t_range
    # The checkpoints (and the parts' solve/r) are of no use once r and T are stored.
    solve_group = zarr.open_group(store.path, path="solve", mode="a")
    for key in list(solve_group.array_keys()):
        del solve_group[key]
    solve_group.attrs["checkpoint"] = {}
    rel_t = result.rel_bound * (1.0 + UNIT) + UNIT
    bound = rel_t * t_max * (1.0 + 4.0 * UNIT)
    return {
        "iterations": result.iterations,
        "restarts": result.restarts,
        "residual": result.residual,
        "sigma": result.sigma,
        "relative_bound_r": result.rel_bound,
        "relative_bound_T": rel_t,
        "bound_T": bound,
        "r_max": r_max,
        "T_max": t_max,
        "T_min": t_min,
        "solve_seconds": result.seconds,
        "solve_cpu_seconds": result.cpu_seconds,
        "peak_rss_gib": peak_rss() / 2**30,
        "part_peak_rss_gib": peaks,
        "parts": len(used),
        "load_average": os.getloadavg()[0],
        "seconds_per_iteration": result.seconds_per_iteration,
        # Who ran the CG loop: the parts themselves ("parts"), or this process's rounds of calls.
        "driver": driver,
        "resumed": resumed,
        # Wall seconds of each phase (the CG loop's include its checkpoints and restarts).
        "phase_seconds": {k: round(v, 3) for k, v in phases.items()},
        "solved_classes": order.split,
        # Per part, where it ran: the numba threads it used and the cores its process was allowed.
        "threads": [t for t, _ in used],
        "cores": [c for _, c in used],
    }


@dataclass(frozen=True)
class SolveStage(Stage):
    """r on every class by preconditioned CG, with checkpoints (:func:`run_solve`).

    The graph and the vectors live in parts on the workers (one part using every core on a
    LocalCluster or in process; one part per worker on a cluster); on workers the parts run the
    iteration themselves, in process this process drives it.
    """

    name: ClassVar[str] = "solve"
    #: Target for the rigorous max-norm residual bound. The floor in float64 is about
    #: 4 * unit roundoff * max r (docs/pipeline.md, "Error bound", gives it for 5x5).
    tol: float = 1e-12
    checkpoint_seconds: float = 15.0

    def run(self, ctx: Context) -> dict[str, Any]:
        """Solve (resuming from a checkpoint of the same graph), then store r and T per class."""
        return run_solve(ctx, self.tol, self.checkpoint_seconds)

    def cost(self, ctx: Context, record: dict[str, Any]) -> Cost:
        """The bytes every CG iteration must move (:func:`iteration_bytes`) times the iterations, and the
        graph read, r and T written once."""
        n = int(record["solved_classes"])
        total = int(ctx.store.require("classes")["classes"])
        per = sum(iteration_bytes(n, total - n).values())
        return Cost(bytes=record["iterations"] * per + total * (16 + 1 + 4 + 8 + 8),
                    what=f"{record['iterations']} iterations of {per / 1e6:.0f} MB")  # fmt: skip


def iteration_bytes(n_o: int, n_e: int) -> dict[str, int]:
    """Bytes each kernel of one CG iteration must move: every array it touches read or written once, the
    gathered neighbour values counted once (as if served from cache); ``n_o`` solved classes, ``n_e``
    eliminated."""
    return {
        "to_even": n_e * (16 + 1 + 8) + n_o * 8,
        "to_odd_dot": n_o * (16 + 1 + 8 + 8) + n_e * 8,
        "update_xs": n_o * (1 + 16 + 16 + 8 + 8),
        "update_p": n_o * (8 + 16),
    }
