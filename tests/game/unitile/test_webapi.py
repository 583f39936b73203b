"""unitile_py.unitile.webapi, Unitile's service for the site worker: games as plain data, the value rule,
undo, records, analysis and the computer players, checked on 3x3 against the exact oracle of
tests/game/unitile/reference.py."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from tests.game.unitile.oracle import oracle
from unitile_py.unitile import (
    Board,
    Position,
    UnitileError,
    format_position,
    parse_position,
    parse_record,
)
from unitile_py.unitile.notation import check_start
from unitile_py.unitile.webapi import Api
from unitile_py.webapi import handle

ROOT = Path(__file__).resolve().parents[3]
B33 = Board.get(3, 3)


@pytest.fixture(scope="module")
def api33() -> Api:
    return Api(B33, oracle("3x3"))


def random_game(api: Api, seed: int, plies: int | None = None) -> dict:
    """Random legal slides until a colour is united (the value rule makes every game end), or
    ``plies`` slides."""
    rng = random.Random(seed)
    game = api.new_game()
    for _ in range(400 if plies is None else plies):
        st = api.state(game)
        if st["over"]:
            return game
        game = api.play(game, rng.choice(st["legal"]))
    if plies is None:
        raise AssertionError("the game did not end")
    return game


def test_start_state_without_tables() -> None:
    api = Api()
    st = api.state(api.new_game())
    start = Position.start(Board.get(5, 5))
    assert st["cells"] == [start.colour_at(c) or "." for c in range(25)]
    assert st["position"] == format_position(start)
    assert (st["bubble"], st["turn"], st["ply"], st["plies"]) == ("c3", "r", 0, 0)
    assert st["groups"] == {"r": 10, "b": 10}
    assert st["legal"] == ["c4", "b3", "d3", "c2"]  # every slide while no tables are loaded
    assert (st["last"], st["winner"], st["uniting"], st["over"]) == (None, None, [], False)
    assert (st["record"], st["result"], st["can_undo"], st["tables"]) == ("*\n", "*", False, False)
    assert api.info()["tables"] is False and api.info()["players"] is False


def test_play_follows_the_value_rule(api33: Api) -> None:
    table = oracle("3x3")
    start = Position.start(B33)
    legal = [B33.name(c) for c in table.legal(start)]
    illegal = [B33.name(c) for c in start.slides() if B33.name(c) not in legal]
    assert api33.state(api33.new_game())["legal"] == sorted(legal, key=B33.cell)
    game = api33.play(api33.new_game(), legal[0])
    assert game == {"start": None, "moves": [legal[0]]}
    for name in illegal:
        with pytest.raises(UnitileError, match="neither unites a colour nor lowers"):
            api33.play(api33.new_game(), name)
    with pytest.raises(UnitileError, match="not next to the bubble"):
        api33.play(api33.new_game(), "a1")
    with pytest.raises(UnitileError, match="ply 1"):
        api33.state({"start": None, "moves": ["zz"]})


def test_state_after_a_slide_and_at_the_end(api33: Api) -> None:
    game = random_game(api33, seed=3)
    st = api33.state(game)
    final = parse_position(st["position"])
    assert st["over"] and st["winner"] == final.winner() and st["legal"] == []
    assert st["result"] == ("1-0" if st["winner"] == "r" else "0-1")
    assert st["record"].endswith(st["result"] + "\n")
    assert sorted(st["uniting"]) == sorted(
        B33.name(c) for c in range(9) if final.colour_at(c) == st["winner"]
    )
    last = st["last"]
    assert (
        last["from"] == st["moves"][-1] == st["bubble"] and final.colour_at(B33.cell(last["to"])) is not None
    )
    assert st["groups"][st["winner"]] == 1
    with pytest.raises(UnitileError, match="the game is over"):
        api33.play(game, api33.state(game, ply=st["plies"] - 1)["legal"][0])
    earlier = api33.state(game, ply=1)
    assert earlier["ply"] == 1 and earlier["plies"] == st["plies"] and earlier["winner"] is None
    assert earlier["last"]["from"] == st["moves"][0]
    with pytest.raises(UnitileError, match="outside"):
        api33.state(game, ply=st["plies"] + 1)


def test_undo_takes_back_the_humans_last_move() -> None:
    api = Api()
    game = {"start": None, "moves": ["c4", "c5", "b5"]}  # red, blue, red
    assert api.undo(game, humans=["r", "b"])["moves"] == ["c4", "c5"]  # two players: one move
    assert api.undo(game, humans=["b"])["moves"] == ["c4"]  # blue's move and red's reply
    assert api.undo(game, humans=["r"])["moves"] == ["c4", "c5"]  # red's own last move
    assert api.undo(game, humans=[])["moves"] == ["c4", "c5"]  # computer against computer: one
    one = {"start": None, "moves": ["c4"]}
    assert api.state(one, humans=["b"])["can_undo"] is False  # only the computer has moved
    with pytest.raises(UnitileError, match="nothing to take back"):
        api.undo(one, humans=["b"])
    assert api.state(one, humans=["r"])["can_undo"] is True


def test_records_load_and_bad_records_are_one_line_errors(api33: Api) -> None:
    game = random_game(api33, seed=11)
    text = api33.state(game)["record"]
    assert api33.load(text) == game
    for bad, message in [
        ("1. b2 *", "not next to the bubble"),
        ('[Board "3x3"]\n1. b2 *', "ply 1, b2: the empty cell, not a tile"),
        ('[Board "3x3"]\n1. b3 b3 *', "ply 2, b3: the empty cell, not a tile"),
        ('[Board "5x5"]\n*', "plays on a 3x3 board"),
        ("1. a1 a1 *", "ply"),
        ("hello", "ply 1"),
        ('[Position "BRB/R.B/RB r"]\n*', "row 3"),
    ]:
        with pytest.raises(UnitileError, match=message) as info:
            api33.load(bad)
        assert "\n" not in str(info.value)
    start = Position.start(B33).play(B33.cell("b3"))
    custom = f'[Position "{format_position(start)}"]\n*\n'
    loaded = api33.load(custom)
    assert loaded == {"start": format_position(start), "moves": []}
    assert api33.state(loaded)["record"] == custom


def test_analysis_matches_perfect_play(api33: Api) -> None:
    table = oracle("3x3")
    game = api33.new_game()
    rng = random.Random(5)
    while not api33.state(game)["over"]:
        st = api33.state(game, analysis=True)
        position = parse_position(st["position"])
        expected = {
            B33.name(c): dict(zip(("result", "plies"), table.after(position, c), strict=True))
            for c in table.legal(position)
        }
        assert st["analysis"] == expected
        wins = [m for m, a in expected.items() if a["result"] == "win"]
        assert (table.outcome(position)[0] == "win") == bool(wins)
        game = api33.play(game, rng.choice(st["legal"]))
    assert Api().state(Api().new_game(), analysis=True)["analysis"] is None  # no tables: no analysis


def test_computer_moves_and_hint(api33: Api) -> None:
    table = oracle("3x3")
    game = api33.new_game()
    for level in range(1, 7):
        first = api33.computer_move(game, level, seed=4)
        assert first == api33.computer_move(game, level, seed=4)  # a function of game, level, seed
        assert first in api33.state(game)["legal"]
    for seed in range(6):
        game = random_game(api33, seed=seed, plies=1)  # one slide in
        position = parse_position(api33.state(game)["position"])
        if position.winner():
            continue
        assert api33.hint(game, seed=seed) == api33.computer_move(game, 6, seed)
        assert B33.cell(api33.hint(game)) in table.best(position)
    with pytest.raises(UnitileError, match="level 7"):
        api33.computer_move(game, 7, 1)
    with pytest.raises(UnitileError, match="tables"):
        Api().computer_move(Api().new_game(), 1, 1)


def test_handle_speaks_json_and_reports_bad_requests_in_one_line() -> None:
    ok = json.loads(
        handle(json.dumps({"op": "play", "args": {"game": {"start": None, "moves": []}, "move": "c4"}}))
    )
    assert ok == {"ok": True, "result": {"start": None, "moves": ["c4"]}}
    for request, message in [
        ("{", "not JSON"),
        ('{"op": "format_disk"}', "unknown request"),
        ('{"op": "play", "args": {"game": {"moves": []}}}', "missing a required argument"),
        ('{"op": "state", "args": {"game": {"moves": ["c4"]}, "colour": 1}}', "unexpected keyword"),
        ('{"op": "state", "args": [1]}', "args must be an object"),
        ('{"op": "state", "args": {"game": {"moves": "c4"}}}', "moves must be a list"),
    ]:
        reply = json.loads(handle(request))
        assert reply["ok"] is False and message in reply["error"] and "\n" not in reply["error"]
    info = json.loads(handle('{"op": "info"}'))["result"]
    assert info["board"] == {"rows": 5, "cols": 5} and info["names"][12] == "c3"


def test_random_play_through_handle_on_5x5_without_tables() -> None:
    rng = random.Random(2)
    game = {"start": None, "moves": []}
    for _ in range(60):
        st = json.loads(handle(json.dumps({"op": "state", "args": {"game": game}})))["result"]
        position = parse_position(st["position"])
        assert (st["groups"]["r"], st["groups"]["b"]) == position.group_counts()
        if st["over"]:
            break
        move = rng.choice(st["legal"])
        game = json.loads(handle(json.dumps({"op": "play", "args": {"game": game, "move": move}})))["result"]
    assert len(game["moves"]) > 0


@pytest.mark.skipif(
    not (ROOT / "tables" / "5x5" / "manifest.json").exists(), reason="tables/5x5 not built yet"
)
def test_with_the_committed_5x5_tables() -> None:
    api = Api()
    api.load_tables(directory=str(ROOT / "tables" / "5x5"))
    files = {p.name: p.read_bytes() for p in (ROOT / "tables" / "5x5").iterdir() if p.is_file()}
    in_memory = Api()
    in_memory.load_tables(files=files)
    assert api.info()["tables"] and api.info()["players"]
    game = api.new_game()
    rng = random.Random(9)
    while not (st := api.state(game, analysis=True))["over"]:
        assert in_memory.state(game, analysis=True) == st
        assert st["analysis"] is not None and set(st["analysis"]) == set(st["legal"])
        game = api.play(game, rng.choice(st["legal"]))
    assert api.load(st["record"]) == game


def test_salvage_plays_what_it_can_of_a_damaged_link(api33: Api) -> None:
    table = oracle("3x3")
    start = Position.start(B33)
    legal = [B33.name(c) for c in table.legal(start)]
    refused = next(B33.name(c) for c in start.slides() if B33.name(c) not in legal)
    assert api33.salvage({"start": None, "moves": [legal[0].upper()]}) == {
        "game": {"start": None, "moves": [legal[0]]},  # the usual spelling
        "problem": None,
    }
    for game, kept, words in [
        ({"start": None, "moves": [refused]}, [], f"{refused}, would not lower the sum of the two values"),
        ({"start": None, "moves": [legal[0], "zz9", "b2"]}, [legal[0]], "zz9, is not a cell of the board"),
        ({"start": None, "moves": ["a1", "b1"]}, [], "so it and the 1 after it were not played"),
        ({"start": None, "moves": ["b2"]}, [], "b2, is the empty cell, so it was not played"),
        ({"start": "garbage", "moves": ["b3"]}, [], "usual start is shown and its 1 slide was not played"),
        ({"start": str(Position.start(Board.get(5, 5))), "moves": []}, [], "it is for a 5x5 board"),
        ({"start": None, "moves": "b3"}, [], None),
    ]:
        out = api33.salvage(game)
        assert out["game"] == {"start": None, "moves": kept}
        assert (out["problem"] is None) if words is None else (words in out["problem"]), out
    assert api33.salvage([1])["problem"] == "the link holds no game"
    ended = random_game(api33, seed=3)
    out = api33.salvage({"start": None, "moves": [*ended["moves"], "b2"]})
    assert out["game"] == ended and "comes after the end of the game" in out["problem"]


def test_explain_says_why_a_tile_may_not_slide(api33: Api) -> None:
    table = oracle("3x3")
    start = Position.start(B33)
    legal = [B33.name(c) for c in table.legal(start)]
    refused = next(B33.name(c) for c in start.slides() if B33.name(c) not in legal)
    game = api33.new_game()
    assert api33.explain(game, legal[0]) is None

    def text(move: str) -> str:
        ban = api33.explain(game, move)
        assert ban is not None and ban["colour"] == "r"
        return f"{ban['kind']}: {ban['text']}"

    assert text(refused) == f"not_lower: {refused} would not lower the sum of the two values"
    assert text("a1") == "not_adjacent: a1 is not next to the empty cell"
    assert text("B2") == "empty_cell: b2 is the empty cell"
    assert text("z9") == "off_board: z9 is not a cell of the board"
    reply = json.loads(handle(json.dumps({"op": "explain", "args": {"game": game, "move": "a1"}})))
    assert reply == {"ok": True, "result": {"kind": "not_adjacent", "move": "a1", "colour": "r",
                                            "text": "a1 is not next to the empty cell"}}


def test_a_start_with_both_colours_united_is_refused(api33: Api) -> None:
    """Issue 35: such a start was accepted (no slide unites both colours, so no game reaches it)."""
    start = "RRR/R.B/BBB r"
    message = "start 'RRR/R.B/BBB r': red and blue are both united; no game reaches that"
    with pytest.raises(UnitileError, match=f"^{message}$"):
        check_start(parse_position(start))
    with pytest.raises(UnitileError, match=f"^{message}$"):
        parse_record(f'[Position "{start}"]\n*')
    with pytest.raises(UnitileError, match=f"^{message}$"):
        api33.state({"start": start, "moves": []})
    start55 = "RRRRR/RRRRR/RR.BB/BBBBB/BBBBB r"
    reply = json.loads(handle(json.dumps({"op": "state", "args": {"game": {"start": start55, "moves": []}}})))
    assert reply == {"ok": False, "error": message.replace(start, start55)}
    salvaged = api33.salvage({"start": start, "moves": ["b2"]})
    assert salvaged["game"]["start"] is None and message in salvaged["problem"]
    assert parse_position(start).winner() == "r"  # as a position (to draw, to look up) it is still one
