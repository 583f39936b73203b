"""Names of board cells, shared by both games: a file letter from the left, a rank number from the bottom;
and the form both games' position texts share.

Cells are numbered in reading order (left to right within a row, rows from the top); ``a1`` is the
bottom-left cell. Files run ``a`` to ``z``, ranks are ASCII decimal numbers without leading zeros, so
boards up to 26 columns are named. Only ASCII letters and digits are accepted: ``c²`` or ``c٤`` is
an error, never a cell.

>>> cell_name(0, 5, 5), cell_name(24, 5, 5), cell_name(12, 13, 13)
('a5', 'e1', 'm13')
>>> parse_cell("C4", 5, 5), parse_cell("m13", 13, 13)
(7, 12)
>>> parse_cell("c²", 5, 5)
Traceback (most recent call last):
    ...
unitile_py.errors.GameError: move 'c²': expected a file letter and a rank number, such as c4

A position text is the rows from the top joined by ``/``, each a letter per cell (``R`` red, ``B``
blue, ``.`` empty), a space and the side to move (``r`` or ``b``):

>>> split_position("RB/.R b", "position", "the rows", GameError)
(['RB', '.R'], 'b')
>>> check_row("position", 1, ".X", "cells", GameError)
Traceback (most recent call last):
    ...
unitile_py.errors.GameError: position: row 2 has 'X'; cells are R, B or .
"""

from __future__ import annotations

import re

from .errors import GameError

#: Most columns a file letter can name.
MAX_FILES = 26
#: Longest text quoted back in an error message (longer input is cut, with an ellipsis).
QUOTE_LIMIT = 40

_LETTERS = "abcdefghijklmnopqrstuvwxyz"
_DIGITS = "0123456789"
#: What parts the words of a position text: ASCII blanks only.
_BLANKS = re.compile(r"[ \t\r\n\v\f]+")


def quote(text: str, limit: int = QUOTE_LIMIT) -> str:
    """``repr`` of user input for an error message, cut to about ``limit`` characters.

    >>> quote("c4"), quote("x" * 100)[:8], len(quote("x" * 100))
    ("'c4'", "'xxxxxxx", 45)
    """
    if len(text) <= limit:
        return repr(text)
    return repr(text[:limit]) + "..."


def is_ascii_number(text: str) -> bool:
    """True for a non-empty run of ASCII digits (``str.isdigit`` also accepts ``²`` and ``٤``).

    >>> is_ascii_number("13"), is_ascii_number("³"), is_ascii_number("")
    (True, False, False)
    """
    return bool(text) and all(ch in _DIGITS for ch in text)


def split_position(text: str, where: str, rows: str, error: type[GameError]) -> tuple[list[str], str]:
    """The rows and the side to move of a position text; ``error``, starting with ``where``, when the
    text is not two words (``rows`` says what the first should be) or the side is no colour. Only ASCII
    blanks (space, tab, line breaks) part the words: ``str.split`` would also take a no-break space, an
    em space or a file separator, which nobody types between the rows and the side.

    >>> split_position("R./.B r\\n", "p", "rows", GameError)
    (['R.', '.B'], 'r')
    >>> split_position("R./.B\\u2003r", "p", "rows", GameError)
    Traceback (most recent call last):
    ...
    unitile_py.errors.GameError: p: expected rows, a space and the side to move
    """
    parts = [part for part in _BLANKS.split(text) if part]
    if len(parts) != 2:
        raise error(f"{where}: expected {rows}, a space and the side to move")
    rows_text, side = parts
    if side not in ("r", "b"):
        raise error(f"{where}: side to move {quote(side)} must be 'r' or 'b'")
    return rows_text.split("/"), side


def check_row(where: str, i: int, row: str, cells: str, error: type[GameError]) -> None:
    """``error``, starting with ``where``, when row ``i`` (0-based) of a position text holds anything but
    ``R``, ``B`` and ``.`` (``cells`` is what the game calls its cells)."""
    bad = set(row) - set("RB.")
    if bad:
        raise error(f"{where}: row {i + 1} has {quote(min(bad))}; {cells} are R, B or .")


def cell_name(cell: int, rows: int, cols: int) -> str:
    """The name of cell number ``cell`` on a ``rows`` x ``cols`` board."""
    r, c = divmod(cell, cols)
    return f"{_LETTERS[c]}{rows - r}"


def parse_cell(name: str, rows: int, cols: int, what: str = "move") -> int:
    """The cell number of a name such as ``c4`` (case-insensitive, surrounding blanks ignored).

    Raises :class:`GameError` (naming ``what`` the text was meant to be) for anything that is not
    a cell of this board.
    """
    text = name.strip().lower()
    digits = text[1:]
    if len(text) < 2 or text[0] not in _LETTERS or not is_ascii_number(digits) or digits[0] == "0":
        raise GameError(f"{what} {quote(name)}: expected a file letter and a rank number, such as c4")
    c = _LETTERS.index(text[0])
    rank = int(digits) if len(digits) <= 3 else rows + 1
    if not (c < cols and 1 <= rank <= rows):
        raise GameError(f"{what} {quote(name)}: no such cell on a {rows}x{cols} board")
    return (rows - rank) * cols + c
