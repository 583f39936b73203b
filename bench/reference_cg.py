"""Plain reference for the value solve: numpy over every position, Jacobi-preconditioned CG.

No symmetry, no numba, one process: the yardstick the pipeline's solve is compared with. It builds
the neighbour index of all positions with vectorised numpy, solves
``deg(P) r(P) - sum r(P') = deg(P)`` (neighbours where red is united contribute 0) to a relative
residual of 1e-13, and, given a store, compares T = r + b with the store's T. Its timings go to
``build/reference-<board>.json``, which ``bench/values.py`` prints next to the pipeline's.

Usage: .venv/bin/python bench/reference_cg.py [--board 5x5] [--store build/5x5.zarr] [--tol 1e-13]
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import resource
import sys
import time
from math import comb
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from unitile_py.unitile import Board


def rank_all(masks: np.ndarray, tiles: int, red: int) -> np.ndarray:
    """Colex ranks of tile masks (vectorised)."""
    out = np.zeros(masks.shape, dtype=np.int64)
    seen = np.zeros(masks.shape, dtype=np.int64)
    binom = np.array([[comb(p, j) for j in range(red + 2)] for p in range(tiles)], dtype=np.int64)
    for p in range(tiles):
        bit = (masks >> p) & 1
        seen += bit
        out += bit * binom[p, np.minimum(seen, red + 1)]
    return out


def united(cells: np.ndarray, board: Board) -> np.ndarray:
    """Whether each cell mask is one orthogonally connected group (vectorised flood fill)."""
    cols = board.cols
    not_last = sum(1 << c for c in range(board.cells) if c % cols != cols - 1)
    not_first = sum(1 << c for c in range(board.cells) if c % cols != 0)
    group = cells & -cells
    while True:
        bigger = (
            group | (group << cols) | (group >> cols) | ((group & not_last) << 1) | ((group & not_first) >> 1)
        ) & cells
        if np.array_equal(bigger, group):
            return group == cells
        group = bigger


def neighbour_index(board: Board) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(nbr, deg, active)``: nbr[k, i] the k-th neighbour of position i (N = none or red united)."""
    tiles, red, c, n = board.tiles, board.red_count, board.colourings, board.positions
    masks = np.array(
        [sum(1 << p for p in combo) for combo in itertools.combinations(range(tiles), red)], dtype=np.int64
    )
    masks_by_rank = np.empty_like(masks)
    masks_by_rank[rank_all(masks, tiles, red)] = masks
    del masks
    nbr = np.full((4, n), n, dtype=np.intp)  # np.take converts any other index type on every call
    deg = np.zeros(n, dtype=np.float64)
    active = np.zeros(n, dtype=bool)
    for b in range(board.cells):
        low = masks_by_rank & ((1 << b) - 1)
        cells = low | ((masks_by_rank >> b) << (b + 1))
        block = slice(b * c, (b + 1) * c)
        active[block] = ~united(cells, board)
        deg[block] = len(board.neighbours[b])
        for k, cell in enumerate(board.neighbours[b]):
            moved = (cells >> cell) & 1
            after = np.where(moved == 1, (cells & ~(1 << cell)) | (1 << b), cells)
            low2 = after & ((1 << cell) - 1)
            tmask = low2 | ((after >> (cell + 1)) << cell)
            idx = cell * c + rank_all(tmask, tiles, red)
            idx = np.where(united(after, board), n, idx)
            nbr[k, block] = idx
    return nbr, deg, active


def cg(nbr: np.ndarray, deg: np.ndarray, active: np.ndarray, tol: float) -> tuple[np.ndarray, int, float]:
    """Jacobi-preconditioned CG with preallocated buffers; returns (r, iterations, seconds per iteration).

    Rows where red is united get degree 0 and no neighbours, so they stay 0.
    """
    n = deg.shape[0]
    d = np.where(active, deg, 0.0)
    for k in range(4):
        nbr[k][~active] = n
    dinv = np.divide(1.0, d, out=np.zeros(n), where=d > 0)
    x = np.zeros(n)
    r = d.copy()  # b = deg on active rows
    z = r * dinv
    p = np.zeros(n + 1)  # p[n] = 0: the slot of missing neighbours
    p[:n] = z
    q = np.empty(n)
    tmp = np.empty(n)
    rz = float(r @ z)
    bnorm = float(np.linalg.norm(r))
    it = 0
    t0 = time.perf_counter()
    while float(np.linalg.norm(r)) > tol * bnorm:
        pv = p[:n]
        np.multiply(d, pv, out=q)
        for k in range(4):
            np.take(p, nbr[k], out=tmp)
            q -= tmp
        alpha = rz / float(pv @ q)
        np.multiply(pv, alpha, out=tmp)
        x += tmp
        np.multiply(q, alpha, out=tmp)
        r -= tmp
        np.multiply(r, dinv, out=z)
        rz_new = float(r @ z)
        pv *= rz_new / rz
        pv += z
        rz = rz_new
        it += 1
        if it % 25 == 0:
            print(f"  iteration {it}: relative residual {np.linalg.norm(r) / bnorm:.2e}", flush=True)
    return x, it, (time.perf_counter() - t0) / max(it, 1)


def main() -> None:
    """Run the reference solve and print its numbers."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--board", default="5x5")
    ap.add_argument("--store", help="compare with this store's T")
    ap.add_argument("--tol", type=float, default=1e-13)
    args = ap.parse_args()
    board = Board.parse(args.board)
    t0 = time.perf_counter()
    nbr, deg, active = neighbour_index(board)
    t1 = time.perf_counter()
    print(f"reference {board}: {board.positions:,} unknowns, neighbour index {t1 - t0:.1f} s", flush=True)
    c1 = time.process_time()
    r, iterations, per_it = cg(nbr, deg, active, args.tol)
    t2 = time.perf_counter()
    cpu = time.process_time() - c1
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2**20
    print(
        f"reference CG: {iterations} iterations, {t2 - t1:.1f} s ({per_it:.3f} s per iteration), "
        f"CPU {cpu:.1f} s, peak memory {peak:.2f} GiB, load average {os.getloadavg()[0]:.1f}"
    )
    result = {
        "board": str(board),
        "iterations": iterations,
        "seconds": t2 - t1,
        "seconds_per_iteration": per_it,
        "cpu_seconds": cpu,
        "peak_gib": peak,
        "load_average": os.getloadavg()[0],
    }
    Path("build").mkdir(exist_ok=True)
    Path(f"build/reference-{board}.json").write_text(json.dumps(result, indent=1) + "\n")
    if args.store:
        from pipeline.unitile.values import load_T
        from unitile_py.unitile.index import Indexer

        t = load_T(args.store, board)
        ix = Indexer.get(board)
        # b(P) = r(swap P): the swapped position has the complementary tile mask, same bubble.
        c = board.colourings
        comp = np.empty(c, dtype=np.int64)
        for rk in range(c):
            comp[rk] = ix.rank(((1 << board.tiles) - 1) & ~ix.unrank(rk))
        swap = (np.arange(board.positions) // c) * c + np.tile(comp, board.cells)
        t_ref = r + r[swap]
        rel = np.abs(t - t_ref) / np.maximum(t_ref, 1.0)
        print(f"max relative difference of T from the store: {rel.max():.2e}")


if __name__ == "__main__":
    main()
