"""``nd review``: every turn of a Naked Diagonal game judged from the tables of the solved sizes.

For each turn of a record on a size with tables (2x2, 3x3, 4x4: :mod:`.tables`): the position before
it, the mover, the mover's result with perfect play before and after the placement (``{"outcome":
"win" | "loss", "distance": placements to the end}``, the placement counted after it), the placements
perfect play could choose there, and the verdict of :func:`unitile_py.review.verdict` (``best``,
``good``, ``inaccuracy``, ``mistake``).

Two choices, documented in docs/players.md ("Review"):

* **5x5 is refused**, in one line: its folder holds a strategy (the stored proof that Red wins), which
  says who wins but not in how many placements, and from the winner's side only; a review needs the
  distance before and after every turn. Sizes without tables are refused the same way (exit status 2
  on the command line, an error reply from the web API).
* **A skipped turn is a ply of its own**, as the record writes it: ``move`` ``"skip"``, ``mover`` the
  side whose turn was skipped, ``position`` the position it had no placement in, ``before`` and
  ``after`` both that side's result (a skip places nothing, so it counts no placement), ``best``
  ``["skip"]`` and the verdict ``best`` (it was the only turn there was). No game reaches a skip
  (docs/naked-diagonal.md, Fact 5), but the engine keeps the rule, and so does the review.

``python -m unitile_py nd review FILE|- [--json] [--game N] [--tables DIR]`` prints, for each game of
the file (one or several records, :mod:`unitile_py.record_files`), a table with each side's mistakes,
inaccuracies and accuracy, or with ``--json`` one JSON object a turn (``ply``, ``move``, ``mover``,
``position``, ``before``, ``after``, ``best``, ``verdict``), then ``{"summary": ...}``; a bad record is
one line, exit status 2.

A random game on 3x3, which Red wins from the empty board in 9 placements:

>>> from unitile_py.review import format_review
>>> review = review_text('[Board "3x3"]\\n1. b2 a1 2. b3 c2 3. c3 c1 4. a3 a2 5. b1 1-0')
>>> print(format_review(review, "placements"))
ply  mover  move  before   after    verdict     best
  1  red    b2    win 9    loss 6   mistake     a2 c2
  2  blue   a1    win 5    loss 6   mistake     b1 b3
  3  red    b3    win 5    loss 4   mistake     c2
  4  blue   c2    win 3    loss 2   mistake     b1
  5  red    c3    win 1    win 3    inaccuracy  b1
  6  blue   c1    loss 2   loss 2   best
  7  red    a3    win 1    loss 2   mistake     b1
  8  blue   a2    win 1    loss 2   mistake     b1
  9  red    b1    win 1    win 1    best
results: the mover's outcome and placements to the end with perfect play
red: 3 mistakes, 1 inaccuracy; blue: 3 mistakes, 0 inaccuracies
accuracy (result, distance): red 40.0% (2/5), 50.0% (1/2); blue 25.0% (1/4), 100.0% (1/1)
"""

from __future__ import annotations

from typing import Any

from ..errors import NakedDiagonalError
from ..records import split_record
from ..review import add_review_command, best_of, ply_row, review_of
from ..table_io import Directory, folder_of, manifest_kind, root_of
from .game import Game, parse_record
from .keys import default_root
from .notation import SKIP, SKIP_WORD, start_of
from .strategy import KIND
from .tables import NDTables, solved_sizes, tables_for


def review_tables(n: int, directory: Directory = None) -> NDTables:
    """The tables a review of the n x n board reads (from ``directory``, default the committed ones);
    a size with a strategy or with no tables is one line saying why it has no review.

    >>> review_tables(4).n
    4
    >>> review_tables(6)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
        ...
    unitile_py.errors.NakedDiagonalError: review: no tables of the 6x6 board (sizes with tables: 2x2, ...)
    """
    root = root_of(directory, default_root)
    sizes = ", ".join(f"{k}x{k}" for k in solved_sizes(root)) or "none"
    board = f"{n}x{n}"
    if manifest_kind(folder_of(root, board)) == KIND:
        raise NakedDiagonalError(
            f"review: {board} is solved by a stored strategy, which says who wins but not in how many "
            f"placements; a review needs the tables' distances (sizes with tables: {sizes})"
        )
    if not (folder_of(root, board) / "manifest.json").is_file():
        raise NakedDiagonalError(f"review: no tables of the {board} board (sizes with tables: {sizes})")
    return tables_for(n, directory)


def review_game(game: Game, tables: NDTables) -> dict[str, Any]:
    """The review of a game's turns as plain data, ``{"plies": [...], "summary": {...}}``
    (:func:`unitile_py.review.review_of`); a start the tables do not hold is a
    :class:`NakedDiagonalError`."""
    name = game.grid.name
    rows = []
    tables.outcome(game.positions[0])  # a start the tables do not hold is refused, even with no turn
    for i, move in enumerate(game.moves):
        position = game.positions[i]
        if move == SKIP:
            # The mover of the placement before moves again: the skipped side's result is the opposite.
            theirs, distance = tables.outcome(game.positions[i + 1])
            mine = ("loss" if theirs == "win" else "win", distance)
            rows.append(ply_row(i + 1, SKIP_WORD, position.turn, str(position), mine, mine, [SKIP_WORD]))
            continue
        before = tables.outcome(position)
        moves = tables.moves(position)
        best = [name(p) for p in best_of(moves)]
        rows.append(ply_row(i + 1, name(move), position.turn, str(position), before, moves[move], best))
    return review_of(rows)


def review_text(text: str, directory: Directory = None) -> dict[str, Any]:
    """:func:`review_game` of a record's text: the board's tables are found (:func:`review_tables`)
    before any turn is replayed, then every turn is checked."""
    tables = review_tables(start_of(split_record(text).headers).grid.n, directory)
    return review_game(Game.from_record(parse_record(text)), tables)


def register(cmds: Any) -> None:
    """Add ``review`` to the subparsers of ``naked-diagonal``."""
    add_review_command(cmds, "judge every turn of a game record on a size with tables (2x2-4x4)",
                       "tables folder (default tables/naked-diagonal)", review_text, NakedDiagonalError,
                       "turn", "placements")


__all__ = ["register", "review_game", "review_tables", "review_text"]
