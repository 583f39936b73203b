"""The part of a game object both games share: the start, the moves, every position, whose turn, result,
and how a move is judged, named and refused.

Each game's ``Game`` class derives from :class:`History` and adds what is its own: what its rules
forbid (:meth:`History.rules_forbid`), what a move does (``push``), how a move is named, how large the
board is and how a won game is described.
"""

from __future__ import annotations

from typing import Generic, Protocol, TypeVar

from .errors import GameError
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

    #: The game's error class: every refusal is one.
    error: type[GameError] = GameError
    #: What the game calls the places a move names (``cell``, ``point``).
    place = "place"
    #: The move that stands for a skipped turn, if the game has one: :meth:`pop` takes it back with
    #: the move before it.
    skip: int | None = None

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

    # ----- what each game says ------------------------------------------------------------------------

    @property
    def places(self) -> int:
        """How many places the board has: moves are the numbers 0 to ``places - 1``."""
        raise NotImplementedError

    def board_text(self) -> str:
        """The board's size as an error names it, such as ``5x5``."""
        raise NotImplementedError

    def won_text(self, winner: str) -> str:
        """How an error says that ``winner`` has won."""
        raise NotImplementedError

    def rules_forbid(self, move: int) -> str | None:
        """Why the rules forbid ``move`` (a place of the board) to the side to move while the game goes
        on, or None when they allow it."""
        raise NotImplementedError

    def name_of(self, move: int) -> str:
        """A move as the notation writes it."""
        raise NotImplementedError

    def move_of(self, text: str) -> int:
        """The move a name stands for; :class:`GameError` for none."""
        raise NotImplementedError

    def push(self, move: int) -> object:
        """Play a legal move; the game's error otherwise (see :meth:`refuse`)."""
        raise NotImplementedError

    # ----- judging, naming and taking back moves ------------------------------------------------------

    def why_illegal(self, move: int) -> str | None:
        """None for a legal move of the side to move, else the reason: not a place of the board, the
        game is over, or what the rules forbid."""
        if not 0 <= move < self.places:
            return f"not a {self.place} of the {self.board_text()} board"
        winner = self.winner()
        if winner is not None:
            return f"the game is over: {self.won_text(winner)}"
        return self.rules_forbid(move)

    def refuse(self, move: int) -> None:
        """The game's error naming the ply, the move and why, unless ``move`` is legal now."""
        why = self.why_illegal(move)
        if why is not None:
            name = self.name_of(move) if 0 <= move < self.places else f"{self.place} {move}"
            raise self.error(f"ply {self.ply + 1}, {name}: {why}")

    def push_name(self, name: str) -> None:
        """Play a move named in the notation, such as ``c4``."""
        try:
            move = self.move_of(name)
        except GameError as exc:
            raise self.error(f"ply {self.ply + 1}: {exc}") from None
        self.push(move)

    def pop(self) -> int:
        """Take back the last move (with the skipped turn after it, if any) and return it."""
        if not self._moves:
            raise self.error("there is no move to take back")
        if self._moves[-1] == self.skip:
            self._moves.pop()
            self._positions.pop()
        self._positions.pop()
        return self._moves.pop()


__all__ = ["History", "PositionLike"]
