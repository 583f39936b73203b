"""Naked Diagonal's computer players: legal and reproducible games at every level, a search level takes
a win, the search beats random play, and the hint is the strongest level's stable choice."""

from __future__ import annotations

import pytest

from tests.game.naked_diagonal.test_game import random_game
from unitile_py.colours import BLUE, RED
from unitile_py.naked_diagonal.game import Game
from unitile_py.naked_diagonal.legality import legal_placements
from unitile_py.naked_diagonal.players import LEVELS, PLAYOUTS, hint, make_player
from unitile_py.naked_diagonal.position import Position
from unitile_py.playing import play_game, run_games


@pytest.mark.parametrize("level", LEVELS)
def test_players_play_legal_reproducible_games(level: int) -> None:
    for n, seed in ((3, 1), (4 if level >= 4 else 5, 2)):  # levels 4 and 5 take seconds on 5x5
        first = play_game(Game(Position.empty(n)), make_player(level, seed), make_player(level, seed + 1))
        again = play_game(Game(Position.empty(n)), make_player(level, seed), make_player(level, seed + 1))
        assert first.moves == again.moves and first.winner in (RED, BLUE)
        for i, position in enumerate(first.game.positions[:-1]):
            red, blue = legal_placements(position)
            assert first.moves[i] in (red if position.turn == RED else blue)


def test_a_search_level_takes_a_winning_placement() -> None:
    # Red needs c1 or ... to join north and south on 3x3: b3, b2 red; b1 wins at once.
    position = Position.parse(".R./.RB/B.. r")
    for level in (2, 3, 4, 5):
        assert position.grid.name(make_player(level, 0).choose(position)) == "b1"


def test_the_search_beats_random_play() -> None:
    summary, _ = run_games(3, 1, 10, 5, lambda: Game(Position.empty(5)), make_player)
    assert summary.red_wins >= 9
    summary, _ = run_games(1, 3, 10, 5, lambda: Game(Position.empty(5)), make_player)
    assert summary.blue_wins >= 8


def test_hint_is_the_strongest_levels_choice_and_stable() -> None:
    position = random_game(5, 8, plies=6).position
    assert hint(position) == hint(position) == make_player(max(LEVELS), 0).choose(position)
    assert PLAYOUTS[max(LEVELS)] > PLAYOUTS[2]
