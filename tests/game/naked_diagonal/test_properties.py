"""Property tests of the Naked Diagonal engine on games chosen by hypothesis (derandomised).

A game is a board size and a list of choices; each choice picks one legal placement of the side to
move. Along every game: no naked diagonal on the board, no NDE region after a legal placement, the
side to move (or else the opponent) has a legal placement until someone wins, a full board has one
winner, ``explain`` is ``None`` exactly for the legal placements, legality commutes with the eight
symmetries, and every witness the engine repairs replays clean.
"""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from unitile_py.naked_diagonal.grid import Grid
from unitile_py.naked_diagonal.legality import after, engine, explain, legal_masks, nde_regions
from unitile_py.naked_diagonal.position import Position
from unitile_py.naked_diagonal.rules import naked_diagonals

PROPERTIES = settings(max_examples=60, deadline=None, derandomize=True,
                      suppress_health_check=[HealthCheck.too_slow])

games = st.tuples(st.integers(min_value=1, max_value=7), st.lists(st.integers(min_value=0), max_size=60))


def play(n: int, choices: list[int]) -> list[Position]:
    """The positions of the game the choices pick (to the end when the choices last)."""
    engine(Grid.get(n)).check = True
    pos = Position.empty(n)
    out = [pos]
    for choice in choices:
        if pos.winner() is not None:
            break
        red, blue = legal_masks(pos)
        mine = Grid.points(red if pos.turn == "r" else blue)
        assert mine, f"the side to move has no legal placement: {pos}"
        pos = after(pos, mine[choice % len(mine)])
        out.append(pos)
    return out


@PROPERTIES
@given(games)
def test_board_invariants(game: tuple[int, list[int]]) -> None:
    for pos in play(*game):
        assert naked_diagonals(pos.grid, pos.red, pos.blue) == []
        assert nde_regions(pos) == ()
        red, blue = legal_masks(pos)
        if pos.is_full():
            assert pos.winner() is not None
        else:
            assert red or blue, str(pos)
        if pos.winner() is None:
            assert red if pos.turn == "r" else blue, str(pos)


@settings(PROPERTIES, max_examples=30)
@given(games)
def test_explain_is_none_exactly_for_legal_placements(game: tuple[int, list[int]]) -> None:
    n, choices = game
    pos = play(n, choices)[-1]
    red, blue = legal_masks(pos)
    for colour, legal in (("r", red), ("b", blue)):
        for p in range(pos.grid.size):
            ban = explain(pos, p, colour)
            assert (ban is None) == bool(legal >> p & 1), (str(pos), p, colour)


@PROPERTIES
@given(games)
def test_legality_commutes_with_symmetries(game: tuple[int, list[int]]) -> None:
    n, choices = game
    pos = play(n, choices)[-1]
    red, blue = legal_masks(pos)
    for s in pos.grid.symmetries:
        image = pos.transform(s)
        assert naked_diagonals(image.grid, image.red, image.blue) == []
        want = (s.apply(blue), s.apply(red)) if s.swaps_edges else (s.apply(red), s.apply(blue))
        assert legal_masks(image) == want, (str(pos), s.name)
        won = pos.winner()
        if won is not None and s.swaps_edges:
            won = "b" if won == "r" else "r"
        assert image.winner() == won


@settings(max_examples=25, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(min_value=8, max_value=11), st.lists(st.integers(min_value=0), min_size=10, max_size=40))
def test_larger_boards_keep_the_invariants(n: int, choices: list[int]) -> None:
    for pos in play(n, choices):
        assert nde_regions(pos) == ()
        assert naked_diagonals(pos.grid, pos.red, pos.blue) == []
