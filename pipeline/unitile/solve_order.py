"""The solve order: where each class sits in the value solve's vectors.

Class ids are numbered orbit by orbit (:mod:`pipeline.unitile.classes`), and within an orbit by locality key,
then rank. A slide moves the bubble to a cell of another orbit, so the four neighbours of a class lie
in up to four different orbits' ranges: a sweep of gathers in id order reads every window of the
vector it gathers from once for each orbit that reaches it: several loads of every cache line per
sweep.

The solve therefore numbers each half of the classes (O, then E; :mod:`pipeline.unitile.solver`) *key-major*:
by locality key, then by orbit (in id order), then by rank. A slide of a blue tile keeps the key and
one of a red tile changes two of its digits by one, so the rows of one key read from a few keys'
windows of all orbits at once, and each window is swept once (the loads and the sweeps' times in both
orders: docs/pipeline.md, "Solve order").

Within an orbit the solve order keeps the id order, so the order is a merge of the orbits' ranges:
*runs* of consecutive ids (one key of one orbit) placed one after another. A range of solve positions
holds, of every orbit, one contiguous range of ids: reading a part's rows of the class graph is one
read per orbit (:class:`SolveRows`), and a range of keys is a range of solve positions (the parts of a
cluster solve, :mod:`pipeline.unitile.partition`).

>>> order = SolveOrder.merge(split=5, n=9, starts=[0, 3, 5],
...                          runs=[[(1, 2), (4, 1)], [(1, 1), (2, 1)], [(7, 4)]])
>>> order.to_solve(np.arange(9)).tolist()
[0, 1, 4, 2, 3, 5, 6, 7, 8]
>>> order.to_class(order.to_solve(np.arange(9))).tolist()
[0, 1, 2, 3, 4, 5, 6, 7, 8]
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any

import numpy as np

#: Ids mapped at a time (:meth:`SolveOrder.ids_in_place`), so that the temporaries stay small.
BLOCK_IDS = 1 << 20


@dataclass(frozen=True, eq=False)
class SolveOrder:
    """A bijection between class ids and solve positions, as runs of consecutive ids.

    Run ``j`` holds the ids ``class_first[j] ..`` and the positions ``solve_first[j] ..``, ``length[j]``
    of each; the runs are listed in solve order. ``split`` and ``n`` are as in the class graph: the
    positions below ``split`` are the O half's, as are the ids.
    """

    split: int
    n: int
    class_first: np.ndarray
    solve_first: np.ndarray
    length: np.ndarray
    #: The first ids of the orbits' ranges, increasing (an orbit's range holds whole runs, and within
    #: it the solve order keeps the id order).
    orbit_first: np.ndarray

    @staticmethod
    def identity(split: int, n: int) -> SolveOrder:
        """The id order itself (one run per half)."""
        first = np.array([0, split] if 0 < split < n else [0], dtype=np.int64)
        length = np.diff(np.append(first, n))
        return SolveOrder(split, n, first, first.copy(), length, first.copy())

    @staticmethod
    def merge(
        split: int, n: int, starts: Sequence[int], runs: Sequence[Sequence[tuple[int, int]]]
    ) -> SolveOrder:
        """The key-major order: ``starts[o]`` is orbit ``o``'s first id and ``runs[o]`` its ``(key,
        count)`` runs in id order, keys increasing. Within each half, runs go by key, then by first id
        (the orbits' id order)."""
        rows: list[tuple[int, int, int, int]] = []  # (half, key, first id, length)
        for o, orbit_runs in enumerate(runs):
            at = int(starts[o])
            keys = [int(k) for k, _ in orbit_runs]
            if any(a >= b for a, b in itertools.pairwise(keys)):
                raise ValueError(f"orbit {o}: the runs' keys do not increase")
            for key, count in orbit_runs:
                if count > 0:
                    rows.append((int(at >= split), key, at, int(count)))
                    at += int(count)
        rows.sort()
        class_first = np.array([r[2] for r in rows], dtype=np.int64)
        length = np.array([r[3] for r in rows], dtype=np.int64)
        solve_first = np.concatenate([[0], np.cumsum(length)[:-1]]).astype(np.int64)
        orbit_first = np.sort(np.asarray(starts, dtype=np.int64))
        order = SolveOrder(split, n, class_first, solve_first, length, orbit_first)
        low = class_first < split
        if (
            int(length.sum()) != n
            or int(length[low].sum()) != split
            or bool(np.any(class_first[low] + length[low] > split))
        ):
            raise ValueError("the runs do not cover the classes half by half")
        return order

    @cached_property
    def _solve_of(self) -> np.ndarray:
        """The solve position of every class id: 4 bytes a class, made in blocks where it is used (never
        pickled), when a mapping has at least as many ids to map as there are classes."""
        dtype = np.int32 if self.n < 2**31 else np.int64
        out = np.empty(self.n, dtype=dtype)
        for a in range(0, self.n, BLOCK_IDS):
            b = min(a + BLOCK_IDS, self.n)
            out[self.span(a, b)] = np.arange(a, b, dtype=dtype)
        return out

    @cached_property
    def _by_class(self) -> tuple[np.ndarray, np.ndarray]:
        at = np.argsort(self.class_first, kind="stable")
        return self.class_first[at], self.solve_first[at]

    def forget_table(self) -> None:
        """Free :attr:`_solve_of` (made again if a later mapping needs it)."""
        self.__dict__.pop("_solve_of", None)

    def __getstate__(self) -> dict[str, Any]:
        return {k: v for k, v in self.__dict__.items() if k != "_solve_of"}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)

    def _table(self, count: int) -> np.ndarray | None:
        """:attr:`_solve_of` for a mapping of ``count`` ids: made when they are at least as many as the
        classes, used whenever made; None otherwise (search among the runs)."""
        if count >= self.n or "_solve_of" in self.__dict__:
            return self._solve_of
        return None

    def _map(self, ids: np.ndarray, table: np.ndarray | None) -> np.ndarray:
        """Solve positions of class ids ``>= 0`` (others give any value): through ``table``
        (:meth:`_table`) if given, else by a search among the runs."""
        if table is not None:
            return table[np.maximum(ids, 0)]
        first, target = self._by_class
        run = np.maximum(np.searchsorted(first, ids, side="right") - 1, 0)
        return target[run] + ids - first[run]

    def to_solve(self, ids: np.ndarray) -> np.ndarray:
        """The solve positions of class ids (a new int64 array; -1 stays -1)."""
        ids = np.asarray(ids, dtype=np.int64)
        return np.where(ids >= 0, self._map(ids, self._table(ids.size)), -1).astype(np.int64)

    def to_class(self, positions: np.ndarray) -> np.ndarray:
        """The class ids at solve positions (a new int64 array; -1 stays -1)."""
        at = np.asarray(positions, dtype=np.int64)
        run = np.maximum(np.searchsorted(self.solve_first, at, side="right") - 1, 0)
        return np.where(at >= 0, self.class_first[run] + at - self.solve_first[run], -1)

    def ids_in_place(self, nbr: np.ndarray) -> None:
        """Class ids of the class graph (C-contiguous, any shape) replaced by their solve positions, in
        place; -1 (no slide) stays. With at least as many ids as classes, through a table of every
        class, which is faster than searching among the runs (docs/pipeline.md, "Measured choices")."""
        flat = nbr.reshape(-1)
        table = self._table(flat.shape[0])
        for a in range(0, flat.shape[0], BLOCK_IDS):
            v = flat[a : a + BLOCK_IDS]
            v[...] = np.where(v >= 0, self._map(v.astype(np.int64), table), -1)

    def _pieces(self, lo: int, hi: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The runs at solve positions ``lo..hi-1``, cut to them: first positions, first ids, lengths."""
        a = int(np.searchsorted(self.solve_first, lo, side="right")) - 1
        b = int(np.searchsorted(self.solve_first, hi, side="left"))
        first = self.solve_first[max(a, 0) : b]
        start = np.maximum(first, lo)
        end = np.minimum(first + self.length[max(a, 0) : b], hi)
        return start, self.class_first[max(a, 0) : b] + (start - first), end - start

    def span(self, lo: int, hi: int) -> np.ndarray:
        """The class ids at the solve positions ``lo..hi-1`` (``to_class`` of a range, run by run)."""
        start, ids, length = self._pieces(lo, hi)
        return np.arange(lo, max(lo, hi), dtype=np.int64) + np.repeat(ids - start, length)

    def rows(self, arr: Any, lo: int, hi: int) -> np.ndarray:
        """The rows of a per-class array (numpy, or a store array read by slices) at solve positions
        ``lo..hi-1``, in solve order: one read per orbit (each orbit's classes there are a range of
        ids, since the order keeps the id order within an orbit), then a copy per run."""
        start, ids, length = self._pieces(lo, hi)
        orbit = np.searchsorted(self.orbit_first, ids, side="right") - 1
        out = np.empty((max(0, hi - lo), *arr.shape[1:]), dtype=arr.dtype)
        for o in np.unique(orbit).tolist():
            mine = np.flatnonzero(orbit == o)
            first = int(ids[mine[0]])
            block = np.asarray(arr[first : first + int(length[mine].sum())])
            for at, src, k in zip(
                (start[mine] - lo).tolist(), (ids[mine] - first).tolist(), length[mine].tolist(), strict=True
            ):
                out[at : at + k] = block[src : src + k]
        return out


class SolveRows:
    """A per-class array seen in solve order: ``view[lo:hi]`` is :meth:`SolveOrder.rows`, with the class
    ids of the class graph (``ids=True``) turned into solve positions. What the solve's parts read their
    rows from (:func:`pipeline.unitile.partition.read_rows`)."""

    def __init__(self, arr: Any, order: SolveOrder, ids: bool = False) -> None:
        self.arr = arr
        self.order = order
        self.ids = ids
        self.shape: tuple[int, ...] = tuple(arr.shape)
        self.dtype = arr.dtype

    def __getitem__(self, key: slice) -> np.ndarray:
        lo, hi, step = key.indices(self.shape[0])
        if step != 1:
            raise IndexError("solve-order rows are read by ranges")
        out = self.order.rows(self.arr, lo, max(lo, hi))
        if self.ids:
            self.order.ids_in_place(out)
        return out
