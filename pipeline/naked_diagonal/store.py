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
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import fsspec
import fsspec.core
import numpy as np
import zarr
import zarr.codecs
from zarr.core.sync import sync

from pipeline.arrays import CONFIG
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


def is_url(path: str) -> bool:
    """True for an fsspec URL such as ``file:///shared/x.zarr``.

    >>> is_url("file:///shared/4x4.zarr"), is_url("build/4x4.zarr")
    (True, False)
    """
    return "://" in path


def _record(value: object) -> dict[str, Any]:
    return dict(value) if isinstance(value, Mapping) else {}


def _fs(path: str) -> tuple[Any, str]:
    if is_url(path):
        fs, root = fsspec.core.url_to_fs(path)
        return fs, root
    return fsspec.filesystem("file"), str(Path(path).absolute())


def prepare(path: str, create: bool) -> None:
    """Check that ``path`` is a store of this solve, or (``create``) make one in a new or empty directory:
    the solve deletes and overwrites only inside its own stores."""
    fs, root = _fs(path)
    try:
        if fs.isfile(root):
            raise NakedDiagonalError(f"store {path}: is a file, not a store directory")
        if fs.exists(f"{root}/{MARKER}"):
            return
        if fs.isdir(root) and fs.ls(root, detail=False):
            raise NakedDiagonalError(
                f"store {path}: exists and was not made by the Naked Diagonal solve (no {MARKER} in it)"
            )
        if not create:
            raise NakedDiagonalError(f"store {path}: not found (run: python -m pipeline nd-build)")
        fs.makedirs(root, exist_ok=True)
        fs.pipe_file(f"{root}/{MARKER}", MARKER_TEXT)
    except OSError as exc:
        raise NakedDiagonalError(
            f"store {path}: cannot {'create' if create else 'read'} it "
            f"({exc})"
        ) from None


class NDStore:
    """One solve's zarr group (``create`` makes it when missing)."""

    def __init__(self, path: str, n: int, create: bool = False) -> None:
        self.path = path
        self.n = n
        prepare(path, create)
        try:
            self.root = zarr.open_group(path, mode="a" if create else "r+")
        except (FileNotFoundError, zarr.errors.GroupNotFoundError):
            raise NakedDiagonalError(f"store {path}: not found (run: python -m pipeline nd-build)") from None
        board = f"{n}x{n}"
        meta = _record(self.root.attrs.get("naked_diagonal"))
        if not meta:
            if not create:
                raise NakedDiagonalError(f"store {path}: not a Naked Diagonal store")
            self.root.attrs["naked_diagonal"] = {"format": FORMAT, "board": board}
            self.root.attrs["stages"] = {}
        elif meta.get("board") != board:
            raise NakedDiagonalError(f"store {path}: holds board {meta.get('board')}, not {board}")
        elif meta.get("format") != FORMAT:
            raise NakedDiagonalError(f"store {path}: format {meta.get('format')}, expected {FORMAT}")

    # Stage records ----------------------------------------------------------------------------------

    def stages(self) -> dict[str, Any]:
        """All stage records (a fresh read)."""
        return _record(zarr.open_group(self.path, mode="r").attrs.get("stages"))

    def record(self, name: str) -> dict[str, Any] | None:
        """The record of a completed stage, or None."""
        return self.stages().get(name)

    def require(self, name: str) -> dict[str, Any]:
        """The record of a stage that must be complete."""
        rec = self.record(name)
        if rec is None:
            raise NakedDiagonalError(
                f"store {self.path}: stage {name!r} is not complete (run nd-build "
                f"again)"
            )
        return rec

    def done(self, name: str) -> bool:
        """True when the stage completed."""
        return name in self.stages()

    def mark_done(self, name: str, record: dict[str, Any]) -> None:
        """Record a completed stage (after its arrays)."""
        stages = self.stages()
        stages[name] = record
        self.root.attrs["stages"] = stages

    def clear(self, names: list[str]) -> None:
        """Forget completed stages."""
        stages = self.stages()
        if any(k in stages for k in names):
            self.root.attrs["stages"] = {k: v for k, v in stages.items() if k not in names}

    # Arrays -----------------------------------------------------------------------------------------

    def create(self, name: str, shape: tuple[int, ...], dtype: Any, fill: Any = 0) -> zarr.Array:
        """(Re)create an array: 1-d arrays in one shard, 2-d arrays with one shard per row; inner chunks of
        :data:`CHUNK` entries along the last axis (or the whole row when it is shorter)."""
        last = shape[-1]
        inner = CHUNK if last % CHUNK == 0 else last
        chunks = (*([1] * (len(shape) - 1)), max(1, inner))
        shards = (*([1] * (len(shape) - 1)), max(1, last))
        return zarr.create_array(
            store=self.path,
            name=name,
            shape=shape,
            chunks=chunks,
            shards=None if chunks == shards else shards,
            dtype=dtype,
            compressors=(zarr.codecs.ZstdCodec(level=3), zarr.codecs.Crc32cCodec()),
            fill_value=fill,
            overwrite=True,
            config=CONFIG,
        )

    def array(self, name: str) -> zarr.Array:
        """An existing array."""
        try:
            arr = zarr.open_array(store=self.path, path=name, mode="r+")
        except FileNotFoundError:
            raise NakedDiagonalError(
                f"store {self.path}: array {name} is missing (the store is "
                f"damaged)"
            ) from None
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
        return np.asarray(arr[i])

    def whole(self, name: str) -> np.ndarray:
        """A whole 1-d array, checked to be stored."""
        arr = self.array(name)
        self._require_object(arr, name, (0,))
        return np.asarray(arr[...])

    def delete(self, name: str) -> None:
        """Remove a group or array if present."""
        if name in self.root:
            del self.root[name]
