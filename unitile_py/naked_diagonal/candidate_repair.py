"""Step 2 and 4 of :mod:`.legality`: a candidate made legal by repairing a witness around it.

A witness of a region, with the candidate ``p`` recoloured and moved to the front, is usually spoiled
only near ``p``; :func:`witness.repair` then changes it locally until it is clean again. The engine tries
a few witnesses (:func:`repair_bases`), then all of them with a larger limit, then each neighbour of
``p`` placed second in each colour (:func:`repaired_pair`).
"""

from __future__ import annotations

from .grid import Grid
from .witness import BLUE_CODE, RED_CODE, Timeline, clean_at, repair, replay

#: Most points a local repair of a witness may change for one candidate.
REPAIR_LIMIT = 40
#: How many witnesses a candidate's local repair may start from.
REPAIR_BASES = 3


def repair_bases(lines: list[Timeline], k: int = REPAIR_BASES) -> list[Timeline]:
    """The witnesses a repair starts from: the ``k`` newest (often a neighbour's repair) and ``k`` first."""
    if len(lines) <= 2 * k:
        return lines[::-1]
    return lines[:-k - 1:-1] + lines[:k]


def repaired(grid: Grid, area: int, p: int, code: int, bases: list[Timeline], limit: int = REPAIR_LIMIT,
             check: bool = False) -> Timeline | None:
    """A filling of ``area`` that starts with colour ``code`` on ``p``, by repairing a witness of
    ``bases`` (``check``: replay it in full first, as tests ask)."""
    bit = 1 << p
    for base in bases:
        line = base.with_first(p, code)
        if repair(grid, area, line, grid.dilate8(bit) & area & ~bit, bit, limit):
            return _checked(grid, line, area, p, check)
    return None


def repaired_pair(grid: Grid, area: int, p: int, code: int, bases: list[Timeline],
                  check: bool = False) -> Timeline | None:
    """Like :func:`repaired` with a chosen second placement: each neighbour of ``p``, each colour."""
    bit = 1 << p
    for q in grid.bits(grid.dilate8(bit) & area & ~bit):
        pair = bit | 1 << q
        for second in (RED_CODE, BLUE_CODE):
            for base in bases:
                line = base.with_first(q, second).with_first(p, code)
                # Only p and the stones come before q, and no repair moves a point before q.
                if not clean_at(grid.diag[q], q, line.col, line.tm):
                    break
                if repair(grid, area, line, grid.dilate8(pair) & area & ~pair, pair, REPAIR_LIMIT):
                    return _checked(grid, line, area, p, check)
    return None


def _checked(grid: Grid, line: Timeline, area: int, p: int, check: bool) -> Timeline:
    """A repaired timeline, replayed in full first when ``check`` is on."""
    if check:
        w = line.witness(grid, area)
        assert w.order[0] == p and replay(grid, *_stones(line, area), w), "repair"
    return line


def _stones(line: Timeline, area: int) -> tuple[int, int]:
    """The red and blue stones of a timeline (its points outside ``area`` that have a colour)."""
    red = blue = 0
    for p, c in enumerate(line.col):
        if not area >> p & 1:
            if c == RED_CODE:
                red |= 1 << p
            elif c == BLUE_CODE:
                blue |= 1 << p
    return red, blue
