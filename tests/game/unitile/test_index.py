"""The position index is a bijection and agrees with a plain definition of the colex rank."""

from __future__ import annotations

from itertools import combinations
from math import comb

import pytest
from hypothesis import given

from tests.game.unitile.strategies import positions
from unitile_py.unitile import Board, Indexer, Position


def colex_rank(bits: tuple[int, ...]) -> int:
    """The plain definition: sum of C(p_j, j) over the set bits p_1 < p_2 < ... (j from 1)."""
    return sum(comb(p, j) for j, p in enumerate(bits, 1))


@pytest.mark.parametrize("shape", [(3, 3), (3, 5), (1, 7)])
def test_index_is_a_bijection_exhaustively(shape: tuple[int, int]) -> None:
    board = Board.get(*shape)
    seen = set()
    for i in range(board.positions):
        p = Position.from_index(board, i)
        assert p.index() == i
        seen.add((p.red, p.bubble))
    assert len(seen) == board.positions


def test_rank_is_colex_order() -> None:
    board = Board.get(3, 5)
    ix = Indexer.get(board)
    masks = sorted(sum(1 << b for b in bits) for bits in combinations(range(board.tiles), board.red_count))
    assert len(masks) == board.colourings
    for rank, mask in enumerate(masks):
        assert ix.rank(mask) == rank
        bits = tuple(b for b in range(board.tiles) if mask >> b & 1)
        assert colex_rank(bits) == rank


@given(positions([Board.get(5, 5)]))
def test_index_round_trip_5x5(p: Position) -> None:
    i = p.index()
    assert 0 <= i < p.board.positions
    assert Position.from_index(p.board, i, p.turn) == p
    tiles = [c for c in range(p.board.cells) if c != p.bubble]
    bits = tuple(t for t, c in enumerate(tiles) if p.red >> c & 1)
    assert i == p.bubble * p.board.colourings + colex_rank(bits)


def test_start_index_5x5() -> None:
    board = Board.get(5, 5)
    assert board.positions == 67_603_900
    start = Position.start(board)
    # Tiles 1, 3, ..., 23 are red: the colex rank of the odd bits of 24.
    assert start.index() == 12 * comb(24, 12) + colex_rank(tuple(range(1, 24, 2)))


@pytest.mark.parametrize(("shape", "classes16", "classes8"), [((3, 3), 46, 89), ((3, 5), 6516, 13000)])
def test_symmetry_class_counts(shape: tuple[int, int], classes16: int, classes8: int) -> None:
    board = Board.get(*shape)
    everything = [Position.from_index(board, i) for i in range(board.positions)]
    assert len({p.canonical_index() for p in everything}) == classes16
    assert len({p.canonical_index(colour_swap=False) for p in everything}) == classes8
