"""Symmetry classes of positions: the unknowns of the value solve.

r is invariant under the board symmetries, so the random walk lumped onto symmetry classes is again a
Markov chain with the same hitting times. A class is named by its *representative*: the bubble on the
smallest cell of its cell orbit (the orbit representative ``f``) and, among the images under the
symmetries fixing ``f``, the colouring with the smallest colex rank.

Classes are numbered orbit by orbit: orbit ``o`` holds ids ``starts[o] .. starts[o] + counts[o] - 1``,
and the orbits come in an order chosen by the classes stage (one parity of the bubble cell first,
see :mod:`pipeline.unitile.solver`). Within an orbit they are
sorted by a *locality key* (:func:`class_keys`) -- the number of red tiles in the central region, then
on each cell orbit; the same for every member of a class and changed by at most one in a few digits by
a slide -- and then by rank. Neighbouring classes therefore sit in a few narrow windows of the vectors,
which keeps the solver's gathers in cache, and a range of keys is a part of the graph with few edges
leaving it (:mod:`pipeline.unitile.partition`).

>>> from unitile_py.unitile import Board
>>> from pipeline.unitile.geometry import Geometry
>>> g = Geometry.of(Board.get(3, 3))
>>> ranks = [orbit_classes(g, o)[0] for o in range(g.n_orbits)]
>>> [len(r) for r in ranks], sum(len(r) for r in ranks)
([38, 38, 13], 89)
"""

from __future__ import annotations

import numpy as np
from numba import prange

from .bits import (
    PARALLEL,
    GeoArgs,
    cells_of,
    connected,
    next_combination,
    permute,
    rank,
    slide,
    tiles_of,
    unrank,
)
from .geometry import Geometry

#: Ranks per parallel chunk in the kernels that walk through all colourings.
RANK_CHUNK = 1 << 16

#: Layout of the per-class info byte: degree in bits 0-2, active (red not united) in bit 3,
#: log2 of the class size (number of positions) in bits 4-6.
DEG_MASK = 7
ACTIVE_BIT = 8
WEIGHT_SHIFT = 4


@PARALLEL
def _min_images(f: int, stab: np.ndarray, g: GeoArgs) -> np.ndarray:
    """For every rank with the bubble on ``f``: the smallest rank among its images under ``stab``."""
    colourings = g.colourings
    out = np.empty(colourings, dtype=np.int64)
    n_chunks = (colourings + RANK_CHUNK - 1) // RANK_CHUNK
    for ch in prange(n_chunks):
        lo = ch * RANK_CHUNK
        hi = min(lo + RANK_CHUNK, colourings)
        m = unrank(lo, g)
        for r in range(lo, hi):
            cm = cells_of(m, f)
            best = r
            for k in range(1, stab.shape[0]):
                r2 = rank(tiles_of(permute(cm, stab[k], g), f), g)
                if r2 < best:
                    best = r2
            out[r] = best
            m = next_combination(m)
    return out


@PARALLEL
def _locality_keys(ranks: np.ndarray, f: int, masks: np.ndarray, radix: np.ndarray, g: GeoArgs) -> np.ndarray:
    """The locality key of each class: red counts per mask of cells, as one mixed-radix number."""
    out = np.empty(ranks.shape[0], dtype=np.int64)
    for i in prange(ranks.shape[0]):
        cm = cells_of(unrank(ranks[i], g), f)
        key = 0
        for o in range(masks.shape[0]):
            m = cm & masks[o]
            count = 0
            while m:
                count += g.pop8[m & 255]
                m >>= 8
            key = key * radix[o] + count
        out[i] = key
    return out


def class_keys(geo: Geometry, o: int, ranks: np.ndarray) -> np.ndarray:
    """The locality keys of the classes of orbit ``o`` with these representative ranks: the number of
    red tiles in the central region (:func:`pipeline.unitile.geometry.central_region`), then on each cell
    orbit, as one mixed-radix number. The key is a function of the position, the same for all positions of a
    class and in every bubble orbit."""
    masks = np.concatenate([np.array([geo.region], dtype=np.int64), geo.orbit_masks])
    radix = np.concatenate([np.array([geo.region.bit_count() + 1]), geo.orbit_size + 1]).astype(np.int64)
    f = int(geo.orbit_reps[o])
    return _locality_keys(ranks.astype(np.int64), f, masks, radix, geo.args)


def key_runs(keys: np.ndarray) -> np.ndarray:
    """Runs of equal consecutive keys as rows ``(key, count)``.

    >>> key_runs(np.array([3, 3, 5, 8, 8, 8])).tolist()
    [[3, 2], [5, 1], [8, 3]]
    """
    if not keys.shape[0]:
        return np.zeros((0, 2), dtype=np.int64)
    first = np.flatnonzero(np.concatenate([[True], keys[1:] != keys[:-1]]))
    counts = np.diff(np.append(first, keys.shape[0]))
    return np.stack([keys[first].astype(np.int64), counts.astype(np.int64)], axis=1)


def orbit_classes(geo: Geometry, o: int, order: str = "counts") -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The classes whose bubble lies on orbit ``o``: ``(ranks, rank_to_local, runs)``.

    ``ranks[i]`` is the representative rank of the orbit's class ``i`` (in class order) and
    ``rank_to_local[rank]`` the local class of any colouring with the bubble on the representative.
    ``order`` is ``"counts"`` (the locality key, then rank) or ``"rank"``. ``runs`` are the classes'
    locality keys in class order as :func:`key_runs` (in rank order, one run of key 0: the solve then
    keeps the id order, see :mod:`pipeline.unitile.solve_order`).
    """
    f = int(geo.orbit_reps[o])
    stab = geo.stab[o, : geo.n_stab[o]].copy()
    if stab.shape[0] > 1:
        min_img = _min_images(f, stab, geo.args)
    else:
        min_img = np.arange(geo.colourings, dtype=np.int64)
    ranks = np.flatnonzero(min_img == np.arange(geo.colourings))
    if order == "counts":
        keys = class_keys(geo, o, ranks)
        at = np.argsort(keys, kind="stable")
        ranks, runs = ranks[at], key_runs(keys[at])
    elif order == "rank":
        runs = np.array([[0, ranks.shape[0]]], dtype=np.int64)
    else:
        raise ValueError(f"unknown class order {order!r}")
    local = np.full(geo.colourings, -1, dtype=np.int32)
    local[ranks] = np.arange(ranks.shape[0], dtype=np.int32)
    return ranks, local[min_img], runs


@PARALLEL
def _class_graph(
    cls_orbit: np.ndarray,
    cls_rank: np.ndarray,
    rank_to_local: np.ndarray,
    row_of: np.ndarray,
    starts: np.ndarray,
    g: GeoArgs,
    nbr: np.ndarray,
    info: np.ndarray,
    swap: np.ndarray,
) -> None:
    full_tiles = (1 << g.tiles) - 1
    for i in prange(cls_rank.shape[0]):
        o = cls_orbit[i]
        f = g.orbit_reps[o]
        m = unrank(cls_rank[i], g)
        cm = cells_of(m, f)
        swap[i] = starts[o] + rank_to_local[row_of[o], rank(full_tiles & ~m, g)]
        fixed = 0
        for k in range(g.n_stab[o]):
            if permute(cm, g.stab[o, k], g) == cm:
                fixed += 1
        weight_log = 0
        w = g.n_sym // fixed
        while w > 1:
            w >>= 1
            weight_log += 1
        d = g.deg[f]
        active = not connected(cm, g)
        info[i] = d | (ACTIVE_BIT if active else 0) | (weight_log << WEIGHT_SHIFT)
        for k in range(4):
            nbr[i, k] = -1
        if not active:
            continue
        for k in range(d):
            n = g.nbr_cells[f, k]
            cm2 = slide(cm, f, n)
            # Red can only become united when a red tile moves.
            if cm >> n & 1 and connected(cm2, g):
                continue
            o2 = g.cell_orbit[n]
            f2 = g.orbit_reps[o2]
            r2 = rank(tiles_of(permute(cm2, g.to_rep[n], g), f2), g)
            nbr[i, k] = starts[o2] + rank_to_local[row_of[o2], r2]


def graph_orbits(geo: Geometry, orbits: list[int]) -> list[int]:
    """The orbits whose rows of ``classes/rank_to_local`` :func:`class_graph` reads for classes of
    ``orbits``: those orbits (colour swaps) and the orbits of their representatives' neighbour cells."""
    out = set(orbits)
    for o in orbits:
        f = int(geo.orbit_reps[o])
        out.update(int(geo.cell_orbit[n]) for n in geo.nbr_cells[f, : geo.deg[f]])
    return sorted(out)


def class_graph(
    geo: Geometry,
    cls_orbit: np.ndarray,
    cls_rank: np.ndarray,
    rank_to_local: np.ndarray,
    starts: np.ndarray,
    row_of: np.ndarray | None = None,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Neighbours, info bytes and colour-swap partners of a range of classes.

    ``rank_to_local[row_of[o]]`` is orbit ``o``'s row of ``classes/rank_to_local`` (by default the whole
    array, ``row_of[o] = o``); only the rows of :func:`graph_orbits` are read.

    ``nbr[i, k]`` is the class after the k-th slide of class ``i``'s representative, or -1 where there
    is no such slide or red is united after it (r = 0 there); the matrix row is empty for classes where
    red is united (info's active bit clear).
    """
    n = cls_rank.shape[0]
    nbr = np.empty((n, 4), dtype=np.int32)
    info = np.empty(n, dtype=np.uint8)
    swap = np.empty(n, dtype=np.int32)
    _class_graph(
        cls_orbit.astype(np.int64),
        cls_rank.astype(np.int64),
        rank_to_local,
        np.arange(geo.n_orbits, dtype=np.int64) if row_of is None else row_of.astype(np.int64),
        starts,
        geo.args,
        nbr,
        info,
        swap,
    )
    return nbr, info, swap


@PARALLEL
def _position_locals(
    bubble: int,
    lo: int,
    hi: int,
    row: np.ndarray,
    f: int,
    s: int,
    g: GeoArgs,
    out: np.ndarray,
) -> None:
    n_chunks = (hi - lo + RANK_CHUNK - 1) // RANK_CHUNK
    for ch in prange(n_chunks):
        a = lo + ch * RANK_CHUNK
        b = min(a + RANK_CHUNK, hi)
        m = unrank(a, g)
        for r in range(a, b):
            cm = permute(cells_of(m, bubble), s, g)
            out[r - lo] = row[rank(tiles_of(cm, f), g)]
            m = next_combination(m)


def position_locals(geo: Geometry, bubble: int, lo: int, hi: int, row: np.ndarray) -> np.ndarray:
    """The local class (within the bubble's orbit) of every position with the bubble on ``bubble`` and
    rank in ``lo..hi-1``; ``row`` is the orbit's row of ``classes/rank_to_local``, so a task needs only
    that row and the orbit's window of a per-class array."""
    out = np.empty(hi - lo, dtype=np.int64)
    o = int(geo.cell_orbit[bubble])
    _position_locals(
        bubble,
        lo,
        hi,
        row,
        int(geo.orbit_reps[o]),
        int(geo.to_rep[bubble]),
        geo.args,
        out,
    )
    return out


def position_classes(
    geo: Geometry, bubble: int, lo: int, hi: int, rank_to_local: np.ndarray, starts: np.ndarray
) -> np.ndarray:
    """The class of every position with the bubble on ``bubble`` and rank in ``lo..hi-1``.

    All of them lie in the bubble orbit's range ``starts[o] .. starts[o] + counts[o] - 1``.
    """
    o = int(geo.cell_orbit[bubble])
    return int(starts[o]) + position_locals(geo, bubble, lo, hi, rank_to_local[o])
