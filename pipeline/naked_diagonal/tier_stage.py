"""The ``tier-<t>`` stages: every position with t stones that play from the empty board reaches.

Stones are only ever added, so a position with t stones comes only from one with t - 1: tier t is the
set of canonical keys of the positions after every legal placement of every position of tier t - 1
where nobody has won yet. A tier is a sorted index of canonical keys split into *parts* by key ranges
(``lo`` in the record: part i holds the keys from ``lo[i]`` up to ``lo[i + 1]``); each part is one row of
the tier's arrays, one shard, written by one task. Building tier t runs three sets of tasks:

1. ``expand``, one per part of tier t - 1: the canonical children of its positions, sorted and unique,
   into a scratch array of its own (with the first key of each chunk, and samples, for the client);
2. ``merge``, one per new part: the client chooses ``lo`` from the samples; a task reads, from every
   scratch array, only the chunks that overlap its key range and writes the range's unique keys;
3. ``describe``, one per new part: both colours' legal points (:func:`.kernels.describe`), who has won,
   and the number of distinct images, written into the part's rows.

The scratch arrays are removed when the tier is complete.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass
from typing import Any

import numpy as np

from .context import Context, Stage
from .geometry import Geometry
from .kernels import describe, memo_for
from .store import CHUNK, NO_KEY, Store, padded, tier_name
from .tier_parts import Part, part_moves

#: Samples of its keys each expand task returns, for choosing the new parts' key ranges.
SAMPLES = 64


# Tasks --------------------------------------------------------------------------------------------


def expand_task(task: Part) -> dict[str, Any]:
    """Write ``scratch/<tier + 1>/cand_<part>``: the unique canonical children of the part's positions."""
    c0 = time.process_time()
    child = part_moves(task)[3]
    unique = np.unique(child).astype(np.uint64)
    out: dict[str, Any] = {"moves": len(child), "count": len(unique), "fences": [], "samples": []}
    if len(unique):
        store = Store(task.path, task.n)
        full = padded(unique, NO_KEY)
        store.create(f"scratch/{task.tier + 1}/cand_{task.part}", (len(full),), np.uint64, NO_KEY)[...] = full
        out["fences"] = [int(k) for k in full[::CHUNK]]
        at = np.unique(np.linspace(0, len(unique) - 1, min(SAMPLES, len(unique))).astype(np.int64))
        out["samples"] = [int(k) for k in unique[at]]
    out["cpu"] = time.process_time() - c0
    return out


@dataclass(frozen=True)
class MergeTask:
    """One new part: the key range ``[lo, hi)`` and, per scratch array, the chunks ``[first, end)``."""

    path: str
    n: int
    tier: int
    part: int
    lo: int
    hi: int
    sources: tuple[tuple[int, int, int], ...]


def merge_task(task: MergeTask) -> tuple[int, float]:
    """Write ``scratch/<tier>/part_<part>``: the unique keys of the range; return how many (and the
    task's CPU seconds)."""
    c0 = time.process_time()
    store = Store(task.path, task.n)
    pieces = []
    for j, first, end in task.sources:
        arr = store.array(f"scratch/{task.tier}/cand_{j}")
        keys = np.asarray(arr[first * CHUNK : end * CHUNK])
        pieces.append(keys[(keys >= np.uint64(task.lo)) & (keys < np.uint64(task.hi))])
    keys = np.unique(np.concatenate(pieces)) if pieces else np.zeros(0, dtype=np.uint64)
    full = padded(keys.astype(np.uint64), NO_KEY)
    store.create(f"scratch/{task.tier}/part_{task.part}", (len(full),), np.uint64, NO_KEY)[...] = full
    return len(keys), time.process_time() - c0


def describe_task(task: Part) -> dict[str, float]:
    """Write the part's rows of ``keys``, ``legal``, ``info`` and ``orbit``; return its counts (and the
    task's CPU seconds)."""
    c0 = time.process_time()
    store = Store(task.path, task.n)
    keys = store.whole(f"scratch/{task.tier}/part_{task.part}")
    keys = keys[keys != NO_KEY]
    g = Geometry.of(task.n).args
    legal, info, orbit = describe(g, keys.astype(np.int64), memo_for(task.n))
    t, i = task.tier, task.part
    store.array(f"tiers/{t}/keys")[i] = padded(keys, NO_KEY)
    store.array(f"tiers/{t}/legal")[i] = padded(legal.astype(np.uint64), np.uint64(0))
    store.array(f"tiers/{t}/info")[i] = padded(info, np.uint8(0))
    store.array(f"tiers/{t}/orbit")[i] = padded(orbit, np.uint8(0))
    return {
        "positions": len(keys),
        "images": int(orbit.astype(np.int64).sum()),
        "red_won": int(np.count_nonzero(info == 1)),
        "blue_won": int(np.count_nonzero(info == 2)),
        "red_won_images": int(orbit[info == 1].astype(np.int64).sum()),
        "blue_won_images": int(orbit[info == 2].astype(np.int64).sum()),
        "cpu": time.process_time() - c0,
    }


# The stage ----------------------------------------------------------------------------------------


def splitters(results: list[dict[str, Any]], part_size: int) -> list[int]:
    """``lo`` of the new parts: quantiles of the expand tasks' samples, weighted by their counts.

    >>> splitters([{"count": 4, "samples": [1, 5, 9, 13]}, {"count": 4, "samples": [2, 6, 10, 14]}], 4)
    [0, 9]
    """
    total = sum(r["count"] for r in results)
    parts = max(1, math.ceil(total / part_size))
    pooled = sorted(
        (k, r["count"] / len(r["samples"])) for r in results if r["samples"] for k in r["samples"]
    )
    lo = [0]
    seen = 0.0
    for key, weight in pooled:
        if seen >= len(lo) * total / parts and key > lo[-1]:
            lo.append(key)
        seen += weight
    return lo


def sources_for(results: list[dict[str, Any]], lo: int, hi: int) -> tuple[tuple[int, int, int], ...]:
    """For each expand task's scratch array, the chunks holding keys of ``[lo, hi)``."""
    out = []
    for j, r in enumerate(results):
        fences = np.array(r["fences"], dtype=np.uint64)
        if not len(fences):
            continue
        first = max(0, int(np.searchsorted(fences, np.uint64(lo), side="right")) - 1)
        end = int(np.searchsorted(fences, np.uint64(hi), side="left"))
        if end > first:
            out.append((j, first, end))
    return tuple(out)


@dataclass(frozen=True)
class TierStage(Stage):
    """Tier ``tier``: the reachable positions with that many stones (see the module docstring)."""

    tier: int
    part_size: int = 1 << 15

    @property
    def name(self) -> str:
        """``tier-<t>``."""
        return tier_name(self.tier)

    def run(self, ctx: Context) -> dict[str, Any]:
        """Expand the previous tier, merge, describe."""
        store, t, n = ctx.store, self.tier, ctx.n
        store.delete(f"scratch/{t}")
        store.delete(f"tiers/{t}")
        moves = 0
        cpu = 0.0
        if t == 0:
            keys = np.zeros(1, dtype=np.uint64)  # the empty board, Red to move
            store.create(f"scratch/{t}/part_0", (CHUNK,), np.uint64, NO_KEY)[...] = padded(keys, NO_KEY)
            counts = [1]
            lo = [0]
        else:
            prev = store.require(tier_name(t - 1))
            tasks = [Part(store.path, n, t - 1, i) for i in range(prev["parts"])]
            results = ctx.executor.map(expand_task, tasks, f"expand {t}")
            moves = sum(r["moves"] for r in results)
            cpu += sum(r["cpu"] for r in results)
            if not any(r["count"] for r in results):
                store.delete(f"scratch/{t}")
                return {"tier": t, "parts": 0, "lo": [], "counts": [], "positions": 0, "images": 0,
                        "moves_in": 0}
            lo = splitters(results, self.part_size)
            bounds = [*lo[1:], int(NO_KEY)]
            merges = [
                MergeTask(store.path, n, t, i, a, b, sources_for(results, a, b))
                for i, (a, b) in enumerate(zip(lo, bounds, strict=True))
            ]
            merged = ctx.executor.map(merge_task, merges, f"merge {t}")
            counts = [c for c, _ in merged]
            cpu += sum(s for _, s in merged)
        cap = max(CHUNK, -(-max(counts) // CHUNK) * CHUNK)
        parts = len(counts)
        store.create(f"tiers/{t}/keys", (parts, cap), np.uint64, NO_KEY)
        for name, dtype in (("legal", np.uint64), ("info", np.uint8), ("orbit", np.uint8)):
            store.create(f"tiers/{t}/{name}", (parts, cap), dtype, 0)
        described = [Part(store.path, n, t, i) for i in range(parts)]
        stats = ctx.executor.map(describe_task, described, f"tier {t}")
        store.delete(f"scratch/{t}")
        record: dict[str, Any] = {"tier": t, "parts": parts, "lo": lo, "counts": counts, "moves_in": moves}
        for key in stats[0]:
            if key != "cpu":
                record[key] = int(sum(s[key] for s in stats))
        record["task_cpu_seconds"] = round(cpu + sum(s["cpu"] for s in stats), 3)
        return record
