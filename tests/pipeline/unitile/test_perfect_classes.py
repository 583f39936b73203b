"""Perfect play on the symmetry classes (pipeline.unitile.perfect.class_values, the perfect and positions
stages) against the pass over positions in increasing T, which tests/pipeline/unitile/test_perfect.py compares
with
brute-force minimax; and the per-position consistency pass catching a wrong value."""

from __future__ import annotations

import doctest
from pathlib import Path

import numpy as np
import pytest

import pipeline.unitile.perfect
from pipeline.unitile.cellpass import INCONSISTENT, block_cells, cell_pass
from pipeline.unitile.geometry import Geometry
from pipeline.unitile.legal import legal_bytes
from pipeline.unitile.perfect import class_values, retrograde
from pipeline.unitile.store import Store
from tests.pipeline.unitile.conftest import quiet_build
from unitile_py.unitile import Board


@pytest.fixture(scope="module", params=["3x3", "3x5"])
def built(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> tuple[Board, Store]:
    """A value build (up to verify) of each small board."""
    board = Board.parse(request.param)
    path = tmp_path_factory.mktemp("perfect") / f"{board}.zarr"
    quiet_build(path, board)
    return board, Store(str(path), board)


def test_class_values_broadcast_equal_the_pass_over_positions(built: tuple[Board, Store]) -> None:
    board, store = built
    total = store.read("positions/T")
    want = retrograde(board, total, legal_bytes(board, total).legal)
    assert store.read("perfect/value").tobytes() == want.value.tobytes()
    rec = store.require("perfect")
    assert (rec["max_distance"], rec["active_positions"], rec["red_to_move_wins"]) == (
        want.max_distance, want.active, want.red_wins,
    )  # fmt: skip


def test_class_values_count_what_they_met(built: tuple[Board, Store]) -> None:
    _, store = built
    res = class_values(*(store.read(n) for n in ("graph/nbr", "graph/info", "graph/swap", "values/T_class")))
    assert res.counts[:3].tolist() == [0, 0, 0]  # no class stuck, no tie, no child after its parent
    assert np.array_equal(res.value, store.read("perfect/class_value"))


def test_a_wrong_value_is_caught_by_the_pass_over_positions(built: tuple[Board, Store]) -> None:
    board, store = built
    c = board.colourings
    total, value = store.read("positions/T"), store.read("perfect/value").copy()
    i = int(np.flatnonzero(np.abs(value) > 2)[0])
    value[i] += 2 if value[i] > 0 else -2
    b = i // c
    cells = block_cells(board, b)
    t, v = (np.stack([a[x * c : (x + 1) * c] for x in cells]) for a in (total, value))
    assert cell_pass(b, t, v, 0.0, np.inf, Geometry.of(board).args)[2][INCONSISTENT] >= 1


def test_perfect_doctests(tmp_path: Path) -> None:
    result = doctest.testmod(pipeline.unitile.perfect)
    assert result.failed == 0
