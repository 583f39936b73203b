"""A game in the terminal, for both games: a person's moves read and checked (:func:`ask_human`), a game
between people and computer players drawn move by move (:func:`play_in_terminal`), and the ``show``
and ``record`` commands (:func:`show_after`, :func:`show_record`).
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from .colours import BLUE, RED
from .errors import GameError
from .playing import Playable, Player
from .record_files import GameText, each_game
from .seeds import game_seed

NAMES = {RED: "red", BLUE: "blue"}
#: The side a person plays (``--red human``).
HUMAN = "human"

#: The position type of the players.
P = TypeVar("P")


def show_after(game: Playable, names: Sequence[str], draw: Callable[[Any], str]) -> int:
    """What each game's ``show`` command does: play the moves ``names`` (each checked by the rules),
    then print ``draw`` of the position reached."""
    for name in names:
        game.push_name(name)
    print(draw(game.position))
    return 0


def show_record(
    path: str,
    load: Callable[[str], Playable],
    draw: Callable[[Any], str],
    error: type[GameError],
    number: int | None = None,
) -> int:
    """What each game's ``record`` command does: the game ``load`` makes of each record in ``path``
    (``-``: standard input; a file of several games, or only game ``number`` of it:
    :func:`~unitile_py.record_files.each_game`), every move checked, printed normalised, then ``draw``
    of its last position, the games separated by a blank line; a bad record is one ``error`` line that
    names the file (and the game, in a file of several), exit status 2."""
    first = True

    def one(text: GameText, many: bool) -> None:
        nonlocal first
        game = load(text.text)
        if not first:
            print()
        first = False
        sys.stdout.write(game.record_text())
        print(draw(game.position))

    return each_game(path, number, error, one)


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

