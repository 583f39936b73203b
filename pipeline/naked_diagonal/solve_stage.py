"""The ``solve-<t>`` stages: perfect play by retrograde analysis over the tiers, the last tier first.

Every move adds a stone, so the children of a tier-t position are in tier t + 1, whose values are known
when tier t is solved. A **value** is an int16 for the side to move: ``+d`` a win in d placements with
perfect play, ``-d`` a loss in d, and 0 for a position where the side to move has lost already (the
opponent's last placement won). The winner takes the fastest win, the loser the longest resistance
(:func:`.kernels.better`); a skipped turn is not a placement, and after a skip the same side moves
again, so a child's value counts for or against the mover according to whose turn it is there.

One task per part of the tier: it generates the part's moves (:func:`.kernels.children`), finds each
child's value in the next tier by its key (reading only the rows of the parts holding them, kept per
worker), combines them (:func:`.kernels.combine`) and writes the part's row of ``tiers/<t>/value``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from unitile_py.errors import NakedDiagonalError

from .context import Context, Stage
from .kernels import combine
from .store import Store, padded, solve_name, tier_name
from .tier_parts import Part, part_moves, values_of

#: A combined value meaning "no move and no winner" (never stored: the task fails on it).
NO_MOVE = -32768


def solve_task(task: Part) -> dict[str, Any]:
    """Write the part's row of ``tiers/<t>/value``; return its counts."""
    keys, parent, _, child, skip = part_moves(task)
    store = Store(task.path, task.n)
    size = task.n * task.n
    last = task.tier == size or not len(child)
    child_values = np.zeros(0, dtype=np.int16) if last else values_of(store, task.tier + 1, child)
    info = store.row(f"tiers/{task.tier}/info", task.part)[: len(keys)]
    values = combine(info, parent, child_values, skip)
    if np.any(values == NO_MOVE):
        bad = int(keys[np.flatnonzero(values == NO_MOVE)[0]])
        raise NakedDiagonalError(f"tier {task.tier}: position key {bad} has no move and no winner")
    store.array(f"tiers/{task.tier}/value")[task.part] = padded(values, np.int16(0))
    orbit = store.row(f"tiers/{task.tier}/orbit", task.part)[: len(keys)].astype(np.int64)
    wins = values > 0
    return {
        "wins": int(wins.sum()),
        "losses": int((~wins).sum()),
        "win_images": int(orbit[wins].sum()),
        "loss_images": int(orbit[~wins].sum()),
        "longest": int(np.abs(values).max()) if len(values) else 0,
        "moves": len(child),
        "first": int(values[0]) if len(values) else 0,
        "skips": int(skip.sum()),
    }


@dataclass(frozen=True)
class SolveStage(Stage):
    """The values of tier ``tier`` from those of the next tier."""

    tier: int

    @property
    def name(self) -> str:
        """``solve-<t>``."""
        return solve_name(self.tier)

    def run(self, ctx: Context) -> dict[str, Any]:
        """One task per part."""
        store, t = ctx.store, self.tier
        rec = store.require(tier_name(t))
        if rec["parts"]:
            cap = store.array(f"tiers/{t}/keys").shape[1]
            store.create(f"tiers/{t}/value", (rec["parts"], cap), np.int16, 0)
        tasks = [Part(store.path, ctx.n, t, i) for i in range(rec["parts"])]
        stats = ctx.executor.map(solve_task, tasks, f"solve {t}")
        out: dict[str, Any] = {"tier": t}
        for key in ("wins", "losses", "win_images", "loss_images", "moves", "skips"):
            out[key] = sum(s[key] for s in stats)
        out["longest"] = max((s["longest"] for s in stats), default=0)
        if t == 0:
            out["value"] = stats[0]["first"]  # the empty board, the tier's one position
        return out
