"""The culprit of an NDE area: a small connected part of it that no clean sequence can cover.

When a placement would leave an NDE area (:class:`.bans.LeavesNDE`), the explanation names a part to
blame: :func:`smallest_nde` finds a smallest one exactly, :func:`culprit_of` within a count of work (so
every answer is the same on every machine). Both take the solver whose memo the legality engine filled
(:attr:`.legality.Engine.solver`): the region's core is its answer already. :func:`coverable` decides
whether a clean sequence inside an empty set covers a target; :func:`quick_cover` proves it from a
lattice filling; docs/naked-diagonal.md, "Explanations in bounded time", tells the why.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import islice

from .areas import Solver
from .construct import constructions
from .grid import Grid
from .position import Position
from .rules import forms
from .witness import replay

#: The most points of an NDE region whose culprit :func:`smallest_nde` finds by trying its connected
#: parts by size (fewer than 2 ** 11 = 2,048 of them; why not more: docs/naked-diagonal.md, "The
#: search's constants").
EXACT_CULPRIT_POINTS = 11
#: The connected parts of a larger region's minimal core that :func:`smallest_nde` tries by size.
CORE_CULPRIT_TRIES = 64
#: The work (nodes of the cover search, :func:`_uncovered`) one culprit search may spend in all, and
#: on one part: a count, not a clock, so every answer is the same on every machine (docs/naked-diagonal.md,
#: "Explanations in bounded time").
CULPRIT_WORK = 2_000
PART_WORK = 400
#: The solver's work (units of :meth:`Solver.decide_within`) :func:`culprit_of` may spend shrinking a
#: large region's core to a minimal one (:func:`_irreducible`) before it tries the core's parts.
CORE_WORK = 2_000


class _OutOfWork(Exception):
    """A cover search ran out of its work (see :class:`_Work`)."""


class _Work:
    """The nodes a cover search may still visit (None: no limit)."""

    __slots__ = ("left",)

    def __init__(self, left: int | None) -> None:
        self.left = left

    def charge(self) -> None:
        """One node more; :class:`_OutOfWork` when none is left."""
        if self.left is not None:
            self.left -= 1
            if self.left < 0:
                raise _OutOfWork


def smallest_nde(solver: Solver, position: Position, region: int, last: int = -1) -> int:
    """A culprit of the NDE region ``region``: a connected subset of it that no clean sequence can
    cover; a smallest one when ``region`` has at most :data:`EXACT_CULPRIT_POINTS` points.

    Connected parts are tried by size, each decided exactly by :func:`coverable`, and the first
    uncoverable one is a smallest. A larger region has too many parts for that: the parts tried are
    those of a minimal core of it (:func:`_irreducible`), the first :data:`CORE_CULPRIT_TRIES` by size,
    and the core itself when none of them is uncoverable. ``last`` is the stone placed last, where
    the obstruction is likely (the solver's hint). Unbounded: :func:`culprit_of` is its bounded form.
    """
    return _culprit(solver, position, region, last, None, None)[0]


def culprit_of(solver: Solver, position: Position, region: int, last: int = -1,
               work: int | None = None, part_work: int | None = None) -> tuple[int, bool]:
    """:func:`smallest_nde` within ``work`` nodes of the cover search (default :data:`CULPRIT_WORK`),
    at most ``part_work`` on one part (default :data:`PART_WORK`): ``(culprit, narrowed)``.

    A part whose search runs out of ``part_work`` is passed over (not known either way), so a later
    part found uncoverable is still a culprit but perhaps not a smallest; when the whole ``work`` runs
    out, the culprit is the region's core (the region itself when it has at most
    :data:`EXACT_CULPRIT_POINTS` points). ``narrowed`` is true when no part was passed over and the
    work did not run out: the answer is then :func:`smallest_nde`'s.
    """
    work = CULPRIT_WORK if work is None else work
    return _culprit(solver, position, region, last, work, PART_WORK if part_work is None else part_work)


def _culprit(solver: Solver, position: Position, region: int, last: int, work: int | None,
             part_work: int | None) -> tuple[int, bool]:
    g = position.grid
    red, blue = position.red, position.blue
    exact = region.bit_count() <= EXACT_CULPRIT_POINTS
    within, narrowed = (region, True) if exact else _irreducible(
        solver, region, red, blue, last, None if work is None else CORE_WORK)
    parts: Iterator[int] = (s for k in range(1, within.bit_count()) for s in connected_subsets(g, within, k))
    if not exact:
        parts = islice(parts, CORE_CULPRIT_TRIES)
    memo: _CoverMemo = {}  # shared by the parts: a finished answer holds whatever part asked
    left = work  # None: no limit
    for s in parts:
        allowed = None if left is None else left if part_work is None else min(left, part_work)
        budget = _Work(allowed)
        try:
            uncovered = _uncovered(solver, region, s & region, red, blue, 0, memo, budget)
        except _OutOfWork:
            uncovered, narrowed = 0, False
        if left is not None and allowed is not None and budget.left is not None:
            left -= allowed - max(budget.left, 0)
            if left <= 0 and not uncovered:
                return within, False
        if uncovered:
            return s, narrowed
    return within, narrowed


def _irreducible(solver: Solver, region: int, red: int, blue: int, last: int,
                 work: int | None = None) -> tuple[int, bool]:
    """An uncoverable connected part of the NDE region ``region`` that is a *minimal core*: it cannot
    be filled even with every other point of ``region`` as a joker, and each connected part with fewer
    points can (see :func:`smallest_nde`); with it, true.

    ``work`` bounds the solver's work (units of :meth:`Solver.decide_within`) spent on shrinking the
    core, None: no bound. When it runs out the answer is the part reached so far with false: still a
    core (uncoverable), perhaps not a minimal one.
    """
    g = solver.grid
    core = solver.decide(region, red, blue, 0, last, nde_likely=True)  # legality's answer, memoised
    assert isinstance(core, int), "an NDE region has a core"
    part = core
    while len(g.components(part)) > 1:  # join the core's pieces (a superset is a core too)
        part = (part | g.dilate4(part)) & region
    left = work

    def is_core(piece: int) -> bool:
        nonlocal left
        if left is None:
            return isinstance(solver.decide(piece, red, blue, region & ~piece, last), int)
        if left <= 0:
            raise _OutOfWork
        found, spent = solver.decide_within(left, piece, red, blue, region & ~piece, last)
        left -= max(1, spent)
        if found is None:
            raise _OutOfWork
        return isinstance(found, int)

    while True:  # one point fewer: a piece of the rest that is still a core replaces it
        try:
            smaller = next((piece for p in sorted(g.bits(part), key=lambda q: (core >> q & 1, q))  # joins
                            for piece in g.components(part & ~(1 << p)) if is_core(piece)), 0)
        except _OutOfWork:
            return part, False
        if not smaller:
            # Every connected part with fewer points misses some point p of ``part``, so it lies inside
            # a piece of ``part - {p}``, which jokers around it let be filled: so can the part.
            return part, True
        part = smaller


def connected_subsets(grid: Grid, within: int, k: int) -> Iterator[int]:
    """Every connected subset of ``within`` with ``k`` points (each found from its lowest point)."""

    def extend(subset: int, frontier: int, banned_pts: int, size: int) -> Iterator[int]:
        if size == k:
            yield subset
            return
        f = frontier
        while f:
            low = f & -f
            f ^= low
            new_banned = banned_pts | (frontier & (low - 1)) | low
            grown = subset | low
            new_frontier = (frontier | (grid.dilate4(low) & within)) & ~grown & ~new_banned
            yield from extend(grown, new_frontier, new_banned, size + 1)

    for p in grid.bits(within):
        low = 1 << p
        below = within & (low - 1)
        yield from extend(low, grid.dilate4(low) & within & ~below & ~low, below | low, 1)


def coverable(solver: Solver, area: int, target: int, red: int, blue: int, jokers: int = 0) -> bool:
    """True when some clean sequence of placements inside the empty set ``area`` covers ``target``.

    ``jokers`` (outside ``area``) clothe every diagonal and form none. Exact (see :func:`_uncovered`).
    """
    return not _uncovered(solver, area, target & area, red, blue, jokers, {}, _Work(None))


_CoverMemo = dict[tuple[int, int], int]


def _uncovered(solver: Solver, area: int, target: int, red: int, blue: int, jokers: int,
               memo: _CoverMemo, work: _Work) -> int:
    """0 when some clean sequence inside ``area`` covers ``target``, else a *reason*: a window ``W`` of
    ``area`` such that ``target``'s points in ``W`` cannot be covered in ``W`` with every point around
    it that is not a stone as a joker (so no superset of them can be, wherever ``W`` lies with the
    same stones around it).

    In turn: a target that is the whole set is the solver's question (its core is a reason); a
    lattice filling of the target with rings around it proves it covered (:func:`quick_cover`); a
    window around the target that cannot cover it even with the rest of ``area`` as jokers proves it
    not; otherwise every clean first placement is tried, each leaving parts that are covered on their
    own. A reason that a first placement does not touch is a reason for ``area`` too, and the search
    stops there (as the solver's search does with cores); else the reason is ``area``. Each node
    charges ``work`` (:class:`_OutOfWork` when it runs out; nothing unfinished is memoised).
    """
    if not target:
        return 0
    key = (solver.key(area, red, blue, jokers), target)
    known = memo.get(key)
    if known is None:
        work.charge()
        known = memo[key] = _uncovered_now(solver, area, target, red, blue, jokers, memo, work)
    return known


def _uncovered_now(solver: Solver, area: int, target: int, red: int, blue: int, jokers: int,
                   memo: _CoverMemo, work: _Work) -> int:
    g = solver.grid
    if target == area:
        found = solver.decide(area, red, blue, jokers & ~area)
        return found if isinstance(found, int) else 0
    if quick_cover(g, area, target, red, blue, jokers):
        return 0
    for radius in (1, 2):
        window = 0
        for p in g.bits(target):
            window |= g.box(p, radius)
        window &= area
        if window != area:
            outside = jokers | (area & ~window)
            for piece in g.components(window):
                if piece & target and _uncovered(solver, piece, target & piece, red, blue,
                                                 outside & ~piece, {}, work):
                    return piece
    near = g.dilate8(target) & area
    for p in list(g.bits(near)) + list(g.bits(area & ~near)):
        bit = 1 << p
        for is_red in (True, False):
            own = red if is_red else blue
            if forms(g, own, p, own | jokers) is not None:
                continue
            r2, b2 = (red | bit, blue) if is_red else (red, blue | bit)
            for piece in g.components(area & ~bit):
                reason = _uncovered(solver, piece, target & piece, r2, b2, jokers, memo, work)
                if reason:
                    if not g.dilate8(reason) & bit:
                        return reason
                    break
            else:
                return 0
    return area


#: Rings of points around a target that :func:`quick_cover` adds, one at a time.
COVER_RINGS = 3


def quick_cover(grid: Grid, area: int, target: int, red: int, blue: int, jokers: int = 0) -> bool:
    """True when a lattice filling of the target, alone or with up to :data:`COVER_RINGS` rings of
    ``area`` around it (the rest of ``area`` left empty), replays clean: a proof that ``target`` can
    be covered. ``False`` proves nothing.
    """
    s = target
    for _ in range(COVER_RINGS + 1):
        s &= area
        if any(replay(grid, red, blue, w, jokers) for w in constructions(grid, red, blue, s, jokers)):
            return True
        if s == area:
            break
        s = grid.dilate4(s)
    return False
