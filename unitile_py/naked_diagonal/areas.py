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
   other colour) proves NDE at once (it occurs only where the board already has a naked diagonal:
   the two shared stones are one, with the dead point and its partner between them);
3. constructive witnesses (:mod:`construct`: lattice orders with a greedy colour per point, then
   local repairs), for areas of more than :data:`SEARCH_FIRST` points; every witness is replayed
   before it is trusted;
4. *relaxations*: a small window ``K`` of ``C`` whose other neighbours in ``C`` act as jokers (they
   clothe every diagonal and form none); if ``K`` cannot be filled even so, ``C`` is NDE;
5. otherwise an exhaustive search: ``C`` is fillable exactly when some clean first placement ``p``
   leaves parts of ``C - {p}`` that are all fillable (each part solved, and memoised, on its own);
   orders of first placements take turns under growing budgets (:meth:`Solver._portfolio`), and a
   window grown where jokers keep it fillable is tried once the first turn runs out. A *safe* first
   placement, one that some clean filling starts with (:func:`_safe_first`), is the only one tried
   once the search's order reaches it; inside a grown window the search looks for one first.

Every NDE answer comes with a *core*: points of ``C`` that cannot be filled even with every point
around them that is not a stone as a joker. A dead point is one, a relaxation passes on its window's
core, and the search builds one from the cores that refute each first placement. A core that a first
placement does not touch refutes every first placement, so the search stops there (conflict-directed
backjumping, as in SAT solvers). Cores are also *learned*: each one is stored under the stones around
it, and an area that contains a stored core with at least those stones around it is NDE at once (a
stone constrains more than the joker the core allowed there), whatever order of placements led to it.

Every answer is exact: "fillable" comes with a replayed witness, "NDE" from a dead point, a relaxation
(itself decided exactly) or the exhaustive search.

>>> from .position import Position
>>> pos = Position.parse("RBRR/R..R/RRBR/RRRR r")
>>> s = Solver(pos.grid)
>>> s.witness(pos.empty_points, pos.red, pos.blue) is None
True
>>> pos.grid.names(s.decide(pos.empty_points, pos.red, pos.blue))  # the core: the whole area here
('b3', 'c3')
>>> w = Solver(Grid.get(5)).witness(Position.empty(5).empty_points, 0, 0)
>>> w is not None and replay(Grid.get(5), 0, 0, w) and len(w.order)
25
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field

from ..mcts import Steps, finish
from .cache import UntrackedCache
from .construct import PROMOTIONS, constructions
from .grid import Grid
from .rules import dead
from .witness import Witness, replay

#: Window radii tried by the relaxation proofs, smallest first.
RELAX_RADII = (1, 2)
#: Areas of at most this many points go straight to the exhaustive search, which is cheaper there than
#: eight failing constructions (small areas are mostly the windows of NDE proofs; measured:
#: docs/naked-diagonal.md, "The search's constants").
SEARCH_FIRST = 10
#: Most points of a window grown by :meth:`Solver._grown_core`.
GROW_LIMIT = 30
#: How many times a turn's budget the grown window gets between turns.
GROW_SHARE = 4
#: The work a first turn of :meth:`Solver._portfolio` may do before the next order takes over; the
#: budget doubles every :data:`ORDERS` turns. Every area a budgeted search decides costs 1 + a tenth
#: of its points (constructions and windows grow with it): counting only the exhaustive searches would
#: let the areas that constructions settle run free (measured: docs/naked-diagonal.md, "The search's
#: constants").
SEARCH_BUDGET = 1000
#: Turns of :meth:`Solver._portfolio` per budget.
ORDERS = 3
#: What :func:`_status` says of a safe placement.
SAFE = -1
#: Learned cores kept per stone (point and colour) around them, the newest ones (measured:
#: docs/naked-diagonal.md, "The search's constants").
CORE_SLOTS = 64


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
    backjumps: int = 0
    safe: int = 0
    learned: int = 0
    sizes: dict[int, int] = field(default_factory=dict)


def _most_stuck(stuck: list[int]) -> list[int]:
    """The points the constructions got stuck on, by how many got stuck there (most first, ties in
    the constructions' order)."""
    return [p for p, _ in Counter(stuck).most_common()]


def _near(hint: int, stuck: list[int], turn: int) -> list[int]:
    """The points the exhaustive search places near first in a turn of :meth:`Solver._portfolio`.

    The first turn takes the stuck points by how many constructions got stuck there (most first,
    ties in the constructions' order), then the last placement; later turns shuffle that, seeded by
    the turn. The point most constructions got stuck on is the likeliest obstruction: each order of
    the 454 areas that reached a restarted search in 100 seeded 13 x 13 games, decided from a fresh
    solver, cost in all 180,095 units this way, 300,153 taking the stuck points in the constructions'
    order, 294,179 with the last placement first and 191,004-328,654 for 12 shuffles (p99 880, 3,433,
    1,868 and 1,103-9,936 units); on 345 areas of 100 other games 108,741, 163,241 and 196,989.
    """
    order = _most_stuck(stuck)
    if hint >= 0:
        order.append(hint)
    if turn == 0:
        return order
    random.Random(turn).shuffle(order)
    return order


class _OutOfBudget(Exception):
    """A budgeted exhaustive search ran out of work (:meth:`Solver._portfolio`)."""


class Solver:
    """Exact fillability of connected sets of empty points on one grid, with a memo."""

    def __init__(self, grid: Grid, memo_limit: int = 200_000) -> None:
        self.grid = grid
        # Values are the core of an NDE area (an int) or a witness packed into a str (Witness.pack): the
        # cycle collector never walks the memo (see cache.UntrackedCache).
        self.memo = UntrackedCache(memo_limit)
        self.stats = SolverStats()
        # Work left to the budgeted search under way (None: none is) and its turn (its order).
        self._budget: int | None = None
        self._turn = 0
        # Rounds of clothing points the constructions may promote (none inside a grown window).
        self._promotions = PROMOTIONS
        # Whether the exhaustive search first looks for a safe placement anywhere in its area, not only
        # in its own order (inside a grown window only: see _portfolio).
        self._safe_moves = False
        # Learned cores under each stone around them (key 2 * point + 1 for a blue stone), oldest first:
        # core -> the red stones around it | the blue ones shifted by the grid's size (see _learned).
        # Only ints, so the collector never walks them either.
        self.cores: dict[int, dict[int, int]] = {}

    def key(self, area: int, red: int, blue: int, jokers: int = 0) -> int:
        """The memo key: the area and what lies in its ring of neighbours (nothing else matters), as
        one int: the four masks side by side."""
        s = self.grid.size
        ring = self.grid.dilate8(area) & ~area
        return area | (red & ring) << s | (blue & ring) << 2 * s | (jokers & ring) << 3 * s

    def witness(self, area: int, red: int, blue: int, jokers: int = 0, hint: int = -1,
                nde_likely: bool = False) -> Witness | None:
        """A clean filling of the connected empty set ``area``, or ``None`` when it is NDE.

        ``hint`` is a point near which an obstruction is likely (the last placement), used only to
        choose where to look first; ``nde_likely`` says that an NDE answer is likely (a restarted
        search of ``area`` then tries the grown window before its first turn). Neither changes the
        answer.
        """
        found = self.decide(area, red, blue, jokers, hint, nde_likely)
        return None if isinstance(found, int) else found

    def witness_steps(self, area: int, red: int, blue: int, jokers: int = 0, hint: int = -1,
                      nde_likely: bool = False) -> Steps[Witness | None]:
        """:meth:`witness` in pieces (:meth:`decide_steps`)."""
        found = yield from self.decide_steps(area, red, blue, jokers, hint, nde_likely)
        return None if isinstance(found, int) else found

    def decide(self, area: int, red: int, blue: int, jokers: int = 0, hint: int = -1,
               nde_likely: bool = False) -> Witness | int:
        """A clean filling of the connected empty set ``area``, or a *core* of it when it is NDE.

        A core is a non-empty subset ``K`` of ``area`` that no clean sequence can fill even when every
        point around it that is not a stone is a joker: so every area that contains ``K`` with the
        same stones around it is NDE, whatever else it holds (see :meth:`_search`). ``hint`` and
        ``nde_likely`` are as for :meth:`witness`.
        """
        return finish(self.decide_steps(area, red, blue, jokers, hint, nde_likely))

    def decide_steps(self, area: int, red: int, blue: int, jokers: int = 0, hint: int = -1,
                     nde_likely: bool = False) -> Steps[Witness | int]:
        """:meth:`decide` in pieces (:data:`unitile_py.mcts.Steps`): a pause between the turns of the
        restarted search (:meth:`_portfolio`), where the solver holds no budget; a computation
        abandoned there leaves only finished answers in the memo."""
        st = self.stats
        st.calls += 1
        key = self.key(area, red, blue, jokers)
        known = self.memo.get(key)
        if known is not None:
            st.memo_hits += 1
            return known if isinstance(known, int) else Witness.unpack(known)
        result: Witness | int = self._learned(area, red, blue, hint)
        if not result:
            result = yield from self._solve(area, red, blue, jokers, hint, nde_likely)
            if isinstance(result, int):
                self._learn(result, red, blue)
        self.memo.put(key, result if isinstance(result, int) else result.pack())
        return result

    def decide_within(self, work: int, area: int, red: int, blue: int, jokers: int = 0,
                      hint: int = -1) -> tuple[Witness | int | None, int]:
        """:meth:`decide` within ``work`` units of the budgeted search (each area it decides costs
        1 + a tenth of its points, as in :meth:`_portfolio`), and the units spent; the answer is
        ``None`` when they run out: exact or none, and nothing unfinished is memoised. Not for use
        inside a budgeted search."""
        if self._budget is not None:
            raise RuntimeError("decide_within inside a budgeted search")
        self._budget, self._turn = work, 0
        found: Witness | int | None = None
        try:
            found = self.decide(area, red, blue, jokers, hint)
        except _OutOfBudget:
            pass
        finally:
            left, self._budget = self._budget, None
        return found, work - max(left or 0, 0)

    def _learned(self, area: int, red: int, blue: int, hint: int) -> int:
        """A learned core inside ``area`` whose stones around it are all in place, or 0.

        Only cores with a stone on ``hint`` (the last placement) are looked at: one that does not need
        that stone fitted the area before it was placed, where the search would have met it first.
        """
        if hint < 0 or not (red | blue) >> hint & 1:
            return 0
        found = self.cores.get(2 * hint + (blue >> hint & 1))
        if found is None:
            return 0
        stones = red | blue << self.grid.size
        for core, near in reversed(found.items()):
            if not (core & ~area or near & ~stones):
                self.stats.learned += 1
                return core
        return 0

    def _learn(self, core: int, red: int, blue: int) -> None:
        """Store ``core`` under each stone around it (see :meth:`_learned`)."""
        g = self.grid
        ring = g.dilate8(core) & ~core
        near_red, near_blue = red & ring, blue & ring
        near = near_red | near_blue << g.size
        for colour, stones in enumerate((near_red, near_blue)):
            for q in g.bits(stones):
                slot = self.cores.setdefault(2 * q + colour, {})
                slot.pop(core, None)  # (stored again as the newest)
                slot[core] = near
                if len(slot) > CORE_SLOTS:
                    del slot[next(iter(slot))]

    def _solve(self, area: int, red: int, blue: int, jokers: int, hint: int,
               nde_likely: bool = False) -> Steps[Witness | int]:
        g = self.grid
        st = self.stats
        size = area.bit_count()
        st.sizes[size] = st.sizes.get(size, 0) + 1
        if self._budget is not None:  # inside a budgeted search: charge the work this area costs
            self._budget -= 1 + size // 10
            if self._budget < 0:
                raise _OutOfBudget
        both = dead(g, red, blue, area) & dead(g, blue, red, area)
        if both:  # (only on a board that already has a naked diagonal: see Solver)
            st.dead += 1
            return both & -both  # a dead point is a core on its own: its blocking stones stay
        if hint >= 0:
            core = self._relaxation_core(area, red, blue, jokers, [hint], RELAX_RADII[:1])
            if core:
                st.relaxed += 1
                return core
        stuck: list[int] = []
        if size > SEARCH_FIRST:
            for w in constructions(g, red, blue, area, jokers, stuck, self._promotions):
                if replay(g, red, blue, w, jokers):
                    st.lattice += 1
                    return w
        # An obstruction that makes the area NDE is likely near the last placement; one that only
        # defeats the constructions is where they got stuck: the proofs look near the first, the
        # search places near the second first.
        near = [hint, *stuck] if hint >= 0 else stuck
        core = self._relaxation_core(area, red, blue, jokers, near, RELAX_RADII)
        if core:
            st.relaxed += 1
            return core
        st.searched += 1
        if self._budget is not None:  # inside a budgeted search: its order
            found = self._search(area, red, blue, jokers, _near(hint, stuck, self._turn))
        else:
            found = yield from self._portfolio(area, red, blue, jokers, hint, stuck, nde_likely)
        if isinstance(found, int):
            st.searched_nde += 1
        return found

    def _portfolio(self, area: int, red: int, blue: int, jokers: int, hint: int, stuck: list[int],
                   nde_likely: bool) -> Steps[Witness | int]:
        """The exhaustive search restarted in other orders under growing budgets (see :func:`_near`).

        Every order is exact, but each can be exponentially slower than another on some area: on one
        104-point area of a 13 x 13 position the costs of 16 orders ranged from 556 to more than
        12,000 units. A turn that runs out of budget stores nothing in the memo (only finished calls
        do), so the answer is exact, and the budgets double every :data:`ORDERS` turns, so the cost
        is a small multiple of the fastest order's.
        """
        # Where the grown window starts: the last placement; without one (a region tested on its own,
        # not after a placement) each point the constructions got stuck on in turn, most-stuck first,
        # one between each two turns (an NDE region loaded from a record or explained as a whole).
        seeds = [hint] if hint >= 0 else _most_stuck(stuck)
        seeds.reverse()  # (popped from the end)
        turn = -1 if hint >= 0 and nde_likely else 0  # (turn -1: the grown window only)
        while True:
            budget = SEARCH_BUDGET << (max(turn, 0) // ORDERS)
            if turn >= 0:
                self._budget, self._turn = budget, turn
                try:
                    return self._search(area, red, blue, jokers, _near(hint, stuck, turn))
                except _OutOfBudget:
                    self.stats.restarts += 1
                finally:
                    self._budget = None
            if seeds:
                # Between turns the grown window gets GROW_SHARE times the turn's budget (an exhaustive
                # search cannot stop early on an NDE area, and the window's proof can be far cheaper);
                # what it decided stays in the memo, so the next try picks up where this one ran out.
                # Most areas inside a grown window are NDE, where promoting clothing points rarely
                # rescues a construction and where looking for a safe first placement anywhere saves
                # refuting all the others. Outside grown windows that lookup costs more than it saves,
                # most areas there being fillable: the first safe point in reading order is not where
                # the search would start, and each level below it runs the constructions and
                # relaxations again (measured: docs/naked-diagonal.md, "The search's constants").
                self._budget, self._turn = GROW_SHARE * budget, 0
                self._promotions, self._safe_moves = 0, True
                try:
                    core = self._grown_core(area, red, blue, jokers, seeds[-1])
                    seeds.pop()
                except _OutOfBudget:
                    core = 0
                finally:
                    self._budget, self._promotions, self._safe_moves = None, PROMOTIONS, False
                if core:
                    self.stats.relaxed += 1
                    return core
            turn += 1
            yield  # (between turns: no budget held, a pause for a stepped request)

    def proves_nde(self, area: int, red: int, blue: int, hint: int) -> bool:
        """True when a dead point or a small window around ``hint`` shows ``area`` NDE (no search).

        ``False`` only means no such quick proof was found.
        """
        known = self.memo.get(self.key(area, red, blue))
        if known is not None:
            return isinstance(known, int)
        g = self.grid
        if dead(g, red, blue, area) & dead(g, blue, red, area):
            return True
        return bool(self._relaxation_core(area, red, blue, 0, [hint], RELAX_RADII[:1]))

    def _relaxation_core(self, area: int, red: int, blue: int, jokers: int, centres: list[int],
                         radii: tuple[int, ...]) -> int:
        """The core of a window around one of ``centres`` that cannot be filled even with jokers
        around it (so neither can ``area``), or 0 when there is none."""
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
                    found = self.decide(part, red, blue, outside & ~part)
                    if isinstance(found, int):
                        return found
        return 0

    def _grown_core(self, area: int, red: int, blue: int, jokers: int, hint: int) -> int:
        """The core of a window grown from around ``hint`` one point at a time, or 0 (no proof).

        Each round fills the window's parts with the rest of ``area`` as jokers; when one cannot be
        filled, its core is one of ``area``. Otherwise the fillings lean on some jokers to clothe a
        diagonal (or on none: then the window's border is next), and the one of those points nearest
        to ``hint`` joins the window: where jokers keep a window fillable is where the obstruction
        lies. Stops at :data:`GROW_LIMIT` points (how much faster than a box proof this finds a window:
        docs/naked-diagonal.md, "The search's constants").
        """
        g = self.grid
        window = g.box(hint, 1) & area
        while window != area and window.bit_count() <= GROW_LIMIT:
            leaned = 0
            outside = area & ~window
            for part in g.components(window):
                found = self.decide(part, red, blue, (outside | window | jokers) & ~part)
                if isinstance(found, int):
                    return found
                leaned |= _leaned_on(g, red, blue, found, outside)
            if not leaned:
                leaned = g.dilate4(window) & outside
            window |= 1 << min(g.bits(leaned), key=lambda q: (g.distance(q, hint), q))
        return 0

    def _search(self, area: int, red: int, blue: int, jokers: int, near: list[int]) -> Witness | int:
        """Exhaustive: some clean first placement whose remaining parts are all fillable, else a core.

        A *safe* first placement (:func:`_safe_first`) is the only one tried once the order reaches
        it (inside a grown window, the first one in reading order before anything else): if any
        clean filling exists, one starts with it. Otherwise every first placement ``(p, X)`` is
        refuted by a set of points: the empty shared points of a diagonal that ``X`` on ``p`` would
        leave naked, or the core of a part left after it. When a core does not touch ``p``
        (``p`` is not among its neighbours), the stone on ``p`` played no part in it and it is a core
        of ``area`` too: the search stops there (a backjump). Otherwise the core of ``area`` is the
        closure of the refutations (:func:`_closure`).
        """
        g = self.grid
        safe = _safe_first(g, area, red, blue, jokers) if self._safe_moves else None
        if safe is not None:
            self.stats.safe += 1
            p, is_red = safe
            # A core of a part left after it is one of ``area``: with a joker on ``p`` instead of the
            # stone, only diagonals of the other colour through ``p`` would gain clothing, and those
            # are clothed already or cannot form (see _safe_first).
            return self._first(area, red, blue, jokers, p, is_red)
        refuted: dict[int, int] = {}
        for p in self._move_order(area, near):
            bit = 1 << p
            why = bit
            clean: list[bool] = []
            for is_red in (True, False):
                status = _status(g, area, red if is_red else blue, jokers, p)
                if status > 0:  # the shared points of the diagonal it would leave naked
                    why |= status & area
                elif status == SAFE:  # (the other first placements need no refutation: _safe_first)
                    self.stats.safe += 1
                    return self._first(area, red, blue, jokers, p, is_red)
                else:
                    clean.append(is_red)
            for is_red in clean:
                found = self._first(area, red, blue, jokers, p, is_red)
                if not isinstance(found, int):
                    return found
                if not g.dilate8(found) & bit:
                    self.stats.backjumps += 1
                    return found
                why |= found
            refuted[p] = why
        return _closure(refuted)

    def _first(self, area: int, red: int, blue: int, jokers: int, p: int, is_red: bool) -> Witness | int:
        """A clean filling of ``area`` that starts with the clean placement ``(p, X)``, or the core of
        the first part left after it that cannot be filled."""
        g = self.grid
        bit = 1 << p
        r2, b2 = (red | bit, blue) if is_red else (red, blue | bit)
        order = [p]
        wred = bit if is_red else 0
        for part in g.components(area & ~bit):
            w = self.decide(part, r2, b2, jokers, p)
            if isinstance(w, int):
                return w
            order.extend(w.order)
            wred |= w.red
        return Witness(tuple(order), wred)

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


def _safe_first(grid: Grid, area: int, red: int, blue: int, jokers: int) -> tuple[int, bool] | None:
    """A clean placement ``(p, is_red)`` in ``area`` that some clean filling starts with, if any does.

    A placement is *safe* (:func:`_status`) when it is clean and every diagonal it makes with a point of
    ``area`` is clothed already. Take any clean filling; give ``p`` the safe colour ``X`` and move it
    to the front. ``p`` is clean there, and so is every placement after it:

    - one of ``X`` diagonal to ``p`` is clothed already;
    - a diagonal of the other colour ``Y`` between two points ``a``, ``c`` next to ``p`` loses ``p``
      as a clothing point, but then its other shared point ``d`` (diagonal to ``p``) holds ``Y`` or a
      joker: were ``d`` empty it would lie in ``area`` (next to ``a`` and ``c``, one of which is still
      empty), and were it empty or ``X``, the safe ``p`` would need an ``X`` stone or a joker on ``a``
      or ``c``, where no ``Y`` diagonal forms;
    - every other placement sees ``p`` earlier, or ``X`` instead of ``Y``: that only clothes ``X``
      diagonals or takes away ``Y`` ones.

    So the search need try nothing else first.
    """
    for p in grid.bits(area):
        if _status(grid, area, red, jokers, p) == SAFE:
            return p, True
        if _status(grid, area, blue, jokers, p) == SAFE:
            return p, False
    return None


def _status(grid: Grid, area: int, own: int, jokers: int, p: int) -> int:
    """How a stone of the colour whose stones are ``own`` on ``p`` stands: the two shared points of a
    diagonal it would leave naked (a mask, so positive), :data:`SAFE` when it forms none and every
    diagonal it makes with a point of ``area`` has a stone of that colour or a joker next to both
    (:func:`_safe_first`), else 0."""
    clothes = own | jokers
    status = SAFE
    for qbit, shared in grid.diag_bits[p]:
        if not clothes & shared:
            if own & qbit:
                return shared
            if area & qbit:
                status = 0
    return status


def _leaned_on(grid: Grid, red: int, blue: int, witness: Witness, jokers: int) -> int:
    """The points of ``jokers`` that clothe a diagonal of ``witness`` that nothing else clothes."""
    diag_bits = grid.diag_bits
    leaned = 0
    for p in witness.order:
        bit = 1 << p
        is_red = witness.red & bit
        own = red if is_red else blue
        for qbit, shared in diag_bits[p]:
            if own & qbit and not own & shared:
                leaned |= shared & jokers
        if is_red:
            red |= bit
        else:
            blue |= bit
    return leaned


def _closure(refuted: dict[int, int]) -> int:
    """The smallest core that the refutations of an exhaustive search give, over every seed.

    ``refuted[p]`` holds ``p`` and the points that refute both colours on it. A set ``K`` that holds,
    for each of its points, that point's refutations is a core: in ``K`` with jokers around it, every
    first placement is refuted by the same points (they all lie in ``K``, and the stones that made
    them are still there). Such a set grows from any seed by adding refutations until it stops.
    """
    best = 0
    for seed in refuted.values():
        core, todo = 0, seed
        while todo:
            core |= todo
            grown = 0
            while todo:
                low = todo & -todo
                todo ^= low
                grown |= refuted[low.bit_length() - 1]
            todo = grown & ~core
            if best and core.bit_count() >= best.bit_count():
                break
        else:
            if not best or core.bit_count() < best.bit_count():
                best = core
    return best

