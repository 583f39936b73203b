"""The board drawn as text for the terminal: rank numbers, file letters, group counts and whose turn.

>>> from unitile_py.unitile import Board, Position
>>> print(draw(Position.start(Board.get(3, 3))))
groups: red 3, blue 3
3 B R B
2 R . B
1 R B R
  a b c
red to move
"""

from __future__ import annotations

from ..colours import RED
from .position import Position


def draw(position: Position) -> str:
    """A terminal drawing of the board with file letters, rank numbers and the group counts."""
    board = position.board
    red_groups, blue_groups = position.group_counts()
    lines = [f"groups: red {red_groups}, blue {blue_groups}"]
    for r in range(board.rows):
        cells = []
        for c in range(board.cols):
            colour = position.colour_at(r * board.cols + c)
            cells.append("." if colour is None else colour.upper())
        lines.append(f"{board.rows - r} " + " ".join(cells))
    lines.append("  " + " ".join(chr(ord("a") + c) for c in range(board.cols)))
    winner = position.winner()
    if winner is not None:
        lines.append(f"{'red' if winner == RED else 'blue'} is united")
    else:
        lines.append(f"{'red' if position.turn == RED else 'blue'} to move")
    return "\n".join(lines)
