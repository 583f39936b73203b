"""The hint the page asks for: the placement the strongest level of the board's size would choose and
where it came from (:func:`.players.best_hint_steps`), remembered for the last positions asked, since the
page asks for the hint and then for its source. Where level 6's own placements came from is remembered
too (:func:`remember_source`): the same words as its hint's, whatever the seed, so that the page can say
where a computer's placement came from without a search."""

from __future__ import annotations

from ..mcts import Steps
from .players import best_hint_steps
from .position import Position

#: Positions whose hint is remembered.
KEPT = 64
#: The hints found lately, by position and tables folder (the page asks for a hint and its source).
_found: dict[tuple[Position, str], tuple[int, str]] = {}
#: Where level 6's placements came from lately, by position and tables folder.
_sources: dict[tuple[Position, str], str] = {}


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


def remember_source(position: Position, root: str, source: str) -> None:
    """Keep where level 6's placement in ``position`` came from (its hint's source there is the same)."""
    if len(_sources) >= KEPT:
        _sources.pop(next(iter(_sources)))
    _sources[(position, root)] = source


def source_steps(position: Position, root: str = "") -> Steps[str]:
    """Where the hint of a position comes from, in pieces: remembered from level 6's placement there or
    from the hint, else found by the hint's search."""
    source = _sources.get((position, root))
    if source is None:
        _, source = yield from hint_steps(position, root)
    return source


def forget() -> None:
    """Forget every hint found and every source kept (the tests and the benchmark start afresh)."""
    _found.clear()
    _sources.clear()


def remembered() -> int:
    """How many hints are remembered."""
    return len(_found)


__all__ = ["KEPT", "forget", "hint_steps", "remember_source", "remembered", "source_steps"]
