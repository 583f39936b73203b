"""Numba primitives on bit masks: colex rank and unrank, masks over cells and over tiles, symmetries.

A *tile mask* has bit ``i`` for tile ``i`` (the cells in reading order, skipping the bubble); a
*cell mask* has bit ``c`` for cell ``c``. The tables come from :class:`pipeline.geometry.Geometry`.
All functions are ``njit`` so that kernels inline them.

>>> from unitile_py import Board
>>> from unitile_py.index import Indexer
>>> from pipeline.geometry import Geometry
>>> g = Geometry.of(Board.get(3, 3))
>>> m = unrank(40, g.tiles, g.red, g.binom)
>>> rank(m, g.rank_tab, g.pop8) == 40 == Indexer.get(g.board).rank(m)
True
>>> next_combination(0b0111), connected(0b000_000_111, 3, g.not_last, g.not_first)
(11, True)
"""

from __future__ import annotations

import numpy as np
from numba import njit

JIT = {"cache": True, "nogil": True}


@njit(**JIT)
def rank(tiles_mask: int, rank_tab: np.ndarray, pop8: np.ndarray) -> int:
    """Colex rank of a tile mask (byte-table lookups)."""
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


@njit(**JIT)
def unrank(r: int, tiles: int, red: int, binom: np.ndarray) -> int:
    """The tile mask of a colex rank."""
    mask = 0
    p = tiles - 1
    for j in range(red, 0, -1):
        while binom[p, j] > r:
            p -= 1
        mask |= 1 << p
        r -= binom[p, j]
        p -= 1
    return mask


@njit(**JIT)
def next_combination(m: int) -> int:
    """The next mask with the same number of bits in increasing order (Gosper's hack)."""
    c = m & -m
    r = m + c
    return (((r ^ m) >> 2) // c) | r


@njit(**JIT)
def cells_of(tiles_mask: int, bubble: int) -> int:
    """Tile mask to cell mask (the bubble's bit clear)."""
    low = tiles_mask & ((1 << bubble) - 1)
    return low | ((tiles_mask >> bubble) << (bubble + 1))


@njit(**JIT)
def tiles_of(cells_mask: int, bubble: int) -> int:
    """Cell mask to tile mask (the bubble's bit squeezed out)."""
    low = cells_mask & ((1 << bubble) - 1)
    return low | ((cells_mask >> (bubble + 1)) << bubble)


@njit(**JIT)
def permute(cells_mask: int, sym: int, perm_tab: np.ndarray) -> int:
    """The image of a cell mask under a symmetry."""
    out = 0
    ch = 0
    m = cells_mask
    while m:
        out |= perm_tab[sym, ch, m & 255]
        m >>= 8
        ch += 1
    return out


@njit(**JIT)
def connected(cells_mask: int, cols: int, not_last: int, not_first: int) -> bool:
    """True when a non-empty cell mask is one orthogonally connected group."""
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


@njit(**JIT)
def slide(cells_mask: int, bubble: int, cell: int) -> int:
    """The red cell mask after the tile on ``cell`` slides into the bubble."""
    if cells_mask >> cell & 1:
        return (cells_mask & ~(1 << cell)) | (1 << bubble)
    return cells_mask
