"""The part of a game object both games share: the start, the moves, every position, whose turn, result.

Each game's ``Game`` class derives from :class:`History` and adds what is its own: which moves are
legal and what a move does.
"""

from __future__ import annotations

from typing import Generic, Protocol, TypeVar

from .records import result_token


class PositionLike(Protocol):
    """What a history needs of a position."""

    @property
    def turn(self) -> str:
        """The side to move, ``"r"`` or ``"b"``."""
        ...

    def winner(self) -> str | None:
        """The colour that has won in this position, if any."""
        ...


P = TypeVar("P", bound=PositionLike)


class History(Generic[P]):
    """The moves played from a start and the position after each; subclasses append both together."""

    def __init__(self, start: P, headers: dict[str, str] | None = None) -> None:
        self.start = start
        self.headers: dict[str, str] = dict(headers or {})
        self._moves: list[int] = []
        self._positions: list[P] = [start]

    @property
    def position(self) -> P:
        """The current position."""
        return self._positions[-1]

    @property
    def positions(self) -> tuple[P, ...]:
        """The start and the position after each move."""
        return tuple(self._positions)

    @property
    def moves(self) -> tuple[int, ...]:
        """The moves so far."""
        return tuple(self._moves)

    @property
    def ply(self) -> int:
        """The number of moves (turns) so far."""
        return len(self._moves)

    def mover(self, ply: int) -> str:
        """The colour that made move number ``ply`` (0-based)."""
        return self._positions[ply].turn

    def winner(self) -> str | None:
        """The colour that has won, else None."""
        return self.position.winner()

    def is_over(self) -> bool:
        """True once a colour has won."""
        return self.winner() is not None

    def result(self) -> str:
        """``1-0`` (Red won), ``0-1`` (Blue won) or ``*``."""
        return result_token(self.winner())


__all__ = ["History", "PositionLike"]
