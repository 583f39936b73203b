"""Unitile's puzzles (``python -m pipeline puzzles``): every position with Red to move and exactly one
winning slide, found in one numba pass over a finished store, then a seeded choice
(:func:`pipeline.puzzles.choose`) written to ``tables/puzzles/unitile-<board>.json``.

The pass reads ``perfect/value`` (int16 per position, Red to move: ``+d`` a win in ``d`` plies) and
``moves/legal`` (the legal slides; bits 4-5 a colour united). A legal slide of a position that Red wins
wins when it unites red, or when the position after it, with Blue to move, is a loss for Blue (its
colour swap, with Red to move, has a negative value). Positions with a single legal slide are left out
(no choice, no puzzle). Blue to move needs no pass of its own: it is the colour swap with Red to move.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Hashable, Iterator
from functools import cache

import numpy as np

from unitile_py.colours import RED
from unitile_py.unitile.board import Board
from unitile_py.unitile.position import Position

from ..puzzles import Candidates, choose, document, puzzle_path, write
from ..store import resolved
from .bits import JIT, GeoArgs, cells_of, connected, rank, slide, tiles_of, unrank
from .cellpass import UNITED
from .geometry import Geometry
from .store import Store, default_path


@JIT
def _scan(value: np.ndarray, legal: np.ndarray, g: GeoArgs, out: np.ndarray) -> None:
    """``out[i]`` = 1 + the neighbour number of the one winning slide of position ``i`` (Red to move), 0
    where the position is not a puzzle."""
    colourings = value.shape[0] // g.cells
    for bubble in range(g.cells):
        base = bubble * colourings
        for r in range(colourings):
            i = base + r
            if value[i] <= 0 or legal[i] & UNITED:
                continue
            red = cells_of(unrank(r, g), bubble)
            wins = 0
            moves = 0
            which = -1
            for k in range(g.deg[bubble]):
                if not legal[i] >> k & 1:
                    continue
                moves += 1
                n = g.nbr_cells[bubble, k]
                red2 = slide(red, bubble, n)
                blue2 = g.full & ~red2 & ~(1 << n)
                if red >> n & 1:
                    won = connected(red2, g)
                    if not won:
                        # Blue to move after the slide: the value of the colour swap with Red to move.
                        won = value[n * colourings + rank(tiles_of(blue2, n), g)] < 0
                elif connected(blue2, g):
                    won = False
                else:
                    won = value[n * colourings + rank(tiles_of(blue2, n), g)] < 0
                if won:
                    wins += 1
                    which = k
            if wins == 1 and moves > 1:
                out[i] = which + 1


def scan(store: Store) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(indexes, slots, distances)`` of every puzzle position of a finished store, by index."""
    store.require("verify")
    value = store.read("perfect/value")
    legal = store.read("moves/legal")
    out = np.zeros(value.shape[0], dtype=np.uint8)
    _scan(value, legal, Geometry.of(store.board).args, out)
    index = np.flatnonzero(out)
    return index, out[index].astype(np.int64) - 1, value[index].astype(np.int64)


def _key(p: Position) -> Hashable:
    """The symmetry class of a position with Red to move (the colour swap is another puzzle)."""
    return p.canonical_index(colour_swap=False)


def _near(p: Position) -> Iterator[Hashable]:
    """The classes within two slides of ``p`` as Red-to-move positions (a slide's position with Blue to
    move is its colour swap with Red to move), ``p``'s own among them."""
    yield _key(p)
    for a in p.slides():
        child = p.play(a)
        yield _key(child.swap_colours())
        for b in child.slides():
            yield _key(child.play(b))


def candidates(board: Board, index: np.ndarray, slots: np.ndarray, distances: np.ndarray) -> Candidates:
    """The scan's positions as :class:`pipeline.puzzles.Candidates`."""
    by: dict[int, np.ndarray] = {int(d): np.flatnonzero(distances == d) for d in np.unique(distances)}

    @cache
    def position(d: int, i: int) -> Position:
        return Position.from_index(board, int(index[by[d][i]]), RED)

    def item(d: int, i: int) -> tuple[str, str]:
        p = position(d, i)
        return str(p), board.name(board.neighbours[p.bubble][int(slots[by[d][i]])])

    return Candidates(
        {d: len(v) for d, v in by.items()},
        item,
        lambda d, i: _key(position(d, i)),
        lambda d, i: _near(position(d, i)),
    )


def run(args: argparse.Namespace) -> int:
    """``python -m pipeline puzzles``: scan the store, choose, write; the file's size to standard error."""
    board = Board.parse(args.board)
    path = puzzle_path("unitile", str(board), args.out)
    store = Store(resolved(args.store or default_path(board)), board)
    index, slots, distances = scan(store)
    cands = candidates(board, index, slots, distances)
    puzzles = choose(cands, args.per_band, args.seed)
    command = f"python -m pipeline puzzles --board {board} --seed {args.seed} --per-band {args.per_band}"
    data = document("unitile", str(board), command, args.seed, args.per_band, cands.by_distance, puzzles)
    size = write(path, data)
    if not args.quiet:
        print(f"{path}: {len(puzzles)} puzzles of {len(index)} positions that qualify, {size} bytes",
              file=sys.stderr)  # fmt: skip
    return 0


__all__ = ["candidates", "run", "scan"]
