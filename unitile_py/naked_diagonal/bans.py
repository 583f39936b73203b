"""Why a placement is refused: the three bans of Naked Diagonal, worded for a person, and the end of a game.

A stone may not go on a point that holds one (:class:`Occupied`), may not form a naked diagonal
(:class:`NakedDiagonal`) and may not leave an NDE area (:class:`LeavesNDE`);
:func:`unitile_py.naked_diagonal.legality.explain` says which of them a placement meets. Each ban words
itself in :meth:`describe`; :func:`game_over` is the line said once a colour has won.

>>> from .grid import Grid
>>> g = Grid.get(4)
>>> print(NakedDiagonal(g.point("b4"), g.point("a3"), "b").describe(g))
Blue on b4 forms a naked diagonal with a3
"""

from __future__ import annotations

from dataclasses import dataclass

from ..colours import COLOUR_NAMES, COLOURS
from .grid import Grid
from .position import Position
from .rules import forming


@dataclass(frozen=True, slots=True)
class Occupied:
    """The point already holds a stone."""

    point: int
    colour: str

    def describe(self, grid: Grid) -> str:
        """One line for a person."""
        return f"{grid.name(self.point)} is not empty"


@dataclass(frozen=True, slots=True)
class NakedDiagonal:
    """The stone would form a naked diagonal with ``partner``."""

    point: int
    partner: int
    colour: str

    def describe(self, grid: Grid) -> str:
        """One line for a person."""
        return (f"{COLOUR_NAMES[self.colour]} on {grid.name(self.point)} forms a naked diagonal "
                f"with {grid.name(self.partner)}")


@dataclass(frozen=True, slots=True)
class LeavesNDE:
    """The stone would leave the NDE area ``area`` (a maximal empty region afterwards).

    ``banned`` lists the colours that could place nowhere in it without forming a naked diagonal;
    the area is BAD exactly when that is not empty (an NDE area can be filled by neither colour alone).
    ``culprit`` is a connected part of it that no clean sequence can cover (see
    :func:`.culprit.smallest_nde`); ``narrowed`` is false when the search for a small culprit ran out of
    work (:data:`.culprit.CULPRIT_WORK`, :data:`.culprit.CORE_WORK`): ``culprit`` is then the whole area,
    or a core of it not known to be a smallest part.
    """

    point: int
    colour: str
    area: int
    banned: tuple[str, ...]
    culprit: int
    narrowed: bool = True

    @property
    def bad(self) -> bool:
        """Banned and disconnected (see the class docstring)."""
        return bool(self.banned)

    def describe(self, grid: Grid) -> str:
        """One line for a person."""
        names = " ".join(grid.names(self.area))
        if self.banned:
            bad = "BAD: " + " and ".join(COLOUR_NAMES[c] for c in self.banned) + " banned"
        else:
            bad = "not BAD"
        who = f"{COLOUR_NAMES[self.colour]} on {grid.name(self.point)}"
        text = f"{who} would leave the NDE area {names} ({bad})"
        if self.culprit == self.area and not self.narrowed:
            return text + "; no smaller part that no sequence can cover was found in time"
        cut = "" if self.narrowed else " (the search for a smaller one was cut short)"
        return f"{text}; a part no sequence can cover: {' '.join(grid.names(self.culprit))}{cut}"


Ban = Occupied | NakedDiagonal | LeavesNDE


def game_over(position: Position) -> str | None:
    """The one line both the command line's ``why`` and the web API's explain give once a colour has won
    (no placement is legal or banned then: the game has ended), else None.

    >>> game_over(Position.parse(".R./.R./.R. b")), game_over(Position.parse(".R./.../... b"))
    ('The game is over: Red has won.', None)
    """
    winner = position.winner()
    return None if winner is None else f"The game is over: {COLOUR_NAMES[winner]} has won."


def banned(position: Position, area: int) -> tuple[str, ...]:
    """The colours that cannot place anywhere in ``area`` without forming a naked diagonal."""
    g = position.grid
    return tuple(c for c in COLOURS if not area & ~forming(g, position.stones(c), area))
