"""A dense index of positions and the symmetries of the board, fast enough for inner loops.

Positions of a board are numbered ``bubble * C(tiles, red) + rank`` where ``rank`` is the colex rank
of the red tiles: the tiles are read in reading order, skipping the bubble, and tile ``i`` is bit
``i`` of the *tile mask*. The colex rank of a mask with bits ``p1 < p2 < ... < pk`` set is
``C(p1, 1) + C(p2, 2) + ... + C(pk, k)``, which is the mask's place among all masks with ``k`` bits in
increasing numeric order. docs/tables.md relies on this numbering.

>>> from unitile_py.unitile.board import Board
>>> ix = Indexer.get(Board.get(3, 3))
>>> ix.rank(0b00001111), ix.rank(0b11110000)
(0, 69)
>>> ix.unrank(69) == 0b11110000
True
"""

from __future__ import annotations

from functools import cache
from math import comb

from .board import Board

_CHUNK = 8
_CHUNK_MASK = (1 << _CHUNK) - 1


def tiles_of(cells_mask: int, bubble: int) -> int:
    """Squeeze out the bubble's bit: a mask over cells becomes a mask over tiles."""
    low = cells_mask & ((1 << bubble) - 1)
    return low | ((cells_mask >> (bubble + 1)) << bubble)


def cells_of(tiles_mask: int, bubble: int) -> int:
    """Open a gap for the bubble: a mask over tiles becomes a mask over cells (bubble bit clear)."""
    low = tiles_mask & ((1 << bubble) - 1)
    return low | ((tiles_mask >> bubble) << (bubble + 1))


class Indexer:
    """Ranking, unranking and symmetry tables for one board; get one with :meth:`Indexer.get`."""

    def __init__(self, board: Board) -> None:
        self.board = board
        self.colourings = board.colourings
        tiles, k = board.tiles, board.red_count
        self._chunks = (tiles + _CHUNK - 1) // _CHUNK
        # _rank_table[chunk][seen][byte]: colex contribution of the byte's bits when `seen` set bits
        # come before the chunk.
        self._rank_table: list[list[list[int]]] = []
        for ch in range(self._chunks):
            per_seen = []
            for seen in range(k + 1):
                row = []
                for byte in range(256):
                    total, s = 0, seen
                    for bit in range(_CHUNK):
                        if byte >> bit & 1:
                            s += 1
                            total += comb(ch * _CHUNK + bit, s)
                    row.append(total)
                per_seen.append(row)
            self._rank_table.append(per_seen)
        self._popcount = [bin(b).count("1") for b in range(256)]
        cell_chunks = (board.cells + _CHUNK - 1) // _CHUNK
        # _perm_table[sym][chunk][byte]: the image of the byte's cells under symmetry `sym`.
        self._perm_table: list[list[list[int]]] = []
        for perm in board.symmetries:
            per_chunk = []
            for ch in range(cell_chunks):
                row = []
                for byte in range(256):
                    image = 0
                    for bit in range(_CHUNK):
                        cell = ch * _CHUNK + bit
                        if byte >> bit & 1 and cell < board.cells:
                            image |= 1 << perm[cell]
                    row.append(image)
                per_chunk.append(row)
            self._perm_table.append(per_chunk)

    @staticmethod
    @cache
    def get(board: Board) -> Indexer:
        """The shared indexer of a board (tables are built once)."""
        return Indexer(board)

    def rank(self, tiles_mask: int) -> int:
        """Colex rank of a tile mask with exactly ``red_count`` bits set."""
        total = seen = 0
        table, pop = self._rank_table, self._popcount
        for ch in range(self._chunks):
            byte = tiles_mask & _CHUNK_MASK
            if byte:
                total += table[ch][seen][byte]
                seen += pop[byte]
            tiles_mask >>= _CHUNK
        return total

    def unrank(self, rank: int) -> int:
        """The tile mask of a colex rank (inverse of :meth:`rank`)."""
        mask = 0
        p = self.board.tiles - 1
        for j in range(self.board.red_count, 0, -1):
            while comb(p, j) > rank:
                p -= 1
            mask |= 1 << p
            rank -= comb(p, j)
            p -= 1
        return mask

    def index(self, red_cells: int, bubble: int) -> int:
        """The index of the position with red tiles on ``red_cells`` and the bubble on ``bubble``."""
        return bubble * self.colourings + self.rank(tiles_of(red_cells, bubble))

    def decode(self, index: int) -> tuple[int, int]:
        """``(red_cells, bubble)`` of an index (inverse of :meth:`index`)."""
        bubble, rank = divmod(index, self.colourings)
        return cells_of(self.unrank(rank), bubble), bubble

    def permute(self, cells_mask: int, sym: int) -> int:
        """The image of a set of cells under symmetry number ``sym`` of ``board.symmetries``."""
        out = 0
        for row in self._perm_table[sym]:
            out |= row[cells_mask & _CHUNK_MASK]
            cells_mask >>= _CHUNK
        return out

    def canonical_index(self, red_cells: int, bubble: int, colour_swap: bool = True) -> int:
        """The smallest index among the images of a position under the board symmetries.

        With ``colour_swap`` the colour-swapped images count too (16 on a square board).
        """
        board = self.board
        best = -1
        blue_cells = board.full & ~red_cells & ~(1 << bubble)
        for sym, perm in enumerate(board.symmetries):
            b2 = perm[bubble]
            i = self.index(self.permute(red_cells, sym), b2)
            if best < 0 or i < best:
                best = i
            if colour_swap:
                i = self.index(self.permute(blue_cells, sym), b2)
                if i < best:
                    best = i
        return best
