"""The site worker's one entry point: :func:`handle` routes each JSON request to its game's service.

A request ``{"op": name, "args": {...}}`` whose name starts with ``nd_`` goes to Naked Diagonal's
service (:mod:`unitile_py.naked_diagonal.webapi`), any other to Unitile's
(:mod:`unitile_py.unitile.webapi`); both answer the names in :data:`unitile_py.service.REQUESTS`
(Naked Diagonal also ``nd_hint_source``: where its hint came from, on a size with a stored proof). The
reply is ``{"ok": true, "result": ...}`` or ``{"ok": false, "error": one line}``, whatever was sent.

>>> handle('{"op": "play", "args": {"game": {"start": null, "moves": []}, "move": "a1"}}')
'{"ok": false, "error": "ply 1, a1: not next to the bubble"}'
>>> handle('{"op": "nd_new_game", "args": {"size": 5}}')
'{"ok": true, "result": {"size": 5, "start": null, "moves": []}}'
>>> handle('[1]')
'{"ok": false, "error": "request must be a JSON object"}'
"""

from __future__ import annotations

import inspect
import json
from collections.abc import Callable
from typing import Any

from .coords import quote
from .errors import GameError
from .naked_diagonal import webapi as naked_diagonal
from .unitile import webapi as unitile

#: Each game's requests under the prefix the page gives them.
GAMES: dict[str, dict[str, Callable[..., Any]]] = {"": unitile.OPS, "nd_": naked_diagonal.OPS}
_OPS = {prefix + name: op for prefix, ops in GAMES.items() for name, op in ops.items()}


def handle(request: str) -> str:
    """Run one JSON request ``{"op": name, "args": {...}}``; the reply is ``{"ok": true, "result": ...}``
    or ``{"ok": false, "error": one line}``. It never raises, whatever the request."""
    try:
        message = json.loads(request)
        if not isinstance(message, dict):
            raise GameError("request must be a JSON object")
        name = message.get("op")
        op = _OPS.get(name) if isinstance(name, str) else None
        if op is None:
            raise GameError(f"unknown request {quote(str(name))}")
        args = message.get("args") or {}
        if not isinstance(args, dict):
            raise GameError("request args must be an object")
        try:
            inspect.signature(op).bind(**args)
        except TypeError as exc:
            raise GameError(f"request {name!r}: {exc}") from None
        return json.dumps({"ok": True, "result": op(**args)})
    except GameError as exc:
        return json.dumps({"ok": False, "error": str(exc)})
    except (json.JSONDecodeError, TypeError) as exc:
        what = exc.msg if isinstance(exc, json.JSONDecodeError) else "not a JSON text"
        return json.dumps({"ok": False, "error": f"request is not JSON: {what}"})
    except Exception as exc:  # a bug, not bad input: still one line for the page, never a dead worker
        return json.dumps({"ok": False, "error": f"internal error: {type(exc).__name__}: {exc}"[:200]})


__all__ = ["GAMES", "handle"]
