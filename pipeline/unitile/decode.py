"""The checking decoder of the table files: every position of a bubble cell read back from the files, in
numba, and compared with the arrays it was written from (tables-verify).

:func:`load_records` parses every frame file of a folder (zlib blocks, symbol tables) into one
:class:`Records` (kept per process, keyed by the manifest's bytes). The positions are decoded as
docs/tables.md says a reader must: the record of the position's canonical form, its slides mapped back
from canonical ones, and for a bubble on an odd cell the legal slides from the records of the positions
after each slide (with the bubble on even cells). The decoding of those records is shared:
:func:`check_even` decodes every position of an even cell and also returns its record's legal slides
for every position (those where a colour is united included), and :func:`check_odd` reads an odd cell's
legality from those of its neighbour cells (a rank per slide instead of a record lookup per slide).
"""

from __future__ import annotations

import hashlib
import struct
import zlib
from functools import cache
from pathlib import Path
from typing import NamedTuple

import numpy as np
from numba import prange

from unitile_py.errors import UnitileError
from unitile_py.unitile.board import Board
from unitile_py.unitile.table_files import ENDS, KIND_EVEN, KIND_ODD

from ..errors import CheckFailed
from .bits import (
    INLINE,
    PARALLEL,
    GeoArgs,
    cells_of,
    connected,
    next_combination,
    rank,
    slide,
    tiles_of,
    unrank,
)
from .cellpass import CHUNK, SLIDES, UNITED
from .compact import file_name, parse
from .frames import FrameTables, frame_tables, is_even, locate
from .geometry import Geometry


class Records(NamedTuple):
    """The records of every frame (frame ``f`` at ``records[offset[f]:offset[f + 1]]``), their symbol
    tables (``table[f, symbol]``: the three bytes) and kinds (1 even)."""

    kind: np.ndarray
    table: np.ndarray
    offset: np.ndarray
    records: np.ndarray


def load_records(board: Board, folder: Path) -> Records:
    """The records of the table files in ``folder`` (parsed once per process and manifest)."""
    manifest = (folder / "manifest.json").read_bytes()
    return _load(board, str(folder), hashlib.sha256(manifest).hexdigest())


@cache
def _load(board: Board, folder: str, stamp: str) -> Records:
    ft = frame_tables(board)
    parsed = []
    for f in ft.reps.tolist():
        name = file_name(board, f)
        try:
            parsed.append(parse((Path(folder) / name).read_bytes()))
        except (OSError, ValueError, UnitileError, zlib.error, struct.error) as exc:
            raise CheckFailed(f"tables {folder}: {name} cannot be read or decoded ({exc})") from None
        if parsed[-1][1] != f:
            raise CheckFailed(f"tables {folder}: {name} holds cell {parsed[-1][1]}, not {f}")
    width = max(len(symbols) for _, _, symbols, _ in parsed)
    table = np.zeros((len(parsed), width, 3), dtype=np.int64)
    for f, (_, _, symbols, _) in enumerate(parsed):
        table[f, : len(symbols)] = symbols
    offset = np.cumsum([0] + [records.shape[0] for _, _, _, records in parsed])
    return Records(
        np.array([kind for kind, _, _, _ in parsed], dtype=np.int64),
        table,
        offset.astype(np.int64),
        np.concatenate([records for _, _, _, records in parsed]).astype(np.int64),
    )


@INLINE
def _record(
    cm: int, bubble: int, ft: FrameTables, rec: Records, g: GeoArgs
) -> tuple[int, int, int, int, int]:
    """``(frame, element, a, b, c)``: the symbol bytes of the position's record."""
    f, idx, e = locate(cm, bubble, ft, g)
    s = rec.records[rec.offset[f] + idx]
    return f, e, rec.table[f, s, 0], rec.table[f, s, 1], rec.table[f, s, 2]


@INLINE
def _actual(mask: int, cell: int, e: int, deg: int, ft: FrameTables) -> int:
    """Canonical slide bits (bits 0-3 of ``mask``) as the cell's own slide bits under element ``e``."""
    out = 0
    for k in range(deg):
        out |= ((mask >> ft.kmap[cell, e, k]) & 1) << k
    return out


@PARALLEL
def _check_even(
    bubble: int,
    legal: np.ndarray,
    best: np.ndarray,
    value: np.ndarray,
    ft: FrameTables,
    rec: Records,
    g: GeoArgs,
    raw: np.ndarray,
    bad: np.ndarray,
) -> None:
    c = legal.shape[0]
    deg = g.deg[bubble]
    for ch in prange((c + CHUNK - 1) // CHUNK):
        a = ch * CHUNK
        m = unrank(a, g)
        wrong_legal = 0
        wrong_best = 0
        for r in range(a, min(a + CHUNK, c)):
            cm = cells_of(m, bubble)
            m = next_combination(m)
            f, e, sa, sb, sc = _record(cm, bubble, ft, rec, g)
            # The record's legal slides as this cell's own slides, where a colour is united too: the
            # positions of odd cells decode their legality from these.
            raw[r] = _actual(sa, bubble, e, deg, ft)
            united = connected(cm, g) or connected(g.full & ~cm & ~(1 << bubble), g)
            got_legal = got_best = 0
            if not united:
                chosen = sc if ft.flips[f, e] else sb
                got_legal = raw[r]
                got_best = _actual(chosen & SLIDES, bubble, e, deg, ft) | (chosen & ENDS)
            flags = legal[r]
            want_legal = 0 if flags & UNITED else flags & SLIDES
            want_best = 0 if flags & UNITED else best[r] | (ENDS if abs(value[r]) == 1 else 0)
            wrong_legal += int(got_legal != want_legal)
            wrong_best += int(got_best != want_best)
        bad[ch, 0] = wrong_legal
        bad[ch, 1] = wrong_best


@PARALLEL
def _check_odd(
    bubble: int,
    legal: np.ndarray,
    best: np.ndarray,
    value: np.ndarray,
    raw: np.ndarray,
    ft: FrameTables,
    rec: Records,
    g: GeoArgs,
    bad: np.ndarray,
) -> None:
    c = legal.shape[0]
    deg = g.deg[bubble]
    for ch in prange((c + CHUNK - 1) // CHUNK):
        a = ch * CHUNK
        m = unrank(a, g)
        wrong_legal = 0
        wrong_best = 0
        for r in range(a, min(a + CHUNK, c)):
            cm = cells_of(m, bubble)
            m = next_combination(m)
            united = connected(cm, g) or connected(g.full & ~cm & ~(1 << bubble), g)
            got_legal = got_best = 0
            if not united:
                _, e, _, sb, _ = _record(cm, bubble, ft, rec, g)
                got_best = _actual(sb & SLIDES, bubble, e, deg, ft) | (sb & ENDS)
                for k in range(deg):
                    n = g.nbr_cells[bubble, k]
                    child = rank(tiles_of(slide(cm, bubble, n), n), g)
                    # Legal exactly when the slide back, from the position after it, is not.
                    got_legal |= (1 - ((raw[k, child] >> ft.back[bubble, k]) & 1)) << k
            flags = legal[r]
            want_legal = 0 if flags & UNITED else flags & SLIDES
            want_best = 0 if flags & UNITED else best[r] | (ENDS if abs(value[r]) == 1 else 0)
            wrong_legal += int(got_legal != want_legal)
            wrong_best += int(got_best != want_best)
        bad[ch, 0] = wrong_legal
        bad[ch, 1] = wrong_best


def _kind(board: Board, bubble: int, records: Records, want: int) -> None:
    """The frame of the cell's representative must be of the kind its parity asks for."""
    ft = frame_tables(board)
    f = int(ft.frame_of[bubble])
    if int(records.kind[f]) != want:
        name = file_name(board, int(ft.reps[f]))
        raise CheckFailed(f"tables: {name} holds a frame of kind {int(records.kind[f])}, not {want}")


def check_even(
    board: Board, bubble: int, records: Records, legal: np.ndarray, best: np.ndarray, value: np.ndarray
) -> tuple[int, int, np.ndarray]:
    """``(legal bytes decoded wrongly, best sets decoded wrongly, the records' legal slides)`` over the
    positions of an even bubble cell, against their legal bytes, best masks and values (by rank).

    The records' legal slides (as the cell's own slide bits, by rank, for every position, those where a
    colour is united included) are what the positions of the odd neighbour cells decode their legality
    from (:func:`check_odd`)."""
    if not is_even(board, bubble):
        raise ValueError(f"cell {bubble} is odd")
    _kind(board, bubble, records, KIND_EVEN)
    c = board.colourings
    bad = np.zeros(((c + CHUNK - 1) // CHUNK, 2), dtype=np.int64)
    raw = np.empty(c, dtype=np.uint8)
    _check_even(bubble, legal, best, value, frame_tables(board), records, Geometry.of(board).args, raw, bad)
    return int(bad[:, 0].sum()), int(bad[:, 1].sum()), raw


def check_odd(
    board: Board,
    bubble: int,
    records: Records,
    legal: np.ndarray,
    best: np.ndarray,
    value: np.ndarray,
    raw: np.ndarray,
) -> tuple[int, int]:
    """``(legal bytes decoded wrongly, best sets decoded wrongly)`` over the positions of an odd bubble
    cell; ``raw[k]`` holds the records' legal slides of its ``k``-th neighbour cell
    (:func:`check_even`), from which a reader decodes the legality of these positions: the slide from
    ``x`` is legal exactly when the slide back from the position after it is not."""
    if is_even(board, bubble) or raw.shape != (len(board.neighbours[bubble]), board.colourings):
        raise ValueError(f"cell {bubble}: not an odd cell, or records of shape {raw.shape}")
    _kind(board, bubble, records, KIND_ODD)
    c = board.colourings
    bad = np.zeros(((c + CHUNK - 1) // CHUNK, 2), dtype=np.int64)
    _check_odd(bubble, legal, best, value, np.ascontiguousarray(raw, dtype=np.uint8), frame_tables(board),
               records, Geometry.of(board).args, bad)  # fmt: skip
    return int(bad[:, 0].sum()), int(bad[:, 1].sum())


def check_cell(
    board: Board, bubble: int, records: Records, legal: np.ndarray, best: np.ndarray, value: np.ndarray
) -> tuple[int, int]:
    """``(legal bytes decoded wrongly, best sets decoded wrongly)`` over the positions with the bubble on
    ``bubble`` from the files alone (an odd cell decodes its neighbour cells' records first): for a
    single cell; the stage decodes each even cell once (:func:`check_even`, :func:`check_odd`)."""
    if is_even(board, bubble):
        return check_even(board, bubble, records, legal, best, value)[:2]
    c = board.colourings
    raw = np.empty((len(board.neighbours[bubble]), c), dtype=np.uint8)
    zeros8, zeros16 = np.zeros(c, dtype=np.uint8), np.zeros(c, dtype=np.int16)
    for k, n in enumerate(board.neighbours[bubble]):
        raw[k] = check_even(board, n, records, zeros8, zeros8, zeros16)[2]
    return check_odd(board, bubble, records, legal, best, value, raw)
