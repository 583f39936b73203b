"""The zarr store of one board's build: arrays, stage records and solver checkpoints; the schema the
stages share (which arrays the pass over the positions reads and writes) and what later stages read
back of the classes (:func:`starts_of`, :func:`solve_order`).

Layout (all under one zarr group, default ``build/<board>.zarr``)::

    zarr.json attrs: unitile = {format, board}, stages = {name: record}
    classes/rank_to_local   (orbits, C) int32   one shard per orbit
    classes/ranks_<o>       (classes of orbit o,) int32
    classes/runs_<o>        (runs, 2) int64     the orbit's locality keys as (key, count) runs
    graph/nbr, graph/info, graph/swap           per class, sharded by class range
    solve/<slot>_x|s|p                          two checkpoint slots in solve positions; attrs name
                                                the valid one
    solve/r_<part>                              each part's rows of the solution (several parts)
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

from functools import cache
from typing import Any

import numpy as np
import zarr
import zarr.codecs

from unitile_py.errors import UnitileError
from unitile_py.unitile.board import Board

from ..arrays import Checked, open_array, take
from ..errors import Damaged
from ..store import NUMBER, OBJECT, TEXT, WHOLE, WHOLES, Check, StageStore, StoreKind, as_record
from .classes import class_keys, key_runs
from .geometry import Geometry
from .solve_order import SolveOrder

#: 2: every chunk carries a crc32c checksum and is always stored; the store holds :data:`MARKER`.
FORMAT = 2

#: Classes per shard of the per-class arrays (and per graph task).
CLASS_SHARD = 1 << 20


def default_path(board: Board) -> str:
    """``build/<board>.zarr``."""
    return f"build/{board}.zarr"


def compressor() -> zarr.codecs.ZstdCodec:
    """The codec of every array (unless :meth:`Store.create` is given another)."""
    return zarr.codecs.ZstdCodec(level=1)


def fast_compressor(typesize: int) -> zarr.codecs.BloscCodec:
    """The codec of arrays rewritten many times (``perfect/value``, once per half-sweep): blosc lz4 with
    bit shuffle writes and reads a shard several times faster than :func:`compressor` and stores it
    nearly as small (docs/pipeline.md, "Measured choices")."""
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


#: The fields of each stage's record that other stages and commands read (:attr:`StageStore.fields`).
FIELDS: dict[str, dict[str, Check]] = {
    "classes": {"classes": WHOLE, "split": WHOLE, "starts": WHOLES, "counts": WHOLES, "orbit_order": WHOLES},
    "graph": {"finished": NUMBER},
    "solve": {"bound_T": NUMBER, "T_max": NUMBER, "iterations": WHOLE, "sigma": NUMBER},
    "perfect": {"start": OBJECT, "max_distance": WHOLE},
    # What the tables stage copies into the manifest.
    "verify": {f"report.{key}": NUMBER for key in (
        "red_united_only", "blue_united_only", "both_united", "neither_united", "wins_red_to_move",
        "wins_blue_to_move", "smallest_any_T_gap", "smallest_relative_T_gap",
    )},
    "tables": {"directory": TEXT, "files": OBJECT, "manifest_sha256": TEXT},
    "tables-verify": {"report": OBJECT},
}  # fmt: skip

#: The arrays with one entry per position, and those with one row per class.
POSITION_ARRAYS = ("positions/T", "moves/legal", "perfect/best", "perfect/value")
CLASS_ARRAYS = ("values/r", "values/T_class", "perfect/class_value", "graph/info", "graph/swap", "graph/nbr")
#: Neighbours per class in ``graph/nbr`` (its second axis).
NEIGHBOURS = 4
#: What the ``verify`` stage's pass writes (and, rerun, compares): the legal and best slides.
MOVE_ARRAYS = ("moves/legal", "perfect/best")
#: What the pass reads (every chunk of them, so the checksums of all are checked on the way).
PASS_ARRAYS = ("positions/T", "perfect/value")


class Store(StageStore):
    """One build's zarr group. ``create`` makes it if missing; otherwise it must exist. Either way it
    must be a store the pipeline made (:meth:`pipeline.store.StageStore.prepare`)."""

    kind = StoreKind(UnitileError, "pipeline", "unitile", FORMAT, MARKER, MARKER_TEXT)
    fields = FIELDS

    def __init__(self, path: str, board: Board, create: bool = False) -> None:
        self.board = board
        super().__init__(path, str(board), create)

    def _not_found(self) -> UnitileError:
        return UnitileError(
            f"store {self.path}: not found (run: python -m pipeline build --board {self.board})"
        )

    def _foreign(self, fs: Any, root: str) -> UnitileError:
        if fs.exists(f"{root}/zarr.json") and "unitile" in fs.cat_file(f"{root}/zarr.json").decode(
            errors="replace"
        ):
            return UnitileError(
                f"store {self.path}: made by an older pipeline (format 1, without checksums): remove it and "
                "build again"
            )
        return UnitileError(
            f"store {self.path}: exists and was not made by the pipeline (no {MARKER} in it): name a new "
            "directory, or empty this one"
        )

    def _incomplete(self, name: str) -> UnitileError:
        return UnitileError(
            f"store {self.path}: stage {name!r} is not complete (run: python -m pipeline build "
            f"--board {self.board} --store {self.path})"
        )

    @staticmethod
    def board_of(path: str) -> Board:
        """The board recorded in an existing store."""
        try:
            root = zarr.open_group(path, mode="r")
            return Board.parse(str(as_record(root.attrs["unitile"])["board"]))
        except (FileNotFoundError, KeyError, TypeError, zarr.errors.GroupNotFoundError):
            raise UnitileError(f"store {path}: not found or not a pipeline store") from None

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
        codec = (codec or compressor()) if compress else None
        arr = self.create_array(name, shape, chunks, shard, dtype, codec, fill)
        return Checked(arr, self.path, name)

    def array(self, name: str) -> Checked:
        """An existing array (reads check that its chunks exist and pass their checksums); one whose
        shape is not the board's or the classes' (an edited ``zarr.json``) is :class:`Damaged`."""
        arr = open_array(self.path, name, mode="r+")
        want = self.rows(name)
        if want is not None and arr.shape[: len(want)] != want:
            raise Damaged(f"store {self.path}: array {name} has shape {arr.shape}, not {want} (the store is "
                          "damaged)")  # fmt: skip
        return arr

    def rows(self, name: str) -> tuple[int, ...] | None:
        """The leading dimensions an array of this name must have (None: not known, as before the
        ``classes`` stage is complete)."""
        if name in POSITION_ARRAYS:
            return (self.board.positions,)
        if name == "classes/rank_to_local":
            return (Geometry.of(self.board).n_orbits, self.board.colourings)
        classes = self.record("classes") if name.startswith(("classes/ranks_", *CLASS_ARRAYS)) else None
        if classes is None:
            return None
        if name in CLASS_ARRAYS:
            return (int(classes["classes"]), *((NEIGHBOURS,) if name == "graph/nbr" else ()))
        orbit = name.removeprefix("classes/ranks_")
        counts = classes["counts"]
        return (int(counts[int(orbit)]),) if orbit.isdigit() and int(orbit) < len(counts) else None

    def read(self, name: str) -> np.ndarray:
        """A whole array as numpy."""
        return self.array(name)[...]

    def take(self, name: str, index: np.ndarray) -> np.ndarray:
        """The entries of a 1-d array at ``index`` (:func:`pipeline.arrays.take`)."""
        return take(self.array(name), index)


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


# What the classes stage stored, as later stages read it -------------------------------------------


def starts_of(store: Store) -> np.ndarray:
    """The first class id of each bubble orbit."""
    return np.array(store.require("classes")["starts"], dtype=np.int64)


def solve_order(store: Store) -> SolveOrder:
    """The solve order of the store's classes (:mod:`pipeline.unitile.solve_order`), from the runs of locality
    keys the classes stage wrote (a store made before it wrote them: from the representatives' ranks)."""
    rec = store.require("classes")
    geo = Geometry.of(store.board)
    stored = set(zarr.open_group(store.path, path="classes", mode="r").array_keys())
    runs = []
    for o in range(geo.n_orbits):
        if f"runs_{o}" in stored:
            runs.append(store.read(f"classes/runs_{o}"))
        elif rec.get("order", "counts") == "counts":
            runs.append(key_runs(class_keys(geo, o, store.read(f"classes/ranks_{o}"))))
        else:
            runs.append(np.array([[0, int(rec["counts"][o])]]))
    return SolveOrder.merge(
        int(rec["split"]), int(rec["classes"]), [int(s) for s in rec["starts"]], [r.tolist() for r in runs]
    )
