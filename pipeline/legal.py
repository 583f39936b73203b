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

>>> import numpy as np
>>> from unitile_py import Board, Position
>>> from tests.reference import exact_r, total_values
>>> board = Board.get(3, 3)
>>> t = np.array([float(v) for v in total_values(board, exact_r(board))])
>>> res = legal_bytes(board, t)
>>> p = Position.start(board)
>>> byte = int(res.legal[p.index()])
>>> [board.name(c) for k, c in enumerate(p.slides()) if byte >> k & 1]
['b3', 'b1']
>>> res.ties, res.stuck
(0, 0)
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numba import njit, prange

from unitile_py.board import Board

from .bits import JIT, cells_of, connected, next_combination, rank, slide, tiles_of, unrank
from .geometry import Geometry

#: Bits of the legal byte.
SLIDES = 0x0F
RED_UNITED = 0x10
BLUE_UNITED = 0x20
UNITED = RED_UNITED | BLUE_UNITED

#: Ranks per parallel chunk.
CHUNK = 1 << 15


@njit(parallel=True, **JIT)
def _legal_piece(
    bubble: int,
    r_lo: int,
    r_hi: int,
    total: np.ndarray,
    nbr_cells: np.ndarray,
    deg: np.ndarray,
    tiles: int,
    red: int,
    cols: int,
    full: int,
    not_last: int,
    not_first: int,
    rank_tab: np.ndarray,
    pop8: np.ndarray,
    binom: np.ndarray,
    colourings: int,
    out: np.ndarray,
    stats: np.ndarray,
    gaps: np.ndarray,
) -> None:
    """Legal bytes of the positions ``bubble * colourings + r`` for ``r_lo <= r < r_hi``.

    ``stats[chunk] = (ties, stuck)``; ``gaps[chunk] = (smallest |dT|, smallest |dT| / max(T, T'))``.
    """
    n_chunks = (r_hi - r_lo + CHUNK - 1) // CHUNK
    base = bubble * colourings
    for ch in prange(n_chunks):
        a = r_lo + ch * CHUNK
        b = min(a + CHUNK, r_hi)
        ties = 0
        stuck = 0
        gap = np.inf
        rel = np.inf
        m = unrank(a, tiles, red, binom)
        for r in range(a, b):
            cm = cells_of(m, bubble)
            blue = full & ~cm & ~(1 << bubble)
            flags = 0
            if connected(cm, cols, not_last, not_first):
                flags |= RED_UNITED
            if connected(blue, cols, not_last, not_first):
                flags |= BLUE_UNITED
            if flags == 0:
                here = total[base + r]
                for k in range(deg[bubble]):
                    n = nbr_cells[bubble, k]
                    cm2 = slide(cm, bubble, n)
                    blue2 = full & ~cm2 & ~(1 << n)
                    unites = connected(cm2, cols, not_last, not_first)
                    if unites or connected(blue2, cols, not_last, not_first):
                        flags |= 1 << k
                        continue
                    there = total[n * colourings + rank(tiles_of(cm2, n), rank_tab, pop8)]
                    if there < here:
                        flags |= 1 << k
                    elif there == here:
                        ties += 1
                    d = abs(here - there)
                    gap = min(gap, d)
                    rel = min(rel, d / max(here, there))
                if flags == 0:
                    stuck += 1
            out[r - r_lo] = flags
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


def legal_range(board: Board, total: np.ndarray, lo: int, hi: int) -> LegalResult:
    """Legal bytes of the positions with index ``lo <= i < hi``; ``total`` is T of every position."""
    geo = Geometry.of(board)
    if total.shape != (board.positions,):
        raise ValueError(f"T has shape {total.shape}, expected ({board.positions},)")
    c = board.colourings
    out = np.empty(hi - lo, dtype=np.uint8)
    ties = stuck = 0
    gap = rel = np.inf
    i = lo
    while i < hi:
        bubble, r = divmod(i, c)
        r_hi = min(c, r + hi - i)
        n_chunks = (r_hi - r + CHUNK - 1) // CHUNK
        stats = np.zeros((n_chunks, 2), dtype=np.int64)
        gaps = np.zeros((n_chunks, 2))
        _legal_piece(
            bubble,
            r,
            r_hi,
            total,
            geo.nbr_cells,
            geo.deg,
            geo.tiles,
            geo.red,
            geo.cols,
            geo.full,
            geo.not_last,
            geo.not_first,
            geo.rank_tab,
            geo.pop8,
            geo.binom,
            c,
            out[i - lo : i - lo + r_hi - r],
            stats,
            gaps,
        )
        ties += int(stats[:, 0].sum())
        stuck += int(stats[:, 1].sum())
        gap = min(gap, float(gaps[:, 0].min()))
        rel = min(rel, float(gaps[:, 1].min()))
        i += r_hi - r
    return LegalResult(out, ties, stuck, gap, rel)


def legal_bytes(board: Board, total: np.ndarray) -> LegalResult:
    """Legal bytes of every position of the board."""
    return legal_range(board, total, 0, board.positions)


def combine(results: list[LegalResult]) -> LegalResult:
    """The result of consecutive ranges, in order."""
    return LegalResult(
        np.concatenate([r.legal for r in results]),
        sum(r.ties for r in results),
        sum(r.stuck for r in results),
        min(r.min_gap for r in results),
        min(r.min_rel_gap for r in results),
    )
