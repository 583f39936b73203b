"""Numeric tables of one board for the numba kernels: ranks, symmetries, orbits and neighbours.

Everything here is derived from :mod:`unitile_py.unitile.board` and :mod:`unitile_py.unitile.index`, so the
pipeline numbers positions exactly as the game does: ``index = bubble * C(tiles, red) + colex rank``.

>>> from unitile_py.unitile import Board
>>> g = Geometry.of(Board.get(5, 5))
>>> g.orbit_reps.tolist()
[0, 1, 2, 6, 7, 12]
>>> [int(g.orbit_size[o]) for o in range(g.n_orbits)]
[4, 8, 4, 4, 4, 1]
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache, cached_property
from math import comb
from typing import Any

import numpy as np

from unitile_py.unitile.board import Board

from .bits import GeoArgs

#: Bits per lookup-table chunk for ranking and for permuting cell masks.
CHUNK = 8


class _FromBoard:
    """A number of :attr:`Geometry.board` (its attribute ``name``), read as an attribute of the geometry."""

    def __init__(self, name: str) -> None:
        self.name = name

    def __get__(self, geometry: Geometry | None, owner: type | None = None) -> Any:
        return self if geometry is None else getattr(geometry.board, self.name)


@dataclass(frozen=True, eq=False)
class Geometry:
    """Tables of one board; build with :meth:`Geometry.of` (cached per board)."""

    board: Board
    n_sym: int
    #: nbr_cells[cell, k]: the k-th neighbour of a cell (reading order), -1 past the degree.
    nbr_cells: np.ndarray
    deg: np.ndarray
    #: perm_tab[sym, chunk, byte]: image of the byte's cells under the symmetry (a cell mask).
    perm_tab: np.ndarray
    sym_perm: np.ndarray
    #: rank_tab[chunk, seen, byte]: colex rank contribution of a byte of the tile mask.
    rank_tab: np.ndarray
    pop8: np.ndarray
    #: binom[n, j] = C(n, j) for n <= tiles, j <= red.
    binom: np.ndarray
    #: orbit of each cell under the symmetries, its smallest cell (the representative) and size.
    cell_orbit: np.ndarray
    orbit_reps: np.ndarray
    orbit_size: np.ndarray
    n_orbits: int
    #: to_rep[cell]: a symmetry taking the cell to its orbit's representative (the first one).
    to_rep: np.ndarray
    #: stab[o, :n_stab[o]]: the symmetries fixing representative o (identity first).
    stab: np.ndarray
    n_stab: np.ndarray
    #: orbit_masks[o]: the cells of orbit o as a mask.
    orbit_masks: np.ndarray
    #: The central region (a union of cell orbits, see :func:`central_region`) as a mask.
    region: int
    # The board's own numbers, read from the board under the names the kernels use (GeoArgs).
    cells = _FromBoard("cells")
    tiles = _FromBoard("tiles")
    red = _FromBoard("red_count")
    colourings = _FromBoard("colourings")
    cols = _FromBoard("cols")
    #: The masks of all cells and of the cells not in the last (first) column.
    full = _FromBoard("full")
    not_last = _FromBoard("not_last")
    not_first = _FromBoard("not_first")

    @staticmethod
    @cache
    def of(board: Board) -> Geometry:
        """The tables of a board."""
        cells, tiles, red = board.cells, board.tiles, board.red_count
        nbr = -np.ones((cells, 4), dtype=np.int64)
        deg = np.zeros(cells, dtype=np.int64)
        for c in range(cells):
            ns = board.neighbours[c]
            nbr[c, : len(ns)] = ns
            deg[c] = len(ns)
        syms = board.symmetries
        n_sym = len(syms)
        cell_chunks = (cells + CHUNK - 1) // CHUNK
        perm_tab = np.zeros((n_sym, cell_chunks, 256), dtype=np.int64)
        for s, perm in enumerate(syms):
            for ch in range(cell_chunks):
                for byte in range(256):
                    image = 0
                    for bit in range(CHUNK):
                        cell = ch * CHUNK + bit
                        if byte >> bit & 1 and cell < cells:
                            image |= 1 << perm[cell]
                    perm_tab[s, ch, byte] = image
        tile_chunks = (tiles + CHUNK - 1) // CHUNK
        rank_tab = np.zeros((tile_chunks, red + 1, 256), dtype=np.int64)
        for ch in range(tile_chunks):
            for seen in range(red + 1):
                for byte in range(256):
                    total, s = 0, seen
                    for bit in range(CHUNK):
                        if byte >> bit & 1:
                            s += 1
                            p = ch * CHUNK + bit
                            total += comb(p, s) if s <= red and p < tiles else 0
                    rank_tab[ch, seen, byte] = total
        pop8 = np.array([bin(b).count("1") for b in range(256)], dtype=np.int64)
        binom = np.zeros((tiles + 1, red + 2), dtype=np.int64)
        for n in range(tiles + 1):
            for j in range(red + 2):
                binom[n, j] = comb(n, j)
        cell_orbit = -np.ones(cells, dtype=np.int64)
        reps: list[int] = []
        sizes: list[int] = []
        for c in range(cells):
            if cell_orbit[c] >= 0:
                continue
            members = sorted({perm[c] for perm in syms})
            for m in members:
                cell_orbit[m] = len(reps)
            reps.append(members[0])
            sizes.append(len(members))
        n_orbits = len(reps)
        to_rep = np.zeros(cells, dtype=np.int64)
        for c in range(cells):
            rep = reps[cell_orbit[c]]
            to_rep[c] = next(s for s, perm in enumerate(syms) if perm[c] == rep)
        stab = np.zeros((n_orbits, n_sym), dtype=np.int64)
        n_stab = np.zeros(n_orbits, dtype=np.int64)
        for o, rep in enumerate(reps):
            fixing = [s for s, perm in enumerate(syms) if perm[rep] == rep]
            stab[o, : len(fixing)] = fixing
            n_stab[o] = len(fixing)
        orbit_masks = np.zeros(n_orbits, dtype=np.int64)
        for c in range(cells):
            orbit_masks[cell_orbit[c]] |= 1 << c
        return Geometry(
            board=board,
            n_sym=n_sym,
            nbr_cells=nbr,
            deg=deg,
            perm_tab=perm_tab,
            sym_perm=np.array(syms, dtype=np.int64),
            rank_tab=rank_tab,
            pop8=pop8,
            binom=binom,
            cell_orbit=cell_orbit,
            orbit_reps=np.array(reps, dtype=np.int64),
            orbit_size=np.array(sizes, dtype=np.int64),
            n_orbits=n_orbits,
            to_rep=to_rep,
            stab=stab,
            n_stab=n_stab,
            orbit_masks=orbit_masks,
            region=central_region(board),
        )

    @cached_property
    def args(self) -> GeoArgs:
        """The tables as the one argument of the numba kernels (built once per board): the fields of
        this object that :class:`pipeline.unitile.bits.GeoArgs` names."""
        return GeoArgs(**{name: getattr(self, name) for name in GeoArgs._fields})


def central_region(board: Board) -> int:
    """The cells off the border as a mask; on a board with at most 3 rows (columns), the middle row
    (column). Every symmetry maps it onto itself, so its red count is the same for all positions of a
    class, and a slide changes that count by at most one: ordering classes by it keeps neighbours
    close (the solve's parts are ranges of it, :mod:`pipeline.unitile.partition`).

    >>> from unitile_py.unitile import Board
    >>> [bin(central_region(Board.get(r, c))).count("1") for r, c in ((3, 3), (3, 5), (5, 5), (5, 7))]
    [3, 5, 9, 15]
    """
    rows, cols = board.rows, board.cols
    mask = 0
    for c in range(board.cells):
        row, col = board.row_col(c)
        if rows <= 3 and cols > 3:
            inside = row == rows // 2
        elif cols <= 3:
            inside = col == cols // 2
        else:
            inside = 0 < row < rows - 1 and 0 < col < cols - 1
        mask |= int(inside) << c
    return mask
