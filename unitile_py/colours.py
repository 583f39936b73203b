"""The two colours both games use: Red moves first in each.

>>> other(RED), COLOUR_NAMES[BLUE]
('b', 'Blue')
"""

from __future__ import annotations

RED = "r"
BLUE = "b"
COLOURS = (RED, BLUE)
#: A colour as a player reads it in a sentence.
COLOUR_NAMES = {RED: "Red", BLUE: "Blue"}


def other(colour: str) -> str:
    """The other colour."""
    return BLUE if colour == RED else RED


__all__ = ["BLUE", "COLOURS", "COLOUR_NAMES", "RED", "other"]
