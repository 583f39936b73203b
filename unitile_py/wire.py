"""The wire between the page and the worker, typed once: what :func:`unitile_py.webapi.handle` takes and
answers, and the shapes every game's requests share. site/web/js/wire.js describes the same shapes for
the page's JavaScript, and a test holds the two to the same fields.

What arrives is untrusted JSON (:data:`Json`): each service checks it before use, so its parameters take
``Json`` and its replies are the typed dicts below.
"""

from __future__ import annotations

from typing import Any, Literal, TypedDict

#: A JSON value as it arrives, before a service has checked it.
Json = None | bool | int | float | str | list[Any] | dict[str, Any]


class Request(TypedDict, total=False):
    """A request: ``op`` a request's name (its game's prefix first), ``args`` its arguments."""

    op: str
    args: dict[str, Json]


class Answered(TypedDict):
    """A request answered: ``result`` is the request's own reply."""

    ok: Literal[True]
    result: Json


class Refused(TypedDict):
    """A request refused, in one line for the player (bad input, an illegal move, a bug named)."""

    ok: Literal[False]
    error: str


#: The reply to every request.
Reply = Answered | Refused


class GameEntry(TypedDict):
    """A game the worker serves (the ``games`` request): its key, name, author and request prefix."""

    key: str
    name: str
    author: str
    prefix: str


class PlainGame(TypedDict, total=False):
    """A game as the page keeps it: the start (None for the game's usual one), the moves by name, and
    on a game of several board sizes its ``size``."""

    size: int
    start: str | None
    moves: list[str]


class Played(TypedDict):
    """The ``play`` request's reply when it is given a ``view``: the new game and what to draw."""

    game: PlainGame
    state: dict[str, Any]


__all__ = ["Answered", "GameEntry", "Json", "PlainGame", "Played", "Refused", "Reply", "Request"]
