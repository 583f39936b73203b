"""Constructive fillings of an empty region: lattice orders with greedy colours and clothing points first.

A *lattice order* places the points whose (row, column) parities relative to an offset are (0, 0),
then (0, 1), (1, 0) and (1, 1). Two points of one phase never share a 2x2 block, so the order inside a
phase is free, and in an open region one colour everywhere is clean: every block's first two
placements are orthogonal neighbours. Near stones each point takes the preferred colour when that
forms no naked diagonal, else the other; a point where both would form one is *stuck*, and the
shared points that would clothe it are then placed first, in the colour it needs.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from .grid import Grid
from .rules import forming
from .witness import Witness

#: Offsets (row, column parity) of the four lattice orders.
LATTICE_OFFSETS = ((0, 0), (1, 1), (0, 1), (1, 0))
#: How many rounds of clothing points a construction may move to the front before it gives up.
PROMOTIONS = 8


_PHASES: dict[tuple[int, tuple[int, int]], tuple[int, int, int, int]] = {}


def _phases(grid: Grid, offset: tuple[int, int]) -> tuple[int, int, int, int]:
    """The masks of a lattice order's four phases (see :func:`lattice`)."""
    key = (grid.n, offset)
    masks = _PHASES.get(key)
    if masks is None:
        n = grid.n
        r0, c0 = offset
        found = [0, 0, 0, 0]
        for p in range(grid.size):
            r, c = divmod(p, n)
            found[((r - r0) & 1) * 2 + ((c - c0) & 1)] |= 1 << p
        masks = _PHASES[key] = (found[0], found[1], found[2], found[3])
    return masks


@dataclass(frozen=True, slots=True)
class Stuck:
    """Where a lattice construction got stuck: the point and the stones placed by then."""

    point: int
    red: int
    blue: int


def lattice(grid: Grid, red: int, blue: int, area: int, offset: tuple[int, int], prefer_red: bool,
            jokers: int = 0, first: tuple[tuple[int, bool], ...] = ()) -> Witness | Stuck:
    """A lattice-order filling of ``area``, or where the greedy colour choice got stuck.

    The points of ``first`` come first, in that order and with the given colours (``True`` for red);
    then phase ``k`` holds the points whose (row, column) parities relative to ``offset`` are (0, 0),
    (0, 1), (1, 0), (1, 1) for k = 0..3, each taking the preferred colour if that forms no naked
    diagonal, else the other. Two points of one phase never share a 2x2 block, so the order inside a
    phase does not matter.
    """
    diag_bits = grid.diag_bits
    order: list[int] = []
    wred = 0
    skip = 0
    for p, want_red in first:
        bit = 1 << p
        skip |= bit
        own = red if want_red else blue
        clothes = own | jokers
        for qbit, shared in diag_bits[p]:
            if own & qbit and not clothes & shared:
                return Stuck(p, red, blue)
        if want_red:
            red |= bit
            wred |= bit
        else:
            blue |= bit
        order.append(p)
    rest = area & ~skip
    for phase in _phases(grid, offset):
        points = rest & phase
        if not points:
            continue
        # Points of one phase share no 2x2 block, so each one's test ignores the others: the whole
        # phase is tested at once, the preferred colour first.
        own, alt = (red, blue) if prefer_red else (blue, red)
        refused = forming(grid, own, points, own | jokers)
        stuck = forming(grid, alt, refused, alt | jokers)
        to_red, to_blue = (points & ~refused, refused) if prefer_red else (refused, points & ~refused)
        if stuck:
            low = stuck & -stuck
            before = low - 1
            return Stuck(low.bit_length() - 1, red | to_red & before, blue | to_blue & before)
        red |= to_red
        blue |= to_blue
        wred |= to_red
        order.extend(grid.bits(points))
    return Witness(tuple(order), wred)


def _clothing(grid: Grid, stuck: Stuck, area: int, jokers: int, taken: int,
            colours: tuple[bool, ...]) -> list[tuple[int, bool]] | None:
    """Placements to put first so that the stuck point can take a colour: for every diagonal that
    blocks it, one of the two shared points in that colour. ``None`` when no colour can be helped."""
    for want_red in colours:
        own = stuck.red if want_red else stuck.blue
        clothes = own | jokers
        fix: list[tuple[int, bool]] = []
        used = taken
        for qbit, shared in grid.diag_bits[stuck.point]:
            if own & qbit and not clothes & shared:
                free = shared & area & ~used
                if not free:
                    break
                s = (free & -free).bit_length() - 1
                used |= 1 << s
                fix.append((s, want_red))
        else:
            return fix
    return None


def constructions(grid: Grid, red: int, blue: int, area: int, jokers: int = 0,
                  stuck: list[int] | None = None, promotions: int = PROMOTIONS) -> Iterator[Witness]:
    """Fillings of ``area`` from the eight lattice variants, lazily; not yet replayed (callers do).

    When a variant gets stuck on a point, the shared points that would clothe its blocking diagonals
    are placed first in the needed colour and the variant is tried again, at most ``promotions``
    times. The points that stayed stuck are appended to ``stuck`` when given: an obstruction is
    likely near them.
    """
    for prefer_red in (True, False):
        for offset in LATTICE_OFFSETS:
            first: list[tuple[int, bool]] = []
            taken = 0
            for _ in range(promotions + 1):
                w = lattice(grid, red, blue, area, offset, prefer_red, jokers, tuple(first))
                if isinstance(w, Witness):
                    yield w
                    break
                forced = [c for p, c in first if p == w.point]
                colours = (forced[0],) if forced else (prefer_red, not prefer_red)
                fix = _clothing(grid, w, area, jokers, taken, colours)
                if not fix:
                    if stuck is not None:
                        stuck.append(w.point)
                    break
                for p, _colour in fix:
                    taken |= 1 << p
                first = fix + first
            else:
                if stuck is not None and isinstance(w, Stuck):
                    stuck.append(w.point)
