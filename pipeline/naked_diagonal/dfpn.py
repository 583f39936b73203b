"""Depth-first proof-number search (df-pn) of "does the side to move win", run as one numba loop.

The method (docs/naked-diagonal-solve.md, "df-pn"): every node has a proof number ``pn`` (how many
leaves must still be proven to show the side to move wins) and a disproof number ``dn``. In the negamax
form a node's ``pn`` is the smallest ``dn`` of its children and its ``dn`` the sum of their ``pn``
(a child's values are for the opponent, who moves there). :func:`search` descends from the root to the
child of smallest ``dn`` with thresholds, as Nagai's df-pn does, and comes back up only when a node's
numbers cross its thresholds, so the tree is never held in memory: the numbers live in a transposition
table keyed by :func:`.moves.canonical_pair` (the eight symmetries share entries).

* **Exact.** A node is proven (``pn`` 0) only when a legal placement wins at once or a child's ``dn`` is
  0, and disproven (``dn`` 0) only when every child's ``pn`` is 0 or it has no placement; unexpanded
  children start at 1 or more unless the table or a threat test (below) proves them, and sums are
  capped below :data:`INF`, so a 0 or :data:`INF` comes from a proof alone. Lost table entries, capped
  sums and the overcounting of sums over transpositions (the game is a DAG: stones are only added, no
  position repeats, so there is no graph-history problem) change only how fast a proof is found, never
  what it proves.
* **Starting numbers** of a child not in the table: from the path lengths of :func:`.moves.path_length`
  (``init`` 2, the default: ``pn`` the square of its side to move's, ``dn`` of the side that moved; 0:
  1 and 1), the ``dn`` then multiplied by ``mobility / 16`` times the child's empty points (at least 1;
  ``mobility`` 0 leaves it alone). A child's ``dn`` is a sum over its placements once it is expanded,
  so without that factor most expansions end at once above their thresholds. Heuristic only, and never 0.
* **Threat lookahead** (``deep``, only with ``threats``): before a child gets starting numbers it is
  tested with :func:`.moves.loses_to_threat` (``deep`` 1 and up: its side to move cannot stop the other side's
  winning placement, a proven loss) and :func:`.moves.wins_by_threat` (``deep`` 2: a placement after
  which the opponent cannot stop a threat of two or more winning points; 3: of one or more) and
  :func:`.moves.loses_in_four` (``deep`` 4, the default, only when the other side's path length is 2 or
  less: after every placement of its side to move the other side wins at once or by such a threat).
  Each is a complete search of its few placements with :func:`.moves.wins_at_once` at the leaves,
  exactly what expanding the child and its children would prove, so a hit is a proof, stored in the
  table as one; a miss proves nothing and the child gets starting numbers. It costs CPU, not nodes.
  ``lazy`` (bits of :func:`_tested`'s tests, none by default) puts the tests it names off until the
  search is about to enter the child: a hit then proves it without a node, a miss lets the search enter
  it; fewer children are tested, and the parent sees a proof only once it picks that child.
  The answers of :func:`.moves.loses_to_threat`, the inner test of the others, of
  :func:`.moves.wins_by_threat` and of :func:`.moves.loses_in_four` are kept in a direct-mapped cache
  (``cache_slots``, 0 none) keyed by the exact position: transpositions ask for the same positions
  again, and a deterministic answer read back is the answer.
* **Weak sums** (``weak``, off by default: it took more nodes, docs/naked-diagonal-solve.md): a node's
  ``dn`` is the largest ``pn`` of its unproven children plus their number less one (weak proof-number
  search, Ueda et al. 2008), which does not count a transposition twice; the chosen child's ``pn``
  threshold is then the node's ``dn`` threshold less that number plus one. Numbers only: 0 and
  :data:`INF` stay proofs.
* **1 + epsilon** (Pawlewicz and Hayward): the chosen child's ``dn`` threshold is
  ``ceil(second smallest dn * (1 + epsilon))`` instead of ``+ 1``, so the search stays longer in one
  subtree before switching.
* **Moves** come from :func:`.moves.ordered_children`, as in the alpha-beta of :mod:`.proof`: a placement
  that wins at once proves the node without any child; ties of ``dn`` go to the first child in the
  connection heuristic's order.
* **Table**: ``WAYS`` slots per bucket; a new entry takes a free slot of its bucket or the one whose
  search cost the fewest nodes (``work``).
* **Budget**: a call expands at most ``budget`` nodes and answers None when they run out; the table is
  kept, so a later call continues from what it holds.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .geometry import GeoArgs, Geometry
from .kernels import INLINE, JIT, MEMO_LIMIT, legal_points, memo_for, popcount, winner_bits
from .moves import (
    BLUE,
    COLUMNS,
    MOVER_PATH,
    NEXT_PATH,
    POINT,
    RED,
    TURN,
    canonical_pair,
    children_of,
    loses_in_four_cached,
    loses_to_threat_cached,
    ordered_children,
    wins_at_once,
    wins_by_threat_cached,
)

#: A proof number meaning "proven" for the other side (a disproof's ``pn``, a proof's ``dn``).
INF = (1 << 31) - 1
#: Largest unproven number: sums are capped here, so :data:`INF` comes from proofs alone.
LARGE = INF - 1
#: Slots per bucket of the transposition table.
WAYS = 4
#: Bytes of a table slot (:class:`Tables`: three int64 keys, three int32 numbers).
SLOT_BYTES = 36
#: Table slots by default (576 MiB on 5 x 5 and up, 9 MiB below).
TABLE_SLOTS = 1 << 24
#: Multipliers of the table's hash (odd 64-bit constants as signed numbers; numba's products wrap).
MIX_HIGH = 0x9E3779B97F4A7C15 - (1 << 64)
MIX_LOW = 0xC2B2AE3D27D4EB4F - (1 << 64)
#: epsilon of the 1 + epsilon trick as a fraction (numerator, denominator).
EPSILON = (1, 4)
#: Default factor of a child's starting ``dn``: ``MOBILITY / 16`` times its empty points.
MOBILITY = 16
#: Default threat lookahead of a child (0 none, 1 :func:`.moves.loses_to_threat`, 2 and 3 also
#: :func:`.moves.wins_by_threat` with threats of two or more and of one or more winning points, 4 also
#: :func:`.moves.loses_in_four`).
DEEP = 4
#: The threat tests of a new child (:func:`_tested`), as bits.
AT_ONCE, BY_THREAT, TO_THREAT, IN_FOUR = 1, 2, 4, 8
ALL_TESTS = AT_ONCE | BY_THREAT | TO_THREAT | IN_FOUR
#: The tests put off until the search would enter the child (module docstring): none by default.
LAZY = 0
#: The threat tests by the names ``nd-prove --defer`` takes.
TEST_NAMES = {"at-once": AT_ONCE, "by-threat": BY_THREAT, "to-threat": TO_THREAT, "in-four": IN_FOUR}
#: Default slots of the cache of :func:`.moves.loses_to_threat`, :func:`.moves.wins_by_threat` and
#: :func:`.moves.loses_in_four` answers (48 bytes each).
CACHE_SLOTS = 1 << 20


class Tables:
    """The transposition table: ``keys[i] = (high + 1, low, legal + 1)`` of a canonical position (0 when
    free; ``legal`` the legal points of its side to move, 0 when not known), ``nums[i] = (pn, dn,
    work)``."""

    def __init__(self, slots: int) -> None:
        slots = 1 << max(4, (slots - 1).bit_length())
        self.keys = np.zeros((slots, 3), dtype=np.int64)
        self.nums = np.zeros((slots, 3), dtype=np.int32)

    @property
    def stored(self) -> int:
        """Entries in the table."""
        return int(np.count_nonzero(self.keys[:, 0]))

    @property
    def nbytes(self) -> int:
        """Bytes of the table's arrays."""
        return int(self.keys.nbytes + self.nums.nbytes)


@INLINE
def _bucket(keys: np.ndarray, high: int, low: int) -> int:
    h = (high * MIX_HIGH) ^ (low * MIX_LOW)
    return (h >> 24) & (keys.shape[0] - 1) & ~(WAYS - 1)


@JIT
def tt_find(keys: np.ndarray, high: int, low: int) -> int:
    """The slot holding position ``(high, low)`` (see :func:`.moves.canonical_pair`), -1 if none."""
    base = _bucket(keys, high, low)
    for i in range(WAYS):
        if keys[base + i, 0] == high + 1 and keys[base + i, 1] == low:
            return base + i
    return -1


@JIT
def tt_store(keys: np.ndarray, nums: np.ndarray, high: int, low: int, pn: int, dn: int, work: int,
             legal: int) -> None:
    """Store a position's numbers and ``legal + 1`` (0: not known): over its own entry, else in a free
    slot of its bucket, else over the entry of least work (a lost entry costs only a search again)."""
    base = _bucket(keys, high, low)
    at = -1
    for i in range(WAYS):
        if keys[base + i, 0] == high + 1 and keys[base + i, 1] == low:
            at = base + i
    if at < 0:
        least = INF + 1
        for i in range(WAYS):
            work = -1 if keys[base + i, 0] == 0 else nums[base + i, 2]
            if work < least:
                at, least = base + i, work
    keys[at, 0], keys[at, 1], keys[at, 2] = high + 1, low, legal
    nums[at, 0], nums[at, 1], nums[at, 2] = pn, dn, min(work, INF)


@JIT
def tt_load(keys: np.ndarray, nums: np.ndarray, rows: np.ndarray) -> None:
    """Store entries given as rows ``(high, low, pn, dn, work)`` (:meth:`DfpnSearch.proven_entries`), in
    order: rows sorted by increasing work keep the costliest where a bucket overflows."""
    for i in range(rows.shape[0]):
        tt_store(keys, nums, rows[i, 0], rows[i, 1], rows[i, 2], rows[i, 3], rows[i, 4], 0)


@INLINE
def _widen(x: int, num: int, den: int) -> int:
    """The 1 + epsilon threshold above ``x``: ``x + max(1, ceil(x * num / den))``, :data:`INF` past
    :data:`LARGE`."""
    if x >= LARGE:
        return INF
    return min(LARGE, x + max(1, (x * num + den - 1) // den))


@INLINE
def _leaf(path: int, init: int) -> int:
    """The starting number of an unexpanded child from a path length (:func:`.moves.path_length`):
    ``init`` 1 the length, 2 its square, 3 two to its power (the length taken between 1 and 20)."""
    x = max(1, min(path, 20))
    if init == 1:
        return x
    if init == 2:
        return x * x
    return 1 << (x - 1)


@INLINE
def _start(g: GeoArgs, kid: np.ndarray, init: int, mobility: int) -> tuple[int, int]:
    """Starting ``(pn, dn)`` of an unexpanded child row (see the module docstring)."""
    if init == 0:
        return 1, 1
    pn = _leaf(kid[NEXT_PATH], init)
    dn = _leaf(kid[MOVER_PATH], init)
    if mobility > 0:
        empties = g.size - popcount(kid[RED] | kid[BLUE])
        dn = min(LARGE, dn * max(1, (empties * mobility) >> 4))
    return pn, dn


@JIT
def _tested(g: GeoArgs, kid: np.ndarray, memo: Any, cache: np.ndarray, deep: int,
            tests: int) -> tuple[int, int]:
    """``(pn, dn)`` that the threat tests up to ``deep`` (module docstring) among ``tests`` prove of a new
    child row, or ``(-1, -1)`` when none does. ``tests`` is a sum of :data:`AT_ONCE`
    (:func:`.moves.wins_at_once`), :data:`BY_THREAT` (:func:`.moves.wins_by_threat`), :data:`TO_THREAT`
    (:func:`.moves.loses_to_threat`) and :data:`IN_FOUR` (:func:`.moves.loses_in_four`)."""
    r2, b2, t2 = kid[RED], kid[BLUE], kid[TURN]
    # A win at once needs a chain one empty point short (path length 1).
    if tests & AT_ONCE and kid[NEXT_PATH] <= 1 and wins_at_once(g, r2, b2, t2, memo):
        return 0, INF  # the opponent wins with its next placement
    if deep >= 2 and tests & BY_THREAT and kid[NEXT_PATH] <= 2 and wins_by_threat_cached(
            g, r2, b2, t2, memo, max(1, 4 - deep), cache):
        return 0, INF  # the opponent makes a threat we cannot stop
    if deep >= 1 and tests & TO_THREAT and kid[MOVER_PATH] == 1 and loses_to_threat_cached(
            g, r2, b2, t2, memo, cache):
        return INF, 0  # the opponent cannot stop our threat
    if deep >= 4 and tests & IN_FOUR and kid[MOVER_PATH] <= 2 and loses_in_four_cached(g, r2, b2, t2, memo,
                                                                                     cache):
        return INF, 0  # every reply lets us make a threat it cannot stop
    return -1, -1


@JIT
def search(g: GeoArgs, memo: Any, keys: np.ndarray, nums: np.ndarray, cache: np.ndarray, red: int, blue: int,
           turn: int, budget: int, eps_num: int, eps_den: int, init: int, threats: bool, weak: bool,
           mobility: int, deep: int, lazy: int) -> tuple[int, int, int]:
    """``(pn, dn, nodes)`` of the position for the side to move (``turn`` 0 Red, 1 Blue; no winner yet)
    after at most ``budget`` node expansions; ``pn`` 0 is a proven win, ``dn`` 0 a proven loss, and
    ``(-1, -1, nodes)`` means the budget ran out (see the module docstring).

    ``init``, ``mobility``: the starting numbers; ``threats``, ``deep``: the tests of a new child;
    ``weak``: weak sums (all in the module docstring).

    Recursive in principle, it runs on an explicit stack of frames, one per depth, each with its
    position, thresholds and children (rows of :func:`.moves.ordered_children`, their canonical pairs
    and numbers).
    """
    size = g.size
    depth = size + 2
    f_red = np.zeros(depth, dtype=np.int64)
    f_blue = np.zeros(depth, dtype=np.int64)
    f_turn = np.zeros(depth, dtype=np.int64)
    f_high = np.zeros(depth, dtype=np.int64)
    f_low = np.zeros(depth, dtype=np.int64)
    f_thpn = np.zeros(depth, dtype=np.int64)
    f_thdn = np.zeros(depth, dtype=np.int64)
    f_count = np.zeros(depth, dtype=np.int64)
    f_chosen = np.zeros(depth, dtype=np.int64)
    f_start = np.zeros(depth, dtype=np.int64)
    f_legal = np.zeros(depth, dtype=np.int64)
    kids = np.zeros((depth, size, COLUMNS), dtype=np.int64)
    k_high = np.zeros((depth, size), dtype=np.int64)
    k_low = np.zeros((depth, size), dtype=np.int64)
    k_pn = np.zeros((depth, size), dtype=np.int64)
    k_dn = np.zeros((depth, size), dtype=np.int64)
    k_new = np.zeros((depth, size), dtype=np.int64)
    score = np.zeros(size, dtype=np.int64)

    f_high[0], f_low[0] = canonical_pair(g, red, blue, turn)
    # Every frame holds the canonical image of its position, as its table entry does.
    f_red[0], f_blue[0], f_turn[0] = f_low[0], f_high[0] & g.full, f_high[0] >> size
    f_thpn[0], f_thdn[0] = INF, INF
    top = 0
    nodes = 0
    entering = True
    while True:
        d = top
        finished = False
        pn = dn = 0
        if entering:
            entering = False
            if nodes >= budget:
                return -1, -1, nodes
            nodes += 1
            f_start[d] = nodes
            if len(memo) > MEMO_LIMIT:
                memo.clear()
            at = tt_find(keys, f_high[d], f_low[d])
            if at >= 0 and keys[at, 2] > 0:
                mine = keys[at, 2] - 1
            else:
                mine = legal_points(g, f_red[d], f_blue[d], f_turn[d], memo)
            f_legal[d] = mine + 1
            point, count = children_of(g, f_red[d], f_blue[d], f_turn[d], mine, kids[d], score)
            f_count[d] = count
            if point >= 0:
                pn, dn, finished = 0, INF, True
            elif count == 0:
                pn, dn, finished = INF, 0, True  # no placement and no winner: never in play (fact 5)
            else:
                for j in range(count):
                    hi, lo = canonical_pair(g, kids[d, j, RED], kids[d, j, BLUE], kids[d, j, TURN])
                    k_high[d, j], k_low[d, j] = hi, lo
                    at = tt_find(keys, hi, lo)
                    k_new[d, j] = 0
                    if at >= 0:
                        k_pn[d, j], k_dn[d, j] = nums[at, 0], nums[at, 1]
                        continue
                    c_pn, c_dn = -1, -1
                    if threats:
                        c_pn, c_dn = _tested(g, kids[d, j], memo, cache, deep, ALL_TESTS & ~lazy)
                    if c_pn >= 0:
                        tt_store(keys, nums, hi, lo, c_pn, c_dn, 1, 0)
                        k_pn[d, j], k_dn[d, j] = c_pn, c_dn
                    else:
                        k_pn[d, j], k_dn[d, j] = _start(g, kids[d, j], init, mobility)
                        k_new[d, j] = 1 if threats and lazy else 0
        descend = False
        while not finished:
            count = f_count[d]
            pn, dn = INF, 0
            best = -1
            second = INF
            biggest = 0
            open_kids = 0
            for j in range(count):
                c_dn = k_dn[d, j]
                if c_dn < pn:
                    second = pn
                    pn, best = c_dn, j
                elif c_dn < second:
                    second = c_dn
                c_pn = k_pn[d, j]
                if c_pn > 0:
                    open_kids += 1
                    biggest = max(biggest, c_pn)
                dn = min(LARGE, dn + c_pn)
            if weak and open_kids > 0:
                dn = min(LARGE, biggest + open_kids - 1)
            if pn == 0:
                dn = INF
            elif pn == INF:
                dn = 0
            if pn >= f_thpn[d] or dn >= f_thdn[d]:
                finished = True
            elif k_new[d, best]:
                # The dear tests of a new child, put off until the search would enter it.
                k_new[d, best] = 0
                c_pn, c_dn = _tested(g, kids[d, best], memo, cache, deep, lazy)
                if c_pn >= 0:
                    tt_store(keys, nums, k_high[d, best], k_low[d, best], c_pn, c_dn, 1, 0)
                    k_pn[d, best], k_dn[d, best] = c_pn, c_dn
            else:
                descend = True
                break
        if descend:
            f_chosen[d] = best
            top = d + 1
            f_high[top], f_low[top] = k_high[d, best], k_low[d, best]
            f_red[top], f_blue[top], f_turn[top] = f_low[top], f_high[top] & g.full, f_high[top] >> size
            # Keep this node's dn below its threshold, and the child the best while its dn stays
            # under 1 + epsilon times the second best.
            th_dn = f_thdn[d]
            if th_dn >= INF:
                f_thpn[top] = INF
            elif weak:
                f_thpn[top] = min(LARGE, th_dn - open_kids + 1)
            else:
                f_thpn[top] = min(LARGE, th_dn - dn + k_pn[d, best])
            f_thdn[top] = min(f_thpn[d], _widen(second, eps_num, eps_den))
            entering = True
            continue
        # The frame is done: store it and return its numbers to the frame below.
        tt_store(keys, nums, f_high[d], f_low[d], pn, dn, nodes - f_start[d] + 1, f_legal[d])
        if d == 0:
            return pn, dn, nodes
        top = d - 1
        c = f_chosen[top]
        k_pn[top, c], k_dn[top, c] = pn, dn
        for j in range(f_count[top]):
            if j != c:
                at = tt_find(keys, k_high[top, j], k_low[top, j])
                if at >= 0:
                    k_pn[top, j], k_dn[top, j] = nums[at, 0], nums[at, 1]
                    k_new[top, j] = 0


def default_slots(n: int) -> int:
    """The table slots of :class:`DfpnSearch` on an n x n board unless told: the most proven entries one
    of its searches can hold, so the most a round of the proof store saves."""
    return TABLE_SLOTS if n >= 5 else 1 << 18


def table_slots(mib: int) -> int:
    """The most table slots (a power of two, at least 16) that fit in ``mib`` MiB."""
    fit = (mib << 20) // SLOT_BYTES
    return 1 << max(4, fit.bit_length() - 1)


class DfpnSearch:
    """Win or loss for the side to move by df-pn (see the module docstring), with a node budget.

    ``slots``: table slots (0: :data:`TABLE_SLOTS` on 5 x 5 and up); ``epsilon``: the 1 + epsilon
    trick's fraction (``(0, 1)`` for plain df-pn); ``init``: the starting numbers (:func:`_leaf`);
    ``threats``: a child whose side to move wins at once is a proof; ``weak``: weak sums; ``mobility``:
    the empty-point factor of starting ``dn`` (0 off); ``deep``: the threat lookahead (0 off);
    ``cache_slots``: the cache of the threat tests (0 none); ``lazy``: the tests put off until the search
    enters a child (:data:`LAZY`); see the module docstring.
    ``DfpnSearch(n, mobility=0, deep=0)`` is the search before these options.
    """

    def __init__(self, n: int, slots: int = 0, epsilon: tuple[int, int] = EPSILON,
                 init: int = 2, threats: bool = True, weak: bool = False,
                 mobility: int = MOBILITY, deep: int = DEEP, cache_slots: int = CACHE_SLOTS,
                 lazy: int = LAZY) -> None:
        self.n = n
        self.geo = Geometry.of(n)
        self.memo = memo_for(n)
        self.table = Tables(slots or default_slots(n))
        self.epsilon = epsilon
        self.init = init
        self.threats = threats
        self.weak = weak
        self.mobility = mobility
        self.deep = deep
        self.lazy = lazy
        self.cache = np.zeros((1 << (cache_slots - 1).bit_length() if cache_slots > 0 else 0, 6),
                              dtype=np.int64)
        #: Nodes expanded by every call so far, and by the last call.
        self.nodes = 0
        self.last_nodes = 0

    @property
    def stored(self) -> int:
        """Entries in the transposition table."""
        return self.table.stored

    def proven_entries(self) -> np.ndarray:
        """The table's proven entries (``pn`` or ``dn`` 0) as int64 rows ``(high, low, pn, dn, work)``:
        exact facts about canonical positions, valid in any search of the same board."""
        keys, nums = self.table.keys, self.table.nums
        at = np.flatnonzero((keys[:, 0] != 0) & ((nums[:, 0] == 0) | (nums[:, 1] == 0)))
        rows = np.empty((at.size, 5), dtype=np.int64)
        rows[:, 0] = keys[at, 0] - 1
        rows[:, 1] = keys[at, 1]
        rows[:, 2:] = nums[at]
        return rows

    def hint_entries(self, least_work: int) -> np.ndarray:
        """The table's unproven entries whose search took at least ``least_work`` nodes, as rows of
        :meth:`proven_entries`: hints for a later search, never a proof."""
        keys, nums = self.table.keys, self.table.nums
        unproven = (nums[:, 0] > 0) & (nums[:, 1] > 0) & (nums[:, 0] < INF) & (nums[:, 1] < INF)
        at = np.flatnonzero((keys[:, 0] != 0) & unproven & (nums[:, 2] >= max(1, least_work)))
        rows = np.empty((at.size, 5), dtype=np.int64)
        rows[:, 0] = keys[at, 0] - 1
        rows[:, 1] = keys[at, 1]
        rows[:, 2:] = nums[at]
        return rows

    def load_hints(self, rows: np.ndarray) -> None:
        """Put unproven entries (rows of :meth:`hint_entries`) into the table, before any proven entry is
        loaded (a hint never replaces a proof): their numbers only order the search."""
        rows = np.ascontiguousarray(rows, dtype=np.int64).reshape(-1, 5)
        if not ((rows[:, 2:4] > 0) & (rows[:, 2:4] < INF)).all():
            raise ValueError("a hint must be unproven (pn and dn between 1 and INF - 1)")
        tt_load(self.table.keys, self.table.nums, rows[np.argsort(rows[:, 4], kind="stable")])

    def load(self, rows: np.ndarray) -> None:
        """Put proven entries (rows of :meth:`proven_entries`, from any search of this board) into the
        table, the costliest last so that they stay where a bucket overflows."""
        rows = np.ascontiguousarray(rows, dtype=np.int64).reshape(-1, 5)
        proven = (rows[:, 2] == 0) & (rows[:, 3] == INF) | (rows[:, 2] == INF) & (rows[:, 3] == 0)
        if not proven.all():
            raise ValueError("only proven entries (pn 0 and dn INF, or pn INF and dn 0) can be loaded")
        tt_load(self.table.keys, self.table.nums, rows[np.argsort(rows[:, 4], kind="stable")])

    def known(self, red: int, blue: int, turn: int) -> bool | None:
        """The table's proven answer for a position (None when it holds none)."""
        if winner_bits(self.geo.args, red, blue):
            return False
        at = tt_find(self.table.keys, *canonical_pair(self.geo.args, red, blue, turn))
        if at < 0:
            return None
        pn, dn = int(self.table.nums[at, 0]), int(self.table.nums[at, 1])
        return True if pn == 0 else False if dn == 0 else None

    def prove(self, red: int, blue: int, turn: int, budget: int = 0) -> bool | None:
        """Whether the side to move (0 Red, 1 Blue) wins with perfect play; None when ``budget`` nodes
        (0: no limit) did not settle it. The table stays: a later call resumes from it."""
        self.last_nodes = 0
        if winner_bits(self.geo.args, red, blue):
            return False  # the opponent's last placement won
        known = self.known(red, blue, turn)
        if known is not None:
            return known
        limit = budget if budget > 0 else 1 << 62
        pn, dn, nodes = search(self.geo.args, self.memo, self.table.keys, self.table.nums, self.cache,
                               red, blue, turn, limit, *self.epsilon, self.init, self.threats,
                               self.weak, self.mobility, self.deep, self.lazy)
        self.nodes += nodes
        self.last_nodes = nodes
        return True if pn == 0 else False if dn == 0 else None

    def winning_move(self, red: int, blue: int, turn: int, budget: int = 0) -> int:
        """A placement that wins for the side to move, -1 if the position is not a win (or ``budget``
        nodes per child did not find one): a placement that wins at once, else the first child in the
        search order proven lost for the opponent (by the table, or searched again if its entry is gone)."""
        if self.prove(red, blue, turn, budget) is not True:
            return -1
        rows, count, point = self.children(red, blue, turn)
        if point >= 0:
            return point
        after = [(int(rows[j, RED]), int(rows[j, BLUE]), int(rows[j, TURN])) for j in range(count)]
        for j, (r2, b2, t2) in enumerate(after):
            if self.known(r2, b2, t2) is False:
                return int(rows[j, POINT])
        for j, (r2, b2, t2) in enumerate(after):
            if self.prove(r2, b2, t2, budget) is False:
                return int(rows[j, POINT])
        return -1

    def best_line(self, red: int, blue: int, turn: int, limit: int = 64) -> list[int]:
        """A line of play where the winner always plays :meth:`winning_move` and the loser its first
        placement in the search order; points in this position's orientation."""
        g = self.geo.args
        line: list[int] = []
        while not winner_bits(g, red, blue) and len(line) < limit:
            rows, count, point = self.children(red, blue, turn)
            if point < 0 and count == 0:
                break
            move = self.winning_move(red, blue, turn) if point < 0 else point
            if move < 0:
                move = int(rows[0, POINT])
            line.append(move)
            bit = 1 << move
            red, blue, turn = (red | bit, blue, 1) if turn == 0 else (red, blue | bit, 0)
        return line

    def children(self, red: int, blue: int, turn: int) -> tuple[np.ndarray, int, int]:
        """``(rows, count, winning point)`` of :func:`.moves.ordered_children` for a position."""
        rows = np.zeros((self.geo.size, COLUMNS), dtype=np.int64)
        score = np.zeros(self.geo.size, dtype=np.int64)
        point, count = ordered_children(self.geo.args, red, blue, turn, self.memo, rows, score)
        return rows, int(count), int(point)
