"""Board geometry: cells, neighbours, cell names and the symmetries of a rows x cols board.

Cells are numbered 0..cells-1 in reading order: left to right within a row, rows from the top.
Cell names follow the notation: file letter ``a``.. from the left, rank number ``1``.. from the bottom.

>>> b = Board.get(5, 5)
>>> b.cells, b.red_count, b.positions
(25, 12, 67603900)
>>> b.name(0), b.name(12), b.name(24)
('a5', 'c3', 'e1')
>>> b.cell("c4")
7
>>> b.neighbours[12]
(7, 11, 13, 17)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache
from math import comb

from .errors import UnitileError

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
        if len(parts) != 2 or not all(p.isdigit() for p in parts):
            raise UnitileError(f"board {text!r}: expected ROWSxCOLS such as 5x5")
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
        maps = [
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
        r, c = divmod(cell, self.cols)
        return f"{chr(ord('a') + c)}{self.rows - r}"

    def cell(self, name: str) -> int:
        """The cell of a notation name; raises :class:`UnitileError` for a name off the board."""
        text = name.strip()
        if len(text) != 2 or not text[0].isalpha() or not text[1].isdigit():
            raise UnitileError(f"move {name!r}: expected a file letter and a rank number, such as c4")
        c = ord(text[0].lower()) - ord("a")
        rank = int(text[1])
        if not (0 <= c < self.cols and 1 <= rank <= self.rows):
            raise UnitileError(f"move {name!r}: no such cell on a {self} board")
        return (self.rows - rank) * self.cols + c
