"""Perfect play: win or loss and the distance to the end for every position, by retrograde analysis.

The *value* of a position with Red to move is an ``int16``: ``+d`` when the side to move wins in ``d``
plies with perfect play, ``-d`` when it loses in ``d`` plies, ``0`` where a colour is united (the game
is over). The winner takes the fastest win and the loser the longest loss; a slide that unites the
mover's colour is a win in 1, one that unites the opponent's colour a loss in 1. The colour swap maps
(P, Blue to move) to (swap(P), Red to move), so one array covers both sides:
``value(P, blue) = red_value[swap(P)]``.

Every slide that unites nothing lowers T strictly, and T(swap(P)) = T(P), so processing positions in
increasing T visits every child's colour-swapped image before its parent: one sequential pass.

:func:`best_masks` then gives, for each position and side, the legal slides perfect play may choose
(all ties), and :func:`check_values` re-derives every value from its children in parallel (the
tablebase consistency pass of ``pipeline verify``).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numba import njit, prange

from unitile_py.board import Board

from .bits import JIT, cells_of, connected, next_combination, rank, slide, tiles_of, unrank
from .geometry import Geometry
from .legal import CHUNK, UNITED

#: Scores used to compare results: a win in d is worth ``WIN - d``, a loss in d ``d - WIN``.
WIN = 1 << 14


@njit(**JIT)
def _score(v: int) -> int:
    """Larger is better for the side to move."""
    return WIN - v if v > 0 else -WIN - v


@njit(**JIT)
def _slide_result(
    cm: int,
    bubble: int,
    n: int,
    value: np.ndarray,
    tiles: int,
    cols: int,
    full: int,
    not_last: int,
    not_first: int,
    rank_tab: np.ndarray,
    pop8: np.ndarray,
    colourings: int,
) -> int:
    """The mover's result (a value) of the slide from cell ``n`` when Red is to move, or 0 if unknown."""
    cm2 = slide(cm, bubble, n)
    if connected(cm2, cols, not_last, not_first):
        return 1
    blue2 = full & ~cm2 & ~(1 << n)
    if connected(blue2, cols, not_last, not_first):
        return -1
    # The child with Blue to move is the colour-swapped child with Red to move.
    v = value[n * colourings + rank(tiles_of(blue2, n), rank_tab, pop8)]
    if v > 0:
        return -(v + 1)
    if v < 0:
        return 1 - v
    return 0


@njit(**JIT)
def _best_slides(
    cm: int,
    bubble: int,
    flags: int,
    nbr_cells: np.ndarray,
    value: np.ndarray,
    tiles: int,
    cols: int,
    full: int,
    not_last: int,
    not_first: int,
    rank_tab: np.ndarray,
    pop8: np.ndarray,
    colourings: int,
) -> tuple[int, int, int]:
    """Perfect play over the legal slides (bits of ``flags``) of the position ``(cm, bubble)``.

    Returns the value of the best slide for Red to move (0 if none is known), the mask of the slides
    that reach it, and the number of legal slides whose child has no value yet.
    """
    best = 0
    best_score = -2 * WIN
    mask = 0
    not_ready = 0
    for k in range(4):
        if not flags >> k & 1:
            continue
        res = _slide_result(
            cm,
            bubble,
            nbr_cells[bubble, k],
            value,
            tiles,
            cols,
            full,
            not_last,
            not_first,
            rank_tab,
            pop8,
            colourings,
        )
        if res == 0:
            not_ready += 1
            continue
        s = _score(res)
        if s > best_score:
            best_score = s
            best = res
            mask = 1 << k
        elif s == best_score:
            mask |= 1 << k
    return best, mask, not_ready


@njit(**JIT)
def _retrograde(
    order: np.ndarray,
    legal: np.ndarray,
    nbr_cells: np.ndarray,
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
    value: np.ndarray,
) -> int:
    """Fill ``value`` in the given order; returns the number of positions whose child was not ready."""
    missing = 0
    for t in range(order.shape[0]):
        i = order[t]
        flags = legal[i]
        if flags & UNITED:
            continue
        bubble = i // colourings
        cm = cells_of(unrank(i - bubble * colourings, tiles, red, binom), bubble)
        best, _, not_ready = _best_slides(
            cm,
            bubble,
            flags,
            nbr_cells,
            value,
            tiles,
            cols,
            full,
            not_last,
            not_first,
            rank_tab,
            pop8,
            colourings,
        )
        missing += not_ready
        value[i] = best
    return missing


@dataclass(frozen=True)
class PerfectResult:
    """Values for Red to move of every position, and a summary."""

    value: np.ndarray
    max_distance: int
    #: positions where neither colour is united, and how many of them Red (to move) wins.
    active: int
    red_wins: int


def retrograde(board: Board, total: np.ndarray, legal: np.ndarray) -> PerfectResult:
    """Values for Red to move of every position from T and the legal bytes (one pass in increasing T)."""
    geo = Geometry.of(board)
    order = np.argsort(total, kind="stable")
    value = np.zeros(board.positions, dtype=np.int16)
    missing = _retrograde(
        order,
        legal,
        geo.nbr_cells,
        geo.tiles,
        geo.red,
        geo.cols,
        geo.full,
        geo.not_last,
        geo.not_first,
        geo.rank_tab,
        geo.pop8,
        geo.binom,
        geo.colourings,
        value,
    )
    del order
    if missing:
        raise RuntimeError(f"{missing} slides reached a position that increasing T had not solved yet")
    active = int(np.count_nonzero((legal & UNITED) == 0))
    if int(np.count_nonzero(value)) != active:
        raise RuntimeError("some position where no colour is united has no legal move")
    return PerfectResult(value, int(np.abs(value).max()), active, int(np.count_nonzero(value > 0)))


@njit(parallel=True, **JIT)
def _best_bubble(
    bubble: int,
    legal: np.ndarray,
    value: np.ndarray,
    nbr_cells: np.ndarray,
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
    bad: np.ndarray,
) -> None:
    """Best-slide masks (Red to move) of the positions with the bubble on ``bubble``, by rank.

    ``legal`` holds their legal bytes (by rank), ``value`` the values of every position; ``bad[chunk]``
    counts positions whose value differs from the one their children give.
    """
    n_chunks = (colourings + CHUNK - 1) // CHUNK
    base = bubble * colourings
    for ch in prange(n_chunks):
        a = ch * CHUNK
        b = min(a + CHUNK, colourings)
        wrong = 0
        m = unrank(a, tiles, red, binom)
        for r in range(a, b):
            i = base + r
            flags = legal[r]
            mask = 0
            if not flags & UNITED:
                cm = cells_of(m, bubble)
                best, mask, not_ready = _best_slides(
                    cm,
                    bubble,
                    flags,
                    nbr_cells,
                    value,
                    tiles,
                    cols,
                    full,
                    not_last,
                    not_first,
                    rank_tab,
                    pop8,
                    colourings,
                )
                wrong += not_ready
                if best != value[i]:
                    wrong += 1
            elif value[i] != 0:
                wrong += 1
            out[r] = mask
            m = next_combination(m)
        bad[ch] = wrong


@dataclass(frozen=True)
class BestResult:
    """Best-slide masks for Red to move (bits as in the legal byte) and the consistency count."""

    best: np.ndarray
    #: positions whose stored value differs from the one their children give (0 when consistent).
    inconsistent: int


def best_of_bubble(board: Board, bubble: int, legal: np.ndarray, value: np.ndarray) -> BestResult:
    """Best-slide masks (Red to move) of the positions with the bubble on ``bubble``, re-deriving each
    value from its children on the way.

    ``legal`` holds the legal bytes of those positions (by rank), ``value`` the values of every position.
    With Blue to move the best slides of P are those of swap(P) with Red to move (the colour swap moves
    no cell).
    """
    geo = Geometry.of(board)
    c = board.colourings
    out = np.empty(c, dtype=np.uint8)
    bad = np.zeros((c + CHUNK - 1) // CHUNK, dtype=np.int64)
    _best_bubble(
        bubble,
        legal,
        value,
        geo.nbr_cells,
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
        out,
        bad,
    )
    return BestResult(out, int(bad.sum()))


def best_masks(board: Board, legal: np.ndarray, value: np.ndarray) -> BestResult:
    """Best-slide masks of every position (Red to move)."""
    c = board.colourings
    parts = [best_of_bubble(board, b, legal[b * c : (b + 1) * c], value) for b in range(board.cells)]
    return BestResult(np.concatenate([p.best for p in parts]), sum(p.inconsistent for p in parts))
