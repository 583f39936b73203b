"""The ``perfect`` stage: perfect play on the symmetry classes
(:func:`pipeline.unitile.perfect.class_values`), in one task that reads the class graph and T per class (on
5x5 about 250 MB) and writes ``perfect/class_value``. The ``positions`` stage broadcasts the values to every
position, and the
``verify`` stage checks each position's value against its children's."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np

from unitile_py.unitile.board import Board
from unitile_py.unitile.position import Position

from ..errors import CheckFailed
from .bounds import Cost
from .class_stages import starts_of
from .classes import position_locals
from .context import Context
from .geometry import Geometry
from .perfect import ACTIVE, MISSING, RED_WINS, SLIDES, STUCK, TIES, class_values
from .store import CLASS_SHARD, Store


@dataclass(frozen=True)
class PerfectTask:
    """Perfect play on every class of a store."""

    path: str
    board: str


def perfect_task(task: PerfectTask) -> dict[str, int]:
    """Write ``perfect/class_value``; return the counts, the longest distance and the start's value."""
    board = Board.parse(task.board)
    store = Store(task.path, board)
    res = class_values(*(store.read(n) for n in ("graph/nbr", "graph/info", "graph/swap", "values/T_class")))
    n = res.value.shape[0]
    store.create("perfect/class_value", (n,), (min(n, CLASS_SHARD),), np.int16)[...] = res.value
    start = Position.start(board)
    geo = Geometry.of(board)
    o = int(geo.cell_orbit[start.bubble])
    row = store.array("classes/rank_to_local")[o]
    r = start.index() - start.bubble * board.colourings
    local = int(position_locals(geo, start.bubble, r, r + 1, row)[0])
    names = {"stuck": STUCK, "ties": TIES, "missing": MISSING, "active": ACTIVE, "red_wins": RED_WINS,
             "class_slides": SLIDES}  # fmt: skip
    out = {k: int(res.counts[i]) for k, i in names.items()}
    start_value = int(res.value[int(starts_of(store)[o]) + local])
    return {**out, "classes": n, "longest": res.longest, "start": start_value}


def start_result(value: int) -> dict[str, Any]:
    """Perfect play from the start (``value`` of the start position): the first player's result and the
    plies to the end."""
    return {
        "first_player": "win" if value > 0 else "loss",
        "plies": abs(value),
        "winner": "red" if value > 0 else "blue",
    }


@dataclass(frozen=True)
class PerfectStage:
    """Win or loss and distance of every class (Red to move; Blue by the colour swap)."""

    name: ClassVar[str] = "perfect"

    def run(self, ctx: Context) -> dict[str, Any]:
        """One task; fails when a class has no legal slide, two classes a slide joins have equal T, or a
        child comes after its parent in T."""
        ctx.store.require("solve")
        (got,) = ctx.executor.map(perfect_task, [PerfectTask(ctx.store.path, str(ctx.board))], "perfect")
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
        }

    def cost(self, ctx: Context, record: dict[str, Any]) -> Cost:
        """One serial pass over the classes in T order, so every read follows the order, not the memory:
        per class its neighbours, info and T, per slide the child's swap partner, its info, its T and its
        value (random reads); the arrays read once, the values written (the order's sort not counted)."""
        n = record["classes"]
        slides = record["class_slides"]
        return Cost(bytes=n * (16 + 1 + 4 + 8 + 2), gathers=3 * n + 4 * slides, serial=True,
                    what="every class in increasing T")  # fmt: skip
