"""A tier as the stages read it: a part's positions and their moves (:class:`Part`, :func:`part_moves`),
the values of a solved tier by key (:func:`values_of`) and what a value says (:func:`outcome`).

The tiers' layout is :mod:`.store`'s; the ``tier-<t>`` stages write the keys and what the positions
allow, the ``solve-<t>`` stages their values (``+d`` a win in d placements for the side to move, ``-d``
a loss in d, 0 a position where the side to move has lost already).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from unitile_py.errors import NakedDiagonalError

from .geometry import Geometry
from .kernels import children, memo_for
from .store import NO_KEY, Store, solve_name, tier_name


@dataclass(frozen=True)
class Part:
    """One part of a tier: what a task needs to find its rows."""

    path: str
    n: int
    tier: int
    part: int


def read_part(store: Store, tier: int, part: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(keys, legal, info)`` of one part, padding dropped (signed 64-bit, as the kernels take them)."""
    keys = store.row(f"tiers/{tier}/keys", part)
    valid = keys != NO_KEY
    legal = store.row(f"tiers/{tier}/legal", part)[valid].astype(np.int64)
    info = store.row(f"tiers/{tier}/info", part)[valid]
    return keys[valid].astype(np.int64), legal, info


def part_moves(task: Part) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """``(keys, parent, point, child, skip)`` of a part: its keys, and every legal move of its positions
    (see :func:`.kernels.children`)."""
    store = Store(task.path, task.n)
    keys, legal, info = read_part(store, task.tier, task.part)
    g = Geometry.of(task.n).args
    parent, point, child, skip = children(g, keys, legal, info, memo_for(task.n))
    return keys, parent, point, child, skip


def outcome(value: int) -> tuple[str, int]:
    """``("win" | "loss", placements)`` of a value.

    >>> outcome(3), outcome(-4), outcome(0)
    (('win', 3), ('loss', 4), ('loss', 0))
    """
    return ("win", value) if value > 0 else ("loss", -value)


@lru_cache(maxsize=256)
def _row(path: str, n: int, tier: int, row: int, stamp: float) -> tuple[np.ndarray, np.ndarray]:
    """Keys and values of one part (padding dropped), read once per worker per solve of that tier."""
    store = Store(path, n)
    keys = store.row(f"tiers/{tier}/keys", row)
    valid = keys != NO_KEY
    return keys[valid], store.row(f"tiers/{tier}/value", row)[valid]


def values_of(store: Store, tier: int, keys: np.ndarray) -> np.ndarray:
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
