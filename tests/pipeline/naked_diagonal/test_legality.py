"""Legality (the numba kernels of pipeline/naked_diagonal/kernels.py) against unitile_py's engine: every
stored position, every 3x3 board without a naked diagonal (reachable or not, NDE regions included), and
seeded samples of 4x4 and 5x5."""

from __future__ import annotations

import itertools
import random
from pathlib import Path

import pytest

from pipeline.naked_diagonal import kernels
from pipeline.naked_diagonal.geometry import Geometry
from pipeline.naked_diagonal.store import Store
from tests.pipeline.naked_diagonal.solving import CANONICAL, position_of, stored_positions
from unitile_py.errors import NakedDiagonalError
from unitile_py.naked_diagonal.game import Game
from unitile_py.naked_diagonal.grid import Grid
from unitile_py.naked_diagonal.legality import legal_masks
from unitile_py.naked_diagonal.position import Position
from unitile_py.naked_diagonal.tables import NDTables


@pytest.mark.parametrize("n", [2, 3])
def test_stored_legality_is_unitile_pys(solved: dict[int, Path], n: int) -> None:
    store = Store(str(solved[n] / "s.zarr"), n)
    rows = list(stored_positions(store, n))
    assert len(rows) == sum(CANONICAL[n])
    for _, key, red, blue, _ in rows:
        assert legal_masks(position_of(n, key)) == (red, blue)


def test_legality_agrees_on_every_3x3_board() -> None:
    """Every 3x3 colouring without a naked diagonal, reachable or not (NDE regions included)."""
    grid = Grid.get(3)
    g, memo = Geometry.of(3).args, kernels.new_memo()
    compared = blocked = 0
    for cells in itertools.product((0, 1, 2), repeat=9):
        red = sum(1 << p for p, c in enumerate(cells) if c == 1)
        blue = sum(1 << p for p, c in enumerate(cells) if c == 2)
        try:
            position = Position(grid, red, blue, "r")
        except NakedDiagonalError:
            continue  # a naked diagonal: no such position
        theirs = legal_masks(position)
        assert tuple(kernels.legal_masks(g, red, blue, memo)) == theirs, str(position)
        compared += 1
        blocked += theirs == (0, 0) and bool(position.empty_points)
    assert compared > 5000 and blocked > 0


def test_legality_agrees_on_a_sample_of_4x4_and_5x5_positions() -> None:
    """Seeded samples: 3,000 records of the committed 4x4 tables and every position of 20 random 5x5
    games (bench/nd_solve.py legality checks every 4x4 position and larger samples)."""
    rng = random.Random(17)
    tables = NDTables.load(4)
    keys = [key for tier in tables.tiers.values() for key in tier.keys]
    for key in rng.sample(keys, 3000):
        position = position_of(4, key)
        got = kernels.legal_masks(Geometry.of(4).args, position.red, position.blue, kernels.memo_for(4))
        assert tuple(got) == legal_masks(position), str(position)
    g5 = Geometry.of(5).args
    for _ in range(20):
        game = Game(Position.empty(5))
        while not game.is_over():
            p = game.position
            got = kernels.legal_masks(g5, p.red, p.blue, kernels.memo_for(5))
            assert tuple(got) == legal_masks(p), str(p)
            game.push(rng.choice(game.legal_moves()))


def test_a_6x6_position_whose_fillability_search_exploded() -> None:
    # Red on d5 here leaves a 29-point region that the reading-order fillings do not fill; the exact
    # search then ran for minutes (df-pn on 6x6 stalled on it). A lattice order fills it at once.
    grid = Grid.get(6)
    red, blue = (sum(1 << grid.point(name) for name in names.split()) for names in ("a4 c3", "a6 a3 d3"))
    position = Position(grid, red, blue, "r")
    assert str(position) == "B...../....../R...../B.RB../....../...... r"
    g = Geometry.of(6).args
    memo = kernels.new_memo()
    assert kernels.legal_masks(g, position.red, position.blue, memo) == legal_masks(position)
    assert kernels.legal_points(g, position.red, position.blue, 0, memo) >> grid.point("d5") & 1
    assert len(memo) < 10_000
    # Random 6x6 games: the same legal points as unitile_py's engine.
    rng = random.Random(66)
    for _ in range(10):
        game = Game(Position.empty(6))
        while not game.is_over():
            p = game.position
            assert kernels.legal_masks(g, p.red, p.blue, memo) == legal_masks(p)
            game.push(rng.choice(game.legal_moves()))
