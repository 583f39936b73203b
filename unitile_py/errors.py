"""The errors that user-facing code reports as a single line: one base, one subclass per game.

Shared plumbing (cell names, records, inputs, the match runner) raises :class:`GameError`; each game
raises its own subclass, so a caller that serves both games catches :class:`GameError`.
"""

from __future__ import annotations


class GameError(ValueError):
    """Bad input (a position, a move, a record, a table file): the message says what and where."""


class UnitileError(GameError):
    """Bad input for Unitile."""


class NakedDiagonalError(GameError):
    """Bad input for Naked Diagonal."""
