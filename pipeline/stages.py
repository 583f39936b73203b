"""The build described as data: a list of stages, each a frozen dataclass with a ``run`` method.

A stage reads what earlier stages stored, runs independent tasks through ``ctx.executor`` (or, for the
solve, numba threads in this process), writes its arrays to the store and returns a record (a JSON
dict) that :func:`run_build` stores once the stage is complete. Reruns skip completed stages; running a
stage first clears the records of every later stage.

Adding stages (issue 4 and later): define frozen dataclasses with a class attribute ``name`` and a
method ``run(self, ctx: Context) -> dict``, and list them in a module-level tuple ``STAGES`` of a
module named in :data:`EXTENSIONS` (``pipeline/table_stages.py`` is already listed). They run after
the value stages, in the order given. An optional method ``summary(self, record) -> list[str]``
gives lines to print when a rerun skips the completed stage. Read values with
:func:`pipeline.values.load_T` and :func:`pipeline.values.load_bound`; use ``ctx.store.create`` /
``ctx.store.array`` for arrays (shards aligned to tasks) and ``ctx.executor.map(task_fn, items, desc)``
for parallel work, where ``task_fn`` is a top-level function of one picklable argument.
"""

from __future__ import annotations

import importlib
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, ClassVar, Protocol

from unitile_py.board import Board

from .executor import Executor
from .store import Store

#: Modules whose ``STAGES`` tuple is appended to the value stages, in this order (missing ones skipped).
EXTENSIONS: tuple[str, ...] = ("pipeline.table_stages",)


@dataclass(frozen=True)
class Context:
    """What a running stage may use."""

    board: Board
    store: Store
    executor: Executor
    show_progress: bool = False
    log: Callable[[str], None] = field(default=lambda msg: print(msg, file=sys.stderr))
    #: Where the ``tables`` stage writes (``--tables DIR``); None: see pipeline.table_stages.tables_dir.
    tables: str | None = None

    @property
    def task_threads(self) -> int:
        """Numba threads for each task, so that all workers together use the machine's cores."""
        import os

        return max(1, (os.cpu_count() or 1) // max(1, self.executor.workers))


class Stage(Protocol):
    """One step of the build."""

    name: ClassVar[str]

    def run(self, ctx: Context) -> dict[str, Any]:
        """Do the work, write arrays to ``ctx.store``, return the record to store."""
        ...


def value_stages() -> list[Stage]:
    """The stages of this part of the pipeline: classes, graph, solve, positions, verify."""
    from .value_stages import ClassesStage, GraphStage, PositionsStage, SolveStage, VerifyStage

    return [ClassesStage(), GraphStage(), SolveStage(), PositionsStage(), VerifyStage()]


def extension_stages() -> list[Stage]:
    """The stages of the modules in :data:`EXTENSIONS` that exist."""
    out: list[Stage] = []
    for module in EXTENSIONS:
        try:
            mod = importlib.import_module(module)
        except ModuleNotFoundError as exc:
            if exc.name == module:
                continue
            raise
        out.extend(getattr(mod, "STAGES", ()))
    return out


def plan() -> list[Stage]:
    """Every stage of a build, in order."""
    return value_stages() + extension_stages()


def run_build(ctx: Context, stages: list[Stage] | None = None, force: tuple[str, ...] = ()) -> dict[str, Any]:
    """Run the stages not yet complete (and those named in ``force``); return all stage records."""
    stages = plan() if stages is None else stages
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
        t0 = time.perf_counter()
        record = dict(stage.run(ctx))
        record["seconds"] = round(time.perf_counter() - t0, 3)
        record["finished"] = time.time()
        ctx.store.mark_done(stage.name, record)
        ctx.log(f"{stage.name}: {record['seconds']:.1f} s")
    return ctx.store.stages()
