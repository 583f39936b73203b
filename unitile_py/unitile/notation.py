"""Text formats: positions, move names and game records (see docs/notation.md).

>>> p = parse_position("BRB/R.B/RBR r")
>>> p.board.rows, p.board.cols, p.board.name(p.bubble)
(3, 3, 'b2')
>>> format_position(p)
'BRB/R.B/RBR r'
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..colours import BLUE, RED
from ..coords import check_row, quote, split_position
from ..errors import GameError, UnitileError
from ..records import MoveReader, check_result, format_headers, format_moves, split_record
from .bans import why
from .board import Board
from .position import Position


def parse_position(text: str) -> Position:
    """A position from ``ROWS/ROWS/... SIDE``, such as ``BRBRB/RBRBR/BR.BR/BRBRB/RBRBR r``."""
    rows, side = split_position(text, f"position {quote(text.strip())}", "the rows", UnitileError)
    rows_text = "/".join(rows)
    cols = len(rows[0])
    for i, row in enumerate(rows):
        if len(row) != cols:
            raise UnitileError(
                f"position {quote(rows_text)}: row {i + 1} has {len(row)} cells, row 1 has {cols}"
            )
        check_row(f"position {quote(rows_text)}", i, row, "cells", UnitileError)
    board = Board.get(len(rows), cols)
    cells = "".join(rows)
    wrong = count_problem(board, cells.count("R"), cells.count("B"), cells.count("."))
    if wrong:
        raise UnitileError(f"position {quote(rows_text)}: {wrong}")
    red = sum(1 << i for i, ch in enumerate(cells) if ch == "R")
    return Position(board, red, cells.index("."), side)


def count_problem(board: Board, reds: int, blues: int, empty: int) -> str | None:
    """What is wrong with the numbers of red and blue tiles and empty cells of a position on ``board``
    (the page's position editor shows it as it is), or None when they are right.

    >>> count_problem(Board.get(5, 5), 13, 12, 0)
    '13 red tiles and no empty cell: a position has 12 of each colour and one empty cell'
    >>> count_problem(Board.get(5, 5), 12, 11, 2)
    '11 blue tiles and 2 empty cells: a position has 12 of each colour and one empty cell'
    >>> count_problem(Board.get(5, 5), 11, 11, 3)
    '11 red tiles, 11 blue tiles and 3 empty cells: a position has 12 of each colour and one empty cell'
    >>> count_problem(Board.get(5, 5), 12, 12, 1) is None
    True
    """
    each = board.red_count
    tiles = ((reds, "red"), (blues, "blue"))
    wrong = [f"{n} {colour} tile{'' if n == 1 else 's'}" for n, colour in tiles if n != each]
    if empty != 1:
        wrong.append("no empty cell" if empty == 0 else f"{empty} empty cells")
    if not wrong:
        return None
    listed = " and ".join([", ".join(wrong[:-1]), wrong[-1]] if len(wrong) > 2 else wrong)
    return f"{listed}: a position has {each} of each colour and one empty cell"


def check_start(start: Position) -> Position:
    """``start`` if a game can begin there: not with both colours united (a slide unites at most one
    colour and the game ends when it does, so no game reaches such a position).

    >>> check_start(parse_position("RRR/R.B/BBB r"))
    Traceback (most recent call last):
        ...
    unitile_py.errors.UnitileError: start 'RRR/R.B/BBB r': red and blue are both united; no game reaches that
    """
    if start.united(RED) and start.united(BLUE):
        raise UnitileError(f"start {quote(str(start))}: red and blue are both united; no game reaches that")
    return start


def format_position(position: Position) -> str:
    """The text of a position (inverse of :func:`parse_position`)."""
    return str(position)


def parse_move(position: Position, name: str) -> int:
    """The cell of a named slide, checked to be next to the bubble (the value rule is the game's)."""
    cell = position.board.cell(name)
    ban = position.slide_ban(cell)
    if ban is not None:
        raise UnitileError(f"move {quote(name)}: {position.board.name(cell)} is {why(ban)}")
    return cell


@dataclass
class Record:
    """A game record: headers, the start position, the moves (cells) and the result token."""

    start: Position
    moves: list[int] = field(default_factory=list)
    headers: dict[str, str] = field(default_factory=dict)
    result: str = "*"

    def positions(self) -> list[Position]:
        """The start and the position after each move."""
        out = [self.start]
        for cell in self.moves:
            out.append(out[-1].play(cell))
        return out


def _start(headers: dict[str, str]) -> Position:
    if "Position" in headers:
        start = parse_position(headers["Position"])
    else:
        start = Position.start(Board.parse(headers.get("Board", DEFAULT_BOARD)))
    if "Board" in headers and Board.parse(headers["Board"]) is not start.board:
        raise UnitileError(f"record: [Board {quote(headers['Board'])}] does not match the position")
    return check_start(start)


#: The board a record is on when it names none.
DEFAULT_BOARD = "5x5"


def start_headers(start: Position) -> dict[str, str]:
    """The headers a record needs to name its start: ``Board`` off 5x5, ``Position`` off the usual start.

    >>> start_headers(Position.start(Board.get(3, 3))), start_headers(Position.start(Board.get(5, 5)))
    ({'Board': '3x3'}, {})
    """
    if start != Position.start(start.board):
        return {"Position": str(start)}
    if str(start.board) != DEFAULT_BOARD:
        return {"Board": str(start.board)}
    return {}


def parse_record(text: str) -> Record:
    """A record from text: optional ``[Key "value"]`` lines, numbered moves, then the result.

    The moves start from ``[Position "..."]`` if given, else from the start of ``[Board "RxC"]``
    (default 5x5). Move numbers are optional; where given, ``N.`` stands before Red's move number N
    and ``N...`` before Blue's (the number goes up after each move of Blue). Every move is checked to
    be a slide (next to the bubble), and no move may follow the end of the game. The value rule is
    checked by :class:`unitile_py.unitile.game.Game` (``Game.from_record``).

    >>> r = parse_record('[Position "BRBRB/RBRBR/BR.BR/BRBRB/RBRBR b"]\\n1... c4 2. c3 *')
    >>> [r.start.board.name(c) for c in r.moves], format_record(r).splitlines()[-1]
    (['c4', 'c3'], '1... c4 2. c3 *')
    """
    parts = split_record(text)
    start = _start(parts.headers)
    if "Board" in parts.headers:  # written back as the board names itself: "003x003" is "3x3"
        parts.headers["Board"] = str(start.board)
    record = Record(start, [], parts.headers)
    position = start
    reader = MoveReader(parts.tokens)
    while (token := reader.next(position.turn)) is not None:
        ply = len(record.moves) + 1
        if position.winner() is not None:
            raise UnitileError(f"record: ply {ply}, {quote(token)}: comes after the game has ended")
        try:
            cell = position.board.cell(token)
        except GameError as exc:
            raise UnitileError(f"record: ply {ply}: {exc}") from None
        ban = position.slide_ban(cell)
        if ban is not None:
            raise UnitileError(f"record: ply {ply}, {position.board.name(cell)}: {why(ban)}")
        record.moves.append(cell)
        position = position.play(cell)
    record.result = check_result(reader.result, position.winner())
    return record


def format_record(record: Record) -> str:
    """The text of a record (inverse of :func:`parse_record`)."""
    turns = []
    position = record.start
    for cell in record.moves:
        turns.append((position.turn, position.board.name(cell)))
        position = position.play(cell)
    return "\n".join([*format_headers(record.headers), format_moves(turns, record.result)]) + "\n"
