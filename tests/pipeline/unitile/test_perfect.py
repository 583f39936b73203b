"""Perfect play from the pipeline (pipeline.unitile.perfect) against brute-force minimax over the same
values."""

from __future__ import annotations

import random

import numpy as np
import pytest

from pipeline.unitile.legal import UNITED, legal_bytes
from pipeline.unitile.perfect import best_masks, retrograde
from tests.game.unitile.oracle import oracle
from unitile_py.unitile import Position

#: 3x5 positions compared with minimax (the rest are checked through the consistency pass).
SAMPLE_3X5 = 600


def sample(positions: int, size: str) -> list[int]:
    """Every position of 3x3; a seeded sample of 3x5 (minimax in pure Python is slow there)."""
    if size == "3x3":
        return list(range(positions))
    return sorted(random.Random(35).sample(range(positions), SAMPLE_3X5))


@pytest.mark.parametrize("size", ["3x3", "3x5"])
def test_values_and_best_slides_equal_minimax(size: str) -> None:
    ref = oracle(size)
    board = ref.board
    total = np.array([float(v) for v in ref._total])
    legal = legal_bytes(board, total).legal
    res = retrograde(board, total, legal)
    best = best_masks(board, total, res.value)
    assert best.inconsistent == 0
    assert res.red_wins == int(np.count_nonzero(res.value > 0))
    assert res.max_distance == int(np.abs(res.value).max())
    assert np.all((res.value == 0) == ((legal & UNITED) != 0))
    for i in sample(board.positions, size):
        p = Position.from_index(board, i)
        if legal[i] & UNITED:
            assert best.best[i] == 0
            continue
        for q in (p, p.flip_turn()):
            j = i if q.turn == "r" else q.swap_colours().index()
            v = int(res.value[j])
            assert (("win" if v > 0 else "loss"), abs(v)) == ref.outcome(q)
            assert tuple(c for k, c in enumerate(q.slides()) if best.best[j] >> k & 1) == ref.best(q)


def test_a_wrong_value_is_caught_by_the_consistency_pass() -> None:
    ref = oracle("3x3")
    total = np.array([float(v) for v in ref._total])
    legal = legal_bytes(ref.board, total).legal
    value = retrograde(ref.board, total, legal).value.copy()
    i = int(np.flatnonzero(np.abs(value) > 2)[0])
    value[i] += 2 if value[i] > 0 else -2
    assert best_masks(ref.board, total, value).inconsistent >= 1


def test_an_order_that_is_not_increasing_t_is_refused() -> None:
    ref = oracle("3x3")
    total = np.array([float(v) for v in ref._total])
    legal = legal_bytes(ref.board, total).legal
    with pytest.raises(RuntimeError, match="had not solved"):
        retrograde(ref.board, -total, legal)
