"""Replaying a game that arrives in a link: the ``skip`` words it may hold or leave out, and why its next
name cannot be played (only the kind of ban: a link is salvaged up to its first bad name)."""

from __future__ import annotations

from typing import Any

from ..bans import OffBoard
from ..errors import GameError, NakedDiagonalError
from ..service import shown
from .bans import Refusal, clause, needless_skip
from .game import Game
from .notation import SKIP, SKIP_WORD


def check_skips(g: Game, wanted: list[str]) -> None:
    """The ``skip`` words of a list of turns stand where the game skipped (it may leave skips out)."""
    i = 0
    for word in wanted:
        if word == SKIP_WORD:
            if i >= g.ply or g.moves[i] != SKIP:
                raise NakedDiagonalError(f"ply {i + 1}: {needless_skip(g.positions[i].turn)}")
        elif g.moves[i] == SKIP:
            i += 1  # a skip left out: the placement after it is the next turn
        i += 1


def point_of(g: Game, name: str) -> int | None:
    """The point ``name`` names on the game's board, or None."""
    try:
        return g.grid.point(name.strip())
    except GameError:
        return None


def why_not(g: Game, name: Any, skipped: bool) -> str | None:
    """Why the next name of a link cannot be played, as the end of a sentence (:func:`.bans.clause`);
    None when it can. ``skipped``: the game has just skipped a player, so a ``skip`` may stand here."""
    if not isinstance(name, str):
        return "is not a point name"
    if name.strip().lower() == SKIP_WORD:
        return None if skipped else f"is a {needless_skip(g.position.turn)}"
    point = point_of(g, name)
    # (only the kind of ban is said: the search for an NDE area's culprit would only cost time)
    ban: Refusal | None = OffBoard(g.board_text(), shown(name)) if point is None else g.quick_ban(point)
    return None if ban is None else clause(ban, g.grid)


__all__ = ["check_skips", "point_of", "why_not"]
