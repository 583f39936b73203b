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
from functools import lru_cache
from typing import Any

import numpy as np

from unitile_py.errors import NakedDiagonalError
from unitile_py.naked_diagonal.grid import Grid

from .context import NDContext
from .geometry import NDGeometry
from .kernels import better, can_place, canonical, combine, legal_points, memo_for, winner_bits
from .store import NO_KEY, NDStore
from .tiers import Part, padded, part_moves, tier_name

#: A combined value meaning "no move and no winner" (never stored: the task fails on it).
NO_MOVE = -32768


def solve_name(t: int) -> str:
    """``solve-07``."""
    return f"solve-{t:02d}"


def outcome(value: int) -> tuple[str, int]:
    """``("win" | "loss", placements)`` of a value.

    >>> outcome(3), outcome(-4), outcome(0)
    (('win', 3), ('loss', 4), ('loss', 0))
    """
    return ("win", value) if value > 0 else ("loss", -value)


@lru_cache(maxsize=256)
def _row(path: str, n: int, tier: int, row: int, stamp: float) -> tuple[np.ndarray, np.ndarray]:
    """Keys and values of one part (padding dropped), read once per worker per solve of that tier."""
    store = NDStore(path, n)
    keys = store.row(f"tiers/{tier}/keys", row)
    valid = keys != NO_KEY
    return keys[valid], store.row(f"tiers/{tier}/value", row)[valid]


def values_of(store: NDStore, tier: int, keys: np.ndarray) -> np.ndarray:
    """The values of positions of a solved tier by their canonical keys; a key not in the tier is an
    error naming it (the tiers would not be closed under moves)."""
    rec = store.require(tier_name(tier))
    stamp = float(store.require(solve_name(tier))["finished"])
    lo = np.array(rec["lo"], dtype=np.uint64)
    want = keys.astype(np.uint64)
    rows = np.searchsorted(lo, want, side="right") - 1
    out = np.empty(len(want), dtype=np.int16)
    for r in np.unique(rows).tolist():
        sel = rows == r
        row_keys, row_values = _row(store.path, store.n, tier, int(r), stamp)
        at = np.minimum(np.searchsorted(row_keys, want[sel]), max(0, len(row_keys) - 1))
        if r < 0 or not len(row_keys) or not np.array_equal(row_keys[at], want[sel]):
            missing = want[sel][row_keys[at] != want[sel]] if len(row_keys) and r >= 0 else want[sel]
            key = int(missing[0])
            raise NakedDiagonalError(
                f"tier {tier}: position key {key} is missing (a child of tier {tier - 1})"
            )
        out[sel] = row_values[at]
    return out


def solve_task(task: Part) -> dict[str, Any]:
    """Write the part's row of ``tiers/<t>/value``; return its counts."""
    keys, parent, _, child, skip = part_moves(task)
    store = NDStore(task.path, task.n)
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
class SolveStage:
    """The values of tier ``tier`` from those of the next tier."""

    tier: int

    @property
    def name(self) -> str:
        """``solve-<t>``."""
        return solve_name(self.tier)

    def run(self, ctx: NDContext) -> dict[str, Any]:
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


def principal_variation(store: NDStore, n: int) -> dict[str, Any]:
    """Perfect play from the empty board: its value, the winner and one line of best placements (the
    first best point in reading order at every turn)."""
    geo = NDGeometry.of(n)
    g, memo = geo.args, memo_for(n)
    grid = Grid.get(n)
    red = blue = turn = 0
    start = int(values_of(store, 0, np.zeros(1, dtype=np.uint64))[0])
    line: list[str] = []
    while winner_bits(g, red, blue) == 0:
        mine = legal_points(g, red, blue, turn, memo)
        best, best_point, best_state = 0, -1, (0, 0, 0)
        for p in grid.bits(mine):
            r2, b2 = (red | 1 << p, blue) if turn == 0 else (red, blue | 1 << p)
            nxt = 1 - turn
            if winner_bits(g, r2, b2) == 0 and not can_place(g, r2, b2, nxt, memo):
                nxt = turn
            key = canonical(g, r2, b2, nxt)[0]
            v = int(values_of(store, len(line) + 1, np.array([key], dtype=np.uint64))[0])
            wins = (v > 0) == (nxt == turn)
            mine_value = abs(v) + 1 if wins else -(abs(v) + 1)
            if best_point < 0 or better(mine_value, best):
                best, best_point, best_state = mine_value, p, (r2, b2, nxt)
        if best_point < 0:
            raise NakedDiagonalError(f"{n}x{n}: a position of the principal variation has no move")
        line.append(grid.name(best_point))
        red, blue, turn = best_state
    won = winner_bits(g, red, blue)
    kind, distance = outcome(start)
    return {
        "outcome": kind,
        "distance": distance,
        "winner": "red" if won == 1 else "blue",
        "line": line,
    }
