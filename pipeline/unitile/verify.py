"""Self-verification kernels beyond the per-position pass (:mod:`pipeline.unitile.cellpass`): a Monte Carlo
run of the random walk, and the symmetric and colour-swapped images of sampled positions.
"""

from __future__ import annotations

import numpy as np
from numba import prange

from .bits import JIT, PARALLEL, GeoArgs, cells_of, connected, permute, rank, slide, tiles_of, unrank


@PARALLEL
def image_pairs(picks: np.ndarray, g: GeoArgs) -> np.ndarray:
    """For each position index in ``picks``, the indices of its images under every symmetry, with the
    same colours and with them swapped: ``out[i, 2 * sym + swapped]``."""
    c = g.colourings
    out = np.empty((picks.shape[0], 2 * g.n_sym), dtype=np.int64)
    for i in prange(picks.shape[0]):
        bubble = picks[i] // c
        red = cells_of(unrank(picks[i] - bubble * c, g), bubble)
        blue = g.full & ~red & ~(1 << bubble)
        for sym in range(g.n_sym):
            b2 = permute(1 << bubble, sym, g)
            cell = 0
            while b2 >> cell != 1:
                cell += 1
            out[i, 2 * sym] = cell * c + rank(tiles_of(permute(red, sym, g), cell), g)
            out[i, 2 * sym + 1] = cell * c + rank(tiles_of(permute(blue, sym, g), cell), g)
    return out


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
