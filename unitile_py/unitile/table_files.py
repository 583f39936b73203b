"""The files of ``tables/<board>/`` (docs/tables.md), read and checked before anything is answered.

:func:`read_tables` takes the contents of ``manifest.json`` and of the frame files and returns the
parsed :class:`FrameFile` of every frame, or raises a one-line :class:`UnitileError` naming the file
and what is wrong: a missing or wrongly typed manifest field, a file name that would leave the tables
folder, a file whose size or sha256 differs from the manifest, a header field out of range, a block
that does not inflate to its size, a record naming no symbol, a symbol with bits no record may hold,
or records whose digest (``records_sha256``: the symbol table and every record before compression)
differs from the manifest. So a consistent-looking edit of a file and its sha256 is caught too. The
pipeline's writer (``pipeline/unitile/compact.py``) imports the format constants from here.
"""

from __future__ import annotations

import array
import hashlib
import json
import re
import struct
import sys
from collections.abc import Mapping
from typing import Any

from ..errors import UnitileError
from ..table_io import SHA256, check_per_block, checked, field, header_fields, inflate, is_format
from ..table_io import parse_manifest as read_manifest
from .board import Board

#: The format version this reader understands.
FORMAT = 2
MAGIC = b"UTBL"
#: magic, format, kind, cell, records, records per block, symbols, bytes per record, 0.
HEADER = struct.Struct("<4sHBBIIHBB")
KIND_ODD, KIND_EVEN = 0, 1
KINDS = {"odd": KIND_ODD, "even": KIND_EVEN}
#: Bit of a stored best-slide set: perfect play ends the game with that slide (it unites a colour).
ENDS = 1 << 4
#: The symbol bytes a record may hold: legal slides (bits 0-3) and best sets (bits 0-3 and ENDS).
LEGAL_BITS, BEST_BITS = 15, 15 | ENDS
#: A frame file's name: a cell name and ``.bin``, nothing that could leave the folder.
FILE_NAME = re.compile(r"[a-z][0-9]{1,2}\.bin", re.ASCII)


class FrameFile:
    """One checked ``<cell>.bin`` file: its header, symbols and records (inflated once, kept)."""

    def __init__(self, name: str, data: bytes, board: Board) -> None:
        self.name = name
        self.board = board
        where = f"tables {board}: {name}"
        fields: tuple[int, int, int, int, int, int, int] = header_fields(
            where, data, HEADER, MAGIC, FORMAT, "tables file", UnitileError
        )
        kind, cell, count, per_block, n_sym, width, _ = fields
        if kind not in (KIND_ODD, KIND_EVEN) or cell >= board.cells:
            raise UnitileError(f"{where}: header field kind {kind} or cell {cell} is out of range")
        check_per_block(where, per_block, UnitileError)
        if n_sym == 0 or width != (1 if n_sym <= 256 else 2):
            raise UnitileError(
                f"{where}: header fields symbols {n_sym} and record width {width} disagree"
            )
        self.kind = kind
        self.cell = cell
        self.count = count
        self.per_block = per_block
        self.width = width
        self.shift = per_block.bit_length() - 1
        self.low = per_block - 1
        at = HEADER.size
        n_blocks = (count + per_block - 1) // per_block
        if len(data) < at + 3 * n_sym + 4 * (n_blocks + 1):
            raise UnitileError(f"{where} is truncated (header says {count} records, {n_sym} symbols)")
        raw = data[at : at + 3 * n_sym]
        self.symbols: list[tuple[int, ...]] = [tuple(raw[3 * i : 3 * i + 3]) for i in range(n_sym)]
        limits = (LEGAL_BITS, BEST_BITS, BEST_BITS) if kind == KIND_EVEN else (0, BEST_BITS, 0)
        for i, symbol in enumerate(self.symbols):
            if any(v & ~limit for v, limit in zip(symbol, limits, strict=True)):
                raise UnitileError(f"{where}: symbol {i} {list(symbol)} has bits no record may hold")
        at += 3 * n_sym
        self.offsets: tuple[int, ...] = struct.unpack_from(f"<{n_blocks + 1}I", data, at)
        self.base = at + 4 * (n_blocks + 1)
        if self.base + self.offsets[-1] != len(data) or self.offsets[0] != 0:
            raise UnitileError(f"{where} is truncated or has extra bytes")
        if any(a > b for a, b in zip(self.offsets, self.offsets[1:], strict=False)):
            raise UnitileError(f"{where}: block offsets are not in order")
        self.data = data
        self.blocks: list[bytes | None] = [None] * n_blocks

    def inflate(self, block: int) -> bytes:
        """Decompress one block of records, check that each names a symbol, and keep it."""
        a, b = self.base + self.offsets[block], self.base + self.offsets[block + 1]
        where = f"tables {self.board}: {self.name} block {block}"
        n = min(self.per_block, self.count - block * self.per_block)
        raw = inflate(where, self.data[a:b], n * self.width, UnitileError)
        if self.width == 1:
            biggest = max(raw, default=0)
        else:
            biggest = max(raw[n:], default=0) << 8 | 255  # a bound from the high bytes alone
            if biggest >= len(self.symbols):
                biggest = max(self._numbers(raw), default=0)
        if biggest >= len(self.symbols):
            raise UnitileError(f"{where} has a record that names no symbol")
        self.blocks[block] = raw
        return raw

    def _numbers(self, raw: bytes) -> array.array[int]:
        """The symbol numbers of an inflated block of two-byte records (low bytes, then high bytes)."""
        n = len(raw) // 2
        out = bytearray(2 * n)
        out[0::2], out[1::2] = raw[:n], raw[n:]
        numbers = array.array("H")
        numbers.frombytes(out)
        if sys.byteorder == "big":
            numbers.byteswap()
        return numbers

    def digest(self) -> str:
        """``records_sha256``: sha256 of the symbol table (as JSON) and the records as little-endian u2."""
        h = hashlib.sha256(json.dumps([list(s) for s in self.symbols]).encode())
        for block in range(len(self.blocks)):
            raw = self.blocks[block] or self.inflate(block)
            out = bytearray(2 * (len(raw) // self.width))
            if self.width == 1:
                out[0::2] = raw
            else:
                n = len(raw) // 2
                out[0::2], out[1::2] = raw[:n], raw[n:]
            h.update(out)
        return h.hexdigest()

    def record(self, index: int) -> tuple[int, ...]:
        """The symbol ``(a, b, c)`` of a record."""
        block, at = index >> self.shift, index & self.low
        raw = self.blocks[block]
        if raw is None:
            raw = self.inflate(block)
        if self.width == 1:
            return self.symbols[raw[at]]
        return self.symbols[raw[at] | raw[len(raw) // 2 + at] << 8]


def _field(where: str, obj: Mapping[str, Any], key: str, kind: type, what: str) -> Any:
    return field(where, obj, key, kind, what, UnitileError)


def parse_manifest(board: Board, raw: bytes) -> dict[str, Any]:
    """The parsed manifest with every field the reader uses checked for presence and type."""
    where = f"tables {board}: manifest.json"
    manifest = read_manifest(where, raw, FILE_NAME, "a cell name with .bin", UnitileError)
    if not is_format(manifest.get("format"), FORMAT):
        raise UnitileError(
            f"{where} has format {str(manifest.get('format'))[:20]}; this reader reads {FORMAT}"
        )
    if manifest.get("board") != str(board):
        raise UnitileError(f"{where} is for board {str(manifest.get('board'))[:20]}")
    files = manifest["files"]
    frames = _field(where, manifest, "frames", list, "a list of frames")
    for i, entry in enumerate(frames):
        at = f"{where}: frames[{i}]"
        if not isinstance(entry, dict):
            raise UnitileError(f"{at} must be an object")
        name = _field(at, entry, "file", str, "a file name")
        if name not in files:
            raise UnitileError(f"{at}: file {name[:40]!r} is not listed in files")
        cell = _field(at, entry, "cell", int, "a cell number")
        if not 0 <= cell < board.cells:
            raise UnitileError(f"{at}: cell {cell} is off the {board} board")
        _field(at, entry, "records", int, "a whole number")
        if entry.get("kind") not in KINDS:
            raise UnitileError(f'{at}: field \'kind\' must be "even" or "odd"')
        digest = _field(at, entry, "records_sha256", str, "a sha256 in hex")
        if not SHA256.fullmatch(digest):
            raise UnitileError(f"{at}: field 'records_sha256' must be a sha256 in hex")
    return manifest


def read_tables(
    board: Board, files: Mapping[str, bytes], check_records: bool = True
) -> tuple[dict[str, Any], dict[int, FrameFile]]:
    """The checked manifest and the frame file of each frame cell (see the module docstring).

    Every file is checked against its sha256 in the manifest; ``check_records`` also inflates every
    block to check the records against ``records_sha256`` (the browser skips that: the files' own
    sha256 already pins their records, and a block is then inflated and checked when first read)."""
    manifest, data = checked(f"tables {board}", files, lambda raw: parse_manifest(board, raw), UnitileError)
    frames: dict[int, FrameFile] = {}
    for entry in manifest["frames"]:
        name = entry["file"]
        ff = FrameFile(name, data[name], board)
        if ff.cell != entry["cell"] or ff.count != entry["records"] or ff.kind != KINDS[entry["kind"]]:
            raise UnitileError(f"tables {board}: {name} does not match manifest.json (cell, records or kind)")
        if ff.cell in frames:
            raise UnitileError(f"tables {board}: manifest.json lists cell {board.name(ff.cell)} twice")
        if check_records and ff.digest() != entry["records_sha256"]:
            raise UnitileError(f"tables {board}: {name} records differ from manifest.json (records_sha256)")
        frames[ff.cell] = ff
    return manifest, frames


__all__ = [
    "ENDS",
    "FORMAT",
    "HEADER",
    "KINDS",
    "KIND_EVEN",
    "KIND_ODD",
    "MAGIC",
    "FrameFile",
    "parse_manifest",
    "read_tables",
]
