"""The ``verify`` stage: the solve checks itself before its tables are written.

One task per part of every tier recomputes and compares:

* the keys: sorted, unique, inside the part's key range, canonical, with t stones and no point
  taken twice;
* the legal points, who has won and the number of images (:func:`.kernels.describe` again), and, on a
  seeded sample of each part, the legal points of both colours against the game's own engine
  (:func:`unitile_py.naked_diagonal.legality.legal_masks`, written independently);
* the moves: every position where nobody has won has a legal placement for the side to move, every
  child is in the next tier, and the value equals the one combined afresh from the children's values;
  a value is 0 exactly where someone has won, and no distance exceeds the empty points;
* closure the other way: the client checks that every position of tier t + 1 is a child of some
  position of tier t (so the tiers hold exactly the reachable positions).

Any failure stops the build (:class:`VerifyError`, exit status 1) with one line per failed check.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np

from unitile_py.naked_diagonal.grid import Grid
from unitile_py.naked_diagonal.legality import legal_masks
from unitile_py.naked_diagonal.position import Position

from ..errors import VerifyError as PipelineVerifyError
from .context import Context, Stage
from .geometry import Geometry
from .kernels import combine, describe, is_canonical, memo_for
from .store import NO_KEY, Store, tier_name
from .tier_parts import Part, part_moves, values_of


class VerifyError(PipelineVerifyError):
    """A check of the solve failed (the message has one line per failure)."""


@dataclass(frozen=True)
class VerifyTask:
    """One part of one tier, with the size of its legality sample."""

    path: str
    n: int
    tier: int
    part: int
    sample: int


def _popcount(x: np.ndarray) -> np.ndarray:
    out = np.zeros(x.shape, dtype=np.int64)
    y = x.copy()
    while np.any(y):
        out += (y & np.uint64(1)).astype(np.int64)
        y >>= np.uint64(1)
    return out


def verify_task(task: VerifyTask) -> dict[str, Any]:
    """Check one part (see the module docstring); return the failures, counts and the unique children."""
    store = Store(task.path, task.n)
    t, i, n = task.tier, task.part, task.n
    size = n * n
    geo = Geometry.of(n)
    rec = store.require(tier_name(t))
    fails: list[str] = []
    where = f"tier {t} part {i}"
    raw = store.row(f"tiers/{t}/keys", i)
    keys_u = raw[raw != NO_KEY]
    if not np.array_equal(raw[: len(keys_u)], keys_u) or len(keys_u) != rec["counts"][i]:
        fails.append(f"{where}: padding inside the keys or a count that differs from the record")
    if np.any(keys_u[1:] <= keys_u[:-1]):
        fails.append(f"{where}: keys not strictly increasing")
    hi = rec["lo"][i + 1] if i + 1 < rec["parts"] else 2**64 - 1
    if len(keys_u) and (int(keys_u[0]) < rec["lo"][i] or int(keys_u[-1]) >= hi):
        fails.append(f"{where}: keys outside the part's range")
    full = np.uint64(geo.grid.full)
    red, blue = keys_u & full, (keys_u >> np.uint64(size)) & full
    if np.any(red & blue) or np.any(_popcount(red | blue) != t) or np.any(keys_u >> np.uint64(2 * size + 1)):
        fails.append(f"{where}: a key with a point taken twice, the wrong number of stones or stray bits")
    keys = keys_u.astype(np.int64)
    if not np.all(is_canonical(geo.args, keys)):
        fails.append(f"{where}: a key that is not canonical")
    legal, info, orbit = describe(geo.args, keys, memo_for(n))
    m = len(keys)
    for name, again in (("legal", legal.astype(np.uint64)), ("info", info), ("orbit", orbit)):
        if not np.array_equal(store.row(f"tiers/{t}/{name}", i)[:m], again):
            fails.append(f"{where}: stored {name} differs from a recomputation")
    agree = 0
    grid = Grid.get(n)
    rng = np.random.default_rng([t, i, 17])
    for j in rng.choice(m, size=min(task.sample, m), replace=False).tolist():
        r, b, turn = geo.unkey(int(keys[j]))
        pair = (int(legal[j]) & geo.grid.full, int(legal[j]) >> 32)
        if legal_masks(Position(grid, r, b, turn)) == pair:
            agree += 1
        else:
            fails.append(f"{where}: legality differs from unitile_py at {Position(grid, r, b, turn)}")
    turn_bits = (keys >> (2 * size)) & 1
    movers = np.where(turn_bits == 1, legal >> 32, legal & int(geo.grid.full))
    if np.any((info == 0) & (movers == 0)):
        fails.append(f"{where}: a position where nobody has won and the side to move cannot place")
    _, parent, _, child, skip = part_moves(Part(task.path, n, t, i))
    value = store.row(f"tiers/{t}/value", i)[:m]
    if len(child):
        child_values = values_of(store, t + 1, child)
        combined = combine(info, parent, child_values, skip)
        if not np.array_equal(combined, value):
            fails.append(f"{where}: a value differs from the one its children give")
    if not np.array_equal(value == 0, info != 0):
        fails.append(f"{where}: a value of 0 where nobody has won, or another where someone has")
    if np.any(np.abs(value.astype(np.int64)) > size - t):
        fails.append(f"{where}: a distance longer than the empty points")
    return {"fails": fails, "positions": m, "moves": len(child), "agree": agree, "children": np.unique(child)}


@dataclass(frozen=True)
class VerifyStage(Stage):
    """Every check of the module docstring."""

    name: ClassVar[str] = "verify"
    legality_sample: int = 24

    def run(self, ctx: Context) -> dict[str, Any]:
        """One task per part of every tier, then the closure check in the client."""
        store = ctx.store
        records = [store.require(tier_name(t)) for t in range(ctx.points + 1)]
        tasks = [
            VerifyTask(store.path, ctx.n, t, i, self.legality_sample)
            for t, rec in enumerate(records)
            for i in range(rec["parts"])
        ]
        results = ctx.executor.map(verify_task, tasks, "verify")
        fails = [f for r in results for f in r["fails"]]
        reached: dict[int, list[np.ndarray]] = {}
        for task, r in zip(tasks, results, strict=True):
            reached.setdefault(task.tier + 1, []).append(r["children"])
        for t in range(1, ctx.points + 1):
            kids = np.unique(np.concatenate(reached.get(t, [np.zeros(0, dtype=np.int64)])))
            total = records[t]["positions"]
            if len(kids) != total:
                fails.append(f"tier {t}: {total} positions but {len(kids)} distinct children of tier {t - 1}")
        if records[0]["positions"] != 1:
            fails.append("tier 0 is not the empty board alone")
        if fails:
            raise VerifyError("\n".join(["verify: failed", *fails]))
        return {
            "checked": sum(r["positions"] for r in results),
            "moves": sum(r["moves"] for r in results),
            "legality_agree": sum(r["agree"] for r in results),
        }
