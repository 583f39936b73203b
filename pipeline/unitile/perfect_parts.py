"""Perfect play on the symmetry classes in tiers of T, by parts: what the ``perfect`` stage runs on the
workers.

Every legal slide that unites nothing lowers T (:mod:`pipeline.unitile.perfect`), so T orders the
classes as GamesmanOne's tier solver orders its tiers: the classes are cut into *bands* of T (quantiles
of T over the classes where neither colour is united, so the bands hold about as many classes each), and a
band is solved once every lower band is. A band's classes are split over the parts, and every part holds
only its own classes and the values of other parts' classes that its slides reach (its *halo*).

A part (:class:`PerfectPart`, a dask actor on a cluster) owns the blocks of :data:`BLOCK_IDS` class ids
``k`` with ``k % parts == index``: every bubble orbit and every range of T is spread over all parts, so
each band gives every part its share of the work. It reads its own rows of the class graph, and, by
coordinate selection (:func:`pipeline.arrays.take`, only the chunks that hold them), T, colour-swap
partner and united bits of the classes its slides reach. Per slide it keeps one code: the slide unites
red or blue, is not legal, or needs the value of a class (an index into its own values, or into its
halo).

A band is solved in *rounds*. In a round every part sweeps its band's unsolved classes in increasing T:
a class whose every legal slide reaches a known value (a lower band, an own class of the band already
swept, or a halo value received) gets its value; the others wait for the next round. Then every part
sends every other one the values it found that the other reads, with its counts of classes left and
solved; a part reads all of them before the next round (:meth:`PerfectPart.absorb`). The band is done
when no part has a class left; every round solves at least the band's unsolved class of lowest T (all
its slides reach lower T), so the rounds end. Children in the same band and another part are what
costs rounds: narrow bands keep them few (docs/cluster.md, "Perfect play in tiers").

On a cluster every part runs the band loop itself (:func:`run_bands`, messages part to part, none
through the client); parts in one process are driven round by round (:func:`drive_bands`). Each part
writes its own blocks of ``perfect/class_value`` (chunks of :data:`BLOCK_IDS`: no two parts share one).
The values are those of :func:`pipeline.unitile.perfect.class_values` for any number of parts and bands.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np

from ..arrays import open_array, take
from ..groups import Group
from ..usage import release_freed
from .bits import INLINE, JIT
from .cellpass import WIN, result_of, score
from .classes import ACTIVE_BIT, DEG_MASK, WEIGHT_SHIFT
from .partition import read_rows
from .peers import Peers
from .perfect import ACTIVE, MISSING, RED_WINS, SLIDES, STUCK, TIES

#: Class ids per block that a part owns (the inner chunks of ``graph/nbr`` divide it, and it is the chunk
#: of ``values/T_class``: a part reads whole chunks).
BLOCK_IDS = 1 << 18
#: Slide codes besides an index into a part's values: not legal (or no slide), unites red, unites blue.
SKIP, RED, BLUE = -1, -2, -3
#: While a part loads, ``FAR - id`` is the code of a slide to class ``id`` of another part; once every
#: group is loaded it becomes that class's index in the halo.
FAR = -4
#: Bins of the histogram of T from which the bands' edges are chosen.
BINS = 1 << 12
#: Own classes a part loads at a time (whole blocks): the temporaries of the gathers are one such group's,
#: beside the part's own arrays.
LOAD_ROWS = 1 << 21


def _groups(ranges: tuple[tuple[int, int], ...], rows: int) -> list[tuple[tuple[int, int], ...]]:
    """``ranges`` (whole blocks) in consecutive groups of at most ``rows`` ids (at least one range)."""
    out: list[tuple[tuple[int, int], ...]] = []
    group: list[tuple[int, int]] = []
    size = 0
    for lo, hi in ranges:
        if group and size + hi - lo > rows:
            out.append(tuple(group))
            group, size = [], 0
        group.append((lo, hi))
        size += hi - lo
    if group:
        out.append(tuple(group))
    return out


def own_ranges(n: int, parts: int, index: int, block: int = BLOCK_IDS) -> tuple[tuple[int, int], ...]:
    """The class ids ``[lo, hi)`` that part ``index`` of ``parts`` owns (blocks of ``block`` ids), in
    increasing order."""
    return tuple((lo, min(lo + block, n)) for lo in range(index * block, n, parts * block))


def owner_of(ids: np.ndarray, parts: int, block: int = BLOCK_IDS) -> np.ndarray:
    """The part owning each class id."""
    return (ids // block) % parts


def local_of(ids: np.ndarray, parts: int, block: int = BLOCK_IDS) -> np.ndarray:
    """Each class id's index among its owner's own classes."""
    return (ids // block) // parts * block + ids % block


def band_edges(histogram: np.ndarray, low: float, high: float, bands: int) -> np.ndarray:
    """Edges of at most ``bands`` bands of T holding about as many classes each, cut at edges of the
    histogram's bins over ``[low, high]``; the first is -inf and the last +inf (band ``b`` is
    ``edges[b] <= T < edges[b + 1]``)."""
    total = int(histogram.sum())
    cum = np.cumsum(histogram)
    cuts = np.searchsorted(cum, [total * b / bands for b in range(1, bands)], side="left")
    inner = np.unique(low + (cuts + 1) * (high - low) / histogram.shape[0])
    inner = inner[(inner > low) & (inner < high)]
    return np.concatenate([[-np.inf], inner, [np.inf]])


@JIT
def _sweep(
    rows: np.ndarray, code: np.ndarray, value: np.ndarray, known: np.ndarray, left: np.ndarray,
    solved: np.ndarray, counts: np.ndarray,
) -> tuple[int, int]:  # fmt: skip
    """One round over ``rows`` (own classes in increasing T): the value of every class whose legal slides
    all reach known values (into ``value``, marked in ``known``, listed in ``solved``); the others listed
    in ``left``. Returns how many of each. Counts :data:`STUCK` (no legal slide) and :data:`MISSING` (a
    slide to a class known to have no value)."""
    n_left = 0
    n_solved = 0
    for i in range(rows.shape[0]):
        c = rows[i]
        best = 0
        best_score = -2 * WIN
        ready = True
        for k in range(code.shape[1]):
            x = code[c, k]
            if x == SKIP:
                continue
            if x == RED:
                res = 1
            elif x == BLUE:
                res = -1
            elif not known[x]:
                ready = False
                break
            else:
                res = result_of(value[x])
                if res == 0:
                    counts[MISSING] += 1
                    continue
            s = score(res)
            if s > best_score:
                best_score = s
                best = res
        if not ready:
            left[n_left] = c
            n_left += 1
            continue
        counts[STUCK] += int(best == 0)
        value[c] = best
        known[c] = True
        solved[n_solved] = c
        n_solved += 1
    return n_left, n_solved


@JIT
def _children(nbr: np.ndarray, info: np.ndarray, active: np.ndarray) -> np.ndarray:
    """The classes that the slides of the active rows reach (not uniting red), row by row."""
    out = np.empty(nbr.shape[0] * nbr.shape[1], dtype=np.int64)
    at = 0
    for i in range(nbr.shape[0]):
        if not active[i]:
            continue
        for k in range(info[i] & DEG_MASK):
            if nbr[i, k] >= 0:
                out[at] = nbr[i, k]
                at += 1
    return out[:at]


@JIT
def _codes(
    nbr: np.ndarray, info: np.ndarray, active: np.ndarray, t: np.ndarray, partner: np.ndarray,
    united: np.ndarray, t_child: np.ndarray, parts: int, index: int, block: int, counts: np.ndarray,
    code: np.ndarray, reached: np.ndarray,
) -> None:  # fmt: skip
    """Every slide's code into ``code`` (:data:`SKIP`, :data:`RED`, :data:`BLUE`, the own index of the
    class whose value it needs, or ``FAR - id`` for class ``id`` of another part, whose bit it sets in
    ``reached``), with ``partner``, ``united`` and ``t_child`` given per slide of :func:`_children`.
    Counts :data:`SLIDES` and :data:`TIES`."""
    j = 0
    width = nbr.shape[1]
    one = np.uint64(1)
    for i in range(nbr.shape[0]):
        deg = info[i] & DEG_MASK if active[i] else 0
        counts[SLIDES] += deg
        for k in range(width):
            if k >= deg:
                code[i, k] = SKIP
                continue
            if nbr[i, k] < 0:
                code[i, k] = RED
                continue
            s = partner[j]
            drop = t_child[j] - t[i]
            j += 1
            if not united[j - 1] & ACTIVE_BIT:
                code[i, k] = BLUE
            elif drop < 0:
                if (s // block) % parts == index:
                    code[i, k] = (s // block) // parts * block + s % block
                else:
                    code[i, k] = FAR - s
                    reached[s >> 6] |= one << np.uint64(s & 63)
            else:
                counts[TIES] += drop == 0
                code[i, k] = SKIP


@INLINE
def _ones(x: np.uint64) -> int:
    """The set bits of a 64-bit word."""
    x = x - ((x >> np.uint64(1)) & np.uint64(0x5555555555555555))
    x = (x & np.uint64(0x3333333333333333)) + ((x >> np.uint64(2)) & np.uint64(0x3333333333333333))
    x = (x + (x >> np.uint64(4))) & np.uint64(0x0F0F0F0F0F0F0F0F)
    return int((x * np.uint64(0x0101010101010101)) >> np.uint64(56))


#: Words of the bitmap of reached classes per entry of its rank table (:func:`_halo_ranks`).
RANK_WORDS = 8


@JIT
def _halo_ranks(reached: np.ndarray, parts: int, block: int) -> tuple[np.ndarray, np.ndarray]:
    """The halo's order over the classes set in ``reached`` (one bit per class id): owner by owner, by id
    within an owner (the owner's own order). Returns, for every :data:`RANK_WORDS` words of ``reached``
    (a block holds whole such runs), how many halo classes come before the run's first bit, and where
    each owner's classes start in the halo (``parts + 1`` cuts)."""
    words = block // 64
    n_words = reached.shape[0]
    before = np.empty(-(-n_words // RANK_WORDS), dtype=np.int64)
    cuts = np.zeros(parts + 1, dtype=np.int64)
    total = 0
    for q in range(parts):
        cuts[q] = total
        for first in range(q * words, n_words, parts * words):
            for w in range(first, min(first + words, n_words)):
                if w % RANK_WORDS == 0:
                    before[w // RANK_WORDS] = total
                total += _ones(reached[w])
    cuts[parts] = total
    return before, cuts


@JIT
def _reached_of(reached: np.ndarray, owner: int, parts: int, block: int, out: np.ndarray) -> None:
    """The classes of part ``owner`` set in ``reached``, as that part's own indices (increasing), into
    ``out`` (as long as their count)."""
    words = block // 64
    n_words = reached.shape[0]
    j = 0
    one = np.uint64(1)
    for first in range(owner * words, n_words, parts * words):
        local = (first // words) // parts * block
        for w in range(first, min(first + words, n_words)):
            x = reached[w]
            while x != 0:
                out[j] = local + (w - first) * 64 + _ones((x & (~x + one)) - one)
                j += 1
                x &= x - one


@JIT
def _matches(req: np.ndarray, solved: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The entries of ``solved`` that are in ``req`` (both increasing), and where they are in ``req``:
    one walk through both, galloping over ``req``."""
    at = np.empty(solved.shape[0], dtype=np.int64)
    hits = np.empty(solved.shape[0], dtype=solved.dtype)
    n_hits = 0
    lo = 0
    n = req.shape[0]
    for x in solved:
        step = 1
        hi = lo
        while hi < n and req[hi] < x:
            lo = hi + 1
            hi = lo + step
            step *= 2
        hi = min(hi, n)
        while lo < hi:  # the first entry >= x lies in [lo, hi]
            mid = (lo + hi) // 2
            if req[mid] < x:
                lo = mid + 1
            else:
                hi = mid
        if lo < n and req[lo] == x:
            at[n_hits] = lo
            hits[n_hits] = x
            n_hits += 1
    return at[:n_hits], hits[:n_hits]


@JIT
def _sort_order(keys: np.ndarray, order: np.ndarray, spare: np.ndarray) -> None:
    """``order`` (distinct positions in ``keys``, int32 or int64: all of them, or some) rearranged so
    that ``keys[order]`` (uint64) increases, stable: an LSD radix sort, four passes of 16 bits, with
    ``spare`` (as long as ``order``) as its second buffer (a comparison sort of millions of T took
    several times as long). After the four passes the result is back in ``order``."""
    n = order.shape[0]
    counts = np.empty((1 << 16) + 1, dtype=np.int64)
    for shift in range(0, 64, 16):
        counts[:] = 0
        for i in range(n):
            counts[((keys[order[i]] >> shift) & 0xFFFF) + 1] += 1
        for d in range(1 << 16):
            counts[d + 1] += counts[d]
        for i in range(n):
            d = (keys[order[i]] >> shift) & 0xFFFF
            spare[counts[d]] = order[i]
            counts[d] += 1
        order, spare = spare, order


@JIT
def _positions(mask: np.ndarray, out: np.ndarray) -> None:
    """The positions of ``mask``'s true entries, in increasing order, into ``out`` (as long as their
    count, of any integer type: ``np.flatnonzero`` would make int64 ones first)."""
    j = 0
    for i in range(mask.shape[0]):
        if mask[i]:
            out[j] = i
            j += 1


@JIT
def _positions_weighed(weight_log: np.ndarray, active: np.ndarray, value: np.ndarray) -> tuple[int, int]:
    """The positions of the active classes (``2 ** weight_log`` each) and of those where red wins
    (``value > 0``), in one pass: whole-array temporaries here were 8 bytes a class several times over."""
    total = 0
    red = 0
    for i in range(active.shape[0]):
        if active[i]:
            w = 1 << int(weight_log[i])
            total += w
            if value[i] > 0:
                red += w
    return total, red


@JIT
def _place(code: np.ndarray, reached: np.ndarray, before: np.ndarray, offset: int) -> None:
    """Every code ``FAR - id`` of ``code`` becomes ``offset`` plus class ``id``'s index in the halo:
    the classes set in ``reached`` before it in the halo's order, counted from its run of words' entry
    of ``before`` (:func:`_halo_ranks`)."""
    flat = code.reshape(-1)
    one = np.uint64(1)
    for i in range(flat.shape[0]):
        x = flat[i]
        if x <= FAR:
            s = FAR - x
            w = s >> 6
            rank = before[w // RANK_WORDS] + _ones(reached[w] & ((one << np.uint64(s & 63)) - one))
            for v in range(w - w % RANK_WORDS, w):
                rank += _ones(reached[v])
            flat[i] = offset + rank


class PerfectPart(Peers):
    """One part of perfect play: its own classes' slide codes and values, and its halo."""

    DELIVERIES: ClassVar[tuple[str, ...]] = ("serve", "receive")

    def __init__(self, path: str, index: int, parts: int, n: int, block: int = BLOCK_IDS) -> None:
        """Part ``index`` of ``parts`` over the ``n`` classes of the store at ``path``, owning blocks of
        ``block`` class ids."""
        super().__init__(index)
        started = time.perf_counter()
        self.parts = parts
        self.block = block
        ranges = own_ranges(n, parts, index, block)
        info_arr, swap_arr = open_array(path, "graph/info"), open_array(path, "graph/swap")
        t_arr, nbr_arr = open_array(path, "values/T_class"), open_array(path, "graph/nbr")
        self.counts = np.zeros(6, dtype=np.int64)
        if block % (64 * RANK_WORDS):
            raise ValueError(f"perfect: blocks of {block} class ids; a block must be a multiple of "
                             f"{64 * RANK_WORDS} (whole runs of words of the halo's bitmap)")  # fmt: skip
        # The part's own arrays, filled a group of blocks at a time: the gathers' temporaries stay near
        # LOAD_ROWS classes', and nothing is joined (copied) at the end.
        m = self.size = sum(hi - lo for lo, hi in ranges)
        width = nbr_arr.shape[1]
        code = np.empty((m, width), dtype=np.int32 if n - FAR < 2**31 else np.int64)
        t = np.empty(m, dtype=np.float64)
        #: Neither colour united (the classes perfect play solves), and each one's weight (log2 positions).
        self.active = np.empty(m, dtype=bool)
        self.weight_log = np.empty(m, dtype=np.uint8)
        #: Other parts' classes that own slides reach, one bit per class id: the halo, until :meth:`ask`
        #: tells their owners (n / 8 bytes, and a rank table of n / 64 while the codes are placed; a list
        #: of them would be 8 bytes each, and a part reaches most classes of the others:
        #: docs/cluster.md, "One heap, pushes in pieces").
        self.reached = np.zeros(-(-n // 64), dtype=np.uint64)
        groups = _groups(ranges, LOAD_ROWS)
        base = 0
        for group in groups:
            nbr = read_rows(nbr_arr, group)
            info = read_rows(info_arr, group)
            end = base + info.shape[0]
            t[base:end] = read_rows(t_arr, group)
            swapped = take(info_arr, read_rows(swap_arr, group))
            active = self.active[base:end]
            active[:] = ((info & ACTIVE_BIT) != 0) & ((swapped & ACTIVE_BIT) != 0)
            self.weight_log[base:end] = (info >> WEIGHT_SHIFT) & 7
            child = _children(nbr, info, active)
            partner = take(swap_arr, child)
            united = take(info_arr, partner)
            t_child = take(t_arr, child)
            del child, swapped
            _codes(nbr, info, active, t[base:end], partner, united, t_child, parts, index, block, self.counts,
                   code[base:end], self.reached)  # fmt: skip
            del nbr, info, partner, united, t_child
            base = end
        # Slides to other parts' classes read the halo: grouped by owner, by id within an owner (the
        # owner's own order).
        before, cuts = _halo_ranks(self.reached, parts, block)
        _place(code, self.reached, before, m)
        del before
        release_freed()  # the groups' temporaries, before the order's sort
        self.code = code
        small = np.int32 if n < 2**31 else np.int64
        #: Values of other parts' classes this part reads.
        self.halo_size = int(cuts[-1])
        #: Where each owner's values go in the halo.
        self.recv = {q: slice(m + int(cuts[q]), m + int(cuts[q + 1]))
                     for q in range(parts) if cuts[q + 1] > cuts[q]}  # fmt: skip
        self.value = np.zeros(m + self.halo_size, dtype=np.int16)
        self.known = np.zeros(m + self.halo_size, dtype=bool)
        #: Own active classes in increasing T (positive floats order as their bits do), sorted by their T
        #: where it is: no copy of it in order.
        self.order = np.empty(int(np.count_nonzero(self.active)), dtype=small)
        _positions(self.active, self.order)
        _sort_order(t.view(np.uint64), self.order, np.empty_like(self.order))
        #: Own T, until the bands are cut (:meth:`set_bands`); read through :attr:`order` where sorted.
        self.t = t
        self.starts = np.zeros(2, dtype=np.int64)
        self.pending = self.order[:0]
        self.left = np.empty_like(self.order)
        self.solved = np.empty_like(self.order)
        #: Own classes each other part reads (own indices, increasing), by part.
        self.requests: dict[int, np.ndarray] = {}
        self.rounds = 0
        self.mine = (0, 0)
        self.inbox: dict[int, dict[int, tuple[np.ndarray, np.ndarray, int, int]]] = {}
        #: Wall seconds of loading, sweeping, sending and waiting for the others.
        self.seconds = {"load": time.perf_counter() - started, "sweep": 0.0, "send": 0.0, "wait": 0.0}

    # Bands -------------------------------------------------------------------------------------------

    def t_range(self) -> tuple[float, float]:
        """The lowest and highest T of own classes where neither colour is united."""
        if not self.order.shape[0]:
            return np.inf, -np.inf
        return float(self.t[self.order[0]]), float(self.t[self.order[-1]])

    def _sorted_t(self) -> Iterator[np.ndarray]:
        """T of own active classes in increasing order, one piece of :data:`LOAD_ROWS` at a time (a copy
        of it all would be 8 bytes a class beside the part)."""
        for a in range(0, self.order.shape[0], LOAD_ROWS):
            yield self.t[self.order[a : a + LOAD_ROWS]]

    def histogram(self, low: float, high: float) -> np.ndarray:
        """Own active classes' T counted in :data:`BINS` bins over ``[low, high]``."""
        counts = np.zeros(BINS, dtype=np.int64)
        for piece in self._sorted_t():
            counts += np.histogram(piece, bins=BINS, range=(low, high))[0]
        return counts

    def set_bands(self, edges: np.ndarray) -> None:
        """Cut own classes into the bands of ``edges`` (:func:`band_edges`): the classes below each edge
        counted piece by piece of their sorted T. Own T is not needed after this (:meth:`t_range` and
        :meth:`histogram` come before): it goes, 8 bytes a class."""
        starts = np.zeros(edges.shape[0], dtype=np.int64)
        for piece in self._sorted_t():
            starts += np.searchsorted(piece, edges, side="left")
        starts[-1] = self.order.shape[0]
        self.starts = starts
        self.t = self.t[:0].copy()

    def open_band(self, band: int) -> None:
        """Every own class of ``band`` waits for its value."""
        self.pending = self.order[self.starts[band] : self.starts[band + 1]]

    # Exchange ----------------------------------------------------------------------------------------

    def ask(self) -> None:
        """Tell every part which of its classes this one reads (their :meth:`serve`), in the halo's order;
        the bits of :attr:`reached` are not needed after that (messages say where in the halo their
        values go)."""
        calls = []
        for q, at in self.recv.items():
            ids = np.empty(at.stop - at.start, dtype=self.order.dtype)
            _reached_of(self.reached, q, self.parts, self.block, ids)
            calls.append((q, "serve", (self.index, ids)))
        self._send_all(calls)
        self.reached = np.zeros(0, dtype=np.uint64)

    def serve(self, reader: int, own: np.ndarray) -> None:
        """Remember which own classes (own indices, increasing) part ``reader`` reads."""
        self.requests[reader] = own.astype(self.order.dtype)

    def sweep(self) -> None:
        """One round: value every waiting class whose slides reach known values (:func:`_sweep`), then send
        every other part the new values it reads, with this part's counts of classes left and solved."""
        started = time.perf_counter()
        n_left, n_solved = _sweep(self.pending, self.code, self.value, self.known, self.left, self.solved,
                                  self.counts)  # fmt: skip
        swept = time.perf_counter()
        self.seconds["sweep"] += swept - started
        self.pending = self.left[:n_left].copy()
        # Sorted, so that the searches in each reader's list below walk it in order.
        solved = np.sort(self.solved[:n_solved])
        self.rounds += 1
        self.mine = (n_left, n_solved)
        calls = []
        for q in range(self.parts):
            if q == self.index:
                continue
            req = self.requests.get(q)
            at = np.zeros(0, dtype=np.int64)
            if req is not None and req.shape[0] and n_solved:
                at, solved_q = _matches(req, solved)
            else:
                solved_q = at
            message = (self.rounds, self.index, at, self.value[solved_q], n_left, n_solved)
            calls.append((q, "receive", message))
        self._send_all(calls, wait=False)
        self.seconds["send"] += time.perf_counter() - swept

    def receive(
        self, seq: int, owner: int, at: np.ndarray, values: np.ndarray, left: int, solved: int
    ) -> None:
        """Part ``owner``'s message of round ``seq``: its new values that this part reads (``at``: where in
        its share of this part's halo) and its counts."""
        with self.arrived:
            self.inbox.setdefault(seq, {})[owner] = (at, values, left, solved)
            self.arrived.notify_all()

    def absorb(self) -> tuple[int, int]:
        """Wait for every other part's message of this round, take their values into the halo; return the
        classes of the band left and solved in the round, over all parts."""
        seq = self.rounds
        started = time.perf_counter()
        self._wait(lambda: len(self.inbox.get(seq, ())) == self.parts - 1, f"the values of round {seq}")
        self.seconds["wait"] += time.perf_counter() - started
        with self.arrived:
            got = self.inbox.pop(seq, {})
        left, solved = self.mine
        for q, (at, values, q_left, q_solved) in got.items():
            if at.shape[0]:
                where = self.recv[q].start + at
                self.value[where] = values
                self.known[where] = True
            left += q_left
            solved += q_solved
        return left, solved

    # Results -----------------------------------------------------------------------------------------

    def write(self, path: str, n: int) -> dict[str, Any]:
        """Write own values into ``perfect/class_value``; return own counts (:data:`STUCK` ...), the
        longest distance and the rounds."""
        own = self.value[: self.size]
        arr = open_array(path, "perfect/class_value", mode="r+")
        at = 0
        for lo, hi in own_ranges(n, self.parts, self.index, self.block):
            arr[lo:hi] = own[at : at + hi - lo]
            at += hi - lo
        counts = self.counts.copy()
        counts[ACTIVE], counts[RED_WINS] = _positions_weighed(self.weight_log, self.active, own)
        return {"counts": counts.tolist(), "longest": int(np.abs(own).max(initial=0)), "rounds": self.rounds,
                "halo": self.halo_size, "own": self.size,
                "seconds": {k: round(v, 3) for k, v in self.seconds.items()}}  # fmt: skip


def run_bands(part: PerfectPart | _AllParts, bands: int) -> None:
    """Every band in turn, round after round until no part has a class of it left: the loop each part
    runs itself on a cluster (all run the same rounds, so their messages meet by round number), or the
    driver runs over all parts at once (:func:`drive_bands`)."""
    for band in range(bands):
        part.open_band(band)
        while True:
            part.sweep()
            left, solved = part.absorb()
            if not left:
                break
            if not solved:
                raise RuntimeError(f"perfect: {left} classes of band {band} wait for each other")


class _AllParts:
    """A group seen as one part: each step called on every part, the round's totals (every part has
    the same) from the first."""

    def __init__(self, group: Group) -> None:
        self.group = group

    def open_band(self, band: int) -> None:
        self.group.call("open_band", [(band,)] * self.group.size)

    def sweep(self) -> None:
        self.group.call("sweep")

    def absorb(self) -> tuple[int, int]:
        left, solved = self.group.call("absorb")[0]
        return int(left), int(solved)


def drive_bands(group: Group, bands: int) -> None:
    """:func:`run_bands` for parts in one process (or two sharing a worker): one call per step on every
    part, from here."""
    run_bands(_AllParts(group), bands)


@dataclass(frozen=True)
class Tiers:
    """How a run of perfect play went: parts, bands, rounds, and each part's own classes and halo."""

    parts: int
    bands: int
    rounds: int
    own: tuple[int, ...]
    halo: tuple[int, ...]
    peaks_gib: tuple[float, ...]
    driver: str
    #: Each part's wall seconds loading, sweeping, sending and waiting.
    seconds: tuple[dict[str, float], ...] = ()

    def record(self) -> dict[str, Any]:
        """The fields of the stage record."""
        return {"parts": self.parts, "bands": self.bands, "rounds": self.rounds, "own": list(self.own),
                "halo": list(self.halo), "part_peak_rss_gib": list(self.peaks_gib),
                "driver": self.driver, "part_seconds": list(self.seconds)}  # fmt: skip
