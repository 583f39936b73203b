"""``nd match``: computer levels against each other, from the empty board or a ``--position``."""

from __future__ import annotations

import argparse
from typing import Any

from ..match_command import add_match_arguments, report_match
from ..playing import run_games
from .game import Game
from .players import make_player
from .terminal_play import ALL_LEVELS, SIZE_HELP, start_of_args


def cmd_match(args: argparse.Namespace) -> int:
    """Computer levels against each other."""
    start = start_of_args(args)
    return report_match(
        args,
        lambda on_game: run_games(args.red, args.blue, args.games, args.seed, lambda: Game(start),
                                  make_player, on_game),
    )


def register(cmds: Any) -> None:
    """Add ``match`` to Naked Diagonal's subparsers."""
    match = cmds.add_parser("match", help="play computer levels against each other")
    add_match_arguments(match, ALL_LEVELS)
    match.add_argument("--size", help=SIZE_HELP)
    match.add_argument("--position", help="start every game from this position")
    match.set_defaults(func=cmd_match)


__all__ = ["cmd_match", "register"]
