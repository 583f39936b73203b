"""One pass over the positions of a bubble cell: the legal slides, perfect play's best slides and every
per-position check, computing each slide's child once.

The *legal byte* of a position (``moves/legal``):

* bits 0-3: slide ``k`` is legal, where slide ``k`` moves the tile on the ``k``-th neighbour of the
  bubble (``board.neighbours[bubble]``, increasing cell order) into the bubble;
* bit 4 (:data:`RED_UNITED`), bit 5 (:data:`BLUE_UNITED`): the colour is united here. The game is over
  in such a position, so no slide is legal in it.

A slide that unites a colour is always legal; one between two positions where neither colour is united
is legal in the direction that lowers T = r + b (when the two T are exactly equal, in neither: the rule
asks for a strict drop). Only the colour of the moving tile can become united, so each slide needs one
connectivity test.

*Values* (``perfect/value``, int16, Red to move): ``+d`` when the side to move wins in ``d`` plies with
perfect play, ``-d`` when it loses in ``d``, 0 where a colour is united. The winner takes the fastest win
and the loser the longest loss; a slide that unites the mover's colour is a win in 1, one that unites
the opponent's colour a loss in 1. Blue to move in P is Red to move in swap(P) (the colour swap moves no
cell). The *best mask* (``perfect/best``) holds the legal slides that reach the best result (all ties).

:func:`cell_pass` takes the T and the values of the cell and of its neighbour cells (rows of two
*blocks*, in the order of :func:`block_cells`) and gives, for every position of the cell by rank, its
legal byte and best mask, and per chunk of ranks the counts and extremes of :data:`COUNTS` and
:data:`REALS`: the value identities (``mean T(P') = T - 2`` over the slides, some slide lowering T by
``>= 2``, the gaps ``|T(P) - T(P')|`` that legality depends on), positions without a legal slide, and
the *consistency* of every value with its children's (a tablebase check: with no cycle of legal slides,
values consistent everywhere are the perfect-play values).
"""

from __future__ import annotations

import numpy as np
from numba import prange

from unitile_py.unitile.board import Board

from .bits import (
    INLINE,
    JIT,
    PARALLEL,
    GeoArgs,
    cells_of,
    connected,
    next_combination,
    rank,
    slide,
    tiles_of,
    unrank,
)

#: Bits of the legal byte.
SLIDES = 0x0F
RED_UNITED = 0x10
BLUE_UNITED = 0x20
UNITED = RED_UNITED | BLUE_UNITED
#: Ranks per parallel chunk.
CHUNK = 1 << 15

#: Scores used to compare results: a win in d is worth ``WIN - d``, a loss in d ``d - WIN``.
WIN = 1 << 14

#: Slots of the per-chunk counts: positions with red, blue, both, neither united; the identity failures;
#: slides between positions where neither is united with equal T, undecidable (gap <= 2 bound), all of
#: them (each slide counted from both ends); positions without a legal slide; values inconsistent with
#: their children; positions Red (Blue) to move wins; the longest distance.
(RED_ONLY, BLUE_ONLY, BOTH, NEITHER, MEAN_BAD, DROP_BAD, EQUAL, UNDECIDABLE, DECIDING, STUCK, INCONSISTENT,
 WINS_RED, WINS_BLUE, LONGEST) = range(14)  # fmt: skip
N_COUNTS = 14
#: Slots of the per-chunk extremes: largest deviation from the mean identity, smallest best drop,
#: smallest non-zero gap, smallest gap (zero included) and smallest gap relative to the larger T.
MAX_MEAN_DEV, MIN_BEST_DROP, MIN_GAP, MIN_ANY_GAP, MIN_REL_GAP = range(5)
N_REALS = 5
COUNTS = ("red_united_only", "blue_united_only", "both_united", "neither_united", "mean_identity_failures",
          "no_drop_of_2_failures", "equal_T_slides", "undecidable_slides", "deciding_slides",
          "stuck_positions", "values_inconsistent_with_children", "wins_red_to_move", "wins_blue_to_move",
          "longest")  # fmt: skip
REALS = ("max_mean_deviation", "smallest_best_drop", "smallest_T_gap", "smallest_any_T_gap",
         "smallest_relative_T_gap")  # fmt: skip


@JIT
def score(v: int) -> int:
    """A result (a value) as a number that is larger when better for the side to move."""
    return WIN - v if v > 0 else -WIN - v


@JIT
def result_of(v: int) -> int:
    """The mover's result of a slide to a child whose colour-swapped value is ``v`` (0: unknown)."""
    if v > 0:
        return -(v + 1)
    if v < 0:
        return 1 - v
    return 0


def block_cells(board: Board, bubble: int) -> tuple[int, ...]:
    """The cells whose values a pass over ``bubble`` reads, by row: the cell, then its neighbours."""
    return (bubble, *board.neighbours[bubble])


@INLINE
def _position(
    r: int,
    m: int,
    bubble: int,
    t: np.ndarray,
    v: np.ndarray,
    bound: float,
    mean_tol: float,
    g: GeoArgs,
    counts: np.ndarray,
    reals: np.ndarray,
) -> tuple[int, int]:
    """Legal byte and best mask of the position of rank ``r`` (tile mask ``m``); adds to the chunk's
    ``counts`` and ``reals``."""
    cm = cells_of(m, bubble)
    blue = g.full & ~cm & ~(1 << bubble)
    flags = 0
    if connected(cm, g):
        flags |= RED_UNITED
    if connected(blue, g):
        flags |= BLUE_UNITED
    own = v[0, r]
    if flags:
        counts[BOTH if flags == UNITED else RED_ONLY if flags == RED_UNITED else BLUE_ONLY] += 1
        counts[INCONSISTENT] += int(own != 0)
        return flags, 0
    counts[NEITHER] += 1
    here = t[0, r]
    total = 0.0
    best_drop = -np.inf
    best = 0
    best_score = -2 * WIN
    mask = 0
    not_ready = 0
    d = g.deg[bubble]
    for k in range(d):
        n = g.nbr_cells[bubble, k]
        cm2 = slide(cm, bubble, n)
        blue2 = g.full & ~cm2 & ~(1 << n)
        there = t[1 + k, rank(tiles_of(cm2, n), g)]
        total += there
        best_drop = max(best_drop, here - there)
        res = 0
        # Only the colour of the moving tile can become united.
        if cm >> n & 1:
            if connected(cm2, g):
                res = 1
        elif connected(blue2, g):
            res = -1
        if res == 0:
            counts[DECIDING] += 1
            gap = abs(here - there)
            if gap == 0.0:
                counts[EQUAL] += 1
            elif gap < reals[MIN_GAP]:
                reals[MIN_GAP] = gap
            if gap <= 2.0 * bound:
                counts[UNDECIDABLE] += 1
            reals[MIN_ANY_GAP] = min(reals[MIN_ANY_GAP], gap)
            reals[MIN_REL_GAP] = min(reals[MIN_REL_GAP], gap / max(here, there))
            if not there < here:
                continue
            res = result_of(v[1 + k, rank(tiles_of(blue2, n), g)])
            if res == 0:
                not_ready += 1
        flags |= 1 << k
        if res == 0:
            continue
        s = score(res)
        if s > best_score:
            best_score = s
            best = res
            mask = 1 << k
        elif s == best_score:
            mask |= 1 << k
    dev = abs(total / d - (here - 2.0))
    reals[MAX_MEAN_DEV] = max(reals[MAX_MEAN_DEV], dev)
    counts[MEAN_BAD] += int(dev > mean_tol)
    reals[MIN_BEST_DROP] = min(reals[MIN_BEST_DROP], best_drop)
    counts[DROP_BAD] += int(best_drop < 2.0 - 2.0 * bound - mean_tol)
    counts[STUCK] += int(flags == 0)
    counts[INCONSISTENT] += not_ready + int(best != own)
    counts[WINS_RED] += int(own > 0)
    counts[WINS_BLUE] += int(v[0, rank(tiles_of(blue, bubble), g)] > 0)
    counts[LONGEST] = max(counts[LONGEST], abs(own))
    return flags, mask


@PARALLEL
def _cell_pass(
    bubble: int,
    t: np.ndarray,
    v: np.ndarray,
    bound: float,
    mean_tol: float,
    g: GeoArgs,
    legal: np.ndarray,
    best: np.ndarray,
    counts: np.ndarray,
    reals: np.ndarray,
) -> None:
    colourings = t.shape[1]
    for ch in prange((colourings + CHUNK - 1) // CHUNK):
        a = ch * CHUNK
        b = min(a + CHUNK, colourings)
        c = counts[ch]
        x = reals[ch]
        x[MAX_MEAN_DEV] = 0.0
        for i in range(1, N_REALS):
            x[i] = np.inf
        m = unrank(a, g)
        for r in range(a, b):
            legal[r], best[r] = _position(r, m, bubble, t, v, bound, mean_tol, g, c, x)
            m = next_combination(m)


def cell_pass(
    bubble: int, t: np.ndarray, v: np.ndarray, bound: float, mean_tol: float, g: GeoArgs
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """``(legal bytes, best masks, counts, extremes)`` of the positions with the bubble on ``bubble``.

    ``t`` and ``v`` are ``(1 + degree, C)`` blocks of T (float64) and values (int16): row 0 the cell's,
    row ``1 + k`` its ``k``-th neighbour cell's, by rank. ``bound`` bounds the error of every T and
    ``mean_tol`` the deviation allowed in the mean identity. The counts (:data:`COUNTS`) and extremes
    (:data:`REALS`) are summed (maximum for ``longest`` and the deviation, minimum for the rest) over the
    chunks (:func:`combine_stats`).
    """
    c = t.shape[1]
    if t.shape != v.shape or t.shape[0] != 1 + g.deg[bubble]:
        raise ValueError(f"blocks of shapes {t.shape} and {v.shape} for bubble {bubble}")
    n_chunks = (c + CHUNK - 1) // CHUNK
    legal = np.empty(c, dtype=np.uint8)
    best = np.empty(c, dtype=np.uint8)
    counts = np.zeros((n_chunks, N_COUNTS), dtype=np.int64)
    reals = np.empty((n_chunks, N_REALS))
    _cell_pass(bubble, np.ascontiguousarray(t, dtype=np.float64), np.ascontiguousarray(v, dtype=np.int16),
               bound, mean_tol, g, legal, best, counts, reals)  # fmt: skip
    return legal, best, *combine_stats(counts, reals)


def combine_stats(counts: np.ndarray, reals: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Rows of counts and extremes (per chunk or per cell) as one: sums, and maxima or minima."""
    c = counts.sum(axis=0)
    c[LONGEST] = counts[:, LONGEST].max(initial=0)
    x = reals.min(axis=0, initial=np.inf)
    x[MAX_MEAN_DEV] = reals[:, MAX_MEAN_DEV].max(initial=0.0)
    return c, x
