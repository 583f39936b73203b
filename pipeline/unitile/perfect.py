"""Perfect play: win or loss and the distance to the end of every position, on the symmetry classes.

Values and best masks are as in :mod:`pipeline.unitile.cellpass`. A position's value is that of its symmetry
class (a symmetry maps the game tree onto itself), so :func:`class_values` computes one value per class
of the value solve, from the class graph (``graph/nbr``, ``graph/info``, ``graph/swap``) and T per class
(``values/T_class``): 8 x fewer unknowns than positions on 5x5, and no per-position array. Every legal
slide that unites nothing lowers T, so one pass over the classes where neither colour is united in
increasing T meets every child before its parent (the child's colour swap, whose value the mover's
result comes from, has the same T bit for bit). A slide of class ``c`` is the slide of its
representative: ``nbr[c, k]`` is the class after it (-1 when it unites red), red is united in class ``d``
exactly when ``info[d]`` lacks the active bit, and blue in ``d`` when red is in ``swap[d]``.

The per-position pass (:func:`pipeline.unitile.cellpass.cell_pass`) then re-derives every position's value
from its children's, with the legal bytes computed there from the positions' own T: the values are checked
position by position, independently of the classes.

:func:`retrograde` is the same pass over positions, holding every T and value (small boards only); the
tests compare it with brute-force minimax, and the pipeline's values with it.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from unitile_py.unitile.board import Board

from .bits import INLINE, JIT, GeoArgs, cells_of, connected, rank, slide, tiles_of, unrank
from .cellpass import INCONSISTENT, UNITED, WIN, block_cells, cell_pass, combine_stats, result_of, score
from .classes import ACTIVE_BIT, DEG_MASK, WEIGHT_SHIFT
from .geometry import Geometry

#: Slots of :attr:`ClassValues.counts`.
STUCK, TIES, MISSING, ACTIVE, RED_WINS, SLIDES = range(6)


@JIT
def _class_pass(
    order: np.ndarray, nbr: np.ndarray, info: np.ndarray, swap: np.ndarray, t: np.ndarray, out: np.ndarray
) -> np.ndarray:
    """Fill ``out`` (int16 per class, zeros in) in the given order of the classes where neither colour is
    united; returns the counts of :data:`STUCK` ... :data:`RED_WINS` (positions, by class weights) and
    the slides looked at (:data:`SLIDES`)."""
    counts = np.zeros(6, dtype=np.int64)
    for i in range(order.shape[0]):
        c = order[i]
        code = info[c]
        here = t[c]
        best = 0
        best_score = -2 * WIN
        counts[SLIDES] += code & DEG_MASK
        for k in range(code & DEG_MASK):
            d = nbr[c, k]
            if d < 0:
                res = 1  # the slide unites red
            elif not info[swap[d]] & ACTIVE_BIT:
                res = -1  # it unites blue
            elif t[d] < here:
                res = result_of(out[swap[d]])
                if res == 0:
                    counts[MISSING] += 1
                    continue
            else:
                counts[TIES] += int(t[d] == here)
                continue
            s = score(res)
            if s > best_score:
                best_score = s
                best = res
        counts[STUCK] += int(best == 0)
        out[c] = best
        w = 1 << ((code >> WEIGHT_SHIFT) & 7)
        counts[ACTIVE] += w
        counts[RED_WINS] += w if best > 0 else 0
    return counts


@dataclass(frozen=True)
class ClassValues:
    """Values (Red to move) of every class, and what the pass met."""

    value: np.ndarray
    #: see :data:`STUCK` ... :data:`SLIDES`: classes with no legal slide, slides between equal T (from
    #: one end), children not solved before their parent (none when T strictly falls along slides),
    #: positions where neither colour is united, those Red to move wins, and the slides looked at.
    counts: np.ndarray

    @property
    def longest(self) -> int:
        """The longest distance to the end."""
        return int(np.abs(self.value).max(initial=0))


def class_values(nbr: np.ndarray, info: np.ndarray, swap: np.ndarray, t_class: np.ndarray) -> ClassValues:
    """Perfect play on the classes (see the module docstring)."""
    neither = ((info & ACTIVE_BIT) != 0) & ((info[swap] & ACTIVE_BIT) != 0)
    ids = np.flatnonzero(neither)
    order = ids[np.argsort(t_class[ids], kind="stable")]
    value = np.zeros(info.shape[0], dtype=np.int16)
    counts = _class_pass(order, nbr, info, swap, t_class, value)
    return ClassValues(value, counts)


# The reference: positions in increasing T ---------------------------------------------------------------


@INLINE
def _child(cm: int, bubble: int, n: int, g: GeoArgs) -> tuple[int, int]:
    """The slide from cell ``n`` of the position ``(cm, bubble)`` with Red to move: ``(1, -1)`` when it
    unites Red, ``(-1, -1)`` when it unites Blue, else ``(0, rank)`` with the rank in cell ``n`` of the
    child with Blue to move after colour swap (Red to move; the swap moves no cell)."""
    cm2 = slide(cm, bubble, n)
    if connected(cm2, g):
        return 1, -1
    blue2 = g.full & ~cm2 & ~(1 << n)
    if connected(blue2, g):
        return -1, -1
    return 0, rank(tiles_of(blue2, n), g)


@JIT
def _retrograde(order: np.ndarray, legal: np.ndarray, g: GeoArgs, vals: np.ndarray) -> int:
    """Fill ``vals`` (cells x C) in the given order; returns the number of slides to an unsolved child."""
    colourings = vals.shape[1]
    missing = 0
    for t in range(order.shape[0]):
        i = order[t]
        flags = legal[i]
        if flags & UNITED:
            continue
        bubble = i // colourings
        r = i - bubble * colourings
        cm = cells_of(unrank(r, g), bubble)
        best = 0
        best_score = -2 * WIN
        for k in range(4):
            if not flags >> k & 1:
                continue
            n = g.nbr_cells[bubble, k]
            united, r2 = _child(cm, bubble, n, g)
            res = united if united else result_of(vals[n, r2])
            if res == 0:
                missing += 1
            elif score(res) > best_score:
                best_score = score(res)
                best = res
        vals[bubble, r] = best
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
    order = np.argsort(total, kind="stable")
    value = np.zeros(board.positions, dtype=np.int16)
    missing = _retrograde(order, legal, Geometry.of(board).args, value.reshape(board.cells, board.colourings))
    if missing:
        raise RuntimeError(f"{missing} slides reached a position that increasing T had not solved yet")
    active = int(np.count_nonzero((legal & UNITED) == 0))
    if int(np.count_nonzero(value)) != active:
        raise RuntimeError("some position where no colour is united has no legal move")
    return PerfectResult(value, int(np.abs(value).max()), active, int(np.count_nonzero(value > 0)))


@dataclass(frozen=True)
class BestResult:
    """Best-slide masks for Red to move (bits as in the legal byte) and the consistency count."""

    best: np.ndarray
    #: positions whose stored value differs from the one their children give (0 when consistent).
    inconsistent: int


def best_masks(board: Board, total: np.ndarray, value: np.ndarray) -> BestResult:
    """Best-slide masks of every position (Red to move) from T and the values of every position, with
    the consistency count (:func:`pipeline.unitile.cellpass.cell_pass` on each bubble cell)."""
    c = board.colourings
    g = Geometry.of(board).args
    masks, counts = [], []
    for b in range(board.cells):
        cells = block_cells(board, b)
        t = np.stack([total[x * c : (x + 1) * c] for x in cells])
        v = np.stack([value[x * c : (x + 1) * c] for x in cells])
        _, best, cnt, _ = cell_pass(b, t, v, 0.0, np.inf, g)
        masks.append(best)
        counts.append(cnt)
    total_counts, _ = combine_stats(np.array(counts), np.zeros((len(counts), 5)))
    return BestResult(np.concatenate(masks), int(total_counts[INCONSISTENT]))
