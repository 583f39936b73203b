"""What the game, the players and the web API ask of the value rule: the one lookup protocol.

:class:`unitile_py.unitile.tables.Tables` answers it from the precomputed tables; tests answer it from an
independent reference. :class:`AdjacentOnly` is the lenient stand-in for a board without tables: it
lets every slide next to the bubble count as legal and knows nothing of perfect play, and says so.

>>> from unitile_py.unitile.board import Board
>>> from unitile_py.unitile.position import Position
>>> p = Position.start(Board.get(3, 7))
>>> [p.board.name(c) for c in ADJACENT_ONLY.legal(p)]
['d3', 'c2', 'e2', 'd1']
>>> ADJACENT_ONLY.outcome(p)
Traceback (most recent call last):
    ...
unitile_py.errors.UnitileError: perfect play needs the lookup tables of the 3x7 board
"""

from __future__ import annotations

from typing import Protocol

from ..errors import UnitileError
from .position import Position

#: A result with perfect play, from the mover's side: ``("win" | "loss", plies to the end)``.
Result = tuple[str, int]


class Lookups(Protocol):
    """Legal slides and perfect play of one board."""

    def legal(self, position: Position) -> tuple[int, ...]:
        """Cells of the legal slides, sorted: none once a colour is united."""
        ...

    def best(self, position: Position) -> tuple[int, ...]:
        """Cells of the slides perfect play may choose (the fastest win, else the longest loss), sorted."""
        ...

    def outcome(self, position: Position) -> Result:
        """The side to move's result with perfect play; the game must go on."""
        ...

    def after(self, position: Position, cell: int) -> Result:
        """The mover's result with perfect play after the slide from ``cell``, counting that slide."""
        ...

    def moves(self, position: Position) -> dict[int, Result]:
        """For each legal slide, :meth:`after` of it."""
        ...


class AdjacentOnly:
    """Every slide next to the bubble is legal (the value rule unchecked); no perfect play."""

    def legal(self, position: Position) -> tuple[int, ...]:
        """Every slide, sorted: none once a colour is united."""
        if position.winner() is not None:
            return ()
        return tuple(sorted(position.slides()))

    def _no_tables(self, position: Position) -> UnitileError:
        return UnitileError(f"perfect play needs the lookup tables of the {position.board} board")

    def best(self, position: Position) -> tuple[int, ...]:
        """Not known without tables: raises :class:`UnitileError`."""
        raise self._no_tables(position)

    def outcome(self, position: Position) -> Result:
        """Not known without tables: raises :class:`UnitileError`."""
        raise self._no_tables(position)

    def after(self, position: Position, cell: int) -> Result:
        """Not known without tables: raises :class:`UnitileError`."""
        raise self._no_tables(position)

    def moves(self, position: Position) -> dict[int, Result]:
        """Not known without tables: raises :class:`UnitileError`."""
        raise self._no_tables(position)


#: The shared lenient lookups.
ADJACENT_ONLY = AdjacentOnly()


def playable_legal(position: Position, rules: Lookups) -> tuple[int, ...]:
    """The legal slides of a position in which the game goes on; :class:`UnitileError` otherwise."""
    if position.winner() is not None:
        raise UnitileError(f"position {position}: the game is over")
    legal = tuple(rules.legal(position))
    if not legal:
        raise UnitileError(f"position {position}: the tables list no legal slide")
    return legal


__all__ = ["ADJACENT_ONLY", "AdjacentOnly", "Lookups", "Result", "playable_legal"]
