"""Matches between computer levels, and the ``match`` subcommand (the runner is shared: :mod:`playing`).

Game ``g`` of a match with seed ``s`` gives Red the seed :func:`unitile_py.seeds.game_seed`
``(s, g, "r")`` and Blue ``game_seed(s, g, "b")``; every player's choice is a pure function of its
level, its seed and the position (see :mod:`unitile_py.unitile.players`), so a match, and each game in it on
its own, is reproducible. The record of each game names both levels and seeds in its headers.

``python -m unitile_py match --red 5 --blue 1 --games 200 --seed 1 [--json] [--records FILE]``
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import Any

from .. import playing
from ..match_command import add_match_arguments, report_match
from ..playing import GameResult, MatchSummary, Player, run_games
from .board import Board
from .game import Game
from .lookups import Lookups
from .players import LEVELS, make_player
from .position import Position
from .tables import tables_for


def play_game(red: Player[Position], blue: Player[Position], tables: Lookups, start: Position) -> GameResult:
    """Play one game from ``start`` to the end; every move goes through :meth:`Game.push`."""
    return playing.play_game(Game(start, tables), red, blue)


def run_match(
    red_level: int,
    blue_level: int,
    games: int,
    seed: int,
    tables: Lookups,
    start: Position,
    on_game: Callable[[GameResult], None] | None = None,
) -> tuple[MatchSummary, list[GameResult]]:
    """Play ``games`` games from ``start``: the summary, and each game (its record names the players);
    ``on_game`` is called with each game as it ends."""
    return run_games(
        red_level,
        blue_level,
        games,
        seed,
        lambda: Game(start, tables),
        lambda level, player_seed: make_player(level, player_seed, tables),
        on_game,
    )


def cmd_match(args: argparse.Namespace) -> int:
    """Play a match and print the summary; optionally write every record."""
    board = Board.parse(args.board)
    tables = tables_for(board, args.tables)
    start = Position.start(board)
    return report_match(
        args, lambda on_game: run_match(args.red, args.blue, args.games, args.seed, tables, start, on_game)
    )


def register(sub: Any) -> None:
    """Add the ``match`` subcommand to the command line's subparsers."""
    p = sub.add_parser("match", help="play computer levels against each other")
    add_match_arguments(p, LEVELS)
    p.add_argument("--board", default="5x5", help="board size with tables, such as 5x5 (default) or 3x5")
    p.add_argument("--tables", metavar="DIR", help="directory of the tables (default: the committed ones)")
    p.set_defaults(func=cmd_match)


__all__ = ["GameResult", "MatchSummary", "cmd_match", "play_game", "register", "run_match"]
