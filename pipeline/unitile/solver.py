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
an upper bound of ``max|s|``. :func:`residual_rows` computes ``s`` from the stored ``x`` with
error-free transformations (TwoSum), so ``sigma`` bounds the residual of the very numbers stored.

The kernels here work on the rows of one part of the graph (:mod:`pipeline.unitile.partition`), with
neighbours as local indices; :mod:`pipeline.unitile.cg` drives the iteration. Every reduction returns
per-chunk partial sums (chunks of :data:`BLOCK` classes) that the driver adds in chunk order, so
results depend neither on the number of threads nor on the number of parts: a solve resumed from a
checkpoint, or run on any number of workers, gives the same bits.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np
from numba import prange

from .bits import JIT, PARALLEL
from .classes import ACTIVE_BIT, DEG_MASK, WEIGHT_SHIFT

#: Classes per reduction chunk (fixed, so sums are independent of threads and parts); parts own whole
#: chunks.
BLOCK = 1 << 12
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


@PARALLEL
def gather_mean(nbr: np.ndarray, info: np.ndarray, inv: np.ndarray, src: np.ndarray, out: np.ndarray) -> None:
    """``out[i] = mean of src over the slides of row i`` (0 on inactive rows): a gather ``P src``.

    ``nbr`` holds local indices into ``src`` (-1: no slide); only the first ``len(info)`` entries of
    ``out`` are written.
    """
    for i in prange(info.shape[0]):
        code = info[i]
        acc = 0.0
        if code & ACTIVE_BIT:
            for k in range(4):
                j = nbr[i, k]
                if j >= 0:
                    acc += src[j]
        out[i] = inv[code] * acc


@PARALLEL
def gather_mean_split(
    nbr: np.ndarray, info: np.ndarray, inv: np.ndarray, own: np.ndarray, halo: np.ndarray, out: np.ndarray
) -> None:
    """:func:`gather_mean` from ``own`` followed by ``halo`` (a part's own x and x's halo values, which
    arrive in p's halo slots). The branch is written out here: a jitted helper for it was several times
    slower."""
    m = own.shape[0]
    for i in prange(info.shape[0]):
        code = info[i]
        acc = 0.0
        if code & ACTIVE_BIT:
            for k in range(4):
                j = nbr[i, k]
                if j >= 0:
                    acc += own[j] if j < m else halo[j - m]
        out[i] = inv[code] * acc


@PARALLEL
def odd_dot(
    nbr: np.ndarray,
    info: np.ndarray,
    inv: np.ndarray,
    omega: np.ndarray,
    p: np.ndarray,
    t: np.ndarray,
    q: np.ndarray,
) -> np.ndarray:
    """``q = p - P_OE t`` on active O rows (0 elsewhere); per-chunk sums of the weighted ``<p, q>``."""
    n = info.shape[0]
    nb = (n + BLOCK - 1) // BLOCK
    partial = np.zeros(nb)
    for b in prange(nb):
        lo = b * BLOCK
        hi = min(lo + BLOCK, n)
        acc = 0.0
        for i in range(lo, hi):
            code = info[i]
            if code & ACTIVE_BIT:
                s = 0.0
                for k in range(4):
                    j = nbr[i, k]
                    if j >= 0:
                        s += t[j]
                v = p[i] - inv[code] * s
                q[i] = v
                acc += omega[code] * p[i] * v
            else:
                q[i] = 0.0
        partial[b] = acc
    return partial


@PARALLEL
def update_xs(
    alpha: float,
    info: np.ndarray,
    omega: np.ndarray,
    x: np.ndarray,
    s: np.ndarray,
    p: np.ndarray,
    q: np.ndarray,
) -> tuple[np.ndarray, float]:
    """``x += alpha p``, ``s -= alpha q``; returns per-chunk sums of ``<s, s>_omega`` and ``max |s|``
    (as :func:`square_sums`, each chunk summed right after its update)."""
    n = x.shape[0]
    nb = (n + BLOCK - 1) // BLOCK
    partial = np.zeros(nb)
    peak = np.zeros(nb)
    for b in prange(nb):
        lo = b * BLOCK
        hi = min(lo + BLOCK, n)
        for i in range(lo, hi):
            x[i] += alpha * p[i]
            s[i] -= alpha * q[i]
        partial[b], peak[b] = _chunk_square_sum(info, omega, s, lo, hi)
    return partial, peak.max() if nb else 0.0


@PARALLEL
def square_sums(info: np.ndarray, omega: np.ndarray, s: np.ndarray) -> tuple[np.ndarray, float]:
    """Per-chunk sums of ``<s, s>_omega`` and ``max |s|``."""
    n = s.shape[0]
    nb = (n + BLOCK - 1) // BLOCK
    partial = np.zeros(nb)
    peak = np.zeros(nb)
    for b in prange(nb):
        lo = b * BLOCK
        partial[b], peak[b] = _chunk_square_sum(info, omega, s, lo, min(lo + BLOCK, n))
    return partial, peak.max() if nb else 0.0


@JIT
def _chunk_square_sum(
    info: np.ndarray, omega: np.ndarray, s: np.ndarray, lo: int, hi: int
) -> tuple[float, float]:
    """``<s, s>_omega`` and ``max |s|`` over the rows ``lo`` to ``hi`` of one chunk, in row order."""
    acc = 0.0
    mx = 0.0
    for i in range(lo, hi):
        v = s[i]
        acc += omega[info[i]] * v * v
        mx = max(mx, abs(v))
    return acc, mx


@PARALLEL
def start_residual(nbr: np.ndarray, info: np.ndarray, inv: np.ndarray, s: np.ndarray) -> None:
    """The residual of x = 0 on some O rows, ``s = 1 + P_OE 1`` (the reduced system, module docstring):
    ``1 + (slides that reach a class) / degree`` on active rows, 0 elsewhere, with no temporaries."""
    for i in prange(info.shape[0]):
        code = info[i]
        if code & ACTIVE_BIT:
            count = 0
            for k in range(4):
                if nbr[i, k] >= 0:
                    count += 1
            s[i] = 1.0 + inv[code] * count
        else:
            s[i] = 0.0


@PARALLEL
def update_p(beta: float, s: np.ndarray, p: np.ndarray) -> None:
    """``p = s + beta p``."""
    for i in prange(p.shape[0]):
        p[i] = s[i] + beta * p[i]


@JIT
def _two_sum(a: float, b: float) -> tuple[float, float]:
    s = a + b
    bb = s - a
    return s, (a - (s - bb)) + (b - bb)


@PARALLEL
def residual_rows(
    nbr: np.ndarray, info: np.ndarray, x: np.ndarray, other: np.ndarray, halo: np.ndarray, s: np.ndarray
) -> tuple[float, float]:
    """``s = 1 - (I - P) x`` on some rows, summed with TwoSum: ``x`` holds the rows' own values,
    ``other`` followed by ``halo`` the values their slides reach (``nbr``: local indices into the two
    read as one). An empty ``s`` keeps nothing but the two numbers below.

    Returns ``(max |s|, sigma)``, where ``sigma`` is a rigorous upper bound of the exact ``max |s|``
    (the computed value inflated by its rounding error bound).
    """
    n = x.shape[0]
    m = other.shape[0]
    keep = s.shape[0] > 0
    nb = (n + BLOCK - 1) // BLOCK
    peak = np.zeros(nb)
    bound = np.zeros(nb)
    for b in prange(nb):
        lo = b * BLOCK
        hi = min(lo + BLOCK, n)
        mx = 0.0
        bd = 0.0
        for i in range(lo, hi):
            t = info[i]
            if not t & ACTIVE_BIT:
                if keep:
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
                    y = other[j] if j < m else halo[j - m]
                    big, e = _two_sum(big, y)
                    small += e
                    absum += abs(y)
            v = (big + small) / d
            if keep:
                s[i] = v
            mx = max(mx, abs(v))
            # Sum2 (Ogita, Rump, Oishi): |computed - exact| <= u|exact| + gamma_{n-1}^2 sum|t|,
            # n <= 9 terms; then one rounded division by d. Inflate generously.
            bd = max(bd, abs(v) * (1.0 + 8.0 * UNIT) + 128.0 * UNIT * UNIT * absum * 1.01)
        peak[b] = mx
        bound[b] = bd
    if nb == 0:
        return 0.0, 0.0
    return peak.max(), bound.max()


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
    #: The rigorous residual bound of the last check of the true residual (inf before the first), the
    #: smallest one a restart started from, and the restarts that did not halve it.
    checked: float = math.inf
    best: float = math.inf
    stalls: int = 0

    @staticmethod
    def start(n: int) -> SolverState:
        """The state before the first iteration, from x = 0 (s and p filled by :func:`solve`)."""
        return SolverState(np.zeros(n), np.zeros(n), np.zeros(n), -1.0)


@dataclass(frozen=True)
class SolveResult:
    """The solution (when gathered in one process) and the numbers recorded in the store."""

    x: np.ndarray | None
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
