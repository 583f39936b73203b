"""The board sizes the site offers, and the size a request or a record names, refused in the page's
words when it is not one of them."""

from __future__ import annotations

from typing import Any

from ..coords import is_ascii_number
from ..errors import NakedDiagonalError
from ..service import whole

#: The board sizes the page offers (any size from 1 to 26 is a board; these are the useful ones).
SIZES = tuple(range(3, 14))


def size_of(value: Any) -> int:
    """A board size the page may ask for."""
    n = whole(value, "size")
    if n not in SIZES:
        raise NakedDiagonalError(not_offered(n))
    return n


def not_offered(n: int) -> str:
    """Why an n x n board cannot be played here, naming the sizes that can."""
    low, high = SIZES[0], SIZES[-1]
    return f"a {n}x{n} board is not offered here (the boards are {low}x{low} to {high}x{high})"


def named_size(headers: dict[str, str]) -> int | None:
    """The board side a record's headers name (``Position``'s rows, else ``Board``'s ``NxN`` or ``N``),
    read before the engine builds the board, so that every size the page does not offer gets the
    page's range rather than the engine's (1 to 26); None when they name none or garble it."""
    if "Position" in headers:
        rows = headers["Position"].split()
        return len(rows[0].split("/")) if rows else None
    parts = headers.get("Board", "").strip().lower().split("x")
    if len(parts) > 2 or len(set(parts)) != 1 or not all(is_ascii_number(p) and len(p) <= 6 for p in parts):
        return None
    return int(parts[0])


__all__ = ["SIZES", "named_size", "not_offered", "size_of"]
