"""Board geometry: cells, neighbours, cell names, symmetries and connectivity of a rows x cols board.

Cells are numbered 0..cells-1 in reading order: left to right within a row, rows from the top.
Cell names follow the notation (:mod:`unitile_py.coords`): file letter ``a``.. from the left, rank
number ``1``.. from the bottom. Sets of cells are bit masks (bit ``c`` for cell ``c``); :meth:`Board.group`
and :meth:`Board.connected` are the one implementation of orthogonal connectivity that every part of
unitile_py uses.

>>> b = Board.get(5, 5)
>>> b.cells, b.red_count, b.positions
(25, 12, 67603900)
>>> b.name(0), b.name(12), b.name(24)
('a5', 'c3', 'e1')
>>> b.cell("c4")
7
>>> b.neighbours[12]
(7, 11, 13, 17)
>>> b.connected(0b11), b.connected(0b101), b.connected(1 << 12), b.count_groups(0b10101)
(True, False, True, 3)
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache
from math import comb

from ..coords import cell_name, is_ascii_number, parse_cell, quote
from ..errors import UnitileError

#: The only sizes for which notation can name every cell with one letter and one digit.
MAX_SIDE = 9


@dataclass(frozen=True, eq=False)
class Board:
    """A rows x cols board with an odd number of cells; use :meth:`Board.get` for shared instances."""

    rows: int
    cols: int
    cells: int = field(init=False)
    red_count: int = field(init=False)
    tiles: int = field(init=False)
    colourings: int = field(init=False)
    positions: int = field(init=False)
    full: int = field(init=False)
    #: The cells that have a right-hand (left-hand) neighbour: a mask may shift left (right) by one.
    not_last: int = field(init=False, repr=False)
    not_first: int = field(init=False, repr=False)
    neighbours: tuple[tuple[int, ...], ...] = field(init=False, repr=False)
    symmetries: tuple[tuple[int, ...], ...] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        rows, cols = self.rows, self.cols
        if not (1 <= rows <= MAX_SIDE and 1 <= cols <= MAX_SIDE):
            raise UnitileError(f"board {rows}x{cols}: each side must be 1..{MAX_SIDE}")
        cells = rows * cols
        if cells % 2 == 0 or cells < 3:
            raise UnitileError(f"board {rows}x{cols}: the number of cells must be odd and at least 3")
        tiles = cells - 1
        setv = object.__setattr__
        setv(self, "cells", cells)
        setv(self, "tiles", tiles)
        setv(self, "red_count", tiles // 2)
        setv(self, "colourings", comb(tiles, tiles // 2))
        setv(self, "positions", cells * comb(tiles, tiles // 2))
        setv(self, "full", (1 << cells) - 1)
        setv(self, "not_last", sum(1 << c for c in range(cells) if c % cols != cols - 1))
        setv(self, "not_first", sum(1 << c for c in range(cells) if c % cols != 0))
        setv(self, "neighbours", tuple(self._neighbours_of(c) for c in range(cells)))
        setv(self, "symmetries", self._symmetry_permutations())

    @staticmethod
    @cache
    def get(rows: int, cols: int) -> Board:
        """The shared board of this size (boards are immutable, so one instance per size)."""
        return Board(rows, cols)

    @staticmethod
    def parse(text: str) -> Board:
        """A board from its name, such as ``"5x5"``."""
        parts = text.strip().lower().split("x")
        if len(parts) != 2 or not all(is_ascii_number(p) and len(p) <= 3 for p in parts):
            raise UnitileError(f"board {quote(text)}: expected ROWSxCOLS such as 5x5")
        return Board.get(int(parts[0]), int(parts[1]))

    def __str__(self) -> str:
        return f"{self.rows}x{self.cols}"

    @property
    def centre(self) -> int:
        """The centre cell, where the bubble starts."""
        return self.cells // 2

    def row_col(self, cell: int) -> tuple[int, int]:
        """Row from the top and column from the left of a cell."""
        return divmod(cell, self.cols)

    def _neighbours_of(self, cell: int) -> tuple[int, ...]:
        """Orthogonal neighbours in increasing cell order (up, left, right, down)."""
        r, c = divmod(cell, self.cols)
        out = []
        if r > 0:
            out.append(cell - self.cols)
        if c > 0:
            out.append(cell - 1)
        if c < self.cols - 1:
            out.append(cell + 1)
        if r < self.rows - 1:
            out.append(cell + self.cols)
        return tuple(out)

    def _symmetry_permutations(self) -> tuple[tuple[int, ...], ...]:
        """Cell permutations ``perm[cell] = image`` of the square's 8 symmetries (4 if not square).

        The identity comes first.
        """
        rows, cols = self.rows, self.cols
        maps: list[Callable[[int, int], tuple[int, int]]] = [
            lambda r, c: (r, c),
            lambda r, c: (r, cols - 1 - c),
            lambda r, c: (rows - 1 - r, c),
            lambda r, c: (rows - 1 - r, cols - 1 - c),
        ]
        if rows == cols:
            maps += [
                lambda r, c: (c, r),
                lambda r, c: (cols - 1 - c, r),
                lambda r, c: (c, rows - 1 - r),
                lambda r, c: (cols - 1 - c, rows - 1 - r),
            ]
        perms = []
        for f in maps:
            perm = []
            for cell in range(self.cells):
                r2, c2 = f(*divmod(cell, cols))
                perm.append(r2 * cols + c2)
            perms.append(tuple(perm))
        return tuple(perms)

    def name(self, cell: int) -> str:
        """The notation name of a cell, such as ``c4``."""
        return cell_name(cell, self.rows, self.cols)

    def cell(self, name: str) -> int:
        """The cell of a notation name; raises :class:`UnitileError` for a name off the board."""
        return parse_cell(name, self.rows, self.cols)

    # Connectivity ----------------------------------------------------------------------------------

    def adjacent(self, cells: int) -> int:
        """The cells orthogonally next to some cell of ``cells`` (these may include cells of ``cells``)."""
        cols = self.cols
        return (
            (cells << cols)
            | (cells >> cols)
            | ((cells & self.not_last) << 1)
            | ((cells & self.not_first) >> 1)
        ) & self.full

    def group(self, seed: int, within: int) -> int:
        """The cells of ``within`` orthogonally connected to the cells of ``seed`` (through ``within``)."""
        cols, nl, nf = self.cols, self.not_last, self.not_first
        group = seed & within
        while True:
            bigger = (
                group | (group << cols) | (group >> cols) | ((group & nl) << 1) | ((group & nf) >> 1)
            ) & within
            if bigger == group:
                return group
            group = bigger

    def connected(self, cells: int) -> bool:
        """True when a non-empty set of cells forms one orthogonal group (a single cell does)."""
        if cells & (cells - 1) == 0:
            return cells != 0
        cols, nl, nf = self.cols, self.not_last, self.not_first
        if cells & ~((cells << cols) | (cells >> cols) | ((cells & nl) << 1) | ((cells & nf) >> 1)):
            return False  # a cell with no neighbour in the set: quick, and common in playouts
        return self.group(cells & -cells, cells) == cells

    def count_groups(self, cells: int) -> int:
        """The number of maximal orthogonal groups in a set of cells."""
        count = 0
        while cells:
            cells &= ~self.group(cells & -cells, cells)
            count += 1
        return count
