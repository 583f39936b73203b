"""The ``analyze`` subcommand, and the legal-only ``slides``: answers from the lookup tables.

``python -m unitile_py analyze POS`` lists the legal slides, each with the mover's result and the plies
to the end with perfect play, marking those perfect play chooses; ``--json`` prints one object
``{"position", "legal", "outcome", "distance", "best", "moves"}``. With ``-`` in place of POS it reads
one position per line from standard input and prints one JSON object per line; a bad line gets
``{"error": "..."}`` and the rest go on (the exit status is then 2). The board follows from the
position text; its tables must be in ``tables/`` (or ``--tables DIR``).

>>> info = analysis(tables_for_position("BRB/R.B/RBR r", None), "BRB/R.B/RBR r")
>>> info["legal"], info["outcome"], info["distance"], info["best"]
(['b1', 'b3'], 'loss', 5, ['b3'])
>>> info["moves"]["b1"]
{'outcome': 'loss', 'distance': 4}
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from .errors import UnitileError
from .notation import format_position, parse_position
from .position import Position
from .tables import Tables, tables_for


def tables_for_position(text: str, directory: str | None) -> Tables:
    """The tables of the board of a position text (cached per board)."""
    board = parse_position(text).board
    return tables_for(board) if directory is None else _loaded(str(board), directory)


_LOADED: dict[tuple[str, str], Tables] = {}


def _loaded(board: str, directory: str) -> Tables:
    key = (board, directory)
    if key not in _LOADED:
        _LOADED[key] = Tables.load(board, directory)
    return _LOADED[key]


def analysis(tables: Tables, text: str) -> dict[str, Any]:
    """Everything ``analyze`` prints about one position, as plain data (moves by name, sorted)."""
    position = parse_position(text)
    board = position.board
    if position.board is not tables.board:
        raise UnitileError(f"position is on a {board} board, the tables are for {tables.board}")
    name = board.name
    winner = position.winner()
    if winner is not None:
        # The game is over: the side to move has won or lost already, with no plies to go.
        return {
            "position": format_position(position),
            "legal": [],
            "outcome": "win" if winner == position.turn else "loss",
            "distance": 0,
            "best": [],
            "moves": {},
        }
    outcome, distance = tables.outcome(position)
    moves = tables.moves(position)
    return {
        "position": format_position(position),
        "legal": sorted(name(c) for c in moves),
        "outcome": outcome,
        "distance": distance,
        "best": sorted(name(c) for c in tables.best(position)),
        "moves": {name(c): {"outcome": o, "distance": d} for c, (o, d) in sorted(moves.items())},
    }


def format_analysis(info: dict[str, Any]) -> str:
    """The text form: a summary line, then one line per legal slide (``*`` marks perfect play)."""
    side = "red" if info["position"].endswith(" r") else "blue"
    if not info["legal"]:
        lines = [f"{side} to move {'has won' if info['outcome'] == 'win' else 'has lost'}: the game is over"]
        return "\n".join(lines)
    verb = "wins" if info["outcome"] == "win" else "loses"
    lines = [f"{side} to move {verb} in {info['distance']} plies with perfect play", "move  result  plies"]
    for move in info["legal"]:
        m = info["moves"][move]
        mark = "  *" if move in info["best"] else ""
        lines.append(f"{move:<5} {m['outcome']:<7} {m['distance']:>5}{mark}")
    return "\n".join(lines)


def cmd_analyze(args: argparse.Namespace) -> int:
    """Analyse one position, or one per line of standard input."""
    if args.position != "-":
        info = analysis(tables_for_position(args.position, args.tables), args.position)
        print(json.dumps(info) if args.json else format_analysis(info))
        return 0
    status = 0
    for line in sys.stdin:
        text = line.strip()
        if not text:
            continue
        try:
            out: dict[str, Any] = analysis(tables_for_position(text, args.tables), text)
        except UnitileError as exc:
            out = {"error": str(exc)}
            status = 2
        print(json.dumps(out), flush=False)
    sys.stdout.flush()
    return status


def legal_names(text: str, directory: str | None = None) -> list[str]:
    """The names of the legal slides of a position, in alphabetical order."""
    position: Position = parse_position(text)
    tables = tables_for_position(text, directory)
    return sorted(position.board.name(c) for c in tables.legal(position))


def register(sub: Any) -> None:
    """Add the ``analyze`` subcommand to the command line's subparsers."""
    p = sub.add_parser("analyze", help="legal slides with perfect-play results, from the tables")
    p.add_argument("position", help='position text such as "BRBRB/RBRBR/BR.BR/BRBRB/RBRBR r", or - for stdin')
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--tables", metavar="DIR", help="directory of the tables (default: the committed ones)")
    p.set_defaults(func=cmd_analyze)


__all__ = ["analysis", "cmd_analyze", "format_analysis", "legal_names", "register"]
