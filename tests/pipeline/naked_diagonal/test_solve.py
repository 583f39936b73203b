"""Perfect play (pipeline/naked_diagonal/solve_stage.py and the tables it leads to): a forward negamax with
unitile_py's ``Game`` on every reachable position, against the store and the game's table reader."""

from __future__ import annotations

from pathlib import Path

import pytest

from pipeline.naked_diagonal.store import Store
from tests.pipeline.naked_diagonal.solving import forward, reachable, store_value
from unitile_py.naked_diagonal.game import Game
from unitile_py.naked_diagonal.position import Position
from unitile_py.naked_diagonal.tables import NDTables


@pytest.mark.parametrize("n", [2, 3])
def test_forward_search_agrees_on_every_position(solved: dict[int, Path], n: int) -> None:
    store = Store(str(solved[n] / "s.zarr"), n)
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
