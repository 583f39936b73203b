"""``python -m unitile_py tic-tac-toe show MOVES...``: the grid after the moves."""

from __future__ import annotations

import argparse
from typing import Any

from .rules import draw, play, winner


def cmd_show(args: argparse.Namespace) -> int:
    """Print the grid after the moves, then the result if the game is over."""
    cells = play(args.moves)
    print(draw(cells))
    result = winner(cells)
    if result:
        print("draw" if result == "draw" else f"{result} wins")
    return 0


def register(cmds: Any) -> None:
    """Add tic-tac-toe's commands to its group's subparsers."""
    show = cmds.add_parser("show", help="draw the grid after some moves")
    show.add_argument("moves", nargs="*", help="cells such as b2 a1")
    show.set_defaults(func=cmd_show)
