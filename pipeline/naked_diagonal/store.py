"""The zarr store of one Naked Diagonal solve: the tiers' arrays and the stage records.

Layout (one zarr group, default ``build/naked-diagonal-<N>x<N>.zarr``)::

    zarr.json attrs: naked_diagonal = {format, board}, stages = {name: record}
    tiers/<t>/keys     (parts, cap) uint64  canonical keys, sorted; padding 2^64-1
    tiers/<t>/legal    (parts, cap) uint64  Red's legal points | Blue's << 32
    tiers/<t>/info     (parts, cap) uint8   1 Red has won, 2 Blue has won
    tiers/<t>/orbit    (parts, cap) uint8   distinct images of the position (1, 2, 4 or 8)
    tiers/<t>/value    (parts, cap) int16   perfect play for the side to move (the solve)
    scratch/<t>/...    a tier's candidates while it is built (removed when it is complete)
    .nd-store          the marker, written first when the pipeline creates the store

Tier ``t`` holds the positions with ``t`` stones, split into *parts* by key ranges; each part is one
row, one shard, written whole by one task (no two tasks write one shard). Every chunk carries a crc32c
checksum and is stored even when it equals the fill value, and a read first checks that the row's
shard exists, so damage or a missing row is an error, never padding read as data. A stage's record is
written only after its arrays, and running a stage first clears the records of every later stage.
The stages' records and groups are named by :func:`tier_name` and :func:`solve_name`; :func:`padded`
makes a row of whole chunks.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import zarr
import zarr.codecs
from zarr.core.sync import sync

from pipeline.arrays import CONFIG, DECODE_ERRORS, Checked
from pipeline.errors import Damaged
from pipeline.store import StageStore, StoreKind
from unitile_py.errors import NakedDiagonalError

#: The store format.
FORMAT = 1
MARKER = ".nd-store"
MARKER_TEXT = b"a store of the Naked Diagonal solve (python -m pipeline nd-build); it may delete anything\n"
#: The padding of a row of keys (larger than every key).
NO_KEY = np.uint64(2**64 - 1)
#: Entries per inner chunk of a row.
CHUNK = 1 << 13


def default_path(n: int) -> str:
    """``build/naked-diagonal-<n>x<n>.zarr``."""
    return f"build/naked-diagonal-{n}x{n}.zarr"


def tier_name(t: int) -> str:
    """The name of tier t's stage and group: ``tier-07``."""
    return f"tier-{t:02d}"


def solve_name(t: int) -> str:
    """``solve-07``."""
    return f"solve-{t:02d}"


def padded(values: np.ndarray, fill: Any) -> np.ndarray:
    """``values`` padded with ``fill`` to a whole number of chunks (at least one)."""
    length = max(CHUNK, -(-len(values) // CHUNK) * CHUNK)
    out = np.full(length, fill, dtype=values.dtype)
    out[: len(values)] = values
    return out


class Store(StageStore):
    """One solve's zarr group (``create`` makes it when missing)."""

    kind = StoreKind(NakedDiagonalError, "Naked Diagonal", "naked_diagonal", FORMAT, MARKER, MARKER_TEXT)

    def __init__(self, path: str, n: int, create: bool = False) -> None:
        self.n = n
        super().__init__(path, f"{n}x{n}", create)

    def _not_found(self) -> NakedDiagonalError:
        return NakedDiagonalError(f"store {self.path}: not found (run: python -m pipeline nd-build)")

    def _foreign(self, fs: Any, root: str) -> NakedDiagonalError:
        return NakedDiagonalError(
            f"store {self.path}: exists and was not made by the Naked Diagonal solve (no {MARKER} in it)"
        )

    def _incomplete(self, name: str) -> NakedDiagonalError:
        return NakedDiagonalError(f"store {self.path}: stage {name!r} is not complete (run nd-build again)")

    # Arrays -----------------------------------------------------------------------------------------

    def create(self, name: str, shape: tuple[int, ...], dtype: Any, fill: Any = 0) -> zarr.Array:
        """(Re)create an array: 1-d arrays in one shard, 2-d arrays with one shard per row; inner chunks of
        :data:`CHUNK` entries along the last axis (or the whole row when it is shorter)."""
        last = shape[-1]
        inner = CHUNK if last % CHUNK == 0 else last
        chunks = (*([1] * (len(shape) - 1)), max(1, inner))
        shards = (*([1] * (len(shape) - 1)), max(1, last))
        return self.create_array(name, shape, chunks, shards, dtype, zarr.codecs.ZstdCodec(level=3), fill)

    def array(self, name: str) -> zarr.Array:
        """An existing array."""
        try:
            arr = zarr.open_array(store=self.path, path=name, mode="r+")
        except FileNotFoundError:
            raise NakedDiagonalError(
                f"store {self.path}: array {name} is missing (the store is damaged)"
            ) from None
        except (*DECODE_ERRORS, AttributeError):
            raise Damaged(f"store {self.path}: array {name}: its zarr.json cannot be read "
                          f"(the store is damaged)") from None
        parts = name.split("/")
        if len(parts) == 3 and parts[0] == "tiers" and parts[2] != "keys":
            # Every array of a tier has the shape of its keys: one row per part, one entry per key.
            keys = self.array(f"tiers/{parts[1]}/keys")
            if keys.shape != arr.shape:
                raise Damaged(f"store {self.path}: array {name} has shape {arr.shape}, its tier's keys "
                              f"{keys.shape} (the store is damaged)")
        # The setting is not kept in the metadata: every writer asks again for every chunk to be stored.
        return arr.with_config(CONFIG)

    def _require_object(self, arr: zarr.Array, name: str, coords: tuple[int, ...]) -> None:
        key = f"{arr.store_path.path}/{arr.metadata.encode_chunk_key(coords)}"
        if not sync(arr.store_path.store.exists(key)):
            raise NakedDiagonalError(f"store {self.path}: array {name}, {coords}: the shard is missing")

    def row(self, name: str, i: int) -> np.ndarray:
        """Row ``i`` (one part) of a 2-d array, checked to be stored."""
        arr = self.array(name)
        self._require_object(arr, name, (i, 0))
        return self._read(arr, name, i)

    def whole(self, name: str) -> np.ndarray:
        """A whole 1-d array, checked to be stored."""
        arr = self.array(name)
        self._require_object(arr, name, (0,))
        return self._read(arr, name, ...)

    def _read(self, arr: zarr.Array, name: str, key: Any) -> np.ndarray:
        """``arr[key]``; bytes that fail their checksum or cannot be decoded are
        :class:`pipeline.errors.Damaged` (exit status 1), naming the chunk."""
        try:
            return np.asarray(arr[key])
        except DECODE_ERRORS:
            return Checked(arr, self.path, name)[key]

    def delete(self, name: str) -> None:
        """Remove a group or array if present."""
        if name in self.root:
            with self._writing():
                del self.root[name]
