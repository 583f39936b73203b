"""The ``review`` subcommand: every ply of a Unitile game judged from the lookup tables.

For each move of a record: the position before it, the mover, the mover's result with perfect play
before and after the move (``{"outcome": "win" | "loss", "distance": plies to the end}``, the move
counted after it), the slides perfect play could choose there, and the verdict of
:func:`unitile_py.review.verdict` (``best``, ``good``, ``inaccuracy``, ``mistake``).

``python -m unitile_py review FILE|- [--json] [--game N] [--tables DIR]`` reads a file of records (one
or several games, :mod:`unitile_py.record_files`; standard input for ``-``; every move checked by the
value rule) and prints for each game a table with a summary of each side's mistakes, inaccuracies and
accuracy, or with ``--json`` one JSON object a ply: ``ply``, ``move``, ``mover``, ``position``,
``before``, ``after``, ``best``, ``verdict``, then ``{"summary": ...}``
(:func:`unitile_py.review.print_review`). A bad record, or a board whose tables are not there, is one
line and exit status 2.

On the 3x3 board (whose start is Red's loss in 5), Red hastens the loss and Blue then throws the win away:

>>> from unitile_py.review import format_review
>>> from unitile_py.unitile.tables import tables_for
>>> review = review_text('[Board "3x3"]\\n1. b1 c1 2. c2 b2 3. b3 1-0', tables_for("3x3"))
>>> print(format_review(review, "plies"))
ply  mover  move  before   after    verdict     best
  1  red    b1    loss 5   loss 4   inaccuracy  b3
  2  blue   c1    win 3    loss 4   mistake     a1
  3  red    c2    win 3    win 3    best
  4  blue   b2    loss 2   loss 2   best
  5  red    b3    win 1    win 1    best
results: the mover's outcome and plies to the end with perfect play
red: 0 mistakes, 1 inaccuracy; blue: 1 mistake, 0 inaccuracies
accuracy (result, distance): red 100.0% (3/3), 66.7% (2/3); blue 50.0% (1/2), 100.0% (1/1)
"""

from __future__ import annotations

from typing import Any

from ..errors import UnitileError
from ..review import add_review_command, ply_row, review_of
from .game import Game
from .lookups import Lookups
from .notation import parse_record
from .tables import tables_for


def review_game(game: Game, rules: Lookups) -> dict[str, Any]:
    """The review of a game's moves as plain data, ``{"plies": [...], "summary": {...}}``
    (:func:`unitile_py.review.review_of`), the results from ``rules`` (lookup tables: a board without
    perfect play is a :class:`UnitileError`)."""
    name = game.board.name
    rows = []
    for i, cell in enumerate(game.moves):
        position = game.positions[i]
        before = rules.outcome(position)
        after = rules.after(position, cell)
        best = [name(c) for c in rules.best(position)]
        rows.append(ply_row(i + 1, name(cell), position.turn, str(position), before, after, best))
    return review_of(rows)


def review_text(text: str, rules: Lookups | None = None, directory: str | None = None) -> dict[str, Any]:
    """:func:`review_game` of a record's text, every move checked, with ``rules`` or else the tables of
    its board (from ``directory``, default the committed ones)."""
    record = parse_record(text)
    if rules is None:
        rules = tables_for(record.start.board, directory)
    return review_game(Game.from_record(record, rules), rules)


def register(sub: Any) -> None:
    """Add the ``review`` subcommand to the command line's subparsers."""
    add_review_command(sub, "judge every move of a game record from the tables",
                       "directory of the tables (default: the committed ones)",
                       lambda text, tables: review_text(text, directory=tables), UnitileError, "ply",
                       "plies")


__all__ = ["register", "review_game", "review_text"]
