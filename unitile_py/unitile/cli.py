"""Unitile's commands of ``python -m unitile_py`` (:mod:`unitile_py.cli`): show, slides, record, and
the match, play, analyze and review commands of :mod:`.match`, :mod:`.terminal_play`, :mod:`.analyze`
and :mod:`.review`.

User errors (a malformed position, record or move, a move the rules forbid, a missing file) print one
line to standard error and exit with status 2; there is no traceback.
"""

from __future__ import annotations

import argparse
from typing import Any

from .. import puzzle_command
from ..errors import GameError, UnitileError
from ..mistake_puzzles import run_from
from ..record_files import add_game_option
from ..terminal import show_after, show_record
from . import analyze, match, review, terminal_play
from .board import Board
from .drawing import draw
from .game import Game
from .lookups import ADJACENT_ONLY, Lookups
from .notation import parse_position, parse_record
from .puzzle_check import puzzle_check
from .tables import tables_for


def rules_for(board: Board, args: argparse.Namespace) -> Lookups:
    """The rules a command checks moves with: the board's tables, or adjacency only when asked."""
    if getattr(args, "adjacent_only", False):
        return ADJACENT_ONLY
    directory = getattr(args, "tables", None)
    try:
        return tables_for(board, directory)
    except GameError as exc:
        if not hasattr(args, "adjacent_only"):
            raise
        hint = "--adjacent-only checks only that each tile is next to the bubble"
        raise UnitileError(f"{exc}; {hint}") from None


def cmd_show(args: argparse.Namespace) -> int:
    """Draw a position, after the given moves if any (each checked by the rules)."""
    start = parse_position(args.position)
    rules = rules_for(start.board, args) if args.moves else ADJACENT_ONLY
    return show_after(Game(start, rules), args.moves, draw)


def cmd_record(args: argparse.Namespace) -> int:
    """Check a game record (every move by the rules) and print it normalised, then the final position."""

    def load(text: str) -> Game:
        record = parse_record(text)
        return Game.from_record(record, rules_for(record.start.board, args))

    return show_record(args.file, load, draw, UnitileError, args.game)


def cmd_slides(args: argparse.Namespace) -> int:
    """List the tiles that can legally slide (value rule from the tables), by name in alphabetical order."""
    position = parse_position(args.position)
    rules = rules_for(position.board, args)
    print(" ".join(sorted(position.board.name(c) for c in Game(position, rules).legal_moves())))
    return 0


def cmd_puzzles(args: argparse.Namespace) -> int:
    """Print puzzles of the shipped puzzle file, chosen by the seed (:mod:`unitile_py.puzzle_command`), or
    with ``--from FILE`` the mistakes of its games (:mod:`unitile_py.mistake_puzzles`)."""
    if args.source is not None:
        return run_from(args, lambda text: review.review_text(text, directory=args.tables),
                        lambda text: analyze.analyse_text(text, args.tables), "plies",
                        lambda text: draw(parse_position(text)), UnitileError)  # fmt: skip
    board = Board.parse(args.board)

    check = puzzle_check(board, lambda: tables_for(board, args.tables))
    return puzzle_command.run(args, "unitile", str(board), "plies", lambda text: draw(parse_position(text)),
                              check)  # fmt: skip


def register(sub: Any) -> None:
    """Add Unitile's commands to the command line's subparsers (:mod:`unitile_py.cli`)."""
    tables_help = "directory of the tables (default: the committed ones)"
    show = sub.add_parser("show", help="draw a position with the group counts, after moves if given")
    show.add_argument("position", help='position text, such as "BRBRB/RBRBR/BR.BR/BRBRB/RBRBR r"')
    show.add_argument("moves", nargs="*", help="moves to play first, such as c4 d4 (checked by the rules)")
    show.add_argument("--tables", metavar="DIR", help=tables_help)
    show.add_argument(
        "--adjacent-only", action="store_true", help="check only that each tile is next to the bubble"
    )
    show.set_defaults(func=cmd_show)
    slides = sub.add_parser("slides", help="list the tiles that can legally slide (from the tables)")
    slides.add_argument("position", help="position text")
    slides.add_argument("--tables", metavar="DIR", help=tables_help)
    slides.set_defaults(func=cmd_slides)
    record = sub.add_parser("record", help="check a game record, print it normalised and draw the end")
    record.add_argument("file", help="record file (one game or several), or - for standard input")
    add_game_option(record)
    record.add_argument("--tables", metavar="DIR", help=tables_help)
    record.add_argument(
        "--adjacent-only",
        action="store_true",
        help="check only that each tile is next to the bubble (for boards without tables)",
    )
    record.set_defaults(func=cmd_record)
    for commands in (match, terminal_play, analyze, review):
        commands.register(sub)
    puzzle_command.add_command(sub, "slide", ("--board", "5x5", "ROWSxCOLS of a board"), cmd_puzzles)


__all__ = ["register", "rules_for"]
