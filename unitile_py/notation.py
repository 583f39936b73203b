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
from .coords import quote
from .errors import UnitileError
from .position import BLUE, RED, Position

RESULTS = {"1-0": RED, "0-1": BLUE, "*": None}


def parse_position(text: str) -> Position:
    """A position from ``ROWS/ROWS/... SIDE``, such as ``BRBRB/RBRBR/BR.BR/BRBRB/RBRBR r``."""
    parts = text.split()
    if len(parts) != 2:
        raise UnitileError(f"position {quote(text.strip())}: expected the rows, a space and the side to move")
    rows_text, side = parts
    if side not in ("r", "b"):
        raise UnitileError(f"position {quote(text.strip())}: side to move {quote(side)} must be 'r' or 'b'")
    rows = rows_text.split("/")
    cols = len(rows[0])
    for i, row in enumerate(rows):
        if len(row) != cols:
            raise UnitileError(
                f"position {quote(rows_text)}: row {i + 1} has {len(row)} cells, row 1 has {cols}"
            )
        bad = set(row) - set("RB.")
        if bad:
            raise UnitileError(
                f"position {quote(rows_text)}: row {i + 1} has {sorted(bad)[0]!r}; cells are R, B or ."
            )
    board = Board.get(len(rows), cols)
    cells = "".join(rows)
    bubbles = cells.count(".")
    if bubbles != 1:
        raise UnitileError(f"position {quote(rows_text)}: expected one bubble '.', found {bubbles}")
    reds, blues = cells.count("R"), cells.count("B")
    if reds != blues:
        raise UnitileError(
            f"position {quote(rows_text)}: {reds} red and {blues} blue tiles; "
            f"each colour needs {board.red_count}"
        )
    red = sum(1 << i for i, ch in enumerate(cells) if ch == "R")
    return Position(board, red, cells.index("."), side)


def format_position(position: Position) -> str:
    """The text of a position (inverse of :func:`parse_position`)."""
    return str(position)


def parse_move(position: Position, name: str) -> int:
    """The cell of a named slide, checked to be next to the bubble (the value rule is the game's)."""
    cell = position.board.cell(name)
    if cell not in position.slides():
        raise UnitileError(f"move {quote(name)}: {position.board.name(cell)} is not next to the bubble")
    return cell


def result_token(winner: str | None) -> str:
    """The result of a game as a record writes it: ``1-0`` Red won, ``0-1`` Blue won, ``*`` going on.

    >>> result_token("r"), result_token("b"), result_token(None)
    ('1-0', '0-1', '*')
    """
    return "1-0" if winner == RED else "0-1" if winner == BLUE else "*"


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


_HEADER = re.compile(r'^\[(\w+)\s+"((?:[^"\\]|\\.)*)"\]$', re.ASCII)
_MOVE_NUMBER = re.compile(r"^(\d+)\.(\.\.)?$", re.ASCII)
#: The escapes of header values: backslash, quote, and the line breaks that would split the line.
_ESCAPES = {"\\": "\\\\", '"': '\\"', "\n": "\\n", "\r": "\\r"}
_UNESCAPES = {"\\": "\\", '"': '"', "n": "\n", "r": "\r"}
#: Longest record text accepted (a game on 5x5 lasts a few dozen plies; the site reads pasted text).
MAX_RECORD = 100_000
#: Longest move number accepted (a game never has this many moves; int() of a huge number is slow).
MAX_NUMBER_DIGITS = 6


def _unescape(value: str) -> str:
    return re.sub(r"\\(.)", lambda m: _UNESCAPES.get(m.group(1), m.group(1)), value)


def _escape(value: str) -> str:
    return "".join(_ESCAPES.get(ch, ch) for ch in value)


def _headers(lines: list[tuple[int, str]]) -> dict[str, str]:
    headers: dict[str, str] = {}
    for lineno, line in lines:
        m = _HEADER.match(line)
        if not m:
            raise UnitileError(f'record line {lineno}: expected [Key "value"], got {quote(line)}')
        headers[m.group(1)] = _unescape(m.group(2))
    return headers


def _start(headers: dict[str, str]) -> Position:
    if "Position" in headers:
        start = parse_position(headers["Position"])
    else:
        start = Position.start(Board.parse(headers.get("Board", DEFAULT_BOARD)))
    if "Board" in headers and Board.parse(headers["Board"]) is not start.board:
        raise UnitileError(f"record: [Board {quote(headers['Board'])}] does not match the position")
    return start


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
    checked by :class:`unitile_py.game.Game` (``Game.from_record``).

    >>> r = parse_record('[Position "BRBRB/RBRBR/BR.BR/BRBRB/RBRBR b"]\\n1... c4 2. c3 *')
    >>> [r.start.board.name(c) for c in r.moves], format_record(r).splitlines()[-1]
    (['c4', 'c3'], '1... c4 2. c3 *')
    """
    if len(text) > MAX_RECORD:
        raise UnitileError(f"record: too long (more than {MAX_RECORD:,} characters)")
    header_lines: list[tuple[int, str]] = []
    body: list[str] = []
    for lineno, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line:
            continue
        if line.startswith("["):
            if body:
                raise UnitileError(f"record line {lineno}: header after the moves")
            header_lines.append((lineno, line))
        else:
            body.append(line)
    headers = _headers(header_lines)
    start = _start(headers)
    record = Record(start, [], headers)
    position = start
    tokens = " ".join(body).split()
    number = 1  # the number of the next move: it goes up after each move of Blue
    numbered = False  # a move number stands right before the next move
    for t, token in enumerate(tokens):
        if token in RESULTS:
            if t != len(tokens) - 1:
                raise UnitileError(f"record: result {quote(token)} is not the last token")
            if numbered:
                raise UnitileError(f"record: move number {quote(tokens[t - 1])} is followed by no move")
            record.result = token
            break
        m = _MOVE_NUMBER.match(token)
        if m:
            _check_number(token, m, number, position.turn, numbered)
            numbered = True
            continue
        numbered = False
        ply = len(record.moves) + 1
        if position.winner() is not None:
            raise UnitileError(f"record: ply {ply}, {quote(token)}: comes after the game has ended")
        try:
            cell = position.board.cell(token)
        except UnitileError as exc:
            raise UnitileError(f"record: ply {ply}: {exc}") from None
        if cell not in position.slides():
            raise UnitileError(f"record: ply {ply}, {position.board.name(cell)}: not next to the bubble")
        record.moves.append(cell)
        if position.turn == BLUE:
            number += 1
        position = position.play(cell)
    if numbered:
        raise UnitileError(f"record: move number {quote(tokens[-1])} is followed by no move")
    actual = result_token(position.winner())
    if record.result != "*" and record.result != actual:
        raise UnitileError(f"record: result {record.result} but the moves give {actual}")
    record.result = actual
    return record


def _check_number(token: str, m: re.Match[str], number: int, turn: str, numbered: bool) -> None:
    """A move number must be the next move's, with ``...`` exactly when Blue makes that move."""
    if numbered:
        raise UnitileError(f"record: move number {quote(token)} follows another move number")
    digits, dots = m.group(1), m.group(2) is not None
    if len(digits) > MAX_NUMBER_DIGITS or int(digits) != number:
        want = f"{number}..." if turn == BLUE else f"{number}."
        raise UnitileError(f"record: move number {quote(token)} where {want} was expected")
    if dots != (turn == BLUE):
        want = f"{number}..." if turn == BLUE else f"{number}."
        side = "Blue" if turn == BLUE else "Red"
        raise UnitileError(f"record: move number {quote(token)} before a move of {side}: write {want}")


def format_record(record: Record) -> str:
    """The text of a record (inverse of :func:`parse_record`)."""
    lines = []
    for key, value in record.headers.items():
        if not re.fullmatch(r"\w+", key, re.ASCII):
            raise UnitileError(f"record: header name {quote(key)} must be letters, digits or _")
        lines.append(f'[{key} "{_escape(value)}"]')
    words: list[str] = []
    position = record.start
    number = 1
    for i, cell in enumerate(record.moves):
        if position.turn == RED:
            words.append(f"{number}.")
        elif i == 0:
            words.append(f"{number}...")
        words.append(position.board.name(cell))
        if position.turn == BLUE:
            number += 1
        position = position.play(cell)
    words.append(record.result)
    lines.append(" ".join(words))
    return "\n".join(lines) + "\n"
