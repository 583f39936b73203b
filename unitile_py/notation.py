"""Text formats: positions, move names and game records (see docs/notation.md).

>>> p = parse_position("BRB/R.B/RBR r")
>>> p.board.rows, p.board.cols, p.board.name(p.bubble)
(3, 3, 'b2')
>>> format_position(p)
'BRB/R.B/RBR r'
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from .board import Board
from .errors import UnitileError
from .position import BLUE, RED, Position

RESULTS = {"1-0": RED, "0-1": BLUE, "*": None}


def parse_position(text: str) -> Position:
    """A position from ``ROWS/ROWS/... SIDE``, such as ``BRBRB/RBRBR/BR.BR/BRBRB/RBRBR r``."""
    parts = text.split()
    if len(parts) != 2:
        raise UnitileError(f"position {text.strip()!r}: expected the rows, a space and the side to move")
    rows_text, side = parts
    if side not in ("r", "b"):
        raise UnitileError(f"position {text.strip()!r}: side to move {side!r} must be 'r' or 'b'")
    rows = rows_text.split("/")
    cols = len(rows[0])
    for i, row in enumerate(rows):
        if len(row) != cols:
            raise UnitileError(f"position {rows_text!r}: row {i + 1} has {len(row)} cells, row 1 has {cols}")
        bad = set(row) - set("RB.")
        if bad:
            raise UnitileError(
                f"position {rows_text!r}: row {i + 1} has {sorted(bad)[0]!r}; cells are R, B or ."
            )
    board = Board.get(len(rows), cols)
    cells = "".join(rows)
    bubbles = cells.count(".")
    if bubbles != 1:
        raise UnitileError(f"position {rows_text!r}: expected one bubble '.', found {bubbles}")
    reds, blues = cells.count("R"), cells.count("B")
    if reds != blues:
        raise UnitileError(
            f"position {rows_text!r}: {reds} red and {blues} blue tiles; each colour needs {board.red_count}"
        )
    red = sum(1 << i for i, ch in enumerate(cells) if ch == "R")
    return Position(board, red, cells.index("."), side)


def format_position(position: Position) -> str:
    """The text of a position (inverse of :func:`parse_position`)."""
    board = position.board
    chars = []
    for cell in range(board.cells):
        colour = position.colour_at(cell)
        chars.append("." if colour is None else colour.upper())
    rows = ["".join(chars[r * board.cols : (r + 1) * board.cols]) for r in range(board.rows)]
    return "/".join(rows) + " " + position.turn


def parse_move(position: Position, name: str) -> int:
    """The cell of a named slide, checked to be next to the bubble."""
    cell = position.board.cell(name)
    if cell not in position.slides():
        raise UnitileError(f"move {name!r}: {name.strip()} is not next to the bubble")
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


_HEADER = re.compile(r'^\[(\w+)\s+"((?:[^"\\]|\\.)*)"\]$')
_MOVE_NUMBER = re.compile(r"^(\d+)\.(\.\.)?$")


def parse_record(text: str) -> Record:
    """A record from text: optional ``[Key "value"]`` lines, numbered moves, then the result.

    The moves start from ``[Position "..."]`` if given, else from the start of ``[Board "RxC"]``
    (default 5x5). Every move is checked to be a slide; a move after the game has ended is an error.
    """
    headers: dict[str, str] = {}
    body: list[str] = []
    for lineno, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line:
            continue
        if line.startswith("["):
            if body:
                raise UnitileError(f"record line {lineno}: header after the moves")
            m = _HEADER.match(line)
            if not m:
                raise UnitileError(f'record line {lineno}: expected [Key "value"], got {line!r}')
            headers[m.group(1)] = re.sub(r"\\(.)", r"\1", m.group(2))
        else:
            body.append(line)
    if "Position" in headers:
        start = parse_position(headers["Position"])
    else:
        start = Position.start(Board.parse(headers.get("Board", "5x5")))
    if "Board" in headers and Board.parse(headers["Board"]) is not start.board:
        raise UnitileError(f'record: [Board "{headers["Board"]}"] does not match the position')
    record = Record(start, [], headers)
    position = start
    tokens = " ".join(body).split()
    expected_number = 1
    for t, token in enumerate(tokens):
        if token in RESULTS:
            if t != len(tokens) - 1:
                raise UnitileError(f"record: result {token!r} is not the last token")
            record.result = token
            break
        number = _MOVE_NUMBER.match(token)
        if number:
            if int(number.group(1)) != expected_number:
                raise UnitileError(f"record: move number {token!r} where {expected_number}. was expected")
            continue
        ply = len(record.moves) + 1
        if position.winner() is not None:
            raise UnitileError(f"record: move {token!r} (ply {ply}) comes after the game has ended")
        try:
            cell = parse_move(position, token)
        except UnitileError as exc:
            raise UnitileError(f"record: ply {ply}: {exc}") from None
        record.moves.append(cell)
        position = position.play(cell)
        if position.turn == start.turn:
            expected_number += 1
    winner = position.winner()
    actual = "1-0" if winner == RED else "0-1" if winner == BLUE else "*"
    if record.result != "*" and record.result != actual:
        raise UnitileError(f"record: result {record.result} but the moves give {actual}")
    record.result = actual if winner else record.result
    return record


def _escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"')


def format_record(record: Record) -> str:
    """The text of a record (inverse of :func:`parse_record`)."""
    lines = [f'[{key} "{_escape(value)}"]' for key, value in record.headers.items()]
    words: list[str] = []
    position = record.start
    number = 1
    for i, cell in enumerate(record.moves):
        if position.turn == record.start.turn:
            words.append(f"{number}.")
        elif i == 0:
            words.append(f"{number}...")
        words.append(position.board.name(cell))
        position = position.play(cell)
        if position.turn == record.start.turn:
            number += 1
    words.append(record.result)
    lines.append(" ".join(words))
    return "\n".join(lines) + "\n"
