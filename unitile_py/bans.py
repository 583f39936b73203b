"""Refusals as values: what every ban is, and the bans both games share.

A game refuses a move with a *ban*, a small frozen value that says why (as scalachess returns an illegal
move as a value): its ``kind`` is a short fixed string that the page and the tests may read, and its
fields hold what the words need. Nothing reads a refusal's words to learn what it was; the words are
each game's, in one module of its own (:mod:`unitile_py.unitile.bans`,
:mod:`unitile_py.naked_diagonal.bans`), for the bans below as well as for its own. A refused
:meth:`~unitile_py.history.History.push` raises :class:`~unitile_py.errors.IllegalMove`, which carries
the ply, the move and the ban.

>>> OffBoard("5x5", "f6").kind, GameOver("r").kind, TooLong(10).kind
('off_board', 'over', 'too_long')
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, Protocol


class Ban(Protocol):
    """What every ban has: its ``kind``, a short fixed string (each ban class has its own)."""

    @property
    def kind(self) -> str:
        """The ban's kind, such as ``"off_board"``: the same for every value of a class."""
        ...


@dataclass(frozen=True, slots=True)
class OffBoard:
    """The move ``name`` names no place of the ``board`` (a size such as ``5x5``): a name of none, or
    a number outside the board (``cell 25``)."""

    kind: ClassVar[str] = "off_board"
    board: str
    name: str


@dataclass(frozen=True, slots=True)
class GameOver:
    """A colour has won: no move follows."""

    kind: ClassVar[str] = "over"
    #: The colour that has won, ``"r"`` or ``"b"``.
    winner: str


@dataclass(frozen=True, slots=True)
class TooLong:
    """The game has ``limit`` moves, the most a game may have (:data:`unitile_py.service.MAX_TURNS`);
    only a game whose rules do not end it sooner meets this ban (Unitile without its tables)."""

    kind: ClassVar[str] = "too_long"
    limit: int


#: The bans every game meets whatever its rules, which :meth:`unitile_py.history.History.ban` finds
#: before asking the game's: off the board, and after the end.
Shared = OffBoard | GameOver

__all__ = ["Ban", "GameOver", "OffBoard", "Shared", "TooLong"]
