"""The checking decoder of the table files: every position of a bubble cell read back from the files, in
numba, and compared with the arrays it was written from (tables-verify).

:func:`load_records` parses every frame file of a folder (zlib blocks, symbol tables) into one
:class:`Records` (kept per process, keyed by the manifest's bytes); :func:`check_cell` decodes the legal
slides and the best set (with its *ends* bit) of every position of one bubble cell as docs/tables.md says
a reader must: the record of the position's canonical form, its slides mapped back from canonical ones,
and for a bubble on an odd cell the legal slides from the records of the positions after each slide.
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

from unitile_py.board import Board
from unitile_py.errors import UnitileError
from unitile_py.table_files import ENDS, KIND_EVEN

from .bits import INLINE, PARALLEL, GeoArgs, cells_of, connected, next_combination, slide, unrank
from .cellpass import CHUNK, SLIDES, UNITED
from .compact import file_name, parse
from .errors import CheckFailed
from .frames import FrameTables, frame_tables, locate
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


@INLINE
def _decode(cm: int, bubble: int, ft: FrameTables, rec: Records, g: GeoArgs) -> tuple[int, int]:
    """``(legal slide bits, best set for Red to move)`` of a position where no colour is united."""
    deg = g.deg[bubble]
    f, e, a, b, c = _record(cm, bubble, ft, rec, g)
    if rec.kind[f] == KIND_EVEN:
        chosen = c if ft.flips[f, e] else b
        return _actual(a, bubble, e, deg, ft), _actual(chosen & SLIDES, bubble, e, deg, ft) | (chosen & ENDS)
    legal = 0
    for k in range(deg):
        n = g.nbr_cells[bubble, k]
        _, e2, a2, _, _ = _record(slide(cm, bubble, n), n, ft, rec, g)
        # Legal exactly when the slide back, from the position after it, is not.
        legal |= (1 - ((a2 >> ft.kmap[n, e2, ft.back[bubble, k]]) & 1)) << k
    return legal, _actual(b & SLIDES, bubble, e, deg, ft) | (b & ENDS)


@PARALLEL
def _check_cell(
    bubble: int,
    legal: np.ndarray,
    best: np.ndarray,
    value: np.ndarray,
    ft: FrameTables,
    rec: Records,
    g: GeoArgs,
    bad: np.ndarray,
) -> None:
    c = legal.shape[0]
    for ch in prange((c + CHUNK - 1) // CHUNK):
        a = ch * CHUNK
        m = unrank(a, g)
        wrong_legal = 0
        wrong_best = 0
        for r in range(a, min(a + CHUNK, c)):
            cm = cells_of(m, bubble)
            m = next_combination(m)
            united = connected(cm, g) or connected(g.full & ~cm & ~(1 << bubble), g)
            got_legal, got_best = (0, 0) if united else _decode(cm, bubble, ft, rec, g)
            flags = legal[r]
            want_legal = 0 if flags & UNITED else flags & SLIDES
            want_best = 0 if flags & UNITED else best[r] | (ENDS if abs(value[r]) == 1 else 0)
            wrong_legal += int(got_legal != want_legal)
            wrong_best += int(got_best != want_best)
        bad[ch, 0] = wrong_legal
        bad[ch, 1] = wrong_best


def check_cell(
    board: Board, bubble: int, records: Records, legal: np.ndarray, best: np.ndarray, value: np.ndarray
) -> tuple[int, int]:
    """``(legal bytes decoded wrongly, best sets decoded wrongly)`` over the positions with the bubble on
    ``bubble``, against their legal bytes, best masks and values (by rank)."""
    c = board.colourings
    bad = np.zeros(((c + CHUNK - 1) // CHUNK, 2), dtype=np.int64)
    _check_cell(bubble, legal, best, value, frame_tables(board), records, Geometry.of(board).args, bad)
    return int(bad[:, 0].sum()), int(bad[:, 1].sum())
