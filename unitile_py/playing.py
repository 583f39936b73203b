"""What both games share for playing: the game and player protocols and the match runner.

A game object (Unitile's :class:`unitile_py.unitile.game.Game`, Naked Diagonal's
:class:`unitile_py.naked_diagonal.game.Game`) owns legality; a player returns a move for a position.
Here they meet: :func:`play_game` plays two players to the end and :func:`run_games` plays a match with
reproducible seeds (:func:`unitile_py.seeds.game_seed`). The command line's side of a match is
:mod:`unitile_py.match_command`; a person playing in the terminal is :mod:`unitile_py.terminal`.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

from .colours import BLUE, RED
from .errors import GameError
from .seeds import game_seed

#: The position type a player reads (each game's ``Position``).
P_contra = TypeVar("P_contra", contravariant=True)


class Playable(Protocol):
    """A game in progress (each game's ``Game`` class)."""

    headers: dict[str, str]

    @property
    def start(self) -> Any:
        """The start position."""
        ...

    @property
    def position(self) -> Any:
        """The current position; its ``turn`` is the side to move."""
        ...

    @property
    def moves(self) -> tuple[int, ...]:
        """The moves so far."""
        ...

    def winner(self) -> str | None:
        """The winning colour once the game is over."""
        ...

    def is_over(self) -> bool:
        """True once there is a winner."""
        ...

    def legal_moves(self) -> tuple[int, ...]:
        """The legal moves of the side to move."""
        ...

    def why_illegal(self, move: int) -> str | None:
        """None for a legal move, else why not."""
        ...

    def push(self, move: int) -> Any:
        """Play a legal move; :class:`GameError` otherwise."""
        ...

    def push_name(self, name: str) -> None:
        """Play a legal move named in the notation; :class:`GameError` otherwise."""
        ...

    def name_of(self, move: int) -> str:
        """A move as the notation writes it."""
        ...

    def move_of(self, text: str) -> int:
        """The move a notation name stands for; :class:`GameError` for none."""
        ...

    def record_text(self) -> str:
        """The game as a record."""
        ...


class Player(Protocol[P_contra]):
    """A computer player of either game, made from a level and a seed: ``choose`` returns a legal move
    for the side to move (Unitile: the cell of the tile to slide; Naked Diagonal: the point to place on).

    Every random draw comes from ``rng``; without one, the player uses
    :func:`unitile_py.seeds.position_rng` of its seed and the position, so its choice is a pure function
    of its level, its seed and the position, and a seeded game is reproducible move for move.
    """

    level: int
    seed: int

    def choose(self, position: P_contra, rng: random.Random | None = None) -> int:
        """A legal move for the side to move of ``position``."""
        ...


@dataclass(frozen=True)
class GameResult:
    """One finished game, the winner and the seconds each side spent per move."""

    game: Playable
    winner: str
    seconds: dict[str, tuple[float, ...]]

    @property
    def moves(self) -> tuple[int, ...]:
        """The moves of the game."""
        return self.game.moves

    @property
    def start(self) -> Any:
        """The start position of the game."""
        return self.game.start


def play_game(game: Playable, red: Player[Any], blue: Player[Any]) -> GameResult:
    """Play ``game`` to the end; every move goes through ``game.push``, which checks it."""
    players = {RED: red, BLUE: blue}
    seconds: dict[str, list[float]] = {RED: [], BLUE: []}
    if game.is_over():
        raise GameError("match: the game is over before it starts")
    clock = time.perf_counter
    while True:
        position = game.position
        player = players[position.turn]
        t0 = clock()
        move = player.choose(position)
        seconds[position.turn].append(clock() - t0)
        try:
            game.push(move)
        except GameError as exc:
            raise GameError(f"level {player.level} in {position}: {exc}") from None
        winner = game.winner()
        if winner is not None:
            return GameResult(game, winner, {c: tuple(s) for c, s in seconds.items()})


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


def summarise(red_level: int, blue_level: int, results: Sequence[GameResult]) -> MatchSummary:
    """The summary of a list of games."""
    games = len(results)
    red_wins = sum(1 for r in results if r.winner == RED)
    per: dict[str, float] = {}
    for colour in (RED, BLUE):
        times = [t for r in results for t in r.seconds[colour]]
        per[colour] = sum(times) / len(times) if times else 0.0
    mean_plies = sum(len(r.moves) for r in results) / games if games else 0.0
    return MatchSummary(red_level, blue_level, games, red_wins, games - red_wins, mean_plies, per)


def run_games(
    red_level: int,
    blue_level: int,
    games: int,
    seed: int,
    new_game: Callable[[], Playable],
    make_player: Callable[[int, int], Player[Any]],
    on_game: Callable[[GameResult], None] | None = None,
) -> tuple[MatchSummary, list[GameResult]]:
    """Play ``games`` games of fresh ``new_game()`` objects; side ``c`` of game ``g`` gets the seed
    ``game_seed(seed, g, c)``, named with the level in the game's ``Red``/``Blue`` headers.
    ``on_game`` is called with each game as it ends."""
    if games < 0:
        raise GameError(f"match: --games {games} must be at least 0")
    played: list[GameResult] = []
    for g in range(games):
        red_seed, blue_seed = game_seed(seed, g, RED), game_seed(seed, g, BLUE)
        game = new_game()
        game.headers.update(
            {
                "Red": f"level {red_level} seed {red_seed}",
                "Blue": f"level {blue_level} seed {blue_seed}",
                "Round": f"{g + 1} of {games}, match seed {seed}",
            }
        )
        played.append(play_game(game, make_player(red_level, red_seed), make_player(blue_level, blue_seed)))
        if on_game is not None:
            on_game(played[-1])
    return summarise(red_level, blue_level, played), played



__all__ = [
    "GameResult",
    "MatchSummary",
    "Playable",
    "Player",
    "play_game",
    "run_games",
    "summarise",
]
