"""The solve as data: :func:`plan` lists its stages, :func:`run_plan` runs those not yet complete.

What a stage is, and how a killed build resumes: :mod:`pipeline.stages`.

The stages, for an n x n board with P = n * n points:

1. ``tier-00`` .. ``tier-P``: the reachable positions with t stones (:mod:`.tiers`);
2. ``solve-P`` .. ``solve-00``: perfect play by retrograde analysis, last tier first (:mod:`.solve`);
3. ``verify``: every check of :mod:`.verify`;
4. ``tables``, ``tables-verify``: the compact files and their check with the game's reader (:mod:`.tables`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pipeline.stages import run_stages

from .context import NDContext, NDOptions, NDStage
from .solve import SolveStage
from .tables import TablesStage, TablesVerifyStage
from .tiers import TierStage
from .verify import VerifyStage


def plan(n: int, options: NDOptions | None = None) -> list[NDStage]:
    """Every stage of an n x n solve, in order (only tiers up to ``options.max_tier`` when it is set)."""
    o = options or NDOptions()
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


def run_plan(ctx: NDContext, stages: Sequence[NDStage], force: Sequence[str] = ()) -> dict[str, Any]:
    """Run the stages not yet complete (and those named in ``force``); return all stage records
    (:func:`pipeline.stages.run_stages`: each record gets its time and usage)."""
    return run_stages(ctx, stages, force=force, describe=_summary)


def _summary(record: dict[str, Any]) -> str:
    keys = ("positions", "images", "value", "checked", "bytes")
    shown = [f"{k} {record[k]:,}" if isinstance(record[k], int) else f"{k} {record[k]}"
             for k in keys if k in record]
    return f" ({', '.join(shown)})" if shown else ""
