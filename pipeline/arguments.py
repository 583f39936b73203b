"""The pipeline's argument checks: :func:`at_least` and :func:`board` are ``type=`` checks, so that every
argument of ``python -m pipeline`` is checked before any work starts, and a bad one is one line (exit
status 2) through the parser every command line shares, :class:`unitile_py.command_line.Parser`.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable


def at_least(low: int) -> Callable[[str], int]:
    """A ``type=`` check: a whole number (ASCII digits) of at least ``low``.

    >>> at_least(1)("3")
    3
    """

    def check(text: str) -> int:
        digits = text[1:] if text[:1] == "-" else text
        if not (digits.isascii() and digits.isdigit()) or len(digits) > 18:
            raise argparse.ArgumentTypeError(f"{text!r}: expected a whole number")
        value = int(text)
        if value < low:
            raise argparse.ArgumentTypeError(f"{text}: must be at least {low}")
        return value

    check.__name__ = "number"
    return check


def board(low: int, high: int) -> Callable[[str], str]:
    """A ``type=`` check: ``NxN`` in ASCII digits with ``low <= N <= high``, returned as ``"NxN"``.

    >>> board(1, 7)("04X4")
    '4x4'
    """

    def check(text: str) -> str:
        parts = text.lower().split("x")
        if len(parts) != 2 or not all(p.isascii() and p.isdigit() and len(p) <= 4 for p in parts) or (
            int(parts[0]) != int(parts[1])
        ):
            raise argparse.ArgumentTypeError(f"{text!r}: expected NxN, such as 4x4")
        n = int(parts[0])
        if not low <= n <= high:
            raise argparse.ArgumentTypeError(f"{text}: this command takes boards {low}x{low} "
                                             f"to {high}x{high}")
        return f"{n}x{n}"

    check.__name__ = "board"
    return check
