"""The compact lookup files of tables/<board>/: encoding, and an exhaustive numpy decoder to check them.

The format is specified in docs/tables.md (its constants are the reader's,
:mod:`unitile_py.unitile.table_files`); in short:

* Positions are grouped by the symmetries of the board (and, for *even* frames, the colour swap). One
  file per orbit of bubble cells, named by the orbit's representative cell (``c3.bin``), holds one
  *record* per class, numbered by :class:`unitile_py.unitile.canonical.Frame`.
* Slides join a cell of even parity (row + column even) to one of odd parity. An *even* record (bubble
  on an even cell) holds the legal slides of its position and the perfect-play slides for both sides to
  move. An *odd* record holds only the perfect-play slides for Red to move; the legal slides of an odd
  position follow from its even neighbours' records (each slide between two positions where no colour
  is united is legal in exactly one direction).
* Records are symbols (most frequent first), stored in blocks of :data:`RECORDS_PER_BLOCK` records,
  each block compressed on its own with zlib.

Everything here is deterministic: the same arrays give the same bytes. A frame needs only the
positions with the bubble on its cell (:func:`frame_file`), so the ``tables`` stage encodes each file in
its own task from the shards of that cell, and :func:`assemble` adds the manifest.
"""

from __future__ import annotations

import hashlib
import json
import struct
import zlib
from dataclasses import dataclass
from typing import Any

import numpy as np
from numba import prange

from unitile_py.errors import UnitileError
from unitile_py.unitile.board import Board
from unitile_py.unitile.table_files import ENDS, FORMAT, HEADER, KIND_EVEN, KIND_ODD, MAGIC

from .bits import PARALLEL, GeoArgs, cells_of, next_combination, rank, unrank
from .cellpass import CHUNK, SLIDES, UNITED
from .frames import frame_cells, frame_of, index_cell, is_even
from .geometry import Geometry

__all__ = ["frame_cells", "is_even"]

RECORDS_PER_BLOCK = 1 << 16
ZLIB_LEVEL = 9


def file_name(board: Board, cell: int) -> str:
    """The file of a frame: ``<cell name>.bin``."""
    return f"{board.name(cell)}.bin"


def table_file_names(board: Board) -> list[str]:
    """The names of the board's table files: one per frame, and the manifest."""
    return [*(file_name(board, f) for f in frame_cells(board)), "manifest.json"]


# Colourings ------------------------------------------------------------------------------------


@PARALLEL
def _colourings(bubble: int, g: GeoArgs) -> tuple[np.ndarray, np.ndarray]:
    """Red cell masks of the positions ``bubble * C + r`` and the rank of their colour swaps."""
    c = g.colourings
    cells = np.empty(c, dtype=np.int64)
    swap = np.empty(c, dtype=np.int64)
    full = (1 << g.tiles) - 1
    for ch in prange((c + CHUNK - 1) // CHUNK):
        a = ch * CHUNK
        b = min(a + CHUNK, c)
        m = unrank(a, g)
        for r in range(a, b):
            cells[r] = cells_of(m, bubble)
            swap[r] = rank(full & ~m, g)
            m = next_combination(m)
    return cells, swap


def colourings(board: Board, bubble: int) -> tuple[np.ndarray, np.ndarray]:
    """``(red cell masks, colour-swap ranks)`` of all positions with the bubble on ``bubble``."""
    return _colourings(bubble, Geometry.of(board).args)


# Encoding ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class FrameRecords:
    """The records of one frame, before compression."""

    cell: int
    kind: int
    #: symbol of each record (index into ``symbols``).
    records: np.ndarray
    #: (a, b, c) per symbol: even (legal, best red, best blue), odd (0, best red, 0); best sets with ENDS.
    symbols: list[tuple[int, int, int]]


def frame_records(
    board: Board, cell: int, legal: np.ndarray, best: np.ndarray, value: np.ndarray
) -> FrameRecords:
    """Records of the frame of ``cell`` from the legal bytes, best masks and values (Red to move) of the
    positions with the bubble on ``cell`` (the shards ``cell * C .. (cell + 1) * C - 1``: the colour swap
    keeps the bubble, so a frame needs no other positions)."""
    even = is_even(board, cell)
    frame = frame_of(board, cell)
    _, swap = colourings(board, cell)
    idx, canonical = index_cell(board, cell)
    reps = np.flatnonzero(canonical)
    if reps.shape[0] != frame.count or not np.array_equal(np.sort(idx[reps]), np.arange(frame.count)):
        raise AssertionError(f"frame {board.name(cell)}: record numbers are not a bijection")
    lb = legal[reps].astype(np.int64)
    active = (lb & UNITED) == 0
    nib = lb & SLIDES
    best_red = best_set(best, value, reps)
    if even:
        best_blue = best_set(best, value, swap[reps])
        sym = np.where(active, nib | (best_red << 4) | (best_blue << 9), 0)
    else:
        # Where a colour is united the record is never read: give it the commonest symbol.
        commonest = int(np.argmax(np.bincount(best_red[active], minlength=32))) if active.any() else 0
        sym = np.where(active, best_red, commonest)
    values, inverse, counts = np.unique(sym, return_inverse=True, return_counts=True)
    order = np.lexsort((values, -counts))
    ranks = np.empty(len(order), dtype=np.int64)
    ranks[order] = np.arange(len(order))
    records = np.empty(frame.count, dtype=np.int64)
    records[idx[reps]] = ranks[inverse.ravel()]
    if even:
        symbols = [(int(v) & 15, int(v) >> 4 & 31, int(v) >> 9 & 31) for v in values[order]]
    else:
        symbols = [(0, int(v), 0) for v in values[order]]
    return FrameRecords(cell, KIND_EVEN if even else KIND_ODD, records, symbols)


def best_set(best: np.ndarray, value: np.ndarray, at: np.ndarray) -> np.ndarray:
    """The stored best-slide set of the positions ``at`` (Red to move): slide bits, and :data:`ENDS`
    when perfect play ends the game with the next slide."""
    return best[at].astype(np.int64) | np.where(np.abs(value[at]) == 1, ENDS, 0)


def encode(fr: FrameRecords, per_block: int = RECORDS_PER_BLOCK) -> bytes:
    """The bytes of a frame's file."""
    n = fr.records.shape[0]
    width = 1 if len(fr.symbols) <= 256 else 2
    if len(fr.symbols) > 1 << 16:
        raise ValueError("too many symbols")
    head = HEADER.pack(MAGIC, FORMAT, fr.kind, fr.cell, n, per_block, len(fr.symbols), width, 0)
    table = bytes(b for s in fr.symbols for b in s)
    lo = (fr.records & 255).astype(np.uint8)
    hi = (fr.records >> 8).astype(np.uint8)
    blocks = []
    for a in range(0, n, per_block):
        raw = lo[a : a + per_block].tobytes()
        if width == 2:
            raw += hi[a : a + per_block].tobytes()
        blocks.append(zlib.compress(raw, ZLIB_LEVEL))
    offsets = [0]
    for b in blocks:
        offsets.append(offsets[-1] + len(b))
    return head + table + struct.pack(f"<{len(offsets)}I", *offsets) + b"".join(blocks)


def records_digest(fr: FrameRecords) -> str:
    """sha256 of a frame's symbol table and records before compression (independent of zlib)."""
    h = hashlib.sha256()
    h.update(json.dumps(fr.symbols).encode())
    h.update(fr.records.astype("<u2").tobytes())
    return h.hexdigest()


def frame_file(
    board: Board, cell: int, legal: np.ndarray, best: np.ndarray, value: np.ndarray
) -> tuple[str, bytes, dict[str, Any]]:
    """The file of the frame of ``cell`` from the shards of ``cell`` (see :func:`frame_records`):
    ``(name, bytes, manifest frame entry)``."""
    fr = frame_records(board, cell, legal, best, value)
    name = file_name(board, cell)
    entry = {
        "file": name,
        "cell": cell,
        "kind": "even" if fr.kind == KIND_EVEN else "odd",
        "records": int(fr.records.shape[0]),
        "symbols": len(fr.symbols),
        "records_sha256": records_digest(fr),
    }
    return name, encode(fr), entry


def assemble(
    board: Board, frames: list[tuple[str, bytes, dict[str, Any]]], info: dict[str, Any]
) -> tuple[dict[str, bytes], dict[str, Any]]:
    """Every file of ``tables/<board>/`` from the :func:`frame_file` results of :func:`frame_cells` (in
    that order): ``{name: bytes}`` and the manifest (also among the files).

    ``info`` is merged into the manifest (counts, solver figures).
    """
    files = {name: data for name, data, _ in frames}
    manifest: dict[str, Any] = {
        "format": FORMAT,
        "board": str(board),
        "positions": board.positions,
        "records_per_block": RECORDS_PER_BLOCK,
        "frames": [entry for _, _, entry in frames],
        **info,
        "files": {
            name: {"bytes": len(data), "sha256": hashlib.sha256(data).hexdigest()}
            for name, data in sorted(files.items())
        },
    }
    files["manifest.json"] = (json.dumps(manifest, indent=1, sort_keys=True) + "\n").encode()
    return files, manifest


def build_files(
    board: Board, legal: np.ndarray, best: np.ndarray, value: np.ndarray, info: dict[str, Any]
) -> tuple[dict[str, bytes], dict[str, Any]]:
    """Every file of ``tables/<board>/`` from whole arrays (small boards, tests; the ``tables`` stage
    builds each frame in its own task from the shards of its cell, see :func:`frame_file`)."""
    c = board.colourings
    frames = []
    for cell in frame_cells(board):
        sl = slice(cell * c, (cell + 1) * c)
        frames.append(frame_file(board, cell, legal[sl], best[sl], value[sl]))
    return assemble(board, frames, info)


# Decoding (the checks) -------------------------------------------------------------------------


def parse(data: bytes) -> tuple[int, int, list[tuple[int, int, int]], np.ndarray]:
    """``(kind, cell, symbols, records)`` of a frame file, every block decompressed."""
    magic, fmt, kind, cell, n, per_block, n_sym, width, _ = HEADER.unpack_from(data, 0)
    if magic != MAGIC or fmt != FORMAT:
        raise UnitileError("not a tables file of this format")
    at = HEADER.size
    symbols = [tuple(data[at + 3 * i : at + 3 * i + 3]) for i in range(n_sym)]
    at += 3 * n_sym
    n_blocks = (n + per_block - 1) // per_block
    offsets = struct.unpack_from(f"<{n_blocks + 1}I", data, at)
    at += 4 * (n_blocks + 1)
    parts = []
    for i in range(n_blocks):
        raw = zlib.decompress(data[at + offsets[i] : at + offsets[i + 1]])
        m = min(per_block, n - i * per_block)
        arr = np.frombuffer(raw, dtype=np.uint8).astype(np.int64)
        parts.append(arr[:m] | (arr[m:] << 8) if width == 2 else arr)
    return kind, cell, symbols, np.concatenate(parts)  # type: ignore[return-value]
