"""The tables of one N x N Naked Diagonal board for the numba kernels, derived from the game's
:class:`unitile_py.naked_diagonal.grid.Grid` (same point numbers, same symmetries in the same order).

A position is coded as one integer, its **key**: ``red | blue << P | turn << 2P`` with ``P = N * N``
points and ``turn`` 1 when Blue is to move. Its **canonical** key is the smallest key of its eight
images (:meth:`Position.transform`: the maps that exchange the edges also exchange the colours and the
side to move). Keys fit 64 bits up to 5 x 5 (51 bits); the legality kernels work up to 7 x 7.

>>> g = Geometry.of(3)
>>> g.size, bin(g.north), [int(x) for x in g.swaps]
(9, '0b111', [0, 1, 0, 1, 0, 0, 1, 1])
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache, cached_property
from typing import NamedTuple

import numpy as np

from unitile_py.naked_diagonal.grid import Grid

#: Largest board the legality kernels take (masks of at most 49 bits in an int64).
MAX_N = 7
#: Largest board whose keys fit in 64 bits (the tier index).
MAX_KEY_N = 5


class GeoArgs(NamedTuple):
    """The scalars and tables the kernels read, as one numba argument (see :class:`Geometry`)."""

    n: int
    size: int
    full: int
    not_west: int
    not_east: int
    north: int
    south: int
    west: int
    east: int
    #: dq[p, k]: the k-th diagonal neighbour of p as a mask (0 past the last), ds[p, k] its two
    #: shared points (the points orthogonally next to both) as a mask.
    dq: np.ndarray
    ds: np.ndarray
    #: box1[p], box2[p]: the points within one (two) rows and columns of p.
    box1: np.ndarray
    box2: np.ndarray
    #: sym_tab[s, chunk, byte]: the image under symmetry s of the points of one byte of a mask.
    sym_tab: np.ndarray
    #: swaps[s]: 1 when symmetry s exchanges the edges (and so the colours and the side to move).
    swaps: np.ndarray


#: The old name of :class:`GeoArgs`: numba's on-disk caches written before the rename refer to it, and
#: without it loading them fails instead of compiling afresh.
NDArgs = GeoArgs
#: The fields of :class:`GeoArgs` that the game's ``Grid`` has by the same names.
GRID_FIELDS = ("n", "full", "not_west", "not_east", "north", "south", "west", "east")


@dataclass(frozen=True, eq=False)
class Geometry:
    """The tables of one board size; build with :meth:`Geometry.of` (cached)."""

    n: int
    grid: Grid

    @staticmethod
    @cache
    def of(n: int) -> Geometry:
        """The tables of the n x n board (1 <= n <= :data:`MAX_N`)."""
        if not 1 <= n <= MAX_N:
            raise ValueError(f"board {n}x{n}: the kernels take 1x1 to {MAX_N}x{MAX_N}")
        return Geometry(n, Grid.get(n))

    @property
    def size(self) -> int:
        """Points on the board."""
        return self.n * self.n

    @property
    def north(self) -> int:
        """The north edge as a mask."""
        return self.grid.north

    @cached_property
    def swaps(self) -> np.ndarray:
        """1 for the symmetries that exchange the edges."""
        return np.array([int(s.swaps_edges) for s in self.grid.symmetries], dtype=np.int64)

    @cached_property
    def args(self) -> GeoArgs:
        """The kernels' argument."""
        g = self.grid
        size = g.size
        dq = np.zeros((size, 4), dtype=np.int64)
        ds = np.zeros((size, 4), dtype=np.int64)
        for p in range(size):
            for k, (qbit, shared) in enumerate(g.diag_bits[p]):
                dq[p, k] = qbit
                ds[p, k] = shared
        box1 = np.array([g.box(p, 1) for p in range(size)], dtype=np.int64)
        box2 = np.array([g.box(p, 2) for p in range(size)], dtype=np.int64)
        chunks = (size + 7) // 8
        sym_tab = np.zeros((8, chunks, 256), dtype=np.int64)
        for s, sym in enumerate(g.symmetries):
            for ch in range(chunks):
                for byte in range(256):
                    sym_tab[s, ch, byte] = sym.apply((byte << (8 * ch)) & g.full)
        masks = {name: getattr(g, name) for name in GRID_FIELDS}
        return GeoArgs(**masks, size=size, dq=dq, ds=ds, box1=box1, box2=box2, sym_tab=sym_tab,
                      swaps=self.swaps)

    def key(self, red: int, blue: int, turn: str) -> int:
        """The key of a position (``turn`` ``"r"`` or ``"b"``)."""
        return red | blue << self.size | int(turn == "b") << (2 * self.size)

    def unkey(self, key: int) -> tuple[int, int, str]:
        """``(red, blue, turn)`` of a key."""
        full = self.grid.full
        return key & full, key >> self.size & full, "b" if key >> (2 * self.size) & 1 else "r"
