"""The build as data: :func:`plan` lists its stages in order, configured by :class:`BuildOptions`, and
:func:`run_build` runs those not yet complete (:func:`pipeline.stages.run_stages`, which says what a stage
is and how a killed build resumes).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from unitile_py.unitile.board import Board

from ..stages import run_stages
from ..usage import reset_peak
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
    # (:func:`pipeline.unitile.table_stages.default_tables_folder`).
    tables: str | None = None
    #: The files an earlier ``tables`` stage wrote there (:attr:`TablesStage.written`).
    tables_written: tuple[str, ...] = ()


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
        TablesStage(directory=options.tables, written=options.tables_written),
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
    """Run the stages not yet complete (and those named in ``force``); return all stage records
    (:func:`pipeline.stages.run_stages`: each record gets its time and usage). Each stage's record gets
    its bound, from its :meth:`~pipeline.unitile.context.Stage.cost`, and the ratio of its time to it
    (:mod:`pipeline.unitile.bounds`, rates measured once per process and board).
    """
    return run_stages(ctx, stages, force=force, bounds=_bound)


def _bound(stage: Stage, ctx: Context) -> Callable[[dict[str, Any], float], dict[str, Any]]:
    machine = machine_of(ctx.board)

    def bound(record: dict[str, Any], seconds: float) -> dict[str, Any]:
        b = machine.bound(stage.cost(ctx, record))
        ratio = seconds / b["seconds"] if b["seconds"] else None
        return {**b, "ratio": ratio, "machine": machine.as_record()}

    return bound


@functools.cache
def machine_of(board: Board) -> Machine:
    """The rates of this machine (:meth:`pipeline.unitile.bounds.Machine.measure`), measured once per
    process."""
    machine = Machine.measure(board)
    reset_peak()  # the copy's buffers are not the next stage's
    return machine
