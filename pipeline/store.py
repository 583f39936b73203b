"""The zarr store of one board's build: arrays, stage records and solver checkpoints.

Layout (all under one zarr group, default ``build/<board>.zarr``)::

    zarr.json attrs: unitile = {format, board}, stages = {name: record}
    classes/rank_to_local   (orbits, C) int32   one shard per orbit
    classes/ranks_<o>       (classes of orbit o,) int32
    graph/nbr, graph/info, graph/swap           per class, sharded by class range
    solve/<slot>_x|s|p                          two checkpoint slots; attrs name the valid one
    values/r, values/T_class                    per class
    positions/T             (positions,) float64, one shard per bubble cell

A stage's record is written (atomically: the local store writes via rename) only after all its arrays
are written, and running a stage first clears the records of every later stage, so a store never looks
more complete than it is. Every writer writes whole shards; no two tasks share one. Readers read the
shards (or rows, or class windows) they need; :meth:`Store.take` gathers scattered entries one chunk at
a time.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import Any

import fsspec.config
import numpy as np
import zarr
import zarr.codecs

from unitile_py.board import Board
from unitile_py.errors import UnitileError

FORMAT = 1

# A store may also be any fsspec URL that the client and every worker can reach (``file:///shared/x.zarr``
# on a shared file system, ``s3://bucket/x.zarr``, ``gs://...``; see docs/cluster.md). fsspec's local file
# system does not create parent directories by default; zarr's own local store does, so make ``file://``
# URLs behave the same (in every process that imports this module: the client and the workers' tasks).
fsspec.config.conf.setdefault("file", {}).setdefault("auto_mkdir", True)
#: Classes per shard of the per-class arrays (and per graph task).
CLASS_SHARD = 1 << 20


def as_record(value: object) -> dict[str, Any]:
    """A JSON attribute that should be an object, as a dict (empty when it is missing or anything else).

    >>> as_record({"board": "3x5"}), as_record(None), as_record([1])
    ({'board': '3x5'}, {}, {})
    """
    return dict(value) if isinstance(value, Mapping) else {}


def is_url(path: str) -> bool:
    """True for an fsspec URL (``file://``, ``s3://`` ...), False for a plain path.

    >>> is_url("file:///shared/3x5.zarr"), is_url("build/3x5.zarr")
    (True, False)
    """
    return "://" in path


def default_path(board: Board) -> str:
    """``build/<board>.zarr``."""
    return f"build/{board}.zarr"


def compressor() -> zarr.codecs.ZstdCodec:
    """The codec of every array (unless :meth:`Store.create` is given another)."""
    return zarr.codecs.ZstdCodec(level=1)


def fast_compressor(typesize: int) -> zarr.codecs.BloscCodec:
    """The codec of arrays rewritten many times (``perfect/value``, once per half-sweep): blosc lz4 with
    bit shuffle writes a 5x5 shard about 5x and reads it about 3x faster than :func:`compressor`, and
    stores it nearly as small."""
    return zarr.codecs.BloscCodec(cname="lz4", clevel=1, shuffle="bitshuffle", typesize=typesize)


def inner_chunk(shard: int, limit: int = 1 << 17) -> int:
    """The largest divisor of ``shard`` that is at most ``limit`` (zarr chunks must divide shards).

    >>> inner_chunk(2704156), inner_chunk(70)
    (117572, 70)
    """
    best = 1
    d = 1
    while d * d <= shard:
        if shard % d == 0:
            for c in (d, shard // d):
                if c <= limit:
                    best = max(best, c)
        d += 1
    return best


class Store:
    """One build's zarr group. ``create`` makes it if missing; otherwise it must exist."""

    def __init__(self, path: str, board: Board, create: bool = False) -> None:
        self.path = path
        self.board = board
        exists = Path(path, "zarr.json").exists() if not is_url(path) else True
        if not exists and not create:
            raise UnitileError(f"store {path}: not found (run: python -m pipeline build --board {board})")
        try:
            self.root = zarr.open_group(path, mode="a" if create else "r+")
        except (FileNotFoundError, zarr.errors.GroupNotFoundError, ValueError) as exc:
            raise UnitileError(f"store {path}: not a pipeline store ({exc})") from None
        raw = self.root.attrs.get("unitile")
        if raw is None:
            if not create:
                raise UnitileError(f"store {path}: not a pipeline store")
            if len(list(self.root.keys())):
                raise UnitileError(f"store {path}: exists and is not a pipeline store")
            self.root.attrs["unitile"] = {"format": FORMAT, "board": str(board)}
            self.root.attrs["stages"] = {}
        else:
            meta = as_record(raw)
            if meta.get("board") != str(board):
                raise UnitileError(f"store {path}: holds board {meta.get('board')}, not {board}")
            if meta.get("format") != FORMAT:
                raise UnitileError(f"store {path}: format {meta.get('format')}, expected {FORMAT}")

    @staticmethod
    def board_of(path: str) -> Board:
        """The board recorded in an existing store."""
        try:
            root = zarr.open_group(path, mode="r")
            return Board.parse(str(as_record(root.attrs["unitile"])["board"]))
        except (FileNotFoundError, KeyError, TypeError, zarr.errors.GroupNotFoundError):
            raise UnitileError(f"store {path}: not found or not a pipeline store") from None

    # Stage records ------------------------------------------------------------------------------

    def stages(self) -> dict[str, Any]:
        """All stage records (a fresh read)."""
        return as_record(zarr.open_group(self.path, mode="r").attrs.get("stages"))

    def record(self, name: str) -> dict[str, Any] | None:
        """The record of a completed stage, or None."""
        return self.stages().get(name)

    def done(self, name: str) -> bool:
        """True when the stage completed."""
        return name in self.stages()

    def mark_done(self, name: str, record: dict[str, Any]) -> None:
        """Record a completed stage (its arrays must already be written)."""
        stages = self.stages()
        stages[name] = record
        self.root.attrs["stages"] = stages

    def clear(self, names: list[str]) -> None:
        """Forget completed stages (before rerunning them or a stage they depend on)."""
        stages = self.stages()
        if any(n in stages for n in names):
            self.root.attrs["stages"] = {k: v for k, v in stages.items() if k not in names}

    def require(self, name: str) -> dict[str, Any]:
        """The record of a stage that must be complete, or a one-line error."""
        rec = self.record(name)
        if rec is None:
            raise UnitileError(
                f"store {self.path}: stage {name!r} is not complete (run: python -m pipeline build "
                f"--board {self.board} --store {self.path})"
            )
        return rec

    # Arrays ---------------------------------------------------------------------------------------

    def create(
        self,
        name: str,
        shape: tuple[int, ...],
        shard: tuple[int, ...] | None,
        dtype: Any,
        fill: Any = 0,
        chunks: tuple[int, ...] | None = None,
        compress: bool = True,
        codec: Any = None,
    ) -> zarr.Array:
        """(Re)create an array with shards of ``shard`` elements and inner chunks dividing them, compressed
        with ``codec`` (default :func:`compressor`) unless ``compress`` is False."""
        if chunks is None:
            if shard is None:
                raise ValueError(f"{name}: give the shard or the chunks")
            inner = inner_chunk(shard[0])
            # A shard made of tiny chunks is slow: without a good divisor, one chunk per shard.
            chunks = (inner if inner >= min(shard[0], 1 << 12) else shard[0], *shard[1:])
        if chunks == shard:
            shard = None
        return zarr.create_array(
            store=self.path,
            name=name,
            shape=shape,
            chunks=chunks,
            shards=shard,
            dtype=dtype,
            compressors=(codec or compressor()) if compress else None,
            fill_value=fill,
            overwrite=True,
        )

    def array(self, name: str) -> zarr.Array:
        """An existing array."""
        return zarr.open_array(store=self.path, path=name, mode="r+")

    def read(self, name: str) -> np.ndarray:
        """A whole array as numpy."""
        return np.asarray(self.array(name)[...])

    def take(self, name: str, index: np.ndarray) -> np.ndarray:
        """The entries of a 1-d array at ``index`` (any order, repeats allowed), reading only the chunks
        that hold them, one chunk at a time: memory stays near one chunk plus the result, where zarr's
        own coordinate selection decodes many shards at once."""
        arr = self.array(name)
        idx = np.asarray(index, dtype=np.int64)
        if idx.size and not (idx.min() >= 0 and idx.max() < arr.shape[0]):
            raise IndexError(f"{name}: index out of range 0..{arr.shape[0] - 1}")
        out = np.empty(idx.shape, dtype=arr.dtype)
        order = np.argsort(idx, kind="stable")
        at = idx[order]
        step = arr.chunks[0]
        bounds = np.searchsorted(at, np.arange(0, arr.shape[0] + step, step))
        for k in np.flatnonzero(bounds[1:] > bounds[:-1]).tolist():
            lo, a, b = k * step, bounds[k], bounds[k + 1]
            out[order[a:b]] = np.asarray(arr[lo : min(lo + step, arr.shape[0])])[at[a:b] - lo]
        return out


@cache
def _cached_read(path: str, name: str, stamp: str) -> np.ndarray:
    arr = zarr.open_array(store=path, path=name, mode="r")
    out = np.asarray(arr[...])
    out.setflags(write=False)
    return out


def cached_read(path: str, name: str, stamp: str) -> np.ndarray:
    """A whole array, read once per process per ``stamp`` (the stage record that wrote it).

    Dask tasks of one stage on one worker share it instead of reading it again.
    """
    return _cached_read(path, name, stamp)


def clear_cache() -> None:
    """Forget arrays read by :func:`cached_read`."""
    _cached_read.cache_clear()
