"""A game of Unitile: the start, the moves, the rules that judge them, undo and the result.

:class:`Game` owns legality, as python-chess's ``Board`` does: every move goes through :meth:`Game.push`,
which refuses a slide that is not next to the bubble, one made after the game has ended, and one the
value rule forbids (a slide must unite a colour or lower T = r + b; the lookup tables know which), with
:class:`~unitile_py.unitile.bans.IllegalSlide`: the ply, the cell and the ban (:mod:`.bans`). The
rules come from a :class:`unitile_py.unitile.lookups.Lookups`: by default the board's tables; a board without
tables is an error that says so, unless the caller asks for :data:`unitile_py.unitile.lookups.ADJACENT_ONLY`.

>>> from unitile_py.unitile import Board
>>> g = Game(Position.start(Board.get(5, 5)))
>>> [g.board.name(c) for c in g.legal_moves()]
['c4', 'b3', 'd3', 'c2']
>>> g.push_name("c4")
>>> g.push_name("c3")
Traceback (most recent call last):
    ...
unitile_py.unitile.bans.IllegalSlide: ply 2, c3: neither unites a colour nor lowers the sum of the two values
>>> g.ban(g.board.cell("c3")), g.ban(g.board.cell("a1"))
(NotLower(cell=12), NotAdjacent(cell=20))
>>> g.push_name("d4"); g.record_text()
'1. c4 d4 *\\n'
>>> g.pop() == g.board.cell("d4"), g.ply
(True, 1)
"""

from __future__ import annotations

from collections.abc import Iterable

from ..bans import GameOver, OffBoard, TooLong
from ..errors import GameError, UnitileError
from ..history import History
from ..service import MAX_TURNS
from .bans import Ban, IllegalSlide, NotLower, why
from .board import Board
from .lookups import Lookups
from .notation import Record, format_record, start_headers
from .position import Position
from .tables import tables_for


def default_rules(board: Board) -> Lookups:
    """The lookup tables of a board; :class:`UnitileError` in one line when it has none."""
    try:
        return tables_for(board)
    except GameError as exc:
        raise UnitileError(f"{exc}: the value rule cannot be checked on {board} without them") from None


class Game(History[Position, Ban]):
    """The moves of one game from a start position, each checked by ``rules``; undo with :meth:`pop`."""

    error = UnitileError
    illegal = IllegalSlide
    place = "cell"

    def __init__(
        self,
        start: Position,
        rules: Lookups | None = None,
        moves: Iterable[int] = (),
        headers: dict[str, str] | None = None,
    ) -> None:
        super().__init__(start, headers)
        self.rules: Lookups = rules if rules is not None else default_rules(start.board)
        for cell in moves:
            self.push(cell)

    @staticmethod
    def from_record(record: Record, rules: Lookups | None = None) -> Game:
        """The game of a parsed record, every move checked (the error names the ply)."""
        return Game(record.start, rules, record.moves, record.headers)

    @property
    def board(self) -> Board:
        """The board."""
        return self.start.board

    # ----- moves ------------------------------------------------------------------------------------

    def legal_moves(self) -> tuple[int, ...]:
        """The cells of the legal slides (the rules' order): none once the game is over or has
        :data:`~unitile_py.service.MAX_TURNS` moves."""
        if self.is_over() or len(self._moves) >= MAX_TURNS:
            return ()
        return tuple(self.rules.legal(self.position))

    @property
    def places(self) -> int:
        """The cells of the board."""
        return self.board.cells

    def board_text(self) -> str:
        """The board's size, such as ``5x5``."""
        return str(self.board)

    def rules_ban(self, cell: int) -> Ban | None:
        """The ban on a slide from ``cell`` (:mod:`.bans`; :class:`~unitile_py.bans.TooLong` after
        :data:`~unitile_py.service.MAX_TURNS` moves), or None."""
        if len(self._moves) >= MAX_TURNS:
            return TooLong(MAX_TURNS)
        position = self.position
        slide = position.slide_ban(cell)
        if slide is not None:
            return slide
        if cell not in self.rules.legal(position):
            return NotLower(cell)
        return None

    def words(self, ban: Ban | OffBoard | GameOver) -> str:
        """A ban in an error's words (:func:`.bans.why`)."""
        return why(ban)

    def is_legal(self, cell: int) -> bool:
        """True when the slide from ``cell`` is legal now."""
        return self.why_illegal(cell) is None

    def push(self, cell: int) -> None:
        """Slide the tile on ``cell``; :class:`~unitile_py.unitile.bans.IllegalSlide` (a
        :class:`UnitileError`) with the ply, the cell and the ban if it is not legal."""
        self.refuse(cell)
        self._positions.append(self.position.play(cell))
        self._moves.append(cell)

    def name_of(self, move: int) -> str:
        """A move (a cell) as the notation writes it."""
        return self.board.name(move)

    def move_of(self, text: str) -> int:
        """The cell of a move's name; :class:`UnitileError` for none."""
        return self.board.cell(text)

    # ----- records ----------------------------------------------------------------------------------

    def record(self) -> Record:
        """The game as a record, with the ``Board`` or ``Position`` header its start needs."""
        headers = {**start_headers(self.start), **self.headers}
        return Record(self.start, list(self._moves), headers, self.result())

    def record_text(self) -> str:
        """The game in the record notation."""
        return format_record(self.record())


__all__ = ["Game", "default_rules"]
