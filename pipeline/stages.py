"""The stage framework of both games: what a stage is (:class:`Stage`), what it may use while it runs
(:class:`StageContext`), and :func:`run_stages`, which runs a plan's stages not yet complete.

A stage is a frozen dataclass with a ``name`` and a method ``run(ctx) -> dict``: it reads what earlier
stages stored, runs independent tasks through ``ctx.executor.map(task_fn, items, desc)`` (``task_fn`` a
top-level function of one picklable argument; ``ctx.executor.map_shared`` when every task reads one
large object, which then goes to each worker once), writes its arrays into ``ctx.store`` and returns its
record, a JSON dict that :func:`run_stages` stores once the stage is complete. Its options are fields,
set when the game's plan is made (:func:`pipeline.unitile.build.plan`,
:func:`pipeline.naked_diagonal.build.plan`). Its method ``summary(record) -> list[str]`` gives the lines
to print when a rerun skips the completed stage (none by default, :meth:`Stage.summary`).

After a stage's arrays are written its record goes into the store
(:meth:`pipeline.store.StageStore.mark_done`); running a stage first clears the records of every later
stage, and a rerun skips stages with a record, so a killed build resumes at the first stage without one.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, Protocol, TypeVar

from .executor import Executor
from .store import StageStore, is_number
from .usage import load_average, sample


def to_stderr(msg: str) -> None:
    """The default log of a context: one line to standard error."""
    print(msg, file=sys.stderr)


BoardT = TypeVar("BoardT")
StoreT = TypeVar("StoreT", bound=StageStore)
R = TypeVar("R")


@dataclass(frozen=True)
class StageContext(Generic[BoardT, StoreT]):
    """What a running stage may use: the board (as the game describes it), the store, the executor and
    where to log."""

    board: BoardT
    store: StoreT
    executor: Executor
    show_progress: bool = False
    log: Callable[[str], None] = field(default=to_stderr)

    @property
    def task_threads(self) -> int | None:
        """The numba threads a task asks for (the executor's ``threads``); the worker running it decides
        (:func:`pipeline.cores.use_threads`), None leaving it all to the worker."""
        return self.executor.threads


ContextT = TypeVar("ContextT", bound=StageContext[Any, Any], contravariant=True)


class Stage(Protocol[ContextT]):
    """One step of a game's plan (see the module docstring). A game's stages subclass it (through the
    game's own ``Stage``), so that the members with a default have it."""

    @property
    def name(self) -> str:
        """The stage's name in the store's records."""
        ...

    def run(self, ctx: ContextT) -> dict[str, Any]:
        """Do the work, write arrays to ``ctx.store``, return the record to store."""
        ...

    def summary(self, record: dict[str, Any]) -> list[str]:
        """The lines to print when a rerun skips the completed stage, from its ``record``: none unless the
        stage says otherwise."""
        return []


#: For a stage about to run, a function of its record and wall seconds that gives the record's ``bound``
#: (or None: the stage has no bound).
Bounds = Callable[[Any, Any], Callable[[dict[str, Any], float], dict[str, Any]] | None]


def run_stages(
    ctx: StageContext[Any, Any],
    stages: Sequence[Stage[Any]],
    force: Sequence[str] = (),
    bounds: Bounds | None = None,
    describe: Callable[[dict[str, Any]], str] = lambda record: "",
) -> dict[str, Any]:
    """Run the stages not yet complete (and those named in ``force``); return all stage records.

    Each record gets the stage's wall seconds, the tasks it ran (``tasks``: items mapped and objects of
    groups; a stage that works in this process alone ran none), its CPU seconds (this process and every
    worker process), the peak resident memory of this process and of the largest worker during the
    stage, the largest worker's resident memory as the stage began (after the memory freed before it
    went back to the system: the part of the stage's peak that is the worker's own baseline), the load
    average before and after, and the ``bound`` that ``bounds(stage, ctx)`` gives, if any. A completed
    stage's line in the log ends with ``describe(record)``.
    """
    names = [s.name for s in stages]
    for i, stage in enumerate(stages):
        if stage.name not in force and ctx.store.done(stage.name):
            record = ctx.store.record(stage.name) or {}
            seconds = record.get("seconds")
            ctx.log(f"{stage.name}: done already ({f'{seconds:.1f}' if is_number(seconds) else '-'} s)")
            try:
                lines = stage.summary(record)
            except (KeyError, TypeError, ValueError, IndexError, AttributeError):
                raise ctx.store.damaged_record(stage.name, "cannot be read") from None
            for line in lines:
                ctx.log(line)
            continue
        ctx.store.clear(names[i:])
        bound = bounds(stage, ctx) if bounds is not None else None
        load0 = load_average()
        workers0 = ctx.executor.sample_workers(reset=True)
        cpu0, _, _ = sample(reset=True)
        tasks0 = ctx.executor.tasks
        t0 = time.perf_counter()
        record = dict(stage.run(ctx))
        seconds = time.perf_counter() - t0
        cpu1, peak, _ = sample()
        workers1 = ctx.executor.sample_workers()
        worker_cpu = sum(v[0] - workers0[k][0] for k, v in workers1.items() if k in workers0)
        record["seconds"] = round(seconds, 3)
        record["tasks"] = ctx.executor.tasks - tasks0
        record["usage"] = {
            "cpu_seconds": round(cpu1 - cpu0 + worker_cpu, 3),
            "client_cpu_seconds": round(cpu1 - cpu0, 3),
            "client_peak_gib": round(peak / 2**30, 3),
            "worker_peak_gib": round(max((v[1] for v in workers1.values()), default=0) / 2**30, 3),
            "worker_start_gib": round(max((v[2] for v in workers0.values()), default=0) / 2**30, 3),
            "workers_sampled": len(workers1),
            "load_average": [round(load0, 2), round(load_average(), 2)],
        }
        if bound is not None:
            record["bound"] = bound(record, seconds)
        record["finished"] = time.time()
        ctx.store.mark_done(stage.name, record)
        ctx.log(f"{stage.name}: {record['seconds']:.1f} s{describe(record)}")
    return ctx.store.stages()


#: Fresh starts of a stage's work after a lost worker before the stage fails.
RETRIES = 3


def retry_lost_workers(ctx: StageContext[Any, Any], stage: str, again: str, attempt: Callable[[], R]) -> R:
    """``attempt()``, again up to :data:`RETRIES` times while what failed it was a lost worker (the
    parts it held are gone: the stage starts them again on the workers that remain, ``again`` says
    how); any other failure is raised at once."""
    for tries in range(RETRIES + 1):
        try:
            return attempt()
        except Exception as exc:
            if tries == RETRIES or not ctx.executor.lost_workers():
                raise
            ctx.log(f"{stage}: a worker was lost ({type(exc).__name__}); {again}")
    raise AssertionError("unreachable")
