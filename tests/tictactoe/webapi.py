"""Tic-tac-toe's requests for :func:`unitile_py.webapi.handle` (under the prefix ``ttt_``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from unitile_py.errors import GameError
from unitile_py.mcts import Steps, finish

from .rules import play, winner


def _moves(game: Any) -> list[str]:
    if not isinstance(game, dict) or not isinstance(game.get("moves"), list):
        raise GameError("game must be an object with a list of moves")
    if not all(isinstance(m, str) for m in game["moves"]):
        raise GameError("every move must be a cell name")
    return list(game["moves"])


def new_game() -> dict[str, Any]:
    """The plain form of a new game."""
    return {"moves": []}


def state(game: Any) -> dict[str, Any]:
    """The grid, whose turn it is and the result."""
    cells = play(_moves(game))
    return {"cells": cells, "turn": "xo"[cells.count(".") % 2 == 0], "result": winner(cells)}


def play_move(game: Any, move: Any) -> dict[str, Any]:
    """The game after ``move``, and its state: one request a move."""
    if not isinstance(move, str):
        raise GameError("move must be a cell name")
    after = {"moves": [*_moves(game), move]}
    return {"game": after, "state": state(after)}


def count_steps(upto: Any) -> Steps[int]:
    """Count to ``upto`` in pieces: a request answered in steps, as searches are."""
    if not isinstance(upto, int) or not 0 <= upto <= 1000:
        raise GameError("upto must be a whole number from 0 to 1000")
    for _ in range(upto):
        yield
    return upto


def count(upto: Any) -> int:
    """:func:`count_steps` in one go."""
    return finish(count_steps(upto))


OPS: dict[str, Callable[..., Any]] = {"new_game": new_game, "state": state, "play": play_move, "count": count}
STEPS: dict[str, Callable[..., Steps[Any]]] = {"count": count_steps}
