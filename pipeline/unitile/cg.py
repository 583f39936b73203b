"""The CG driver: runs the iteration of :mod:`pipeline.unitile.solver` over parts of the class graph.

The driver holds only scalars. Each step is one call on every part (in parallel on a cluster, see
:class:`pipeline.executor.ActorGroup`); a part that computes values others read pushes them straight
into their halos before its call returns, so each round of calls is also a barrier. Per-chunk partial
sums come back from every part and are added one by one in chunk order, so the iteration is bit for bit
the same for any number of parts (and for any number of threads).

One iteration is four rounds: ``t = P_EO p``, pushed (``even_step``); ``q = p - P_OE t`` and
``<p, q>`` (``odd_step``); ``x += alpha p, s -= alpha q`` and ``<s, s>`` (``update``); ``p = s + beta
p``, pushed (``direction``).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import replace
from typing import Any

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
    """Where each part's per-chunk partial sums go in chunk order: the permutation that sorts their
    concatenation (in part order) by chunk."""
    chunks = group.call("o_chunks")
    return np.argsort(np.concatenate([np.asarray(c, dtype=np.int64) for c in chunks]), kind="stable")


def ordered_sum(partials: list[np.ndarray], order: np.ndarray) -> float:
    """The per-chunk partial sums of all parts (concatenated in part order) added in chunk order."""
    total = 0.0
    for v in np.concatenate(partials)[order].tolist():
        total += v
    return total


def squares(results: list[tuple[np.ndarray, float]], order: np.ndarray) -> tuple[float, float]:
    """``(<s, s>, max |s|)`` from every part's ``(partial sums, max)``."""
    return ordered_sum([r[0] for r in results], order), max(float(r[1]) for r in results)


def true_residual(group: Group) -> tuple[float, float, float]:
    """``(max |s|, sigma, max x)`` of the true residual of the current x over all classes."""
    group.call("push", [("x",)] * group.size)
    group.call("x_even")
    res = group.call("residual")
    return max(r[0] for r in res), max(r[1] for r in res), max(r[2] for r in res)


def attainable(x_max: float) -> float:
    """The smallest residual bound a stalled solve is accepted with: ``1e-12``, or the float64 floor
    of the residual, a few units of roundoff times the largest x (5x5: r reaches 1317, floor 2.3e-12;
    3x9 stalls near 2.7e-12)."""
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


def run_cg(
    group: Group,
    state: SolverState,
    tol: float = 1e-12,
    max_iterations: int = 20000,
    on_iteration: Callable[[SolverState, float], None] | None = None,
    checkpoint: Callable[[SolverState], None] | None = None,
    checkpoint_seconds: float = 20.0,
) -> SolveResult:
    """PCG on the O half (restarting from the true residual if needed) until ``sigma <= tol``.

    The parts hold x, s, p (set by their ``start`` or ``load``); ``state`` holds the scalars, and
    ``state.rz < 0`` means "start from x = 0". The stopping test uses the rigorous residual bound
    ``sigma`` of the full stored x. A restart recomputes ``s`` when the recurrence says converged but
    the true residual disagrees. If a restart does not halve the true residual and it is at most
    :func:`attainable`, it is accepted; if two restarts fail to halve it above that,
    :class:`RuntimeError`. The result's ``x`` is None: the parts hold it (``solution``, ``write_r``).
    """
    size = group.size
    t0 = time.perf_counter()
    c0 = time.process_time()
    last_ckpt = t0
    interval = checkpoint_seconds
    iter_time = 0.0
    iters_here = 0
    order = chunk_order(group)
    if state.rz < 0:
        group.call("start", [(None, None, None)] * size)
        state.rz, smax = squares(group.call("square"), order)
        state.history.append(smax)
    group.call("push", [("p",)] * size)
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
            smax, sigma, x_max = true_residual(group)
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
            group.call("restart")
            state.rz, smax = squares(group.call("square"), order)
            state.restarts += 1
            state.history.append(smax)
            group.call("push", [("p",)] * size)
        if state.iteration >= max_iterations:
            raise RuntimeError(f"CG did not converge in {max_iterations} iterations")
        ti = time.perf_counter()
        group.call("even_step")
        pq = ordered_sum(group.call("odd_step"), order)
        alpha = state.rz / pq
        rz_new, smax = squares(group.call("update", [(alpha,)] * size), order)
        group.call("direction", [(rz_new / state.rz,)] * size)
        state.rz = rz_new
        state.iteration += 1
        state.history.append(smax)
        iter_time += time.perf_counter() - ti
        iters_here += 1
        if on_iteration is not None:
            on_iteration(state, smax)
        if checkpoint is not None and time.perf_counter() - last_ckpt > interval:
            tc = time.perf_counter()
            checkpoint(state)
            last_ckpt = time.perf_counter()
            interval = checkpoint_interval(checkpoint_seconds, last_ckpt - tc)
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


def local_parts(
    nbr: np.ndarray, info: np.ndarray, split: int, parts: int = 1, order: SolveOrder | None = None
) -> LocalGroup:
    """The class graph in memory, split into (at most) ``parts`` parts held in this process, in the
    solve ``order`` if given (:mod:`pipeline.unitile.solve_order`; else in id order)."""
    plans = plan_parts(split, info.shape[0], parts)
    rows: tuple[Any, Any] = (nbr, info)
    if order is not None:
        rows = (SolveRows(nbr, order, ids=True), SolveRows(info, order))
    group = LocalGroup([Partition(p, plans, *rows) for p in plans])
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
