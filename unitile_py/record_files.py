"""Files of many records, for both games: split into games, one picked with ``--game N``, and a command
run on each game so that a bad game is one line naming its number while the others are still done.

A file of records holds games one after the other, separated by a blank line, as ``match --records``
writes them (docs/notation.md). A new game starts after a blank line at a header line once the game
before has moves, or at a line of moves once the game before has ended with its result (``1-0``, ``0-1``,
``*``). Anything else continues the game before, so a record with blank lines inside it (between its
headers and its moves, say) is still one game, and every record that loaded before files of many games
existed is one game, whose text is the whole file. A record's line numbers (``record line 3``) count
from the first line of its game; :attr:`GameText.line` is where that line is in the file.

>>> [(g.number, g.line, g.text) for g in split_games('[A "1"]\\n\\n1. c4 1-0\\n\\n\\n[A "2"]\\n1. b3 *\\n')]
[(1, 1, '[A "1"]\\n\\n1. c4 1-0'), (2, 6, '[A "2"]\\n1. b3 *')]
>>> [g.text for g in split_games("1. c4 1-0\\n\\n1. b3 *")]
['1. c4 1-0', '1. b3 *']
>>> len(split_games('[A "1"]\\n\\n1. c4\\n\\nb4 *'))  # moves after a blank line, no result yet: one game
1
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from dataclasses import dataclass

from .errors import GameError
from .inputs import read_text
from .records import LINE_BREAK, RESULTS


@dataclass(frozen=True)
class GameText:
    """One game of a file of records: its number (from 1), the file's line it starts on, its text."""

    number: int
    line: int
    text: str


def _spans(lines: list[str]) -> list[tuple[int, int]]:
    """The ``(first, last)`` line indexes of each game among ``lines`` (blank lines at its ends left out)."""
    spans: list[tuple[int, int]] = []
    first = last = -1
    has_moves = ended = blank_before = False
    for i, raw in enumerate(lines):
        line = raw.strip()
        if not line:
            blank_before = True
            continue
        header = line.startswith("[")
        if first >= 0 and blank_before and ((header and has_moves) or (not header and ended)):
            spans.append((first, last))
            first = -1
        if first < 0:
            first, has_moves, ended = i, False, False
        if not header:
            has_moves = True
            ended = line.split()[-1] in RESULTS
        last, blank_before = i, False
    if first >= 0:
        spans.append((first, last))
    return spans


def split_games(text: str) -> list[GameText]:
    """The games of a file's ``text`` (see the module's docstring). A file of one game, or of none (an
    empty file, which the game's reader then refuses), is one game whose text is the whole ``text``."""
    lines = LINE_BREAK.split(text.removeprefix("\ufeff"))
    spans = _spans(lines)
    if len(spans) <= 1:
        return [GameText(1, 1, text)]
    return [GameText(k, a + 1, "\n".join(lines[a : b + 1])) for k, (a, b) in enumerate(spans, 1)]


def pick(games: list[GameText], number: int | None) -> list[GameText]:
    """All of ``games``, or only game ``number`` (``--game N``); a number the file does not hold is a
    :class:`GameError`."""
    if number is None:
        return games
    if not 1 <= number <= len(games):
        held = "1 game" if len(games) == 1 else f"{len(games)} games"
        raise GameError(f"no game {number}: the file holds {held}")
    return [games[number - 1]]


def game_number(text: str) -> int:
    """The argparse type of ``--game N``: a whole number from 1."""
    if not (text.isascii() and text.isdigit()) or len(text) > 9 or int(text) < 1:
        raise argparse.ArgumentTypeError(f"{text!r}: expected a game number, 1 or more")
    return int(text)


game_number.__name__ = "game number"


def add_game_option(p: argparse.ArgumentParser) -> None:
    """Add ``--game N`` to a command that reads a file of records."""
    p.add_argument("--game", type=game_number, metavar="N",
                   help="only the N-th game of a file of several records (default: every game)")  # fmt: skip


def each_game(
    path: str, number: int | None, error: type[GameError], do: Callable[[GameText, bool], None]
) -> int:
    """Run ``do(game, many)`` on each game of the file ``path`` (``-``: standard input), or on game
    ``number`` only; ``many`` is true when the file holds more than one game. In a file of one game a
    :class:`GameError` is one ``error`` line naming the file, as for any record; in a file of many it is
    one line on standard error naming the file and the game (``error: FILE: game 2: ...``) and the
    other games are still done. Returns 0, or 2 when any game was bad."""
    # Here, not at the top: the web services import the review, which imports this module, and need
    # none of the command line's (logging, signals, threads: time to load in the browser's worker).
    from .command_line import EXIT_USAGE, one_line

    text = read_text(path)
    games = split_games(text)
    many = len(games) > 1
    try:
        chosen = pick(games, number)
    except GameError as exc:
        raise error(f"{path}: {exc}") from None
    bad = 0
    for game in chosen:
        try:
            do(game, many)
        except GameError as exc:
            if not many:
                raise error(f"{path}: {exc}") from None
            sys.stdout.flush()  # the games before it come first, if both streams go to one place
            print(f"error: {one_line(f'{path}: game {game.number}: {exc}')}", file=sys.stderr)
            bad += 1
    return EXIT_USAGE if bad else 0


__all__ = ["GameText", "add_game_option", "each_game", "game_number", "pick", "split_games"]
