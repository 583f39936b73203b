"""``python -m pipeline values``: ``r``, ``b`` and ``T`` of positions, read back from their boards' stores
(:class:`pipeline.unitile.values.Lookup`)."""

from __future__ import annotations

import argparse
import json
import math
from collections.abc import Iterator

from unitile_py.errors import GameError
from unitile_py.inputs import input_lines, stdin_bytes
from unitile_py.unitile.board import Board
from unitile_py.unitile.notation import parse_position

from .store import default_path
from .values import Lookup


def _lines(arg: str) -> Iterator[tuple[int, str | GameError]]:
    """``(line number, text)`` of the positions to look up: the argument, or each line of standard input
    for ``-`` as it arrives (:func:`unitile_py.inputs.input_lines`: a GameError for a line that is not
    UTF-8 or too long)."""
    if arg != "-":
        yield 1, arg
        return
    yield from input_lines(stdin_bytes())


def run(args: argparse.Namespace) -> int:
    """Print ``r``, ``b`` and ``T`` of the position given, or of each line of standard input for ``-`` (a
    bad line is an error line and the rest go on: exit status 2 at the end)."""
    lookups: dict[tuple[Board, str], Lookup] = {}
    status = 0
    for n, line in _lines(args.position):
        text = line.strip() if isinstance(line, str) else line
        if text == "":
            continue
        try:
            if isinstance(text, GameError):
                raise text
            position = parse_position(text)
            path = args.store or default_path(position.board)
            key = (position.board, path)
            if key not in lookups:
                lookups[key] = Lookup(path, position.board)
            r, b, t = lookups[key].values(position)
        except GameError as exc:
            if args.position != "-":
                raise
            said = str(exc) if exc is text else f"line {n}: {exc}"
            print(json.dumps({"error": said}) if args.json else f"error: {said}", flush=True)
            status = 2
            continue
        if args.json:
            print(json.dumps({"r": r, "b": b, "T": t}), flush=True)
        else:
            print(f"r {_num(r)}  b {_num(b)}  T {_num(t)}", flush=True)
    return status


def _num(v: float) -> str:
    return repr(v) if math.isfinite(v) else str(v)
