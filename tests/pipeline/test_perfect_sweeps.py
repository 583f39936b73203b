"""The level sweeps of the perfect stage (pipeline.perfect, pipeline.table_stages) against the one-process
pass in increasing T, which tests/test_perfect.py compares with brute-force minimax."""

from __future__ import annotations

import doctest
from functools import cache
from pathlib import Path

import numpy as np
import pytest

import pipeline.perfect
from pipeline.context import Context
from pipeline.executor import InProcessExecutor
from pipeline.legal import SLIDES, UNITED, legal_bytes
from pipeline.perfect import (
    PerfectResult,
    best_masks,
    best_of_bubble,
    block_cells,
    block_rows,
    parity,
    retrograde,
    run_sweeps,
    sweep_bubble,
    sweep_values,
)
from pipeline.store import Store
from pipeline.table_stages import PerfectStage
from tests.game.oracle import oracle
from unitile_py import Board, Position


@cache
def reference(size: str) -> tuple[Board, np.ndarray, PerfectResult]:
    """The board, its legal bytes and the values from the pass in increasing T."""
    ref = oracle(size)
    total = np.array([float(v) for v in ref._total])
    legal = legal_bytes(ref.board, total).legal
    return ref.board, legal, retrograde(ref.board, total, legal)


def block_of(board: Board, value: np.ndarray, bubble: int) -> np.ndarray:
    """A copy of the values of a bubble cell and its neighbour cells, as a task reads them."""
    c = board.colourings
    return np.stack([value[b * c : (b + 1) * c] for b in block_cells(board, bubble)])


@pytest.mark.parametrize("tail", [0, 2000, 1 << 30])
@pytest.mark.parametrize("size", ["3x3", "3x5"])
def test_level_sweeps_equal_the_pass_in_increasing_t(size: str, tail: int) -> None:
    """With every level on the cells, the last ones in one process, or all but the first two there."""
    board, legal, want = reference(size)
    got = sweep_values(board, legal, tail)
    assert got.value.tobytes() == want.value.tobytes()
    assert (got.max_distance, got.active, got.red_wins) == (want.max_distance, want.active, want.red_wins)
    assert got.sweeps is not None and want.max_distance <= got.sweeps.total <= want.max_distance + 1
    assert (got.sweeps.in_process == 0) == (tail == 0)
    if tail == 1 << 30:
        assert got.sweeps.on_cells == 2


def test_sweeps_on_copied_blocks_equal_the_reference() -> None:
    """Each cell's step sees only a copy of its block (the cell and its neighbours), as a task does, and
    solves the positions at distance level and level + 1."""
    board, legal, want = reference("3x5")
    c = board.colourings
    value = np.zeros(board.positions, dtype=np.int16)

    def half_sweep(cells: list[int], level: int) -> list[tuple[int, int]]:
        assert len({parity(board, b) for b in cells}) == 1
        out = []
        for b in cells:
            block = block_of(board, value, b)
            solved, unknown = sweep_bubble(
                board, b, legal[b * c : (b + 1) * c], block, block_rows(board, b), level
            )
            # A level solves exactly the positions at distance level and level + 1 (what sweep_task reports).
            assert solved == np.count_nonzero(np.abs(block[0]) >= max(level, 1))
            out.append((solved, unknown))
            value[b * c : (b + 1) * c] = block[0]
        return out

    run_sweeps(board, half_sweep)
    assert value.tobytes() == want.value.tobytes()


@pytest.mark.parametrize("size", ["3x3", "3x5"])
def test_best_masks_from_a_block_equal_those_from_the_whole_array(size: str) -> None:
    board, legal, want = reference(size)
    c = board.colourings
    whole = best_masks(board, legal, want.value)
    for b in range(board.cells):
        got = best_of_bubble(
            board, b, legal[b * c : (b + 1) * c], block_of(board, want.value, b), block_rows(board, b)
        )
        assert np.array_equal(got.best, whole.best[b * c : (b + 1) * c]) and got.inconsistent == 0


@pytest.mark.parametrize("tail", [0, 1 << 30])
def test_a_position_that_can_never_be_solved_stops_the_sweeps(tail: int) -> None:
    board, legal, _ = reference("3x3")
    broken = legal.copy()
    i = int(np.flatnonzero((legal & UNITED) == 0)[0])
    broken[i] &= 0xFF & ~SLIDES
    with pytest.raises(RuntimeError, match="stay unknown"):
        sweep_values(board, broken, tail)


@pytest.mark.parametrize("tail", [0, PerfectStage.tail])
def test_the_stage_writes_the_reference_values(tmp_path: Path, tail: int) -> None:
    board, legal, want = reference("3x5")
    store = Store(str(tmp_path / "s.zarr"), board, create=True)
    store.create("moves/legal", (board.positions,), (board.colourings,), np.uint8)[...] = legal
    store.mark_done("legal", {})
    lines: list[str] = []
    record = PerfectStage(tail=tail).run(Context(board, store, InProcessExecutor(), log=lines.append))
    assert store.read("perfect/value").tobytes() == want.value.tobytes()
    assert store.read("perfect/best").tobytes() == best_masks(board, legal, want.value).best.tobytes()
    start = int(want.value[Position.start(board).index()])
    sweeps = sweep_values(board, legal, tail).sweeps
    assert sweeps is not None
    assert record == {
        "active_positions": want.active,
        "red_to_move_wins": want.red_wins,
        "max_distance": want.max_distance,
        "start": {"first_player": "win" if start > 0 else "loss", "plies": abs(start),
                  "winner": "red" if start > 0 else "blue"},
        "sweeps": sweeps.total,
    }  # fmt: skip
    assert f"{record['sweeps']} half-sweeps" in lines[-1]
    assert ("in this process" in lines[-1]) == (tail > 0)


def test_perfect_doctests() -> None:
    result = doctest.testmod(pipeline.perfect)
    assert result.attempted > 0 and result.failed == 0
