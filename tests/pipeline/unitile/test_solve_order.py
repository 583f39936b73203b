"""The solve order (pipeline/unitile/solve_order.py): a bijection between class ids and solve positions that
keeps each half, keeps the id order within each orbit and sorts each half by locality key; the rows read
through it; and the solve in it, which gives the stored values bit for bit and agrees with a solve in id
order within the rigorous bound."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
import zarr

from pipeline.arrays import open_array
from pipeline.unitile.cg import solve
from pipeline.unitile.checkpoint import checkpoint_meta
from pipeline.unitile.classes import class_keys
from pipeline.unitile.geometry import Geometry
from pipeline.unitile.solve_order import SolveOrder, SolveRows
from pipeline.unitile.solver import SolverState
from pipeline.unitile.store import Store, solve_order
from tests.pipeline.unitile.conftest import B35


def keys_of(store: Store) -> np.ndarray:
    """The locality key of every class id, computed here from the representatives' ranks."""
    rec = store.require("classes")
    geo = Geometry.of(store.board)
    keys = np.empty(int(rec["classes"]), dtype=np.int64)
    for o, first in enumerate(rec["starts"]):
        keys[first : first + rec["counts"][o]] = class_keys(geo, o, store.read(f"classes/ranks_{o}"))
    return keys


def test_the_order_is_key_major_within_each_half_and_keeps_each_orbit_in_id_order(clean35: Path) -> None:
    store = Store(str(clean35), B35)
    order = solve_order(store)
    rec = store.require("classes")
    n, split = order.n, order.split
    ids = order.to_class(np.arange(n))
    assert sorted(ids.tolist()) == list(range(n))
    assert np.array_equal(order.to_solve(ids), np.arange(n))
    assert np.array_equal(order.span(0, n), ids)
    # Each half keeps its classes, sorted by key (the orbits interleaved).
    assert (ids[:split] < split).all() and (ids[split:] >= split).all()
    keys = keys_of(store)[ids]
    assert (np.diff(keys[:split]) >= 0).all() and (np.diff(keys[split:]) >= 0).all()
    # Within an orbit, solve positions follow the ids: the order is a merge of the orbits' ranges.
    positions = order.to_solve(np.arange(n))
    for o, first in enumerate(rec["starts"]):
        assert (np.diff(positions[first : first + rec["counts"][o]]) > 0).all()
    # The halves interleave orbits: not the id order.
    assert not np.array_equal(ids, np.arange(n))


@pytest.mark.parametrize(
    ("lo", "hi"), [(0, 13000), (0, 6076), (6076, 13000), (100, 9000), (5000, 5000), (12999, 13000)]
)
def test_rows_in_solve_order_are_the_rows_of_the_classes_there(clean35: Path, lo: int, hi: int) -> None:
    store = Store(str(clean35), B35)
    order = solve_order(store)
    nbr, info = store.read("graph/nbr"), store.read("graph/info")
    ids = order.to_class(np.arange(lo, hi))
    assert np.array_equal(order.rows(info, lo, hi), info[ids])
    # From the store, one read per orbit; the graph's neighbour ids become solve positions.
    stored = SolveRows(open_array(str(clean35), "graph/nbr"), order, ids=True)[lo:hi]
    assert np.array_equal(stored, np.where(nbr[ids] >= 0, order.to_solve(nbr[ids]), -1))


def test_to_solve_keeps_no_slide_and_identity_is_the_id_order() -> None:
    order = SolveOrder.merge(5, 9, [0, 3, 5], [[(1, 2), (4, 1)], [(1, 1), (2, 1)], [(7, 4)]])
    assert order.to_solve(np.array([[-1, 2], [4, -1]])).tolist() == [[-1, 4], [3, -1]]
    nbr = np.array([[2, -1, 4, 0]], dtype=np.int32)
    order.ids_in_place(nbr)
    assert nbr.tolist() == [[4, -1, 3, 0]]
    same = SolveOrder.identity(5, 9)
    assert same.to_solve(np.arange(9)).tolist() == list(range(9)) == same.to_class(np.arange(9)).tolist()
    with pytest.raises(ValueError, match="do not increase"):
        SolveOrder.merge(5, 9, [0, 3, 5], [[(4, 2), (1, 1)], [(1, 1), (2, 1)], [(7, 4)]])
    with pytest.raises(ValueError, match="half by half"):  # a run would straddle split
        SolveOrder.merge(2, 9, [0, 3, 5], [[(1, 3)], [(1, 1), (2, 1)], [(7, 4)]])


def test_the_stage_stores_the_solve_in_solve_order_bit_for_bit(clean35: Path) -> None:
    """values/r of the build is the in-memory solve in the solve order (on one part or two), and a solve
    in id order (other roundings) agrees with it within twice the rigorous bound."""
    store = Store(str(clean35), B35)
    order = solve_order(store)
    nbr, info = store.read("graph/nbr"), store.read("graph/info")
    stored = store.read("values/r")
    ours = solve(nbr, info, order.split, SolverState.start(order.split), order=order)
    assert np.array_equal(ours.x, stored)
    two = solve(nbr, info, order.split, SolverState.start(order.split), parts=2, order=order)
    assert np.array_equal(two.x, stored)
    by_id = solve(nbr, info, order.split, SolverState.start(order.split))
    rel = store.require("solve")["relative_bound_r"]
    assert not np.array_equal(by_id.x, stored)
    assert np.all(np.abs(by_id.x - stored) <= 2 * rel * np.maximum(stored, by_id.x))
    t = store.read("values/T_class")
    assert np.array_equal(t, stored + stored[store.read("graph/swap")])


def test_a_checkpoint_by_class_id_is_not_resumed(tmp_path: Path) -> None:
    """Checkpoints written before the solve order held vectors by class id: a build ignores them."""
    path = tmp_path / "s.zarr"
    store = Store(str(path), B35, create=True)
    group = zarr.open_group(str(path), path="solve", mode="a")
    meta = {"slot": "a", "graph": "g", "classes": 10, "iteration": 3, "last": 1.0}
    group.attrs["checkpoint"] = meta
    assert checkpoint_meta(store, "g", 10) is None
    group.attrs["checkpoint"] = {**meta, "space": "solve order"}
    assert checkpoint_meta(store, "g", 10) == {**meta, "space": "solve order"}
