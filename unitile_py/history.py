"""The part of a game object both games share: the start, the moves, every position, whose turn, result,
and how a move is judged, named and refused.

Each game's ``Game`` class derives from :class:`History` and adds what is its own: the ban its rules
put on a move (:meth:`History.rules_ban`, a value of :mod:`unitile_py.bans`' kind), the words for
every ban (:meth:`History.words`, from the game's own ``bans`` module), what a move does (``push``),
how a move is named and how large the board is. A refusal is :class:`~unitile_py.errors.IllegalMove`
(the game's subclass of it: :attr:`History.illegal`), carrying the ply, the move and the ban.
"""

from __future__ import annotations

from typing import Generic, Protocol, TypeVar

from .bans import Ban, GameOver, OffBoard
from .errors import GameError, IllegalMove
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
#: A game's own bans (those of its rules).
B = TypeVar("B", bound=Ban)


class History(Generic[P, B]):
    """The moves played from a start and the position after each; subclasses append both together.
    ``B`` is the type of the game's own bans, :meth:`rules_ban`'s."""

    #: The game's error class: every bad input is one.
    error: type[GameError] = GameError
    #: The game's refusal of a move: a subclass of both :class:`IllegalMove` and :attr:`error`.
    illegal: type[IllegalMove] = IllegalMove
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

    def rules_ban(self, move: int) -> B | None:
        """The ban the rules put on ``move`` (a place of the board) for the side to move while the game
        goes on, or None when they allow it."""
        raise NotImplementedError

    def words(self, ban: B | OffBoard | GameOver) -> str:
        """A ban as an error says it, after ``ply N, move:`` (the game's ``bans`` module words it)."""
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

    def shared_ban(self, move: int) -> OffBoard | GameOver | None:
        """The ban every game puts on ``move`` whatever its rules: not a place of the board, or the game
        is over; else None."""
        if not 0 <= move < self.places:
            return OffBoard(self.board_text(), f"{self.place} {move}")
        winner = self.winner()
        return None if winner is None else GameOver(winner)

    def ban(self, move: int) -> B | OffBoard | GameOver | None:
        """None for a legal move of the side to move, else the ban on it: not a place of the board,
        the game is over, or what the rules forbid."""
        return self.shared_ban(move) or self.rules_ban(move)

    def why_illegal(self, move: int) -> str | None:
        """None for a legal move of the side to move, else its ban in the game's words."""
        ban = self.ban(move)
        return None if ban is None else self.words(ban)

    def refuse(self, move: int) -> None:
        """:attr:`illegal` with the ply, the move and its ban, unless ``move`` is legal now."""
        ban = self.ban(move)
        if ban is not None:
            name = self.name_of(move) if 0 <= move < self.places else f"{self.place} {move}"
            raise self.illegal(self.ply + 1, move, name, ban, self.words(ban))

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
