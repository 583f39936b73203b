"""Why a slide is refused: Unitile's bans and every word said about them.

A tile may not slide from the empty cell (:class:`EmptyCell`), from a cell not next to it
(:class:`NotAdjacent`), nor, by the value rule, unless the slide unites a colour or lowers T = r + b
(:class:`NotLower`); and, as in every game, not from off the board, not after the end, and not past
the most moves a game may have (:mod:`unitile_py.bans`). :class:`~unitile_py.unitile.game.Game` finds
the ban; this module words it (:func:`words`, each kind's words side by side), in two registers:
:func:`why`, the error's words after ``ply N, c3:`` (the command line and the web API's errors), and
:func:`clause`, the page's, the end of a sentence that starts with the cell's name (:func:`sentence`:
the ``explain`` request's text, a link's refused slide).

>>> why(NotLower(12))
'neither unites a colour nor lowers the sum of the two values'
>>> sentence(NotLower(12), "c3")
'c3 would not lower the sum of the two values'
>>> why(GameOver("b")), clause(GameOver("b"))
('the game is over: blue is united', 'comes after the end of the game')
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, NamedTuple

from ..bans import GameOver, OffBoard, TooLong
from ..errors import IllegalMove, UnitileError


@dataclass(frozen=True, slots=True)
class SlideBan:
    """A ban on the slide of the tile on ``cell``."""

    cell: int


class EmptyCell(SlideBan):
    """The cell is the bubble: no tile is there to slide."""

    __slots__ = ()
    kind: ClassVar[str] = "empty_cell"


class NotAdjacent(SlideBan):
    """The tile on ``cell`` is not orthogonally next to the bubble."""

    __slots__ = ()
    kind: ClassVar[str] = "not_adjacent"


class NotLower(SlideBan):
    """The slide from ``cell`` neither unites a colour nor lowers T = r + b (the value rule)."""

    __slots__ = ()
    kind: ClassVar[str] = "not_lower"


#: The bans of Unitile's rules (:meth:`~unitile_py.unitile.game.Game.rules_ban`).
Ban = EmptyCell | NotAdjacent | NotLower | TooLong
#: Every refusal of a slide: the rules' bans and the shared ones.
Refusal = Ban | OffBoard | GameOver


class IllegalSlide(IllegalMove, UnitileError):
    """A slide Unitile refuses: ``ply``, ``move`` (the cell), ``name`` and ``ban``."""


class Words(NamedTuple):
    """What is said of a ban: ``why``, the error's words after ``ply N, c3:``; ``clause``, the rules
    page's words, the end of a sentence that starts with the cell's name."""

    why: str
    clause: str


def words(ban: Refusal) -> Words:
    """Everything said of ``ban``."""
    match ban:
        case EmptyCell():
            return Words("the empty cell, not a tile", "is the empty cell")
        case NotAdjacent():
            return Words("not next to the bubble", "is not next to the empty cell")
        case NotLower():
            return Words("neither unites a colour nor lowers the sum of the two values",
                         "would not lower the sum of the two values")
        case OffBoard(board, _):
            return Words(f"not a cell of the {board} board", "is not a cell of the board")
        case GameOver(winner):
            return Words(f"the game is over: {'red' if winner == 'r' else 'blue'} is united",
                         "comes after the end of the game")
        case TooLong(limit):
            reached = f"the game has reached {limit:,} moves, the most a game may have"
            return Words(reached, reached)


def why(ban: Refusal) -> str:
    """The ban as an error says it, after ``ply N, c3:``."""
    return words(ban).why


def clause(ban: Refusal) -> str:
    """The ban in the rules page's words, as the end of a sentence that starts with the cell's name."""
    return words(ban).clause


def sentence(ban: Refusal, name: str) -> str:
    """What a player reads about a slide from ``name`` (the cell's name) that ``ban`` refuses."""
    return f"{name} {clause(ban)}"


__all__ = [
    "Ban",
    "EmptyCell",
    "IllegalSlide",
    "NotAdjacent",
    "NotLower",
    "Refusal",
    "SlideBan",
    "Words",
    "clause",
    "sentence",
    "why",
    "words",
]
