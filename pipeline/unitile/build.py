"""The build as data: :func:`plan` lists its stages in order, configured by :class:`BuildOptions`, and
:func:`run_build` runs those not yet complete.

After a stage's arrays are written its record goes into the store
(:meth:`pipeline.unitile.store.Store.mark_done`); running a stage first clears the records of every later
stage, and a rerun skips stages with a record, so a killed build resumes at the first stage without one. What
a stage is: :mod:`pipeline.unitile.context`.
"""

from __future__ import annotations

import functools
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from unitile_py.unitile.board import Board

from ..usage import load_average, reset_peak, sample
from .bounds import Machine
from .class_stages import ClassesStage, GraphStage, PositionsStage
from .context import Context, Stage
from .perfect_stage import PerfectStage
from .solve_stage import SolveStage
from .store import Store
from .table_stages import TablesStage, TablesVerifyStage
from .verify_stage import VerifyStage


@dataclass(frozen=True)
class BuildOptions:
    """The options of the stages that have any, given when the plan is made."""

    #: Seconds between checkpoints of the solve.
    checkpoint_seconds: float = 15.0
    #: Where the ``tables`` stage writes; None: next to the store
    # (:func:`pipeline.unitile.table_stages.tables_dir`).
    tables: str | None = None


DEFAULTS = BuildOptions()


def plan(options: BuildOptions = DEFAULTS) -> list[Stage]:
    """Every stage of a build, in order: the values, perfect play and the checks of every position (up
    to ``verify``), then the tables."""
    return [
        ClassesStage(),
        GraphStage(),
        SolveStage(checkpoint_seconds=options.checkpoint_seconds),
        PerfectStage(),
        PositionsStage(),
        VerifyStage(),
        TablesStage(directory=options.tables),
        TablesVerifyStage(),
    ]


def value_stages(options: BuildOptions = DEFAULTS) -> list[Stage]:
    """The stages of :func:`plan` that compute and check the values and perfect play: up to and including
    ``verify``."""
    stages = plan(options)
    return stages[: [s.name for s in stages].index(VerifyStage.name) + 1]


def verify_plan(store: Store) -> list[Stage]:
    """The checks ``python -m pipeline verify`` reruns: the pass over every position (comparing the legal
    and best slides with the stored ones), and the tables' when the store has them."""
    return [VerifyStage(check=True), *([TablesVerifyStage()] if store.done(TablesStage.name) else [])]


def run_build(ctx: Context, stages: Sequence[Stage], force: Sequence[str] = ()) -> dict[str, Any]:
    """Run the stages not yet complete (and those named in ``force``); return all stage records.

    Each record gets the stage's wall seconds, its CPU seconds (this process and every worker process),
    the peak resident memory of this process and of the largest worker during the stage, the load
    average before and after, and, for a stage with a ``cost(ctx, record)`` method, its bound and the ratio of
    its time to it (:mod:`pipeline.unitile.bounds`, rates measured once per process and board).
    """
    names = [s.name for s in stages]
    for i, stage in enumerate(stages):
        if ctx.store.done(stage.name) and stage.name not in force:
            record = ctx.store.record(stage.name) or {}
            ctx.log(f"{stage.name}: done already ({record.get('seconds', 0):.1f} s)")
            summary = getattr(stage, "summary", None)
            if summary is not None:
                for line in summary(record):
                    ctx.log(line)
            continue
        ctx.store.clear(names[i:])
        cost = getattr(stage, "cost", None)
        machine = machine_of(ctx.board) if cost is not None else None
        load0 = load_average()
        workers0 = ctx.executor.sample_workers(reset=True)
        cpu0, _ = sample(reset=True)
        t0 = time.perf_counter()
        record = dict(stage.run(ctx))
        seconds = time.perf_counter() - t0
        cpu1, peak = sample()
        workers1 = ctx.executor.sample_workers()
        worker_cpu = sum(v[0] - workers0[k][0] for k, v in workers1.items() if k in workers0)
        record["seconds"] = round(seconds, 3)
        record["usage"] = {
            "cpu_seconds": round(cpu1 - cpu0 + worker_cpu, 3),
            "client_cpu_seconds": round(cpu1 - cpu0, 3),
            "client_peak_gib": round(peak / 2**30, 3),
            "worker_peak_gib": round(max((v[1] for v in workers1.values()), default=0) / 2**30, 3),
            "workers_sampled": len(workers1),
            "load_average": [round(load0, 2), round(load_average(), 2)],
        }
        if cost is not None and machine is not None:
            bound = machine.bound(cost(ctx, record))
            record["bound"] = {**bound, "ratio": seconds / bound["seconds"] if bound["seconds"] else None,
                               "machine": machine.as_record()}  # fmt: skip
        record["finished"] = time.time()
        ctx.store.mark_done(stage.name, record)
        ctx.log(f"{stage.name}: {record['seconds']:.1f} s")
    return ctx.store.stages()


@functools.cache
def machine_of(board: Board) -> Machine:
    """The rates of this machine (:meth:`pipeline.unitile.bounds.Machine.measure`), measured once per
    process."""
    machine = Machine.measure(board)
    reset_peak()  # the copy's buffers are not the next stage's
    return machine
