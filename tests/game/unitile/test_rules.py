"""Properties of positions and slides, checked against plain re-implementations."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from tests.game.unitile.strategies import positions
from unitile_py.colours import BLUE, RED
from unitile_py.unitile import Board, Game, Position, UnitileError
from unitile_py.unitile.lookups import ADJACENT_ONLY


def bfs_groups(position: Position, colour: str) -> int:
    """Group count by breadth-first search over cells: a second, independent implementation."""
    board = position.board
    cells = {c for c in range(board.cells) if position.colour_at(c) == colour}
    groups = 0
    while cells:
        groups += 1
        frontier = [cells.pop()]
        while frontier:
            cell = frontier.pop()
            r, c = divmod(cell, board.cols)
            for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1)):
                rr, cc = r + dr, c + dc
                n = rr * board.cols + cc
                if 0 <= rr < board.rows and 0 <= cc < board.cols and n in cells:
                    cells.remove(n)
                    frontier.append(n)
    return groups


@given(positions())
def test_group_counts_match_breadth_first_search(p: Position) -> None:
    assert p.group_counts() == (bfs_groups(p, RED), bfs_groups(p, BLUE))
    assert p.united(RED) == (bfs_groups(p, RED) == 1)


@given(positions(), st.data())
def test_play_then_undo_is_identity(p: Position, data: st.DataObject) -> None:
    cell = data.draw(st.sampled_from(p.slides()))
    q = p.play(cell)
    assert q.bubble == cell and q.turn != p.turn
    assert q.colour_at(p.bubble) == p.colour_at(cell)
    assert q.play(p.bubble) == p
    game = Game(p, ADJACENT_ONLY)
    if p.winner() is None:
        game.push(cell)
        assert game.pop() == cell and game.position == p


@given(positions())
def test_group_counts_invariant_under_symmetries(p: Position) -> None:
    counts = p.group_counts()
    for sym in range(len(p.board.symmetries)):
        image = p.transform(sym)
        assert image.group_counts() == counts
        assert image.canonical_index() == p.canonical_index()


@given(positions())
def test_colour_swap_swaps_group_counts(p: Position) -> None:
    red, blue = p.group_counts()
    swapped = p.swap_colours()
    assert swapped.group_counts() == (blue, red)
    assert swapped.swap_colours() == p


@given(positions())
def test_no_slide_unites_both_colours(p: Position) -> None:
    if p.winner() is None:
        for cell in p.slides():
            child = p.play(cell)
            assert not (child.united(RED) and child.united(BLUE))


def test_start_positions() -> None:
    assert str(Position.start(Board.get(5, 5))) == "BRBRB/RBRBR/BR.BR/BRBRB/RBRBR r"
    assert str(Position.start(Board.get(3, 3))) == "BRB/R.B/RBR r"
    assert str(Position.start(Board.get(3, 5))) == "BRBRB/RB.RB/RBRBR r"


def test_symmetry_counts() -> None:
    assert len(Board.get(5, 5).symmetries) == 8
    assert len(Board.get(3, 5).symmetries) == 4
    for board in (Board.get(5, 5), Board.get(3, 5)):
        assert len(set(board.symmetries)) == len(board.symmetries)
        for perm in board.symmetries:
            assert sorted(perm) == list(range(board.cells))
            for cell in range(board.cells):
                image_neighbours = {perm[n] for n in board.neighbours[cell]}
                assert image_neighbours == set(board.neighbours[perm[cell]])


def test_bad_boards_and_positions() -> None:
    for rows, cols in ((2, 2), (4, 5), (0, 3)):
        try:
            Board.get(rows, cols)
        except UnitileError:
            continue
        raise AssertionError(f"{rows}x{cols} accepted")
    board = Board.get(3, 3)
    for red, bubble in ((0b1111, 0), (0b111, 4), (0b1111 << 20, 4)):
        try:
            Position(board, red, bubble)
        except UnitileError:
            continue
        raise AssertionError(f"red={red:b} bubble={bubble} accepted")
