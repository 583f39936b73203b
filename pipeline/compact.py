"""The compact lookup files of tables/<board>/: encoding, and an exhaustive numpy decoder to check them.

The format is specified in docs/tables.md (its constants are the reader's, :mod:`unitile_py.table_files`);
in short:

* Positions are grouped by the symmetries of the board (and, for *even* frames, the colour swap). One
  file per orbit of bubble cells, named by the orbit's representative cell (``c3.bin``), holds one
  *record* per class, numbered by :class:`unitile_py.canonical.Frame`.
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

from unitile_py.board import Board
from unitile_py.canonical import Frame, orbit_rep
from unitile_py.errors import UnitileError
from unitile_py.table_files import ENDS, FORMAT, HEADER, KIND_EVEN, KIND_ODD, MAGIC

from .bits import PARALLEL, GeoArgs, cells_of, connected, next_combination, rank, unrank
from .geometry import Geometry
from .legal import CHUNK, SLIDES, UNITED

RECORDS_PER_BLOCK = 1 << 16
ZLIB_LEVEL = 9


def is_even(board: Board, cell: int) -> bool:
    """Whether a cell has even parity (row + column even): even frames hold the legal slides."""
    r, c = board.row_col(cell)
    return (r + c) % 2 == 0


def frame_cells(board: Board) -> list[int]:
    """The representative cells of the bubble orbits, in increasing order (one file each)."""
    return sorted({orbit_rep(board, c)[0] for c in range(board.cells)})


def file_name(board: Board, cell: int) -> str:
    """The file of a frame: ``<cell name>.bin``."""
    return f"{board.name(cell)}.bin"


def table_file_names(board: Board) -> list[str]:
    """The names of the board's table files: one per frame, and the manifest."""
    return [*(file_name(board, f) for f in frame_cells(board)), "manifest.json"]


# Canonical record numbers, vectorised -----------------------------------------------------------


@dataclass(frozen=True)
class FrameArrays:
    """The tables of a :class:`Frame` as numpy arrays (patterns padded to 256)."""

    frame: Frame
    act: np.ndarray
    compose: np.ndarray
    can_pattern: tuple[np.ndarray, ...]
    can_element: tuple[np.ndarray, ...]
    can_next: tuple[np.ndarray, ...]
    cum: tuple[np.ndarray, ...]

    @staticmethod
    def of(frame: Frame) -> FrameArrays:
        """Convert a frame's tables."""
        nb = len(frame.blocks)

        def pad(rows: list[list[int]]) -> np.ndarray:
            out = np.zeros((len(rows), 256), dtype=np.int64)
            for i, row in enumerate(rows):
                out[i, : len(row)] = row
            return out

        act = np.zeros((frame.size, nb, 256), dtype=np.int64)
        for e in range(frame.size):
            for j in range(nb):
                act[e, j, : len(frame.act[e][j])] = frame.act[e][j]
        cum = []
        for j in range(nb):
            groups = frame.cum[j]
            arr = np.zeros((len(groups), len(groups[0]), 256), dtype=np.int64)
            for g, per_k in enumerate(groups):
                for k, row in enumerate(per_k):
                    arr[g, k, : len(row)] = row
            cum.append(arr)
        return FrameArrays(
            frame,
            act,
            np.array(frame.compose, dtype=np.int64),
            tuple(pad(frame.can_pattern[j]) for j in range(nb)),
            tuple(pad(frame.can_element[j]) for j in range(nb)),
            tuple(pad(frame.can_next[j]) for j in range(nb)),
            tuple(cum),
        )

    def patterns(self, cells: np.ndarray) -> np.ndarray:
        """Block patterns ``(blocks, n)`` of red cell masks."""
        out = np.zeros((len(self.frame.blocks), cells.shape[0]), dtype=np.int64)
        for j, block in enumerate(self.frame.blocks):
            for i, c in enumerate(block):
                out[j] |= ((cells >> c) & 1) << i
        return out

    def index(self, cells: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """``(record, element, canonical)`` of red cell masks (bubble on the frame's cell).

        ``canonical`` marks the masks that are their class's canonical form.
        """
        raw = self.patterns(cells)
        n = cells.shape[0]
        e = np.zeros(n, dtype=np.int64)
        g = np.zeros(n, dtype=np.int64)
        k = np.full(n, self.frame.board.red_count, dtype=np.int64)
        idx = np.zeros(n, dtype=np.int64)
        canonical = np.ones(n, dtype=bool)
        pop = np.array([bin(i).count("1") for i in range(256)], dtype=np.int64)
        for j in range(raw.shape[0]):
            p = self.act[e, j, raw[j]]
            best = self.can_pattern[j][g, p]
            idx += self.cum[j][g, k, best]
            k -= pop[best]
            e = self.compose[self.can_element[j][g, p], e]
            g = self.can_next[j][g, p]
            canonical &= best == raw[j]
        return idx, e, canonical


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
    frame = Frame.of(board, cell, swap=even)
    fa = FrameArrays.of(frame)
    cells, swap = colourings(board, cell)
    idx, _, canonical = fa.index(cells)
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


@PARALLEL
def _united(cells: np.ndarray, bubble: int, g: GeoArgs) -> np.ndarray:
    """Whether a colour is united in each position (red cell masks ``cells``, the bubble on ``bubble``)."""
    out = np.empty(cells.shape[0], dtype=np.bool_)
    for i in prange(cells.shape[0]):
        cm = cells[i]
        blue = g.full & ~cm & ~(1 << bubble)
        out[i] = connected(cm, g) or connected(blue, g)
    return out


class Decoder:
    """Legal bytes and best masks of every position, read back from the files (for the checks)."""

    def __init__(self, board: Board, files: dict[str, bytes]) -> None:
        self.board = board
        self.geo = Geometry.of(board)
        self.frames: dict[int, tuple[int, np.ndarray, np.ndarray]] = {}
        self.arrays: dict[int, FrameArrays] = {}
        for cell in frame_cells(board):
            kind, got_cell, symbols, records = parse(files[file_name(board, cell)])
            if got_cell != cell:
                raise UnitileError(f"{file_name(board, cell)}: holds cell {got_cell}")
            table = np.array(symbols, dtype=np.int64).reshape(-1, 3)
            self.frames[cell] = (kind, table, records)
            self.arrays[cell] = FrameArrays.of(Frame.of(board, cell, swap=kind == KIND_EVEN))

    def _locate(self, cells: np.ndarray, bubble: int) -> tuple[int, np.ndarray, np.ndarray, int]:
        """``(rep cell, symbol rows, element, transform)`` for positions with the bubble on ``bubble``."""
        rep, s = orbit_rep(self.board, bubble)
        g = self.geo
        moved = np.zeros_like(cells)
        for ch in range(g.perm_tab.shape[1]):
            moved |= g.perm_tab[s, ch, (cells >> (8 * ch)) & 255]
        fa = self.arrays[rep]
        idx, e, _ = fa.index(moved)
        _, table, records = self.frames[rep]
        return rep, table[records[idx]], e, s

    def _to_actual(self, bubble: int, rep: int, s: int, e: np.ndarray) -> np.ndarray:
        """``kmap[e, k']``: the canonical slide index of the actual k-th slide, per element."""
        frame = self.arrays[rep].frame
        board = self.board
        sym = board.symmetries[s]
        canon = board.neighbours[rep]
        out = np.zeros((frame.size, 4), dtype=np.int64)
        for el in range(frame.size):
            perm = frame.perms[el]
            for k, n in enumerate(board.neighbours[bubble]):
                out[el, k] = canon.index(perm[sym[n]])
        return out

    @staticmethod
    def _remap(mask: np.ndarray, kmap: np.ndarray, deg: int) -> np.ndarray:
        """Canonical slide bits to actual slide bits (``kmap`` rows per position)."""
        out = np.zeros_like(mask)
        for k in range(deg):
            out |= ((mask >> kmap[:, k]) & 1) << k
        return out

    def bubble(self, bubble: int, cells: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
        """``(legal slide bits, best slide set for Red to move)`` of the positions with this bubble and
        these red-cell masks (default: every colouring, in index order).

        The best set is slide bits and :data:`ENDS`. Positions where a colour is united get 0 for both.
        The work arrays are about 300 bytes per position: decode a cell in slices to bound memory.
        """
        g = self.geo
        board = self.board
        if cells is None:
            cells, _ = colourings(board, bubble)
        deg = len(board.neighbours[bubble])
        united = _united(cells, bubble, g.args)
        rep, rows, e, s = self._locate(cells, bubble)
        kmap = self._to_actual(bubble, rep, s, e)[e]
        kind = self.frames[rep][0]
        flip = np.array(self.arrays[rep].frame.flips, dtype=bool)[e]
        if kind == KIND_EVEN:
            legal = self._remap(rows[:, 0], kmap, deg)
            chosen = np.where(flip, rows[:, 2], rows[:, 1])
            best = self._remap(chosen & SLIDES, kmap, deg) | (chosen & ENDS)
        else:
            legal = np.zeros(cells.shape[0], dtype=np.int64)
            for k, n in enumerate(board.neighbours[bubble]):
                red_n = (cells >> n) & 1
                child = np.where(red_n == 1, (cells & ~(1 << n)) | (1 << bubble), cells)
                rep2, rows2, e2, s2 = self._locate(child, n)
                back = board.neighbours[n].index(bubble)
                kmap2 = self._to_actual(n, rep2, s2, e2)[e2]
                from_child = (rows2[:, 0] >> kmap2[:, back]) & 1
                legal |= (1 - from_child) << k
            best = self._remap(rows[:, 1] & SLIDES, kmap, deg) | (rows[:, 1] & ENDS)
        legal = np.where(united, 0, legal)
        best = np.where(united, 0, best)
        return legal.astype(np.uint8), best.astype(np.uint8)


def decode_mismatches(
    got: tuple[np.ndarray, np.ndarray], legal: np.ndarray, best: np.ndarray, value: np.ndarray
) -> tuple[int, int]:
    """``(legal, best)`` disagreements of decoded ``got`` with the arrays' entries for the same positions."""
    active = (legal & UNITED) == 0
    want_legal = np.where(active, legal & SLIDES, 0)
    want_best = np.where(active, best_set(best, value, np.arange(legal.shape[0])), 0)
    return int(np.count_nonzero(got[0] != want_legal)), int(np.count_nonzero(got[1] != want_best))
