"""Reading values back: T for every position, the error bound, and r, b, T of single positions.

This is the interface the later stages and tools build on (keep it stable):

* :func:`load_T` -- float64 T = r + b indexed by :mod:`unitile_py.unitile.index` position index;
* :func:`load_bound` -- an absolute bound on the error of every entry of T;
* :class:`Lookup` -- r, b and T of single positions (reads only what each lookup needs).
"""

from __future__ import annotations

import numpy as np

from unitile_py.unitile.board import Board
from unitile_py.unitile.index import Indexer, tiles_of
from unitile_py.unitile.position import Position

from .geometry import Geometry
from .store import Store


def load_T(store_path: str, board: Board) -> np.ndarray:
    """T for every position index of ``board`` (shape ``(board.positions,)``, float64)."""
    store = Store(store_path, board)
    store.require("positions")
    return store.read("positions/T")


def load_bound(store_path: str, board: Board) -> float:
    """The absolute error bound on every entry of T (from the solve's rigorous residual bound)."""
    return float(Store(store_path, board).require("solve")["bound_T"])


class Lookup:
    """r, b and T of positions from a store.

    Reads only what a lookup needs: the row of ``classes/rank_to_local`` of the position's bubble orbit
    (the last two rows read are kept) and single entries of ``values/r`` and ``positions/T``.
    """

    #: Rows of ``classes/rank_to_local`` kept (a position and its colour swap share one).
    ROWS_KEPT = 2

    def __init__(self, store_path: str, board: Board) -> None:
        self.board = board
        self.store = Store(store_path, board)
        self.store.require("positions")
        self.geo = Geometry.of(board)
        self.starts = np.array(self.store.require("classes")["starts"], dtype=np.int64)
        self.rank_to_local = self.store.array("classes/rank_to_local")
        self.r = self.store.array("values/r")
        self.t = self.store.array("positions/T")
        self.indexer = Indexer.get(board)
        self._rows: dict[int, np.ndarray] = {}

    def _row(self, orbit: int) -> np.ndarray:
        """Orbit ``orbit``'s row of ``classes/rank_to_local`` (read once, a few kept)."""
        row = self._rows.pop(orbit, None)
        if row is None:
            row = np.asarray(self.rank_to_local[orbit])
        self._rows[orbit] = row
        while len(self._rows) > self.ROWS_KEPT:
            del self._rows[next(iter(self._rows))]
        return row

    def class_of(self, position: Position) -> int:
        """The symmetry class of a position."""
        geo, ix = self.geo, self.indexer
        o = int(geo.cell_orbit[position.bubble])
        f = int(geo.orbit_reps[o])
        cells = ix.permute(position.red, int(geo.to_rep[position.bubble]))
        return int(self.starts[o] + self._row(o)[ix.rank(tiles_of(cells, f))])

    def values(self, position: Position) -> tuple[float, float, float]:
        """``(r, b, T)`` of a position; T is the stored entry, equal to r + b bit for bit."""
        r = float(np.asarray(self.r[self.class_of(position)]))
        b = float(np.asarray(self.r[self.class_of(position.swap_colours())]))
        t = float(np.asarray(self.t[position.index()]))
        return r, b, t
