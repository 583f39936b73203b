"""The board-level rules: naked diagonals and wins.

Colours are ``"r"`` (Red, north and south edges) and ``"b"`` (Blue, west and east edges). The functions
here take a :class:`Grid` and the stones of one colour (``own``) or both (``red``, ``blue``) as masks.

>>> g = Grid.get(3)
>>> own = 1 << g.point("a3")
>>> forms(g, own, g.point("b2")), forms(g, own | 1 << g.point("b3"), g.point("b2"))
(0, None)
>>> forms(g, own, g.point("b2"), clothes=own | 1 << g.point("a2")) is None  # a joker on a2 clothes it
True
>>> g.names(forming(g, own, g.full & ~own))
('b2',)
>>> winner(g, 0b010010010, 0)
'r'
"""

from __future__ import annotations

from ..colours import BLUE, RED
from .grid import Grid


def forms(grid: Grid, own: int, p: int, clothes: int | None = None) -> int | None:
    """The diagonal neighbour with which a stone of colour ``own`` on ``p`` would form a naked diagonal.

    ``own`` is the mask of that colour's stones; ``None`` when the placement forms none (the first such
    neighbour in reading order otherwise). ``clothes`` (``own`` when not given) are the points that
    clothe a diagonal: a relaxation passes ``own`` plus the points it treats as either colour. (The
    exhaustive search of :mod:`areas`, :func:`witness.replay` and the playouts of :mod:`search` write
    this test out inline: they are the innermost loops of the engine and of the players.)
    """
    cover = own if clothes is None else clothes
    for qbit, shared in grid.diag_bits[p]:
        if own & qbit and not cover & shared:
            return qbit.bit_length() - 1
    return None


def forming(grid: Grid, own: int, where: int, clothes: int | None = None) -> int:
    """The points of ``where`` where a stone of the colour whose stones are ``own`` forms a naked diagonal.

    ``clothes`` (``own`` when not given) are the points that clothe a diagonal: a relaxation passes
    ``own`` plus the points it treats as either colour.
    """
    return _diagonal_between(grid, own, grid.full & ~(own if clothes is None else clothes), where)


def dead(grid: Grid, own: int, enemy: int, where: int) -> int:
    """The points of ``where`` where a stone of colour ``own`` forms a naked diagonal whatever comes later.

    That is a diagonal neighbour holding ``own`` whose two shared points both hold ``enemy`` stones.
    """
    return _diagonal_between(grid, own, enemy, where)


def _diagonal_between(grid: Grid, own: int, shared: int, where: int) -> int:
    """The points of ``where`` with a diagonal neighbour in ``own`` whose two shared points are both in
    ``shared`` (both lie on the board whenever the neighbour does).

    That is ``grid.shift(own, dr, dc) & grid.shift(shared, dr, 0) & grid.shift(shared, 0, dc)`` over
    the four diagonals, with the shifts shared.
    """
    n = grid.n
    own_e, own_w = (own & grid.not_west) >> 1, (own & grid.not_east) << 1
    shared_e, shared_w = (shared & grid.not_west) >> 1, (shared & grid.not_east) << 1
    north = (own_e >> n & shared_e | own_w >> n & shared_w) & shared >> n
    south = ((own_e << n) & shared_e | (own_w << n) & shared_w) & (shared << n)
    return (north | south) & where


def naked_diagonals(grid: Grid, red: int, blue: int) -> list[tuple[int, int, str]]:
    """Every naked diagonal on a board: ``(p, q, colour)`` with ``p < q``, in reading order."""
    out = []
    for colour, own in ((RED, red), (BLUE, blue)):
        for p in grid.bits(own):
            for qbit, shared in grid.diag_bits[p]:
                q = qbit.bit_length() - 1
                if q > p and own & qbit and not own & shared:
                    out.append((p, q, colour))
    out.sort()
    return out


def _edges(grid: Grid, colour: str) -> tuple[int, int]:
    return (grid.north, grid.south) if colour == RED else (grid.west, grid.east)


def chain(grid: Grid, own: int, colour: str) -> int:
    """The stones of ``own`` that lie on an orthogonal chain between the two edges of ``colour`` (0 if none).

    These are the groups of ``own`` touching both edges.
    """
    first, second = _edges(grid, colour)
    out = 0
    start = own & first
    while start:
        group = grid.grow(start & -start, own)
        if group & second:
            out |= group
        start &= ~group
    return out


def winner(grid: Grid, red: int, blue: int) -> str | None:
    """``"r"`` or ``"b"`` for the colour whose stones join its two edges, else ``None``.

    Both cannot at once: an orthogonal chain from north to south and one from west to east must share
    a point.
    """
    if chain(grid, red, RED):
        return RED
    if chain(grid, blue, BLUE):
        return BLUE
    return None


def winning_points(grid: Grid, own: int, colour: str, where: int) -> int:
    """The points of ``where`` (empty) on which a stone of ``colour`` (stones ``own``) joins its edges.

    Two flood fills for all of them: a stone joins the edges when it touches, or lies on, each edge or
    a group of ``own`` that reaches that edge.
    """
    first, second = (grid.north, grid.south) if colour == RED else (grid.west, grid.east)
    if own.bit_count() + 1 < grid.n:
        return 0  # a chain between the edges has at least n stones
    near_first = grid.dilate4(grid.grow(own & first, own)) | first
    near_second = grid.dilate4(grid.grow(own & second, own)) | second
    return where & near_first & near_second
