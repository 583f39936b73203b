"""Why a placement is refused: the three bans of Naked Diagonal and every word said about them.

A stone may not go on a point that holds one (:class:`Occupied`), may not form a naked diagonal
(:class:`NakedDiagonal`) and may not leave an NDE area (:class:`LeavesNDE`);
:func:`unitile_py.naked_diagonal.legality.explain` says which of them a placement meets. As in every
game, no stone goes off the board or after the end (:mod:`unitile_py.bans`). This module words them
all (:func:`words`, each kind's words side by side), in three registers:

- :func:`why`, the error's words after ``ply N, a3:`` (``Game.push``, records, the command line's
  ``why``; :meth:`Occupied.describe` and the others say the same);
- :func:`sentence`, what a player reads on the board (the ``nd_explain`` request's ``text``;
  :func:`game_over`, also the command line's line once a colour has won);
- :func:`clause`, the end of a sentence that starts with the point's name (a link's refused placement).

>>> from .grid import Grid
>>> g = Grid.get(4)
>>> ban = NakedDiagonal(g.point("b4"), g.point("a3"), "b")
>>> print(why(ban, g))
Blue on b4 forms a naked diagonal with a3
>>> print(sentence(ban, g))
Blue on b4 would form a naked diagonal with a3: neither a4 nor b3 holds a blue stone.
>>> print(clause(ban, g))
would form a naked diagonal with a3
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, NamedTuple, Protocol

from ..bans import GameOver, OffBoard
from ..colours import BLUE, COLOUR_NAMES, COLOURS, RED
from ..errors import IllegalMove, NakedDiagonalError
from .grid import Grid
from .rules import forming


class Stones(Protocol):
    """What :func:`game_over` and :func:`banned` read of a position (:class:`.position.Position`, which
    words its own refusals here, so this module does not import it)."""

    @property
    def grid(self) -> Grid:
        """The board."""
        ...

    def stones(self, colour: str) -> int:
        """The points that hold ``colour`` (a mask)."""
        ...

    def winner(self) -> str | None:
        """The colour that has won, if any."""
        ...


@dataclass(frozen=True, slots=True)
class Occupied:
    """The point already holds a stone (of ``colour``)."""

    kind: ClassVar[str] = "occupied"
    point: int
    colour: str

    def describe(self, grid: Grid) -> str:
        """One line for a person (:func:`why`)."""
        return why(self, grid)


@dataclass(frozen=True, slots=True)
class NakedDiagonal:
    """The stone would form a naked diagonal with ``partner``."""

    kind: ClassVar[str] = "naked"
    point: int
    partner: int
    colour: str

    def describe(self, grid: Grid) -> str:
        """One line for a person (:func:`why`)."""
        return why(self, grid)

    def shared(self, grid: Grid) -> int:
        """The two points next to both stones, neither of which holds the colour (a mask)."""
        return next(1 << s | 1 << t for q, s, t in grid.diag[self.point] if q == self.partner)


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

    kind: ClassVar[str] = "nde"
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
        """One line for a person (:func:`why`)."""
        return why(self, grid)


#: The bans of the rules (:func:`.legality.explain`).
Ban = Occupied | NakedDiagonal | LeavesNDE
#: Every refusal of a placement: the rules' bans and the shared ones.
Refusal = Ban | OffBoard | GameOver


class IllegalPlacement(IllegalMove, NakedDiagonalError):
    """A placement Naked Diagonal refuses: ``ply``, ``move`` (the point), ``name`` and ``ban``."""


class Words(NamedTuple):
    """What is said of a ban: ``why``, the error's words after ``ply N, a3:``; ``sentence``, what a
    player reads on the board; ``clause``, the end of a sentence that starts with the point's name."""

    why: str
    sentence: str
    clause: str


def words(ban: Refusal, grid: Grid) -> Words:
    """Everything said of ``ban`` on ``grid``."""
    match ban:
        case Occupied(point, colour):
            held = COLOUR_NAMES[colour].lower()
            name = grid.name(point)
            return Words(f"{name} is not empty", f"{name} already holds a {held} stone.", "is taken already")
        case NakedDiagonal(point, partner, colour):
            who, at, other = COLOUR_NAMES[colour], grid.name(point), grid.name(partner)
            s, t = grid.names(ban.shared(grid))
            return Words(f"{who} on {at} forms a naked diagonal with {other}",
                         f"{who} on {at} would form a naked diagonal with {other}: "
                         f"neither {s} nor {t} holds a {who.lower()} stone.",
                         f"would form a naked diagonal with {other}")
        case LeavesNDE():
            return Words(_nde_line(ban, grid), _nde_text(ban, grid),
                         "would leave an area that no sequence of placements can fill (NDE)")
        case OffBoard(board, name):
            return Words(f"not a point of the {board} board", f"{name} is not a point of the {board} board.",
                         f"is not a point of the {board} board")
        case GameOver(winner):
            who = COLOUR_NAMES[winner]
            return Words(f"the game is over: {who} has won", f"The game is over: {who} has won.",
                         "comes after the end of the game")


def why(ban: Refusal, grid: Grid) -> str:
    """The ban as an error says it, after ``ply N, a3:``."""
    return words(ban, grid).why


def sentence(ban: Refusal, grid: Grid) -> str:
    """What a player reads about a placement that ``ban`` refuses (the ``nd_explain`` request's text)."""
    return words(ban, grid).sentence


def clause(ban: Refusal, grid: Grid) -> str:
    """The ban as the end of a sentence that starts with the point's name (a link's refused turn)."""
    return words(ban, grid).clause


def needless_skip(colour: str) -> str:
    """Why a ``skip`` cannot stand for the turn of ``colour``, who can place."""
    return f"skip, but {COLOUR_NAMES[colour]} can place"


def game_over(position: Stones) -> str | None:
    """The one line both the command line's ``why`` and the web API's explain give once a colour has won
    (no placement is legal or banned then: the game has ended), else None.

    >>> from .position import Position
    >>> game_over(Position.parse(".R./.R./.R. b")), game_over(Position.parse(".R./.../... b"))
    ('The game is over: Red has won.', None)
    """
    winner = position.winner()
    return None if winner is None else sentence(GameOver(winner), position.grid)


def _nde_line(ban: LeavesNDE, grid: Grid) -> str:
    """An NDE ban in an error's words: the whole area, whether BAD, and the culprit."""
    names = " ".join(grid.names(ban.area))
    barred = " and ".join(COLOUR_NAMES[c] for c in ban.banned)
    bad = f"BAD: {barred} banned" if ban.banned else "not BAD"
    who = f"{COLOUR_NAMES[ban.colour]} on {grid.name(ban.point)}"
    text = f"{who} would leave the NDE area {names} ({bad})"
    if ban.culprit == ban.area and not ban.narrowed:
        return text + "; no smaller part that no sequence can cover was found in time"
    cut = "" if ban.narrowed else " (the search for a smaller one was cut short)"
    return f"{text}; a part no sequence can cover: {' '.join(grid.names(ban.culprit))}{cut}"


def _nde_text(ban: LeavesNDE, grid: Grid) -> str:
    """What a player reads about a placement that would leave an NDE area."""
    who = COLOUR_NAMES[ban.colour]
    size = ban.area.bit_count()
    where = " ".join(grid.names(ban.area)) if size <= 6 else f"the {size} points outlined"
    start = f"{who} on {grid.name(ban.point)} would leave {where}"
    if not ban.bad:
        text = f"{start} as an NDE area: no sequence of placements fills it without a naked diagonal."
    elif len(ban.banned) == 2:
        text = f"{start} banned and disconnected (BAD): neither colour could place anywhere in it."
    else:
        barred, other = COLOUR_NAMES[ban.banned[0]], COLOUR_NAMES[BLUE if ban.banned[0] == RED else RED]
        reason = f"{barred} could place nowhere in it, {other} could not fill it alone"
        text = f"{start} banned and disconnected (BAD): {reason}."
    if ban.culprit != ban.area:
        part = " ".join(grid.names(ban.culprit))
        text += f" {'' if ban.culprit.bit_count() == 1 else 'Its part '}{part} could never be filled."
        if not ban.narrowed:
            text += " (A smaller such part may exist: the search for one was cut short.)"
    elif not ban.narrowed:
        text += " The part of it to blame was not narrowed down: the search for one was cut short."
    return text


def banned(position: Stones, area: int) -> tuple[str, ...]:
    """The colours that cannot place anywhere in ``area`` without forming a naked diagonal."""
    g = position.grid
    return tuple(c for c in COLOURS if not area & ~forming(g, position.stones(c), area))


__all__ = [
    "Ban",
    "IllegalPlacement",
    "LeavesNDE",
    "NakedDiagonal",
    "Occupied",
    "Refusal",
    "Stones",
    "Words",
    "banned",
    "clause",
    "game_over",
    "needless_skip",
    "sentence",
    "why",
    "words",
]
