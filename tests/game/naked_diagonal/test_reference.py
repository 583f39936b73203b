"""The fast Naked Diagonal engine against the brute force of reference.py (in this folder), and the
facts of the docs.

Every reachable position of 2x2 and 3x3 is compared (and, on 3x3, the rules' wording exactly: every
connected area, filled with placements anywhere); 4x4 and larger boards by seeded random games
(bench/naked_diagonal.py --reference 4 compares every reachable 4x4 position).
"""

from __future__ import annotations

import random
from functools import cache

import pytest

from tests.game.naked_diagonal import reference as ref
from unitile_py.naked_diagonal.grid import Grid
from unitile_py.naked_diagonal.legality import after, engine, explain, legal_placements, nde_regions
from unitile_py.naked_diagonal.position import Position


@cache
def reachable(n: int) -> tuple[tuple[ref.Board, str], ...]:
    """Every position reachable from the empty n x n board (the brute force's own game rules)."""
    start = (tuple("." * (n * n)), "r")
    seen = {start}
    stack = [start]
    while stack:
        board, side = stack.pop()
        if ref.winner(board) is None:
            red, blue = ref.legal_placements(board)
            for p in red if side == "r" else blue:
                nxt = ref.after(board, side, p)
                if nxt not in seen:
                    seen.add(nxt)
                    stack.append(nxt)
    return tuple(sorted(seen))


def position(board: ref.Board, side: str) -> Position:
    return Position.parse(ref.text_of(board, side))


@pytest.fixture(autouse=True)
def checked_witnesses() -> None:
    """Every repaired witness is replayed in full while these tests run."""
    for n in range(1, 14):
        engine(Grid.get(n)).check = True


@pytest.mark.parametrize(("n", "count"), [(1, 2), (2, 27), (3, 2686)])
def test_every_reachable_position_agrees(n: int, count: int) -> None:
    positions = reachable(n)
    assert len(positions) == count
    for board, side in positions:
        pos = position(board, side)
        assert legal_placements(pos) == ref.legal_placements(board), str(pos)


def test_every_area_reading_equals_maximal_regions_on_3x3() -> None:
    """Reading R1 with the rules' words (any connected area, placements anywhere) = maximal regions."""
    for board, _side in reachable(3):
        assert ref.legal_placements(board, every_area=True) == ref.legal_placements(board)


def test_regions_never_interact_on_small_boards() -> None:
    """Fact 1: diagonal points of different regions have two stones of different colours between them."""
    for n in (2, 3):
        for board, _side in reachable(n):
            label = {p: i for i, region in enumerate(ref.regions(board)) for p in region}
            for p in label:
                for q, s, t in ref.diagonal(n, p):
                    if q in label and label[q] != label[p]:
                        assert {board[s], board[t]} == {"R", "B"}


def test_full_boards_have_one_winner_and_nobody_is_stuck_early() -> None:
    """Facts 3 and 4 on every reachable 3x3 position."""
    for board, side in reachable(3):
        red, blue = ref.legal_placements(board)
        if "." not in board:
            assert ref.winner(board) is not None
        else:
            assert red or blue, ref.text_of(board, side)


def random_positions(n: int, games: int, seed: int) -> list[Position]:
    """The positions of seeded random games on the engine."""
    rng = random.Random(seed)
    out = []
    for _ in range(games):
        pos = Position.empty(n)
        while pos.winner() is None:
            out.append(pos)
            red, blue = legal_placements(pos)
            mine = red if pos.turn == "r" else blue
            pos = after(pos, rng.choice(mine))
    return out


def small_regions(pos: Position, limit: int) -> bool:
    return all(m.bit_count() <= limit for m in pos.grid.components(pos.empty_points))


def test_random_4x4_positions_agree() -> None:
    positions = random_positions(4, 40, seed=4)
    assert len(positions) > 300
    for pos in positions[::2]:
        board, _side = ref.board_of(str(pos))
        assert legal_placements(pos) == ref.legal_placements(board), str(pos)


@pytest.mark.parametrize("n", [5, 7, 9, 11, 13])
def test_random_positions_of_larger_boards_agree(n: int) -> None:
    """Positions whose regions are small enough for the brute force (at most 8 points each)."""
    positions = [p for p in random_positions(n, 6 if n < 11 else 4, seed=n) if small_regions(p, 8)]
    assert len(positions) >= 30
    for pos in positions[:60]:
        board, _side = ref.board_of(str(pos))
        assert legal_placements(pos) == ref.legal_placements(board), str(pos)


def test_order_matters_example() -> None:
    """Fact 2: RBRR/R..R/RRBR/RRRR, both empty points red is clean at the end but not on the way."""
    pos = Position.parse("RBRR/R..R/RRBR/RRRR r")
    g = pos.grid
    b3, c3 = g.point("b3"), g.point("c3")
    board, _ = ref.board_of(str(pos))
    assert not ref.naked_on_board(board)
    assert not ref.naked_on_board(ref.put(ref.put(board, b3, "R"), c3, "R"))
    for first, second in ((b3, c3), (c3, b3)):
        for x in "RB":
            for y in "RB":
                after_first = ref.put(board, first, x)
                clean = not ref.forms_naked(board, first, x) and not ref.forms_naked(after_first, second, y)
                assert not clean, (g.name(first), x, y)
    assert [g.names(m) for m in nde_regions(pos)] == [("b3", "c3")]
    assert ref.nde_areas(board) == [frozenset({b3, c3})]
    assert legal_placements(pos) == ((), ())


def test_explain_agrees_with_legality_on_3x3() -> None:
    for board, side in reachable(3)[::7]:
        pos = position(board, side)
        red, blue = legal_placements(pos)
        for colour, legal in (("r", red), ("b", blue)):
            for p in range(9):
                assert (explain(pos, p, colour) is None) == (p in legal)
