"""The build as data: :func:`plan` lists its stages in order, configured by :class:`BuildOptions`, and
:func:`run_build` runs those not yet complete.

After a stage's arrays are written its record goes into the store (:meth:`pipeline.store.Store.mark_done`);
running a stage first clears the records of every later stage, and a rerun skips stages with a record,
so a killed build resumes at the first stage without one. What a stage is: :mod:`pipeline.context`.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .class_stages import ClassesStage, GraphStage, PositionsStage
from .context import Context, Stage
from .solve_stage import SolveStage
from .store import Store
from .table_stages import LegalStage, PerfectStage, TablesStage, TablesVerifyStage
from .verify_stage import VerifyStage


@dataclass(frozen=True)
class BuildOptions:
    """The options of the stages that have any, given when the plan is made."""

    #: Seconds between checkpoints of the solve.
    checkpoint_seconds: float = 15.0
    #: Where the ``tables`` stage writes; None: next to the store (:func:`pipeline.table_stages.tables_dir`).
    tables: str | None = None


DEFAULTS = BuildOptions()


def plan(options: BuildOptions = DEFAULTS) -> list[Stage]:
    """Every stage of a build, in order: the values (up to ``verify``), then the tables."""
    return [
        ClassesStage(),
        GraphStage(),
        SolveStage(checkpoint_seconds=options.checkpoint_seconds),
        PositionsStage(),
        VerifyStage(),
        LegalStage(),
        PerfectStage(),
        TablesStage(directory=options.tables),
        TablesVerifyStage(),
    ]


def value_stages(options: BuildOptions = DEFAULTS) -> list[Stage]:
    """The stages of :func:`plan` that compute and check the values: up to and including ``verify``."""
    stages = plan(options)
    return stages[: [s.name for s in stages].index(VerifyStage.name) + 1]


def verify_plan(store: Store) -> list[Stage]:
    """The checks ``python -m pipeline verify`` reruns: the values', and the tables' when the store has
    them."""
    return [VerifyStage(), *([TablesVerifyStage()] if store.done(TablesStage.name) else [])]


def run_build(ctx: Context, stages: Sequence[Stage], force: Sequence[str] = ()) -> dict[str, Any]:
    """Run the stages not yet complete (and those named in ``force``); return all stage records."""
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
