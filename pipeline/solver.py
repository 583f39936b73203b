"""Jacobi-preconditioned conjugate gradient for r on symmetry classes, with a rigorous error bound.

The lumped walk: for every class ``c`` where red is not united,
``r[c] = 1 + (1/deg c) * sum over the slides of c's representative of r[class after the slide]``
(r = 0 where red is united). Multiplied by ``w[c] * deg[c]`` (``w`` = positions in the class) the
system is symmetric positive definite: ``w[c]`` times the number of slides from ``c`` into ``d`` counts
the slides between the two classes in the full graph, the same from both sides. Jacobi
preconditioning by that diagonal turns CG into iterations on the *transition form* residual
``s = 1 - (I - P) x``, so the kernels below work with ``P`` and weight only the dot products.

Bipartite reduction. Every slide moves the bubble to a cell of the other checkerboard colour, and
the board symmetries keep that colour, so the classes split into two halves O (numbered first, ids
below ``split``) and E with ``P = [[0, P_OE], [P_EO, 0]]``. Eliminating E (``x_E = 1 + P_EO x_O``)
leaves ``(I - P_OE P_EO) x_O = 1 + P_OE 1`` on O alone: eigenvalues ``1 - mu^2`` for the eigenvalues
``mu`` of P, a condition number about four times smaller than that of ``I - P``, so CG needs about
half the iterations, each one pass over the neighbours of all classes (E gathers from O, then O
from E) and vector updates on O only. The same weights keep it symmetric:
``W_O P_OE P_EO = M W_E^-1 M^T`` with ``M = W_O P_OE``.

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
def to_even(
    nbr: np.ndarray, info: np.ndarray, inv: np.ndarray, p: np.ndarray, t: np.ndarray, split: int
) -> None:
    """``t = P_EO p``: for each E class ``e`` (ids from ``split``), the mean of p over its slides."""
    n = info.shape[0]
    for e in prange(split, n):
        code = info[e]
        acc = 0.0
        if code & ACTIVE_BIT:
            for k in range(4):
                j = nbr[e, k]
                if j >= 0:
                    acc += p[j]
        t[e - split] = inv[code] * acc


@njit(parallel=True, **JIT)
def to_odd_dot(
    nbr: np.ndarray,
    info: np.ndarray,
    inv: np.ndarray,
    omega: np.ndarray,
    p: np.ndarray,
    t: np.ndarray,
    q: np.ndarray,
    split: int,
) -> float:
    """``q = p - P_OE t`` on active O classes (0 elsewhere); returns the weighted dot ``<p, q>``."""
    nb = (split + BLOCK - 1) // BLOCK
    partial = np.zeros(nb)
    for b in prange(nb):
        lo = b * BLOCK
        hi = min(lo + BLOCK, split)
        acc = 0.0
        for i in range(lo, hi):
            code = info[i]
            if code & ACTIVE_BIT:
                s = 0.0
                for k in range(4):
                    j = nbr[i, k]
                    if j >= 0:
                        s += t[j - split]
                v = p[i] - inv[code] * s
                q[i] = v
                acc += omega[code] * p[i] * v
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
    cpu_seconds: float


def check_bipartite(nbr: np.ndarray, split: int) -> None:
    """Raise ValueError unless every slide joins a class below ``split`` to one at or above it."""
    lo, hi = nbr[:split], nbr[split:]
    if np.any((lo >= 0) & (lo < split)) or np.any(hi >= split):
        raise ValueError("class graph is not bipartite at the split")


def full_x(nbr: np.ndarray, info: np.ndarray, x_o: np.ndarray, split: int) -> np.ndarray:
    """All of x from its O half: ``x_E = 1 + P_EO x_O`` on active E classes, 0 on the others."""
    inv, _ = tables()
    x = np.empty(info.shape[0])
    x[:split] = x_o
    t = np.empty(info.shape[0] - split)
    to_even(nbr, info, inv, x_o, t, split)
    x[split:] = np.where(info[split:] & ACTIVE_BIT, 1.0 + t, 0.0)
    return x


def solve(
    nbr: np.ndarray,
    info: np.ndarray,
    split: int,
    state: SolverState,
    tol: float = 1e-12,
    max_iterations: int = 20000,
    on_iteration: Callable[[SolverState, float], None] | None = None,
    checkpoint: Callable[[SolverState], None] | None = None,
    checkpoint_seconds: float = 20.0,
) -> SolveResult:
    """PCG on the O half (restarting from the true residual if needed) until ``sigma <= tol``.

    ``state`` holds vectors of length ``split``. The stopping test uses the rigorous residual bound
    ``sigma`` of the full stored x. A restart recomputes ``s`` when the recurrence says converged but
    the true residual disagrees. If the true residual stops improving above ``tol`` the best one is
    accepted if it is at most ``1e-12``; otherwise :class:`RuntimeError`.
    """
    inv, omega = tables()
    x, s, p = state.x, state.s, state.p
    q = np.empty(split)
    t = np.empty(info.shape[0] - split)
    t0 = time.perf_counter()
    c0 = time.process_time()
    last_ckpt = t0
    iter_time = 0.0
    iters_here = 0
    if state.rz < 0:
        active = (info[:split] & ACTIVE_BIT) != 0
        s[:] = np.where(active, 1.0 + inv[info[:split]] * (nbr[:split] >= 0).sum(axis=1), 0.0)
        p[:] = s
        state.rz = float(np.dot(omega[info[:split]] * s, s))
        state.history.append(float(np.max(np.abs(s))))
    best_sigma = math.inf
    stalls = 0
    full_s = np.empty(info.shape[0])
    while True:
        rec = state.history[-1]
        # Below tol the recurrence residual is checked against the true one every 4th iteration
        # (by number, so a resumed solve stops where an uninterrupted one does); once it is far below
        # tol while the true one is not, they have drifted apart: restart from the true residual.
        if (rec <= tol and state.iteration % 4 == 0) or rec <= tol * 0.05 or state.rz == 0.0:
            xf = full_x(nbr, info, x, split)
            _, smax, sigma = true_residual(nbr, info, omega, xf, full_s)
            if sigma <= tol:
                break
        if rec <= tol * 0.05 or state.rz == 0.0:
            if sigma >= best_sigma * 0.5:
                stalls += 1
                if stalls >= 2:
                    if sigma <= 1e-12:
                        break
                    raise RuntimeError(f"CG stalled at residual {sigma:.3g}")
            best_sigma = min(best_sigma, sigma)
            s[:] = full_s[:split]
            p[:] = s
            state.rz = float(np.dot(omega[info[:split]] * s, s))
            state.restarts += 1
            state.history.append(float(np.max(np.abs(s))))
        if state.iteration >= max_iterations:
            raise RuntimeError(f"CG did not converge in {max_iterations} iterations")
        ti = time.perf_counter()
        to_even(nbr, info, inv, p, t, split)
        pq = to_odd_dot(nbr, info, inv, omega, p, t, q, split)
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
        x=xf,
        iterations=state.iteration,
        restarts=state.restarts,
        residual=smax,
        sigma=sigma,
        rel_bound=rel,
        seconds=time.perf_counter() - t0,
        cpu_seconds=time.process_time() - c0,
        seconds_per_iteration=iter_time / max(iters_here, 1),
    )
