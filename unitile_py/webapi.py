"""The site worker's one entry point: :func:`handle` routes each JSON request to its game's service.

A request ``{"op": name, "args": {...}}`` goes to the game of the registry (:mod:`unitile_py.registry`)
whose prefix starts its name: ``ut_`` Unitile's service (:mod:`unitile_py.unitile.webapi`; its old
bare names still work), ``nd_`` Naked Diagonal's (:mod:`unitile_py.naked_diagonal.webapi`); both
answer the names in :data:`unitile_py.service.REQUESTS`, and each a few of its own. Two requests
belong to no game: ``games`` lists the registry, ``preload`` imports every game's modules (the worker
asks it before it keeps its interpreter snapshot). The reply is ``{"ok": true, "result": ...}`` or
``{"ok": false, "error": one line}``, whatever was sent.

>>> handle('{"op": "ut_play", "args": {"game": {"start": null, "moves": []}, "move": "a1"}}')
'{"ok": false, "error": "ply 1, a1: not next to the bubble"}'
>>> handle('{"op": "nd_new_game", "args": {"size": 5}}')
'{"ok": true, "result": {"size": 5, "start": null, "moves": []}}'
>>> handle('[1]')
'{"ok": false, "error": "request must be a JSON object"}'

The computer's move and Naked Diagonal's hint can take a second or more, and a Web Worker cannot be
interrupted while Python runs. So :func:`start` begins a request as a :class:`Task`, whose
:meth:`Task.step` works on it for a slice of time and returns the reply once there is one: the worker
runs one slice, answers the page's other messages (a cancel among them), and runs the next. A search
keeps its tree in its generator between slices, so its answer is the same as :func:`handle`'s for the
same request, whatever the slices (the search counts playouts, not seconds). A task may also be given a
``deadline``, seconds of work after which a search answers from the playouts it has: a safety net for
a machine much slower than the one the playout counts were measured on (the page uses it; the
command line never does, so its seeded games stay reproducible everywhere).

>>> game = {"size": 7, "moves": ["d4"]}
>>> task = start(json.dumps({"op": "nd_computer_move", "args": {"game": game, "level": 5, "seed": 1}}))
>>> replies = [task.step(0.001) for _ in range(10_000)]
>>> replies.count(None) > 1, task.reply == handle(task.request)
(True, True)
"""

from __future__ import annotations

import inspect
import json
import re
import time
from collections.abc import Callable
from functools import cache
from typing import Any

from . import registry
from .coords import quote
from .errors import GameError
from .mcts import Steps, finish
from .registry import GameSpec
from .wire import Answered, GameEntry, Refused, Reply

#: Seconds of work in one :meth:`Task.step` unless told (the page answers a click within two slices).
SLICE = 0.02
#: Seconds of work after which the site's worker has a search answer from the playouts it has: the
#: playout counts hold the levels' budgets on the machines measured (docs/players.md), the deadline only
#: on a much slower or busier one.
DEADLINE = 1.5
#: Longest whole number a request may hold (a seed of 256 bits has 78 digits; Python refuses 4,300).
MAX_DIGITS = 100
#: Deepest nesting of arrays and objects a request may have (a request needs 4; Python's recursion limit,
#: which a program may raise, and a browser's stack are not what decides).
MAX_DEPTH = 32
#: A JSON string, or an unclosed one to the end of the request (whose brackets are no nesting): a match
#: never fails once it has begun, so the scan is linear (a failed match retried from each quote inside an
#: unclosed string made it quadratic in the request's length).
_STRING = re.compile(r'"(?:[^"\\]+|\\.)*"?', re.DOTALL)
_BRACKETS = re.compile(r"[\[\]{}]")


class Routes:
    """The requests of a set of games: ``ops`` every request by its full name (aliases too), ``steps``
    those answered in pieces (:class:`Task`), ``names`` every request once, under its game's prefix."""

    def __init__(self, games: tuple[GameSpec, ...]) -> None:
        self.ops: dict[str, Callable[..., Any]] = {"games": games_list, "preload": preload}
        self.steps: dict[str, Callable[..., Steps[Any]]] = {}
        self.names = set(self.ops)
        for game in reversed(games):  # the first game's names win a clash of aliases
            service = registry.load(game.service)
            for prefix in (*game.request_aliases, game.prefix):
                self.ops.update({prefix + name: op for name, op in service.OPS.items()})
                self.steps.update({prefix + name: op for name, op in service.STEPS.items()})
            self.names |= {game.prefix + name for name in service.OPS}


@cache
def _routes(games: tuple[GameSpec, ...]) -> Routes:
    return Routes(games)


def routes() -> Routes:
    """The requests of the games registered now."""
    return _routes(registry.games())


def games_list() -> list[GameEntry]:
    """The games this worker serves: ``key``, ``name``, ``author`` and request ``prefix`` of each."""
    return [GameEntry(key=g.key, name=g.name, author=g.author, prefix=g.prefix) for g in registry.games()]


def preload() -> list[str]:
    """Import every game's service and the modules it preloads (the worker asks this before it keeps
    its interpreter snapshot); the modules imported."""
    names = [name for g in registry.games() for name in (g.service, *g.preload)]
    for name in names:
        registry.load(name)
    return names


def _whole(digits: str) -> int:
    """A JSON whole number, refused when it is longer than any request needs."""
    if len(digits.lstrip("-")) > MAX_DIGITS:
        raise GameError(f"request has a number too long (more than {MAX_DIGITS} digits)")
    return int(digits)


def _parse(request: str) -> Any:
    """The JSON value of a request; too deep a nesting or too long a number is bad input, one line."""
    if request.count("[") + request.count("{") > MAX_DEPTH:  # else it cannot be too deep
        depth = 0
        for bracket in _BRACKETS.findall(_STRING.sub("", request)):
            depth += 1 if bracket in "[{" else -1
            if depth > MAX_DEPTH:
                raise GameError("request is nested too deeply")
    try:
        return json.loads(request, parse_int=_whole)
    except RecursionError:
        raise GameError("request is nested too deeply") from None


def _sent(reply: Reply) -> str:
    return json.dumps(reply)


def handle(request: str) -> str:
    """Run one JSON request ``{"op": name, "args": {...}}``; the reply is ``{"ok": true, "result": ...}``
    or ``{"ok": false, "error": one line}``. It never raises, whatever the request."""
    return finish(_reply_steps(request))


def _reply_steps(request: str) -> Steps[str]:
    """:func:`handle` in pieces: the games' ``STEPS`` requests pause between short pieces of work."""
    try:
        message = _parse(request)
        if not isinstance(message, dict):
            raise GameError("request must be a JSON object")
        name = message.get("op")
        table = routes()
        op = table.ops.get(name) if isinstance(name, str) else None
        if op is None:
            raise GameError(f"unknown request {quote(str(name))}")
        args = message.get("args") or {}
        if not isinstance(args, dict):
            raise GameError("request args must be an object")
        try:
            inspect.signature(op).bind(**args)
        except TypeError as exc:
            raise GameError(f"request {name!r}: {exc}") from None
        stepped = table.steps.get(str(name))
        result = (yield from stepped(**args)) if stepped is not None else op(**args)
        return _sent(Answered(ok=True, result=result))
    except GameError as exc:
        return _sent(Refused(ok=False, error=str(exc)))
    except (json.JSONDecodeError, TypeError) as exc:
        what = exc.msg if isinstance(exc, json.JSONDecodeError) else "not a JSON text"
        return _sent(Refused(ok=False, error=f"request is not JSON: {what}"))
    except Exception as exc:  # a bug, not bad input: still one line for the page, never a dead worker
        return _sent(Refused(ok=False, error=f"internal error: {type(exc).__name__}: {exc}"[:200]))


class Task:
    """One request answered in slices of time: :meth:`step` until it returns the reply (as
    :func:`handle`'s), or :meth:`cancel`. A task keeps its own search; a cancelled one leaves nothing
    behind in the services (only what a finished request would have cached too)."""

    def __init__(self, request: str, deadline: float | None = None) -> None:
        self.request = request
        self.deadline = deadline
        self.reply: str | None = None
        self.cancelled = False
        #: Seconds of work so far, and whether the deadline cut a search short.
        self.worked = 0.0
        self.hurried = False
        self._begun = False  # a generator takes send(True) only once it has started
        self._steps = _reply_steps(request)

    def step(self, seconds: float = SLICE) -> str | None:
        """Work for about ``seconds`` (at least one piece); the JSON reply when done, else None."""
        if self.reply is not None or self.cancelled:
            return self.reply
        began = time.perf_counter()
        try:
            while True:
                spent = self.worked + time.perf_counter() - began
                late = self._begun and self.deadline is not None and spent >= self.deadline
                self.hurried = self.hurried or late
                self._begun = True
                try:
                    self._steps.send(True) if late else next(self._steps)
                except StopIteration as stop:
                    self.reply = str(stop.value)
                    return self.reply
                if time.perf_counter() - began >= seconds:
                    return None
        finally:
            self.worked += time.perf_counter() - began

    def cancel(self) -> None:
        """Abandon the request: its search is dropped and :meth:`step` answers None from now on."""
        self.cancelled = True
        self._steps.close()


def start(request: str, deadline: float | None = None) -> Task:
    """Begin a request (as :func:`handle` takes it) to be answered in slices by :meth:`Task.step`; a
    search that has worked ``deadline`` seconds answers from the playouts it has (None: no deadline)."""
    return Task(request, deadline)


__all__ = ["DEADLINE", "SLICE", "Routes", "Task", "games_list", "handle", "preload", "routes", "start"]
