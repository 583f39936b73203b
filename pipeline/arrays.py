"""The arrays of a store as the pipeline reads and writes them: damage found, never served.

Every array is written with a crc32c checksum on each chunk (:func:`codecs`) and with every chunk stored,
even one equal to the fill value (``write_empty_chunks``), so that a chunk that is missing is always an
error, never zeros standing in for data. :class:`Checked` wraps a zarr array: a read first checks that
the shards it touches exist, and a chunk whose bytes fail their checksum raises
:class:`pipeline.errors.Damaged` naming the array and the chunk, in one line. :func:`missing_chunks`
checks a whole array, down to the inner chunks listed in each shard's index (``pipeline verify``).
"""

from __future__ import annotations

import asyncio
import struct
from typing import Any

import google_crc32c
import numpy as np
import zarr
import zarr.codecs
from numba import njit
from zarr.abc.store import SuffixByteRequest
from zarr.core.array_spec import ArrayConfigParams
from zarr.core.buffer import default_buffer_prototype
from zarr.core.sync import sync

from unitile_py.errors import GameError

from .errors import Damaged

#: A shard index entry of a chunk that is not stored (offset and length both all ones).
EMPTY = 2**64 - 1
#: zarr settings of every array: every chunk stored, even when it equals the fill value.
CONFIG: ArrayConfigParams = {"write_empty_chunks": True}


def codecs(compressor: Any | None) -> tuple[Any, ...]:
    """The bytes codecs of an array: its compressor if any, then a crc32c checksum of the stored bytes
    (so a flipped byte fails the checksum before the decompressor sees it)."""
    return (*(() if compressor is None else (compressor,)), zarr.codecs.Crc32cCodec())


#: What zarr raises for stored bytes it cannot decode (a checksum mismatch is a ValueError).
DECODE_ERRORS = (ValueError, RuntimeError, TypeError, KeyError, IndexError, struct.error)


def _first_axis(key: Any, length: int) -> tuple[int, int]:
    """The range ``[lo, hi)`` of first-axis indices a basic selection reads."""
    first = key[0] if isinstance(key, tuple) and key else key
    if first is Ellipsis or (isinstance(key, tuple) and not key):
        return 0, length
    if isinstance(first, slice):
        lo, hi, _ = first.indices(length)
        return lo, max(lo, hi)
    if isinstance(first, int | np.integer):
        i = int(first) + (length if int(first) < 0 else 0)
        return i, i + 1
    return 0, length


class Checked:
    """A zarr array of the store at ``path``, named ``name``: reads check presence and checksums."""

    def __init__(self, arr: zarr.Array, path: str, name: str) -> None:
        self.arr = arr
        self.path = path
        self.name = name
        #: Entries per stored object (a shard, or a chunk when unsharded) along the first axis.
        self.step = int((arr.shards or arr.chunks)[0])

    @property
    def shape(self) -> tuple[int, ...]:
        """The array's shape."""
        return tuple(self.arr.shape)

    @property
    def dtype(self) -> np.dtype[Any]:
        """The array's dtype."""
        return np.dtype(self.arr.dtype)

    @property
    def chunks(self) -> tuple[int, ...]:
        """The inner chunks' shape."""
        return tuple(self.arr.chunks)

    def _where(self, lo: int, hi: int) -> str:
        return f"store {self.path}: array {self.name}, entries {lo:,}..{hi - 1:,}"

    def object_key(self, k: int) -> str:
        """The store key of the ``k``-th stored object (shard or chunk) along the first axis."""
        coords = (k, *([0] * (len(self.arr.shape) - 1)))
        return f"{self.arr.store_path.path}/{self.arr.metadata.encode_chunk_key(coords)}"

    def require(self, lo: int, hi: int) -> None:
        """Raise :class:`Damaged` unless every stored object holding entries ``lo..hi-1`` exists."""
        store = self.arr.store_path.store
        for k in range(lo // self.step, (hi - 1) // self.step + 1 if hi > lo else 0):
            if not sync(store.exists(self.object_key(k))):
                a = k * self.step
                raise Damaged(f"{self._where(a, min(a + self.step, self.shape[0]))}: the chunk is missing")

    def __getitem__(self, key: Any) -> np.ndarray:
        lo, hi = _first_axis(key, self.shape[0])
        self.require(lo, hi)
        try:
            return np.asarray(self.arr[key])
        except DECODE_ERRORS as exc:
            raise self._locate(lo, hi, exc) from None

    def _locate(self, lo: int, hi: int, exc: Exception) -> Damaged:
        """The error naming the first inner chunk of ``lo..hi-1`` that fails to decode."""
        settle()
        step = int(self.arr.chunks[0])
        for a in range(lo - lo % step, hi, step):
            b = min(a + step, self.shape[0])
            try:
                self.arr[a:b]
            except DECODE_ERRORS as inner:
                return Damaged(f"{self._where(a, b)}: {_reason(inner)}")
        return Damaged(f"{self._where(lo, hi)}: {_reason(exc)}")

    def __setitem__(self, key: Any, value: Any) -> None:
        try:
            self.arr[key] = value
        except OSError as exc:
            raise GameError(
                f"store {self.path}: cannot write {self.name} ({exc.strerror or exc})"
            ) from None


def settle() -> None:
    """Wait for the reads zarr still runs after one of a call's chunks failed: it does not cancel them, and
    tasks left pending when the process exits are reported on standard error ("Task was destroyed but it
    is pending!"), after the one line that says what is damaged."""

    async def rest() -> None:
        me = asyncio.current_task()
        await asyncio.gather(*(t for t in asyncio.all_tasks() if t is not me), return_exceptions=True)

    sync(rest())


def _reason(exc: Exception) -> str:
    text = str(exc)
    if "checksum" in text:
        return "its bytes fail their crc32c checksum (the store is damaged)"
    return f"cannot be decoded ({type(exc).__name__}; the store is damaged)"


def open_array(path: str, name: str, mode: str = "r") -> Checked:
    """An array of the store at ``path``; a missing or unreadable one is :class:`Damaged`."""
    try:
        # The runtime config is not stored with the array: every opening asks for every chunk stored.
        arr = zarr.open_array(store=path, path=name, mode=mode).with_config(CONFIG)
    except FileNotFoundError:
        raise Damaged(f"store {path}: array {name} is missing") from None
    except (*DECODE_ERRORS, AttributeError) as exc:  # AttributeError: a zarr.json that is not an object
        raise Damaged(
            f"store {path}: array {name}: its metadata cannot be read ({type(exc).__name__})"
        ) from None
    return Checked(arr, path, name)


#: Entries :func:`take` reads at most in one call (8 MiB of float64), in whole chunks.
TAKE_SPAN = 1 << 20
#: Bytes of an array up to which :func:`take` reads it whole when asked for as many entries as a quarter
#: of its length (reading most chunks anyway, it then gathers without grouping the entries by chunk).
TAKE_WHOLE = 128 << 20


@njit(cache=True, nogil=True)
def _by_chunk(idx: np.ndarray, step: int, n_chunks: int) -> tuple[np.ndarray, np.ndarray]:
    """A counting sort of ``idx`` by chunk: ``order`` (positions in ``idx``, chunk by chunk, in their
    order within a chunk) and ``bounds`` (chunk ``k``'s entries are ``order[bounds[k]:bounds[k + 1]]``)."""
    bounds = np.zeros(n_chunks + 1, dtype=np.int64)
    for i in range(idx.shape[0]):
        bounds[idx[i] // step + 1] += 1
    for k in range(n_chunks):
        bounds[k + 1] += bounds[k]
    fill = bounds[:-1].copy()
    order = np.empty(idx.shape[0], dtype=np.int64)
    for i in range(idx.shape[0]):
        k = idx[i] // step
        order[fill[k]] = i
        fill[k] += 1
    return order, bounds


@njit(cache=True, nogil=True)
def _scatter(out: np.ndarray, data: np.ndarray, idx: np.ndarray, order: np.ndarray, lo: int) -> None:
    """``out[i] = data[idx[i] - lo]`` for every ``i`` in ``order``."""
    for j in range(order.shape[0]):
        i = order[j]
        out[i] = data[idx[i] - lo]


def take(arr: Checked, index: np.ndarray) -> np.ndarray:
    """The entries of a 1-d array at ``index`` (any order, repeats allowed), reading only the chunks
    that hold them: each run of consecutive such chunks in one call, up to :data:`TAKE_SPAN` entries
    (zarr reads a call's chunks concurrently), so that memory stays near that plus the result, where
    zarr's own coordinate selection decodes many shards at once. The entries are grouped by chunk in
    one counting pass (:func:`_by_chunk`)."""
    idx = np.asarray(index)
    if idx.dtype.kind not in "iu" or not idx.flags.c_contiguous:
        idx = np.ascontiguousarray(idx, dtype=np.int64)
    if idx.size and not (idx.min() >= 0 and idx.max() < arr.shape[0]):
        raise IndexError(f"{arr.name}: index out of range 0..{arr.shape[0] - 1}")
    flat = idx.reshape(-1)
    if flat.shape[0] >= arr.shape[0] // 4 and arr.shape[0] * arr.dtype.itemsize <= TAKE_WHOLE:
        # One entry for every fourth or more of a small array: read it all, gather in memory.
        return arr[:][idx]
    out = np.empty(flat.shape, dtype=arr.dtype)
    step = arr.chunks[0]
    n_chunks = -(-arr.shape[0] // step)
    order, bounds = _by_chunk(flat, step, n_chunks)
    needed = np.flatnonzero(bounds[1:] > bounds[:-1]).tolist()
    most = max(1, TAKE_SPAN // step)
    i = 0
    while i < len(needed):
        first = last = needed[i]
        i += 1
        while i < len(needed) and needed[i] == last + 1 and last - first + 1 < most:
            last = needed[i]
            i += 1
        lo, a, b = first * step, bounds[first], bounds[last + 1]
        _scatter(out, arr[lo : min((last + 1) * step, arr.shape[0])], flat, order[a:b], lo)
    return out.reshape(idx.shape)


def missing_chunks(arr: Checked) -> list[str]:
    """What is missing of an array: stored objects (shards or chunks) that do not exist, and inner chunks
    that a shard's index does not list (or a shard index failing its checksum). Empty when complete."""
    store = arr.arr.store_path.store
    n_objects = -(-arr.shape[0] // arr.step)
    inner = arr.step // int(arr.arr.chunks[0]) if arr.arr.shards else 0
    out = []
    for k in range(n_objects):
        key = arr.object_key(k)
        a, b = k * arr.step, min((k + 1) * arr.step, arr.shape[0])
        if not sync(store.exists(key)):
            out.append(f"array {arr.name}, entries {a:,}..{b - 1:,}: the chunk is missing")
            continue
        if inner:
            # A shard's index has a slot for every chunk of the shard, also those past the array's end.
            problem = _index_problem(store, key, inner, -(-(b - a) // int(arr.arr.chunks[0])))
            if problem:
                out.append(f"array {arr.name}, entries {a:,}..{b - 1:,}: {problem}")
    return out


def _index_problem(store: Any, key: str, chunks: int, used: int) -> str | None:
    """Whether the index at the end of a shard (``chunks`` slots) fails its checksum or lists one of its
    first ``used`` chunks as not stored."""
    size = 16 * chunks + 4
    buf = sync(store.get(key, prototype=default_buffer_prototype(), byte_range=SuffixByteRequest(size)))
    raw = bytes(buf.to_bytes()) if buf is not None else b""
    if len(raw) != size:
        return "its shard is truncated"
    body, stored = raw[:-4], struct.unpack("<I", raw[-4:])[0]
    if google_crc32c.value(body) != stored:
        return "its shard index fails its crc32c checksum"
    entries = np.frombuffer(body, dtype="<u8").reshape(chunks, 2)
    absent = np.flatnonzero(entries[:used, 0] == EMPTY)
    return f"{absent.size} of its {used} chunks are not stored" if absent.size else None


def require_complete(path: str, names: list[str]) -> None:
    """Raise :class:`Damaged` (one line, the first problems) unless every chunk of every named array of
    the store at ``path`` is stored (:func:`missing_chunks`)."""
    problems: list[str] = []
    for name in names:
        try:
            problems += missing_chunks(open_array(path, name))
        except Damaged as exc:
            problems.append(str(exc).removeprefix(f"store {path}: "))
    if problems:
        more = f" (and {len(problems) - 3} more)" if len(problems) > 3 else ""
        raise Damaged(f"store {path}: {'; '.join(problems[:3])}{more}")
