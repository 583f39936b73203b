"""The ``perfect`` stage: perfect play on the symmetry classes in tiers of T, one part per worker, each
holding its share of the class graph (:mod:`pipeline.unitile.perfect_parts`; the same values as
:func:`pipeline.unitile.perfect.class_values`), writing ``perfect/class_value``. The ``positions`` stage
broadcasts the values to every position, and the ``verify`` stage checks each position's value against its
children's."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np

from unitile_py.unitile.board import Board
from unitile_py.unitile.position import Position

from ..errors import CheckFailed
from ..groups import Group
from ..stages import retry_lost_workers
from .bounds import Cost
from .classes import position_locals
from .context import Context, Stage
from .geometry import Geometry
from .perfect import ACTIVE, MISSING, RED_WINS, SLIDES, STUCK, TIES
from .perfect_parts import BLOCK_IDS, PerfectPart, Tiers, band_edges, drive_bands, run_bands
from .store import Store, starts_of

#: Bands of T that perfect play is cut into (fewer when the histogram cannot cut so many).
BANDS = 32


def _run_parts(group: Group, path: str, n: int) -> tuple[list[dict[str, Any]], list[float], int, str]:
    """The bands solved by the parts of ``group``; their results, peaks of memory, the number of bands
    and what drove the rounds."""
    group.call("set_peers", [(group.handles,)] * group.size)
    group.call("ask")
    ranges = group.call("t_range")
    low, high = min(lo for lo, _ in ranges), max(hi for _, hi in ranges)
    if low > high:  # no class where neither colour is united
        low = high = 0.0
    histogram = np.sum(group.call("histogram", [(low, high)] * group.size), axis=0)
    edges = band_edges(histogram, low, high, BANDS)
    group.call("set_bands", [(edges,)] * group.size)
    bands = edges.shape[0] - 1
    driver = "parts" if group.remote and group.apart() else "client"
    if driver == "parts":
        # Every part runs the bands itself, messages part to part (docs/cluster.md, "Perfect play in
        # tiers").
        group.call("run", [(run_bands, bands)] * group.size)
    else:
        drive_bands(group, bands)
    results = group.call("write", [(path, n)] * group.size)
    peaks = group.call("peak_memory")
    return results, peaks, bands, driver


def solve_in_tiers(ctx: Context, n: int) -> tuple[dict[str, Any], Tiers]:
    """Perfect play by :mod:`pipeline.unitile.perfect_parts`: one part per worker (one in this process),
    the bands solved in turn, every part writing its own blocks of ``perfect/class_value``; returns the
    summed counts, the longest distance and how the run went."""
    store = ctx.store
    parts = max(1, min(ctx.executor.workers, -(-n // BLOCK_IDS)))
    store.create("perfect/class_value", (n,), None, np.int16, chunks=(min(n, BLOCK_IDS),))
    group = ctx.executor.group(PerfectPart, [(store.path, w, parts, n) for w in range(parts)])
    try:
        results, peaks, bands, driver = _run_parts(group, store.path, n)
    finally:
        group.close()  # the workers have the memory back for the next stage
    counts = np.sum([r["counts"] for r in results], axis=0)
    names = {"stuck": STUCK, "ties": TIES, "missing": MISSING, "active": ACTIVE, "red_wins": RED_WINS,
             "class_slides": SLIDES}  # fmt: skip
    got: dict[str, Any] = {k: int(counts[i]) for k, i in names.items()}
    got["longest"] = max(r["longest"] for r in results)
    tiers = Tiers(
        parts=parts,
        bands=bands,
        rounds=results[0]["rounds"],
        own=tuple(r["own"] for r in results),
        halo=tuple(r["halo"] for r in results),
        peaks_gib=tuple(float(p) for p in peaks),
        driver=driver,
        seconds=tuple(r["seconds"] for r in results),
    )
    return got, tiers


def start_value(store: Store, board: Board) -> int:
    """The value of the start position (Red to move), read from ``perfect/class_value``."""
    start = Position.start(board)
    geo = Geometry.of(board)
    o = int(geo.cell_orbit[start.bubble])
    row = store.array("classes/rank_to_local")[o]
    r = start.index() - start.bubble * board.colourings
    local = int(position_locals(geo, start.bubble, r, r + 1, row)[0])
    at = int(starts_of(store)[o]) + local
    return int(store.array("perfect/class_value")[at : at + 1][0])


def start_result(value: int) -> dict[str, Any]:
    """Perfect play from the start (``value`` of the start position): the first player's result and the
    plies to the end."""
    return {
        "first_player": "win" if value > 0 else "loss",
        "plies": abs(value),
        "winner": "red" if value > 0 else "blue",
    }


@dataclass(frozen=True)
class PerfectStage(Stage):
    """Win or loss and distance of every class (Red to move; Blue by the colour swap)."""

    name: ClassVar[str] = "perfect"

    def run(self, ctx: Context) -> dict[str, Any]:
        """Tiers of T by parts (:func:`solve_in_tiers`); fails when a class has no legal slide, two
        classes a slide joins have equal T, or a child comes after its parent in T."""
        ctx.store.require("solve")
        n = ctx.store.array("graph/info").shape[0]
        again = "starting the parts again"
        got, tiers = retry_lost_workers(ctx, "perfect", again, lambda: solve_in_tiers(ctx, n))
        got["start"] = start_value(ctx.store, ctx.board)
        got["classes"] = n
        if got["ties"]:
            raise CheckFailed(
                f"perfect: {got['ties']} slides join classes with equal T; the tables need none"
            )
        if got["stuck"]:
            raise CheckFailed(
                f"perfect: {got['stuck']} classes where no colour is united have no legal slide"
            )
        if got["missing"]:
            raise CheckFailed(
                f"perfect: {got['missing']} slides reach a class that increasing T had not solved"
            )
        start = start_result(got["start"])
        ctx.log(
            f"perfect: longest game {got['longest']} plies; from the start the {start['winner']} side wins "
            f"in {start['plies']} plies"
        )
        return {
            "classes": got["classes"],
            "class_slides": got["class_slides"],
            "active_positions": got["active"],
            "red_to_move_wins": got["red_wins"],
            "max_distance": got["longest"],
            "start": start,
            **tiers.record(),
        }

    def cost(self, ctx: Context, record: dict[str, Any]) -> Cost:
        """One serial pass over the classes in T order, so every read follows the order, not the memory:
        per class its neighbours, info and T, per slide the child's swap partner, its info, its T and its
        value (random reads); the arrays read once, the values written (the order's sort not counted)."""
        n = record["classes"]
        slides = record["class_slides"]
        return Cost(bytes=n * (16 + 1 + 4 + 8 + 2), gathers=3 * n + 4 * slides, serial=True,
                    what="every class in increasing T")  # fmt: skip
