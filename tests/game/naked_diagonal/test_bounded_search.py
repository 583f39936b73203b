"""The bounded search of compact strategies (:func:`unitile_py.naked_diagonal.perfect.winning_placement`,
docs/naked-diagonal-tables.md, "Compact strategies"), against the committed 4x4 tables.

What a compact strategy relies on: the search is exact, it is the same on every image of a position,
and where it wins within a budget it wins again, within that budget, at every later turn of the winner
whatever the loser replies."""

from __future__ import annotations

import random

import pytest

from unitile_py.colours import RED
from unitile_py.naked_diagonal.grid import Grid
from unitile_py.naked_diagonal.legality import after, legal_masks
from unitile_py.naked_diagonal.perfect import OutOfBudget, Search, winning_placement
from unitile_py.naked_diagonal.position import Position
from unitile_py.naked_diagonal.strategy import Bounded
from unitile_py.naked_diagonal.tables import NDTables, tables_for


def tables() -> NDTables:
    return tables_for(4)


def seeded_positions(count: int, seed: int) -> list[Position]:
    """Positions of seeded random 4x4 games (legal placements only), none of them over."""
    rng = random.Random(seed)
    out: list[Position] = []
    while len(out) < count:
        position = Position.empty(4)
        for _ in range(rng.randrange(6, 12)):
            red, blue = legal_masks(position)
            mine = Grid.points(red if position.turn == RED else blue)
            if not mine:
                break
            position = after(position, rng.choice(mine))
            if position.winner() is not None:
                break
        if position.winner() is None:
            out.append(position)
    return out


def spent(position: Position, nodes: int) -> tuple[bool, int] | None:
    """The search's outcome for the side to move and the positions it expanded, or None."""
    search = Search(position.grid, nodes)
    try:
        won = search.wins(position)
    except OutOfBudget:
        return None
    return won, nodes - search.nodes


def test_every_image_of_a_position_is_searched_alike() -> None:
    for position in seeded_positions(40, 11):
        first = spent(position, 10_000)
        assert first is not None
        for symmetry in position.grid.symmetries:
            assert spent(position.transform(symmetry), 10_000) == first


def test_its_answers_agree_with_the_tables() -> None:
    t = tables()
    found = 0
    for position in seeded_positions(60, 12):
        point = winning_placement(position, Bounded(10_000, 16))
        if t.outcome(position)[0] == "win":
            assert point is not None
            assert t.after(position, point)[0] == "win"
            found += 1
        else:
            assert point is None
    assert found >= 10


@pytest.mark.parametrize("budget", [30, 200])
def test_where_it_wins_it_wins_again_at_every_later_turn(budget: int) -> None:
    """Every line from a position it wins: its placement at each turn of the winner, every legal reply
    of the loser; each of the winner's later turns is won again within the same budget."""
    bounded = Bounded(budget, 16)
    t = tables()
    roots = [p for p in seeded_positions(80, 13) if winning_placement(p, bounded) is not None][:12]
    assert len(roots) >= 6
    turns = 0
    for root in roots:
        stack = [root]
        while stack:
            position = stack.pop()
            if position.winner() is not None:
                assert position.winner() == root.turn
                continue
            if position.turn == root.turn:
                point = winning_placement(position, bounded)
                assert point is not None, position
                assert t.after(position, point)[0] == "win"
                turns += 1
                stack.append(after(position, point))
            else:
                red, blue = legal_masks(position)
                stack.extend(after(position, p) for p in Grid.points(red if position.turn == RED else blue))
    assert turns > len(roots)


def test_past_its_budget_it_has_no_answer() -> None:
    won = [p for p in seeded_positions(60, 14) if tables().outcome(p)[0] == "win"]
    position, (_, cost) = max(((p, spent(p, 10_000)) for p in won), key=lambda found: found[1] or (0, 0))
    assert cost > 2
    assert winning_placement(position, Bounded(cost, 16)) is not None
    assert winning_placement(position, Bounded(cost - 2, 16)) is None
    assert winning_placement(position, Bounded(cost, position.empty_points.bit_count() - 1)) is None
