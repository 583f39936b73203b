"""Legal moves of every position: the slides that unite a colour or lower T = r + b strictly.

One byte per position (the *legal byte*):

* bits 0-3: slide ``k`` is legal, where slide ``k`` moves the tile on the ``k``-th neighbour of the
  bubble (``board.neighbours[bubble]``, increasing cell order) into the bubble;
* bit 4 (:data:`RED_UNITED`), bit 5 (:data:`BLUE_UNITED`): the colour is united here. The game is
  over in such a position, so no slide is legal in it.

A slide between two positions where neither colour is united is legal in the direction that lowers T;
when the two T are exactly equal it is legal in neither direction (the rule asks for a strict drop).
A slide that unites a colour is always legal. The kernels also measure what the rule depends on: the
number of exact ties and the smallest gap ``|T(P) - T(P')|`` over the slides that unite nothing.

With a made-up T, the position index itself, the slides from the 3x3 start to a smaller index are legal:

>>> import numpy as np
>>> from unitile_py import Board, Position
>>> board = Board.get(3, 3)
>>> p = Position.start(board)
>>> p.index(), [(board.name(c), p.play(c).index()) for c in p.slides()]
(329, [('b3', 120), ('a2', 259), ('c2', 399), ('b1', 549)])
>>> res = legal_bytes(board, np.arange(board.positions, dtype=np.float64))
>>> byte = int(res.legal[p.index()])
>>> [board.name(c) for k, c in enumerate(p.slides()) if byte >> k & 1], res.ties
(['b3', 'a2'], 0)
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numba import prange

from unitile_py.board import Board

from .bits import PARALLEL, GeoArgs, cells_of, connected, next_combination, rank, slide, tiles_of, unrank
from .geometry import Geometry

#: Bits of the legal byte.
SLIDES = 0x0F
RED_UNITED = 0x10
BLUE_UNITED = 0x20
UNITED = RED_UNITED | BLUE_UNITED

#: Ranks per parallel chunk.
CHUNK = 1 << 15


@PARALLEL
def _legal_bubble(
    bubble: int,
    blocks: np.ndarray,
    g: GeoArgs,
    out: np.ndarray,
    stats: np.ndarray,
    gaps: np.ndarray,
) -> None:
    """Legal bytes of every position with the bubble on ``bubble`` (by rank).

    ``blocks[0]`` is T of those positions by rank, ``blocks[1 + k]`` T of the positions with the bubble
    on the k-th neighbour cell. ``stats[chunk] = (ties, stuck)``; ``gaps[chunk] = (smallest |dT|,
    smallest |dT| / max(T, T'))``.
    """
    colourings = blocks.shape[1]
    n_chunks = (colourings + CHUNK - 1) // CHUNK
    for ch in prange(n_chunks):
        a = ch * CHUNK
        b = min(a + CHUNK, colourings)
        ties = 0
        stuck = 0
        gap = np.inf
        rel = np.inf
        m = unrank(a, g)
        for r in range(a, b):
            cm = cells_of(m, bubble)
            blue = g.full & ~cm & ~(1 << bubble)
            flags = 0
            if connected(cm, g):
                flags |= RED_UNITED
            if connected(blue, g):
                flags |= BLUE_UNITED
            if flags == 0:
                here = blocks[0, r]
                for k in range(g.deg[bubble]):
                    n = g.nbr_cells[bubble, k]
                    cm2 = slide(cm, bubble, n)
                    blue2 = g.full & ~cm2 & ~(1 << n)
                    if connected(cm2, g) or connected(blue2, g):
                        flags |= 1 << k
                        continue
                    there = blocks[1 + k, rank(tiles_of(cm2, n), g)]
                    if there < here:
                        flags |= 1 << k
                    elif there == here:
                        ties += 1
                    d = abs(here - there)
                    gap = min(gap, d)
                    rel = min(rel, d / max(here, there))
                if flags == 0:
                    stuck += 1
            out[r] = flags
            m = next_combination(m)
        stats[ch, 0] = ties
        stats[ch, 1] = stuck
        gaps[ch, 0] = gap
        gaps[ch, 1] = rel


@dataclass(frozen=True)
class LegalResult:
    """Legal bytes of a range of positions and what the rule depended on there."""

    legal: np.ndarray
    #: slides between positions with equal T (counted from both ends, so twice per slide).
    ties: int
    #: positions where neither colour is united and no slide is legal (the rules say there are none).
    stuck: int
    #: the smallest ``|T(P) - T(P')|`` over the slides that unite nothing, absolute and relative.
    min_gap: float
    min_rel_gap: float


def legal_of_bubble(board: Board, bubble: int, blocks: np.ndarray) -> LegalResult:
    """Legal bytes of the positions with the bubble on ``bubble``, from T of that bubble cell and of
    its neighbour cells (``blocks``, as in :func:`_legal_bubble`)."""
    geo = Geometry.of(board)
    c = board.colourings
    if blocks.shape != (1 + len(board.neighbours[bubble]), c):
        raise ValueError(f"T blocks have shape {blocks.shape}")
    out = np.empty(c, dtype=np.uint8)
    n_chunks = (c + CHUNK - 1) // CHUNK
    stats = np.zeros((n_chunks, 2), dtype=np.int64)
    gaps = np.zeros((n_chunks, 2))
    _legal_bubble(
        bubble,
        np.ascontiguousarray(blocks, dtype=np.float64),
        geo.args,
        out,
        stats,
        gaps,
    )
    return LegalResult(
        out, int(stats[:, 0].sum()), int(stats[:, 1].sum()), float(gaps[:, 0].min()), float(gaps[:, 1].min())
    )


def t_blocks(board: Board, total: np.ndarray, bubble: int) -> np.ndarray:
    """T of the bubble cell's positions and of its neighbour cells' (see :func:`legal_of_bubble`)."""
    c = board.colourings
    return np.stack([total[b * c : (b + 1) * c] for b in (bubble, *board.neighbours[bubble])])


def legal_bytes(board: Board, total: np.ndarray) -> LegalResult:
    """Legal bytes of every position of the board; ``total`` is T of every position."""
    if total.shape != (board.positions,):
        raise ValueError(f"T has shape {total.shape}, expected ({board.positions},)")
    return combine([legal_of_bubble(board, b, t_blocks(board, total, b)) for b in range(board.cells)])


def combine(results: list[LegalResult]) -> LegalResult:
    """The result of consecutive ranges, in order."""
    return LegalResult(
        np.concatenate([r.legal for r in results]),
        sum(r.ties for r in results),
        sum(r.stuck for r in results),
        min(r.min_gap for r in results),
        min(r.min_rel_gap for r in results),
    )
