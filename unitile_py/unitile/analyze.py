"""The ``analyze`` subcommand: legal slides with their perfect-play results, from the lookup tables.

``python -m unitile_py analyze POS`` lists the legal slides, each with the mover's result and the plies
to the end with perfect play, marking those perfect play chooses; ``--json`` prints one object
``{"position", "legal", "outcome", "distance", "best", "moves"}``. With ``-`` in place of POS it reads
one position per line from standard input and prints one JSON object per line as each line arrives;
a bad line gets ``{"error": "line N: ..."}`` and the rest go on (the exit status is then 2); blank
lines are skipped (:func:`unitile_py.inputs.answer_lines`). The board follows from the
position text; its tables must be in ``tables/`` (or ``--tables DIR``).

>>> from unitile_py.unitile.tables import tables_for
>>> p = parse_position("BRB/R.B/RBR r")
>>> info = analysis(p, tables_for(p.board))
>>> info["legal"], info["outcome"], info["distance"], info["best"]
(['b1', 'b3'], 'loss', 5, ['b3'])
>>> info["moves"]["b1"]
{'outcome': 'loss', 'distance': 4}
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from ..inputs import answer_lines
from .game import Game
from .lookups import Lookups
from .notation import parse_position
from .position import Position
from .tables import tables_for


def analysis(position: Position, rules: Lookups) -> dict[str, Any]:
    """Everything ``analyze`` prints about one position, as plain data (moves by name, sorted)."""
    game = Game(position, rules)
    name = position.board.name
    winner = game.winner()
    if winner is not None:
        # The game is over: the side to move has won or lost already, with no plies to go.
        return {
            "position": str(position),
            "legal": [],
            "outcome": "win" if winner == position.turn else "loss",
            "distance": 0,
            "best": [],
            "moves": {},
        }
    outcome, distance = rules.outcome(position)
    moves = rules.moves(position)
    return {
        "position": str(position),
        "legal": sorted(name(c) for c in game.legal_moves()),
        "outcome": outcome,
        "distance": distance,
        "best": sorted(name(c) for c in rules.best(position)),
        "moves": {name(c): {"outcome": o, "distance": d} for c, (o, d) in sorted(moves.items())},
    }


def analyse_text(text: str, directory: str | None) -> dict[str, Any]:
    """:func:`analysis` of a position text, with the tables of its board."""
    position = parse_position(text)
    return analysis(position, tables_for(position.board, directory))


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
        info = analyse_text(args.position, args.tables)
        print(json.dumps(info) if args.json else format_analysis(info))
        return 0
    return answer_lines(lambda text: json.dumps(analyse_text(text, args.tables)))


def register(sub: Any) -> None:
    """Add the ``analyze`` subcommand to the command line's subparsers."""
    p = sub.add_parser("analyze", help="legal slides with perfect-play results, from the tables")
    p.add_argument("position", help='position text such as "BRBRB/RBRBR/BR.BR/BRBRB/RBRBR r", or - for stdin')
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--tables", metavar="DIR", help="directory of the tables (default: the committed ones)")
    p.set_defaults(func=cmd_analyze)


__all__ = ["analyse_text", "analysis", "cmd_analyze", "format_analysis", "register"]
