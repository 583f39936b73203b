"""The build as data: :func:`plan` lists its stages in order, configured by :class:`BuildOptions`, and
:func:`run_build` runs those not yet complete.

What a stage is, and how a killed build resumes: :mod:`pipeline.stages`.

The stages, for an n x n board with P = n * n points:

1. ``tier-00`` .. ``tier-P``: the reachable positions with t stones (:mod:`.tier_stage`);
2. ``solve-P`` .. ``solve-00``: perfect play by retrograde analysis, last tier first (:mod:`.solve_stage`);
3. ``verify``: every check of :mod:`.verify_stage`;
4. ``tables``, ``tables-verify``: the compact files and their check with the game's reader
   (:mod:`.table_stages`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from pipeline.stages import run_stages

from .context import Context, Stage
from .solve_stage import SolveStage
from .table_stages import TablesStage, TablesVerifyStage
from .tier_stage import TierStage
from .verify_stage import VerifyStage


@dataclass(frozen=True)
class BuildOptions:
    """The options of the stages that have any, given when the plan is made."""

    #: Positions per part of a tier (one task and one shard each).
    part_size: int = 1 << 15
    #: Where the ``tables`` stage writes (None: ``tables/naked-diagonal/<n>x<n>`` of the repository).
    tables: str | None = None
    #: Positions per part whose legality ``verify`` compares with the game's engine.
    legality_sample: int = 24
    #: Build only the tiers up to this many stones (no solve): to measure a board too large to solve.
    max_tier: int | None = None


DEFAULTS = BuildOptions()


def plan(n: int, options: BuildOptions = DEFAULTS) -> list[Stage]:
    """Every stage of an n x n solve, in order (only tiers up to ``options.max_tier`` when it is set)."""
    o = options
    points = n * n
    if o.max_tier is not None:
        return [TierStage(t, o.part_size) for t in range(min(points, o.max_tier) + 1)]
    return [
        *(TierStage(t, o.part_size) for t in range(points + 1)),
        *(SolveStage(t) for t in range(points, -1, -1)),
        VerifyStage(o.legality_sample),
        TablesStage(o.tables),
        TablesVerifyStage(),
    ]


def run_build(ctx: Context, stages: Sequence[Stage], force: Sequence[str] = ()) -> dict[str, Any]:
    """Run the stages not yet complete (and those named in ``force``); return all stage records
    (:func:`pipeline.stages.run_stages`: each record gets its time and usage)."""
    return run_stages(ctx, stages, force=force, describe=_summary)


def _summary(record: dict[str, Any]) -> str:
    keys = ("positions", "images", "value", "checked", "bytes")
    shown = [f"{k} {record[k]:,}" if isinstance(record[k], int) else f"{k} {record[k]}"
             for k in keys if k in record]
    return f" ({', '.join(shown)})" if shown else ""
