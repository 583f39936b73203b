"""The one error type that user-facing code reports as a single line."""

from __future__ import annotations


class UnitileError(ValueError):
    """Bad input (a position, a move, a record, a table file): the message says what and where."""
