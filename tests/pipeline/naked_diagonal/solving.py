"""What the tests of the Naked Diagonal solve share: the solve of a small board into a folder, and plain
searches with the game's own ``Game`` as independent truth (no symmetry, no pipeline code)."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np

from pipeline.executor import InProcessExecutor
from pipeline.naked_diagonal import kernels
from pipeline.naked_diagonal.build import BuildOptions, plan, run_build
from pipeline.naked_diagonal.context import Context
from pipeline.naked_diagonal.geometry import Geometry
from pipeline.naked_diagonal.store import Store
from pipeline.naked_diagonal.table_stages import tier_arrays
from pipeline.naked_diagonal.tier_parts import outcome, values_of
from unitile_py.naked_diagonal.game import Game
from unitile_py.naked_diagonal.grid import Grid
from unitile_py.naked_diagonal.position import Position

#: Canonical positions per tier (a breadth-first search of the game with symmetry, done once by hand).
CANONICAL = {2: [1, 1, 3, 2, 1], 3: [1, 4, 21, 56, 127, 165, 169, 121, 48, 16]}


def build(n: int, root: Path, executor: Any = None, stages: int | None = None) -> dict[str, Any]:
    """Run the solve of n x n (its first ``stages`` stages) into ``root/s.zarr``, tables in ``root/t``."""
    store = Store(str(root / "s.zarr"), n, create=True)
    ctx = Context(n, store, executor or InProcessExecutor(), log=lambda msg: None)
    todo = plan(n, BuildOptions(tables=str(root / "t"), part_size=48))
    return run_build(ctx, todo[:stages] if stages is not None else todo)


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


def store_value(store: Store, position: Position) -> tuple[str, int]:
    """A position's value in the store, found by its canonical key (the pipeline's kernel)."""
    geo = Geometry.of(position.grid.n)
    key = kernels.canonical(geo.args, position.red, position.blue, int(position.turn == "b"))[0]
    tier = (position.red | position.blue).bit_count()
    return outcome(int(values_of(store, tier, np.array([key], dtype=np.uint64))[0]))


def stored_positions(store: Store, n: int) -> Iterator[tuple[int, int, int, int, int]]:
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
    red, blue, turn = Geometry.of(n).unkey(key)
    return Position(Grid.get(n), red, blue, turn)


class Interrupt(Exception):
    """Stands for a killed client."""


class DyingExecutor(InProcessExecutor):
    """Runs ``tasks`` tasks, then dies."""

    def __init__(self, tasks: int) -> None:
        super().__init__()
        self.left = tasks

    def map(self, fn: Any, items: Any, desc: str, on_result: Any = None) -> list[Any]:
        out = []
        for i, item in enumerate(items):
            if self.left == 0:
                raise Interrupt
            self.left -= 1
            out.append(fn(item))
            if on_result is not None:
                on_result(i, out[-1])
        return out
