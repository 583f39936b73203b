"""``nd play``: a game in the terminal between people and computer levels; and the start that ``play``
and ``match`` (:mod:`.match`) check before any game begins."""

from __future__ import annotations

import argparse
from typing import Any

from ..colours import BLUE, RED
from ..errors import NakedDiagonalError
from ..match_command import side_type
from ..terminal import HUMAN, play_in_terminal, players_of
from .bans import game_over
from .drawing import checked_size, draw, parse_position
from .game import Game
from .legality import check_start
from .notation import DEFAULT_SIZE, parse_size
from .players import LEVELS, PERFECT, best_hint, levels_for, make_player, perfect_sizes
from .position import Position

#: Every level a side may be: levels 1 to 5 and perfect play.
ALL_LEVELS = (*LEVELS, PERFECT)
#: The help of ``--size``.
SIZE_HELP = f"board size NxN (default {DEFAULT_SIZE}x{DEFAULT_SIZE}; with --position, its size)"


def start_of_args(args: argparse.Namespace) -> Position:
    """The start of ``play`` and ``match``, checked with the levels of ``--red`` and ``--blue`` before
    any game starts (level 6 plays only on the sizes with tables or a strategy)."""
    size = args.size or f"{DEFAULT_SIZE}x{DEFAULT_SIZE}"
    if args.position:
        start = parse_position(args.position)
        n = start.grid.n
        if args.size is not None and parse_size(args.size) != n:
            raise NakedDiagonalError(f"--size {args.size}: the --position is on a {n}x{n} board")
    else:
        start = checked_size(Position.empty(parse_size(size)))
    over = game_over(start)  # the rule of legal, why, analyze and the web API
    if over is not None:
        raise NakedDiagonalError(f"--position: {over}")
    try:
        check_start(start)  # the web API's rule: no start with an NDE area (no placement is legal there)
    except NakedDiagonalError as exc:
        raise NakedDiagonalError(f"--position: {exc}") from None
    n = start.grid.n
    for name in ("red", "blue"):
        level = getattr(args, name)
        if str(level).isdigit() and int(level) not in levels_for(n):
            sizes = ", ".join(f"{k}x{k}" for k in perfect_sizes()) or "no size"
            raise NakedDiagonalError(f"--{name} {level}: level {PERFECT} (perfect) plays on {sizes}, "
                                     f"not {n}x{n}")
    return start


def cmd_play(args: argparse.Namespace) -> int:
    """A game in the terminal between people and computer levels."""
    players = players_of({RED: args.red, BLUE: args.blue}, args.seed, make_player)
    play_in_terminal(Game(start_of_args(args)), dict(players), draw, lambda position: best_hint(position)[0])
    return 0


def register(cmds: Any) -> None:
    """Add ``play`` and ``match`` to Naked Diagonal's subparsers."""
    play = cmds.add_parser("play", help="play a game in the terminal")
    play.add_argument(
        "--red", type=side_type(ALL_LEVELS), default=HUMAN, help="human (default) or a level 1 to 6"
    )
    play.add_argument(
        "--blue", type=side_type(ALL_LEVELS), default="3", help="human or a level 1 to 6 (default 3)"
    )
    play.add_argument("--seed", type=int, default=1, help="seed of the computer sides")
    play.add_argument("--size", help=SIZE_HELP)
    play.add_argument("--position", help="start from this position instead of the empty board")
    play.set_defaults(func=cmd_play)


__all__ = ["ALL_LEVELS", "SIZE_HELP", "cmd_play", "register", "start_of_args"]
