"""``python -m unitile_py naked-diagonal COMMAND`` (or ``nd``): Mark Steere's Naked Diagonal in the terminal.

* ``show POS [MOVES...]``: draw a position, after the given placements (each checked by the rules).
* ``legal POS|- [--json]``: where each colour may place now, whoever is to move; ``--json`` prints one
  line per position: ``{"red": [...], "blue": [...], "winner": null | "red" | "blue"}``.
* ``why POS POINT [--colour r|b]``: why a placement is banned: the naked diagonal it would form, or the
  naked-diagonal-equivalent area it would leave, whether that area is BAD, and a culprit (a part of it
  that no sequence of placements can cover).
* ``record FILE|-``: check a record turn by turn, print it normalised and draw the end.
* ``analyze POS|- [--json]``: on a solved size (2x2, 3x3, 4x4: :mod:`.tables`), the outcome for the side
  to move and the distance to the end in placements with perfect play, and the same for each legal
  placement counting it; ``--json`` prints one line per position:
  ``{"outcome": "win" | "loss", "distance": N, "moves": {"a1": {"outcome": ..., "distance": ...}, ...}}``.
  On a size whose folder holds a strategy (5x5: :mod:`.perfect`) the outcomes come from the stored
  proof, else from a bounded exact search, else ``"unknown"``; every ``distance`` is null, and
  ``source`` ``"strategy"``, ``winner``, ``how`` (or why unknown) and ``note`` are added.
* ``review FILE|- [--json]``: every turn of a record on a size with tables judged (:mod:`.review`).
* ``puzzles [--size NxN] --count N --seed S [--grade G] [--json]``: puzzles of the shipped puzzle file
  (:mod:`unitile_py.puzzle_command`): Red to move has exactly one winning placement; ``puzzles --from
  FILE``: the mistakes of the games in FILE as puzzles (:mod:`unitile_py.mistake_puzzles`).
* ``play`` and ``match``: a game in the terminal, and computer levels against each other (level 6,
  perfect play, on the solved sizes).

Once a colour has won, ``legal``, ``why``, ``analyze`` (as text), ``play --position`` and ``match
--position`` all say so in the same words as the web API ("The game is over: Red has won.",
:func:`.bans.game_over`).

Malformed input prints one line to standard error and exits with status 2.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from .. import puzzle_command
from ..colours import BLUE, COLOUR_NAMES, RED
from ..errors import NakedDiagonalError
from ..mistake_puzzles import run_from
from ..record_files import add_game_option
from ..records import split_record
from ..terminal import show_after, show_record
from . import analyze, match, review, terminal_play
from .analyze import analysis_of, per_position
from .bans import game_over
from .drawing import POSITION_HELP, checked_size, draw, parse_position
from .game import Game, parse_record
from .legality import explain, legal_masks
from .notation import parse_size, start_of
from .position import Position
from .puzzle_check import puzzle_check

#: The word for each colour in JSON output.
COLOUR_WORDS = {RED: "red", BLUE: "blue"}


def cmd_show(args: argparse.Namespace) -> int:
    """Draw a position after the given placements."""
    return show_after(Game(parse_position(args.position)), args.moves, draw)


def legal_of(text: str) -> dict[str, Any]:
    """What ``legal --json`` prints for one position."""
    position = parse_position(text)
    winner = position.winner()
    red, blue = (0, 0) if winner is not None else legal_masks(position)
    g = position.grid
    return {
        "red": sorted(g.names(red)),
        "blue": sorted(g.names(blue)),
        "winner": None if winner is None else COLOUR_WORDS[winner],
    }


def cmd_legal(args: argparse.Namespace) -> int:
    """The legal placements of both colours, for one position or one per line of standard input."""
    def text(position: str, info: dict[str, Any]) -> str:
        over = game_over(Position.parse(position))  # the rule of why, analyze and the web API
        return over or f"red: {' '.join(info['red']) or '-'}\nblue: {' '.join(info['blue']) or '-'}"

    return per_position(args, legal_of, text)


def cmd_why(args: argparse.Namespace) -> int:
    """Why a placement is legal or not."""
    position = parse_position(args.position)
    colour = args.colour or position.turn
    point = position.grid.point(args.point)
    over = game_over(position)  # the web API's rule too: after a win, no placement is legal
    ban = explain(position, point, colour) if over is None else None
    if over is not None:
        print(over)
    elif ban is None:
        print(f"{COLOUR_NAMES[colour]} on {position.grid.name(point)} is legal")
    else:
        print(ban.describe(position.grid))
    return 0


def cmd_record(args: argparse.Namespace) -> int:
    """Check a record and print it normalised, then the final position."""
    return show_record(args.file, _record_game, draw, NakedDiagonalError, args.game)


def _record_game(text: str) -> Game:
    """The game of a record, its board checked (:func:`checked_size`) before any turn is replayed."""
    checked_size(start_of(split_record(text).headers))
    return Game.from_record(parse_record(text))


def cmd_puzzles(args: argparse.Namespace) -> int:
    """Print puzzles of the shipped puzzle file, chosen by the seed (:mod:`unitile_py.puzzle_command`), or
    with ``--from FILE`` the mistakes of its games (:mod:`unitile_py.mistake_puzzles`)."""
    directory = Path(args.tables) / "naked-diagonal" if args.tables else None
    if args.source is not None:
        folder = None if directory is None else str(directory)
        return run_from(args, lambda text: review.review_text(text, directory),
                        lambda text: analysis_of(text, folder), "placements",
                        lambda text: draw(Position.parse(text)), NakedDiagonalError)  # fmt: skip
    n = parse_size(args.size)

    check = puzzle_check(n, directory)
    return puzzle_command.run(args, "naked-diagonal", f"{n}x{n}", "placements",
                              lambda text: draw(Position.parse(text)), check)  # fmt: skip


def register(cmds: Any) -> None:
    """Add Naked Diagonal's commands to its group's subparsers (:mod:`unitile_py.cli` makes the group):
    ``show``, ``legal``, ``why``, ``record`` and ``puzzles`` here, ``analyze`` (:mod:`.analyze`),
    ``review`` (:mod:`.review`), ``play`` (:mod:`.terminal_play`) and ``match`` (:mod:`.match`)."""
    show = cmds.add_parser("show", help="draw a position, after placements if given")
    show.add_argument("position", help=POSITION_HELP)
    show.add_argument(
        "moves", nargs="*", help="placements to make first, such as e5 d4 (checked by the rules)"
    )
    show.set_defaults(func=cmd_show)
    legal = cmds.add_parser("legal", help="where Red and Blue may place now")
    legal.add_argument("position", help=f"{POSITION_HELP}; or - for one per line of standard input")
    legal.add_argument("--json", action="store_true", help='one line per position: {"red", "blue", "winner"}')
    legal.set_defaults(func=cmd_legal)
    why = cmds.add_parser("why", help="why a placement is banned")
    why.add_argument("position", help=POSITION_HELP)
    why.add_argument("point", help="the point, such as c3")
    why.add_argument("--colour", "--color", choices=[RED, BLUE], help="the colour placing (default: to move)")
    why.set_defaults(func=cmd_why)
    record = cmds.add_parser("record", help="check a record, print it normalised and draw the end")
    record.add_argument("file", help="record file (one game or several), or - for standard input")
    add_game_option(record)
    record.set_defaults(func=cmd_record)
    for commands in (analyze, review, terminal_play, match):
        commands.register(cmds)
    puzzle_command.add_command(cmds, "placement", ("--size", "4x4", "board size NxN"), cmd_puzzles)


__all__ = ["cmd_legal", "legal_of", "register"]
