"""Your mistakes as puzzles, for both games: ``puzzles --from FILE [--json]`` and ``nd puzzles --from``.

Every game of a file of records (:mod:`unitile_py.record_files`) is reviewed by its game's review
(:mod:`unitile_py.review`), and each ply whose verdict is ``mistake`` (the mover had a win and the
move lost it) becomes a puzzle: the position before it, the mover to move and win, ``solutions`` every
move that keeps the win (the moves ``analyze`` of the position gives the outcome ``win``; any of them
solves it), ``distance`` the fastest win there (the review's ``before``), and where it came from:
``game`` (from 1, also in a file of one game), ``ply`` and the move ``played``.

>>> rows = [{"ply": 3, "move": "b1", "mover": "blue", "position": "P b", "verdict": "mistake",
...          "before": {"outcome": "win", "distance": 5}}]
>>> analyse = lambda text: {"moves": {"a1": {"outcome": "win"}, "b1": {"outcome": "loss"},
...                                   "c1": {"outcome": "win"}}}
>>> [puzzle] = mistakes({"plies": rows}, 2, analyse)
>>> puzzle["game"], puzzle["ply"], puzzle["played"], puzzle["solutions"], puzzle["distance"]
(2, 3, 'b1', ['a1', 'c1'], 5)
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable, Mapping
from typing import Any

from .errors import GameError
from .puzzles import counted
from .record_files import GameText, each_game
from .review import MISTAKE

#: The keys of one puzzle, in the order ``--json`` writes them.
FIELDS = ("game", "ply", "mover", "position", "played", "solutions", "distance")


def mistakes(
    review: Mapping[str, Any], game: int, analyse: Callable[[str], Mapping[str, Any]]
) -> list[dict[str, Any]]:
    """The puzzles of one game's ``review`` (``{"plies": [...]}``), the ``game``-th of its file: one a
    mistake, its solutions the moves whose result in ``analyse(position)["moves"]`` is a win."""
    out = []
    for row in review["plies"]:
        if row["verdict"] != MISTAKE:
            continue
        moves = analyse(row["position"])["moves"]
        out.append({
            "game": game,
            "ply": row["ply"],
            "mover": row["mover"],
            "position": row["position"],
            "played": row["move"],
            "solutions": sorted(name for name, result in moves.items() if result["outcome"] == "win"),
            "distance": row["before"]["distance"],
        })  # fmt: skip
    return out


def format_mistake(number: int, puzzle: Mapping[str, Any], unit: str, drawing: str) -> str:
    """The text form of one puzzle made of a mistake: a heading, the position, its drawing, the
    solutions and the move played."""
    where, win = f"game {puzzle['game']}, ply {puzzle['ply']}", counted(puzzle["distance"], unit)
    return "\n".join([
        f"puzzle {number} ({where}): {puzzle['mover']} to move and win in {win}",
        puzzle["position"],
        drawing,
        f"solutions: {' '.join(puzzle['solutions'])}",
        f"played: {puzzle['played']} (a mistake)",
    ])  # fmt: skip


def add_from_option(p: argparse.ArgumentParser) -> None:
    """Add ``--from FILE`` to a game's ``puzzles`` command."""
    p.add_argument("--from", dest="source", metavar="FILE",
                   help="the mistakes of the games in FILE (records; - for standard input) as puzzles, in "
                   "place of the shipped ones: --count, --seed and --grade are then not used")  # fmt: skip


def run_from(
    args: argparse.Namespace,
    review_text: Callable[[str], Mapping[str, Any]],
    analyse: Callable[[str], Mapping[str, Any]],
    unit: str,
    draw: Callable[[str], str],
    error: type[GameError],
) -> int:
    """``puzzles --from FILE``: the puzzles of the mistakes of every game in ``args.source``, each game
    reviewed by ``review_text`` of its record and each position analysed by ``analyse``; printed one
    JSON object a line (``--json``) or as text. A bad game is one line, the others still done (exit
    status 2, :func:`~unitile_py.record_files.each_game`)."""
    found = 0

    def one(game: GameText, many: bool) -> None:
        nonlocal found
        for puzzle in mistakes(review_text(game.text), game.number, analyse):
            found += 1
            if args.json:
                print(json.dumps(puzzle))
            else:
                text = format_mistake(found, puzzle, unit, draw(puzzle["position"]))
                print(("\n" if found > 1 else "") + text)

    status = each_game(args.source, None, error, one)
    if not found and not args.json:
        print("no mistakes: no puzzles")
    return status


__all__ = ["FIELDS", "add_from_option", "format_mistake", "mistakes", "run_from"]
