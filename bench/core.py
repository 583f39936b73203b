"""Speed of the core operations that run in inner loops (CPython; the browser runs the same code).

    .venv/bin/python bench/core.py

Prints microseconds per call for index, decode, play, united, canonical_index and parse/format,
each against a plain baseline (the textbook loop over set bits for the rank).
"""

from __future__ import annotations

import random
import sys
import timeit
from math import comb
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from unitile_py.colours import RED
from unitile_py.unitile import Board, Indexer, Position, parse_position
from unitile_py.unitile.index import tiles_of


def plain_rank(mask: int) -> int:
    """The textbook colex rank: a loop over the set bits."""
    total, j, bit = 0, 0, 0
    while mask:
        if mask & 1:
            j += 1
            total += comb(bit, j)
        mask >>= 1
        bit += 1
    return total


def main() -> None:
    board = Board.get(5, 5)
    ix = Indexer.get(board)
    rng = random.Random(1)
    sample = [Position.from_index(board, rng.randrange(board.positions)) for _ in range(2000)]
    masks = [tiles_of(p.red, p.bubble) for p in sample]
    texts = [str(p) for p in sample]

    def per_call(fn: object, n: int = len(sample)) -> float:
        t = min(timeit.repeat(fn, number=1, repeat=5))  # type: ignore[arg-type]
        return t / n * 1e6

    rows = [
        ("rank (table)", per_call(lambda: [ix.rank(m) for m in masks])),
        ("rank (plain loop baseline)", per_call(lambda: [plain_rank(m) for m in masks])),
        ("index", per_call(lambda: [p.index() for p in sample])),
        ("from_index", per_call(lambda: [Position.from_index(board, i) for i in range(0, 2000)])),
        ("play", per_call(lambda: [p.play(p.slides()[0]) for p in sample])),
        ("united(red)", per_call(lambda: [p.united(RED) for p in sample])),
        ("group_counts", per_call(lambda: [p.group_counts() for p in sample])),
        ("canonical_index (16 images)", per_call(lambda: [p.canonical_index() for p in sample])),
        ("parse_position", per_call(lambda: [parse_position(t) for t in texts])),
        ("format_position", per_call(lambda: [str(p) for p in sample])),
    ]
    print(f"Python {sys.version.split()[0]}, 5x5, {len(sample)} random positions")
    for name, us in rows:
        print(f"{name:32s} {us:8.2f} us")
    print(f"rank speed-up over the plain loop: {rows[1][1] / rows[0][1]:.1f}x")


if __name__ == "__main__":
    main()
