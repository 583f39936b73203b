"""The N x N board of Naked Diagonal: points, neighbours, bit masks and the eight square symmetries.

Points are numbered in reading order (row 0 is the north edge, column 0 the west edge) and named as
in Unitile (``a1`` is the south-west corner). A set of points is an ``int`` bit mask, bit ``p`` for
point ``p``. Red owns the north and south edges, Blue the west and east edges.

>>> g = Grid.get(3)
>>> g.name(0), g.name(8), g.point("b2")
('a3', 'c1', 4)
>>> [g.name(q) for q in g.orth[4]]
['b3', 'a2', 'c2', 'b1']
>>> [(g.name(q), g.name(s), g.name(t)) for q, s, t in g.diag[0]]
[('b2', 'a2', 'b3')]
>>> g.points(g.components(0b101101101)[0]), len(g.components(0b101101101))
((0, 3, 6), 2)
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import cache

from ..coords import MAX_FILES, cell_name, parse_cell
from ..errors import NakedDiagonalError

#: Diagonal directions (row step, column step).
DIAGONALS = ((-1, -1), (-1, 1), (1, -1), (1, 1))


@dataclass(frozen=True, slots=True)
class Symmetry:
    """One of the eight symmetries of the square: ``image[p]`` is where point ``p`` goes.

    ``swaps_edges`` is true for the four maps that exchange rows and columns (the transposes and the
    quarter turns): they carry Red's edges onto Blue's, so a position stays equivalent only when the
    colours (and the side to move) are exchanged too.
    """

    name: str
    image: tuple[int, ...]
    swaps_edges: bool

    def apply(self, mask: int) -> int:
        """The image of a set of points."""
        out = 0
        image = self.image
        while mask:
            low = mask & -mask
            out |= 1 << image[low.bit_length() - 1]
            mask ^= low
        return out


class Grid:
    """An N x N board (``Grid.get(n)`` shares one instance per size)."""

    __slots__ = (
        "_boxes",
        "blocks",
        "diag",
        "diag_bits",
        "east",
        "full",
        "n",
        "north",
        "not_east",
        "not_west",
        "orth",
        "size",
        "south",
        "symmetries",
        "west",
    )

    def __init__(self, n: int) -> None:
        if not 1 <= n <= MAX_FILES:
            raise NakedDiagonalError(f"board size {n}: expected 1 to {MAX_FILES}")
        self.n = n
        self.size = n * n
        self.full = (1 << self.size) - 1
        row = (1 << n) - 1
        self.north = row
        self.south = row << (n * (n - 1))
        self.west = sum(1 << (r * n) for r in range(n))
        self.east = self.west << (n - 1)
        self.not_west = self.full & ~self.west
        self.not_east = self.full & ~self.east
        orth: list[tuple[int, ...]] = []
        diag: list[tuple[tuple[int, int, int], ...]] = []
        for p in range(self.size):
            r, c = divmod(p, n)
            orth.append(tuple(self._at(r + dr, c + dc) for dr, dc in ((-1, 0), (0, -1), (0, 1), (1, 0))
                              if self._inside(r + dr, c + dc)))
            diag.append(tuple((self._at(r + dr, c + dc), self._at(r + dr, c), self._at(r, c + dc))
                              for dr, dc in DIAGONALS if self._inside(r + dr, c + dc)))
        self.orth = tuple(orth)
        #: For each point, its diagonal neighbours ``q`` with the two points ``s, t`` next to both.
        self.diag = tuple(diag)
        #: The same as bit masks: ``(1 << q, (1 << s) | (1 << t))``.
        self.diag_bits = tuple(tuple((1 << q, (1 << s) | (1 << t)) for q, s, t in d) for d in diag)
        #: The 2x2 blocks, each as its points (top-left, top-right, bottom-left, bottom-right).
        self.blocks = tuple((r * n + c, r * n + c + 1, (r + 1) * n + c, (r + 1) * n + c + 1)
                            for r in range(n - 1) for c in range(n - 1))
        self.symmetries = self._symmetries()
        self._boxes: dict[tuple[int, int], int] = {}

    def _inside(self, r: int, c: int) -> bool:
        return 0 <= r < self.n and 0 <= c < self.n

    def _at(self, r: int, c: int) -> int:
        return r * self.n + c

    def _symmetries(self) -> tuple[Symmetry, ...]:
        m = self.n - 1
        maps: tuple[tuple[str, bool, Callable[[int, int], tuple[int, int]]], ...] = (
            ("identity", False, lambda r, c: (r, c)),
            ("rotate 90", True, lambda r, c: (c, m - r)),
            ("rotate 180", False, lambda r, c: (m - r, m - c)),
            ("rotate 270", True, lambda r, c: (m - c, r)),
            ("mirror north-south", False, lambda r, c: (m - r, c)),
            ("mirror west-east", False, lambda r, c: (r, m - c)),
            ("transpose", True, lambda r, c: (c, r)),
            ("anti-transpose", True, lambda r, c: (m - c, m - r)),
        )
        out = []
        for name, swaps, f in maps:
            image = tuple(self._at(*f(*divmod(p, self.n))) for p in range(self.size))
            out.append(Symmetry(name, image, swaps))
        return tuple(out)

    @staticmethod
    @cache
    def get(n: int) -> Grid:
        """The shared grid of size ``n``."""
        return Grid(n)

    def __repr__(self) -> str:
        return f"Grid({self.n})"

    def name(self, p: int) -> str:
        """The name of point ``p`` (``a1`` is the south-west corner)."""
        return cell_name(p, self.n, self.n)

    def point(self, name: str, what: str = "point") -> int:
        """The point called ``name``; :class:`NakedDiagonalError` for anything else."""
        return parse_cell(name, self.n, self.n, what)

    @staticmethod
    def points(mask: int) -> tuple[int, ...]:
        """The points of a mask in increasing order."""
        out = []
        while mask:
            low = mask & -mask
            out.append(low.bit_length() - 1)
            mask ^= low
        return tuple(out)

    @staticmethod
    def bits(mask: int) -> Iterator[int]:
        """The points of a mask in increasing order, lazily."""
        while mask:
            low = mask & -mask
            yield low.bit_length() - 1
            mask ^= low

    def names(self, mask: int) -> tuple[str, ...]:
        """The names of the points of a mask, in reading order."""
        return tuple(self.name(p) for p in self.bits(mask))

    def dilate4(self, mask: int) -> int:
        """The mask with its orthogonal neighbours added."""
        n = self.n
        return (mask | (mask << n) | (mask >> n) | ((mask & self.not_east) << 1)
                | ((mask & self.not_west) >> 1)) & self.full

    def dilate8(self, mask: int) -> int:
        """The mask with all eight neighbours of its points added."""
        wide = mask | ((mask & self.not_east) << 1) | ((mask & self.not_west) >> 1)
        return (wide | (wide << self.n) | (wide >> self.n)) & self.full

    def shift(self, mask: int, dr: int, dc: int) -> int:
        """The points ``p`` whose neighbour ``p + (dr, dc)`` (one step at most each way) is in ``mask``."""
        n = self.n
        if dc == 1:
            mask = (mask & self.not_west) >> 1
        elif dc == -1:
            mask = (mask & self.not_east) << 1
        if dr == 1:
            mask >>= n
        elif dr == -1:
            mask = (mask << n) & self.full
        return mask

    def box(self, p: int, radius: int) -> int:
        """The points within ``radius`` rows and columns of ``p`` (a square window, cut by the edges)."""
        key = (p, radius)
        mask = self._boxes.get(key)
        if mask is None:
            n = self.n
            r, c = divmod(p, n)
            mask = 0
            for rr in range(max(0, r - radius), min(n, r + radius + 1)):
                for cc in range(max(0, c - radius), min(n, c + radius + 1)):
                    mask |= 1 << (rr * n + cc)
            self._boxes[key] = mask
        return mask

    def distance(self, p: int, q: int) -> int:
        """The king-move distance between two points (the radius of the smallest box around ``p``
        that holds ``q``)."""
        (r1, c1), (r2, c2) = divmod(p, self.n), divmod(q, self.n)
        return max(abs(r1 - r2), abs(c1 - c2))

    def grow(self, seed: int, within: int) -> int:
        """The points of ``within`` orthogonally connected (inside ``within``) to the points of ``seed``."""
        group = seed & within
        while True:
            bigger = self.dilate4(group) & within
            if bigger == group:
                return group
            group = bigger

    def components(self, mask: int) -> list[int]:
        """The maximal orthogonally connected parts of a mask, by lowest point."""
        out = []
        while mask:
            part = self.grow(mask & -mask, mask)
            out.append(part)
            mask &= ~part
        return out
