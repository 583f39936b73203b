"""Hypothesis strategies for positions on the boards the tests use."""

from __future__ import annotations

from hypothesis import strategies as st

from unitile_py.unitile import Board, Position

BOARDS = [Board.get(3, 3), Board.get(3, 5), Board.get(5, 5), Board.get(1, 5), Board.get(5, 3)]


@st.composite
def positions(draw: st.DrawFn, boards: list[Board] | None = None) -> Position:
    """Any position (uniform index) on one of the boards, with either side to move."""
    board = draw(st.sampled_from(boards or BOARDS))
    index = draw(st.integers(0, board.positions - 1))
    return Position.from_index(board, index, draw(st.sampled_from("rb")))
