"""The "play" request with a ``view`` answers the new game and its state at once (a move is one request
of the page), the same as "play" then "state"; a bad view is one line."""

from __future__ import annotations

import json
from typing import Any

import pytest

from unitile_py.webapi import handle


def ask(op: str, **args: Any) -> Any:
    return json.loads(handle(json.dumps({"op": op, "args": args})))


@pytest.mark.parametrize(("prefix", "game", "move", "view"), [
    ("ut_", {"start": None, "moves": ["c2"]}, "b2", {"humans": ["r"], "analysis": False}),
    ("nd_", {"size": 5, "start": None, "moves": ["c3"]}, "b2", {"humans": ["r", "b"], "analysis": True}),
])
def test_play_with_a_view_is_play_then_state(prefix: str, game: dict[str, Any], move: str,
                                             view: dict[str, Any]) -> None:
    played = ask(f"{prefix}play", game=game, move=move)["result"]
    state = ask(f"{prefix}state", game=played, **view)["result"]
    assert ask(f"{prefix}play", game=game, move=move, view=view) == {
        "ok": True, "result": {"game": played, "state": state}}


@pytest.mark.parametrize("prefix", ["ut_", "nd_"])
@pytest.mark.parametrize(("view", "error"), [
    ([], "view must be an object of the state request's arguments"),
    ({"game": {}}, "view: multiple values for argument 'game'"),
    ({"colour": "r"}, "view: got an unexpected keyword argument 'colour'"),
])
def test_a_bad_view_is_one_line(prefix: str, view: Any, error: str) -> None:
    game = {"start": None, "moves": []} if prefix == "ut_" else {"size": 5, "start": None, "moves": []}
    assert ask(f"{prefix}play", game=game, move="c2", view=view) == {"ok": False, "error": error}
