"""The computer's requests in slices (issue 34): a search run in pieces chooses exactly what it chooses
in one call, a request answered by :class:`unitile_py.webapi.Task` gets :func:`handle`'s reply while
other requests run between its slices, a cancelled one leaves nothing behind, and the search levels'
playouts per board size keep every level's time per move within its 9x9 time."""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path
from typing import Any

import pytest

from unitile_py import webapi
from unitile_py.mcts import CHUNK, RaveSearch, choose_move, choose_steps, finish
from unitile_py.naked_diagonal import hints as nd_hints
from unitile_py.naked_diagonal import webapi as nd_webapi
from unitile_py.naked_diagonal.players import (
    FULL_SIZE,
    LEVELS,
    PLAYOUTS,
    SearchPlayer,
    hint,
    make_player,
    playouts_for,
)
from unitile_py.naked_diagonal.position import Position
from unitile_py.naked_diagonal.search import QuickDomain
from unitile_py.unitile import webapi as unitile_webapi
from unitile_py.unitile.tables import tables_for

ROOT = Path(__file__).resolve().parents[2]


def request(op: str, **args: Any) -> str:
    return json.dumps({"op": op, "args": args})


def sliced(text: str, seconds: float = 0.0) -> tuple[str, int]:
    """The reply of a request answered in slices of ``seconds`` (0: one piece each), and the slices."""
    task = webapi.start(text)
    slices = 1
    while (reply := task.step(seconds)) is None:
        slices += 1
    return reply, slices


def game(size: int, moves: list[str]) -> dict[str, Any]:
    return {"size": size, "start": None, "moves": moves}


def test_a_search_in_pieces_visits_as_one_run_does() -> None:
    p = Position.empty(6)
    domain = QuickDomain(p.grid)
    whole = RaveSearch(domain, random.Random(4)).run(p, "r", 203)
    pieces = RaveSearch(domain, random.Random(4))
    pieces.start(p, "r")
    for count in (1, 50, 0, 7, 145):
        pieces.play(count)
    assert pieces.stats() == whole


@pytest.mark.parametrize("n", [5, 7])
def test_choose_steps_pauses_every_chunk_and_returns_choose_moves_move(n: int) -> None:
    p = Position.empty(n)
    domain = QuickDomain(p.grid)
    for seed in range(4):
        steps = choose_steps(domain, p, "r", 100, random.Random(seed), search=RaveSearch)
        pauses = 0
        while True:
            try:
                next(steps)
            except StopIteration as stop:
                move = stop.value
                break
            pauses += 1
        assert pauses == -(-100 // CHUNK)
        assert move == choose_move(domain, p, "r", 100, random.Random(seed), search=RaveSearch)


@pytest.mark.parametrize(
    ("size", "moves", "level"),
    [(5, ["c3"], 5), (9, [], 4), (9, ["e5", "d4", "e3"], 5), (13, ["g7"], 3), (13, [], 5)],
)
def test_a_computer_move_in_slices_is_the_move_of_one_call(size: int, moves: list[str], level: int) -> None:
    text = request("nd_computer_move", game=game(size, moves), level=level, seed=11)
    reply, slices = sliced(text)
    assert slices > 5  # really in pieces
    assert reply == webapi.handle(text) and json.loads(reply)["ok"]
    point = json.loads(reply)["result"]
    position = nd_webapi.API.replay(game(size, moves)).position
    assert point == position.grid.name(make_player(level, 11).choose(position))


def test_the_hint_in_slices_is_the_hint_of_one_call() -> None:
    g = game(11, ["f6", "e5"])
    reply, slices = sliced(request("nd_hint", game=g), 0.001)
    assert slices > 2
    position = nd_webapi.API.replay(g).position
    assert json.loads(reply) == {"ok": True, "result": position.grid.name(hint(position))}


def test_unitiles_computer_move_in_slices_is_the_move_of_one_call(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(unitile_webapi.API, "tables", tables_for("5x5"))
    monkeypatch.setattr(unitile_webapi.API, "_players", {})
    g = {"start": None, "moves": ["c2"]}
    for level in (3, 4, 5):
        text = request("computer_move", game=g, level=level, seed=3)
        reply, _ = sliced(text)
        assert reply == webapi.handle(text) and json.loads(reply)["ok"]


def test_short_requests_and_refusals_come_back_in_one_slice() -> None:
    assert sliced(request("nd_new_game", size=7), 0.0) == (webapi.handle(request("nd_new_game", size=7)), 1)
    bad = request("nd_computer_move", game=game(9, []), level=9, seed=1)
    assert sliced(bad, 0.0) == (webapi.handle(bad), 1)
    assert "level 9" in json.loads(webapi.handle(bad))["error"]
    assert sliced("[1]") == ('{"ok": false, "error": "request must be a JSON object"}', 1)


def test_other_requests_between_the_slices_are_answered_and_change_nothing() -> None:
    """A computer move on one game while the page replays others between its slices (an undo, a
    state, a move on another size): every reply is the one each request gets alone."""
    moves = ["g7", "f6", "h7"]
    text = request("nd_computer_move", game=game(13, moves), level=4, seed=2)
    alone = webapi.handle(text)
    others = [
        request("nd_undo", game=game(13, moves), humans=["r"]),
        request("nd_state", game=game(13, moves[:1])),
        request("nd_play", game=game(7, ["d4"]), move="c3"),
        request("nd_computer_move", game=game(7, ["d4", "c3"]), level=2, seed=1),
    ]
    expected = [webapi.handle(o) for o in others]
    assert all(json.loads(e)["ok"] for e in expected) and json.loads(alone)["ok"]
    task = webapi.start(text)
    got = []
    while (reply := task.step(0.0)) is None:
        other = others[len(got) % len(others)]
        got.append((other, webapi.handle(other)))
    assert len(got) > len(others)
    assert all(answer == expected[others.index(o)] for o, answer in got)
    assert reply == alone


def test_a_cancelled_request_leaves_nothing_behind() -> None:
    g = game(9, ["e5", "d4"])
    position = nd_webapi.API.replay(g).position
    nd_hints.forget()
    task = webapi.start(request("nd_hint", game=g))
    for _ in range(5):
        assert task.step(0.0) is None
    task.cancel()
    assert task.step(1.0) is None and task.cancelled
    assert nd_hints.remembered() == 0  # no half-searched hint remembered
    fresh = webapi.handle(request("nd_hint", game=g))
    assert json.loads(fresh)["result"] == position.grid.name(hint(position))
    move = request("nd_computer_move", game=g, level=5, seed=8)
    task = webapi.start(move)
    task.step(0.0)
    task.cancel()
    assert webapi.handle(move) == sliced(move)[0]


def test_the_playouts_per_size_keep_each_levels_work_and_order() -> None:
    for level in LEVELS[1:]:
        full = PLAYOUTS[level] * FULL_SIZE**2
        for n in range(3, 14):
            count = playouts_for(level, n)
            if n <= FULL_SIZE:
                assert count == PLAYOUTS[level]
            else:  # the 9x9 work (playouts times points), rounded down
                assert full - n * n < count * n * n <= full
    for n in range(3, 14):
        counts = [playouts_for(level, n) for level in LEVELS[1:]]
        assert counts == sorted(set(counts)), (n, counts)  # a stronger level searches more on every size
    assert [playouts_for(5, n) for n in (9, 11, 13)] == [2200, 1472, 1054]


@pytest.mark.parametrize(("level", "n"), [(2, 13), (3, 11), (4, 9), (5, 13), (2, 5)])
def test_a_search_player_plays_its_sizes_playouts(level: int, n: int) -> None:
    """The pieces of a search are CHUNK playouts each: their number shows how many it plays."""
    steps = SearchPlayer(1, level).steps(Position.empty(n))
    pauses = 0
    try:
        while True:
            next(steps)
            pauses += 1
    except StopIteration:
        pass
    assert pauses == -(-playouts_for(level, n) // CHUNK)
    assert finish(SearchPlayer(1, level, playouts=16).steps(Position.empty(n))) == SearchPlayer(
        1, level, playouts=16
    ).choose(Position.empty(n))


def test_a_deadline_cuts_a_search_short_and_finish_never_does() -> None:
    text = request("nd_computer_move", game=game(13, ["g7"]), level=5, seed=4)
    task = webapi.start(text, deadline=0.05)
    while (reply := task.step(0.01)) is None:
        pass
    assert task.hurried and task.worked < 1.0
    point = json.loads(reply)["result"]
    assert point in nd_webapi.API.state(game(13, ["g7"]))["legal"]
    calm = webapi.start(text, deadline=60.0)
    while calm.step(0.01) is None:
        pass
    assert not calm.hurried and calm.reply == webapi.handle(text)


def test_level_6_on_a_stored_proof_in_pieces_is_level_6_in_one_call() -> None:
    """5x5 (a strategy): off the proof, level 6 searches exactly and plays level 5; in pieces both
    pause, and the point and its source are those of one call."""
    from unitile_py.naked_diagonal.game import Game
    from unitile_py.naked_diagonal.players import PERFECT, PerfectPlayer, perfect_sizes

    if 5 not in perfect_sizes():
        pytest.skip("no 5x5 strategy in this checkout")
    rng = random.Random(3)
    paused_sources = set()
    for _ in range(2):
        g = Game(Position.empty(5))
        while not g.is_over() and g.ply < 12:
            g.push(rng.choice(g.legal_moves()))
            if g.is_over():
                break
            position = g.position
            steps = PerfectPlayer(7).why_steps(position)
            pauses = 0
            while True:
                try:
                    next(steps)
                except StopIteration as stop:
                    found = stop.value
                    break
                pauses += 1
            assert found == PerfectPlayer(7).choose_why(position)
            if pauses:
                paused_sources.add(found[1])
    assert len(paused_sources) >= 2, paused_sources
    text = request("nd_computer_move", game=game(5, ["a1", "e5"]), level=PERFECT, seed=2)
    assert sliced(text)[0] == webapi.handle(text)


#: An example of every request of both games, each one that may search given a position where it does
#: (Naked Diagonal's 7x7 has neither tables nor a stored proof: its hint is level 5's search).
EXAMPLES: dict[str, dict[str, Any]] = {
    "games": {}, "preload": {},
    "ut_load_tables": {"directory": str(ROOT / "tables"), "check_records": False},
    "ut_info": {}, "ut_new_game": {},
    "ut_state": {"game": {"start": None, "moves": ["c2"]}, "analysis": True},
    "ut_load": {"text": "c2"},
    "ut_play": {"game": {"start": None, "moves": ["c2"]}, "move": "b2"},
    "ut_undo": {"game": {"start": None, "moves": ["c2"]}, "humans": ["r"]},
    "ut_explain": {"game": {"start": None, "moves": ["c2"]}, "move": "a1"},
    "ut_salvage": {"game": {"start": None, "moves": ["c2", "a1"]}},
    "ut_hint": {"game": {"start": None, "moves": ["c2"]}, "seed": 3},
    "ut_computer_move": {"game": {"start": None, "moves": ["c2"]}, "level": 5, "seed": 3},
    "ut_review": {"game": {"start": None, "moves": ["c2", "b2"]}},
    "ut_puzzle": {"index": 0}, "ut_puzzle_try": {"index": 0, "move": "a1"},
    "ut_records": {"text": '[Red "a"]\n1. c2 *\n\n[Red "b"]\n1. b2 *'},
    "nd_info": {}, "nd_new_game": {"size": 7},
    "nd_state": {"game": game(7, ["d4"]), "analysis": True},
    "nd_load": {"text": "d4 c3"},
    "nd_play": {"game": game(7, ["d4"]), "move": "c3"},
    "nd_undo": {"game": game(7, ["d4", "c3"]), "humans": ["r"]},
    "nd_explain": {"game": game(7, ["d4"]), "move": "e5"},
    "nd_salvage": {"game": game(7, ["d4", "e5"])},
    "nd_hint": {"game": game(7, ["d4", "c3"])},
    "nd_hint_source": {"game": game(7, ["d4", "c5"])},
    "nd_computer_move": {"game": game(7, ["d4"]), "level": 5, "seed": 1},
    "nd_review": {"game": game(4, ["b2", "c3"])},
    "nd_puzzle": {"size": 4, "index": 0}, "nd_puzzle_try": {"size": 4, "index": 0, "move": "a1"},
    "nd_records": {"text": "1. b2 *\n\n1. a1 b1 *"},
}


def test_every_request_that_searches_is_answered_in_pieces(monkeypatch: pytest.MonkeyPatch) -> None:
    """A search is a computation in pieces (:data:`unitile_py.mcts.Steps`); a request runs one to its
    end in a single slice only through :func:`unitile_py.mcts.finish`. So every request of both games,
    answered by :class:`unitile_py.webapi.Task` one piece a slice, must never get there with a search
    that pauses: a request that searches and is not among its game's ``STEPS`` fails here."""
    assert set(EXAMPLES) == webapi.routes().names, "give every request an example here"
    monkeypatch.setattr(unitile_webapi.API, "tables", tables_for("5x5"))
    monkeypatch.setattr(unitile_webapi.API, "_players", {})
    monkeypatch.setattr(nd_hints, "_found", {})
    pauses: list[int] = []
    whole = finish

    def counted(steps: Any) -> Any:
        # The legality engine's own pieces (pauses between the turns of its exhaustive search, which the
        # requests' warming on an unseen start uses: naked_diagonal/warming.py) run whole inside other
        # computations by design, as a position's legal points do; the searches here are the requests'.
        engine_piece = Path(steps.gi_code.co_filename).name in ("areas.py", "legality.py")
        while True:
            try:
                next(steps)
            except StopIteration as stop:
                return stop.value
            pauses[-1] += 0 if engine_piece else 1

    for name, module in list(sys.modules.items()):
        if name.startswith("unitile_py") and getattr(module, "finish", None) is whole:
            monkeypatch.setattr(module, "finish", counted)
    unstepped, slices = {}, {}
    for op, args in sorted(EXAMPLES.items()):
        pauses.append(0)
        task = webapi.start(request(op, **args))
        slices[op] = 1
        while (reply := task.step(0.0)) is None:
            slices[op] += 1
        assert "internal error" not in reply, (op, reply)
        if pauses[-1]:
            unstepped[op] = pauses[-1]
    assert not unstepped, f"requests that search in one slice (pieces run whole): {unstepped}"
    # The examples do search: Naked Diagonal's searching requests paused between pieces.
    assert all(slices[op] > 1 for op in ("nd_hint", "nd_hint_source", "nd_computer_move")), slices
