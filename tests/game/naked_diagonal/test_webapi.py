"""unitile_py.naked_diagonal.webapi, Naked Diagonal's service in the site's worker: games as plain data
replayed through the Game, what the page draws, the explanation of each kind of ban, damaged links,
records, undo, hint and the computer, and the ``nd_`` requests through unitile_py.webapi.handle."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from unitile_py.colours import RED
from unitile_py.errors import GameError
from unitile_py.naked_diagonal import hints, perfect
from unitile_py.naked_diagonal.bans import LeavesNDE, NakedDiagonal
from unitile_py.naked_diagonal.game import Game, parse_record
from unitile_py.naked_diagonal.grid import Grid
from unitile_py.naked_diagonal.legality import explain, legal_placements
from unitile_py.naked_diagonal.players import UNREACHABLE
from unitile_py.naked_diagonal.position import Position
from unitile_py.naked_diagonal.strategy import strategy_sizes
from unitile_py.naked_diagonal.tables import tables_for
from unitile_py.naked_diagonal.webapi import SIZES, Api
from unitile_py.webapi import handle

from . import reference

#: Games on 5x5 (from seeded random play) whose next placement on ``point`` is banned, one of each kind.
NAKED = (["c3", "a1"], "d4")  # Red on d4 with c3, c4 and d3 empty
NDE = (["a5", "b3", "e3", "c3", "c1", "d3", "b5", "b2", "e5", "e1"], "d1")  # leaves c2 d2 e2, not BAD
BAD_ONE = (["c2", "e3", "c4", "e4", "d2", "c3", "e5"], "c5")  # leaves d5 d4 d3, Red banned
BAD_BOTH = (["c4", "a3", "c3", "c5", "b3", "a4"], "a5")  # leaves b5 b4, both colours banned


@pytest.fixture
def api() -> Api:
    return Api()


def game5(moves: list[str]) -> dict[str, Any]:
    return {"size": 5, "start": None, "moves": list(moves)}


def random_game(api: Api, n: int, seed: int, plies: int | None = None) -> dict[str, Any]:
    rng = random.Random(seed)
    game = api.new_game(n)
    while plies is None or len(game["moves"]) < plies:
        st = api.state(game)
        if st["over"]:
            break
        game = api.play(game, rng.choice(st["legal"]))
    return game


def test_info_and_new_games(api: Api) -> None:
    info = api.info()
    assert info["sizes"] == list(range(3, 14)) == list(SIZES)
    assert info["default_size"] == 9 and info["levels"] == [1, 2, 3, 4, 5] and info["best"] == 5
    assert api.new_game() == {"size": 9, "start": None, "moves": []}
    for n in SIZES:
        st = api.state(api.new_game(n))
        assert st["size"] == n and st["points"] == ["."] * n * n and len(st["legal"]) == n * n
    for bad in (2, 14, "9", 9.0, True, None):
        with pytest.raises(GameError, match=r"size must be a whole number|board is not offered"):
            api.new_game(bad)  # type: ignore[arg-type]


def test_state_follows_the_game(api: Api) -> None:
    game = api.play(api.play(api.new_game(5), "C3"), " a1 ")
    assert game == game5(["c3", "a1"])
    st = api.state(game)
    position = Position.parse(st["position"])
    assert st["points"][12] == "r" and st["points"][20] == "b" and st["turn"] == "r"
    assert (st["ply"], st["plies"], st["moves"], st["last"], st["skipped"]) == (
        2,
        2,
        ["c3", "a1"],
        "a1",
        None,
    )
    assert st["stones"] == {"r": 1, "b": 1} and st["winner"] is None and st["chain"] == [] and not st["over"]
    grid = position.grid
    assert st["legal"] == list(grid.names(sum(1 << p for p in legal_placements(position)[0])))
    assert st["record"] == '[Game "Naked Diagonal"]\n[Board "5x5"]\n1. c3 a1 *\n' and st["can_undo"]
    assert api.state(game, ply=0)["points"] == ["."] * 25 and api.state(game, ply=1)["last"] == "c3"
    for bad in (3, -1, "1", True):
        with pytest.raises(GameError):
            api.state(game, ply=bad)
    named = api.state(game, headers={"Red": "Ann", "Blue": "Level 3"})["record"]
    assert '[Red "Ann"]' in named and '[Blue "Level 3"]' in named


def test_refused_placements_name_the_ply_and_why(api: Api) -> None:
    with pytest.raises(GameError, match="ply 3, d4: Red on d4 forms a naked diagonal with c3"):
        api.play(game5(NAKED[0]), "d4")
    with pytest.raises(GameError, match="ply 3, c3: c3 is not empty"):
        api.play(game5(NAKED[0]), "c3")
    with pytest.raises(GameError, match="would leave the NDE area c2 d2 e2"):
        api.play(game5(NDE[0]), "d1")
    with pytest.raises(GameError, match="ply 1"):
        api.state(game5(["f6"]))
    with pytest.raises(GameError, match="ply 1: skip, but Red can place"):
        api.state(game5(["skip"]))
    for bad in ([], None, {"size": 5, "moves": "c3"}, {"size": 5, "moves": [3]}, {"start": 5}):
        with pytest.raises(GameError):
            api.state(bad)


def test_a_full_game_ends_with_its_chain_and_its_record_loads_back(api: Api) -> None:
    for n, seed in ((3, 1), (5, 2), (9, 3)):
        game = random_game(api, n, seed)
        st = api.state(game)
        g = Game.from_record(parse_record(st["record"]))
        assert st["over"] and st["winner"] == g.winner() and st["result"] in ("1-0", "0-1")
        assert st["legal"] == [] and st["chain"] == list(g.grid.names(g.winner_chain())) != []
        assert set(st["chain"]) <= {g.grid.name(p) for p in range(n * n) if st["points"][p] == st["winner"]}
        assert api.load(st["record"]) == game
        with pytest.raises(GameError, match="game is over"):
            api.play(game, next(g.grid.name(p) for p in range(n * n) if st["points"][p] == "."))


def test_undo_takes_back_the_computers_reply_too(api: Api) -> None:
    game = random_game(api, 5, seed=4, plies=5)  # Red made plies 1, 3, 5
    assert api.undo(game, ["r"])["moves"] == game["moves"][:4]
    assert api.undo(game, ["b"])["moves"] == game["moves"][:3]
    assert api.undo(game, ["r", "b"])["moves"] == game["moves"][:4]
    assert api.undo(game, [])["moves"] == game["moves"][:4]  # two computers: one placement
    one = api.play(api.new_game(5), "c3")
    assert not api.state(one, humans=["b"])["can_undo"]
    with pytest.raises(GameError, match="nothing to take back"):
        api.undo(one, ["b"])
    with pytest.raises(GameError, match="humans"):
        api.undo(one, ["x"])


@pytest.mark.parametrize(
    ("case", "kind", "area", "banned", "culprit"),
    [
        (NDE, "nde", ["c2", "d2", "e2"], [], ["d2"]),
        (BAD_ONE, "nde", ["d5", "d4", "d3"], ["r"], ["d5"]),
        (BAD_BOTH, "nde", ["b5", "b4"], ["r", "b"], ["b5"]),
    ],
)
def test_an_nde_ban_names_its_area_whether_bad_and_its_culprit(
    api: Api, case: tuple[list[str], str], kind: str, area: list[str], banned: list[str], culprit: list[str]
) -> None:
    moves, point = case
    ban = api.explain(game5(moves), point)
    assert ban is not None and ban["kind"] == kind and ban["move"] == point
    assert (ban["area"], ban["banned"], ban["bad"], ban["culprit"]) == (area, banned, bool(banned), culprit)
    engine = explain(
        Game(Position.empty(5), [Grid.get(5).point(m) for m in moves]).position,
        Grid.get(5).point(point),
        ban["colour"],
    )
    assert isinstance(engine, LeavesNDE) and engine.bad == ban["bad"]
    text = ban["text"]
    assert text.startswith(f"{'Red' if ban['colour'] == RED else 'Blue'} on {point} would leave")
    assert ("banned and disconnected" in text) == bool(banned) and "\n" not in text
    assert f". {culprit[0]} could never be filled." in text


def test_a_naked_diagonal_ban_names_the_partner_and_the_shared_points(api: Api) -> None:
    moves, point = NAKED
    ban = api.explain(game5(moves), point)
    assert ban == {
        "kind": "naked",
        "move": "d4",
        "colour": "r",
        "partner": "c3",
        "shared": ["c4", "d3"],
        "text": "Red on d4 would form a naked diagonal with c3: neither c4 nor d3 holds a red stone.",
    }
    assert api.explain(game5(moves), "c4") is None
    taken = api.explain(game5(moves), "A1")
    assert (
        taken is not None
        and taken["kind"] == "occupied"
        and taken["text"] == "a1 already holds a blue stone."
    )
    for bad in ("f6", "x"):
        off = api.explain(game5(moves), bad)
        assert off == {"kind": "off_board", "move": bad, "colour": "r",
                       "text": f"{bad} is not a point of the 5x5 board."}
    with pytest.raises(GameError, match="move must be a point name"):
        api.explain(game5(moves), 3)


def test_explain_agrees_with_the_legal_placements(api: Api) -> None:
    kinds = set()
    for seed in range(4):
        game = api.new_game(5)
        rng = random.Random(seed)
        while True:
            st = api.state(game)
            if st["over"]:
                ban = api.explain(game, "a1")
                assert ban is not None and ban["kind"] == "over" and "has won" in ban["text"]
                break
            for i, name in enumerate(Grid.get(5).names((1 << 25) - 1)):
                ban = api.explain(game, name)
                assert (ban is None) == (name in st["legal"]), (game, name, ban)
                if ban is not None:
                    kinds.add(ban["kind"])
                    assert ban["colour"] == st["turn"] and (ban["kind"] == "occupied") == (
                        st["points"][i] != "."
                    )
                    if ban["kind"] == "naked":
                        assert st["points"][Grid.get(5).point(ban["partner"])] == st["turn"]
                        assert all(st["points"][Grid.get(5).point(s)] != st["turn"] for s in ban["shared"])
            game = api.play(game, rng.choice(st["legal"]))
    assert kinds == {"occupied", "naked", "nde"}


def test_an_nde_ban_on_a_big_area_counts_its_points(api: Api) -> None:
    ban = api.explain(game5(["c5", "c4", "a4"]), "a5")
    assert ban is not None and ban["kind"] == "nde" and len(ban["area"]) == 21 and not ban["bad"]
    assert "the 21 points outlined" in ban["text"] and "b5 could never be filled" in ban["text"]


@pytest.mark.parametrize(
    ("link", "moves", "problem"),
    [
        (
            game5(["c3", "C3", "a1"]),
            ["c3"],
            "move 2 of the link, c3, is taken already, so it and the 1 after",
        ),
        (
            game5(["c3", "a1", "d4"]),
            ["c3", "a1"],
            "move 3 of the link, d4, would form a naked diagonal with c3",
        ),
        (
            game5(["zz9"]),
            [],
            "move 1 of the link, zz9, is not a point of the 5x5 board, so it was not played",
        ),
        (game5(["skip"]), [], "move 1 of the link, skip, is a skip, but Red can place"),
        (
            game5([*NDE[0], "d1"]),
            NDE[0],
            "move 11 of the link, d1, would leave an area that no sequence of placements can fill (NDE)",
        ),
        (game5([5]), [], "move 1 of the link, 5, is not a point name"),
        (game5(["c3", "é"]), ["c3"], "move 2 of the link, 'é', is not a point of the 5x5 board"),
        (
            {"size": 99, "moves": ["c3"]},
            [],
            "the board size of the link is refused: a 99x99 board is not offered here (the boards are 3x3 to "
            "13x13); an empty 9x9 board is shown and its 1 move was not played",
        ),
        ({"size": 5, "start": "x"}, [], "the start position of the link is refused: position 'x': expected"),
        ("junk", [], "the link holds no game"),
        (game5(["c3", "a1"]), ["c3", "a1"], None),
    ],
)
def test_salvage_keeps_the_playable_beginning_of_a_link(
    api: Api, link: Any, moves: list[str], problem: str | None
) -> None:
    out = api.salvage(link)
    assert out["game"]["moves"] == moves
    if problem is None:
        assert out["problem"] is None
    else:
        assert out["problem"] is not None and out["problem"].startswith(problem), out["problem"]
        assert "\n" not in out["problem"]


def test_salvage_of_a_finished_game_and_a_long_link(api: Api) -> None:
    game = random_game(api, 3, seed=5)
    out = api.salvage({**game, "moves": [*game["moves"], "a1"]})
    assert out["game"] == game and "comes after the end of the game" in out["problem"]
    long = api.salvage(game5(["c3", "a1", "e5"] * 3000))
    assert long["game"]["moves"] == ["c3", "a1", "e5"] and "and the 8996 after it" in long["problem"]


def test_records_load_and_are_refused_in_one_line(api: Api) -> None:
    game = api.load('[Game "Naked Diagonal"]\n[Board "5x5"]\n1. c3 a1 *')
    assert game == game5(["c3", "a1"])
    start = api.load('[Position "..R../...../...../...../..... b"]\n1... c4 *')
    assert start == {"size": 5, "start": "..R../...../...../...../..... b", "moves": ["c4"]}
    assert api.state(start)["turn"] == "r" and api.state(start, ply=0)["points"][2] == "r"
    for text, words in [
        ('[Board "5x5"]\n1. c3 a1 2. d4 *', "ply 3, d4: Red on d4 forms a naked diagonal with c3"),
        ('[Board "15x15"]\n*', r"record: a 15x15 board is not offered here \(the boards are 3x3 to 13x13\)"),
        ('[Board "2x2"]\n*', "2x2 board is not offered"),
        # The page's range, whatever the engine's (1 to 26): one message for every size not offered.
        ('[Board "99x99"]\n*', r"record: a 99x99 board is not offered here \(the boards are 3x3 to 13x13\)"),
        ('[Board "27"]\n1. a1 *', r"record: a 27x27 board is not offered here \(the boards are 3x3 to"),
        ('[Board "1000x1000"]\n*', r"record: a 1000x1000 board is not offered here \(the boards"),
        ('[Position "R r"]\n*', r"record: a 1x1 board is not offered here \(the boards are 3x3 to 13x13\)"),
        (f'[Position "{"/".join(["." * 30] * 30)} r"]\n*', r"record: a 30x30 board is not offered here"),
        ('[Game "Unitile"]\n*', "is not Naked Diagonal"),
        ('[Position "RR..R/...../.BBBR/.B.../..RRB b"]\n*', "record: the start position leaves the NDE area"),
        (7, "record must be text"),
    ]:
        with pytest.raises(GameError, match=words):
            api.load(text)


def test_a_start_with_an_nde_area_is_refused() -> None:
    """No placement is legal in a position that holds an NDE area, so the page never plays from one."""
    api = Api()
    start = "RR..R/...../.BBBR/.B.../..RRB b"  # the NDE case after Red's d1
    assert Position.parse(start).winner() is None
    with pytest.raises(GameError, match="the start position leaves the NDE area c2 d2 e2: no placement"):
        api.state({"size": 5, "start": start, "moves": []})
    with pytest.raises(GameError, match="leaves the NDE area"):
        api.load(f'[Position "{start}"]\n*')
    assert "leaves the NDE area" in api.salvage({"size": 5, "start": start, "moves": []})["problem"]


def perfect_offered() -> list[int]:
    """The offered sizes with level 6: 3x3 and 4x4 (tables), and any whose folder holds a strategy (5x5,
    a stored proof, once it is in tables/naked-diagonal/)."""
    return sorted({3, 4, *(n for n in strategy_sizes() if n in SIZES)})


def perfect_text() -> str:
    names = [f"{n}x{n}" for n in perfect_offered()]
    return f"{', '.join(names[:-1])} and {names[-1]}"


def test_the_computer_and_the_hint_are_legal_and_reproducible(api: Api) -> None:
    game = random_game(api, 7, seed=6, plies=6)
    st = api.state(game)
    for level in (1, 2, 3):
        move = api.computer_move(game, level, 11)
        assert move in st["legal"] and move == api.computer_move(game, level, 11)
    hint = api.hint(game)
    assert hint in st["legal"] and hint == api.hint(game)
    for level, seed, words in [
        (0, 1, "level 0"),
        (6, 1, f"level 6 \\(perfect play\\) plays on {perfect_text()} only, not on 7x7"),
        (7, 1, "level 7: expected one of 1, 2, 3, 4, 5, 6"),
        ("3", 1, "level must"),
        (3, 1.5, "seed must"),
    ]:
        with pytest.raises(GameError, match=words):
            api.computer_move(game, level, seed)
    over = random_game(api, 3, seed=7)
    with pytest.raises(GameError, match="game is over"):
        api.hint(over)
    with pytest.raises(GameError, match="game is over"):
        api.computer_move(over, 1, 1)


@pytest.mark.parametrize("n", [3, 4])
def test_level_6_and_the_hint_play_perfectly_where_the_size_has_tables(api: Api, n: int) -> None:
    """On 3x3 and 4x4 level 6 plays from the tables (every choice one of their best), and the hint is
    its choice; a game of level 6 against itself ends as the tables say (3x3: Red in 9, 4x4: Blue in 16)."""
    info = api.info()
    assert info["perfect"] == 6 and info["perfect_sizes"] == perfect_offered()
    tables = tables_for(n)
    game = api.new_game(n)
    while not (st := api.state(game))["over"]:
        position = Position.parse(st["position"])
        best = {position.grid.name(p) for p in tables.best(position)}
        move = api.computer_move(game, 6, 5)
        assert move in best and api.hint(game) in best and move == api.computer_move(game, 6, 5)
        game = api.play(game, move)
    assert (st["winner"], st["plies"]) == (("r", 9) if n == 3 else ("b", 16))


def test_replaying_reuses_the_last_game_and_agrees_with_a_fresh_service(api: Api) -> None:
    game = random_game(api, 9, seed=8, plies=30)
    fresh = Api()
    for cut in (30, 12, 29, 0, 30, 5):
        part = {**game, "moves": game["moves"][:cut]}
        assert api.state(part) == fresh.state(part)
        fresh = Api()


def test_handle_routes_the_nd_requests() -> None:
    def call(op: str, **args: Any) -> Any:
        return json.loads(handle(json.dumps({"op": op, "args": args})))

    assert call("nd_new_game", size=5) == {"ok": True, "result": game5([])}
    game = call("nd_play", game=game5(["c3"]), move="a1")["result"]
    assert game == game5(["c3", "a1"])
    assert call("nd_state", game=game)["result"]["turn"] == "r"
    assert call("nd_explain", game=game, move="d4")["result"]["kind"] == "naked"
    assert call("nd_info")["result"]["levels"] == [1, 2, 3, 4, 5]
    refused = call("nd_play", game=game, move="d4")
    assert refused == {"ok": False, "error": "ply 3, d4: Red on d4 forms a naked diagonal with c3"}
    assert call("nd_nope")["error"] == "unknown request 'nd_nope'"
    assert call("nd_state", game=game, colour="r")["ok"] is False
    # The Unitile requests are as they were.
    assert call("new_game") == {"ok": True, "result": {"start": None, "moves": []}}


def test_naked_diagonal_and_leaves_nde_are_the_engines(api: Api) -> None:
    """The kinds the page draws come from the engine's bans, one for one."""
    grid = Grid.get(5)
    position = Game(Position.empty(5), [grid.point(m) for m in NAKED[0]]).position
    ban = explain(position, grid.point(NAKED[1]), "r")
    assert isinstance(ban, NakedDiagonal) and grid.name(ban.partner) == "c3"


def test_a_size_that_is_not_the_start_positions_is_refused(api: Api) -> None:
    """Issue 35: a link ``#n=5&p=<a 3x3 position>`` silently played the 3x3 position, n ignored."""
    start = ".../.R./... b"
    out = api.salvage({"size": 5, "start": start, "moves": ["a1"]})
    assert out == {
        "game": {"size": 5, "start": None, "moves": []},
        "problem": "the start position of the link is refused: the board size 5 is not the start position's "
        "3x3; an empty 5x5 board is shown and its 1 move was not played",
    }
    assert "the board size 'x' is not" in api.salvage({"size": "x", "start": start, "moves": []})["problem"]
    for request in ("state", "play"):  # every request, one rule
        args: dict[str, Any] = {"game": {"size": 5, "start": start, "moves": []}}
        if request == "play":
            args["move"] = "a1"
        reply = json.loads(handle(json.dumps({"op": f"nd_{request}", "args": args})))
        assert reply == {"ok": False, "error": "the board size 5 is not the start position's 3x3"}
    assert api.salvage({"size": 3, "start": start, "moves": ["a1"]})["problem"] is None
    assert api.salvage({"start": start, "moves": []})["game"]["size"] == 3  # no size: the start's


@pytest.mark.parametrize("start", [".../.../..B b", "..../..../..../...B b"])
def test_a_start_the_tables_do_not_hold_gets_level_5s_hint(start: str) -> None:
    """Issue 35 (fuzzing): on a solved size, a custom start that play from the empty board never reaches
    is a game the page allows, but the hint and level 6 failed with "position 'B../.../..B r': not
    reachable from the empty board", naming a position the player never saw. They play level 5's
    choice there and say so."""
    game = {"start": start, "moves": []}

    def ask(op: str, **args: Any) -> Any:
        reply = json.loads(handle(json.dumps({"op": op, "args": {"game": game, **args}})))
        assert reply["ok"], reply
        return reply["result"]

    legal = ask("nd_state")["legal"]
    assert ask("nd_hint") in legal and ask("nd_computer_move", level=6, seed=1) in legal
    assert ask("nd_hint_source") == UNREACHABLE


def _perfect(board: reference.Board, side: str, memo: dict[tuple[reference.Board, str], tuple[bool, int]]
             ) -> tuple[bool, int]:
    """Brute force, with the reference rules alone: whether ``side`` wins with perfect play and in how
    many placements (the fastest win, the slowest loss)."""
    key = (board, side)
    if key not in memo:
        won = reference.winner(board)
        if won is not None:
            memo[key] = (won == side.upper(), 0)
        else:
            mine = reference.legal_placements(board)[0 if side == "r" else 1]
            memo[key] = max((_mover_after(board, side, p, memo) for p in mine),
                            key=lambda r: (r[0], -r[1] if r[0] else r[1]))
    return memo[key]


def _mover_after(board: reference.Board, side: str, p: int,
                 memo: dict[tuple[reference.Board, str], tuple[bool, int]]) -> tuple[bool, int]:
    """The mover's result with perfect play after placing on ``p``, counting the placement."""
    child, next_side = reference.after(board, side, p)
    wins, n = _perfect(child, next_side, memo)
    return (wins if next_side == side else not wins), n + 1


def test_the_analysis_agrees_with_a_brute_force_solve_of_3x3(api: Api) -> None:
    memo: dict[tuple[reference.Board, str], tuple[bool, int]] = {}
    rng = random.Random(7)
    checked = 0
    for _ in range(4):
        game = random_game(api, 3, rng.randrange(1000), plies=rng.randrange(1, 4))
        st = api.state(game, analysis=True)
        board, side = reference.board_of(st["position"])
        expected = {api.replay(game).grid.name(p): _mover_after(board, side, p, memo)
                    for p in reference.legal_placements(board)[0 if side == "r" else 1]}
        found = {name: (a["result"] == "win", a["placements"]) for name, a in st["analysis"].items()}
        assert found == expected
        checked += len(expected)
    assert checked > 10


def test_the_analysis_is_none_where_the_tables_cannot_say(api: Api) -> None:
    assert api.state(api.new_game(5), analysis=True)["analysis"] is None
    assert "analysis" not in api.state(api.new_game(4))
    # A start that play from the empty board never reaches: two red stones and no blue one.
    unreachable = {"size": 4, "start": "R.R./..../..../.... b", "moves": []}
    assert api.state(unreachable, analysis=True)["analysis"] is None
    finished = random_game(api, 4, 3)
    assert api.state(finished, analysis=True)["analysis"] == {}
    assert api.info()["table_sizes"] == [3, 4]


@pytest.mark.skipif(5 not in strategy_sizes(), reason="the 5x5 stored proof is not in tables/naked-diagonal/")
def test_level_6_off_the_stored_proof_says_level_5_played(api: Api) -> None:
    """On 5x5 the proof wins for Red. Red's a1 is off its lines: Blue's level 6 plays level 5's choice,
    and neither it nor the hint says the proof wins for the opponent, which it says only where the proof
    holds the position (Red's c3, the proof's own opening)."""
    hints.forget()
    off = game5(["a1"])
    move = api.computer_move(off, 6, 3)
    assert api.hint_source(off) == perfect.FALLBACK  # remembered from the computer's placement
    assert move in api.state(off)["legal"]
    hints.forget()
    assert api.hint_source(off) == perfect.FALLBACK  # the hint's own search
    assert api.hint_source(game5(["c3"])) == perfect.UNPROVEN_DEFENCE
