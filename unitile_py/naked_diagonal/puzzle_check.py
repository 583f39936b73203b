"""The check of a Naked Diagonal puzzle against the rules and a size's tables
(:func:`unitile_py.puzzles.judge`): what the ``puzzles`` command and the web service ask of every puzzle
before they answer from it."""

from __future__ import annotations

from ..puzzles import Check, Puzzle, judge
from ..table_io import Directory
from .position import Position
from .tables import tables_for


def puzzle_check(n: int, directory: Directory = None) -> Check:
    """The check of a puzzle of the ``n`` x ``n`` file, with the tables of that size in ``directory``
    (default: the committed ones): None when the puzzle is sound, else why not."""

    def check(p: Puzzle) -> str | None:
        position = Position.parse(p.position)
        m = position.grid.n
        results = {}
        if m == n:
            results = {position.grid.name(q): r for q, r in tables_for(n, directory).moves(position).items()}
        return judge(p, f"{n}x{n}", position, f"{m}x{m}", results)

    return check
