"""One part of the class graph and of the CG vectors on it: what a worker holds during the solve.

The solve works in *solve positions* (:mod:`pipeline.unitile.solve_order`): the classes of each half, O (below
``split``, see :mod:`pipeline.unitile.solver`) and E, ordered by locality key, then orbit, then rank. The
positions are cut into chunks of :data:`BLOCK` (chunk ``k`` is ``[k * BLOCK, (k + 1) * BLOCK)``; the
chunk that straddles ``split``, if any, holds positions of both halves). A :class:`PartPlan` gives a part
a set of whole chunks; :func:`plan_parts` deals each half out in runs of consecutive chunks, so part
``w`` holds the ``w``-th range of keys in both halves. A slide changes the key a little, so most
neighbours of a part's rows are its own classes (the halo each part reads per gather, by number of
parts: docs/cluster.md, "The solve's halo"). Because every part owns whole chunks:

* the reductions of the solve (per-chunk partial sums, added in chunk order by the driver) are the
  same for any number of parts, so the solve is bit for bit the same on 1 or 64 workers;
* parts write their rows of the solution and of the checkpoints (arrays in solve positions, chunked by
  :data:`BLOCK` when there are several parts) without ever sharing a chunk.

A :class:`Partition` holds the graph rows of its own classes with the neighbour ids renumbered into
*extended* vectors: its own values first (its chunks in order), then its *halo*, the values of
other parts' classes that its rows read, grouped by owner. After computing a vector that others read,
a part pushes those values straight into their halos (:meth:`Partition.push`: worker to worker on a
cluster, through dask actor calls). Driven from one process (:class:`pipeline.unitile.cg.GroupSteps`),
the driver holds only per-chunk scalars, and its rounds of calls are the barriers that make every halo
complete before it is read. On a cluster every part runs the iteration itself
(:class:`pipeline.unitile.cg.PeerSteps`): pushes carry a sequence number per vector and a reader waits
(:meth:`Partition.wait_halo`) until every owner has pushed as often as it has itself; the partial sums
of every reduction go to every part (:meth:`Partition.reduce`). No part can push a vector's next values
before every reader has read the current ones: between the two lies a reduction that needs every part's
partial sums, which each part sends only after that read. Memory per part: its rows (17 B per class of
graph, 8 B per class and vector: four on O, one on E) and its halo.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any, ClassVar

import numpy as np

from .. import cores
from ..arrays import Checked, open_array, take
from ..usage import release_freed
from .classes import ACTIVE_BIT
from .peers import Peers
from .solve_order import SolveOrder, SolveRows
from .solver import (
    BLOCK,
    gather_mean,
    gather_mean_split,
    odd_dot,
    residual_rows,
    square_sums,
    start_residual,
    tables,
    update_p,
    update_xs,
)

#: Vectors with a halo: on O, the search direction and the solution; on E, their images under P_EO.
O_VECTORS = ("p", "x")
E_VECTORS = ("t", "xe")
#: Vectors kept in another's storage: x_E is formed (for the true residual and the solution) only
#: between iterations, when t is free: every iteration writes t afresh before reading it.
SHARES = {"xe": "t"}
#: Where each vector's halo values land, and whose push buffers it uses: x's halo is read only at a
#: check of the true residual, between an iteration's last reduction and the next iteration's push of
#: p, when p's halo is free; x_E's is t's, as its own values are.
HALO_OF = {"p": "p", "x": "p", "t": "t", "xe": "t"}

Ranges = tuple[tuple[int, int], ...]
#: Rows per block when a part renumbers its neighbour ids.
ROWS = 1 << 16
#: Values per message of a push: a reader's share of a push goes in pieces of at most this many, so that
#: no message in flight is more than 8 MiB (docs/cluster.md, "One heap, pushes in pieces").
PIECE = 1 << 20
#: Iterations between two trims of the heap (:meth:`Partition.tidy`) in the CG loop.
TIDY_EVERY = 8


@dataclass(frozen=True)
class PartPlan:
    """The classes one part owns: the whole chunks ``chunks`` (increasing) of ``n`` classes, O below
    ``split``."""

    index: int
    chunks: tuple[int, ...]
    split: int
    n: int

    @cached_property
    def o_chunks(self) -> tuple[int, ...]:
        """Own chunks that hold O classes, in id order (the order of the partial sums)."""
        return tuple(k for k in self.chunks if k * BLOCK < self.split)

    @cached_property
    def o_ranges(self) -> Ranges:
        """Own O ids as maximal ``[lo, hi)`` runs."""
        return _runs((k * BLOCK, min((k + 1) * BLOCK, self.split)) for k in self.o_chunks)

    @cached_property
    def e_ranges(self) -> Ranges:
        """Own E ids as maximal ``[lo, hi)`` runs."""
        pieces = ((max(k * BLOCK, self.split), min((k + 1) * BLOCK, self.n)) for k in self.chunks)
        return _runs(p for p in pieces if p[0] < p[1])

    @property
    def own_o(self) -> int:
        """The number of own O classes."""
        return sum(hi - lo for lo, hi in self.o_ranges)

    @property
    def own_e(self) -> int:
        """The number of own E classes."""
        return sum(hi - lo for lo, hi in self.e_ranges)


def _runs(pieces: Iterable[tuple[int, int]]) -> Ranges:
    """Adjacent ``[lo, hi)`` pieces (in increasing order) merged."""
    out: list[tuple[int, int]] = []
    for lo, hi in pieces:
        if out and out[-1][1] == lo:
            out[-1] = (out[-1][0], hi)
        else:
            out.append((lo, hi))
    return tuple(out)


def chunk_starts(split: int, n: int) -> tuple[np.ndarray, np.ndarray]:
    """The first O class of every chunk holding O classes, and the first E class of every chunk
    holding E classes but no O class (the straddling chunk goes with its O half)."""
    o = np.arange(0, split, BLOCK, dtype=np.int64)
    first_e = -(-split // BLOCK)
    return o, np.arange(first_e * BLOCK, n, BLOCK, dtype=np.int64)


def plan_parts(split: int, n: int, parts: int) -> list[PartPlan]:
    """Deal the chunks of ``n`` solve positions (O below ``split``) to at most ``parts`` parts: each
    half cut into ``parts`` runs of consecutive chunks of equal length, part ``w`` taking the ``w``-th
    run of both (in the solve order, a range of locality keys). Fewer parts are planned when either half
    has fewer chunks than parts."""
    o_ids, e_ids = chunk_starts(split, n)
    parts = max(1, min(parts, o_ids.shape[0], max(e_ids.shape[0], 1)))
    dealt: list[list[int]] = [[] for _ in range(parts)]
    for ids in (o_ids, e_ids):
        m = ids.shape[0]
        for w in range(parts):
            dealt[w].extend(int(i) // BLOCK for i in ids[m * w // parts : m * (w + 1) // parts])
    return [PartPlan(w, tuple(sorted(ch)), split, n) for w, ch in enumerate(dealt)]


def owners(plans: Sequence[PartPlan]) -> np.ndarray:
    """The owning part of every chunk."""
    plan = plans[0]
    out = np.full(-(-plan.n // BLOCK), -1, dtype=np.int64)
    for p in plans:
        out[list(p.chunks)] = p.index
    return out


class _Index:
    """Global ids of one half to positions in a part's own vector of that half (its ranges in order)."""

    def __init__(self, ranges: Ranges) -> None:
        self.lo = np.array([lo for lo, _ in ranges], dtype=np.int64)
        self.hi = np.array([hi for _, hi in ranges], dtype=np.int64)
        self.base = np.concatenate([[0], np.cumsum(self.hi - self.lo)])[:-1].astype(np.int64)
        self.size = int((self.hi - self.lo).sum())

    def local(self, ids: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """``(own, position)``: whether each id is own, and its position in the own vector if so."""
        if not self.lo.shape[0]:
            return np.zeros(ids.shape, dtype=bool), np.full(ids.shape, -1, dtype=np.int64)
        if self.lo.shape[0] == 1:
            # One run (a part that owns the whole half): no search (docs/pipeline.md, "Measured choices").
            lo, hi = int(self.lo[0]), int(self.hi[0])
            own = (ids >= lo) & (ids < hi)
            return own, np.where(own, ids.astype(np.int64) - lo, -1)
        found = np.searchsorted(self.lo, ids, side="right") - 1
        at = np.maximum(found, 0)
        own = (found >= 0) & (ids < self.hi[at])
        return own, np.where(own, self.base[at] + ids - self.lo[at], -1)


def read_rows(
    arr: np.ndarray | Checked | SolveRows, ranges: Ranges, out: np.ndarray | None = None
) -> np.ndarray:
    """The rows of ``arr`` in ``ranges``, in order (into ``out`` if given, else a new array)."""
    if out is None:
        out = np.empty((sum(hi - lo for lo, hi in ranges), *arr.shape[1:]), dtype=arr.dtype)
    at = 0
    for lo, hi in ranges:
        out[at : at + hi - lo] = arr[lo:hi]
        at += hi - lo
    return out


class _Side:
    """Own rows of one half (O or E) and the halo of the other half that they read.

    Takes over ``nbr`` (its global ids become local indices in place); works through it in blocks of
    :data:`ROWS` rows, so the temporaries stay small beside the rows themselves. ``halo`` holds the
    global ids of the halo's values until the part has told their owners (:meth:`Partition.ask`);
    ``size`` and ``slices`` (each owner's ``[start, stop)`` in the halo) stay.
    """

    def __init__(self, nbr: np.ndarray, info: np.ndarray, other: _Index, owner: np.ndarray) -> None:
        self.info = info
        # Neighbour ids are in the other half: own ids there map to 0.., the halo after them, grouped
        # by owning part (``owner``: the part of every chunk), by id within a part.
        blocks = [nbr[a : a + ROWS] for a in range(0, nbr.shape[0], ROWS)]
        far_ids = [np.unique(blk[(blk >= 0) & ~other.local(blk)[0]]) for blk in blocks]
        ids = np.unique(np.concatenate(far_ids)) if far_ids else np.zeros(0, dtype=np.int64)
        by_owner = np.argsort(owner[ids // BLOCK], kind="stable")
        self.halo = ids[by_owner].astype(np.int64)
        self.size = self.halo.shape[0]
        parts, first, count = np.unique(owner[self.halo // BLOCK], return_index=True, return_counts=True)
        self.slices = {int(q): (int(a), int(a + c)) for q, a, c in zip(parts, first, count, strict=True)}
        slot = np.empty(ids.shape[0], dtype=np.int64)
        slot[by_owner] = np.arange(ids.shape[0])
        for blk in blocks:
            own, pos = other.local(blk)
            far = (blk >= 0) & ~own
            local = np.where(own, pos, -1)
            local[far] = other.size + slot[np.searchsorted(ids, blk[far])]
            blk[...] = local
        self.nbr = nbr


class Partition(Peers):
    """The rows, vectors and halo bookkeeping of one part (a dask actor on a cluster)."""

    def __init__(
        self,
        plan: PartPlan,
        plans: Sequence[PartPlan],
        nbr: np.ndarray | Checked | SolveRows,
        info: np.ndarray | Checked | SolveRows,
    ) -> None:
        """``nbr`` and ``info`` are the whole graph in solve positions (in memory, in the store, or
        either seen through a :class:`~pipeline.unitile.solve_order.SolveRows`); only own rows are read."""
        super().__init__(plan.index)
        self.plan = plan
        #: Every part's plan (a part running the iteration itself adds the partial sums in chunk order).
        self.plans = tuple(plans)
        o, e = plan.o_ranges, plan.e_ranges
        nbr_o, info_o = read_rows(nbr, o), read_rows(info, o)
        nbr_e, info_e = read_rows(nbr, e), read_rows(info, e)
        self.inv, self.omega = tables()
        split = plan.split
        if np.any((nbr_o >= 0) & (nbr_o < split)) or np.any(nbr_e >= split):
            raise ValueError("class graph is not bipartite at the split")
        self.o_index, self.e_index = _Index(plan.o_ranges), _Index(plan.e_ranges)
        owner = owners(plans)
        #: O rows read E values (own E values of this part, then the E halo), and the other way round.
        self.o = _Side(nbr_o, info_o, self.e_index, owner)
        self.e = _Side(nbr_e, info_e, self.o_index, owner)
        no, ne = self.o_index.size, self.e_index.size
        # Extended vectors: own values, then the halo (values of other parts that own rows read); x's
        # own values alone (its halo is p's, :data:`HALO_OF`).
        self.ext = {"p": np.zeros(no + self.e.size), "x": np.zeros(no), "t": np.zeros(ne + self.o.size)}
        self.ext.update({v: self.ext[SHARES[v]] for v in SHARES})
        self.s = np.zeros(no)
        #: ``A p`` within an iteration; between iterations, the true residual of own O rows.
        self.q = np.zeros(no)
        # Which halo slots come from which part (the halo is grouped by owner).
        self.recv = {
            name: {q: slice(base + lo, base + hi) for q, (lo, hi) in side.slices.items()}
            for name, side, base in (("O", self.e, no), ("E", self.o, ne))
        }
        self.send: dict[str, dict[int, np.ndarray]] = {"O": {}, "E": {}}
        #: The values of each vector for each reader, as last pushed (:meth:`push`): pieces of q's storage
        #: where it has room (:meth:`_lend`).
        self.outbox: dict[tuple[str, int], np.ndarray] = {}
        #: How much of q's storage the push buffers hold, and the pushes out of them that their readers
        #: may not have taken yet (q is written only once they have: :meth:`_take_back_q`).
        self.lent = 0
        self.unsent: list[Any] = []
        #: How often this part pushed each vector, and the sequence number of each owner's latest push
        #: into this part's halo: every part pushes a vector as often as the others (they run the same
        #: iteration), so the halo of this part's n-th push is complete when every owner's is at n.
        self.sent = dict.fromkeys((*O_VECTORS, *E_VECTORS), 0)
        self.got: dict[str, dict[int, int]] = {v: {} for v in (*O_VECTORS, *E_VECTORS)}
        #: The push being received from each owner, by vector: its sequence number and pieces so far.
        self.pieces: dict[tuple[str, int], tuple[int, int]] = {}
        #: The reductions this part took part in, and the contributions of every part by reduction.
        self.reductions = 0
        self.partials: dict[int, dict[int, Any]] = {}
        #: ``(iteration, max |s|)`` of a solve driven in this part's process (:meth:`run`).
        self.status: tuple[int, float] = (0, float("inf"))
        #: Search directions formed (:meth:`direction`): every :data:`TIDY_EVERY`-th trims the heap.
        self.directions = 0

    # Halo exchange -------------------------------------------------------------------------------

    def needs(self) -> dict[int, tuple[np.ndarray, np.ndarray]]:
        """For each other part, the (O ids, E ids) of its classes this part's rows read."""
        out: dict[int, tuple[np.ndarray, np.ndarray]] = {}
        no, ne = self.o_index.size, self.e_index.size
        for q in {*self.recv["O"], *self.recv["E"]}:
            o = self.recv["O"].get(q)
            e = self.recv["E"].get(q)
            ids_o = self.e.halo[o.start - no : o.stop - no] if o else np.zeros(0, np.int64)
            ids_e = self.o.halo[e.start - ne : e.stop - ne] if e else np.zeros(0, np.int64)
            out[q] = (ids_o, ids_e)
        return out

    def ask(self) -> None:
        """Tell every part this one reads from which of its values (their :meth:`serve`); then let go
        of the halo's ids, which nothing else reads (docs/cluster.md gives their size), and give the heap's
        freed blocks back: they are below the workers' mmap threshold (``WORKER_MALLOC_ENV``), so they
        would stay resident through the CG loop."""
        self._send_all([(q, "serve", (self.plan.index, *ids)) for q, ids in self.needs().items()])
        for side in (self.o, self.e):
            side.halo = np.zeros(0, dtype=np.int64)  # not a view: that would keep the ids alive
        release_freed()

    def serve(self, reader: int, ids_o: np.ndarray, ids_e: np.ndarray) -> None:
        """Remember which own values (global ids) part ``reader`` reads."""
        for half, ids, index in (("O", ids_o, self.o_index), ("E", ids_e, self.e_index)):
            if ids.shape[0]:
                own, pos = index.local(ids)
                if not own.all():
                    raise ValueError(f"part {reader} asks part {self.plan.index} for classes it does not own")
                self.send[half][reader] = pos.astype(np.int32) if index.size < 2**31 else pos

    def push(self, name: str, wait: bool = True) -> None:
        """Send the own values of a vector that other parts read into their halos; returns when they
        have them (or at once, ``wait=False``: the readers wait for them, :meth:`wait_halo`).

        The values go out of one buffer per halo (:data:`HALO_OF`) and reader (:meth:`_outgoing`), filled
        again at the next push into that halo: by then the reader has them, since between two pushes
        of a vector lies a reduction that needs every reader's partial sums, which it sends only after
        reading the halo (the module's docstring), and so does between a push of p (at the start of an
        iteration) and one of x (at a check of the true residual after it), or of t and of x_E: the
        reductions of ``<p, q>`` and of the true residual. A fresh array per push is what a dask actor
        call keeps alive in reference cycles until the garbage collector runs, a worker's memory growing
        through the CG loop (docs/cluster.md, "The halo pushes' arrays"). Each
        reader's values go in pieces of at most :data:`PIECE`."""
        half = "O" if name in O_VECTORS else "E"
        vec = self.ext[name]
        me = self.plan.index
        self.sent[name] += 1
        seq = self.sent[name]
        calls = []
        for w, idx in self.send[half].items():
            out = self._outgoing(name, w, vec, idx)
            pieces = range(0, out.shape[0], PIECE)
            calls += [(w, "receive", (name, me, out[a : a + PIECE], seq, a)) for a in pieces]
        self.unsent += self._send_all(calls, wait)

    def _outgoing(self, name: str, reader: int, vec: np.ndarray, idx: np.ndarray) -> np.ndarray:
        """``vec[idx]`` in the buffer for part ``reader`` of the halo that ``name``'s values land in
        (:data:`HALO_OF`; made at the first push)."""
        key = (HALO_OF[name], reader)
        out = self.outbox.get(key)
        if out is None:
            out = self.outbox[key] = self._lend(idx.shape[0])
        np.take(vec, idx, out=out)
        return out

    def _lend(self, size: int) -> np.ndarray:
        """A push buffer of ``size`` values in q's storage, or a new array where q has no room left. q is
        free from the start of an iteration (p's push) until its odd step, and from the last iteration's
        update until a check of the true residual writes it: those are when p, t, x and x_E are pushed,
        and what writes q first waits until every reader has taken them (:meth:`_take_back_q`;
        docs/cluster.md, "One heap, pushes in pieces")."""
        if self.lent + size > self.q.shape[0]:
            return np.empty(size)
        self.lent += size
        return self.q[self.lent - size : self.lent]

    def _take_back_q(self) -> None:
        """Wait until every reader has taken the pushes out of the buffers in q's storage (they have, by
        the time q is written, but for the last messages' acknowledgements); then q may be written."""
        self._settle(self.unsent, errors=False)
        self.unsent = []

    def receive(self, name: str, owner: int, values: np.ndarray, seq: int, at: int = 0) -> None:
        """Store a piece of part ``owner``'s values of a vector (its ``seq``-th push of it) in the halo,
        ``at`` values into that owner's share; the push is in once all its pieces are. A piece of an
        older push that arrives after a newer one is dropped."""
        half = "O" if name in O_VECTORS else "E"
        with self.arrived:
            key = (name, owner)
            last, count = self.pieces.get(key, (0, 0))
            if seq <= self.got[name].get(owner, 0) or seq < last:
                return
            slots = self.recv[half][owner]
            self.ext[HALO_OF[name]][slots.start + at : slots.start + at + values.shape[0]] = values
            count = count + 1 if seq == last else 1
            if count < -(-(slots.stop - slots.start) // PIECE):
                self.pieces[key] = (seq, count)
                return
            self.pieces.pop(key, None)
            self.got[name][owner] = seq
            self.arrived.notify_all()

    def wait_halo(self, name: str) -> None:
        """Wait until every part whose values of ``name`` this part reads has pushed them as often as
        this part has pushed its own (the same step of the iteration)."""
        half = "O" if name in O_VECTORS else "E"
        need = self.sent[name]
        got = self.got[name]
        owners = list(self.recv[half])
        self._wait(lambda: all(got.get(q, 0) >= need for q in owners), f"halo values of {name}")
        if any(got[q] > need for q in owners):
            raise RuntimeError(f"part {self.plan.index}: a peer pushed {name} ahead of the iteration")

    def reduce(self, mine: Any, timeout: float | None = None) -> list[Any]:
        """Every part's contribution to this part's next reduction, by part: send ``mine`` to every
        other part and wait for theirs (:meth:`contribute`). Every part runs the same reductions in
        the same order, so the n-th reduction of each meets the n-th of the others. Gives up after
        ``timeout`` seconds (default :data:`~pipeline.unitile.peers.PEER_TIMEOUT`) or on abort."""
        self.reductions += 1
        seq, me, size = self.reductions, self.plan.index, len(self.plans)
        self.contribute(seq, me, mine)
        self._send_all([(w, "contribute", (seq, me, mine)) for w in range(size) if w != me], wait=False)
        self._wait(lambda: len(self.partials.get(seq, ())) == size, "partial sums", timeout)
        with self.arrived:
            got = self.partials.pop(seq)
        return [got[w] for w in range(size)]

    def contribute(self, seq: int, owner: int, value: Any) -> None:
        """Part ``owner``'s contribution to the ``seq``-th reduction."""
        with self.arrived:
            self.partials.setdefault(seq, {})[owner] = value
            self.arrived.notify_all()

    #: What other parts call here (:meth:`~pipeline.unitile.peers.Peers.deliver`).
    DELIVERIES: ClassVar[tuple[str, ...]] = ("serve", "receive", "contribute")

    # The CG steps (see pipeline.unitile.solver.run_cg) -----------------------------------------------------

    @property
    def own_o(self) -> int:
        """The number of own O classes."""
        return self.o_index.size

    def o_chunks(self) -> tuple[int, ...]:
        """The chunks of this part's per-chunk partial sums, in their order."""
        return self.plan.o_chunks

    def start(self, x: np.ndarray | None, s: np.ndarray | None, p: np.ndarray | None) -> None:
        """Set x, s, p on own O rows: given, or the start x = 0 and s = p = its residual
        (:func:`~pipeline.unitile.solver.start_residual`), formed where they are: whole-row temporaries
        here would be the peak of the solve's memory (docs/cluster.md)."""
        no = self.own_o
        if x is None or s is None or p is None:
            self.ext["x"][:no] = 0.0
            start_residual(self.o.nbr, self.o.info, self.inv, self.s)
            self.ext["p"][:no] = self.s
        else:
            self.ext["x"][:no] = x
            self.s[:] = s
            self.ext["p"][:no] = p
        self.tidy()

    def square(self) -> tuple[np.ndarray, float]:
        """Per-chunk partial sums of ``<s, s>_omega`` and ``max |s|``."""
        return square_sums(self.o.info, self.omega, self.s)

    def even_step(self, wait: bool = True) -> None:
        """``t = P_EO p`` on own E rows (p's halo is in); push t to the parts that read it (see
        :meth:`push` for ``wait``)."""
        gather_mean(self.e.nbr, self.e.info, self.inv, self.ext["p"], self.ext["t"])
        self.push("t", wait)

    def odd_step(self) -> np.ndarray:
        """``q = p - P_OE t`` on own O rows (t's halo is in); return per-chunk sums of ``<p, q>``."""
        self._take_back_q()
        return odd_dot(self.o.nbr, self.o.info, self.inv, self.omega, self.ext["p"], self.ext["t"], self.q)

    def update(self, alpha: float) -> tuple[np.ndarray, float]:
        """``x += alpha p``, ``s -= alpha q``; per-chunk sums of ``<s, s>`` and ``max |s|``."""
        no = self.own_o
        x, p = self.ext["x"][:no], self.ext["p"][:no]
        return update_xs(alpha, self.o.info, self.omega, x, self.s, p, self.q)

    def direction(self, beta: float) -> None:
        """``p = s + beta p`` (pushed at the start of the next iteration); every :data:`TIDY_EVERY`-th
        time, the heap's freed blocks go back (:meth:`tidy`)."""
        update_p(beta, self.s, self.ext["p"][: self.own_o])
        self.directions += 1
        if self.directions % TIDY_EVERY == 0:
            self.tidy()

    def x_even(self, wait: bool = True) -> None:
        """``x_E = 1 + P_EO x_O`` on own active E rows, 0 elsewhere (x's halo is in, in p's halo slots),
        in t's storage (:data:`SHARES`); push it."""
        ne = self.e_index.size
        xe = self.ext["xe"]
        gather_mean_split(self.e.nbr, self.e.info, self.inv, self.ext["x"], self._x_halo(), xe)
        # In place: np.where would make three temporaries the size of the E rows.
        own = xe[:ne]
        np.add(own, 1.0, out=own)
        own[(self.e.info & ACTIVE_BIT) == 0] = 0.0
        self.push("xe", wait)

    def residual(self) -> tuple[float, float, float]:
        """The true residual ``1 - (I - P) x`` of own rows (x_E's halo is in): ``(max |s|, sigma, max
        x)``. Between iterations q is free: the O rows' residual goes into it (for :meth:`restart`); of
        the E rows' only the size is needed, so it is not kept. Then the heap's freed blocks go back
        (:meth:`tidy`)."""
        no, ne = self.own_o, self.e_index.size
        x, xe = self.ext["x"][:no], self.ext["xe"][:ne]
        self._take_back_q()
        m1, b1 = residual_rows(self.o.nbr, self.o.info, x, self.ext["xe"], self.ext["xe"][:0], self.q)
        m2, b2 = residual_rows(self.e.nbr, self.e.info, xe, x, self._x_halo(), np.zeros(0))
        self.tidy()
        return max(m1, m2), max(b1, b2), float(max(x.max(initial=0.0), xe.max(initial=0.0)))

    def _x_halo(self) -> np.ndarray:
        """x's halo values, in p's halo slots (:data:`HALO_OF`)."""
        return self.ext["p"][self.own_o :]

    def tidy(self) -> None:
        """Give the heap's freed blocks back to the system: the halo values that arrive every iteration
        are below the workers' mmap threshold, so their blocks stay resident once freed. Called once the
        vectors are set (:meth:`start`, :meth:`load`), every :data:`TIDY_EVERY` iterations, at each check
        of the true residual, each checkpoint and before the solution is written; a trim takes about a
        millisecond (docs/cluster.md, "The tasks' arguments, and x_E in t's storage")."""
        release_freed()

    def restart(self) -> None:
        """s = p = the true residual of the last :meth:`residual` (in q)."""
        self.s[:] = self.q
        self.ext["p"][: self.own_o] = self.q

    # A solve run by the parts themselves -------------------------------------------------------

    async def progress(self) -> tuple[int, float]:
        """:attr:`status`. A coroutine, so that dask answers it on the worker's event loop while
        :meth:`run` is running in the actor thread."""
        return self.status

    # Store -----------------------------------------------------------------------------------------

    def vectors(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Copies of own x, s, p."""
        no = self.own_o
        return self.ext["x"][:no].copy(), self.s.copy(), self.ext["p"][:no].copy()

    def solution(self) -> tuple[np.ndarray, np.ndarray]:
        """Own r on O and on E (x and x_E of the last :meth:`x_even`)."""
        return self.ext["x"][: self.own_o].copy(), self.ext["xe"][: self.e_index.size].copy()

    def save(self, path: str, slot: str) -> None:
        """Write own x, s, p into the checkpoint arrays ``solve/<slot>_x|s|p`` (from the vectors
        themselves: no copies)."""
        no = self.own_o
        for v, vec in zip("xsp", (self.ext["x"][:no], self.s, self.ext["p"][:no]), strict=True):
            arr = open_array(path, f"solve/{slot}_{v}", mode="r+")
            write_rows(arr, self.plan.o_ranges, vec)
        self.tidy()

    def load(self, path: str, slot: str) -> None:
        """Start from the checkpoint arrays ``solve/<slot>_x|s|p`` (read into the vectors themselves)."""
        no = self.own_o
        for v, vec in zip("xsp", (self.ext["x"][:no], self.s, self.ext["p"][:no]), strict=True):
            read_rows(open_array(path, f"solve/{slot}_{v}"), self.plan.o_ranges, vec)
        self.tidy()

    def write_r(self, path: str) -> float:
        """Write own rows of the solution into this part's ``solve/r_<index>`` (O rows, then E rows, as
        :class:`SolutionParts` finds them; the stage turns them into ``values/r``); return their
        maximum."""
        self.tidy()
        no, ne = self.own_o, self.e_index.size
        r_o, r_e = self.ext["x"][:no], self.ext["xe"][:ne]
        arr = open_array(path, f"solve/r_{self.plan.index}", mode="r+")
        arr[:no] = r_o
        arr[no : no + ne] = r_e
        return float(max(r_o.max(initial=0.0), r_e.max(initial=0.0)))

    def write_values(self, path: str, order: SolveOrder) -> tuple[float, float, float]:
        """The only part of a solve (it holds every class): write ``values/r`` and ``values/T_class``
        by class id (:func:`write_class_values`); return ``(max r, min T, max T)``."""
        plan = self.plan
        if plan.own_o != plan.split or plan.own_e != plan.n - plan.split:
            raise ValueError(f"part {plan.index} does not hold every class")
        x, xe = self.ext["x"][: plan.own_o], self.ext["xe"][: plan.own_e]

        def r_at(positions: np.ndarray) -> np.ndarray:
            # From x and x_E where they are: r joined into one vector would be a copy of every class's.
            out = np.empty(positions.shape)
            odd = positions < plan.split
            out[odd] = x[positions[odd]]
            out[~odd] = xe[positions[~odd] - plan.split]
            return out

        out = [write_class_values(path, order, lo, min(lo + VALUE_ROWS, plan.n), r_at)
               for lo in range(0, plan.n, VALUE_ROWS)]  # fmt: skip
        return max(o[0] for o in out), min(o[1] for o in out), max(o[2] for o in out)


class StoredPartition(Partition):
    """A part that reads only its own rows of ``graph/nbr`` and ``graph/info`` from the store, in the
    solve order."""

    def __init__(self, path: str, plan: PartPlan, plans: Sequence[PartPlan], threads: int | None,
                 order: SolveOrder) -> None:  # fmt: skip
        #: The numba threads of this part, decided where it lives (:func:`pipeline.cores.use_threads`).
        self.threads = cores.use_threads(threads)
        nbr = SolveRows(open_array(path, "graph/nbr"), order, ids=True)
        info = SolveRows(open_array(path, "graph/info"), order)
        super().__init__(plan, plans, nbr, info)
        # The order stays with the actor's arguments on a cluster: its table of every class (4 bytes a
        # class, not this part's share) was only for reading the rows.
        order.forget_table()
        # Reading the rows left freed blocks resident in the heap (their size: docs/cluster.md).
        release_freed()

    def use_threads(self) -> tuple[int, int]:
        """Give the calling thread this part's numba threads; return ``(threads, allowed cores)``. The
        solve calls it before any other method: dask runs an actor's methods in a thread of the worker
        other than the one that made the actor, and numba's thread count is per thread."""
        return cores.use_threads(self.threads), cores.allowed_cores()


class SolutionParts:
    """The solution of several parts as they wrote it (:meth:`Partition.write_r`): part ``w``'s own rows in
    its array ``solve/r_<w>``, wide chunks that no other part writes. :meth:`at` reads r at any solve
    positions, from each part's array only the chunks that hold them."""

    def __init__(self, path: str, plans: Sequence[PartPlan]) -> None:
        pieces = []  # (first position, part, index in the part's array) of every own run of every part
        for plan in plans:
            base = 0
            for lo, hi in (*plan.o_ranges, *plan.e_ranges):
                pieces.append((lo, plan.index, base))
                base += hi - lo
        pieces.sort()
        self.starts = np.array([p[0] for p in pieces], dtype=np.int64)
        self.part = np.array([p[1] for p in pieces], dtype=np.int64)
        self.base = np.array([p[2] for p in pieces], dtype=np.int64)
        self.arrays = {plan.index: open_array(path, f"solve/r_{plan.index}") for plan in plans}

    def at(self, positions: np.ndarray) -> np.ndarray:
        """r at ``positions``."""
        k = np.searchsorted(self.starts, positions, side="right") - 1
        local = self.base[k] + positions - self.starts[k]
        part = self.part[k]
        out = np.empty(positions.shape, dtype=np.float64)
        for w, arr in self.arrays.items():
            sel = part == w
            if sel.any():
                out[sel] = take(arr, local[sel])
        return out


#: Class ids per block when r and T are written by class id (whole chunks of the arrays; zarr writes a
#: block's chunks concurrently, and the temporaries stay near 40 bytes a class of the block).
VALUE_ROWS = 1 << 21


def write_class_values(
    path: str, order: SolveOrder, lo: int, hi: int, r_at: Callable[[np.ndarray], np.ndarray]
) -> tuple[float, float, float]:
    """Write ``values/r[lo:hi]`` and ``values/T_class[lo:hi]`` (T = r + r[colour swap]) by class id,
    ``r_at(positions)`` giving the solution at solve positions; return ``(max r, min T, max T)``."""
    # One read for the classes and their partners: the chunks of r that both need are read once.
    ids = np.concatenate([np.arange(lo, hi), open_array(path, "graph/swap")[lo:hi]])
    both = r_at(order.to_solve(ids))
    r = both[: hi - lo]
    t = r + both[hi - lo :]
    open_array(path, "values/r", mode="r+")[lo:hi] = r
    open_array(path, "values/T_class", mode="r+")[lo:hi] = t
    return float(r.max(initial=0.0)), float(t.min(initial=np.inf)), float(t.max(initial=-np.inf))


def write_rows(arr: np.ndarray | Checked, ranges: Ranges, values: np.ndarray) -> None:
    """Write ``values`` (the rows of ``ranges`` in order) into ``arr``."""
    at = 0
    for lo, hi in ranges:
        arr[lo:hi] = values[at : at + hi - lo]
        at += hi - lo
