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
from .witness import Witness

#: Offsets (row, column parity) of the four lattice orders.
LATTICE_OFFSETS = ((0, 0), (1, 1), (0, 1), (1, 0))
#: How many rounds of clothing points a construction may move to the front before it gives up.
PROMOTIONS = 8


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
    n = grid.n
    r0, c0 = offset
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
    phases: list[list[int]] = [[], [], [], []]
    for p in grid.bits(area & ~skip):
        r, c = divmod(p, n)
        phases[((r - r0) & 1) * 2 + ((c - c0) & 1)].append(p)
    for phase in phases:
        for p in phase:
            bit = 1 << p
            for want_red in (prefer_red, not prefer_red):
                own = red if want_red else blue
                clothes = own | jokers
                if all(not own & qbit or clothes & shared for qbit, shared in diag_bits[p]):
                    break
            else:
                return Stuck(p, red, blue)
            if want_red:
                red |= bit
                wred |= bit
            else:
                blue |= bit
            order.append(p)
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
                  stuck: list[int] | None = None) -> Iterator[Witness]:
    """Fillings of ``area`` from the eight lattice variants, lazily; not yet replayed (callers do).

    When a variant gets stuck on a point, the shared points that would clothe its blocking diagonals
    are placed first in the needed colour and the variant is tried again, at most ``PROMOTIONS``
    times. The points that stayed stuck are appended to ``stuck`` when given: an obstruction is
    likely near them.
    """
    for prefer_red in (True, False):
        for offset in LATTICE_OFFSETS:
            first: list[tuple[int, bool]] = []
            taken = 0
            for _ in range(PROMOTIONS + 1):
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
