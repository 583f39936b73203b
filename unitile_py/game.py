"""A game in progress: the start, the moves played, undo, and the result.

>>> from unitile_py import Board
>>> g = Game(Position.start(Board.get(5, 5)))
>>> g.push_name("c4"); g.push_name("d4")
>>> g.record_text()
'1. c4 d4 *\\n'
>>> g.pop() == g.start.board.cell("d4"), len(g.moves)
(True, 1)
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .errors import UnitileError
from .notation import Record, format_record, parse_move
from .position import BLUE, RED, Position


@dataclass
class Game:
    """The moves of one game from a start position, with undo; the result follows from the board."""

    start: Position
    moves: list[int] = field(default_factory=list)
    headers: dict[str, str] = field(default_factory=dict)
    _positions: list[Position] = field(default_factory=list, repr=False)

    def __post_init__(self) -> None:
        self._positions = [self.start]
        moves, self.moves = self.moves, []
        for cell in moves:
            self.push(cell)

    @staticmethod
    def from_record(record: Record) -> Game:
        """The game of a parsed record."""
        return Game(record.start, list(record.moves), dict(record.headers))

    @property
    def position(self) -> Position:
        """The current position."""
        return self._positions[-1]

    @property
    def positions(self) -> tuple[Position, ...]:
        """The start and every position after it."""
        return tuple(self._positions)

    def winner(self) -> str | None:
        """``"r"`` or ``"b"`` once a colour is united, else None."""
        return self.position.winner()

    def result(self) -> str:
        """``1-0`` (red won), ``0-1`` (blue won) or ``*``."""
        winner = self.winner()
        return "1-0" if winner == RED else "0-1" if winner == BLUE else "*"

    def push(self, cell: int) -> None:
        """Slide the tile on ``cell``; raises UnitileError if the game is over or it is no slide."""
        if self.winner() is not None:
            raise UnitileError("the game is over")
        self._positions.append(self.position.play(cell))
        self.moves.append(cell)

    def push_name(self, name: str) -> None:
        """Slide a tile named in the notation, such as ``c4``."""
        self.push(parse_move(self.position, name))

    def pop(self) -> int:
        """Take back the last move and return its cell."""
        if not self.moves:
            raise UnitileError("there is no move to take back")
        self._positions.pop()
        return self.moves.pop()

    def record(self) -> Record:
        """The game as a record."""
        return Record(self.start, list(self.moves), dict(self.headers), self.result())

    def record_text(self) -> str:
        """The game in the record notation."""
        return format_record(self.record())
