"""A game of Naked Diagonal: the start, the turns, legality, skipped turns, undo and the result.

:class:`Game` owns legality as the Unitile game does: :meth:`Game.push` places a stone of the side to
move and refuses, with :class:`~unitile_py.naked_diagonal.bans.IllegalPlacement` (the ply, the point
and the ban: :mod:`.bans`), a point that is taken, a stone that would form a naked
diagonal, one that would leave a naked-diagonal-equivalent area, and any move after the end. When the
opponent then has no legal placement, their turn is skipped: the game records a :data:`SKIP` for it
and the same side moves again. :meth:`pop` takes back the last placement with the skip after it.

The turns are numbered as plies, skips included, as a record writes them.

>>> g = Game(Position.empty(3))
>>> g.push_name("b2"); g.push_name("c2")
>>> g.push_name("a3")
Traceback (most recent call last):
    ...
unitile_py.naked_diagonal.bans.IllegalPlacement: ply 3, a3: Red on a3 forms a naked diagonal with b2
>>> g.ban(g.grid.point("a3")).kind, g.ban(g.grid.point("b2")).kind, g.ban(g.grid.point("b3"))
('naked', 'occupied', None)
>>> for name in ("b3", "c3", "a2", "a1", "b1"):
...     g.push_name(name)
>>> g.record_text().splitlines()[-1], g.grid.names(g.winner_chain())
('1. b2 c2 2. b3 c3 3. a2 a1 4. b1 1-0', ('b3', 'a2', 'b2', 'b1'))
>>> g.push_name("a3")
Traceback (most recent call last):
    ...
unitile_py.naked_diagonal.bans.IllegalPlacement: ply 8, a3: the game is over: Red has won
"""

from __future__ import annotations

from collections.abc import Iterable

from ..bans import GameOver, OffBoard
from ..colours import COLOUR_NAMES, other
from ..coords import quote
from ..errors import GameError, IllegalMove, NakedDiagonalError
from ..history import History
from ..records import MoveReader, check_result, split_record
from .bans import Ban, IllegalPlacement, needless_skip, why
from .grid import Grid
from .legality import after, check_start, explain, legal_mask
from .notation import SKIP, SKIP_WORD, NDRecord, format_record, move_name, start_headers, start_of
from .position import Position
from .rules import chain


class Game(History[Position, Ban]):
    """The turns of one game from a start position, each checked; undo with :meth:`pop` (a placement is
    taken back with the skip it caused)."""

    error = NakedDiagonalError
    illegal = IllegalPlacement
    place = "point"
    skip = SKIP

    def __init__(
        self, start: Position, moves: Iterable[int] = (), headers: dict[str, str] | None = None
    ) -> None:
        super().__init__(start, headers)
        skipped = False  # the last placement skipped the opponent: a SKIP in ``moves`` is that skip
        for move in moves:
            if move == SKIP:
                if not skipped:
                    raise NakedDiagonalError(f"ply {self.ply + 1}: {needless_skip(self.position.turn)}")
                skipped = False
                continue
            skipped = self.push(move)

    @staticmethod
    def from_record(record: NDRecord) -> Game:
        """The game of a record (a parsed record has every turn checked already)."""
        return Game(record.start, record.moves, record.headers)

    @property
    def grid(self) -> Grid:
        """The board."""
        return self.start.grid

    def winner_chain(self) -> int:
        """The winner's stones that take part in a chain between its edges (a mask); 0 while none."""
        winner = self.winner()
        if winner is None:
            return 0
        return chain(self.grid, self.position.stones(winner), winner)

    # ----- turns ------------------------------------------------------------------------------------

    def legal_moves(self) -> tuple[int, ...]:
        """The points where the side to move may place, sorted: none once the game is over."""
        if self.is_over():
            return ()
        return self.grid.points(legal_mask(self.position, self.position.turn))

    @property
    def places(self) -> int:
        """The points of the board."""
        return self.grid.size

    def board_text(self) -> str:
        """The board's size, such as ``5x5``."""
        return f"{self.grid.n}x{self.grid.n}"

    def rules_ban(self, point: int) -> Ban | None:
        """The ban on a stone of the side to move on ``point`` (:func:`.legality.explain`), or None."""
        position = self.position
        return explain(position, point, position.turn)

    def quick_ban(self, point: int) -> Ban | OffBoard | GameOver | None:
        """:meth:`ban` without the search for an NDE area's culprit (the whole area stands for it, not
        narrowed): for a caller that needs only the kind of ban, such as a link's refused placement."""
        position = self.position
        return self.shared_ban(point) or explain(position, point, position.turn, narrow=False)

    def words(self, ban: Ban | OffBoard | GameOver) -> str:
        """A ban in an error's words (:func:`.bans.why`)."""
        return why(ban, self.grid)

    def push(self, point: int) -> bool:
        """Place a stone of the side to move on ``point``; True when that skips the opponent's turn.

        Raises :class:`~unitile_py.naked_diagonal.bans.IllegalPlacement` (a :class:`NakedDiagonalError`)
        with the ply, the point and the ban when the placement is not legal.
        """
        self.refuse(point)
        before = self.position
        nxt = after(before, point)
        skipped = nxt.turn == before.turn
        self._moves.append(point)
        if skipped:
            # The opponent has no legal placement: record their turn as a skip; the mover goes again.
            self._positions.append(nxt.with_turn(other(before.turn)))
            self._moves.append(SKIP)
        self._positions.append(nxt)
        return skipped

    def name_of(self, move: int) -> str:
        """A turn as the notation writes it: a point name, or ``skip``."""
        return move_name(self.grid, move)

    def move_of(self, text: str) -> int:
        """The point of a name; :class:`NakedDiagonalError` for none."""
        return self.grid.point(text.strip(), "move")

    # ----- records ----------------------------------------------------------------------------------

    def record(self) -> NDRecord:
        """The game as a record, with the headers that name the game and its start."""
        headers = {**start_headers(self.start), **self.headers}
        return NDRecord(self.start, list(self._moves), list(self._positions), headers, self.result())

    def record_text(self) -> str:
        """The game in the record notation."""
        return format_record(self.record())



def parse_record(text: str) -> NDRecord:
    """A record from text, every turn checked: placements by the rules, skips written where forced.

    >>> r = parse_record('[Board "3x3"]\\n1. b2 c2 2. b3 c3 3. a2 *')
    >>> [r.start.grid.name(p) for p in r.moves], r.result
    (['b2', 'c2', 'b3', 'c3', 'a2'], '*')
    >>> print(format_record(r), end="")
    [Game "Naked Diagonal"]
    [Board "3x3"]
    1. b2 c2 2. b3 c3 3. a2 *
    >>> parse_record('[Board "3x3"]\\n1. b2 c2 2. a3 *')
    Traceback (most recent call last):
        ...
    unitile_py.errors.NakedDiagonalError: record: ply 3, a3: Red on a3 forms a naked diagonal with b2
    """
    parts = split_record(text)
    start = start_of(parts.headers)
    try:
        check_start(start)  # the web API's rule: no start with an NDE area (no placement is legal there)
    except NakedDiagonalError as exc:
        raise NakedDiagonalError(f"record: {exc}") from None
    if "Board" in parts.headers:  # written back as the board names itself: "003x003" is "3x3"
        parts.headers["Board"] = f"{start.grid.n}x{start.grid.n}"
    game = Game(start, headers=parts.headers)
    reader = MoveReader(parts.tokens)
    skipped = False
    while (token := reader.next(other(game.position.turn) if skipped else game.position.turn)) is not None:
        ply = game.ply + 1
        if game.is_over():
            raise NakedDiagonalError(f"record: ply {ply}, {quote(token)}: comes after the game has ended")
        if token.lower() == SKIP_WORD:
            if not skipped:
                raise NakedDiagonalError(f"record: ply {ply}: {needless_skip(game.position.turn)}")
            skipped = False
            continue
        if skipped:
            who = COLOUR_NAMES[other(game.position.turn)]
            raise NakedDiagonalError(f"record: ply {ply - 1}: {who} has no legal placement here: write skip")
        try:
            point = game.grid.point(token, "move")
        except GameError as exc:
            raise NakedDiagonalError(f"record: ply {ply}: {exc}") from None
        try:
            skipped = game.push(point)
        except IllegalMove as exc:  # it names the ply already
            raise NakedDiagonalError(f"record: {exc}") from None
    record = game.record()
    record.result = check_result(reader.result, game.winner())
    return record


__all__ = ["SKIP", "Game", "parse_record"]
