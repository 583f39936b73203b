"""The keys of Naked Diagonal's stored positions, shared by the tables and the strategy files.

A position's key is ``red | blue << P | turn << 2P`` (P the points of the board, turn 1 when Blue is to
move); its canonical key is the smallest key of its eight images under the symmetries of the board.

>>> key, symmetry = canonical(Position.parse("R../.../... b"))  # Blue's turn: a colour-exchanged image
>>> key >> 18, symmetry.swaps_edges, str(key_position(3, key))
(0, True, 'B../.../... r')
"""

from __future__ import annotations

from pathlib import Path

from ..colours import BLUE, RED
from ..table_io import tables_root
from .grid import Grid, Symmetry
from .position import Position


def default_root() -> Path:
    """``naked-diagonal/`` in the tables directory (``$UNITILE_TABLES`` if set, else the repository's)."""
    return tables_root() / "naked-diagonal"


def position_key(position: Position) -> int:
    """``red | blue << P | turn << 2P`` (turn 1: Blue to move), P the points on the board (as the
    tables' key)."""
    size = position.grid.size
    return position.red | position.blue << size | int(position.turn != RED) << (2 * size)


def canonical(position: Position) -> tuple[int, Symmetry]:
    """The smallest key of the position's eight images (:meth:`Position.transform`), and the first
    symmetry (in ``Grid.symmetries`` order) that gives it.

    A map that exchanges the edges
    also exchanges the side to move, so the smallest image always has Red to move: the key's turn bit
    is 0, and a position with Red to move and its colour-exchanged image with Blue to move share a key.
    A position of Blue's turn (one red stone more) has a canonical image with one blue stone more.
    """
    best_key, best_sym = -1, position.grid.symmetries[0]
    for s in position.grid.symmetries:
        key = position_key(position.transform(s))
        if best_key < 0 or key < best_key:
            best_key, best_sym = key, s
    return best_key, best_sym


def canonical_key(position: Position) -> int:
    """The position's canonical key (:func:`canonical`)."""
    return canonical(position)[0]


def key_position(n: int, key: int) -> Position:
    """The position of a key (unchecked for naked diagonals: the caller checks what it needs)."""
    size = n * n
    full = (1 << size) - 1
    turn = BLUE if key >> (2 * size) & 1 else RED
    return Position(Grid.get(n), key & full, key >> size & full, turn)


__all__ = ["canonical", "canonical_key", "default_root", "key_position", "position_key"]
