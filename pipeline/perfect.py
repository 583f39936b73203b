"""Perfect play: win or loss and the distance to the end for every position, by level sweeps.

The *value* of a position with Red to move is an ``int16``: ``+d`` when the side to move wins in ``d``
plies with perfect play, ``-d`` when it loses in ``d`` plies, ``0`` where a colour is united (the game
is over). The winner takes the fastest win and the loser the longest loss; a slide that unites the
mover's colour is a win in 1, one that unites the opponent's colour a loss in 1. The colour swap maps
(P, Blue to move) to (swap(P), Red to move), so one array covers both sides:
``value(P, blue) = red_value[swap(P)]``.

Every kernel sees the values through one representation, a *block*: a ``(rows, C)`` int16 array of
the values of whole bubble cells (by rank, C = ``board.colourings``) and a map ``row[cell]`` from a
cell to its row (-1 for cells not in the block). A task for bubble cell ``b`` holds the block of ``b``
(row 0) and its neighbour cells (rows 1, 2, ...: :func:`block_rows`), since every slide moves the bubble
to a neighbour cell and the colour swap moves no cell; a whole array is the block of every cell
(``value.reshape(cells, C)`` with ``row = arange(cells)``).

:func:`sweep_bubble` is the step of the level sweeps. Every slide moves the bubble to a cell of the other
checkerboard parity, so half-sweep ``h`` (level ``h``) updates the still unknown (0) active positions
whose bubble cell has parity ``h % 2`` from the values of their children, all in cells of the other
parity: a known child result that wins for the mover gives the fastest known win; if every child result
is known (all losses) the value is the longest loss; otherwise the position stays unknown. A slide that
unites a colour always has a known result. This is exact: by induction, after half-sweep ``h`` the
known positions of parity ``h % 2`` are exactly those at distance ``<= h + 1``, so the fastest winning
child of a position is known by the time any winning child is. The same induction says that
half-sweep ``h - 1`` solved exactly the positions at distance ``h - 1`` and ``h`` of its parity, so
from level 2 on a step re-derives only the unknown parents of those (it finds them by undoing the
slide from each such child), and :func:`run_sweeps` skips a cell none of whose neighbour cells solved
anything in the previous half-sweep. :func:`run_sweeps` repeats half-sweeps until no active position
is unknown (about the longest game's length, 50 on 5x5), and fails if two in a row solve nothing while
some remain (a cycle of slides, which the legal moves rule out). The last levels solve few positions
each while a half-sweep still reads every shard, so once at most :data:`TAIL` positions are unknown,
:func:`unknowns_of_bubble` lists them per cell with their slides (known results, or the unknown child)
and :func:`solve_tail` finishes the levels over those alone, by the same rule. :func:`sweep_values`
runs all this in one process over whole arrays; the pipeline runs one task per cell
(:mod:`pipeline.table_stages`).

:func:`retrograde` is the original one-process pass in increasing T (every slide that unites nothing
lowers T, so it visits every child's colour-swapped image before its parent); the tests keep it as an
independent reference.

:func:`best_of_bubble` gives, for the positions of one bubble cell, the legal slides perfect play may
choose (all ties) and re-derives every value from its children (the tablebase consistency pass of
``pipeline verify``); :func:`best_masks` does it for every position.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from numba import prange

from unitile_py.board import Board

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
from .geometry import Geometry
from .legal import CHUNK, UNITED

#: Scores used to compare results: a win in d is worth ``WIN - d``, a loss in d ``d - WIN``.
WIN = 1 << 14


@JIT
def _score(v: int) -> int:
    """Larger is better for the side to move."""
    return WIN - v if v > 0 else -WIN - v


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
def _result_of(v: int) -> int:
    """The mover's result of a slide to a child whose colour-swapped value is ``v`` (0: unknown)."""
    if v > 0:
        return -(v + 1)
    if v < 0:
        return 1 - v
    return 0


@INLINE
def _slide_result(cm: int, bubble: int, n: int, vals: np.ndarray, row: np.ndarray, g: GeoArgs) -> int:
    """The mover's result (a value) of the slide from cell ``n`` when Red is to move, or 0 if unknown.

    ``vals[row[cell]]`` holds the values of the positions with the bubble on ``cell``, by rank.
    """
    united, r = _child(cm, bubble, n, g)
    if united:
        return united
    return _result_of(vals[row[n], r])


@INLINE
def _best_slides(
    cm: int, bubble: int, flags: int, vals: np.ndarray, row: np.ndarray, g: GeoArgs
) -> tuple[int, int, int]:
    """Perfect play over the legal slides (bits of ``flags``) of the position ``(cm, bubble)``.

    Returns the value of the best known slide for Red to move (0 if none is known), the mask of the
    slides that reach it, and the number of legal slides whose child has no value yet.
    """
    best = 0
    best_score = -2 * WIN
    mask = 0
    not_ready = 0
    for k in range(4):
        if not flags >> k & 1:
            continue
        res = _slide_result(cm, bubble, g.nbr_cells[bubble, k], vals, row, g)
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


def block_rows(board: Board, bubble: int) -> np.ndarray:
    """The row map of the block of ``bubble``: 0 for the cell, ``1 + k`` for its k-th neighbour, else -1.

    >>> block_rows(Board.get(3, 3), 1).tolist()
    [1, 0, 2, -1, 3, -1, -1, -1, -1]
    """
    row = np.full(board.cells, -1, dtype=np.int64)
    for j, cell in enumerate(block_cells(board, bubble)):
        row[cell] = j
    return row


def block_cells(board: Board, bubble: int) -> tuple[int, ...]:
    """The cells of the block of ``bubble``, by row: the cell, then its neighbours."""
    return (bubble, *board.neighbours[bubble])


def whole_block(board: Board, value: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Values of every position as a block (a view: writing to it writes ``value``) and its row map."""
    if not value.flags.c_contiguous:
        raise ValueError("the values must be one contiguous array")
    return value.reshape(board.cells, board.colourings), np.arange(board.cells, dtype=np.int64)


# Level sweeps -----------------------------------------------------------------------------------------


def parity(board: Board, cell: int) -> int:
    """The checkerboard parity ``(row + column) % 2`` of a cell; a slide moves the bubble to the other."""
    r, c = board.row_col(cell)
    return (r + c) % 2


#: Ranks apart below which stepping with next_combination is cheaper than unranking.
NEAR = 32
#: Ranks scanned at once for something to do before looking at each (a loop the compiler vectorises).
SPAN = 64


@INLINE
def _mask_at(r: int, last: int, m: int, g: GeoArgs) -> int:
    """The tile mask of rank ``r``, stepping from ``m``, the mask of rank ``last`` (< r), when near
    (``last < 0``: none known)."""
    if last < 0 or r - last > NEAR:
        return unrank(r, g)
    for _ in range(r - last):
        m = next_combination(m)
    return m


@PARALLEL
def _mark_parents(
    bubble: int,
    vals: np.ndarray,
    row: np.ndarray,
    since: int,
    g: GeoArgs,
    mark: np.ndarray,
) -> None:
    """``mark[r] = 1`` for every position of ``bubble`` (by rank) with a child whose value is at least
    ``since`` in absolute value, that is, a parent of such a position of a neighbour cell."""
    colourings = vals.shape[1]
    n_chunks = (colourings + CHUNK - 1) // CHUNK
    for k in range(g.deg[bubble]):
        n = g.nbr_cells[bubble, k]
        there = vals[row[n]]
        for ch in prange(n_chunks):
            last = -1
            m = 0
            b = min((ch + 1) * CHUNK, colourings)
            for lo in range(ch * CHUNK, b, SPAN):
                hi = min(lo + SPAN, b)
                hits = 0
                for r in range(lo, hi):
                    hits += abs(there[r]) >= since
                if hits == 0:
                    continue
                for r in range(lo, hi):
                    if abs(there[r]) < since:
                        continue
                    m = _mask_at(r, last, m, g)
                    last = r
                    # ``there[r]`` is the colour-swapped child with Red to move; the child itself has Blue
                    # to move and Red on ``cm2``. The slide moved the tile now on ``bubble`` from ``n``.
                    cm2 = g.full & ~cells_of(m, n) & ~(1 << n)
                    cm = (cm2 & ~(1 << bubble)) | (1 << n) if cm2 >> bubble & 1 else cm2
                    mark[rank(tiles_of(cm, bubble), g)] = 1


@PARALLEL
def _sweep_bubble(
    bubble: int,
    legal: np.ndarray,
    vals: np.ndarray,
    row: np.ndarray,
    mark: np.ndarray,
    every: bool,
    g: GeoArgs,
    counts: np.ndarray,
) -> None:
    """One half-sweep step on the positions with the bubble on ``bubble`` (``vals[row[bubble]]``, by
    rank, updated in place): re-derives the unknown ones that are marked (all of them when ``every``);
    ``counts[chunk] = (newly solved, still unknown)``."""
    own = vals[row[bubble]]
    colourings = vals.shape[1]
    n_chunks = (colourings + CHUNK - 1) // CHUNK
    for ch in prange(n_chunks):
        a = ch * CHUNK
        b = min(a + CHUNK, colourings)
        solved = 0
        unknown = 0
        last = -1
        m = 0
        for r in range(a, b):
            flags = legal[r]
            if own[r] != 0 or flags & UNITED:
                continue
            if not (every or mark[r]):
                unknown += 1
                continue
            m = _mask_at(r, last, m, g)
            last = r
            best, _, not_ready = _best_slides(cells_of(m, bubble), bubble, flags, vals, row, g)
            # A known win is the fastest one; a loss only once every child is known.
            if best > 0 or (best < 0 and not_ready == 0):
                own[r] = best
                solved += 1
            else:
                unknown += 1
        counts[ch, 0] = solved
        counts[ch, 1] = unknown


def sweep_bubble(
    board: Board, bubble: int, legal: np.ndarray, vals: np.ndarray, row: np.ndarray, level: int
) -> tuple[int, int]:
    """Half-sweep ``level`` on bubble cell ``bubble``: solve what the current values of its neighbour
    cells allow for its unknown positions.

    ``legal`` holds the legal bytes of the cell's positions (by rank), ``vals`` a block holding the cell
    and its neighbour cells, ``row`` its row map; ``vals[row[bubble]]`` is updated in place. From level 2
    on only the parents of the children solved by the previous half-sweep (those at distance
    ``level - 1`` or ``level``, see the module docstring) can change, so only those are re-derived.
    Returns ``(newly solved, still unknown)`` over the cell's active positions.
    """
    g = Geometry.of(board).args
    c = board.colourings
    every = level < 2
    mark = np.zeros(0 if every else c, dtype=np.uint8)
    if not every:
        _mark_parents(bubble, vals, row, level - 1, g, mark)
    counts = np.zeros(((c + CHUNK - 1) // CHUNK, 2), dtype=np.int64)
    _sweep_bubble(bubble, legal, vals, row, mark, every, g, counts)
    return int(counts[:, 0].sum()), int(counts[:, 1].sum())


#: Half-sweep ``level`` over the given cells: their ``(newly solved, still unknown)`` counts in order.
HalfSweep = Callable[[list[int], int], list[tuple[int, int]]]
#: Solve every unknown position left in the given cells from level ``level`` on; return the levels run.
Finish = Callable[[list[int], int], int]

#: The sweeps end in one process (:func:`solve_tail`) once at most this many active positions are
#: unknown: the last levels solve few positions each, but a half-sweep over the cells reads every shard.
TAIL = 1 << 20


@dataclass(frozen=True)
class Sweeps:
    """How the values were found: half-sweeps over the cells, then levels in one process."""

    on_cells: int
    in_process: int = 0
    #: unknown positions handed to :func:`solve_tail`.
    tail_positions: int = 0

    @property
    def total(self) -> int:
        """Every level that solved or re-derived some position."""
        return self.on_cells + self.in_process


def run_sweeps(board: Board, half_sweep: HalfSweep, finish: Finish | None = None, tail: int = TAIL) -> Sweeps:
    """Run half-sweeps (levels 0, 1, 2, ... over parity 0, 1, 0, ...) until every active position has a
    value; with ``finish``, hand the rest to it once at most ``tail`` positions are unknown.

    Levels 0 and 1 visit every cell of their parity. Later ones visit a cell only when it still has
    unknown positions and a neighbour cell solved some in the previous half-sweep: otherwise no child of
    its positions changed (see :func:`sweep_bubble`). Raises RuntimeError when two half-sweeps in a row
    solve nothing while some positions remain unknown: the values are then at a fixed point and the
    rest would never be solved.
    """
    remaining: dict[int, int | None] = dict.fromkeys(range(board.cells))  # None: not visited yet
    new = [0] * board.cells  # solved by the cell's latest half-sweep
    sweeps = 0
    idle = 0
    level = 0
    while any(v != 0 for v in remaining.values()):
        ours = [b for b in range(board.cells) if parity(board, b) == level % 2]
        cells = [
            b for b in ours if remaining[b] != 0 and (level < 2 or any(new[n] for n in board.neighbours[b]))
        ]
        for b in ours:
            new[b] = 0
        if cells:
            for b, (solved, unknown) in zip(cells, half_sweep(cells, level), strict=True):
                remaining[b] = unknown
                new[b] = solved
            sweeps += 1
        idle = 0 if any(new[b] for b in cells) else idle + 1
        left = sum(v or 0 for v in remaining.values())
        if idle >= 2 and any(v != 0 for v in remaining.values()):
            raise _stuck(left, sweeps)
        level += 1
        if finish is not None and 0 < left <= tail and all(v is not None for v in remaining.values()):
            todo = [b for b in range(board.cells) if remaining[b]]
            return Sweeps(sweeps, finish(todo, level), left)
    return Sweeps(sweeps)


def _stuck(left: int, sweeps: int) -> RuntimeError:
    return RuntimeError(
        f"perfect play: {left} positions where no colour is united stay unknown after {sweeps} "
        "half-sweeps (a cycle of slides, or no legal slide)"
    )


@dataclass(frozen=True)
class Unknowns:
    """The unknown active positions of one bubble cell and their legal slides, for :func:`solve_tail`."""

    bubble: int
    #: their ranks, increasing.
    ranks: np.ndarray
    #: results[u, k]: the mover's result of slide k when known; 0 when the child is unknown or the slide
    #: is not legal.
    results: np.ndarray
    #: children[u, k]: the index of the colour-swapped child of slide k when it is unknown, else -1.
    children: np.ndarray


@PARALLEL
def _gather_bubble(
    bubble: int,
    ranks: np.ndarray,
    legal: np.ndarray,
    vals: np.ndarray,
    row: np.ndarray,
    g: GeoArgs,
    results: np.ndarray,
    children: np.ndarray,
) -> None:
    """Fill :attr:`Unknowns.results` and :attr:`Unknowns.children` for the positions ``ranks``."""
    colourings = vals.shape[1]
    for u in prange(ranks.shape[0]):
        r = ranks[u]
        flags = legal[r]
        cm = cells_of(unrank(r, g), bubble)
        for k in range(4):
            results[u, k] = 0
            children[u, k] = -1
            if not flags >> k & 1:
                continue
            n = g.nbr_cells[bubble, k]
            united, r2 = _child(cm, bubble, n, g)
            res = united if united else _result_of(vals[row[n], r2])
            if res:
                results[u, k] = res
            else:
                children[u, k] = n * colourings + r2


def unknowns_of_bubble(
    board: Board, bubble: int, legal: np.ndarray, vals: np.ndarray, row: np.ndarray
) -> Unknowns:
    """The unknown active positions of ``bubble`` and their slides; arguments as for :func:`sweep_bubble`."""
    ranks = np.flatnonzero((vals[row[bubble]] == 0) & ((legal & UNITED) == 0)).astype(np.int64)
    results = np.empty((ranks.size, 4), dtype=np.int16)
    children = np.empty((ranks.size, 4), dtype=np.int64)
    _gather_bubble(bubble, ranks, legal, vals, row, Geometry.of(board).args, results, children)
    return Unknowns(bubble, ranks, results, children)


@PARALLEL
def _tail_level(
    side: int, node_parity: np.ndarray, results: np.ndarray, child: np.ndarray, val: np.ndarray
) -> int:
    """One level of :func:`solve_tail` over the unknown nodes of parity ``side``; returns how many it
    solved (the rule of :func:`sweep_bubble`)."""
    solved = 0
    for u in prange(val.shape[0]):
        if node_parity[u] != side or val[u] != 0:
            continue
        best = 0
        best_score = -2 * WIN
        not_ready = 0
        for k in range(4):
            res = results[u, k]
            if child[u, k] >= 0:
                res = _result_of(val[child[u, k]])
                if res == 0:
                    not_ready += 1
                    continue
            elif res == 0:
                continue
            s = _score(res)
            if s > best_score:
                best_score = s
                best = res
        if best > 0 or (best < 0 and not_ready == 0):
            val[u] = best
            solved += 1
    return solved


def solve_tail(board: Board, parts: list[Unknowns], level: int) -> tuple[list[np.ndarray], int]:
    """Finish the level sweeps from ``level`` on over the unknown positions of ``parts`` alone (their
    unknown children are among them): the values of each part's positions, and the levels run.

    Memory grows with the positions handed over, not with the board (:data:`TAIL`).
    """
    c = board.colourings
    ids = np.concatenate([p.bubble * c + p.ranks for p in parts])
    order = np.argsort(ids, kind="stable")
    children = np.concatenate([p.children for p in parts])
    child = np.full(children.shape, -1, dtype=np.int64)
    has = children >= 0
    at = np.searchsorted(ids, children[has], sorter=order)
    found = order[np.minimum(at, ids.size - 1)]
    if not np.array_equal(ids[found], children[has]):
        raise RuntimeError("perfect play: an unknown position has a child that is neither known nor unknown")
    child[has] = found
    results = np.concatenate([p.results for p in parts])
    node_parity = np.concatenate([np.full(p.ranks.size, parity(board, p.bubble), np.int8) for p in parts])
    val = np.zeros(ids.size, dtype=np.int16)
    levels = 0
    idle = 0
    while True:
        left = int(np.count_nonzero(val == 0))
        if not left:
            break
        side = level % 2
        if np.any((node_parity == side) & (val == 0)):
            levels += 1
        solved = _tail_level(side, node_parity, results, child, val)
        idle = 0 if solved else idle + 1
        if idle >= 2:
            raise _stuck(left, levels)
        level += 1
    bounds = np.cumsum([0] + [p.ranks.size for p in parts])
    return [val[bounds[i] : bounds[i + 1]] for i in range(len(parts))], levels


@dataclass(frozen=True)
class PerfectResult:
    """Values for Red to move of every position, and a summary."""

    value: np.ndarray
    max_distance: int
    #: positions where neither colour is united, and how many of them Red (to move) wins.
    active: int
    red_wins: int
    #: how the level sweeps went (None for the pass in increasing T).
    sweeps: Sweeps | None = None


def _summary(value: np.ndarray, legal: np.ndarray, sweeps: Sweeps | None) -> PerfectResult:
    active = int(np.count_nonzero((legal & UNITED) == 0))
    if int(np.count_nonzero(value)) != active:
        raise RuntimeError("some position where no colour is united has no legal move")
    return PerfectResult(value, int(np.abs(value).max()), active, int(np.count_nonzero(value > 0)), sweeps)


def sweep_values(board: Board, legal: np.ndarray, tail: int = TAIL) -> PerfectResult:
    """Values for Red to move of every position from the legal bytes, by level sweeps in this process
    (the last levels by :func:`solve_tail` once at most ``tail`` positions are unknown)."""
    c = board.colourings
    value = np.zeros(board.positions, dtype=np.int16)
    vals, row = whole_block(board, value)

    def half_sweep(cells: list[int], level: int) -> list[tuple[int, int]]:
        return [sweep_bubble(board, b, legal[b * c : (b + 1) * c], vals, row, level) for b in cells]

    def finish(cells: list[int], level: int) -> int:
        parts = [unknowns_of_bubble(board, b, legal[b * c : (b + 1) * c], vals, row) for b in cells]
        found, levels = solve_tail(board, parts, level)
        for part, v in zip(parts, found, strict=True):
            vals[part.bubble, part.ranks] = v
        return levels

    return _summary(value, legal, run_sweeps(board, half_sweep, finish, tail))


# Reference: one pass in increasing T ------------------------------------------------------------------


@JIT
def _retrograde(
    order: np.ndarray,
    legal: np.ndarray,
    g: GeoArgs,
    vals: np.ndarray,
    row: np.ndarray,
) -> int:
    """Fill the whole block ``vals`` in the given order; returns the number of slides to an unsolved child."""
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
        best, _, not_ready = _best_slides(cm, bubble, flags, vals, row, g)
        missing += not_ready
        vals[row[bubble], r] = best
    return missing


def retrograde(board: Board, total: np.ndarray, legal: np.ndarray) -> PerfectResult:
    """Values for Red to move of every position from T and the legal bytes (one pass in increasing T).

    The reference the tests compare the level sweeps with; it holds every value, T and its order.
    """
    order = np.argsort(total, kind="stable")
    value = np.zeros(board.positions, dtype=np.int16)
    vals, row = whole_block(board, value)
    missing = _retrograde(order, legal, Geometry.of(board).args, vals, row)
    del order
    if missing:
        raise RuntimeError(f"{missing} slides reached a position that increasing T had not solved yet")
    return _summary(value, legal, None)


# Best slides and the consistency pass -----------------------------------------------------------------


@PARALLEL
def _best_bubble(
    bubble: int,
    legal: np.ndarray,
    vals: np.ndarray,
    row: np.ndarray,
    g: GeoArgs,
    out: np.ndarray,
    bad: np.ndarray,
) -> None:
    """Best-slide masks (Red to move) of the positions with the bubble on ``bubble``, by rank.

    ``legal`` holds their legal bytes (by rank), ``vals`` a block holding the cell and its neighbour
    cells; ``bad[chunk]`` counts positions whose value differs from the one their children give.
    """
    own = vals[row[bubble]]
    colourings = vals.shape[1]
    n_chunks = (colourings + CHUNK - 1) // CHUNK
    for ch in prange(n_chunks):
        a = ch * CHUNK
        b = min(a + CHUNK, colourings)
        wrong = 0
        m = unrank(a, g)
        for r in range(a, b):
            flags = legal[r]
            mask = 0
            if not flags & UNITED:
                best, mask, not_ready = _best_slides(cells_of(m, bubble), bubble, flags, vals, row, g)
                wrong += not_ready
                if best != own[r]:
                    wrong += 1
            elif own[r] != 0:
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


def best_of_bubble(
    board: Board, bubble: int, legal: np.ndarray, vals: np.ndarray, row: np.ndarray
) -> BestResult:
    """Best-slide masks (Red to move) of the positions with the bubble on ``bubble``, re-deriving each
    value from its children on the way.

    ``legal`` holds the legal bytes of those positions (by rank), ``vals`` a block holding the values of
    the cell and its neighbour cells, ``row`` its row map. With Blue to move the best slides of P are
    those of swap(P) with Red to move (the colour swap moves no cell).
    """
    c = board.colourings
    out = np.empty(c, dtype=np.uint8)
    bad = np.zeros((c + CHUNK - 1) // CHUNK, dtype=np.int64)
    _best_bubble(bubble, legal, vals, row, Geometry.of(board).args, out, bad)
    return BestResult(out, int(bad.sum()))


def best_masks(board: Board, legal: np.ndarray, value: np.ndarray) -> BestResult:
    """Best-slide masks of every position (Red to move)."""
    c = board.colourings
    vals, row = whole_block(board, value)
    parts = [best_of_bubble(board, b, legal[b * c : (b + 1) * c], vals, row) for b in range(board.cells)]
    return BestResult(np.concatenate([p.best for p in parts]), sum(p.inconsistent for p in parts))
