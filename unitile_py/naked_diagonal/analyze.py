"""``nd analyze POS|- [--json]``: perfect play on a solved size (tables), or from a stored strategy, for
one position or one per line of standard input; and :func:`per_position`, which ``legal`` shares."""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable
from typing import Any

from ..colours import COLOUR_NAMES
from ..inputs import answer_lines
from ..table_io import folder_of, manifest_kind, root_of
from . import perfect
from .bans import game_over
from .drawing import POSITION_HELP
from .keys import default_root
from .position import Position
from .strategy import KIND, strategy_for
from .tables import NDTables, tables_for


def per_position(
    args: argparse.Namespace,
    info_of: Callable[[str], dict[str, Any]],
    text_of: Callable[[str, dict[str, Any]], str],
) -> int:
    """``info_of`` the position argument, or of each line of standard input for ``-`` as it arrives,
    printed as JSON (``--json``) or as text; on standard input a bad line gets ``{"error": "line N:
    ..."}``, the others going on, exit status 2 (:func:`~unitile_py.inputs.answer_lines`)."""
    def answer(text: str) -> str:
        info = info_of(text)
        return json.dumps(info) if args.json else text_of(text, info)

    if args.position == "-":
        return answer_lines(answer)
    print(answer(args.position.strip()))
    return 0


def analysis_of(text: str, directory: str | None = None) -> dict[str, Any]:
    """What ``analyze --json`` prints for one position (see :meth:`NDTables.analysis`; on a size whose
    folder holds a strategy, :func:`.perfect.analysis`: distances None, outcomes possibly "unknown")."""
    position = Position.parse(text)
    n = position.grid.n
    folder = folder_of(root_of(directory, default_root), f"{n}x{n}")
    if manifest_kind(folder) == KIND:
        return perfect.analysis(position, strategy_for(n, directory))
    tables: NDTables = tables_for(n, directory)
    return tables.analysis(position)


def format_analysis(position: Position, info: dict[str, Any]) -> str:
    """The text form of an analysis: a summary line, then one line per legal placement (``*``: best)."""
    side = COLOUR_NAMES[position.turn]
    over = game_over(position)  # the rule of legal, why and the web API
    if over is not None:
        return over
    verb = {"win": "wins", "loss": "loses"}.get(info["outcome"], "")
    if info["distance"] is None:  # a strategy: outcomes without distances
        said = f" {verb}" if verb else ": unknown"
        head = f"{side} to move{said} ({info['how']})"
        lines = [head, f"no distances: {info['note']}", "point  result"]
        for name, m in info["moves"].items():
            mark = "  *" if m["outcome"] == "win" else ""
            lines.append(f"{name:<6} {m['outcome']}{mark}")
        return "\n".join(lines)
    lines = [f"{side} to move {verb} in {info['distance']} placements with perfect play",
             "point  result  placements"]
    best = (info["outcome"], info["distance"])
    for name, m in info["moves"].items():
        mark = "  *" if (m["outcome"], m["distance"]) == best else ""
        lines.append(f"{name:<6} {m['outcome']:<7} {m['distance']:>10}{mark}")
    return "\n".join(lines)


def cmd_analyze(args: argparse.Namespace) -> int:
    """Perfect play on a solved size, for one position or one per line of standard input."""
    return per_position(
        args,
        lambda text: analysis_of(text, args.tables),
        lambda text, info: format_analysis(Position.parse(text), info),
    )


def register(cmds: Any) -> None:
    """Add ``analyze`` to Naked Diagonal's subparsers."""
    analyze = cmds.add_parser(
        "analyze", help="perfect play on a solved size (2x2, 3x3, 4x4; 5x5 from its stored proof)"
    )
    analyze.add_argument("position", help=f"{POSITION_HELP}; or - for one per line of standard input")
    analyze.add_argument(
        "--json", action="store_true", help='one line per position: {"outcome", "distance", "moves"}'
    )
    analyze.add_argument("--tables", metavar="DIR", help="tables folder (default tables/naked-diagonal)")
    analyze.set_defaults(func=cmd_analyze)


__all__ = ["analysis_of", "cmd_analyze", "format_analysis", "per_position", "register"]
