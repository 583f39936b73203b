"""One part of the class graph and of the CG vectors on it: what a worker holds during the solve.

The classes are split into two halves, O (ids below ``split``) and E (see :mod:`pipeline.solver`), and
into chunks of :data:`BLOCK` consecutive ids (chunk ``k`` is ``[k * BLOCK, (k + 1) * BLOCK)``). A
:class:`PartPlan` gives a part whole chunks: a run of O chunks and a run of E chunks, the E runs in
reverse order so that the last part owns the chunk that straddles ``split`` (if any) on both sides.
Because every part owns whole chunks:

* the reductions of the solve (per-chunk partial sums, added in chunk order by the driver) are the
  same for any number of parts, so the solve is bit for bit the same on 1 or 64 workers;
* parts write their rows of ``values/r`` and of the checkpoints (arrays chunked by :data:`BLOCK`,
  without shards) without ever sharing a chunk.

A :class:`Partition` holds the graph rows of its own classes with the neighbour ids renumbered into
*extended* vectors: its own values first, then its *halo*, the values of other parts' classes that
its rows read. Before each gather the driver moves halo values between parts (:meth:`Partition.export`
on the owner, :meth:`Partition.receive` on the reader); nothing else crosses parts but per-chunk
scalars. Memory per part: its rows (17 B per class of graph, 8 B per class and vector) and its halo.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import zarr

from .classes import ACTIVE_BIT
from .solver import (
    BLOCK,
    gather_mean,
    odd_dot,
    residual_rows,
    square_sums,
    tables,
    update_p,
    update_xs,
)

#: Vectors with a halo: on O, the search direction and the solution; on E, their images under P_EO.
O_VECTORS = ("p", "x")
E_VECTORS = ("t", "xe")


@dataclass(frozen=True)
class PartPlan:
    """The classes one part owns: O ids ``[o_lo, o_hi)`` and E ids ``[e_lo, e_hi)``."""

    index: int
    o_lo: int
    o_hi: int
    e_lo: int
    e_hi: int


def plan_parts(split: int, n: int, parts: int) -> list[PartPlan]:
    """Split ``n`` classes (O below ``split``) into at most ``parts`` parts of whole chunks.

    Fewer parts are planned when there are fewer chunks than parts on either side.
    """
    o_chunks = -(-split // BLOCK)
    first_e = split // BLOCK
    e_chunks = -(-n // BLOCK) - first_e
    parts = max(1, min(parts, o_chunks, e_chunks))
    plans = []
    for w in range(parts):
        a, b = o_chunks * w // parts, o_chunks * (w + 1) // parts
        # E chunks in reverse: part parts-1 gets the first ones (the straddling chunk with its O half).
        r = parts - 1 - w
        c, d = first_e + e_chunks * r // parts, first_e + e_chunks * (r + 1) // parts
        plans.append(PartPlan(w, a * BLOCK, min(b * BLOCK, split), max(c * BLOCK, split), min(d * BLOCK, n)))
    return plans


def _owner(plans: list[PartPlan], ids: np.ndarray, odd: bool) -> np.ndarray:
    """The part owning each of the (sorted) class ids."""
    owner = np.full(ids.shape[0], -1, dtype=np.int64)
    for p in plans:
        lo, hi = (p.o_lo, p.o_hi) if odd else (p.e_lo, p.e_hi)
        owner[(ids >= lo) & (ids < hi)] = p.index
    return owner


class _Side:
    """Own rows of one half (O or E) and the halo of the other half that they read."""

    def __init__(self, nbr: np.ndarray, info: np.ndarray, lo: int, hi: int, other: tuple[int, int]) -> None:
        self.lo, self.hi = lo, hi
        self.info = info
        # Neighbour ids are in the other half: own ids there map to 0.., the halo after them.
        olo, ohi = other
        ids = nbr[nbr >= 0]
        need = np.unique(ids)
        self.halo = need[(need < olo) | (need >= ohi)]
        local = np.full(nbr.shape, -1, dtype=np.int32)
        valid = nbr >= 0
        own = valid & (nbr >= olo) & (nbr < ohi)
        local[own] = nbr[own] - olo
        far = valid & ~own
        local[far] = (ohi - olo) + np.searchsorted(self.halo, nbr[far])
        self.nbr = local


class Partition:
    """The rows, vectors and halo bookkeeping of one part (a dask actor on a cluster)."""

    def __init__(
        self, plan: PartPlan, plans: list[PartPlan], nbr_o: np.ndarray, info_o: np.ndarray,
        nbr_e: np.ndarray, info_e: np.ndarray,
    ) -> None:  # fmt: skip
        self.plan = plan
        self.plans = plans
        self.inv, self.omega = tables()
        p = plan
        split = plans[-1].o_hi
        if np.any((nbr_o >= 0) & (nbr_o < split)) or np.any(nbr_e >= split):
            raise ValueError("class graph is not bipartite at the split")
        #: O rows read E values (own E ids of this part, then the E halo), and the other way round.
        self.o = _Side(nbr_o, info_o, p.o_lo, p.o_hi, (p.e_lo, p.e_hi))
        self.e = _Side(nbr_e, info_e, p.e_lo, p.e_hi, (p.o_lo, p.o_hi))
        no, ne = p.o_hi - p.o_lo, p.e_hi - p.e_lo
        # Extended vectors: own values, then the halo (values of other parts that own rows read).
        self.ext = {
            **{v: np.zeros(no + self.e.halo.shape[0]) for v in O_VECTORS},
            **{v: np.zeros(ne + self.o.halo.shape[0]) for v in E_VECTORS},
        }
        self.s = np.zeros(no)
        self.q = np.zeros(no)
        self.res_o = np.zeros(no)
        self.res_e = np.zeros(ne)
        # Which halo slots come from which part (slices of the sorted halo), filled in by plan order.
        self.recv: dict[str, dict[int, slice]] = {}
        for name, side, base, odd in (("O", self.e, no, True), ("E", self.o, ne, False)):
            owner = _owner(plans, side.halo, odd)
            self.recv[name] = {}
            for q in np.unique(owner):
                at = np.flatnonzero(owner == q)
                self.recv[name][int(q)] = slice(base + int(at[0]), base + int(at[-1]) + 1)
        self.send: dict[str, dict[int, np.ndarray]] = {"O": {}, "E": {}}

    # Halo exchange -------------------------------------------------------------------------------

    def needs(self) -> dict[int, tuple[np.ndarray, np.ndarray]]:
        """For each other part, the (O ids, E ids) of its classes this part's rows read."""
        out: dict[int, tuple[np.ndarray, np.ndarray]] = {}
        for q in {*self.recv["O"], *self.recv["E"]}:
            o = self.recv["O"].get(q)
            e = self.recv["E"].get(q)
            no, ne = self.plan.o_hi - self.plan.o_lo, self.plan.e_hi - self.plan.e_lo
            ids_o = self.e.halo[o.start - no : o.stop - no] if o else np.zeros(0, np.int64)
            ids_e = self.o.halo[e.start - ne : e.stop - ne] if e else np.zeros(0, np.int64)
            out[q] = (ids_o, ids_e)
        return out

    def serve(self, requests: dict[int, tuple[np.ndarray, np.ndarray]]) -> None:
        """Remember which own values each other part reads (global ids, from its :meth:`needs`)."""
        for w, (ids_o, ids_e) in requests.items():
            if ids_o.shape[0]:
                self.send["O"][w] = (ids_o - self.plan.o_lo).astype(np.int64)
            if ids_e.shape[0]:
                self.send["E"][w] = (ids_e - self.plan.e_lo).astype(np.int64)

    def export(self, name: str) -> dict[int, np.ndarray]:
        """Own values of a vector that other parts read, by part."""
        half = "O" if name in O_VECTORS else "E"
        vec = self.ext[name]
        return {w: vec[idx] for w, idx in self.send[half].items()}

    def receive(self, name: str, pieces: dict[int, np.ndarray]) -> None:
        """Store other parts' values of a vector in the halo."""
        half = "O" if name in O_VECTORS else "E"
        vec = self.ext[name]
        for q, values in pieces.items():
            vec[self.recv[half][q]] = values

    # The CG steps (see pipeline.solver.run_cg) -----------------------------------------------------

    @property
    def own_o(self) -> int:
        return self.plan.o_hi - self.plan.o_lo

    def start(self, x: np.ndarray | None, s: np.ndarray | None, p: np.ndarray | None) -> None:
        """Set x, s, p on own O rows: given (a checkpoint), or the start x = 0, s = p = 1 - (I - P) 0."""
        no = self.own_o
        if x is None or s is None or p is None:
            active = (self.o.info & ACTIVE_BIT) != 0
            s0 = np.where(active, 1.0 + self.inv[self.o.info] * (self.o.nbr >= 0).sum(axis=1), 0.0)
            x, s, p = np.zeros(no), s0, s0.copy()
        self.ext["x"][:no] = x
        self.s[:] = s
        self.ext["p"][:no] = p

    def square(self) -> tuple[np.ndarray, float]:
        """Per-chunk partial sums of ``<s, s>_omega`` and ``max |s|``."""
        return square_sums(self.o.info, self.omega, self.s)

    def even_step(self, p_halo: dict[int, np.ndarray]) -> dict[int, np.ndarray]:
        """Receive p's halo; ``t = P_EO p`` on own E rows; return t for other parts."""
        self.receive("p", p_halo)
        gather_mean(self.e.nbr, self.e.info, self.inv, self.ext["p"], self.ext["t"])
        return self.export("t")

    def odd_step(self, t_halo: dict[int, np.ndarray]) -> np.ndarray:
        """Receive t's halo; ``q = p - P_OE t`` on own O rows; return per-chunk sums of ``<p, q>``."""
        self.receive("t", t_halo)
        return odd_dot(self.o.nbr, self.o.info, self.inv, self.omega, self.ext["p"], self.ext["t"], self.q)

    def update(self, alpha: float) -> tuple[np.ndarray, float]:
        """``x += alpha p``, ``s -= alpha q``; per-chunk sums of ``<s, s>`` and ``max |s|``."""
        no = self.own_o
        x, p = self.ext["x"][:no], self.ext["p"][:no]
        return update_xs(alpha, self.o.info, self.omega, x, self.s, p, self.q)

    def direction(self, beta: float) -> dict[int, np.ndarray]:
        """``p = s + beta p``; return p for other parts."""
        update_p(beta, self.s, self.ext["p"][: self.own_o])
        return self.export("p")

    def x_even(self, x_halo: dict[int, np.ndarray]) -> dict[int, np.ndarray]:
        """Receive x's halo; ``x_E = 1 + P_EO x_O`` on own active E rows (0 elsewhere); return it."""
        self.receive("x", x_halo)
        ne = self.plan.e_hi - self.plan.e_lo
        xe = self.ext["xe"]
        gather_mean(self.e.nbr, self.e.info, self.inv, self.ext["x"], xe)
        xe[:ne] = np.where(self.e.info & ACTIVE_BIT, 1.0 + xe[:ne], 0.0)
        return self.export("xe")

    def residual(self, xe_halo: dict[int, np.ndarray]) -> tuple[float, float]:
        """Receive x_E's halo; the true residual ``1 - (I - P) x`` of own rows: ``(max |s|, sigma)``."""
        self.receive("xe", xe_halo)
        no, ne = self.own_o, self.plan.e_hi - self.plan.e_lo
        m1, b1 = residual_rows(self.o.nbr, self.o.info, self.ext["x"][:no], self.ext["xe"], self.res_o)
        m2, b2 = residual_rows(self.e.nbr, self.e.info, self.ext["xe"][:ne], self.ext["x"], self.res_e)
        return max(m1, m2), max(b1, b2)

    def restart(self) -> None:
        """s = p = the true residual of the last :meth:`residual`."""
        self.s[:] = self.res_o
        self.ext["p"][: self.own_o] = self.res_o

    # Store -----------------------------------------------------------------------------------------

    def vectors(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Copies of own x, s, p."""
        no = self.own_o
        return self.ext["x"][:no].copy(), self.s.copy(), self.ext["p"][:no].copy()

    def solution(self) -> tuple[np.ndarray, np.ndarray]:
        """Own r on O and on E (x and x_E of the last :meth:`x_even`)."""
        return self.ext["x"][: self.own_o].copy(), self.ext["xe"][: self.plan.e_hi - self.plan.e_lo].copy()

    def save(self, path: str, slot: str) -> None:
        """Write own x, s, p into the checkpoint arrays ``solve/<slot>_x|s|p``."""
        p = self.plan
        for v, arr in zip("xsp", self.vectors(), strict=True):
            zarr.open_array(store=path, path=f"solve/{slot}_{v}", mode="r+")[p.o_lo : p.o_hi] = arr

    def load(self, path: str, slot: str) -> None:
        """Start from the checkpoint arrays ``solve/<slot>_x|s|p``."""
        p = self.plan
        x, s, q = (
            np.asarray(zarr.open_array(store=path, path=f"solve/{slot}_{v}", mode="r")[p.o_lo : p.o_hi])
            for v in "xsp"
        )
        self.start(x, s, q)

    def write_r(self, path: str) -> float:
        """Write own rows of ``values/r``; return their maximum."""
        p = self.plan
        r_o, r_e = self.solution()
        arr = zarr.open_array(store=path, path="values/r", mode="r+")
        arr[p.o_lo : p.o_hi] = r_o
        arr[p.e_lo : p.e_hi] = r_e
        return float(max(r_o.max(initial=0.0), r_e.max(initial=0.0)))

    def peak_memory(self) -> float:
        """Peak resident memory of this process so far, GiB."""
        import resource

        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2**20


class StoredPartition(Partition):
    """A part that reads only its own rows of ``graph/nbr`` and ``graph/info`` from the store."""

    def __init__(self, path: str, plan: PartPlan, plans: list[PartPlan], threads: int) -> None:
        import numba

        numba.set_num_threads(threads)
        nbr = zarr.open_array(store=path, path="graph/nbr", mode="r")
        info = zarr.open_array(store=path, path="graph/info", mode="r")
        super().__init__(
            plan, plans,
            np.asarray(nbr[plan.o_lo : plan.o_hi]), np.asarray(info[plan.o_lo : plan.o_hi]),
            np.asarray(nbr[plan.e_lo : plan.e_hi]), np.asarray(info[plan.e_lo : plan.e_hi]),
        )  # fmt: skip
