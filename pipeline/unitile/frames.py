"""Record numbers of the table files in numba: the frames of a board
(:class:`unitile_py.unitile.canonical.Frame`, docs/tables.md) as padded arrays, and :func:`frame_index`, one
position's record number and element.

The encoder (:func:`pipeline.unitile.compact.frame_records`) numbers every colouring of a frame cell with it,
the checking decoder (:mod:`pipeline.unitile.decode`) every position of every cell: the same kernel, so the
files are checked against the arrays by the very numbering that wrote them, and that numbering against
the game's reader on sampled positions (tables-verify).
"""

from __future__ import annotations

from functools import cache
from typing import NamedTuple

import numpy as np
from numba import prange

from unitile_py.unitile.board import Board
from unitile_py.unitile.canonical import Frame, orbit_rep

from .bits import INLINE, PARALLEL, GeoArgs, cells_of, next_combination, permute, unrank
from .cellpass import CHUNK
from .geometry import Geometry


class FrameTables(NamedTuple):
    """Every frame of a board, frame ``i`` for the ``i``-th representative cell (``reps``), padded to
    common shapes; the fields are :class:`Frame`'s tables (``frame_of[cell]``: the frame of a cell's
    representative, ``reduce[cell]`` the symmetry taking the cell there)."""

    red: int
    reps: np.ndarray
    frame_of: np.ndarray
    reduce: np.ndarray
    blocks: np.ndarray
    #: pattern_tab[f, j, chunk, byte]: the pattern bits of block j from one byte of a cell mask.
    pattern_tab: np.ndarray
    act: np.ndarray
    compose: np.ndarray
    can_pattern: np.ndarray
    can_element: np.ndarray
    can_next: np.ndarray
    cum: np.ndarray
    flips: np.ndarray
    #: kmap[cell, e, k]: the canonical slide (neighbour index of the representative) of the cell's k-th
    #: slide once the reduction and element e have moved the position.
    kmap: np.ndarray
    #: back[cell, k]: the index of ``cell`` among the neighbours of its k-th neighbour (the slide back).
    back: np.ndarray
    pop8: np.ndarray


def is_even(board: Board, cell: int) -> bool:
    """Whether a cell has even parity (row + column even): even frames hold the legal slides."""
    r, c = board.row_col(cell)
    return (r + c) % 2 == 0


def frame_cells(board: Board) -> list[int]:
    """The representative cells of the bubble orbits, in increasing order (one file each)."""
    return sorted({orbit_rep(board, c)[0] for c in range(board.cells)})


def frame_of(board: Board, cell: int) -> Frame:
    """The frame of a representative cell (with the colour swap on even cells)."""
    return Frame.of(board, cell, swap=is_even(board, cell))


@cache
def frame_tables(board: Board) -> FrameTables:
    """The tables of every frame of ``board`` (built once per process)."""
    reps = frame_cells(board)
    frames = [frame_of(board, f) for f in reps]
    nf, nb = len(frames), max(len(f.blocks) for f in frames)
    size = max(f.size for f in frames)
    groups = max(len(ids) for f in frames for ids in f.group_ids)
    red, chunks = board.red_count, (board.cells + 7) // 8
    blocks = np.zeros(nf, dtype=np.int64)
    pattern_tab = np.zeros((nf, nb, chunks, 256), dtype=np.int64)
    act = np.zeros((nf, size, nb, 256), dtype=np.int64)
    compose = np.zeros((nf, size, size), dtype=np.int64)
    can = np.zeros((3, nf, nb, groups, 256), dtype=np.int64)
    cum = np.zeros((nf, nb, groups, red + 1, 256), dtype=np.int64)
    flips = np.zeros((nf, size), dtype=np.bool_)
    for i, fr in enumerate(frames):
        blocks[i] = len(fr.blocks)
        for j, cells in enumerate(fr.blocks):
            for bit, cell in enumerate(cells):
                for byte in range(256):
                    if byte >> (cell % 8) & 1:
                        pattern_tab[i, j, cell // 8, byte] |= 1 << bit
            for g, row in enumerate(fr.can_pattern[j]):
                can[0, i, j, g, : len(row)] = row
                can[1, i, j, g, : len(row)] = fr.can_element[j][g]
                can[2, i, j, g, : len(row)] = fr.can_next[j][g]
            for g, per_k in enumerate(fr.cum[j]):
                for k, row in enumerate(per_k):
                    cum[i, j, g, k, : len(row)] = row
        for e in range(fr.size):
            for j in range(len(fr.blocks)):
                act[i, e, j, : len(fr.act[e][j])] = fr.act[e][j]
        compose[i, : fr.size, : fr.size] = fr.compose
        flips[i, : fr.size] = fr.flips
    frame_no = np.zeros(board.cells, dtype=np.int64)
    reduce = np.zeros(board.cells, dtype=np.int64)
    kmap = np.zeros((board.cells, size, 4), dtype=np.int64)
    back = np.zeros((board.cells, 4), dtype=np.int64)
    for cell in range(board.cells):
        for k, n in enumerate(board.neighbours[cell]):
            back[cell, k] = board.neighbours[n].index(cell)
        rep, s = orbit_rep(board, cell)
        frame_no[cell], reduce[cell] = reps.index(rep), s
        fr = frames[reps.index(rep)]
        canon = board.neighbours[rep]
        for e in range(fr.size):
            for k, n in enumerate(board.neighbours[cell]):
                kmap[cell, e, k] = canon.index(fr.perms[e][board.symmetries[s][n]])
    reps_arr = np.array(reps, dtype=np.int64)
    return FrameTables(red, reps_arr, frame_no, reduce, blocks, pattern_tab, act, compose, can[0], can[1],
                       can[2], cum, flips, kmap, back, Geometry.of(board).pop8)  # fmt: skip


@INLINE
def frame_index(cm: int, f: int, ft: FrameTables) -> tuple[int, int, bool]:
    """``(record number, element, canonical)`` of the red cells ``cm`` with the bubble on the frame's
    representative cell (frame number ``f``); ``canonical``: the colouring is its class's canonical form."""
    e = 0
    g = 0
    k = ft.red
    idx = 0
    canonical = True
    for j in range(ft.blocks[f]):
        raw = 0
        m = cm
        ch = 0
        while m:
            raw |= ft.pattern_tab[f, j, ch, m & 255]
            m >>= 8
            ch += 1
        p = ft.act[f, e, j, raw]
        best = ft.can_pattern[f, j, g, p]
        idx += ft.cum[f, j, g, k, best]
        k -= ft.pop8[best]
        e = ft.compose[f, ft.can_element[f, j, g, p], e]
        g = ft.can_next[f, j, g, p]
        canonical = canonical and best == raw
    return idx, e, canonical


@INLINE
def locate(cm: int, bubble: int, ft: FrameTables, g: GeoArgs) -> tuple[int, int, int]:
    """``(frame, record number, element)`` of the position with red cells ``cm`` and the bubble on
    ``bubble``: the reduction moves it to the representative, the frame numbers it."""
    f = ft.frame_of[bubble]
    idx, e, _ = frame_index(permute(cm, ft.reduce[bubble], g), f, ft)
    return f, idx, e


@PARALLEL
def _index_cell(
    cell: int, f: int, ft: FrameTables, g: GeoArgs, idx: np.ndarray, canonical: np.ndarray
) -> None:
    c = g.colourings
    for ch in prange((c + CHUNK - 1) // CHUNK):
        a = ch * CHUNK
        m = unrank(a, g)
        for r in range(a, min(a + CHUNK, c)):
            i, _, can = frame_index(cells_of(m, cell), f, ft)
            idx[r] = i
            canonical[r] = can
            m = next_combination(m)


def index_cell(board: Board, cell: int) -> tuple[np.ndarray, np.ndarray]:
    """``(record number, canonical)`` of every colouring of a representative cell, by rank."""
    ft = frame_tables(board)
    c = board.colourings
    idx = np.empty(c, dtype=np.int64)
    canonical = np.empty(c, dtype=np.bool_)
    _index_cell(cell, int(np.flatnonzero(ft.reps == cell)[0]), ft, Geometry.of(board).args, idx, canonical)
    return idx, canonical
