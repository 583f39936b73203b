"""The Naked Diagonal solve (pipeline/naked_diagonal) on 2x2 and 3x3, checked against independent truth:

* the tiers: counts per tier before symmetry from a plain breadth-first search with the game's own
  ``Game`` (no symmetry, no pipeline code);
* legality: the numba kernels against unitile_py's engine on every reachable position and on every
  3x3 board without a naked diagonal (reachable or not, NDE regions included);
* perfect play: a forward negamax with unitile_py's ``Game`` (a memo on exact positions) on every
  reachable position, against the store and against the game's table reader;
* the proof search of ``nd-prove`` against the solve, on every 3x3 position;
* the pipeline's own behaviour: a killed build resumes and ends with the same tables bit for bit, the
  dask executor gives the same tables, ``verify`` catches a wrong value and a missing shard.
"""

from __future__ import annotations

import itertools
import shutil
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from pipeline.executor import DaskExecutor, InProcessExecutor
from pipeline.naked_diagonal import kernels
from pipeline.naked_diagonal.build import plan, run_plan
from pipeline.naked_diagonal.context import NDContext, NDOptions
from pipeline.naked_diagonal.geometry import NDGeometry
from pipeline.naked_diagonal.proof import ProofSearch, prove_openings
from pipeline.naked_diagonal.solve import outcome, values_of
from pipeline.naked_diagonal.store import NDStore
from pipeline.naked_diagonal.tables import tier_arrays
from pipeline.naked_diagonal.verify import VerifyError, VerifyStage
from unitile_py.errors import UnitileError
from unitile_py.naked_diagonal.game import Game
from unitile_py.naked_diagonal.grid import Grid
from unitile_py.naked_diagonal.legality import legal_masks
from unitile_py.naked_diagonal.position import Position
from unitile_py.naked_diagonal.tables import NDTables

#: Canonical positions per tier (a breadth-first search of the game with symmetry, done once by hand).
CANONICAL = {2: [1, 1, 3, 2, 1], 3: [1, 4, 21, 56, 127, 165, 169, 121, 48, 16]}


def build(n: int, root: Path, executor: Any = None, stages: int | None = None) -> dict[str, Any]:
    """Run the solve of n x n (its first ``stages`` stages) into ``root/s.zarr``, tables in ``root/t``."""
    store = NDStore(str(root / "s.zarr"), n, create=True)
    ctx = NDContext(n, store, executor or InProcessExecutor(), log=lambda msg: None)
    todo = plan(n, NDOptions(tables=str(root / "t"), part_size=48))
    return run_plan(ctx, todo[:stages] if stages is not None else todo)


@pytest.fixture(scope="session")
def solved(tmp_path_factory: pytest.TempPathFactory) -> dict[int, Path]:
    """2x2 and 3x3 solved in process (parts of about 48 positions: up to 4 tasks per 3x3 tier)."""
    out = {}
    for n in (2, 3):
        root = tmp_path_factory.mktemp(f"nd{n}")
        build(n, root)
        out[n] = root
    return out


def reachable(n: int) -> dict[str, Position]:
    """Every position play from the empty board reaches, by text (no symmetry)."""
    seen = {str(Position.empty(n)): Position.empty(n)}
    todo = [Game(Position.empty(n))]
    while todo:
        game = todo.pop()
        for p in game.legal_moves():
            child = Game(game.position)
            child.push(p)
            if str(child.position) not in seen:
                seen[str(child.position)] = child.position
                todo.append(child)
    return seen


def forward(n: int) -> dict[str, tuple[str, int]]:
    """Perfect play of every reachable position by negamax with the game's ``Game`` and a memo."""
    sys.setrecursionlimit(10_000)
    memo: dict[str, tuple[str, int]] = {}

    def solve(game: Game) -> tuple[str, int]:
        position = game.position
        text = str(position)
        if text not in memo:
            winner = game.winner()
            if winner is not None:
                memo[text] = ("win" if winner == position.turn else "loss", 0)
            else:
                results = []
                for p in game.legal_moves():
                    game.push(p)
                    kind, d = solve(game)
                    same = game.position.turn == position.turn
                    game.pop()
                    won = (kind == "win") == same
                    results.append((won, -(d + 1) if won else d + 1))
                won, score = max(results)
                memo[text] = ("win" if won else "loss", -score if won else score)
        return memo[text]

    solve(Game(Position.empty(n)))
    return memo


def store_value(store: NDStore, position: Position) -> tuple[str, int]:
    """A position's value in the store, found by its canonical key (the pipeline's kernel)."""
    geo = NDGeometry.of(position.grid.n)
    key = kernels.canonical(geo.args, position.red, position.blue, int(position.turn == "b"))[0]
    tier = (position.red | position.blue).bit_count()
    return outcome(int(values_of(store, tier, np.array([key], dtype=np.uint64))[0]))


def stored_positions(store: NDStore, n: int) -> Iterator[tuple[int, int, int, int, int]]:
    """``(tier, key, legal red, legal blue, value)`` of every stored position."""
    full = Grid.get(n).full
    for t in range(n * n + 1):
        keys, values, _ = tier_arrays(store, t)
        legal = np.concatenate([store.row(f"tiers/{t}/legal", i)[: c] for i, c in
                                enumerate(store.require(f"tier-{t:02d}")["counts"])])
        for k, lg, v in zip(keys.tolist(), legal.tolist(), values.tolist(), strict=True):
            yield t, k, lg & full, lg >> 32, v


def position_of(n: int, key: int) -> Position:
    """The position of a key."""
    red, blue, turn = NDGeometry.of(n).unkey(key)
    return Position(Grid.get(n), red, blue, turn)


@pytest.mark.parametrize("n", [2, 3])
def test_tiers_hold_every_reachable_position(solved: dict[int, Path], n: int) -> None:
    store = NDStore(str(solved[n] / "s.zarr"), n)
    records = [store.require(f"tier-{t:02d}") for t in range(n * n + 1)]
    assert [r["positions"] for r in records] == CANONICAL[n]
    by_tier = [0] * (n * n + 1)
    for position in reachable(n).values():
        by_tier[(position.red | position.blue).bit_count()] += 1
    assert [r["images"] for r in records] == by_tier
    assert sum(by_tier) == {2: 27, 3: 2686}[n]


@pytest.mark.parametrize("n", [2, 3])
def test_stored_legality_is_unitile_pys(solved: dict[int, Path], n: int) -> None:
    store = NDStore(str(solved[n] / "s.zarr"), n)
    rows = list(stored_positions(store, n))
    assert len(rows) == sum(CANONICAL[n])
    for _, key, red, blue, _ in rows:
        assert legal_masks(position_of(n, key)) == (red, blue)


def test_legality_agrees_on_every_3x3_board() -> None:
    """Every 3x3 colouring without a naked diagonal, reachable or not (NDE regions included)."""
    grid = Grid.get(3)
    g, memo = NDGeometry.of(3).args, kernels.new_memo()
    compared = blocked = 0
    for cells in itertools.product((0, 1, 2), repeat=9):
        red = sum(1 << p for p, c in enumerate(cells) if c == 1)
        blue = sum(1 << p for p, c in enumerate(cells) if c == 2)
        try:
            position = Position(grid, red, blue, "r")
        except UnitileError:
            continue  # a naked diagonal: no such position
        theirs = legal_masks(position)
        assert tuple(kernels.legal_masks(g, red, blue, memo)) == theirs, str(position)
        compared += 1
        blocked += theirs == (0, 0) and bool(position.empty_points)
    assert compared > 5000 and blocked > 0


@pytest.mark.parametrize("n", [2, 3])
def test_forward_search_agrees_on_every_position(solved: dict[int, Path], n: int) -> None:
    store = NDStore(str(solved[n] / "s.zarr"), n)
    tables = NDTables.load(n, solved[n] / "t")
    values = forward(n)
    assert len(values) == len(reachable(n))
    for text, value in values.items():
        position = Position.parse(text)
        if position.winner() is None:
            assert store_value(store, position) == value, text
        assert tables.outcome(position) == value, text


def test_who_wins_and_a_principal_variation(solved: dict[int, Path]) -> None:
    expected = {2: ("loss", 4, "blue"), 3: ("win", 9, "red")}
    for n, root in solved.items():
        start = NDTables.load(n, root / "t").manifest["start"]
        assert (start["outcome"], start["distance"], start["winner"]) == expected[n]
        game = Game(Position.empty(n))
        for name in start["line"]:
            game.push_name(name)
        assert game.winner() == start["winner"][0] and len(start["line"]) == start["distance"]


def test_the_proof_search_agrees_with_the_solve(solved: dict[int, Path]) -> None:
    store = NDStore(str(solved[3] / "s.zarr"), 3)
    search = ProofSearch(3)
    for _, key, _, _, value in stored_positions(store, 3):
        red, blue, turn = NDGeometry.of(3).unkey(key)
        assert search.wins(red, blue, int(turn == "b")) == (value > 0)
    result = prove_openings(3, InProcessExecutor(), split=1, log=lambda msg: None)
    analysis = NDTables.load(3, solved[3] / "t").analysis(Position.empty(3))
    assert result["empty_board"] == analysis["outcome"] == "win"
    assert result["first_placements"] == {name: m["outcome"] for name, m in analysis["moves"].items()}


def _files(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())}


class Interrupt(Exception):
    """Stands for a killed client."""


class DyingExecutor(InProcessExecutor):
    """Runs ``tasks`` tasks, then dies."""

    def __init__(self, tasks: int) -> None:
        super().__init__()
        self.left = tasks

    def map(self, fn: Any, items: Any, desc: str) -> list[Any]:
        out = []
        for item in items:
            if self.left == 0:
                raise Interrupt
            self.left -= 1
            out.append(fn(item))
        return out


def test_a_killed_build_resumes_to_the_same_tables(solved: dict[int, Path], tmp_path: Path) -> None:
    with pytest.raises(Interrupt):
        build(3, tmp_path, DyingExecutor(12))
    store = NDStore(str(tmp_path / "s.zarr"), 3)
    done = store.stages()
    assert "tier-02" in done and "solve-00" not in done
    build(3, tmp_path)
    assert {k: v["finished"] for k, v in store.stages().items() if k in done} == {
        k: v["finished"] for k, v in done.items()
    }
    assert _files(tmp_path / "t") == _files(solved[3] / "t")


def test_dask_gives_the_same_tables(solved: dict[int, Path], tmp_path: Path) -> None:
    executor = DaskExecutor(workers=1, processes=False, show_progress=False)
    try:
        build(2, tmp_path, executor)
    finally:
        executor.close()
    assert _files(tmp_path / "t") == _files(solved[2] / "t")


def test_verify_catches_a_wrong_value_and_a_missing_shard(solved: dict[int, Path], tmp_path: Path) -> None:
    shutil.copytree(solved[2] / "s.zarr", tmp_path / "s.zarr")
    store = NDStore(str(tmp_path / "s.zarr"), 2)
    ctx = NDContext(2, store, InProcessExecutor(), log=lambda msg: None)
    VerifyStage().run(ctx)
    row = store.row("tiers/2/value", 0)
    row[0] = -row[0] if row[0] else 3
    store.array("tiers/2/value")[0] = row
    with pytest.raises(VerifyError, match="tier 2 part 0: a value differs"):
        VerifyStage().run(ctx)
    shard = next((tmp_path / "s.zarr" / "tiers" / "3" / "keys" / "c").rglob("*"))
    while shard.is_dir():
        shard = next(shard.iterdir())
    shard.unlink()
    with pytest.raises(UnitileError, match=r"tiers/3/keys, .*the shard is missing"):
        VerifyStage().run(ctx)


def test_the_store_refuses_other_directories(tmp_path: Path) -> None:
    (tmp_path / "mine.txt").write_text("not a store")
    with pytest.raises(UnitileError, match="was not made by the Naked Diagonal solve"):
        NDStore(str(tmp_path), 3, create=True)
    NDStore(str(tmp_path / "new"), 3, create=True)
    with pytest.raises(UnitileError, match="holds board 3x3, not 4x4"):
        NDStore(str(tmp_path / "new"), 4)
