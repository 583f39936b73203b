"""The tiers (pipeline/naked_diagonal/tier_stage.py): counts per tier against a plain breadth-first search
with the game's own ``Game``."""

from __future__ import annotations

from pathlib import Path

import pytest

from pipeline.naked_diagonal.store import Store
from tests.pipeline.naked_diagonal.solving import CANONICAL, reachable


@pytest.mark.parametrize("n", [2, 3])
def test_tiers_hold_every_reachable_position(solved: dict[int, Path], n: int) -> None:
    store = Store(str(solved[n] / "s.zarr"), n)
    records = [store.require(f"tier-{t:02d}") for t in range(n * n + 1)]
    assert [r["positions"] for r in records] == CANONICAL[n]
    by_tier = [0] * (n * n + 1)
    for position in reachable(n).values():
        by_tier[(position.red | position.blue).bit_count()] += 1
    assert [r["images"] for r in records] == by_tier
    assert sum(by_tier) == {2: 27, 3: 2686}[n]
