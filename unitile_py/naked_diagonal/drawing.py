"""The text forms of the command line: a position drawn with its status line, and the positions it
takes (their board at most :data:`MAX_SIZE`, as the site's)."""

from __future__ import annotations

from ..colours import COLOUR_NAMES
from ..errors import NakedDiagonalError
from .game import Game
from .position import Position

#: The largest board the command line takes (the engine's grid goes to 26x26), as the site's: why this
#: size is in docs/naked-diagonal.md, "Requests in bounded time".
MAX_SIZE = 13
#: The help of a position argument.
POSITION_HELP = (
    'position text: rows north to south joined by "/", R B or . per point, then r or b (".../.../... r")'
)


def checked_size(position: Position) -> Position:
    """``position`` when its board is at most :data:`MAX_SIZE`; else one line saying why not."""
    n = position.grid.n
    if n > MAX_SIZE:
        largest = f"{MAX_SIZE}x{MAX_SIZE}"
        raise NakedDiagonalError(f"a {n}x{n} board is refused: the command line plays up to {largest}, "
                                 "as the site does")
    return position


def parse_position(text: str) -> Position:
    """:meth:`Position.parse` for the command line, its board at most :data:`MAX_SIZE`."""
    return checked_size(Position.parse(text))


def status_line(game: Game) -> str:
    """Who is to move, or who won and with which chain."""
    winner = game.winner()
    if winner is not None:
        return f"{COLOUR_NAMES[winner]} has won: {' '.join(game.grid.names(game.winner_chain()))}"
    return f"{COLOUR_NAMES[game.position.turn]} to move"


def draw(position: Position) -> str:
    """The board with rank numbers and file letters, then whose turn or who won."""
    game = Game(position)
    return f"{position.draw()}\n{status_line(game)}"


__all__ = ["MAX_SIZE", "POSITION_HELP", "checked_size", "draw", "parse_position", "status_line"]
