"""Legal slides from the pipeline (pipeline.unitile.legal) against the brute-force reference of
tests/game/unitile/reference.py."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from pipeline.unitile.legal import (
    BLUE_UNITED,
    RED_UNITED,
    SLIDES,
    UNITED,
    legal_bytes,
    legal_of_bubble,
    t_blocks,
)
from tests.game.unitile.oracle import oracle
from tests.game.unitile.reference import exact_r, legal_moves, total_values
from unitile_py.colours import BLUE, RED
from unitile_py.unitile import Board, Position

B33 = Board.get(3, 3)


def exact_total() -> list[Fraction]:
    return total_values(B33, exact_r(B33))


def cells_of(position: Position, byte: int) -> list[int]:
    return sorted(c for k, c in enumerate(position.slides()) if byte >> k & 1)


def test_3x3_legal_slides_equal_the_exact_rational_rule() -> None:
    total = exact_total()
    res = legal_bytes(B33, np.array([float(v) for v in total]))
    assert (res.ties, res.stuck) == (0, 0)
    assert res.min_gap > 0.1
    checked = 0
    for i in range(B33.positions):
        p = Position.from_index(B33, i)
        byte = int(res.legal[i])
        assert bool(byte & RED_UNITED) == p.united(RED)
        assert bool(byte & BLUE_UNITED) == p.united(BLUE)
        if p.winner() is not None:
            assert byte & SLIDES == 0
            continue
        assert cells_of(p, byte) == legal_moves(p, total.__getitem__)
        checked += 1
    assert checked == 326


def test_3x5_legal_slides_equal_the_reference() -> None:
    ref = oracle("3x5")
    board = ref.board
    res = legal_bytes(board, np.array(ref._total, dtype=np.float64))
    assert (res.ties, res.stuck) == (0, 0)
    for i in range(board.positions):
        p = Position.from_index(board, i)
        assert cells_of(p, int(res.legal[i])) == list(ref.legal(p))


def test_each_slide_between_live_positions_is_legal_one_way_only() -> None:
    ref = oracle("3x5")
    board = ref.board
    legal = legal_bytes(board, np.array(ref._total, dtype=np.float64)).legal
    pairs = 0
    for i in range(board.positions):
        p = Position.from_index(board, i)
        if legal[i] & UNITED:
            continue
        for k, cell in enumerate(p.slides()):
            q = p.play(cell)
            j = q.index()
            if legal[j] & UNITED:
                assert legal[i] >> k & 1, "a slide that unites a colour is always legal"
                continue
            back = q.slides().index(p.bubble)
            assert (legal[i] >> k & 1) != (legal[j] >> back & 1)
            pairs += 1
    assert pairs > 10000


def test_equal_totals_make_neither_direction_legal() -> None:
    total = np.array([float(v) for v in exact_total()])
    p = Position.start(B33)
    cell = p.slides()[0]
    q = p.play(cell)
    total[q.index()] = total[p.index()]
    res = legal_bytes(B33, total)
    assert res.ties == 2  # counted from both ends
    assert not res.legal[p.index()] & 1
    assert not res.legal[q.index()] >> q.slides().index(p.bubble) & 1


def test_blocks_must_cover_the_bubble_and_its_neighbours() -> None:
    total = np.zeros(B33.positions)
    with pytest.raises(ValueError, match="shape"):
        legal_of_bubble(B33, 4, t_blocks(B33, total, 0))
