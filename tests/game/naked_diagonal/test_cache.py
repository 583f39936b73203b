"""The engine's caches stay out of the cycle collector's way and keep what they promise.

A full collection walks every entry of a tracked dict; the engine's memo and region cache hold
hundreds of thousands, so they must stay untracked (int keys, int or str values) after real use.
"""

from __future__ import annotations

import gc
import random

from unitile_py.naked_diagonal.cache import UntrackedCache
from unitile_py.naked_diagonal.grid import Grid
from unitile_py.naked_diagonal.legality import after, engine, legal_placements
from unitile_py.naked_diagonal.position import Position
from unitile_py.naked_diagonal.witness import Witness


def test_the_cache_keeps_its_limit_and_its_newest_entries() -> None:
    cache = UntrackedCache(100)
    for key in range(1000):
        cache.put(key, key * 3)
        assert len(cache) <= 100
        assert cache.get(key) == key * 3
    assert all(cache.get(k) == k * 3 for k in range(950, 1000))  # the newest half is always there
    assert cache.get(0) is None
    cache.clear()
    assert len(cache) == 0 and cache.get(999) is None


def test_a_hit_in_the_old_generation_survives_the_next_turnover() -> None:
    cache = UntrackedCache(10)
    for key in range(5):
        cache.put(key, "v")
    cache.put(5, "v")  # the first five become the old generation
    assert cache.get(0) == "v"  # moved to the young one
    for key in range(6, 10):
        cache.put(key, "v")
    assert cache.get(0) == "v" and len(cache) <= 10


def test_witnesses_pack_into_a_str_and_back() -> None:
    rng = random.Random(3)
    for n in (1, 5, 13, 20):
        size = n * n
        for _ in range(50):
            order = tuple(rng.sample(range(size), rng.randint(0, size)))
            red = sum(1 << p for p in order if rng.random() < 0.5)
            assert Witness.unpack(Witness(order, red).pack()) == Witness(order, red)


def test_the_caches_are_not_tracked_after_real_games() -> None:
    rng = random.Random(11)
    for _ in range(5):
        pos = Position.empty(7)
        while pos.winner() is None:
            pos = after(pos, rng.choice(legal_placements(pos)[pos.turn == "b"]))
    shared = engine(Grid.get(7))
    solver = shared.solver
    assert len(solver.memo) > 500 and len(shared.regions) > 100 and solver.cores
    gc.collect()
    for cache in (solver.memo, shared.regions):
        assert not gc.is_tracked(cache._young) and not gc.is_tracked(cache._old)
    assert not any(gc.is_tracked(slot) for slot in solver.cores.values())
