"""The rules: X moves first on a 3 x 3 grid of cells a1 (south-west) to c3; three in a row wins."""

from __future__ import annotations

from unitile_py.coords import parse_cell
from unitile_py.errors import GameError

LINES = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]


def winner(cells: str) -> str | None:
    """``"x"`` or ``"o"`` with three in a row, ``"draw"`` on a full grid, else None."""
    for a, b, c in LINES:
        if cells[a] != "." and cells[a] == cells[b] == cells[c]:
            return cells[a]
    return "draw" if "." not in cells else None


def play(moves: list[str]) -> str:
    """The cells, north row first (a3, b3, c3, a2, ...), after ``moves``; :class:`GameError` names a
    bad one."""
    cells = ["."] * 9
    for ply, move in enumerate(moves, start=1):
        if winner("".join(cells)):
            raise GameError(f"ply {ply}, {move}: the game is over")
        cell = parse_cell(move, 3, 3)
        if cells[cell] != ".":
            raise GameError(f"ply {ply}, {move}: the cell is taken")
        cells[cell] = "xo"[(ply - 1) % 2]
    return "".join(cells)


def draw(cells: str) -> str:
    """The grid as text, north row first."""
    return "\n".join(" ".join(cells[row * 3:row * 3 + 3]) for row in range(3))
