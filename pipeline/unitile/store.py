"""The zarr store of one board's build: arrays, stage records and solver checkpoints.

Layout (all under one zarr group, default ``build/<board>.zarr``)::

    zarr.json attrs: unitile = {format, board}, stages = {name: record}
    classes/rank_to_local   (orbits, C) int32   one shard per orbit
    classes/ranks_<o>       (classes of orbit o,) int32
    classes/runs_<o>        (runs, 2) int64     the orbit's locality keys as (key, count) runs
    graph/nbr, graph/info, graph/swap           per class, sharded by class range
    solve/<slot>_x|s|p                          two checkpoint slots in solve positions; attrs name
                                                the valid one
    solve/r                                     the parts' solution in solve positions (several parts)
    values/r, values/T_class                    per class
    positions/T             (positions,) float64, one shard per bubble cell
    .unitile-store          the marker: written first when the pipeline creates the store

The pipeline opens only directories holding the marker (or creates a new or empty one), since it deletes
and overwrites arrays there. Every chunk carries a crc32c checksum and is stored even when it equals the
fill value, and every read checks both (:mod:`pipeline.arrays`): damage is an error naming the array
and chunk, never wrong numbers. A stage's record is written (atomically: the local store writes via
rename) only after all its arrays are written, and running a stage first clears the records of every
later stage, so a store never looks more complete than it is. Every writer writes whole shards; no two
tasks share one. Readers read the shards (or rows, or class windows) they need; :meth:`Store.take`
gathers scattered entries one chunk at a time.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator, Mapping
from functools import cache
from pathlib import Path
from typing import Any

import fsspec.config
import fsspec.core
import fsspec.implementations.local
import numpy as np
import zarr
import zarr.codecs

from unitile_py.errors import UnitileError
from unitile_py.unitile.board import Board

from ..arrays import CONFIG, DECODE_ERRORS, Checked, codecs, open_array, take
from ..errors import Damaged

#: 2: every chunk carries a crc32c checksum and is always stored; the store holds :data:`MARKER`.
FORMAT = 2

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


#: The file that marks a directory as a store the pipeline made (written first when it creates one).
MARKER = ".unitile-store"
MARKER_TEXT = b"a store of the Unitile pipeline (python -m pipeline); it may delete anything in here\n"


def _place(path: str) -> tuple[Any, str, bool]:
    """``(file system, root, local)`` of a store path or URL (fsspec)."""
    if is_url(path):
        fs, root = fsspec.core.url_to_fs(path)
        return fs, root, isinstance(fs, fsspec.implementations.local.LocalFileSystem)
    return fsspec.filesystem("file"), str(Path(path).absolute()), True


def _blocking_file(root: str) -> Path | None:
    """The nearest existing ancestor of a local path when it is not a directory (a file in the way)."""
    for parent in Path(root).parents:
        if parent.exists():
            return None if parent.is_dir() else parent
    return None


def prepare(path: str, board: Board, create: bool) -> None:
    """Check that ``path`` is a store the pipeline made, or (``create``) make it: a new or empty
    directory gets :data:`MARKER` before anything else. Refuses, in one line, a file, a path under a
    file, and a directory with other contents: the pipeline deletes and overwrites only in its own stores."""
    fs, root, local = _place(path)
    try:
        if fs.isfile(root):
            raise UnitileError(f"store {path}: is a file, not a store directory")
        blocker = _blocking_file(root) if local else None
        if blocker is not None:
            raise UnitileError(f"store {path}: {blocker} is a file, not a directory")
        if fs.exists(f"{root}/{MARKER}"):
            return
        if fs.isdir(root) and fs.ls(root, detail=False):
            if fs.exists(f"{root}/zarr.json") and "unitile" in fs.cat_file(f"{root}/zarr.json").decode(
                errors="replace"
            ):
                raise UnitileError(
                    f"store {path}: made by an older pipeline (format 1, without checksums): remove it and "
                    "build again"
                )
            raise UnitileError(
                f"store {path}: exists and was not made by the pipeline (no {MARKER} in it): name a new "
                "directory, or empty this one"
            )
        if not create:
            raise _not_found(path, board)
        fs.makedirs(root, exist_ok=True)
        fs.pipe_file(f"{root}/{MARKER}", MARKER_TEXT)
    except OSError as exc:
        raise UnitileError(
            f"store {path}: cannot {'create' if create else 'read'} it ({_why(exc)})"
        ) from None


def _not_found(path: str, board: Board) -> UnitileError:
    return UnitileError(f"store {path}: not found (run: python -m pipeline build --board {board})")


def _why(exc: OSError) -> str:
    return str(exc.strerror or exc)


class Store:
    """One build's zarr group. ``create`` makes it if missing; otherwise it must exist. Either way it
    must be a store the pipeline made (:func:`prepare`)."""

    def __init__(self, path: str, board: Board, create: bool = False) -> None:
        self.path = path
        self.board = board
        prepare(path, board, create)
        try:
            self.root = zarr.open_group(path, mode="a" if create else "r+")
        except (FileNotFoundError, zarr.errors.GroupNotFoundError):
            raise _not_found(path, board) from None
        except OSError as exc:
            raise UnitileError(f"store {path}: cannot open it ({_why(exc)})") from None
        except DECODE_ERRORS:
            raise Damaged(f"store {path}: its zarr.json cannot be read (the store is damaged)") from None
        raw = self.root.attrs.get("unitile")
        if raw is None:
            if not create:
                raise UnitileError(f"store {path}: not a pipeline store")
            with self._writing():
                self.root.attrs["unitile"] = {"format": FORMAT, "board": str(board)}
                self.root.attrs["stages"] = {}
        else:
            meta = as_record(raw)
            if meta.get("board") != str(board):
                raise UnitileError(f"store {path}: holds board {meta.get('board')}, not {board}")
            if meta.get("format") != FORMAT:
                raise UnitileError(f"store {path}: format {meta.get('format')}, expected {FORMAT}")

    def _writing(self) -> contextlib.AbstractContextManager[None]:
        """A context in which an OSError (a read-only or full file system) is a one-line user error."""
        return _writing_to(self.path)

    def check_writable(self) -> None:
        """A one-line error now, rather than after the first stage, when the store cannot be written."""
        fs, root, _ = _place(self.path)
        probe = f"{root}/.unitile-probe"
        with self._writing():
            fs.pipe_file(probe, b"")
            fs.rm_file(probe)

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
        try:
            return as_record(zarr.open_group(self.path, mode="r").attrs.get("stages"))
        except DECODE_ERRORS:
            raise Damaged(f"store {self.path}: its zarr.json cannot be read (the store is damaged)") from None

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
        with self._writing():
            self.root.attrs["stages"] = stages

    def clear(self, names: list[str]) -> None:
        """Forget completed stages (before rerunning them or a stage they depend on)."""
        stages = self.stages()
        if any(n in stages for n in names):
            with self._writing():
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
    ) -> Checked:
        """(Re)create an array with shards of ``shard`` elements and inner chunks dividing them, compressed
        with ``codec`` (default :func:`compressor`) unless ``compress`` is False; every chunk carries a
        crc32c checksum and is stored even when it equals ``fill`` (:mod:`pipeline.arrays`)."""
        if chunks is None:
            if shard is None:
                raise ValueError(f"{name}: give the shard or the chunks")
            inner = inner_chunk(shard[0])
            # A shard made of tiny chunks is slow: without a good divisor, one chunk per shard.
            chunks = (inner if inner >= min(shard[0], 1 << 12) else shard[0], *shard[1:])
        if chunks == shard:
            shard = None
        with self._writing():
            arr = zarr.create_array(
                store=self.path,
                name=name,
                shape=shape,
                chunks=chunks,
                shards=shard,
                dtype=dtype,
                compressors=codecs((codec or compressor()) if compress else None),
                fill_value=fill,
                overwrite=True,
                config=CONFIG,
            )
        return Checked(arr, self.path, name)

    def array(self, name: str) -> Checked:
        """An existing array (reads check that its chunks exist and pass their checksums)."""
        return open_array(self.path, name, mode="r+")

    def read(self, name: str) -> np.ndarray:
        """A whole array as numpy."""
        return self.array(name)[...]

    def take(self, name: str, index: np.ndarray) -> np.ndarray:
        """The entries of a 1-d array at ``index`` (:func:`pipeline.arrays.take`)."""
        return take(self.array(name), index)


@contextlib.contextmanager
def _writing_to(path: str) -> Iterator[None]:
    try:
        yield
    except OSError as exc:
        raise UnitileError(f"store {path}: cannot write in it ({_why(exc)})") from None


@cache
def _cached_read(path: str, name: str, stamp: str) -> np.ndarray:
    out = open_array(path, name)[...]
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
