"""Matches between computer levels, and the ``match`` subcommand.

Game ``g`` of a match with seed ``s`` gives Red the seed :func:`game_seed` ``(s, g, "r")`` and Blue
``game_seed(s, g, "b")``; every player's choice is a pure function of its level, its seed and the
position (see :mod:`unitile_py.players`), so a match, and each game in it on its own, is reproducible.
The record of each game names both levels and seeds in its headers.

``python -m unitile_py match --red 5 --blue 1 --games 200 --seed 1 [--json] [--records FILE]``
"""

from __future__ import annotations

import argparse
import json
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .board import Board
from .coords import quote
from .errors import UnitileError
from .game import Game
from .lookups import Lookups
from .notation import Record, format_record
from .players import LEVELS, Player, make_player
from .position import BLUE, RED, Position
from .records import result_token
from .seeds import game_seed
from .tables import tables_for


@dataclass(frozen=True)
class GameResult:
    """One finished game: the moves (cells), the winner and the seconds each side spent per move."""

    start: Position
    moves: tuple[int, ...]
    winner: str
    seconds: dict[str, tuple[float, ...]]

    def record(self, headers: dict[str, str] | None = None) -> Record:
        """The game record (result ``1-0`` when Red won, ``0-1`` when Blue won)."""
        return Record(self.start, list(self.moves), dict(headers or {}), result_token(self.winner))


def play_game(red: Player, blue: Player, tables: Lookups, start: Position) -> GameResult:
    """Play one game to the end; every move goes through :meth:`Game.push`, which checks it."""
    players = {RED: red, BLUE: blue}
    seconds: dict[str, list[float]] = {RED: [], BLUE: []}
    if start.winner() is not None:
        raise UnitileError("match: the start position already has a united colour")
    game = Game(start, tables)
    clock = time.perf_counter
    while True:
        position = game.position
        player = players[position.turn]
        t0 = clock()
        cell = player.choose(position)
        seconds[position.turn].append(clock() - t0)
        try:
            game.push(cell)
        except UnitileError as exc:
            raise UnitileError(f"level {player.level} in {position}: {exc}") from None
        winner = game.winner()
        if winner is not None:
            return GameResult(start, game.moves, winner, {c: tuple(s) for c, s in seconds.items()})


@dataclass(frozen=True)
class MatchSummary:
    """Wins per side, the mean game length and the mean seconds per move of each side."""

    red_level: int
    blue_level: int
    games: int
    red_wins: int
    blue_wins: int
    mean_plies: float
    seconds_per_move: dict[str, float]

    def as_json(self) -> dict[str, Any]:
        """The summary object that ``match --json`` prints."""
        return {
            "red_wins": self.red_wins,
            "blue_wins": self.blue_wins,
            "games": self.games,
            "mean_plies": self.mean_plies,
            "seconds_per_move": {"red": self.seconds_per_move[RED], "blue": self.seconds_per_move[BLUE]},
        }

    def text(self) -> str:
        """A few lines for people."""

        def share(n: int) -> str:
            return f"{100 * n / self.games:.1f}%" if self.games else "-"

        per = self.seconds_per_move
        return "\n".join(
            [
                f"red level {self.red_level} vs blue level {self.blue_level}: {self.games} games",
                f"red wins {self.red_wins} ({share(self.red_wins)}), blue wins {self.blue_wins} "
                f"({share(self.blue_wins)})",
                f"mean game length {self.mean_plies:.2f} plies",
                f"seconds per move: red (level {self.red_level}) {per[RED]:.6f}, "
                f"blue (level {self.blue_level}) {per[BLUE]:.6f}",
            ]
        )


def summarise(red_level: int, blue_level: int, results: list[GameResult]) -> MatchSummary:
    """The summary of a list of games."""
    games = len(results)
    red_wins = sum(1 for r in results if r.winner == RED)
    per: dict[str, float] = {}
    for colour in (RED, BLUE):
        times = [t for r in results for t in r.seconds[colour]]
        per[colour] = sum(times) / len(times) if times else 0.0
    mean_plies = sum(len(r.moves) for r in results) / games if games else 0.0
    return MatchSummary(red_level, blue_level, games, red_wins, games - red_wins, mean_plies, per)


def run_match(
    red_level: int,
    blue_level: int,
    games: int,
    seed: int,
    tables: Lookups,
    start: Position,
) -> tuple[MatchSummary, list[tuple[GameResult, dict[str, str]]]]:
    """Play ``games`` games from ``start``; the summary and each game with its record headers."""
    if games < 0:
        raise UnitileError(f"match: --games {games} must be at least 0")
    played: list[tuple[GameResult, dict[str, str]]] = []
    for g in range(games):
        red_seed, blue_seed = game_seed(seed, g, RED), game_seed(seed, g, BLUE)
        result = play_game(
            make_player(red_level, red_seed, tables),
            make_player(blue_level, blue_seed, tables),
            tables,
            start,
        )
        headers = {
            "Board": str(start.board),
            "Red": f"level {red_level} seed {red_seed}",
            "Blue": f"level {blue_level} seed {blue_seed}",
            "Game": f"{g + 1} of {games}, match seed {seed}",
        }
        if start != Position.start(start.board):
            headers["Position"] = str(start)
        played.append((result, headers))
    return summarise(red_level, blue_level, [r for r, _ in played]), played


def level_arg(text: str) -> int:
    """A computer level from the command line."""
    if text.strip() not in {str(level) for level in LEVELS}:
        raise argparse.ArgumentTypeError(f"level {quote(text)}: expected 1 to 6")
    return int(text)


def cmd_match(args: argparse.Namespace) -> int:
    """Play a match and print the summary; optionally write every record."""
    board = Board.parse(args.board)
    if args.games < 0:
        raise UnitileError(f"--games {args.games}: must be 0 or more")
    records_path = Path(args.records) if args.records else None
    if records_path is not None and not records_path.parent.is_dir():
        raise UnitileError(f"--records {args.records}: no directory {records_path.parent}")
    tables = tables_for(board, args.tables)
    summary, played = run_match(args.red, args.blue, args.games, args.seed, tables, Position.start(board))
    if records_path is not None:
        text = "\n".join(format_record(result.record(headers)) for result, headers in played)
        try:
            records_path.write_text(text, encoding="utf-8")
        except OSError as exc:
            raise UnitileError(f"--records {args.records}: {exc.strerror or exc}") from None
    if args.json:
        print(json.dumps(summary.as_json()))
    else:
        print(summary.text())
        if records_path is not None:
            print(f"records: {records_path}")
    return 0


def register(sub: Any) -> None:
    """Add the ``match`` subcommand to the command line's subparsers."""
    p = sub.add_parser("match", help="play computer levels against each other")
    p.add_argument("--red", type=level_arg, required=True, help="Red's level, 1 to 6")
    p.add_argument("--blue", type=level_arg, required=True, help="Blue's level, 1 to 6")
    p.add_argument("--games", type=int, default=100, help="number of games (default 100)")
    p.add_argument("--seed", type=int, default=1, help="match seed; the same seed plays the same games")
    p.add_argument("--json", action="store_true", help="print the summary as one JSON object")
    p.add_argument("--records", metavar="FILE", help="write every game record to FILE")
    p.add_argument("--board", default="5x5", help="board size with tables, such as 5x5 (default) or 3x5")
    p.add_argument("--tables", metavar="DIR", help="directory of the tables (default: the committed ones)")
    p.set_defaults(func=cmd_match)


__all__ = [
    "GameResult",
    "MatchSummary",
    "play_game",
    "register",
    "run_match",
    "summarise",
]
