"""A third game plugs in by its registry entry and its own subpackage alone (issue 49): tic-tac-toe
(tests/tictactoe) is played through the web API's one entry point and the command line, with no line of
a shared module changed for it."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.tictactoe import SPEC
from unitile_py import cli, registry, webapi

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture
def third_game() -> Iterator[None]:
    with registry.added(SPEC):
        yield


def ask(op: str, **args: Any) -> Any:
    reply = json.loads(webapi.handle(json.dumps({"op": op, "args": args})))
    assert reply["ok"], reply
    return reply["result"]


def test_it_is_small() -> None:
    lines = sum(len(p.read_text().splitlines()) for p in (ROOT / "tests" / "tictactoe").glob("*.py"))
    assert lines < 150


def test_a_game_through_the_web_api(third_game: None) -> None:
    assert {"key": "ttt", "name": "Tic-tac-toe", "author": "tradition", "prefix": "ttt_"} in ask("games")
    game = ask("ttt_new_game")
    moves = ["a1", "b2", "c3", "b1", "b3", "a3", "c1", "c2", "a2"]
    for move in moves:
        reply = ask("ttt_play", game=game, move=move)
        game = reply["game"]
    assert game == {"moves": moves}
    assert reply["state"] == {"cells": "oxx" "xoo" "xox", "turn": "o", "result": "draw"}
    assert ask("ttt_state", game={"moves": ["a1", "a2", "b1", "b2", "c1"]})["result"] == "x"
    refused = json.loads(webapi.handle(json.dumps({"op": "ttt_play", "args": {"game": {"moves": ["a1"]},
                                                                               "move": "a1"}})))
    assert refused == {"ok": False, "error": "ply 2, a1: the cell is taken"}
    # The other games are still there, and the third game's stepped request runs in slices.
    assert ask("nd_new_game", size=5) == {"size": 5, "start": None, "moves": []}
    task = webapi.start(json.dumps({"op": "ttt_count", "args": {"upto": 50}}))
    slices = 1
    while task.step(0.0) is None:
        slices += 1
    assert slices > 1 and json.loads(task.reply or "") == {"ok": True, "result": 50}


def test_unknown_without_its_entry() -> None:
    assert json.loads(webapi.handle('{"op": "ttt_new_game"}'))["error"] == "unknown request 'ttt_new_game'"


def test_a_game_through_the_command_line(third_game: None, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["tic-tac-toe", "show", "a1", "a2", "b1", "b2", "c1"]) == 0
    assert capsys.readouterr().out == ". . .\no o .\nx x x\nx wins\n"
    assert cli.main(["ttt", "show", "a1", "a1"]) == 2
    assert capsys.readouterr().err.strip().endswith("ply 2, a1: the cell is taken")
    cli.build_parser().parse_args(["nd", "show", "..../..../..../.... r"])  # the others still there


def test_no_shared_module_names_it() -> None:
    shared = [*(ROOT / "unitile_py").glob("*.py"), *(ROOT / "pipeline").glob("*.py"),
              ROOT / "site" / "build.py", ROOT / "site" / "web" / "js" / "worker.js"]
    assert [p.name for p in shared if "tictactoe" in p.read_text() or "ttt_" in p.read_text()] == []
