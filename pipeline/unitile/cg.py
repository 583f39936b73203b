"""The CG driver: runs the iteration of :mod:`pipeline.unitile.solver` over parts of the class graph.

The driver holds only scalars. Each step is one call on every part (in parallel on a cluster, see
:class:`pipeline.executor.ActorGroup`); a part that computes values others read pushes them straight
into their halos before its call returns, so each round of calls is also a barrier. Per-chunk partial
sums come back from every part and are added one by one in chunk order, so the iteration is bit for bit
the same for any number of parts (and for any number of threads).

On a cluster every part runs the iteration itself instead (:class:`PeerSteps`), exchanging halo values
and partial sums part to part; both run the one loop of :func:`run_loop`.

One iteration is four rounds: ``t = P_EO p``, pushed (``even_step``); ``q = p - P_OE t`` and
``<p, q>`` (``odd_step``); ``x += alpha p, s -= alpha q`` and ``<s, s>`` (``update``); ``p = s + beta
p``, pushed (``direction``).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any, Protocol

import numpy as np

from ..groups import Group, LocalGroup
from .partition import Partition, plan_parts, read_rows, write_rows
from .solve_order import SolveOrder, SolveRows
from .solver import UNIT, SolveResult, SolverState


def connect(group: Group) -> None:
    """Introduce the parts to each other and tell every part which of its values the others read."""
    group.call("set_peers", [(group.handles,)] * group.size)
    group.call("ask")


#: Units of roundoff times max x that a stalled residual bound may keep (see :func:`attainable`).
FLOOR_ULPS = 16


def chunk_order(group: Group) -> np.ndarray:
    """Where each part's per-chunk partial sums go in chunk order (:func:`order_of` the parts' chunks)."""
    return order_of(group.call("o_chunks"))


def order_of(chunks: Sequence[Sequence[int]]) -> np.ndarray:
    """The permutation that sorts the parts' per-chunk partial sums, concatenated in part order, by
    chunk (``chunks[w]``: part w's chunks in the order of its sums)."""
    return np.argsort(np.concatenate([np.asarray(c, dtype=np.int64) for c in chunks]), kind="stable")


def ordered_sum(partials: list[np.ndarray], order: np.ndarray) -> float:
    """The per-chunk partial sums of all parts (concatenated in part order) added in chunk order."""
    total = 0.0
    for v in np.concatenate(partials)[order].tolist():
        total += v
    return total


def squares(results: Sequence[tuple[Any, ...]], order: np.ndarray) -> tuple[float, float]:
    """``(<s, s>, max |s|)`` from every part's ``(partial sums, max, ...)``."""
    return ordered_sum([r[0] for r in results], order), max(float(r[1]) for r in results)


def true_residual(group: Group) -> tuple[float, float, float]:
    """``(max |s|, sigma, max x)`` of the true residual of the current x over all classes."""
    group.call("push", [("x",)] * group.size)
    group.call("x_even")
    res = group.call("residual")
    return max(r[0] for r in res), max(r[1] for r in res), max(r[2] for r in res)


def attainable(x_max: float) -> float:
    """The smallest residual bound a stalled solve is accepted with: ``1e-12``, or the float64 floor
    of the residual, a few units of roundoff times the largest x (docs/pipeline.md, "Error bound", gives
    where 5x5 stalls)."""
    return max(1e-12, FLOOR_ULPS * UNIT * x_max)


#: Checkpoints take at most about this share of the solve's time (:func:`checkpoint_interval`).
CHECKPOINT_SHARE = 0.1


def checkpoint_interval(seconds: float, write_seconds: float) -> float:
    """Seconds until the next checkpoint: ``seconds`` (``--checkpoint-seconds``), or longer when the
    last checkpoint took ``write_seconds`` to write, so that writing them costs at most
    :data:`CHECKPOINT_SHARE` of the time (a big board's checkpoint takes long to write). ``seconds``
    of 0 means after every iteration, however long a checkpoint takes.

    >>> checkpoint_interval(15.0, 0.2), checkpoint_interval(15.0, 6.0), checkpoint_interval(0.0, 6.0)
    (15.0, 54.0, 0.0)
    """
    if seconds <= 0:
        return 0.0
    return max(seconds, write_seconds * (1.0 - CHECKPOINT_SHARE) / CHECKPOINT_SHARE)


class CheckpointClock:
    """When the next checkpoint is due: ``seconds`` (``--checkpoint-seconds``) after the last one, or
    later when checkpoints take long to write (:func:`checkpoint_interval`)."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self.interval = seconds
        self.last = time.perf_counter()

    def due(self) -> bool:
        """Whether a checkpoint is due now."""
        return time.perf_counter() - self.last > self.interval

    def written(self, took: float) -> None:
        """A checkpoint that took ``took`` seconds to write has just been written."""
        self.last = time.perf_counter()
        self.interval = checkpoint_interval(self.seconds, took)


class Steps(Protocol):
    """The steps of the iteration over parts, as :func:`run_loop` takes them: the scalars they return are
    the same bits for any number of parts, however the parts are driven (:class:`GroupSteps`: a driver's
    rounds of calls; :class:`PeerSteps`: every part running the loop itself)."""

    def start(self) -> tuple[float, float]:
        """x = 0, s = p = the start residual; ``(<s, s>, max |s|)``."""
        ...

    def true_residual(self) -> tuple[float, float, float]:
        """``(max |s|, sigma, max x)`` of the true residual of the current x over all classes."""
        ...

    def restart(self) -> tuple[float, float]:
        """s = p = the true residual of the last :meth:`true_residual`; ``(<s, s>, max |s|)``."""
        ...

    def iterate(self, rz: float) -> tuple[float, float]:
        """One CG iteration from ``rz = <s, s>``, beginning with p's push into the halos; the new
        ``(<s, s>, max |s|)``."""
        ...

    def checkpoint_due(self) -> bool:
        """Whether to write a checkpoint now (the same answer on every part)."""
        ...

    def checkpoint(self, state: SolverState) -> None:
        """Write a checkpoint of ``state`` (and the parts' vectors)."""
        ...


def run_loop(
    steps: Steps,
    state: SolverState,
    tol: float = 1e-12,
    max_iterations: int = 20000,
    on_iteration: Callable[[SolverState, float], None] | None = None,
) -> SolveResult:
    """PCG on the O half (restarting from the true residual if needed) until ``sigma <= tol``.

    The parts hold x, s, p (set by their ``start`` or ``load``); ``state`` holds the scalars, and
    ``state.rz < 0`` means "start from x = 0". The stopping test uses the rigorous residual bound
    ``sigma`` of the full stored x. A restart recomputes ``s`` when the recurrence says converged but
    the true residual disagrees. If a restart does not halve the true residual and it is at most
    :func:`attainable`, it is accepted; if two restarts fail to halve it above that,
    :class:`RuntimeError`. The result's ``x`` is None: the parts hold it (``solution``, ``write_r``).
    This is the one implementation of the iteration's control: the driver's (:func:`run_cg`) and each
    part's own loop (:class:`PeerSteps`) run it.
    """
    t0 = time.perf_counter()
    c0 = time.process_time()
    iter_time = 0.0
    iters_here = 0
    if state.rz < 0:
        state.rz, smax = steps.start()
        state.history.append(smax)
    sigma = math.inf
    while True:
        rec = state.history[-1]
        # Below tol the recurrence residual is checked against the true one every 4th iteration
        # (by number, so a resumed solve stops where an uninterrupted one does). They have drifted
        # apart when the true one did not halve since the last check (4 iterations of a recurrence
        # already below tol), or when the recurrence is far below tol while the true one is not:
        # restart from the true residual.
        drifted = rec <= tol * 0.05 or state.rz == 0.0
        if (rec <= tol and state.iteration % 4 == 0) or drifted:
            smax, sigma, x_max = steps.true_residual()
            if sigma <= tol:
                break
            drifted = drifted or sigma > 0.5 * state.checked
            state.checked = sigma
        if drifted:
            if sigma >= state.best * 0.5:
                # A restart did not halve the true residual: at the floor of float64, take it.
                if sigma <= attainable(x_max):
                    break
                state.stalls += 1
                if state.stalls >= 2:
                    raise RuntimeError(f"CG stalled at residual {sigma:.3g}")
            state.best = min(state.best, sigma)
            state.rz, smax = steps.restart()
            state.restarts += 1
            state.history.append(smax)
        if state.iteration >= max_iterations:
            raise RuntimeError(f"CG did not converge in {max_iterations} iterations")
        ti = time.perf_counter()
        state.rz, smax = steps.iterate(state.rz)
        state.iteration += 1
        state.history.append(smax)
        iter_time += time.perf_counter() - ti
        iters_here += 1
        if on_iteration is not None:
            on_iteration(state, smax)
        if steps.checkpoint_due():
            steps.checkpoint(state)
    rel = sigma / (1.0 - sigma) * (1.0 + UNIT)
    return SolveResult(
        x=None,
        iterations=state.iteration,
        restarts=state.restarts,
        residual=smax,
        sigma=sigma,
        rel_bound=rel,
        seconds=time.perf_counter() - t0,
        cpu_seconds=time.process_time() - c0,
        seconds_per_iteration=iter_time / max(iters_here, 1),
    )


class GroupSteps:
    """The steps as rounds of calls on every part of a group, from a driver that holds the scalars: a
    part that computes values others read pushes them into their halos before its call returns, so every
    round is a barrier. Parts held in one process run one after another."""

    def __init__(self, group: Group, checkpoint: Callable[[SolverState], None] | None,
                 checkpoint_seconds: float) -> None:  # fmt: skip
        self.group = group
        self.order = chunk_order(group)
        self.write = checkpoint
        self.clock = CheckpointClock(checkpoint_seconds)

    def _all(self, method: str, *args: Any) -> list[Any]:
        return self.group.call(method, [args] * self.group.size)

    def start(self) -> tuple[float, float]:
        self._all("start", None, None, None)
        return squares(self._all("square"), self.order)

    def true_residual(self) -> tuple[float, float, float]:
        return true_residual(self.group)

    def restart(self) -> tuple[float, float]:
        self._all("restart")
        return squares(self._all("square"), self.order)

    def iterate(self, rz: float) -> tuple[float, float]:
        self._all("push", "p")
        self._all("even_step")
        pq = ordered_sum(self._all("odd_step"), self.order)
        alpha = rz / pq
        rz_new, smax = squares(self._all("update", alpha), self.order)
        self._all("direction", rz_new / rz)
        return rz_new, smax

    def checkpoint_due(self) -> bool:
        return self.write is not None and self.clock.due()

    def checkpoint(self, state: SolverState) -> None:
        if self.write is not None:
            tc = time.perf_counter()
            self.write(state)
            self.clock.written(time.perf_counter() - tc)


class PeerSteps:
    """The steps as run by every part of a solve itself, in its own process (:meth:`Partition.run`): the
    halo values go part to part without waits for receipts, and every part sends its per-chunk partial
    sums to every other (:meth:`Partition.reduce`) and adds all of them in chunk order, so every part
    holds the same scalars and takes the same decisions. A part waits for the halo values and partial
    sums of the current step, for at most :data:`~pipeline.unitile.peers.PEER_TIMEOUT` seconds.

    Part 0 decides when a checkpoint is due (by its clock) and tells the others with its partial sums of
    the iteration's last reduction; ``checkpoint(state)`` then runs on every part at the same iteration.
    """

    def __init__(self, part: Partition, checkpoint: Callable[[SolverState], None] | None,
                 checkpoint_seconds: float) -> None:  # fmt: skip
        self.part = part
        self.order = order_of([p.o_chunks for p in part.plans])
        self.leader = part.plan.index == 0
        self.write = checkpoint
        self.clock = CheckpointClock(checkpoint_seconds)
        self.due = False

    def start(self) -> tuple[float, float]:
        self.part.start(None, None, None)
        return squares(self.part.reduce(self.part.square()), self.order)

    def true_residual(self) -> tuple[float, float, float]:
        part = self.part
        part.push("x", wait=False)
        part.wait_halo("x")
        part.x_even(wait=False)
        part.wait_halo("xe")
        res = part.reduce(part.residual())
        return max(r[0] for r in res), max(r[1] for r in res), max(r[2] for r in res)

    def restart(self) -> tuple[float, float]:
        self.part.restart()
        return squares(self.part.reduce(self.part.square()), self.order)

    def iterate(self, rz: float) -> tuple[float, float]:
        part = self.part
        part.push("p", wait=False)
        part.wait_halo("p")
        part.even_step(wait=False)
        part.wait_halo("t")
        pq = ordered_sum(part.reduce(part.odd_step()), self.order)
        alpha = rz / pq
        partial, smax = part.update(alpha)
        due = self.leader and self.write is not None and self.clock.due()
        res = part.reduce((partial, smax, due))
        rz_new, smax = squares(res, self.order)
        self.due = bool(res[0][2])
        part.direction(rz_new / rz)
        return rz_new, smax

    def checkpoint_due(self) -> bool:
        return self.due

    def checkpoint(self, state: SolverState) -> None:
        if self.write is not None:
            tc = time.perf_counter()
            self.write(state)
            self.clock.written(time.perf_counter() - tc)


def run_cg(
    group: Group,
    state: SolverState,
    tol: float = 1e-12,
    max_iterations: int = 20000,
    on_iteration: Callable[[SolverState, float], None] | None = None,
    checkpoint: Callable[[SolverState], None] | None = None,
    checkpoint_seconds: float = 20.0,
) -> SolveResult:
    """:func:`run_loop` driven from here by rounds of calls on the parts of ``group``
    (:class:`GroupSteps`), with ``checkpoint(state)`` every ``checkpoint_seconds`` or so
    (:class:`CheckpointClock`)."""
    steps = GroupSteps(group, checkpoint, checkpoint_seconds)
    return run_loop(steps, state, tol, max_iterations, on_iteration)


def local_parts(
    nbr: np.ndarray, info: np.ndarray, split: int, parts: int = 1, order: SolveOrder | None = None,
    connected: bool = True,
) -> LocalGroup:
    """The class graph in memory, split into (at most) ``parts`` parts held in this process, in the
    solve ``order`` if given (:mod:`pipeline.unitile.solve_order`; else in id order); :func:`connect`-ed
    unless ``connected`` is false (the parts still hold their halos' ids then)."""
    plans = plan_parts(split, info.shape[0], parts)
    rows: tuple[Any, Any] = (nbr, info)
    if order is not None:
        rows = (SolveRows(nbr, order, ids=True), SolveRows(info, order))
    group = LocalGroup([Partition(p, plans, *rows) for p in plans])
    if connected:
        connect(group)
    return group


def gather(group: LocalGroup) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """``(x, s, p)`` on O and the full solution r (O then E) from parts held in this process, in solve
    positions."""
    plan = group.parts[0].plan
    x, s, p = np.zeros(plan.split), np.zeros(plan.split), np.zeros(plan.split)
    r = np.zeros(plan.n)
    for part in group.parts:
        for vec, values in zip((x, s, p), part.vectors(), strict=True):
            write_rows(vec, part.plan.o_ranges, values)
        r_o, r_e = part.solution()
        write_rows(r, part.plan.o_ranges, r_o)
        write_rows(r, part.plan.e_ranges, r_e)
    return x, s, p, r


def solve(
    nbr: np.ndarray,
    info: np.ndarray,
    split: int,
    state: SolverState,
    parts: int = 1,
    order: SolveOrder | None = None,
    **options: Any,
) -> SolveResult:
    """:func:`run_cg` on the graph in memory, from ``state`` (vectors of length ``split``, in solve
    positions).

    ``parts`` splits the work as a cluster would (the result is the same bit for bit); ``order`` is the
    solve order (as the solve stage uses it; else the id order). The checkpoint callback, if any, gets
    full copies of x, s, p. The result's ``x`` is the full solution r by class id.
    """
    group = local_parts(nbr, info, split, parts, order)
    if state.rz >= 0:
        for part in group.parts:
            part.start(*(read_rows(v, part.plan.o_ranges) for v in (state.x, state.s, state.p)))
    user_checkpoint = options.pop("checkpoint", None)

    def checkpoint(st: SolverState) -> None:
        x, s, p, _ = gather(group)
        user_checkpoint(replace(st, x=x, s=s, p=p, history=[*st.history]))

    result = run_cg(group, state, checkpoint=checkpoint if user_checkpoint else None, **options)
    x, s, p, r = gather(group)
    state.x, state.s, state.p = x, s, p
    if order is not None:
        r = r[order.to_solve(np.arange(r.shape[0]))]
    return SolveResult(**{**result.__dict__, "x": r})
