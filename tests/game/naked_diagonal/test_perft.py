"""Perft-style golden counts for Naked Diagonal, computed two ways: the engine and the brute force.

``LAYERS[n][k]`` is the number of distinct positions (stones and side to move) reachable after exactly
``k`` placements on the empty n x n board, following the game: the side to move places a legal stone,
a player without a legal placement is skipped, and play stops at a win.
"""

from __future__ import annotations

import pytest

from tests.game.naked_diagonal import reference as ref
from unitile_py.naked_diagonal.legality import after, legal_placements
from unitile_py.naked_diagonal.position import Position

#: Legal first placements on the empty board (Red's and Blue's: every point).
FIRST = {2: 4, 3: 9, 4: 16, 5: 25}
#: Distinct positions after 0, 1, 2, ... plies (3x3 to the end; 4x4 as far as the tests go).
LAYERS = {
    2: [1, 4, 12, 8, 2],
    3: [1, 9, 72, 196, 448, 618, 664, 461, 170, 47],
    4: [1, 16, 240, 1428, 7862],
}
#: How many plies the brute force checks in the tests (the rest: bench/naked_diagonal.py --reference).
REFERENCE_PLIES = {2: 4, 3: 9, 4: 2}


def engine_layers(n: int, plies: int) -> list[int]:
    """Distinct positions after 0..plies plies, with the engine."""
    layer = {Position.empty(n)}
    counts = [1]
    for _ in range(plies):
        following = set()
        for pos in layer:
            if pos.winner() is None:
                red, blue = legal_placements(pos)
                for p in red if pos.turn == "r" else blue:
                    following.add(after(pos, p))
        layer = following
        counts.append(len(layer))
    return counts


def reference_layers(n: int, plies: int) -> list[int]:
    """Distinct positions after 0..plies plies, with the brute force."""
    layer = {(tuple("." * (n * n)), "r")}
    counts = [1]
    for _ in range(plies):
        following = set()
        for board, side in layer:
            if ref.winner(board) is None:
                red, blue = ref.legal_placements(board)
                for p in red if side == "r" else blue:
                    following.add(ref.after(board, side, p))
        layer = following
        counts.append(len(layer))
    return counts


@pytest.mark.parametrize("n", sorted(FIRST))
def test_first_placements(n: int) -> None:
    red, blue = legal_placements(Position.empty(n))
    assert len(red) == len(blue) == FIRST[n]


@pytest.mark.parametrize("n", sorted(LAYERS))
def test_engine_layers(n: int) -> None:
    assert engine_layers(n, len(LAYERS[n]) - 1) == LAYERS[n]


@pytest.mark.parametrize("n", sorted(REFERENCE_PLIES))
def test_reference_layers(n: int) -> None:
    k = REFERENCE_PLIES[n]
    assert reference_layers(n, k) == LAYERS[n][:k + 1]
