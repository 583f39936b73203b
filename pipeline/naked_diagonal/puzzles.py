"""Naked Diagonal's puzzles (``python -m pipeline nd-puzzles``): every stored position of a solved size in
which Red, to move, has exactly one winning placement, then a seeded choice
(:func:`pipeline.puzzles.choose`) written to ``tables/puzzles/naked-diagonal-<N>x<N>.json``.

The tables (``tables/naked-diagonal/<N>x<N>/``) hold one record per symmetry class of the positions
that play from the empty board reaches, keyed by the canonical image, which always has Red to move. The
scan reads them with the game's own reader (:class:`unitile_py.naked_diagonal.tables.NDTables`): for
each record that Red wins, the result of every legal placement, as ``nd analyze`` gives it. A position
with a single legal placement is left out (no choice, no puzzle). Counts are of records (classes).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Hashable, Iterator

from unitile_py.colours import BLUE, RED
from unitile_py.naked_diagonal.grid import Grid
from unitile_py.naked_diagonal.keys import canonical_key, key_position
from unitile_py.naked_diagonal.position import Position, _unchecked
from unitile_py.naked_diagonal.tables import NDTables, tables_for

from ..puzzles import Candidates, choose, document, puzzle_path, write


def scan(tables: NDTables) -> dict[int, list[tuple[int, int]]]:
    """``{distance: [(canonical key, the winning point), ...]}`` of every puzzle record, in key order."""
    out: dict[int, list[tuple[int, int]]] = {}
    for stones in sorted(tables.tiers):
        tier = tables.tiers[stones]
        for key, v in zip(tier.keys, tier.values, strict=True):
            if not v & 1:
                continue  # a loss for Red, to move
            p = key_position(tables.n, key)
            if p.winner() is not None:
                continue
            moves = tables.moves(p)
            wins = [q for q, (kind, _) in moves.items() if kind == "win"]
            if len(wins) == 1 and len(moves) > 1:
                out.setdefault(v >> 1, []).append((key, wins[0]))
    return out


def _near(p: Position) -> Iterator[Hashable]:
    """The canonical keys of ``p`` and of the positions one or two placements before it (so that two
    puzzles on one line of play, in either order, share one)."""
    yield canonical_key(p)
    grid = p.grid
    for q in Grid.points(p.red | p.blue):
        red, blue = p.red & ~(1 << q), p.blue & ~(1 << q)
        one = _unchecked(grid, red, blue, RED if red != p.red else BLUE)
        yield canonical_key(one)
        for s in Grid.points(red | blue):
            if s > q:
                two = _unchecked(grid, red & ~(1 << s), blue & ~(1 << s), p.turn)
                yield canonical_key(two)


def candidates(n: int, found: dict[int, list[tuple[int, int]]]) -> Candidates:
    """The scan's records as :class:`pipeline.puzzles.Candidates`."""
    grid = Grid.get(n)

    def item(d: int, i: int) -> tuple[str, str]:
        key, point = found[d][i]
        return str(key_position(n, key)), grid.name(point)

    return Candidates(
        {d: len(v) for d, v in found.items()},
        item,
        lambda d, i: found[d][i][0],
        lambda d, i: _near(key_position(n, found[d][i][0])),
    )


def run(args: argparse.Namespace) -> int:
    """``python -m pipeline nd-puzzles``: scan the tables, choose, write; its size to standard error."""
    n = int(args.board.split("x")[0])
    path = puzzle_path("naked-diagonal", f"{n}x{n}", args.out)
    found = scan(tables_for(n, args.tables))
    cands = candidates(n, found)
    puzzles = choose(cands, args.per_band, args.seed)
    board = f"{n}x{n}"
    command = f"python -m pipeline nd-puzzles --board {board} --seed {args.seed} --per-band {args.per_band}"
    data = document("naked-diagonal", board, command, args.seed, args.per_band, cands.by_distance, puzzles)
    size = write(path, data)
    if not args.quiet:
        total = sum(cands.by_distance.values())
        said = f"{path}: {len(puzzles)} puzzles of {total} records that qualify, {size} bytes"
        print(said, file=sys.stderr)
    return 0


__all__ = ["candidates", "run", "scan"]
