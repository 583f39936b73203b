"""The check of a Unitile puzzle against the rules and a board's tables (:func:`unitile_py.puzzles.judge`):
what the ``puzzles`` command and the web service ask of every puzzle before they answer from it."""

from __future__ import annotations

from collections.abc import Callable

from ..puzzles import Check, Puzzle, judge
from .board import Board
from .lookups import Lookups
from .notation import parse_position


def puzzle_check(board: Board, tables: Callable[[], Lookups]) -> Check:
    """The check of a puzzle of a ``board`` file, with the results of the board's tables (``tables()``,
    asked for when a puzzle is on that board): None when the puzzle is sound, else why not."""

    def check(p: Puzzle) -> str | None:
        position = parse_position(p.position)
        results = {}
        if position.board is board:
            results = {board.name(c): r for c, r in tables().moves(position).items()}
        return judge(p, str(board), position, str(position.board), results)

    return check
