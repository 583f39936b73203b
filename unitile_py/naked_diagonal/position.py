"""Naked Diagonal positions and their text form.

A :class:`Position` is immutable: the grid, the red and blue stones (bit masks) and the side to move,
``"r"`` or ``"b"``. Its text lists the rows from north to south joined by ``/`` (``R``, ``B`` or ``.``
per point), a space and the side to move. A position never holds a naked diagonal: the constructor,
:meth:`Position.parse` and :meth:`Position.place` refuse one.

>>> p = Position.parse(".../.../... r")
>>> q = p.place(p.grid.point("b2"), "r").place(p.grid.point("a1"), "b")
>>> str(q)
'.../.R./B.. r'
>>> Position.parse(str(q)) == q
True
>>> Position.parse("R../.R./... b")
Traceback (most recent call last):
    ...
unitile_py.errors.NakedDiagonalError: position 'R../.R./... b': a3 and b2 form a naked diagonal of Red
"""

from __future__ import annotations

from dataclasses import dataclass

from ..colours import BLUE, COLOUR_NAMES, COLOURS, RED, other
from ..coords import check_row, quote, split_position
from ..errors import GameError, NakedDiagonalError
from .bans import NakedDiagonal, Occupied, why
from .grid import Grid, Symmetry
from .rules import forms, naked_diagonals, winner


@dataclass(frozen=True, slots=True)
class Position:
    """A Naked Diagonal position: where the stones are and whose turn it is."""

    grid: Grid
    red: int
    blue: int
    turn: str = RED

    def __post_init__(self) -> None:
        g = self.grid
        if self.red < 0 or self.blue < 0 or (self.red | self.blue) & ~g.full:
            raise NakedDiagonalError(f"stones off the {g.n}x{g.n} board")
        if self.red & self.blue:
            raise NakedDiagonalError(f"{g.name((self.red & self.blue).bit_length() - 1)} holds two stones")
        if self.turn not in COLOURS:
            raise NakedDiagonalError(f"side to move {quote(str(self.turn))}: expected 'r' or 'b'")
        naked = naked_diagonals(g, self.red, self.blue)
        if naked:
            p, q, colour = naked[0]
            raise NakedDiagonalError(
                f"{g.name(p)} and {g.name(q)} form a naked diagonal of {COLOUR_NAMES[colour]}"
            )

    @staticmethod
    def empty(n: int) -> Position:
        """The empty n x n board, Red to move."""
        return Position(Grid.get(n), 0, 0, RED)

    @staticmethod
    def parse(text: str) -> Position:
        """A position from its text, such as ``.../.R./B.. b``; one-line :class:`NakedDiagonalError`
        otherwise."""
        where = f"position {quote(text.strip())}"
        rows, side = split_position(text, where, "the rows joined by '/'", NakedDiagonalError)
        n = len(rows)
        for i, row in enumerate(rows):
            if len(row) != n:
                raise NakedDiagonalError(
                    f"{where}: {n} rows, so each needs {n} points; row {i + 1} has {len(row)}"
                )
            check_row(where, i, row, "points", NakedDiagonalError)
        try:
            grid = Grid.get(n)
        except GameError as e:
            raise NakedDiagonalError(f"{where}: {e}") from None
        cells = "".join(rows)
        red = sum(1 << i for i, ch in enumerate(cells) if ch == "R")
        blue = sum(1 << i for i, ch in enumerate(cells) if ch == "B")
        try:
            return Position(grid, red, blue, side)
        except GameError as e:
            raise NakedDiagonalError(f"{where}: {e}") from None

    def __str__(self) -> str:
        n = self.grid.n
        cells = ["R" if self.red >> p & 1 else "B" if self.blue >> p & 1 else "." for p in range(n * n)]
        return "/".join("".join(cells[r * n:(r + 1) * n]) for r in range(n)) + " " + self.turn

    @property
    def empty_points(self) -> int:
        """The mask of empty points."""
        return self.grid.full & ~(self.red | self.blue)

    def stones(self, colour: str) -> int:
        """The mask of the stones of ``colour``."""
        return self.red if colour == RED else self.blue

    def is_full(self) -> bool:
        """True when no point is empty."""
        return not self.empty_points

    def winner(self) -> str | None:
        """``"r"``, ``"b"`` or ``None`` (see :func:`rules.winner`)."""
        return winner(self.grid, self.red, self.blue)

    def place(self, point: int, colour: str) -> Position:
        """The position with a stone of ``colour`` on ``point``; the side to move is unchanged.

        Checks only that the point is empty and that the stone forms no naked diagonal, not the rule
        about areas (see :mod:`legality`).
        """
        g = self.grid
        if colour not in COLOURS:
            raise NakedDiagonalError(f"colour {quote(str(colour))}: expected 'r' or 'b'")
        if not 0 <= point < g.size:
            raise NakedDiagonalError(f"point {point} is off the {g.n}x{g.n} board")
        if not self.empty_points >> point & 1:
            raise NakedDiagonalError(why(Occupied(point, RED if self.red >> point & 1 else BLUE), g))
        q = forms(g, self.stones(colour), point)
        if q is not None:
            raise NakedDiagonalError(why(NakedDiagonal(point, q, colour), g))
        bit = 1 << point
        red, blue = (self.red | bit, self.blue) if colour == RED else (self.red, self.blue | bit)
        return _unchecked(g, red, blue, self.turn)

    def with_turn(self, turn: str) -> Position:
        """The same stones with ``turn`` to move."""
        return Position(self.grid, self.red, self.blue, turn)

    def transform(self, symmetry: Symmetry) -> Position:
        """The image under a symmetry; maps that exchange the edges exchange the colours and the turn."""
        red, blue = symmetry.apply(self.red), symmetry.apply(self.blue)
        if symmetry.swaps_edges:
            return _unchecked(self.grid, blue, red, other(self.turn))
        return _unchecked(self.grid, red, blue, self.turn)

    def draw(self) -> str:
        """The board as a grid with rank numbers and file letters (north at the top)."""
        g = self.grid
        rows = str(self).split()[0].split("/")
        width = len(str(g.n))
        lines = [f"{g.n - r:>{width}} " + " ".join(row) for r, row in enumerate(rows)]
        lines.append(" " * (width + 1) + " ".join("abcdefghijklmnopqrstuvwxyz"[: g.n]))
        return "\n".join(lines)


def _unchecked(grid: Grid, red: int, blue: int, turn: str) -> Position:
    """A position built without the constructor's checks (the caller keeps the invariants)."""
    p = object.__new__(Position)
    object.__setattr__(p, "grid", grid)
    object.__setattr__(p, "red", red)
    object.__setattr__(p, "blue", blue)
    object.__setattr__(p, "turn", turn)
    return p


__all__ = ["BLUE", "RED", "Position"]
