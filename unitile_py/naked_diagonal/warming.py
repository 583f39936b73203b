"""Requests on a position the page has not seen, answered in pieces: what they will ask of the legality
engine is decided first, one empty region or one turn a piece, and the request itself then answers from
the engine's caches.

A start with large empty regions costs the exact engine most of a second on a slow machine (the crafted
13x13 starts of tests/game/naked_diagonal/test_bounded_work.py). Held in one piece, that is a worker the
page cannot interrupt; in pieces, :class:`unitile_py.webapi.Task` lets other messages through between
them (docs/naked-diagonal.md, "Requests in bounded time"). The answers are the same: each piece only
fills the caches that the request would have filled itself (:func:`.legality.engine`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..colours import other
from ..errors import GameError
from ..mcts import Steps
from ..records import split_record
from .game import Game
from .legality import engine
from .position import Position


def start_text(game: Any) -> str | None:
    """The start position text of a plain game (None: the empty board, nothing to decide)."""
    text = game.get("start") if isinstance(game, dict) else None
    return text if isinstance(text, str) else None


def record_start(text: Any) -> str | None:
    """The start position text of a record's ``Position`` header, if it has one."""
    if not isinstance(text, str):
        return None
    try:
        found = split_record(text).headers.get("Position")
    except GameError:
        return None
    return found if isinstance(found, str) else None


def region_steps(position: Position, colours: tuple[str, ...] = ()) -> Steps[None]:
    """Decide whether each empty region of ``position`` can be filled, one region a piece; with
    ``colours``, also their legal points in it (:meth:`.legality.Engine.region`)."""
    e = engine(position.grid)
    for area in position.grid.components(position.empty_points):
        if colours:
            yield from e.region_steps(area, position.red, position.blue, -1, colours)
        else:
            yield from e.fillable_steps(area, position.red, position.blue)
        yield


def warm_steps(start: str | None, moves: Any, replay: Callable[[dict[str, Any]], Game] | None,
               side: bool, move: Any = None, shown: bool = False) -> Steps[None]:
    """The pieces of work before a request on the game from ``start`` with ``moves``: the start's regions,
    then (with ``replay``, the service's own, which keeps the game it replays) one turn a piece, then
    (``side``) the legal points of the side to move in the position reached, or (a ``move`` named) that
    placement's legality and, when the state after it is ``shown`` too, the legal points of the side to
    move next. Anything refused stops the warming quietly: the
    request itself then says why, in its own words."""
    if start is None:
        return
    try:
        position = Position.parse(start)
    except GameError:
        return
    if position.winner() is not None:
        return
    yield from region_steps(position)
    if replay is None:
        return
    played = list(moves) if isinstance(moves, list) else []
    g: Game | None = None
    try:
        for k in range(len(played) + 1):
            g = replay({"size": position.grid.n, "start": start, "moves": played[:k]})
            yield
    except GameError:
        return
    if g is None or g.is_over():
        return
    now = g.position
    if side:
        yield from region_steps(now, (now.turn,))
    point = _point(now, move)
    e = engine(now.grid)
    if point is not None and (yield from e.candidate_steps(now.red, now.blue, point, now.turn)):
        placed = now.place(point, now.turn)
        if shown and placed.winner() is None:
            yield from region_steps(placed, (other(now.turn),))


def _point(position: Position, move: Any) -> int | None:
    """The empty point a move names, or None."""
    if not isinstance(move, str):
        return None
    try:
        point = position.grid.point(move.strip().lower(), "point")
    except (GameError, ValueError):
        return None
    return point if position.empty_points >> point & 1 else None


def warmed(op: Callable[..., Any], replay: Callable[[dict[str, Any]], Game] | None, side: bool,
           of_record: bool = False, stepped: bool = False) -> Callable[..., Steps[Any]]:
    """``op`` as a stepped request (:data:`unitile_py.webapi.Routes.steps`): :func:`warm_steps` first,
    on its ``game`` and ``move`` (or, ``of_record``, the start of its record ``text``), then ``op``
    itself (``stepped``: a request in pieces already, whose pieces follow)."""

    def steps(**args: Any) -> Steps[Any]:
        if of_record:
            yield from warm_steps(record_start(args.get("text")), None, None, False)
        else:
            game = args.get("game")
            moves = game.get("moves") if isinstance(game, dict) else None
            shown = args.get("view") is not None  # play's state after the move, in the same reply
            yield from warm_steps(start_text(game), moves, replay, side, args.get("move"), shown)
        if stepped:
            return (yield from op(**args))
        return op(**args)

    steps.__doc__ = f"The {op.__name__} request in pieces (:func:`warmed`)."
    return steps


__all__ = ["record_start", "region_steps", "start_text", "warm_steps", "warmed"]
