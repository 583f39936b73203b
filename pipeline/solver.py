"""Jacobi-preconditioned conjugate gradient for r on symmetry classes, with a rigorous error bound.

The lumped walk: for every class ``c`` where red is not united,
``r[c] = 1 + (1/deg c) * sum over the slides of c's representative of r[class after the slide]``
(r = 0 where red is united). Multiplied by ``w[c] * deg[c]`` (``w`` = positions in the class) the
system is symmetric positive definite: ``w[c]`` times the number of slides from ``c`` into ``d`` counts
the slides between the two classes in the full graph, the same from both sides. Jacobi
preconditioning by that diagonal turns CG into iterations on the *transition form* residual
``s = 1 - (I - P) x``, so the kernels below work with ``P`` and weight only the dot products.

Error bound. ``(I - P)^-1`` is non-negative and maps the all-ones vector to the exact r*, so
``|r* - x| <= max|s| * r*`` entrywise, hence ``|r* - x| <= sigma / (1 - sigma) * x`` with ``sigma``
an upper bound of ``max|s|``. :func:`true_residual` computes ``s`` from the stored ``x`` with
error-free transformations (TwoSum), so ``sigma`` bounds the residual of the very numbers stored.

All reductions add per-block partial sums in block order, so results do not depend on the number of
threads: a solve resumed from a checkpoint continues bit for bit.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np
from numba import njit, prange

from .bits import JIT
from .classes import ACTIVE_BIT, DEG_MASK, WEIGHT_SHIFT

#: Elements per reduction block (fixed, so sums are independent of the thread count).
BLOCK = 1 << 14
#: Unit roundoff of float64.
UNIT = 2.0**-53


def tables() -> tuple[np.ndarray, np.ndarray]:
    """``(inv_deg[info], omega[info])`` for every info byte: 1/degree and the CG weight w * deg."""
    inv = np.zeros(256)
    omega = np.zeros(256)
    for b in range(256):
        d = b & DEG_MASK
        if d and b & ACTIVE_BIT:
            inv[b] = 1.0 / d
            omega[b] = d * float(1 << ((b >> WEIGHT_SHIFT) & 7))
    return inv, omega


@njit(parallel=True, **JIT)
def matvec_dot(
    nbr: np.ndarray, info: np.ndarray, inv: np.ndarray, omega: np.ndarray, p: np.ndarray, q: np.ndarray
) -> float:
    """``q = (I - P) p`` on active classes (0 elsewhere); returns the weighted dot ``<p, q>``."""
    n = p.shape[0]
    nb = (n + BLOCK - 1) // BLOCK
    partial = np.zeros(nb)
    for b in prange(nb):
        lo = b * BLOCK
        hi = min(lo + BLOCK, n)
        acc = 0.0
        for i in range(lo, hi):
            t = info[i]
            if t & ACTIVE_BIT:
                s = 0.0
                for k in range(4):
                    j = nbr[i, k]
                    if j >= 0:
                        s += p[j]
                v = p[i] - inv[t] * s
                q[i] = v
                acc += omega[t] * p[i] * v
            else:
                q[i] = 0.0
        partial[b] = acc
    total = 0.0
    for b in range(nb):
        total += partial[b]
    return total


@njit(parallel=True, **JIT)
def update_xs(
    alpha: float,
    info: np.ndarray,
    omega: np.ndarray,
    x: np.ndarray,
    s: np.ndarray,
    p: np.ndarray,
    q: np.ndarray,
) -> tuple[float, float]:
    """``x += alpha p``, ``s -= alpha q``; returns ``(<s, s>_omega, max |s|)``."""
    n = x.shape[0]
    nb = (n + BLOCK - 1) // BLOCK
    partial = np.zeros(nb)
    peak = np.zeros(nb)
    for b in prange(nb):
        lo = b * BLOCK
        hi = min(lo + BLOCK, n)
        acc = 0.0
        mx = 0.0
        for i in range(lo, hi):
            x[i] += alpha * p[i]
            v = s[i] - alpha * q[i]
            s[i] = v
            acc += omega[info[i]] * v * v
            mx = max(mx, abs(v))
        partial[b] = acc
        peak[b] = mx
    total = 0.0
    mx = 0.0
    for b in range(nb):
        total += partial[b]
        mx = max(mx, peak[b])
    return total, mx


@njit(parallel=True, **JIT)
def update_p(beta: float, s: np.ndarray, p: np.ndarray) -> None:
    """``p = s + beta p``."""
    for i in prange(p.shape[0]):
        p[i] = s[i] + beta * p[i]


@njit(**JIT)
def _two_sum(a: float, b: float) -> tuple[float, float]:
    s = a + b
    bb = s - a
    return s, (a - (s - bb)) + (b - bb)


@njit(parallel=True, **JIT)
def true_residual(
    nbr: np.ndarray, info: np.ndarray, omega: np.ndarray, x: np.ndarray, s: np.ndarray
) -> tuple[float, float, float]:
    """``s = 1 - (I - P) x`` from ``x`` itself, summed with TwoSum.

    Returns ``(<s, s>_omega, max |s|, sigma)`` where ``sigma`` is a rigorous upper bound of the exact
    ``max |s|`` (the computed value inflated by its rounding error bound).
    """
    n = x.shape[0]
    nb = (n + BLOCK - 1) // BLOCK
    partial = np.zeros(nb)
    peak = np.zeros(nb)
    bound = np.zeros(nb)
    u = 2.0**-53
    for b in prange(nb):
        lo = b * BLOCK
        hi = min(lo + BLOCK, n)
        acc = 0.0
        mx = 0.0
        bd = 0.0
        for i in range(lo, hi):
            t = info[i]
            if not t & ACTIVE_BIT:
                s[i] = 0.0
                continue
            d = t & DEG_MASK
            big = float(d)
            small = 0.0
            absum = float(d)
            for _ in range(d):
                big, e = _two_sum(big, -x[i])
                small += e
            absum += d * abs(x[i])
            for k in range(4):
                j = nbr[i, k]
                if j >= 0:
                    big, e = _two_sum(big, x[j])
                    small += e
                    absum += abs(x[j])
            v = (big + small) / d
            s[i] = v
            acc += omega[t] * v * v
            mx = max(mx, abs(v))
            # Sum2 (Ogita, Rump, Oishi): |computed - exact| <= u|exact| + gamma_{n-1}^2 sum|t|,
            # n <= 9 terms; then one rounded division by d. Inflate generously.
            bd = max(bd, abs(v) * (1.0 + 8.0 * u) + 128.0 * u * u * absum * 1.01)
        partial[b] = acc
        peak[b] = mx
        bound[b] = bd
    total = 0.0
    mx = 0.0
    bd = 0.0
    for b in range(nb):
        total += partial[b]
        mx = max(mx, peak[b])
        bd = max(bd, bound[b])
    return total, mx, bd


@dataclass
class SolverState:
    """Everything a solve needs to continue: restoring it continues the iteration bit for bit."""

    x: np.ndarray
    s: np.ndarray
    p: np.ndarray
    rz: float
    iteration: int = 0
    restarts: int = 0
    history: list[float] = field(default_factory=list)

    @staticmethod
    def start(n: int) -> SolverState:
        """The state before the first iteration, from x = 0 (s and p filled by :func:`solve`)."""
        return SolverState(np.zeros(n), np.zeros(n), np.zeros(n), -1.0)


@dataclass(frozen=True)
class SolveResult:
    """The solution and the numbers recorded in the store."""

    x: np.ndarray
    iterations: int
    restarts: int
    residual: float
    sigma: float
    rel_bound: float
    seconds: float
    seconds_per_iteration: float


def solve(
    nbr: np.ndarray,
    info: np.ndarray,
    state: SolverState,
    tol: float = 1e-13,
    max_iterations: int = 20000,
    on_iteration: Callable[[SolverState, float], None] | None = None,
    checkpoint: Callable[[SolverState], None] | None = None,
    checkpoint_seconds: float = 20.0,
) -> SolveResult:
    """Run PCG (with restarts from the true residual) until ``sigma <= tol``.

    The stopping test uses the rigorous residual bound ``sigma`` of the stored x. A restart recomputes
    ``s`` from x when the recurrence says converged but the true residual disagrees. If the true
    residual stops improving above ``tol`` the best reachable one is accepted provided it is at most
    ``1e-12``; otherwise :class:`RuntimeError`.
    """
    inv, omega = tables()
    x, s, p, q = state.x, state.s, state.p, np.empty_like(state.x)
    t0 = time.perf_counter()
    last_ckpt = t0
    iter_time = 0.0
    iters_here = 0
    if state.rz < 0:
        state.rz, smax, _ = true_residual(nbr, info, omega, x, s)
        p[:] = s
    best_sigma = math.inf
    stalls = 0
    while True:
        smax_rec = float(np.max(np.abs(s))) if state.iteration == 0 else state.history[-1]
        if smax_rec <= tol * 0.25 or state.rz == 0.0:
            rz, smax, sigma = true_residual(nbr, info, omega, x, s)
            if sigma <= tol or rz == 0.0:
                break
            if sigma >= best_sigma * 0.5:
                stalls += 1
                if stalls >= 2:
                    if sigma <= 1e-12:
                        break
                    raise RuntimeError(f"CG stalled at residual {sigma:.3g}")
            best_sigma = min(best_sigma, sigma)
            state.rz = rz
            p[:] = s
            state.restarts += 1
            state.history.append(smax)
        if state.iteration >= max_iterations:
            raise RuntimeError(f"CG did not converge in {max_iterations} iterations")
        ti = time.perf_counter()
        pq = matvec_dot(nbr, info, inv, omega, p, q)
        alpha = state.rz / pq
        rz_new, smax = update_xs(alpha, info, omega, x, s, p, q)
        update_p(rz_new / state.rz, s, p)
        state.rz = rz_new
        state.iteration += 1
        state.history.append(smax)
        iter_time += time.perf_counter() - ti
        iters_here += 1
        if on_iteration is not None:
            on_iteration(state, smax)
        if checkpoint is not None and time.perf_counter() - last_ckpt > checkpoint_seconds:
            checkpoint(state)
            last_ckpt = time.perf_counter()
    rel = sigma / (1.0 - sigma) * (1.0 + UNIT)
    return SolveResult(
        x=x,
        iterations=state.iteration,
        restarts=state.restarts,
        residual=smax,
        sigma=sigma,
        rel_bound=rel,
        seconds=time.perf_counter() - t0,
        seconds_per_iteration=iter_time / max(iters_here, 1),
    )
