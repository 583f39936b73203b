"""Random-play conformance: thousands of random slide sequences keep every invariant."""

from __future__ import annotations

import random

import pytest

from unitile_py.colours import BLUE, RED
from unitile_py.unitile import Board, Game, Position, format_record, parse_position, parse_record
from unitile_py.unitile.lookups import ADJACENT_ONLY


@pytest.mark.parametrize("shape", [(5, 5), (3, 5), (3, 3)])
def test_random_slides_keep_invariants(shape: tuple[int, int]) -> None:
    rng = random.Random(20261130)
    board = Board.get(*shape)
    for _ in range(40):
        p = Position.start(board)
        for _ in range(100):
            cell = rng.choice(p.slides())
            q = p.play(cell)
            assert q.red.bit_count() == board.red_count
            assert q.blue.bit_count() == board.red_count
            assert q.red & q.blue == 0 and not (q.red | q.blue) >> q.bubble & 1
            assert Position.from_index(board, q.index(), q.turn) == q
            assert parse_position(str(q)) == q
            p = q


def test_random_games_round_trip_as_records() -> None:
    rng = random.Random(7)
    board = Board.get(5, 5)
    finished = 0
    for _ in range(30):
        game = Game(Position.start(board), ADJACENT_ONLY, headers={"Red": "random", "Blue": "random"})
        while game.winner() is None and len(game.moves) < 400:
            game.push(rng.choice(game.position.slides()))
        finished += game.winner() is not None
        text = game.record_text()
        again = parse_record(text)
        assert again.moves == list(game.moves) and again.result == game.result()
        assert format_record(again) == text
        assert game.result() in ("1-0", "0-1", "*")
        if game.winner() is not None:
            assert game.position.united(RED if game.result() == "1-0" else BLUE)
    assert finished > 0
