"""Naked Diagonal records as text: the headers, the turns and how they are written.

A record has the shared form of :mod:`unitile_py.records`: ``[Game "Naked Diagonal"]``, ``[Board "NxN"]``
(and ``[Position "..."]`` for another start than the empty board), then the turns, Red first, numbered
as in Unitile, then the result. A turn is a point name, or ``skip`` where that player has no legal
placement: a skip is written out, and only where it is forced. Reading a record checks every turn
(:func:`unitile_py.naked_diagonal.game.parse_record`).

>>> g = Grid.get(9)
>>> move_name(g, g.point("e5")), move_name(g, SKIP), parse_size("13x13")
('e5', 'skip', 13)
>>> start_headers(Position.empty(5))
{'Game': 'Naked Diagonal', 'Board': '5x5'}
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..coords import is_ascii_number, quote
from ..errors import NakedDiagonalError
from ..records import format_headers, format_moves
from .grid import Grid
from .position import Position

#: The ``Game`` header of every Naked Diagonal record.
GAME = "Naked Diagonal"
#: A skipped turn, in a list of moves.
SKIP = -1
#: A skipped turn, in a record.
SKIP_WORD = "skip"
#: The board a record is on when it names neither a board nor a position.
DEFAULT_SIZE = 9


def move_name(grid: Grid, move: int) -> str:
    """The record's word for a turn: a point name, or ``skip``."""
    return SKIP_WORD if move == SKIP else grid.name(move)


def parse_size(text: str) -> int:
    """The side of a board named ``NxN`` (or just ``N``), such as ``9x9``."""
    parts = text.strip().lower().split("x")
    if len(parts) > 2 or len(set(parts)) != 1 or not all(is_ascii_number(p) and len(p) <= 3 for p in parts):
        raise NakedDiagonalError(f"board {quote(text)}: expected NxN such as 9x9")
    n = int(parts[0])
    Grid.get(n)  # the grid says which sizes it has
    return n


@dataclass
class NDRecord:
    """A record: the start, the turns (points and :data:`SKIP`), every position, headers and result."""

    start: Position
    moves: list[int] = field(default_factory=list)
    positions: list[Position] = field(default_factory=list)
    headers: dict[str, str] = field(default_factory=dict)
    result: str = "*"


def start_headers(start: Position) -> dict[str, str]:
    """The headers a record needs: the game's name, the board, and the start if it is not empty."""
    headers = {"Game": GAME, "Board": f"{start.grid.n}x{start.grid.n}"}
    if start != Position.empty(start.grid.n):
        headers["Position"] = str(start)
    return headers


def start_of(headers: dict[str, str]) -> Position:
    """The start a record's headers name: ``Position``, else the empty ``Board`` (default 9x9)."""
    game = headers.get("Game", GAME)
    if game != GAME:
        raise NakedDiagonalError(f"record: [Game {quote(game)}] is not {GAME}")
    if "Position" in headers:
        start = Position.parse(headers["Position"])
        if "Board" in headers and parse_size(headers["Board"]) != start.grid.n:
            raise NakedDiagonalError(f"record: [Board {quote(headers['Board'])}] does not match the position")
        return start
    return Position.empty(parse_size(headers.get("Board", f"{DEFAULT_SIZE}x{DEFAULT_SIZE}")))


def format_record(record: NDRecord) -> str:
    """The text of a record (inverse of :func:`parse_record`)."""
    grid = record.start.grid
    turns = [(record.positions[i].turn, move_name(grid, m)) for i, m in enumerate(record.moves)]
    return "\n".join([*format_headers(record.headers), format_moves(turns, record.result)]) + "\n"


__all__ = [
    "DEFAULT_SIZE",
    "GAME",
    "SKIP",
    "SKIP_WORD",
    "NDRecord",
    "format_record",
    "move_name",
    "parse_size",
    "start_headers",
    "start_of",
]
