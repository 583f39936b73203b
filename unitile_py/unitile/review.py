"""The ``review`` subcommand: every ply of a Unitile game judged from the lookup tables.

For each move of a record: the position before it, the mover, the mover's result with perfect play
before and after the move (``{"outcome": "win" | "loss", "distance": plies to the end}``, the move
counted after it), the slides perfect play could choose there, and the verdict of
:func:`unitile_py.review.verdict` (``best``, ``good``, ``inaccuracy``, ``mistake``).

``python -m unitile_py review FILE|- [--json] [--tables DIR]`` reads one record (a file, or standard
input for ``-``; every move checked by the value rule) and prints a table with a summary of each
side's mistakes and inaccuracies, or with ``--json`` one JSON object a ply: ``ply``, ``move``,
``mover``, ``position``, ``before``, ``after``, ``best``, ``verdict``. A bad record, or a board whose
tables are not there, is one line and exit status 2.

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
"""

from __future__ import annotations

import argparse
from typing import Any

from ..errors import GameError, UnitileError
from ..inputs import read_text
from ..review import ply_row, print_review, review_of
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


def cmd_review(args: argparse.Namespace) -> int:
    """Review the game of one record."""
    text = read_text(args.file)
    try:
        review = review_text(text, directory=args.tables)
    except GameError as exc:
        raise UnitileError(f"{args.file}: {exc}") from None
    return print_review(review, args.json, "plies")


def register(sub: Any) -> None:
    """Add the ``review`` subcommand to the command line's subparsers."""
    p = sub.add_parser("review", help="judge every move of a game record from the tables")
    p.add_argument("file", help="record file, or - for standard input")
    p.add_argument(
        "--json",
        action="store_true",
        help='one line per ply: {"ply", "move", "mover", "position", "before", "after", "best", "verdict"}',
    )
    p.add_argument("--tables", metavar="DIR", help="directory of the tables (default: the committed ones)")
    p.set_defaults(func=cmd_review)


__all__ = ["cmd_review", "register", "review_game", "review_text"]
