"""Numba primitives on bit masks: colex rank and unrank, masks over cells and over tiles, symmetries,
connectivity and slides, and :class:`GeoArgs`, the board's tables as the one argument every kernel takes.

A *tile mask* has bit ``i`` for tile ``i`` (the cells in reading order, skipping the bubble); a
*cell mask* has bit ``c`` for cell ``c``. The tables come from :class:`pipeline.unitile.geometry.Geometry`
(``Geometry.of(board).args``). All functions are ``njit``; those that take the tuple are inlined by
numba itself (:data:`INLINE`): passed through a real call it costs a copy of every field, which made a
perfect-play sweep twice as slow.

>>> from unitile_py.unitile import Board
>>> from unitile_py.unitile.index import Indexer
>>> from pipeline.unitile.geometry import Geometry
>>> g = Geometry.of(Board.get(3, 3)).args
>>> m = unrank(40, g)
>>> rank(m, g) == 40 == Indexer.get(Board.get(3, 3)).rank(m)
True
>>> next_combination(0b0111), connected(0b000_000_111, g)
(11, True)
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

#: The decorator of every numba function here: compiled once, cached on disk, without the GIL.
JIT = njit(cache=True, nogil=True)
#: The same for kernels with ``prange`` loops (numba's threads).
PARALLEL = njit(cache=True, nogil=True, parallel=True)
#: For the small functions that take :class:`GeoArgs`: inlined into their callers by numba (in its own
#: IR, before LLVM), so that the tuple is never passed in a call.
INLINE = njit(cache=True, nogil=True, inline="always")


class GeoArgs(NamedTuple):
    """The scalars and tables of one board that the numba kernels read, as one argument (numba types a
    NamedTuple of ints and arrays as one struct, and ``cache=True`` keeps working since the class is
    importable). Built once per board by :attr:`pipeline.unitile.geometry.Geometry.args`; the fields mean what
    they do there."""

    cells: int
    tiles: int
    red: int
    colourings: int
    cols: int
    n_sym: int
    #: the mask of all cells, and of the cells not in the last (first) column.
    full: int
    not_last: int
    not_first: int
    nbr_cells: np.ndarray
    deg: np.ndarray
    perm_tab: np.ndarray
    rank_tab: np.ndarray
    pop8: np.ndarray
    binom: np.ndarray
    cell_orbit: np.ndarray
    orbit_reps: np.ndarray
    to_rep: np.ndarray
    stab: np.ndarray
    n_stab: np.ndarray
    orbit_masks: np.ndarray


@INLINE
def rank(tiles_mask: int, g: GeoArgs) -> int:
    """Colex rank of a tile mask (byte-table lookups)."""
    rank_tab, pop8 = g.rank_tab, g.pop8
    total = 0
    seen = 0
    ch = 0
    m = tiles_mask
    while m:
        byte = m & 255
        if byte:
            total += rank_tab[ch, seen, byte]
            seen += pop8[byte]
        m >>= 8
        ch += 1
    return total


@INLINE
def unrank(r: int, g: GeoArgs) -> int:
    """The tile mask of a colex rank."""
    binom = g.binom
    mask = 0
    p = g.tiles - 1
    for j in range(g.red, 0, -1):
        while binom[p, j] > r:
            p -= 1
        mask |= 1 << p
        r -= binom[p, j]
        p -= 1
    return mask


@JIT
def next_combination(m: int) -> int:
    """The next mask with the same number of bits in increasing order (Gosper's hack)."""
    c = m & -m
    r = m + c
    return (((r ^ m) >> 2) // c) | r


@JIT
def cells_of(tiles_mask: int, bubble: int) -> int:
    """Tile mask to cell mask (the bubble's bit clear)."""
    low = tiles_mask & ((1 << bubble) - 1)
    return low | ((tiles_mask >> bubble) << (bubble + 1))


@JIT
def tiles_of(cells_mask: int, bubble: int) -> int:
    """Cell mask to tile mask (the bubble's bit squeezed out)."""
    low = cells_mask & ((1 << bubble) - 1)
    return low | ((cells_mask >> (bubble + 1)) << bubble)


@INLINE
def permute(cells_mask: int, sym: int, g: GeoArgs) -> int:
    """The image of a cell mask under a symmetry."""
    perm_tab = g.perm_tab
    out = 0
    ch = 0
    m = cells_mask
    while m:
        out |= perm_tab[sym, ch, m & 255]
        m >>= 8
        ch += 1
    return out


@INLINE
def connected(cells_mask: int, g: GeoArgs) -> bool:
    """True when a non-empty cell mask is one orthogonally connected group."""
    cols, not_last, not_first = g.cols, g.not_last, g.not_first
    if cells_mask == 0:
        return False
    group = cells_mask & -cells_mask
    while True:
        bigger = (
            group | (group << cols) | (group >> cols) | ((group & not_last) << 1) | ((group & not_first) >> 1)
        ) & cells_mask
        if bigger == group:
            return group == cells_mask
        group = bigger


@JIT
def slide(cells_mask: int, bubble: int, cell: int) -> int:
    """The red cell mask after the tile on ``cell`` slides into the bubble."""
    if cells_mask >> cell & 1:
        return (cells_mask & ~(1 << cell)) | (1 << bubble)
    return cells_mask
