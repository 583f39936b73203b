"""Review of a played game, the part both games share: a verdict on each ply from the mover's result
with perfect play before and after it, the rows ``review`` prints, their summary and the text table.

Each game's own review module (:mod:`unitile_py.unitile.review`, :mod:`unitile_py.naked_diagonal.review`)
reads the results from its tables; this module only judges them. A *result* is the mover's
``("win" | "loss", distance)``: the outcome with perfect play and the turns to the end (plies for
Unitile, placements for Naked Diagonal). *Before* is the mover's result in the position before the
move, *after* the mover's result after it, counting the move (so a best move has the same result
before and after). The verdicts (:func:`verdict`):

* ``mistake``: the mover had a win and the move loses it;
* ``best``: a move perfect play (level 6) could choose: one of the tables' best (the fastest win,
  else the longest loss);
* ``inaccuracy``: a win kept but made slower than the best, or a loss hastened;
* ``good``: anything else (with tables that agree with themselves, no move: every move is one of the
  three above; a result whose distance is unknown can still be ``good``).

>>> rows = [ply_row(1, "c4", "r", "POS r", ("win", 9), ("win", 11), ["d3"]),
...         ply_row(2, "d4", "b", "POS b", ("loss", 10), ("loss", 10), ["b3", "d4"])]
>>> rows[0]["verdict"], rows[1]["verdict"], rows[1]["mover"], rows[1]["after"]
('inaccuracy', 'best', 'blue', {'outcome': 'loss', 'distance': 10})
>>> summary(rows)
{'red': {'mistakes': 0, 'inaccuracies': 1}, 'blue': {'mistakes': 0, 'inaccuracies': 0}}
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable, Mapping, Sequence
from typing import Any, TypeVar

from .colours import BLUE, RED
from .errors import GameError
from .record_files import GameText, add_game_option, each_game

#: The mover's result with perfect play: ``("win" | "loss", turns to the end)``.
Result = tuple[str, int]
BEST, GOOD, INACCURACY, MISTAKE = "best", "good", "inaccuracy", "mistake"
#: Every verdict, the best first.
VERDICTS = (BEST, GOOD, INACCURACY, MISTAKE)
#: The word for each colour in a review.
SIDES = {RED: "red", BLUE: "blue"}
#: The keys of one ply of a review, in the order ``review --json`` writes them.
FIELDS = ("ply", "move", "mover", "position", "before", "after", "best", "verdict")

M = TypeVar("M")


def verdict(before: Result, after: Result, best: bool) -> str:
    """The verdict on a move whose mover had ``before`` and has ``after`` (counting the move);
    ``best``: the move is one that perfect play could choose.

    >>> verdict(("win", 5), ("loss", 8), False), verdict(("win", 5), ("win", 5), True)
    ('mistake', 'best')
    >>> verdict(("win", 5), ("win", 7), False), verdict(("loss", 8), ("loss", 6), False)
    ('inaccuracy', 'inaccuracy')
    >>> verdict(("loss", 8), ("loss", 8), False)
    'good'
    """
    (was, far), (now, left) = before, after
    if was == "win" and now == "loss":
        return MISTAKE
    if best:
        return BEST
    if was == now == "win" and left > far:
        return INACCURACY
    if was == now == "loss" and left < far:
        return INACCURACY
    return GOOD


def rank(result: Result) -> tuple[int, int]:
    """Orders results from the mover's worst to best: a loss before a win, a sooner loss before a later
    one, a slower win before a faster one.

    >>> sorted([("win", 3), ("loss", 2), ("win", 1), ("loss", 6)], key=rank)
    [('loss', 2), ('loss', 6), ('win', 3), ('win', 1)]
    """
    kind, distance = result
    return (1, -distance) if kind == "win" else (0, distance)


def best_of(results: Mapping[M, Result]) -> list[M]:
    """The moves of ``results`` (each move's result after it) that perfect play may choose: the fastest
    win, else the longest loss.

    >>> best_of({"a1": ("win", 5), "b2": ("win", 3), "c3": ("loss", 8), "d4": ("win", 3)})
    ['b2', 'd4']
    """
    if not results:
        return []
    top = max(map(rank, results.values()))
    return [move for move, result in results.items() if rank(result) == top]


def _plain(result: Result) -> dict[str, Any]:
    return {"outcome": result[0], "distance": result[1]}


def ply_row(
    ply: int, move: str, mover: str, position: str, before: Result, after: Result, best: Sequence[str]
) -> dict[str, Any]:
    """One ply of a review as plain data: ``ply`` (from 1), ``move`` (its name), ``mover`` (``"red"`` or
    ``"blue"``), ``position`` (the text of the position before the move), ``before`` and ``after``
    (``{"outcome", "distance"}`` of the mover), ``best`` (the names of the moves perfect play could
    choose there, sorted) and ``verdict`` (:func:`verdict`, the move being best when it is in ``best``)."""
    return {
        "ply": ply,
        "move": move,
        "mover": SIDES[mover],
        "position": position,
        "before": _plain(before),
        "after": _plain(after),
        "best": sorted(best),
        "verdict": verdict(before, after, move in best),
    }


def summary(rows: Sequence[Mapping[str, Any]]) -> dict[str, dict[str, int]]:
    """The mistakes and inaccuracies of each side: ``{"red": {"mistakes", "inaccuracies"}, "blue": ...}``."""
    out = {side: {"mistakes": 0, "inaccuracies": 0} for side in SIDES.values()}
    for row in rows:
        if row["verdict"] == MISTAKE:
            out[row["mover"]]["mistakes"] += 1
        elif row["verdict"] == INACCURACY:
            out[row["mover"]]["inaccuracies"] += 1
    return out


def _share(part: int, whole: int) -> float | None:
    return None if whole == 0 else round(100 * part / whole, 1)


def accuracy(rows: Sequence[Mapping[str, Any]]) -> dict[str, dict[str, Any]]:
    """Each side's accuracy from the tables: ``moves`` (its plies), ``kept_result`` (those after which
    its outcome with perfect play was as good as before: all but the mistakes), ``kept_distance`` (of
    those, the ones that kept the distance too: the fastest win or the slowest loss, as a best move
    does), and the shares in percent rounded to a tenth, ``result`` (kept_result of moves) and
    ``distance`` (kept_distance of kept_result), each None when there is nothing to share.

    >>> rows = [ply_row(1, "c4", "r", "X r", ("win", 9), ("win", 9), ["c4"]),
    ...         ply_row(2, "d4", "b", "X b", ("loss", 8), ("loss", 6), ["b3"]),
    ...         ply_row(3, "e5", "r", "X r", ("win", 7), ("loss", 4), ["a1"])]
    >>> accuracy(rows)["red"]
    {'moves': 2, 'kept_result': 1, 'kept_distance': 1, 'result': 50.0, 'distance': 100.0}
    >>> accuracy(rows)["blue"]
    {'moves': 1, 'kept_result': 1, 'kept_distance': 0, 'result': 100.0, 'distance': 0.0}
    """
    counts = {side: [0, 0, 0] for side in SIDES.values()}
    for row in rows:
        before = (row["before"]["outcome"], row["before"]["distance"])
        after = (row["after"]["outcome"], row["after"]["distance"])
        count = counts[row["mover"]]
        count[0] += 1
        if rank(after)[0] >= rank(before)[0]:
            count[1] += 1
            count[2] += rank(after) >= rank(before)
    return {
        side: {"moves": n, "kept_result": kept, "kept_distance": fast,
               "result": _share(kept, n), "distance": _share(fast, kept)}
        for side, (n, kept, fast) in counts.items()
    }  # fmt: skip


def review_of(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """A whole review as plain data, what the web API returns: ``{"plies": rows, "summary": ...}``, the
    summary each side's mistakes and inaccuracies (:func:`summary`) and its ``accuracy``
    (:func:`accuracy`)."""
    counts: dict[str, dict[str, Any]] = dict(summary(rows))
    for side, score in accuracy(rows).items():
        counts[side] = {**counts[side], "accuracy": score}
    return {"plies": rows, "summary": counts}


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def summary_line(counts: Mapping[str, Mapping[str, int]]) -> str:
    """The summary in a line: ``red: 1 mistake, 0 inaccuracies; blue: ...``.

    >>> summary_line({"red": {"mistakes": 1, "inaccuracies": 0}, "blue": {"mistakes": 0, "inaccuracies": 2}})
    'red: 1 mistake, 0 inaccuracies; blue: 0 mistakes, 2 inaccuracies'
    """
    parts = []
    for side in SIDES.values():
        c = counts[side]
        parts.append(f"{side}: {_count(c['mistakes'], 'mistake')}, "
                     f"{c['inaccuracies']} {'inaccuracy' if c['inaccuracies'] == 1 else 'inaccuracies'}")
    return "; ".join(parts)


def _percent(share: float | None) -> str:
    return "-" if share is None else f"{share:.1f}%"


def accuracy_line(counts: Mapping[str, Mapping[str, Any]]) -> str:
    """Each side's accuracy in a line (:func:`accuracy`): the share of its moves that kept the result,
    then of those the share that kept the distance, each with its count.

    >>> score = {"moves": 9, "kept_result": 8, "kept_distance": 6, "result": 88.9, "distance": 75.0}
    >>> none = {"moves": 0, "kept_result": 0, "kept_distance": 0, "result": None, "distance": None}
    >>> accuracy_line({"red": {"accuracy": score}, "blue": {"accuracy": none}})
    'accuracy (result, distance): red 88.9% (8/9), 75.0% (6/8); blue -'
    """
    parts = []
    for side in SIDES.values():
        a = counts[side]["accuracy"]
        kept, fast = f"({a['kept_result']}/{a['moves']})", f"({a['kept_distance']}/{a['kept_result']})"
        parts.append(f"{side} {_percent(a['result'])} {kept}, {_percent(a['distance'])} {fast}" if a["moves"]
                     else f"{side} -")  # fmt: skip
    return "accuracy (result, distance): " + "; ".join(parts)


def format_review(review: Mapping[str, Any], unit: str) -> str:
    """The text form of a review: one line a ply (the mover's result before and after the move, in
    ``unit``, and the verdict; the best moves after a mistake or an inaccuracy), then the summary.

    >>> rows = [ply_row(1, "c4", "r", "POS r", ("win", 9), ("loss", 8), ["d3"])]
    >>> print(format_review(review_of(rows), "plies"))
    ply  mover  move  before   after    verdict     best
      1  red    c4    win 9    loss 8   mistake     d3
    results: the mover's outcome and plies to the end with perfect play
    red: 1 mistake, 0 inaccuracies; blue: 0 mistakes, 0 inaccuracies
    accuracy (result, distance): red 0.0% (0/1), - (0/0); blue -
    """
    lines = [f"{'ply':>3}  {'mover':<5}  {'move':<4}  {'before':<7}  {'after':<7}  {'verdict':<10}  best"]
    for row in review["plies"]:
        before = f"{row['before']['outcome']} {row['before']['distance']}"
        after = f"{row['after']['outcome']} {row['after']['distance']}"
        best = " ".join(row["best"]) if row["verdict"] in (MISTAKE, INACCURACY) else ""
        line = f"{row['ply']:>3}  {row['mover']:<5}  {row['move']:<4}  {before:<7}  {after:<7}"
        lines.append(f"{line}  {row['verdict']:<10}  {best}".rstrip())
    if not review["plies"]:
        lines = ["no moves to review"]
    lines.append(f"results: the mover's outcome and {unit} to the end with perfect play")
    lines.append(summary_line(review["summary"]))
    lines.append(accuracy_line(review["summary"]))
    return "\n".join(lines)


def print_review(review: Mapping[str, Any], as_json: bool, unit: str, game: GameText | None = None) -> int:
    """Print a review: one JSON object a ply, then ``{"summary": ...}`` (``as_json``), else
    :func:`format_review`; returns 0. With ``game`` (a game of a file of several), each JSON object
    starts with ``"game": N`` and the text with a heading line ``game N (line L)``."""
    if not as_json:
        heading = [] if game is None else [f"game {game.number} (line {game.line})"]
        print("\n".join([*heading, format_review(review, unit)]))
        return 0
    number = {} if game is None else {"game": game.number}
    for row in review["plies"]:
        print(json.dumps({**number, **row}))
    print(json.dumps({**number, "summary": review["summary"]}))
    return 0


def add_review_command(
    cmds: Any,
    help_text: str,
    tables_help: str,
    review_text: Callable[[str, str | None], Mapping[str, Any]],
    error: type[GameError],
    turn: str,
    unit: str,
) -> None:
    """Add ``review FILE|- [--json] [--game N] [--tables DIR]`` to a game's subparsers ``cmds``: each game
    of a file of records (:mod:`unitile_py.record_files`; ``review_text`` of its text and the tables
    folder) printed by :func:`print_review`, a row a ``turn``, distances in ``unit``; a bad record is one
    ``error`` line that names the file (and the game, in a file of several)."""
    p = cmds.add_parser("review", help=help_text)
    p.add_argument("file", help="record file (one game or several), or - for standard input")
    fields = ", ".join(json.dumps(field) for field in FIELDS)
    p.add_argument("--json", action="store_true",
                   help=f'one line per {turn}: {{{fields}}}, then {{"summary"}}; "game" first in a file '
                   "of several games")  # fmt: skip
    add_game_option(p)
    p.add_argument("--tables", metavar="DIR", help=tables_help)

    def run(args: argparse.Namespace) -> int:
        first = True

        def one(game: GameText, many: bool) -> None:
            nonlocal first
            review = review_text(game.text, args.tables)
            if many and not args.json and not first:
                print()
            first = False
            print_review(review, args.json, unit, game if many else None)

        return each_game(args.file, args.game, error, one)

    p.set_defaults(func=run)


__all__ = [
    "BEST",
    "FIELDS",
    "GOOD",
    "INACCURACY",
    "MISTAKE",
    "SIDES",
    "VERDICTS",
    "Result",
    "accuracy",
    "accuracy_line",
    "add_review_command",
    "best_of",
    "format_review",
    "ply_row",
    "print_review",
    "rank",
    "review_of",
    "summary",
    "summary_line",
]
