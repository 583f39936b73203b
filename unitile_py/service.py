"""What both games' web services share: the checks of what the page sends, a few phrases for the
player, and the names of the requests each service answers (:mod:`unitile_py.webapi` routes them).

>>> whole(3, "level"), humans_of(["r"]), shown(" C4 "), were(2, "slide"), common_prefix("abc", "abd")
(3, ('r',), 'c4', '2 slides were', 2)
>>> whole(True, "seed")
Traceback (most recent call last):
...
unitile_py.errors.GameError: seed must be a whole number
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .colours import BLUE, RED
from .coords import quote
from .errors import GameError

#: The requests each game's service answers (the worker's ``op``; Naked Diagonal's carry ``nd_``).
REQUESTS = ("info", "new_game", "state", "play", "undo", "load", "salvage", "explain", "hint",
"computer_move")




def whole(value: Any, what: str) -> int:
    """A whole number from the page (not a bool, a float or a string)."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise GameError(f"{what} must be a whole number")
    if abs(value) >= 1 << 63:
        raise GameError(f"{what} is too large")
    return value


def humans_of(value: Any) -> tuple[str, ...]:
    """The colours played by people: a list of ``"r"`` and ``"b"``."""
    if not isinstance(value, (list, tuple)) or not all(v in (RED, BLUE) for v in value):
        raise GameError('humans must be a list of "r" and "b"')
    return tuple(value)


def shown(name: Any) -> str:
    """A name from the page, as a player would write it: lower case, quoted if it is no cell name."""
    text = str(name).strip()
    lowered = text.lower()
    if lowered and len(lowered) <= 4 and lowered.isascii() and lowered.isalnum():
        return lowered
    return quote(text)


def were(count: int, noun: str) -> str:
    """``"1 slide was"``, ``"3 slides were"``."""
    return f"{count} {noun} was" if count == 1 else f"{count} {noun}s were"


def common_prefix(a: Sequence[str], b: Sequence[str]) -> int:
    """How many first items ``a`` and ``b`` share (a replay keeps that many moves of the last game)."""
    keep = 0
    while keep < min(len(a), len(b)) and a[keep] == b[keep]:
        keep += 1
    return keep


def not_played(after: int) -> str:
    """The end of a sentence on a link's bad move with ``after`` more behind it."""
    return f"so it and the {after} after it were not played" if after else "so it was not played"


__all__ = ["REQUESTS", "common_prefix", "humans_of", "not_played", "shown", "were", "whole"]
