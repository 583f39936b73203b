"""Positions and slides: the rules of Unitile apart from the value rule (see ``tables``).

A :class:`Position` is immutable: the board, the set of red cells (a bit mask, bit ``i`` for cell
``i``), the bubble's cell and the side to move (``"r"`` or ``"b"``). Every other cell holds a blue tile.

>>> p = Position.start(Board.get(5, 5))
>>> str(p)
'BRBRB/RBRBR/BR.BR/BRBRB/RBRBR r'
>>> [p.board.name(c) for c in p.slides()]
['c4', 'b3', 'd3', 'c2']
>>> q = p.play(p.board.cell("c4"))
>>> str(q)
'BRBRB/RB.BR/BRRBR/BRBRB/RBRBR b'
>>> q.play(q.board.cell("c3")) == p
True
>>> p.group_counts()
(10, 10)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NoReturn

from ..colours import BLUE, COLOURS, RED, other
from ..errors import UnitileError
from .bans import EmptyCell, NotAdjacent, why
from .board import Board
from .index import Indexer


@dataclass(frozen=True, slots=True)
class Position:
    """A Unitile position: where the red tiles and the bubble are, and whose turn it is."""

    board: Board
    red: int
    bubble: int
    turn: str = RED

    def __post_init__(self) -> None:
        b = self.board
        if not 0 <= self.bubble < b.cells:
            raise UnitileError(f"bubble cell {self.bubble} is off the {b} board")
        if self.red & ~b.full or self.red >> self.bubble & 1:
            raise UnitileError("red tiles must lie on the board's cells other than the bubble")
        if self.red.bit_count() != b.red_count:
            raise UnitileError(f"a {b} position has {b.red_count} red tiles, not {self.red.bit_count()}")
        if self.turn not in COLOURS:
            raise UnitileError(f"side to move {str(self.turn)[:20]!r}: expected 'r' or 'b'")

    @staticmethod
    def start(board: Board) -> Position:
        """The start: bubble in the centre, tiles alternating in reading order, the first one blue."""
        red = 0
        tile = 0
        for cell in range(board.cells):
            if cell == board.centre:
                continue
            if tile % 2 == 1:
                red |= 1 << cell
            tile += 1
        return Position(board, red, board.centre, RED)

    @staticmethod
    def from_index(board: Board, index: int, turn: str = RED) -> Position:
        """The position with this index (see :mod:`unitile_py.unitile.index`)."""
        if not 0 <= index < board.positions:
            raise UnitileError(f"index {index} is outside 0..{board.positions - 1} for {board}")
        red, bubble = Indexer.get(board).decode(index)
        return Position(board, red, bubble, turn)

    @property
    def blue(self) -> int:
        """The mask of the cells holding blue tiles."""
        return self.board.full & ~self.red & ~(1 << self.bubble)

    def tiles(self, colour: str) -> int:
        """The mask of the cells holding tiles of one colour."""
        return self.red if colour == RED else self.blue

    def colour_at(self, cell: int) -> str | None:
        """``"r"``, ``"b"`` or ``None`` for the bubble."""
        if cell == self.bubble:
            return None
        return RED if self.red >> cell & 1 else BLUE

    def index(self) -> int:
        """The dense index of the tiles and bubble (the side to move is not part of it)."""
        return Indexer.get(self.board).index(self.red, self.bubble)

    def slides(self) -> tuple[int, ...]:
        """The cells of the tiles next to the bubble: every slide, before the value rule."""
        return self.board.neighbours[self.bubble]

    def slide_ban(self, cell: int) -> EmptyCell | NotAdjacent | None:
        """The ban on a slide from ``cell`` before the value rule (:mod:`.bans`): the cell is the
        bubble, or not next to it; None for a tile next to the bubble."""
        if cell == self.bubble:
            return EmptyCell(cell)
        if cell not in self.board.neighbours[self.bubble]:
            return NotAdjacent(cell)
        return None

    def _refuse(self, cell: int) -> NoReturn:
        ban = self.slide_ban(cell)
        assert ban is not None
        raise UnitileError(f"{self.board.name(cell)} is {why(ban)}")

    def play(self, cell: int) -> Position:
        """The position after the tile on ``cell`` slides into the bubble; the turn passes."""
        if cell == self.bubble or cell not in self.board.neighbours[self.bubble]:
            self._refuse(cell)
        red = self.red
        if red >> cell & 1:
            red = (red & ~(1 << cell)) | (1 << self.bubble)
        return Position(self.board, red, cell, other(self.turn))

    def flip_turn(self) -> Position:
        """The same tiles with the other side to move."""
        return Position(self.board, self.red, self.bubble, other(self.turn))

    def swap_colours(self) -> Position:
        """Every red tile blue and every blue tile red, and the other side to move."""
        return Position(self.board, self.blue, self.bubble, other(self.turn))

    def transform(self, sym: int) -> Position:
        """The image under symmetry number ``sym`` of ``board.symmetries`` (0 is the identity)."""
        ix = Indexer.get(self.board)
        return Position(
            self.board, ix.permute(self.red, sym), self.board.symmetries[sym][self.bubble], self.turn
        )

    def canonical_index(self, colour_swap: bool = True) -> int:
        """The smallest index among this position's symmetric (and colour-swapped) images."""
        return Indexer.get(self.board).canonical_index(self.red, self.bubble, colour_swap)

    def groups(self, colour: str) -> int:
        """The number of groups of one colour."""
        return self.board.count_groups(self.tiles(colour))

    def group_counts(self) -> tuple[int, int]:
        """``(red groups, blue groups)``, as shown above the board."""
        return self.groups(RED), self.groups(BLUE)

    def united(self, colour: str) -> bool:
        """True when all tiles of ``colour`` form one group."""
        return self.board.connected(self.tiles(colour))

    def winner(self) -> str | None:
        """The united colour, or None. (No slide unites both colours from a position with neither.)"""
        if self.united(RED):
            return RED
        if self.united(BLUE):
            return BLUE
        return None

    def __str__(self) -> str:
        """The position text (see docs/notation.md), such as ``BRB/R.B/RBR r``."""
        board = self.board
        chars = [
            "." if cell == self.bubble else "R" if self.red >> cell & 1 else "B"
            for cell in range(board.cells)
        ]
        rows = ["".join(chars[r * board.cols : (r + 1) * board.cols]) for r in range(board.rows)]
        return "/".join(rows) + " " + self.turn
