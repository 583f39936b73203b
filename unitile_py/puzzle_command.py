"""The ``puzzles`` command of both games: ``python -m unitile_py puzzles`` (Unitile) and ``nd puzzles``.

``--count N --seed S [--grade G] [--json] [--tables DIR]`` prints ``N`` different puzzles of the shipped
puzzle file (:mod:`unitile_py.puzzles`) chosen by the seed: with ``--json`` one object a line,
``{"index", "position", "solution", "distance", "grade"}``; as text a heading, the position, its
drawing and the solution. A bad argument is one line (exit status 2), so is a missing or damaged file.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable
from typing import Any

from .mistake_puzzles import add_from_option
from .puzzles import GRADES, MAX_COUNT, Check, Puzzle, counted, load

#: Most digits of a seed.
SEED_DIGITS = 100


def _count(text: str) -> int:
    if not (text.isascii() and text.isdigit()) or len(text) > 6 or not 1 <= int(text) <= MAX_COUNT:
        raise argparse.ArgumentTypeError(f"{text!r}: expected a whole number from 1 to {MAX_COUNT}")
    return int(text)


def _seed(text: str) -> int:
    if not (text.isascii() and text.isdigit()) or len(text) > SEED_DIGITS:
        raise argparse.ArgumentTypeError(f"{text!r}: expected a whole number of 0 or more (at most "
                                         f"{SEED_DIGITS} digits)")  # fmt: skip
    return int(text)


_count.__name__ = "count"
_seed.__name__ = "seed"


def add_arguments(p: argparse.ArgumentParser) -> None:
    """The options both games' ``puzzles`` take (the board option is the game's own)."""
    p.add_argument("--count", type=_count, default=1, help=f"how many puzzles, 1 to {MAX_COUNT} (default 1)")
    p.add_argument("--seed", type=_seed, default=1, help="the seed that chooses them (default 1)")
    p.add_argument("--grade", choices=GRADES, help="only puzzles of this grade (by distance to the win)")
    p.add_argument("--json", action="store_true", help="one JSON object a puzzle")
    p.add_argument("--tables", metavar="DIR", help="the tables directory holding puzzles/ (default: the "
                   "committed one)")  # fmt: skip


def add_command(sub: Any, move: str, board: tuple[str, str, str], run: Callable[[argparse.Namespace], int]
                ) -> None:
    """Add a game's ``puzzles`` command to ``sub``: Red to move has exactly one winning ``move``;
    ``board`` is its board option, default and help (``("--size", "4x4", ...)``); the options both games
    take, and ``--from`` (:mod:`unitile_py.mistake_puzzles`)."""
    p = sub.add_parser("puzzles", help=f"puzzles: Red to move has exactly one winning {move}")
    option, default, what = board
    p.add_argument(option, default=default, help=f"{what} with puzzles (default {default})")
    add_arguments(p)
    add_from_option(p)
    p.set_defaults(func=run)


def format_puzzle(p: Puzzle, unit: str, drawing: str) -> str:
    """The text form of one puzzle."""
    return "\n".join(
        [
            f"puzzle {p.index} ({p.grade}): red to move and win in {counted(p.distance, unit)}",
            p.position,
            drawing,
            f"solution: {p.solution}",
        ]
    )


def run(args: argparse.Namespace, game: str, board: str, unit: str, draw: Callable[[str], str],
        check: Check | None = None) -> int:  # fmt: skip
    """Print the chosen puzzles of ``game`` on ``board``; ``draw`` draws a position text; every puzzle of
    the file is checked first by the game's ``check`` (a damaged file is one line, exit status 2)."""
    chosen = load(game, board, args.tables, check).choose(args.count, args.seed, args.grade)
    out: list[Any] = []
    for p in chosen:
        out.append(json.dumps(p.plain()) if args.json else format_puzzle(p, unit, draw(p.position)))
    print(("\n" if args.json else "\n\n").join(out))
    return 0


__all__ = ["add_arguments", "format_puzzle", "run"]
