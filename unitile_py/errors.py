"""The errors that user-facing code reports as a single line: one base, one subclass per game, and the
refusal of a move.

Shared plumbing (cell names, records, inputs, the match runner) raises :class:`GameError`; each game
raises its own subclass, so a caller that serves both games catches :class:`GameError`. A move the
rules refuse raises :class:`IllegalMove` (as python-chess raises ``IllegalMoveError``), through each
game's own subclass of it and of its error class: a caller learns the ply, the move and why from the
error's attributes, never from its text.

>>> from .bans import GameOver
>>> exc = IllegalMove(3, 7, "a3", GameOver("r"), "the game is over: Red has won")
>>> str(exc), exc.ply, exc.move, exc.name, exc.ban.kind
('ply 3, a3: the game is over: Red has won', 3, 7, 'a3', 'over')
"""

from __future__ import annotations

from typing import Any

from .bans import Ban


class GameError(ValueError):
    """Bad input (a position, a move, a record, a table file): the message says what and where."""


class UnitileError(GameError):
    """Bad input for Unitile."""


class NakedDiagonalError(GameError):
    """Bad input for Naked Diagonal."""


class IllegalMove(GameError):
    """A move the game refuses: ``ply`` (the number of the turn it would have been, from 1), ``move``
    (the game's number for it), ``name`` (as the message writes it), ``ban`` (why, a value with a
    ``kind``: :mod:`unitile_py.bans`) and ``why`` (the ban in the game's words). The message is
    ``ply N, name: why``."""

    def __init__(self, ply: int, move: int, name: str, ban: Ban, why: str) -> None:
        super().__init__(f"ply {ply}, {name}: {why}")
        self.ply = ply
        self.move = move
        self.name = name
        self.ban = ban
        self.why = why

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled with its fields (a process pool sends errors back whole)."""
        return (type(self), (self.ply, self.move, self.name, self.ban, self.why))


__all__ = ["GameError", "IllegalMove", "NakedDiagonalError", "UnitileError"]
