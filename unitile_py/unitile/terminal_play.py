"""The ``play`` subcommand: a game in the terminal between people and computer levels.

``python -m unitile_py play --red human --blue 6`` draws the board before every move. A person types
a move as the cell of the tile to slide (``c4``), ``hint`` for the slide level 6 would choose, or
``quit``; anything else is explained and asked again. End of input leaves the game cleanly. The
record is printed at the end. A computer side with ``--seed S`` plays exactly as in game 1 of
``match --seed S``.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import Any

from .. import terminal
from ..colours import BLUE, RED
from ..errors import UnitileError
from ..match_command import side_type
from ..terminal import HUMAN
from .board import Board
from .drawing import draw
from .game import Game
from .lookups import Lookups
from .notation import Record, parse_position
from .players import LEVELS, hint, make_player
from .position import Position
from .tables import tables_for


def play_in_terminal(
    sides: dict[str, str],
    seed: int,
    tables: Lookups,
    start: Position,
    read: Callable[[str], str] = input,
    write: Callable[[str], None] = print,
) -> Record:
    """Play one game; ``sides`` maps each colour to ``"human"`` or a level. The record of the game."""
    players = terminal.players_of(sides, seed, lambda level, side_seed: make_player(level, side_seed, tables))
    game = Game(start, tables)
    terminal.play_in_terminal(game, dict(players), draw, lambda p: hint(p, tables), read, write)
    return game.record()


def cmd_play(args: argparse.Namespace) -> int:
    """Run the ``play`` subcommand."""
    start = parse_position(args.position) if args.position else Position.start(Board.parse(args.board))
    if args.position and args.board != "5x5" and Board.parse(args.board) is not start.board:
        raise UnitileError(f"--position is a {start.board} position, not {args.board}")
    if start.winner() is not None:
        raise UnitileError("--position: a colour is already united; the game is over")
    tables = tables_for(start.board, args.tables)
    play_in_terminal({RED: args.red, BLUE: args.blue}, args.seed, tables, start)
    return 0


def register(sub: Any) -> None:
    """Add the ``play`` subcommand to the command line's subparsers."""
    p = sub.add_parser("play", help="play a game in the terminal")
    p.add_argument("--red", type=side_type(LEVELS), default=HUMAN, help="human (default) or a level 1 to 6")
    p.add_argument("--blue", type=side_type(LEVELS), default="6", help="human or a level 1 to 6 (default 6)")
    p.add_argument("--seed", type=int, default=1, help="seed of the computer sides")
    p.add_argument("--board", default="5x5", help="board size with tables (default 5x5)")
    p.add_argument("--position", help="start from this position instead of the usual start")
    p.add_argument("--tables", metavar="DIR", help="directory of the tables (default: the committed ones)")
    p.set_defaults(func=cmd_play)


__all__ = ["HUMAN", "play_in_terminal", "register"]
