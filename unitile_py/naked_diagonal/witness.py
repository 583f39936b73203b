"""Witnesses: clean fillings of an empty region, and the local checks and repairs done on them.

A :class:`Witness` is a placement order with a colour per point. For fast local work it is unrolled
into a :class:`Timeline`: per board point a colour code and a time (stones at ``STONE``, before every
placement). Whether a placement forms a naked diagonal depends only on the colours and times of its
eight neighbours, so a change to a timeline needs rechecking only around the changed points: that is
what :func:`covers` (a candidate moved to the front) and :func:`repair` rely on.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from .grid import Grid

#: Colour codes of a timeline.
#: A point's colour in a :class:`Timeline` (small ints, not the colour letters).
NO_CODE, RED_CODE, BLUE_CODE = 0, 1, 2
#: Time of a stone: before every placement.
STONE = float("-inf")
#: Fraction by which a repair moves a point in time (distinct for each change of one repair).
_STEP = 1 / 65536

Quadrants = tuple[tuple[int, int, int], ...]


class Witness(NamedTuple):
    """A clean filling: the points in placement order and the mask of those placed red (others blue).

    The solver's memo stores it packed into a str (:meth:`pack`), which the cycle collector never walks.

    >>> w = Witness((3, 0, 44), 1 << 44)
    >>> w.pack() == "100000000000," + chr(3) + chr(0) + "," and Witness.unpack(w.pack()) == w
    True
    """

    order: tuple[int, ...]
    red: int

    def pack(self) -> str:
        """The red mask in hex, a comma, then a character per point in order."""
        return f"{self.red:x}," + "".join(map(chr, self.order))

    @classmethod
    def unpack(cls, packed: str) -> Witness:
        """The witness :meth:`pack` gave ``packed`` (the first comma ends the hex digits)."""
        comma = packed.index(",")
        return cls(tuple(map(ord, packed[comma + 1:])), int(packed[:comma], 16))

    def colour_of(self, p: int) -> str:
        """``"r"`` or ``"b"``: the colour this filling gives to point ``p``."""
        return "r" if self.red >> p & 1 else "b"


def replay(grid: Grid, red: int, blue: int, witness: Witness, jokers: int = 0) -> bool:
    """True when the witness places only empty points and forms no naked diagonal on the way.

    ``jokers`` are points that clothe every diagonal and never form one (used by relaxations).
    """
    diag_bits = grid.diag_bits
    for p in witness.order:
        bit = 1 << p
        if (red | blue | jokers) & bit:
            return False
        is_red = witness.red & bit
        own = red if is_red else blue
        clothes = own | jokers
        for qbit, shared in diag_bits[p]:
            if own & qbit and not clothes & shared:
                return False
        if is_red:
            red |= bit
        else:
            blue |= bit
    return True


@dataclass(slots=True)
class Timeline:
    """A filling unrolled per point: ``col[p]`` (``NO_CODE``, ``RED_CODE``, ``BLUE_CODE``) and ``tm[p]``.

    Points of the region have distinct times, none below ``start``; stones have ``STONE``; other
    points have colour ``NO_CODE``.
    """

    col: list[int]
    tm: list[float]
    start: float = 0.0

    @staticmethod
    def of(grid: Grid, red: int, blue: int, witness: Witness) -> Timeline:
        """The timeline of a witness with these stones around it."""
        col = [NO_CODE] * grid.size
        for p in grid.bits(red):
            col[p] = RED_CODE
        for p in grid.bits(blue):
            col[p] = BLUE_CODE
        tm = [STONE] * grid.size
        wred = witness.red
        for t, p in enumerate(witness.order):
            col[p] = RED_CODE if wred >> p & 1 else BLUE_CODE
            tm[p] = float(t)
        return Timeline(col, tm, 0.0)

    def copy(self) -> Timeline:
        """An independent copy."""
        return Timeline(self.col.copy(), self.tm.copy(), self.start)

    def with_first(self, p: int, code: int) -> Timeline:
        """A copy with colour ``code`` on ``p`` placed before every other point."""
        line = Timeline(self.col.copy(), self.tm.copy(), self.start - 1.0)
        line.col[p] = code
        line.tm[p] = line.start
        return line

    def witness(self, grid: Grid, area: int) -> Witness:
        """The witness of ``area`` in time order."""
        tm = self.tm
        order = tuple(sorted(grid.bits(area), key=lambda p: tm[p]))
        wred = 0
        for p in order:
            if self.col[p] == RED_CODE:
                wred |= 1 << p
        return Witness(order, wred)


def clean_at(quadrants: Quadrants, x: int, col: list[int], tm: list[float]) -> bool:
    """True when point ``x`` forms no naked diagonal at its time (``quadrants`` is ``grid.diag[x]``)."""
    c = col[x]
    t = tm[x]
    for q, s, u in quadrants:
        if col[q] == c and tm[q] < t and not ((col[s] == c and tm[s] < t) or (col[u] == c and tm[u] < t)):
            return False
    return True


def covers(quadrants: Quadrants, x: int, line: Timeline) -> bool:
    """True when the filling stays clean with the candidate (colour code ``x``) moved to the front.

    ``quadrants`` are the candidate's diagonal neighbours ``q`` with shared points ``s, t``: the 2x2
    blocks that contain it, the only ones the change can spoil.
    """
    col, tm = line.col, line.tm
    front = line.start - 1.0
    for q, s, t in quadrants:
        cq = col[q]
        if cq == x:
            limit = tm[q] if tm[q] > front else front
            if not ((col[s] == x and tm[s] < limit) or (col[t] == x and tm[t] < limit)):
                return False
        cs = col[s]
        if cs and cs == col[t] and cs != x:
            ts, tt = tm[s], tm[t]
            if ts == STONE and tt == STONE:
                continue
            if not (cq == cs and tm[q] < (ts if ts > tt else tt)):
                return False
    return True


def _bad_pairs(quadrants: Quadrants, x: int, col: list[int], tm: list[float]) -> list[tuple[int, int]]:
    """The shared points of the diagonals on which ``x`` forms a naked diagonal at its time."""
    c = col[x]
    t = tm[x]
    return [(s, u) for q, s, u in quadrants if col[q] == c and tm[q] < t
            and not ((col[s] == c and tm[s] < t) or (col[u] == c and tm[u] < t))]


#: The local changes a repair tries on a point, in order (a point met again starts at the next one).
_RECOLOUR, _LATER, _CLOTHE, _RECOLOUR_CLOTHE = range(4)


def _change(strategy: int, y: int, quadrants: Quadrants, col: list[int], tm: list[float], movable: int,
            floor: float, delta: float) -> list[tuple[int, int, float]] | None:
    """Apply one local change to point ``y``; the undo log (point, colour, time), ``None`` if it cannot."""
    undo = [(y, col[y], tm[y])]
    if strategy in (_RECOLOUR, _RECOLOUR_CLOTHE):
        col[y] = RED_CODE + BLUE_CODE - col[y]
        if strategy == _RECOLOUR:
            return undo
    c = col[y]
    t = tm[y]
    bad = _bad_pairs(quadrants, y, col, tm)
    if strategy == _LATER:
        later = [min((tm[v] for v in pair if col[v] == c), default=None) for pair in bad]
        if not bad or any(x is None for x in later):
            return undo
        tm[y] = max(floor, *(x for x in later if x is not None)) + delta
        return undo
    for i, (s, u) in enumerate(bad):
        choices = [v for v in (s, u) if movable >> v & 1]
        choices.sort(key=lambda v: col[v] == c)
        when = t - delta - i * _STEP / 16
        if not choices or when <= floor:
            for v, oc, ot in reversed(undo):
                col[v], tm[v] = oc, ot
            return None
        v = choices[0]
        undo.append((v, col[v], tm[v]))
        col[v] = c
        tm[v] = when
    return undo


def repair(grid: Grid, area: int, line: Timeline, todo: int, pinned: int, limit: int) -> bool:
    """Make every placement of ``line`` in ``area`` clean by local changes, checking the points of ``todo``.

    A point that forms a naked diagonal is, in turn: recoloured; placed just after the shared points
    that already clothe its bad diagonals in its colour; given, for each bad diagonal, a shared point of
    its colour placed just before it; recoloured and clothed so. A point met again starts at the next
    change. Each change puts the changed points' neighbours back on the list; the points of ``pinned``
    never change. Since a placement's cleanliness depends only on its eight neighbours, points never
    rechecked stay clean, so success leaves a checked filling (only the points in ``todo`` and those
    around changes may be unclean at the start). False after ``limit`` changes, when nothing helps or
    when two changed neighbours end at one time; ``line`` is changed in place.
    """
    col, tm = line.col, line.tm
    diag = grid.diag
    movable = area & ~pinned
    todo &= movable
    changes = 0
    changed = 0
    tries: dict[int, int] = {}
    floor = max((tm[p] for p in grid.bits(pinned)), default=STONE)
    while todo:
        low = todo & -todo
        todo ^= low
        y = low.bit_length() - 1
        quadrants = diag[y]
        if clean_at(quadrants, y, col, tm):
            continue
        changes += 1
        if changes > limit:
            return False
        delta = changes * _STEP
        strategy = tries.get(y, 0)
        while True:
            if strategy > _RECOLOUR_CLOTHE:
                return False
            undo = _change(strategy, y, quadrants, col, tm, movable, floor, delta)
            if undo is not None and clean_at(quadrants, y, col, tm):
                break
            for v, c, t in reversed(undo or ()):
                col[v], tm[v] = c, t
            strategy += 1
        tries[y] = strategy + 1
        touched = 0
        for v, _c, _t in undo:
            touched |= 1 << v
        changed |= touched
        todo |= grid.dilate8(touched) & movable
    # Two moves can land on one time; points of one 2x2 block must not share a time.
    for y in grid.bits(changed):
        for z in grid.bits(grid.dilate8(1 << y) & area):
            if z != y and tm[z] == tm[y]:
                return False
    return True
