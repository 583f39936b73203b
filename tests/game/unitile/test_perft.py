"""Perft-style golden counts on the small boards, written down once and checked forever."""

from __future__ import annotations

import pytest

from unitile_py.colours import BLUE, RED
from unitile_py.unitile import Board, Position

GOLDEN = {
    # board: (positions, red united only, blue united only, both united, neither united)
    (3, 3): (630, 124, 124, 56, 326),
    (3, 5): (51_480, 4_304, 4_304, 456, 42_416),
}


@pytest.mark.parametrize("shape", sorted(GOLDEN))
def test_united_counts(shape: tuple[int, int]) -> None:
    board = Board.get(*shape)
    counts = [board.positions, 0, 0, 0, 0]
    for i in range(board.positions):
        p = Position.from_index(board, i)
        red, blue = p.united(RED), p.united(BLUE)
        counts[1 + (0 if red and not blue else 1 if blue and not red else 2 if red else 3)] += 1
    assert tuple(counts) == GOLDEN[shape]


def test_start_slides() -> None:
    start = Position.start(Board.get(5, 5))
    assert sorted(start.board.name(c) for c in start.slides()) == ["b3", "c2", "c4", "d3"]
