"""Empty regions and the exact test for naked-diagonal-equivalent (NDE) areas.

An *area* is a set of empty points to fill; a *filling* is a sequence of placements (point, colour)
that covers it, and it is *clean* when no placement forms a naked diagonal at the moment it is made.
An area is NDE when it has no clean filling. By fact 1 of docs/naked-diagonal.md, maximal empty
regions never interact, so the test runs on one connected set ``C`` of empty points at a time, with
the stones around it.

:class:`Solver` decides fillability exactly and returns a checked filling (a *witness*) when there is
one:

1. a memo keyed on ``C`` and the colours of the stones around it (nothing else can matter);
2. a *dead point* (for both colours a diagonal stone of that colour whose two shared points hold the
   other colour) proves NDE at once;
3. constructive witnesses (:mod:`construct`: lattice orders with a greedy colour per point, then
   local repairs), for areas of more than :data:`SEARCH_FIRST` points; every witness is replayed
   before it is trusted;
4. *relaxations*: a small window ``K`` of ``C`` whose other neighbours in ``C`` act as jokers (they
   clothe every diagonal and form none); if ``K`` cannot be filled even so, ``C`` is NDE;
5. otherwise an exhaustive search: ``C`` is fillable exactly when some clean first placement ``p``
   leaves parts of ``C - {p}`` that are all fillable (each part solved, and memoised, on its own);
   orders of first placements take turns under growing budgets (:meth:`Solver._portfolio`).

Every answer is exact: "fillable" comes with a replayed witness, "NDE" from a dead point, a relaxation
(itself decided exactly) or the exhaustive search.

>>> from .position import Position
>>> pos = Position.parse("RBRR/R..R/RRBR/RRRR r")
>>> s = Solver(pos.grid)
>>> s.witness(pos.empty_points, pos.red, pos.blue) is None
True
>>> w = Solver(Grid.get(5)).witness(Position.empty(5).empty_points, 0, 0)
>>> w is not None and replay(Grid.get(5), 0, 0, w) and len(w.order)
25
"""

from __future__ import annotations

import random
from collections import OrderedDict
from dataclasses import dataclass, field

from .construct import constructions
from .grid import Grid
from .rules import dead
from .witness import Witness, replay

#: Window radii tried by the relaxation proofs, smallest first.
RELAX_RADII = (1, 2)
#: Radii of the windows around the last placement and its neighbours tried when the first turn of an
#: exhaustive search ran out (a 13 x 13 area of 54 points whose smallest proof is a window of radius 2
#: around a neighbour of the last placement had run for minutes).
WIDE_RADII = (2, 3)
#: Areas of at most this many points go straight to the exhaustive search, which is cheaper there than
#: eight failing constructions (small areas are mostly the windows of NDE proofs). 150 seeded 9x9
#: games, twice each: worst CPU time 65 and 59 ms with 0, 45 and 49 ms with 10, p99 the same.
SEARCH_FIRST = 10
#: Exhaustive searches (nested ones included) a first turn of :meth:`Solver._portfolio` may make before
#: the next order takes over; the budget doubles every :data:`ORDERS` turns.
SEARCH_BUDGET = 300
#: Turns of :meth:`Solver._portfolio` per budget.
ORDERS = 3


@dataclass(slots=True)
class SolverStats:
    """Counters of how the solver answered (for the benchmark)."""

    calls: int = 0
    memo_hits: int = 0
    dead: int = 0
    lattice: int = 0
    relaxed: int = 0
    searched: int = 0
    searched_nde: int = 0
    restarts: int = 0
    sizes: dict[int, int] = field(default_factory=dict)


def _near(hint: int, stuck: list[int], turn: int) -> list[int]:
    """The points the exhaustive search places near first in a turn of :meth:`Solver._portfolio`: the
    stuck points then the last placement, the last placement first, the first order reversed, then
    shuffles seeded by the turn (without a last placement the second and third orders are one, so the
    shuffles start a turn earlier)."""
    order = [*stuck, hint] if hint >= 0 else list(stuck)
    if turn == 0:
        return order
    if turn == 1 and hint >= 0:
        return [hint, *stuck]
    if turn == 2 - (hint < 0):
        return order[::-1]
    random.Random(turn).shuffle(order)
    return order


class _OutOfBudget(Exception):
    """A budgeted exhaustive search ran out of searches (:meth:`Solver._portfolio`)."""


class Solver:
    """Exact fillability of connected sets of empty points on one grid, with a memo."""

    def __init__(self, grid: Grid, memo_limit: int = 200_000) -> None:
        self.grid = grid
        # Values are plain tuples (order, red) or None: exact tuples of ints, which the cycle collector
        # stops tracking, so a full memo adds nothing to its pauses.
        self.memo: OrderedDict[tuple[int, int, int, int], tuple[tuple[int, ...], int] | None] = OrderedDict()
        self.memo_limit = memo_limit
        self.stats = SolverStats()
        # Searches left to the budgeted search under way (None: none is) and its turn (its order).
        self._budget: int | None = None
        self._turn = 0

    def key(self, area: int, red: int, blue: int, jokers: int = 0) -> tuple[int, int, int, int]:
        """The memo key: the area and what lies in its ring of neighbours (nothing else matters)."""
        ring = self.grid.dilate8(area) & ~area
        return area, red & ring, blue & ring, jokers & ring

    def witness(self, area: int, red: int, blue: int, jokers: int = 0, hint: int = -1) -> Witness | None:
        """A clean filling of the connected empty set ``area``, or ``None`` when it is NDE.

        ``hint`` is a point near which an obstruction is likely (the last placement), used only to
        choose where to look first.
        """
        st = self.stats
        st.calls += 1
        key = self.key(area, red, blue, jokers)
        memo = self.memo
        if key in memo:
            st.memo_hits += 1
            known = memo[key]
            return None if known is None else Witness(*known)
        result = self._solve(area, red, blue, jokers, hint)
        if len(memo) >= self.memo_limit:
            memo.popitem(last=False)  # the oldest entry: no pause to free a whole memo at once
        memo[key] = None if result is None else (result.order, result.red)
        return result

    def _solve(self, area: int, red: int, blue: int, jokers: int, hint: int) -> Witness | None:
        g = self.grid
        st = self.stats
        size = area.bit_count()
        st.sizes[size] = st.sizes.get(size, 0) + 1
        if dead(g, red, blue, area) & dead(g, blue, red, area):
            st.dead += 1
            return None
        if hint >= 0 and self._relaxation_proves_nde(area, red, blue, jokers, [hint], RELAX_RADII[:1]):
            st.relaxed += 1
            return None
        stuck: list[int] = []
        if size > SEARCH_FIRST:
            for w in constructions(g, red, blue, area, jokers, stuck):
                if replay(g, red, blue, w, jokers):
                    st.lattice += 1
                    return w
        # An obstruction that makes the area NDE is likely near the last placement; one that only
        # defeats the constructions is where they got stuck: the proofs look near the first, the
        # search places near the second first.
        near = [hint, *stuck] if hint >= 0 else stuck
        if self._relaxation_proves_nde(area, red, blue, jokers, near, RELAX_RADII):
            st.relaxed += 1
            return None
        st.searched += 1
        if self._budget is not None:  # inside a budgeted search: its order, and count this one
            self._budget -= 1
            if self._budget < 0:
                raise _OutOfBudget
            found = self._search(area, red, blue, jokers, _near(hint, stuck, self._turn))
        else:
            found = self._portfolio(area, red, blue, jokers, hint, stuck)
        if found is None:
            st.searched_nde += 1
        return found

    def _portfolio(self, area: int, red: int, blue: int, jokers: int, hint: int,
                   stuck: list[int]) -> Witness | None:
        """The exhaustive search restarted in other orders under growing budgets (see :func:`_near`).

        Every order is exact, but each can be exponentially slower than another on some area: on a
        13 x 13 position, placing near where the constructions got stuck first ran for minutes, and
        near the last placement first took 26 ms; on the next position the reverse of the stuck
        points was the one that finished (9 ms). A turn that runs out of budget stores nothing in the
        memo (only finished calls do), so the answer is exact, and the budgets double every
        :data:`ORDERS` turns, so the cost is a small multiple of the fastest order's.
        """
        turn = 0
        while True:
            self._budget, self._turn = SEARCH_BUDGET << (turn // ORDERS), turn
            try:
                return self._search(area, red, blue, jokers, _near(hint, stuck, turn))
            except _OutOfBudget:
                self.stats.restarts += 1
            finally:
                self._budget = None
            if turn == 0 and hint >= 0 and self._relaxation_proves_nde(
                    area, red, blue, jokers, [hint, *self.grid.bits(self.grid.box(hint, 1) & area)],
                    WIDE_RADII):
                # Wider windows once the first turn ran out (an exhaustive search cannot stop early on
                # an NDE area; before it, they cost more than they save).
                self.stats.relaxed += 1
                return None
            turn += 1

    def proves_nde(self, area: int, red: int, blue: int, hint: int) -> bool:
        """True when a dead point or a small window around ``hint`` shows ``area`` NDE (no search).

        ``False`` only means no such quick proof was found.
        """
        known = self.memo.get(self.key(area, red, blue))
        if known is not None or self.key(area, red, blue) in self.memo:
            return known is None
        g = self.grid
        if dead(g, red, blue, area) & dead(g, blue, red, area):
            return True
        return self._relaxation_proves_nde(area, red, blue, 0, [hint], RELAX_RADII[:1])

    def _relaxation_proves_nde(self, area: int, red: int, blue: int, jokers: int, centres: list[int],
                               radii: tuple[int, ...]) -> bool:
        """True when a window around one of ``centres`` cannot be filled even with jokers around it."""
        g = self.grid
        tried: set[int] = set()
        for radius in radii:
            for centre in centres:
                window = g.box(centre, radius) & area
                if window == area or window in tried:
                    continue
                tried.add(window)
                outside = (area & ~window) | jokers
                for part in g.components(window):
                    if self.witness(part, red, blue, outside & ~part) is None:
                        return True
        return False

    def _search(self, area: int, red: int, blue: int, jokers: int, near: list[int]) -> Witness | None:
        """Exhaustive: some clean first placement whose remaining parts are all fillable."""
        g = self.grid
        diag_bits = g.diag_bits
        for p in self._move_order(area, near):
            bit = 1 << p
            for is_red in (True, False):
                own = red if is_red else blue
                clothes = own | jokers
                if any(own & qbit and not clothes & shared for qbit, shared in diag_bits[p]):
                    continue
                r2, b2 = (red | bit, blue) if is_red else (red, blue | bit)
                order = [p]
                wred = bit if is_red else 0
                for part in g.components(area & ~bit):
                    w = self.witness(part, r2, b2, jokers, p)
                    if w is None:
                        break
                    order.extend(w.order)
                    wred |= w.red
                else:
                    return Witness(tuple(order), wred)
        return None

    def _move_order(self, area: int, near: list[int]) -> list[int]:
        """The points of ``area``, those near the given points first."""
        g = self.grid
        first: list[int] = []
        seen = 0
        for centre in near:
            for p in g.bits(g.box(centre, 1) & area & ~seen):
                first.append(p)
            seen |= g.box(centre, 1) & area
        return first + list(g.bits(area & ~seen))
