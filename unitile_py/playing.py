"""What both games share for playing: the game and player protocols, the match runner, the terminal loop.

A game object (Unitile's :class:`unitile_py.unitile.game.Game`, Naked Diagonal's
:class:`unitile_py.naked_diagonal.game.Game`) owns legality; a player returns a move for a position.
Here they meet: :func:`play_game` plays two players to the end, :func:`run_games` plays a match with
reproducible seeds (:func:`unitile_py.seeds.game_seed`), :func:`ask_human` and
:func:`play_in_terminal` let a person play in the terminal, and :func:`show_after` and :func:`show_record`
are the ``show`` and ``record`` commands of both.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import random
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol, TypeVar

from .colours import BLUE, RED
from .coords import quote
from .errors import GameError
from .inputs import read_text
from .seeds import game_seed

NAMES = {RED: "red", BLUE: "blue"}
HUMAN = "human"

#: The position type a player reads (each game's ``Position``).
P_contra = TypeVar("P_contra", contravariant=True)
P = TypeVar("P")


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


def level_type(levels: Sequence[int]) -> Callable[[str], int]:
    """An argparse type for a computer level among ``levels``."""

    def level(text: str) -> int:
        if text.strip() not in {str(v) for v in levels}:
            raise argparse.ArgumentTypeError(f"level {quote(text)}: expected {levels[0]} to {levels[-1]}")
        return int(text)

    return level


def side_type(levels: Sequence[int]) -> Callable[[str], str]:
    """An argparse type for ``human`` or a computer level among ``levels``."""

    def side(text: str) -> str:
        value = text.strip().lower()
        if value != HUMAN and value not in {str(v) for v in levels}:
            raise argparse.ArgumentTypeError(
                f"{quote(text)}: expected human or a level {levels[0]} to {levels[-1]}"
            )
        return value

    return side


def add_match_arguments(p: argparse.ArgumentParser, levels: Sequence[int]) -> None:
    """The arguments every game's ``match`` command takes."""
    span = f"{levels[0]} to {levels[-1]}"
    p.add_argument("--red", type=level_type(levels), required=True, help=f"Red's level, {span}")
    p.add_argument("--blue", type=level_type(levels), required=True, help=f"Blue's level, {span}")
    p.add_argument("--games", type=int, default=100, help="number of games (default 100)")
    p.add_argument("--seed", type=int, default=1, help="match seed; the same seed plays the same games")
    p.add_argument("--json", action="store_true", help="print the summary as one JSON object")
    p.add_argument("--records", metavar="FILE", help="write every game record to FILE")


#: What ``match`` runs: given the function to call with each game as it ends, the summary and the games.
MatchRun = Callable[[Callable[[GameResult], None]], tuple[MatchSummary, list[GameResult]]]


def report_match(args: argparse.Namespace, play: MatchRun) -> int:
    """Check ``--records`` (opened before the first game), run ``play``, writing each game's record as
    it ends, and print the summary. Ctrl-C keeps the records of the finished games (exit status 130)."""
    if args.games < 0:
        raise GameError(f"--games {args.games}: must be 0 or more")
    records_path = Path(args.records) if args.records else None
    records = None
    if records_path is not None:
        if not records_path.parent.is_dir():
            raise GameError(f"--records {args.records}: no directory {records_path.parent}")
        try:
            records = records_path.open("w", encoding="utf-8")
        except OSError as exc:
            raise GameError(f"--records {args.records}: {exc.strerror or exc}") from None
    written = 0

    def write(result: GameResult) -> None:
        nonlocal written
        if records is None:
            return
        try:
            records.write(("\n" if written else "") + result.game.record_text())
            records.flush()
        except OSError as exc:
            raise GameError(f"--records {args.records}: {exc.strerror or exc} "
                            f"(after {written} games)") from None
        written += 1

    try:
        summary, _ = play(write)
    except KeyboardInterrupt:
        kept = f"; the {written} finished games are in {records_path}" if records_path else ""
        print(f"interrupted{kept}", file=sys.stderr)
        return 130
    finally:
        if records is not None:
            with contextlib.suppress(OSError):
                records.close()
    if args.json:
        print(json.dumps(summary.as_json()))
    else:
        print(summary.text())
        if records_path is not None:
            print(f"records: {records_path}")
    return 0


def show_after(game: Playable, names: Sequence[str], draw: Callable[[Any], str]) -> int:
    """What each game's ``show`` command does: play the moves ``names`` (each checked by the rules),
    then print ``draw`` of the position reached."""
    for name in names:
        game.push_name(name)
    print(draw(game.position))
    return 0


def show_record(
    path: str, load: Callable[[str], Playable], draw: Callable[[Any], str], error: type[GameError]
) -> int:
    """What each game's ``record`` command does: the game ``load`` makes of the record in ``path``
    (``-``: standard input), every move checked, printed normalised, then ``draw`` of its last
    position; a bad record is one ``error`` line that names the file."""
    text = read_text(path)
    try:
        game = load(text)
    except GameError as exc:
        raise error(f"{path}: {exc}") from None
    sys.stdout.write(game.record_text())
    print(draw(game.position))
    return 0


def ask_human(
    game: Playable, read: Callable[[str], str], write: Callable[[str], None], hint: Callable[[], int]
) -> int | None:
    """Ask until the person gives a legal move; None when they quit or the input ends."""
    names = " ".join(game.name_of(m) for m in game.legal_moves())
    while True:
        try:
            text = read(f"{NAMES[game.position.turn]} to move ({names}; hint; quit): ").strip().lower()
        except EOFError:
            write("")
            return None
        except UnicodeDecodeError:
            write(f"that line is not UTF-8 text; type one of: {names}")
            continue
        if text in ("quit", "exit"):
            return None
        if text == "hint":
            write(f"hint: {game.name_of(hint())}")
            continue
        if not text:
            write(f"type a move, one of: {names}")
            continue
        try:
            move = game.move_of(text)
        except GameError as exc:
            write(f"{exc}; the legal moves are {names}")
            continue
        why = game.why_illegal(move)
        if why is None:
            return move
        write(f"{text}: {why}; the legal moves are {names}")


def players_of(
    sides: dict[str, str], seed: int, make_player: Callable[[int, int], Player[P]]
) -> dict[str, Player[P] | None]:
    """The players of a game in the terminal: ``sides`` maps each colour to ``human`` (None here) or a
    level, whose player gets the seed that side has in game 0 of a match with ``seed``."""
    return {
        colour: None if side == HUMAN else make_player(int(side), game_seed(seed, 0, colour))
        for colour, side in sides.items()
    }


def play_in_terminal(
    game: Playable,
    players: dict[str, Player[Any] | None],
    draw: Callable[[Any], str],
    hint: Callable[[Any], int],
    read: Callable[[str], str] = input,
    write: Callable[[str], None] = print,
) -> Playable:
    """Play ``game`` between people (``None``) and computer players, drawing the board before each move.

    A person's moves are read from standard input: when it is closed (``play <&-``) that is one line
    (:class:`GameError`) before the game starts."""
    if read is input and sys.stdin is None and any(p is None for p in players.values()):
        raise GameError("standard input is closed: a person plays by typing moves "
                        "(give --red and --blue levels for a game between computer players)")
    for colour, header in ((RED, "Red"), (BLUE, "Blue")):
        player = players[colour]
        game.headers[header] = HUMAN if player is None else f"level {player.level} seed {player.seed}"
    while not game.is_over():
        position = game.position
        write(draw(position))
        player = players[position.turn]
        if player is None:
            move = ask_human(game, read, write, lambda: hint(game.position))
            if move is None:
                write("game left unfinished")
                break
        else:
            move = player.choose(position)
            write(f"{NAMES[position.turn]} (level {player.level}) plays {game.name_of(move)}")
        game.push(move)
    winner = game.winner()
    if winner is not None:
        write(draw(game.position))
        write(f"{NAMES[winner]} wins")
    write(game.record_text().rstrip("\n"))
    return game


__all__ = [
    "HUMAN",
    "GameResult",
    "MatchRun",
    "MatchSummary",
    "Playable",
    "Player",
    "add_match_arguments",
    "ask_human",
    "level_type",
    "play_game",
    "play_in_terminal",
    "players_of",
    "report_match",
    "run_games",
    "show_after",
    "show_record",
    "side_type",
    "summarise",
]
