"""The hint the page asks for: the placement the strongest level of the board's size would choose and
where it came from (:func:`.players.best_hint_steps`), remembered for the last positions asked, since the
page asks for the hint and then for its source."""

from __future__ import annotations

from ..mcts import Steps
from .players import best_hint_steps
from .position import Position

#: Positions whose hint is remembered.
KEPT = 64
#: The hints found lately, by position and tables folder (the page asks for a hint and its source).
_found: dict[tuple[Position, str], tuple[int, str]] = {}


def hint_steps(position: Position, root: str = "") -> Steps[tuple[int, str]]:
    """The hint of a position and where it came from (remembered per tables folder ``root``: the page
    asks for both), in pieces; a search abandoned half way remembers nothing."""
    key = (position, root)
    found = _found.get(key)
    if found is None:
        found = yield from best_hint_steps(position)
        if len(_found) >= KEPT:
            _found.pop(next(iter(_found)))
        _found[key] = found
    return found


def forget() -> None:
    """Forget every hint found (the tests and the benchmark start afresh)."""
    _found.clear()


def remembered() -> int:
    """How many hints are remembered."""
    return len(_found)


__all__ = ["KEPT", "forget", "hint_steps", "remembered"]
