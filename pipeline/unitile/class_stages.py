"""The stages around the symmetry classes: ``classes`` (enumerate them), ``graph`` (the lumped walk on
them) and ``positions`` (T and the perfect-play value of every position from those of its class).

Each stage maps a top-level task function over picklable task descriptions; the task reads its inputs
from the store and writes whole shards of its outputs. No task reads a whole per-class or per-position
array: a graph task reads the ``classes/rank_to_local`` rows of the orbits its classes reach, a
positions task its orbit's row and its orbit's window of ``values/T_class``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np

from unitile_py.errors import UnitileError
from unitile_py.unitile.board import Board

from ..cores import use_threads
from .bounds import Cost
from .classes import ACTIVE_BIT, class_graph, graph_orbits, orbit_classes, position_locals
from .context import Context, Stage
from .geometry import Geometry
from .store import CLASS_SHARD, NEIGHBOURS, Store, fast_compressor, starts_of

# Classes ----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class ClassesTask:
    """Enumerate the classes of one bubble orbit."""

    path: str
    board: str
    orbit: int
    order: str
    threads: int | None


def classes_task(task: ClassesTask) -> int:
    """Write ``classes/ranks_<o>``, ``classes/runs_<o>`` (the locality keys' runs, for the solve order)
    and row ``o`` of ``classes/rank_to_local``; return the class count."""
    use_threads(task.threads)
    geo = Geometry.of(Board.parse(task.board))
    ranks, local, runs = orbit_classes(geo, task.orbit, task.order)
    store = Store(task.path, geo.board)
    arr = store.create(f"classes/ranks_{task.orbit}", (len(ranks),), (max(1, len(ranks)),), np.int32)
    arr[...] = ranks.astype(np.int32)
    arr = store.create(f"classes/runs_{task.orbit}", runs.shape, (max(1, runs.shape[0]), 2), np.int64)
    arr[...] = runs
    store.array("classes/rank_to_local")[task.orbit, :] = local
    return len(ranks)


@dataclass(frozen=True)
class ClassesStage(Stage):
    """Symmetry classes: for each bubble orbit, the representatives in locality order."""

    name: ClassVar[str] = "classes"
    order: str = "counts"

    def run(self, ctx: Context) -> dict[str, Any]:
        """Enumerate classes orbit by orbit (one task per orbit)."""
        geo = Geometry.of(ctx.board)
        c = geo.colourings
        if geo.cells > 62 or c >= 2**31:
            raise UnitileError(f"board {ctx.board}: too large for this pipeline")
        ctx.store.create("classes/rank_to_local", (geo.n_orbits, c), (1, c), np.int32, chunks=(1, c))
        tasks = [
            ClassesTask(ctx.store.path, str(ctx.board), o, self.order, ctx.task_threads)
            for o in range(geo.n_orbits)
        ]
        counts = [int(n) for n in ctx.executor.map(classes_task, tasks, "classes")]
        # The slide graph is bipartite by the parity of the bubble cell (every symmetry of an odd x odd
        # board keeps it), and so is the class graph. The parity with fewer classes comes first: the
        # solver works on that half (see pipeline.unitile.solver).
        parity = [sum(geo.board.row_col(int(f))) % 2 for f in geo.orbit_reps]
        size = [sum(n for n, p in zip(counts, parity, strict=True) if p == q) for q in (0, 1)]
        first = 0 if size[0] < size[1] else 1
        order = sorted(range(geo.n_orbits), key=lambda o: (parity[o] != first, o))
        starts = [0] * geo.n_orbits
        at = 0
        for o in order:
            starts[o] = at
            at += counts[o]
        return {
            "classes": at,
            "starts": starts,
            "counts": counts,
            "orbit_order": order,
            "split": size[first],
            "order": self.order,
        }

    def cost(self, ctx: Context, record: dict[str, Any]) -> Cost:
        """Every colouring of each orbit's cell imaged under its stabiliser (a permutation and a rank
        each); ``classes/rank_to_local`` and the ranks written."""
        geo = Geometry.of(ctx.board)
        c = geo.colourings
        images = sum(c * int(geo.n_stab[o]) for o in range(geo.n_orbits))
        return Cost(bytes=geo.n_orbits * c * 4 + record["classes"] * 4, ranks=images,
                    what="every colouring of each orbit's cell under its stabiliser")  # fmt: skip


# Graph --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class GraphTask:
    """Neighbours of one shard of classes."""

    path: str
    board: str
    lo: int
    hi: int
    threads: int | None


def graph_task(task: GraphTask) -> tuple[int, int]:
    """Write one shard of ``graph/nbr``, ``graph/info``, ``graph/swap``; return (active, edges).

    Reads only the rows of ``classes/rank_to_local`` that the classes of the shard reach
    (:func:`pipeline.unitile.classes.graph_orbits`).
    """
    use_threads(task.threads)
    board = Board.parse(task.board)
    geo = Geometry.of(board)
    store = Store(task.path, board)
    rec = store.require("classes")
    starts = starts_of(store)
    orbits, ranks = [], []
    for o in rec["orbit_order"]:
        a, b = max(task.lo, starts[o]), min(task.hi, starts[o] + rec["counts"][o])
        if a < b:
            arr = store.array(f"classes/ranks_{o}")
            ranks.append(np.asarray(arr[a - starts[o] : b - starts[o]]))
            orbits.append(np.full(b - a, o, dtype=np.int64))
    needed = graph_orbits(geo, [int(o[0]) for o in orbits])
    r2l = store.array("classes/rank_to_local")
    rows = np.empty((len(needed), geo.colourings), dtype=np.int32)
    for j, o in enumerate(needed):
        rows[j] = r2l[o]
    row_of = np.full(geo.n_orbits, -1, dtype=np.int64)
    row_of[needed] = np.arange(len(needed))
    nbr, info, swap = class_graph(geo, np.concatenate(orbits), np.concatenate(ranks), rows, starts, row_of)
    store.array("graph/nbr")[task.lo : task.hi] = nbr
    store.array("graph/info")[task.lo : task.hi] = info
    store.array("graph/swap")[task.lo : task.hi] = swap
    return int(np.count_nonzero(info & ACTIVE_BIT)), int(np.count_nonzero(nbr >= 0))


@dataclass(frozen=True)
class GraphStage(Stage):
    """The lumped walk: each class's neighbour classes, degree, weight and colour-swap partner."""

    name: ClassVar[str] = "graph"
    shard: int = CLASS_SHARD

    def run(self, ctx: Context) -> dict[str, Any]:
        """One task per shard of classes."""
        n = int(ctx.store.require("classes")["classes"])
        s = self.shard
        ctx.store.create("graph/nbr", (n, NEIGHBOURS), (s, NEIGHBOURS), np.int32,
                        chunks=(min(s, 1 << 16), NEIGHBOURS))
        ctx.store.create("graph/info", (n,), (s,), np.uint8)
        ctx.store.create("graph/swap", (n,), (s,), np.int32)
        tasks = [
            GraphTask(ctx.store.path, str(ctx.board), lo, min(lo + s, n), ctx.task_threads)
            for lo in range(0, n, s)
        ]
        results = ctx.executor.map(graph_task, tasks, "graph")
        return {"active": sum(a for a, _ in results), "edges": sum(e for _, e in results)}

    def cost(self, ctx: Context, record: dict[str, Any]) -> Cost:
        """Per class: its swap partner (a rank), the stabiliser's images, a test of red and, per slide, the
        child's class (a permutation and a rank; a test when a red tile moves, about half the slides);
        the rows of ``classes/rank_to_local`` read and the graph written."""
        geo = Geometry.of(ctx.board)
        counts = ctx.store.require("classes")["counts"]
        ranks = tests = 0.0
        for o, n in enumerate(counts):
            d = int(geo.deg[int(geo.orbit_reps[o])])
            ranks += n * (1 + int(geo.n_stab[o]) + 2 * d)
            tests += n * (1 + d / 2)
        total = sum(counts)
        return Cost(bytes=total * (4 + 16 + 1 + 4) + geo.n_orbits * geo.colourings * 4, ranks=ranks,
                    tests=tests, what="every class and its slides")  # fmt: skip


# Positions ----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class PositionsTask:
    """T for all positions with the bubble on one cell."""

    path: str
    board: str
    bubble: int
    threads: int | None


def positions_task(task: PositionsTask) -> None:
    """Write the shards ``[bubble * C, (bubble + 1) * C)`` of ``positions/T`` and ``perfect/value``.

    Reads only the bubble orbit's row of ``classes/rank_to_local`` and its windows of ``values/T_class``
    and ``perfect/class_value`` (every position with the bubble on this cell lies in one of the orbit's
    classes).
    """
    use_threads(task.threads)
    board = Board.parse(task.board)
    geo = Geometry.of(board)
    store = Store(task.path, board)
    o = int(geo.cell_orbit[task.bubble])
    start, count = int(starts_of(store)[o]), int(store.require("classes")["counts"][o])
    row = store.array("classes/rank_to_local")[o]
    c = geo.colourings
    local = position_locals(geo, task.bubble, 0, c, row)
    if c and not (local.min() >= 0 and local.max() < count):
        raise UnitileError(f"positions: bubble {task.bubble}: a class outside its orbit's range")
    sl = slice(task.bubble * c, (task.bubble + 1) * c)
    for name, per_class in (("positions/T", "values/T_class"), ("perfect/value", "perfect/class_value")):
        store.array(name)[sl] = store.array(per_class)[start : start + count][local]


@dataclass(frozen=True)
class PositionsStage(Stage):
    """Broadcast T and the perfect-play value from classes to every position index (symmetric images get
    identical bits)."""

    name: ClassVar[str] = "positions"

    def run(self, ctx: Context) -> dict[str, Any]:
        """One task per bubble cell."""
        c = ctx.board.colourings
        ctx.store.require("perfect")
        # T is written once and read five times (by the pass over each cell and its neighbours'): raw, as
        # random float64 bits hardly compress; values compress well with bit shuffle.
        ctx.store.create("positions/T", (ctx.board.positions,), (c,), np.float64, compress=False)
        ctx.store.create("perfect/value", (ctx.board.positions,), (c,), np.int16, codec=fast_compressor(2))
        tasks = [
            PositionsTask(ctx.store.path, str(ctx.board), b, ctx.task_threads) for b in range(ctx.board.cells)
        ]
        ctx.executor.map(positions_task, tasks, "positions")
        return {"positions": ctx.board.positions}

    def cost(self, ctx: Context, record: dict[str, Any]) -> Cost:
        """Per position its class (a symmetry and a rank); T and the value written, each cell's row of
        ``classes/rank_to_local`` read."""
        p = ctx.board.positions
        return Cost(bytes=p * (8 + 2 + 4), ranks=p, what="every position's class")
