"""The solve's checkpoints: where the parts' CG vectors and the solver's scalars are kept, so that a lost
worker (or a killed client) restarts from the last one.

Checkpoints alternate between two slots (``solve/a_*`` and ``solve/b_*``), written by the parts; the
group's attributes name the valid slot only after its arrays are written, so a kill during a
checkpoint leaves the previous one usable. A checkpoint belongs to one graph (its stage stamp) and is
ignored for any other.
"""

from __future__ import annotations

import math
from dataclasses import replace
from typing import Any

import numpy as np
import zarr

from ..groups import Group
from ..store import as_record
from .solver import BLOCK, SolverState
from .store import Store

#: Classes per task when T is formed from r (whole chunks of values/T_class), and the widest chunk of a
#: checkpoint written by a single part.
T_CHUNK = 64 * BLOCK


def row_chunk(parts: int, length: int) -> int:
    """The chunk length of the checkpoints in solve positions (``length`` entries) when ``parts`` parts
    write them.

    Several parts own scattered chunks of :data:`BLOCK` positions and must never share one; a single part
    writes wide chunks, since every chunk costs a fixed overhead, much more than a small chunk's data
    (measured: docs/pipeline.md, "The allocator").
    """
    return max(1, min(length, BLOCK if parts > 1 else T_CHUNK))


#: What the checkpoints' vectors are indexed by: checkpoints of another indexing (those written before
#: the solve order, by class id) are ignored.
CHECKPOINT_SPACE = "solve order"


def checkpoint_meta(store: Store, graph: str, split: int) -> dict[str, Any] | None:
    """The valid checkpoint of this graph, if any."""
    try:
        group = zarr.open_group(store.path, path="solve", mode="r")
    except (FileNotFoundError, zarr.errors.GroupNotFoundError):
        return None
    meta = as_record(group.attrs.get("checkpoint"))
    if not meta or meta.get("graph") != graph or meta.get("classes") != split:
        return None
    if meta.get("space") != CHECKPOINT_SPACE:
        return None
    return meta


def save_checkpoint(store: Store, group: Group, state: SolverState, graph: str, split: int) -> None:
    """The parts write their x, s, p into the slot not in use; then the attributes point at it."""
    slot = new_slot(store, group.size, split)
    group.call("save", [(store.path, slot)] * group.size)
    point_at(store, slot, state, graph, split)


def new_slot(store: Store, parts: int, split: int) -> str:
    """The checkpoint slot not in use, its arrays created afresh for ``parts`` parts to write."""
    meta = as_record(zarr.open_group(store.path, path="solve", mode="a").attrs.get("checkpoint"))
    slot = "b" if meta.get("slot") == "a" else "a"
    chunk = row_chunk(parts, split)
    for v in "xsp":
        store.create(f"solve/{slot}_{v}", (split,), None, np.float64, chunks=(chunk,), compress=False)
    return slot


def point_at(store: Store, slot: str, state: SolverState, graph: str, split: int) -> None:
    """Make the written ``slot`` the checkpoint, with the scalars of ``state``."""
    last = state.history[-1] if state.history else math.inf
    scalars = {k: getattr(state, k) for k in STATE_SCALARS}
    zarr.open_group(store.path, path="solve", mode="a").attrs["checkpoint"] = {
        "slot": slot, "graph": graph, "classes": split, **scalars, "last": last, "space": CHECKPOINT_SPACE,
    }  # fmt: skip


#: The scalars of a :class:`SolverState` that a checkpoint keeps (its vectors are in the slot's arrays).
STATE_SCALARS = ("rz", "iteration", "restarts", "checked", "best", "stalls")


def checkpoint_state(meta: dict[str, Any]) -> SolverState:
    """The state of a checkpoint without its vectors (those are loaded into the parts); the last
    residual stands for the history. A checkpoint written before ``checked``, ``best`` and ``stalls``
    were kept continues without them."""
    kept = {k: meta[k] for k in STATE_SCALARS if k in meta}
    return replace(SolverState.start(0), **kept, history=[float(meta["last"])])


__all__ = ["CHECKPOINT_SPACE", "STATE_SCALARS", "T_CHUNK", "checkpoint_meta", "checkpoint_state", "new_slot",
           "point_at", "row_chunk", "save_checkpoint"]
