"""The Game owns legality: random legal games agree with the tables move for move, and every slide the
value rule forbids is refused alike by Game.push, the record and show commands and the web API."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from unitile_py.cli import main
from unitile_py.unitile import Board, Game, Position, UnitileError, parse_record, webapi
from unitile_py.unitile.tables import tables_for
from unitile_py.unitile.webapi import Api
from unitile_py.webapi import handle

BOARDS = ("3x3", "3x5", "5x5")


@pytest.fixture
def web_tables(monkeypatch: pytest.MonkeyPatch) -> None:
    """The web API's service with the 5x5 tables loaded, as the site's worker does, for one test."""
    monkeypatch.setattr(webapi.API, "tables", tables_for("5x5"))


def refused_everywhere(game: Game, cell: int, capsys: pytest.CaptureFixture[str]) -> None:
    """``cell`` is adjacent but illegal after ``game``'s moves: every entry point says so, naming the ply."""
    board = game.board
    name = board.name(cell)
    ply = game.ply + 1
    why = game.why_illegal(cell)
    assert why is not None
    expected = f"ply {ply}, {name}: {why}"
    with pytest.raises(UnitileError) as info:
        game.push(cell)
    assert str(info.value) == expected
    names = [board.name(c) for c in game.moves]
    start = str(game.start)
    assert main(["show", start, *names, name]) == 2
    assert capsys.readouterr().err == f"error: {expected}\n"
    text = f'[Position "{start}"]\n' + " ".join([*names, name]) + " *\n"
    parse_record(text)  # the notation accepts it: the tile is next to the bubble
    with pytest.raises(UnitileError) as info:
        Game.from_record(parse_record(text), game.rules)
    assert str(info.value) == expected
    if board is Board.get(5, 5):
        reply = json.loads(handle(json.dumps({"op": "play", "args": {"game": _plain(game), "move": name}})))
        assert reply == {"ok": False, "error": expected}


def _plain(game: Game) -> dict[str, object]:
    return {"start": str(game.start), "moves": [game.board.name(c) for c in game.moves]}


@settings(max_examples=25, deadline=None, derandomize=True)
@given(st.sampled_from(BOARDS), st.randoms(use_true_random=False), st.integers(0, 60))
def test_random_legal_games_agree_with_the_tables(size: str, rng: random.Random, plies: int) -> None:
    tables = tables_for(size)
    board = Board.parse(size)
    game = Game(Position.start(board), tables)
    for _ in range(plies):
        if game.is_over():
            assert game.legal_moves() == ()
            break
        legal = game.legal_moves()
        assert legal == tables.legal(game.position) and legal
        for cell in game.position.slides():
            assert game.is_legal(cell) == (cell in legal)
        game.push(rng.choice(legal))
    again = Game.from_record(parse_record(game.record_text()), tables)
    assert again.moves == game.moves and again.result() == game.result()


@pytest.mark.usefixtures("web_tables")
def test_illegal_adjacent_slides_are_refused_everywhere(capsys: pytest.CaptureFixture[str]) -> None:
    """Every adjacent slide the tables forbid along seeded games on each board, through every entry point."""
    rng = random.Random(12)
    seen = 0
    for size in BOARDS:
        tables = tables_for(size)
        for _ in range(3):
            game = Game(Position.start(Board.parse(size)), tables)
            while not game.is_over() and game.ply < 12:
                legal = game.legal_moves()
                for cell in game.position.slides():
                    if cell not in legal:
                        refused_everywhere(game, cell, capsys)
                        seen += 1
                game.push(rng.choice(legal))
    assert seen > 30


def test_the_web_api_refuses_what_the_game_refuses() -> None:
    api = Api()
    api.load_tables(directory=None)
    game = api.play(api.new_game(), "c4")
    not_lower = "neither unites a colour nor lowers the sum of the two values"
    with pytest.raises(UnitileError, match=rf"^ply 2, c3: {not_lower}$"):
        api.play(game, "c3")
    assert api.state(game)["legal"] == ["c5", "b4", "d4"]


def test_a_board_without_tables_says_so() -> None:
    with pytest.raises(UnitileError, match=r"no lookup tables .* cannot be checked on 3x7"):
        Game(Position.start(Board.get(3, 7)))
