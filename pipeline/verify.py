"""Self-verification kernels: the value identities over every position, and a Monte Carlo check.

For every position P where neither colour is united, ``mean T(P') = T(P) - 2`` over its slides, and
some slide lowers T by 2 or more. Slides between two such positions are the ones whose legality the
values decide; the gap ``|T(P) - T(P')|`` of each must exceed the uncertainty ``2 * bound``.
"""

from __future__ import annotations

import numpy as np
from numba import prange

from .bits import JIT, PARALLEL, GeoArgs, cells_of, connected, next_combination, rank, slide, tiles_of, unrank

#: Slots of the per-chunk statistics vector.
RED_ONLY, BLUE_ONLY, BOTH, NEITHER = 0, 1, 2, 3
MEAN_BAD, DROP_BAD, EQUAL, UNDECIDABLE, DECIDING = 4, 5, 6, 7, 8
N_COUNTS = 9
MAX_MEAN_DEV, MIN_BEST_DROP, MIN_GAP = 0, 1, 2
N_REALS = 3
CHUNK = 1 << 15


@PARALLEL
def verify_block(
    bubble: int,
    blocks: np.ndarray,
    bound: float,
    mean_tol: float,
    g: GeoArgs,
) -> tuple[np.ndarray, np.ndarray]:
    """Statistics of the positions with the bubble on ``bubble``.

    ``blocks[0]`` holds T of those positions by rank, ``blocks[1 + k]`` T of the positions with the
    bubble on the k-th neighbour cell. Returns ``(counts, reals)`` as laid out by the slot constants.
    """
    colourings = blocks.shape[1]
    n_chunks = (colourings + CHUNK - 1) // CHUNK
    counts = np.zeros((n_chunks, N_COUNTS), dtype=np.int64)
    reals = np.empty((n_chunks, N_REALS))
    d = g.deg[bubble]
    full = g.full
    for ch in prange(n_chunks):
        lo = ch * CHUNK
        hi = min(lo + CHUNK, colourings)
        max_dev = 0.0
        min_drop = np.inf
        min_gap = np.inf
        m = unrank(lo, g)
        for r in range(lo, hi):
            cm = cells_of(m, bubble)
            m = next_combination(m)
            blue = full & ~cm & ~(1 << bubble)
            ru = connected(cm, g)
            bu = connected(blue, g)
            if ru and bu:
                counts[ch, BOTH] += 1
                continue
            if ru:
                counts[ch, RED_ONLY] += 1
                continue
            if bu:
                counts[ch, BLUE_ONLY] += 1
                continue
            counts[ch, NEITHER] += 1
            t = blocks[0, r]
            total = 0.0
            best_drop = -np.inf
            for k in range(d):
                n = g.nbr_cells[bubble, k]
                cm2 = slide(cm, bubble, n)
                t2 = blocks[1 + k, rank(tiles_of(cm2, n), g)]
                total += t2
                best_drop = max(best_drop, t - t2)
                # Only the colour of the moving tile can become united.
                if cm >> n & 1:
                    if connected(cm2, g):
                        continue
                elif connected(full & ~cm2 & ~(1 << n), g):
                    continue
                counts[ch, DECIDING] += 1
                gap = abs(t - t2)
                if gap == 0.0:
                    counts[ch, EQUAL] += 1
                elif gap < min_gap:
                    min_gap = gap
                if gap <= 2.0 * bound:
                    counts[ch, UNDECIDABLE] += 1
            dev = abs(total / d - (t - 2.0))
            max_dev = max(max_dev, dev)
            if dev > mean_tol:
                counts[ch, MEAN_BAD] += 1
            min_drop = min(min_drop, best_drop)
            if best_drop < 2.0 - 2.0 * bound - mean_tol:
                counts[ch, DROP_BAD] += 1
        reals[ch, MAX_MEAN_DEV] = max_dev
        reals[ch, MIN_BEST_DROP] = min_drop
        reals[ch, MIN_GAP] = min_gap
    out_c = np.zeros(N_COUNTS, dtype=np.int64)
    out_r = np.array([0.0, np.inf, np.inf])
    for ch in range(n_chunks):
        out_c += counts[ch]
        out_r[MAX_MEAN_DEV] = max(out_r[MAX_MEAN_DEV], reals[ch, MAX_MEAN_DEV])
        out_r[MIN_BEST_DROP] = min(out_r[MIN_BEST_DROP], reals[ch, MIN_BEST_DROP])
        out_r[MIN_GAP] = min(out_r[MIN_GAP], reals[ch, MIN_GAP])
    return out_c, out_r


@JIT
def _splitmix(state: np.uint64) -> tuple[np.uint64, np.uint64]:
    state = state + np.uint64(0x9E3779B97F4A7C15)
    z = state
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return state, z ^ (z >> np.uint64(31))


@PARALLEL
def random_walks(
    red_cells: int,
    bubble: int,
    walks: int,
    seed: int,
    g: GeoArgs,
) -> np.ndarray:
    """Slides until red is united, for ``walks`` independent uniform random walks (seeded)."""
    out = np.empty(walks, dtype=np.int64)
    for w in prange(walks):
        state = np.uint64(seed) * np.uint64(0x100000001B3) + np.uint64(w)
        cm = red_cells
        b = bubble
        steps = 0
        united = connected(cm, g)
        while not united:
            state, z = _splitmix(state)
            n = g.nbr_cells[b, np.int64(z % np.uint64(g.deg[b]))]
            moved_red = cm >> n & 1
            cm = slide(cm, b, n)
            b = n
            steps += 1
            if moved_red:
                united = connected(cm, g)
        out[w] = steps
    return out
