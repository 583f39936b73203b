"""The record text both games share: header lines, numbered moves and the result (docs/notation.md).

A record is optional ``[Key "value"]`` lines, then the moves, then the result: ``1-0`` Red won,
``0-1`` Blue won, ``*`` unfinished. Move numbers are optional; where given, ``N.`` stands before Red's
N-th turn and ``N...`` before Blue's, and the number goes up after each turn of Blue, so numbers count
up from 1 without gaps (a record that starts with Blue to move begins ``1...``). What a move token
means is each game's business; this module only splits the text and checks the numbers.

>>> text = split_record('[Red "Ann \\\\"A\\\\""]\\n1. c4 c5 2. b5 *')
>>> text.headers, text.tokens
({'Red': 'Ann "A"'}, ['1.', 'c4', 'c5', '2.', 'b5', '*'])
>>> reader = MoveReader(text.tokens)
>>> [reader.next("r"), reader.next("b"), reader.next("r"), reader.next("b")], reader.result
(['c4', 'c5', 'b5', None], '*')
>>> format_moves([("r", "c4"), ("b", "c5"), ("r", "b5")], "*")
'1. c4 c5 2. b5 *'
>>> format_moves([("b", "c4"), ("r", "c5")], "*")
'1... c4 2. c5 *'
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from .coords import quote
from .errors import GameError

#: The result tokens and the colour each says won.
RESULTS = {"1-0": "r", "0-1": "b", "*": None}
#: Longest record text accepted (the site reads pasted text; a long game is a few kilobytes).
MAX_RECORD = 100_000
#: Longest move number accepted (no game has a million moves; int() of a huge number is slow).
MAX_NUMBER_DIGITS = 6

_HEADER = re.compile(r'^\[(\w+)\s+"((?:[^"\\]|\\.)*)"\]$', re.ASCII)
#: The line breaks of a record: \n, \r\n or \r only (the breaks the writer escapes in header values).
LINE_BREAK = re.compile(r"\r\n|\r|\n")
_MOVE_NUMBER = re.compile(r"^(\d+)\.(\.\.)?$", re.ASCII)
#: The escapes of header values: backslash, quote, and the line breaks that would split the line.
_ESCAPES = {"\\": "\\\\", '"': '\\"', "\n": "\\n", "\r": "\\r"}
_UNESCAPES = {"\\": "\\", '"': '"', "n": "\n", "r": "\r"}


def result_token(winner: str | None) -> str:
    """The result as a record writes it: ``1-0`` Red won, ``0-1`` Blue won, ``*`` going on.

    >>> result_token("r"), result_token("b"), result_token(None)
    ('1-0', '0-1', '*')
    """
    return "1-0" if winner == "r" else "0-1" if winner == "b" else "*"


def _unescape(value: str) -> str:
    return re.sub(r"\\(.)", lambda m: _UNESCAPES.get(m.group(1), m.group(1)), value)


@dataclass(frozen=True)
class RecordText:
    """A record split into its headers and the tokens of its moves."""

    headers: dict[str, str]
    tokens: list[str]


def split_record(text: str) -> RecordText:
    """The headers (unescaped) and the move tokens of a record's text; one-line errors otherwise."""
    if len(text) > MAX_RECORD:
        raise GameError(f"record: too long (more than {MAX_RECORD:,} characters)")
    text = text.removeprefix("\ufeff")  # the byte-order mark some editors put first: not part of the text
    headers: dict[str, str] = {}
    body: list[str] = []
    # Lines end only at \n, \r\n or \r, the breaks the writer escapes: str.splitlines would also split
    # a header value at U+2028, U+0085, \x0c, \x1c... and the record would not load again.
    for lineno, raw in enumerate(LINE_BREAK.split(text), 1):
        line = raw.strip()
        if not line:
            continue
        if line.startswith("["):
            if body:
                raise GameError(f"record line {lineno}: header after the moves")
            m = _HEADER.match(line)
            if not m:
                raise GameError(f'record line {lineno}: expected [Key "value"], got {quote(line)}')
            if m.group(1) in headers:
                raise GameError(f"record line {lineno}: header {quote(m.group(1))} given twice")
            headers[m.group(1)] = re.sub(
                r"\\(.)", lambda e: _UNESCAPES.get(e.group(1), e.group(1)), m.group(2)
            )
        else:
            body.append(line)
    if not headers and not body:
        raise GameError("record: empty (no headers, no moves, no result)")
    return RecordText(headers, " ".join(body).split())


class MoveReader:
    """The move tokens of a record one turn at a time, with the move numbers checked on the way."""

    def __init__(self, tokens: list[str]) -> None:
        self.tokens = tokens
        self.at = 0
        self.number = 1  # the number of the next turn: it goes up after each turn of Blue
        self.turns = 0
        #: The result token, once :meth:`next` has reached it (``*`` if the record ends without one).
        self.result: str | None = None

    def next(self, turn: str) -> str | None:
        """The token of the next turn, ``turn`` to move; None at the result (or the end of the text)."""
        numbered: str | None = None
        while self.at < len(self.tokens):
            token = self.tokens[self.at]
            self.at += 1
            if token in RESULTS:
                if self.at != len(self.tokens):
                    raise GameError(f"record: result {quote(token)} is not the last token")
                if numbered is not None:
                    raise GameError(f"record: move number {quote(numbered)} is followed by no move")
                self.result = token
                return None
            m = _MOVE_NUMBER.match(token)
            if m is None:
                self.turns += 1
                if turn == "b":
                    self.number += 1
                return token
            if numbered is not None:
                raise GameError(f"record: move number {quote(token)} follows another move number")
            self._check_number(token, m, turn)
            numbered = token
        if numbered is not None:
            raise GameError(f"record: move number {quote(numbered)} is followed by no move")
        self.result = "*"
        return None

    def _check_number(self, token: str, m: re.Match[str], turn: str) -> None:
        """A move number must be the next turn's, with ``...`` exactly when Blue has that turn."""
        want = f"{self.number}..." if turn == "b" else f"{self.number}."
        digits, dots = m.group(1), m.group(2) is not None
        if len(digits) > MAX_NUMBER_DIGITS or int(digits) != self.number:
            raise GameError(f"record: move number {quote(token)} where {want} was expected")
        if dots != (turn == "b"):
            side = "Blue" if turn == "b" else "Red"
            raise GameError(f"record: move number {quote(token)} before a move of {side}: write {want}")


def check_result(claimed: str | None, winner: str | None) -> str:
    """The result token of a record whose moves end with ``winner``: a claimed ``1-0`` or ``0-1`` must
    agree; a record that ends in a win gets its result even when it said ``*``."""
    actual = result_token(winner)
    if claimed not in (None, "*") and claimed != actual:
        raise GameError(f"record: result {claimed} but the moves give {actual}")
    return actual


def format_headers(headers: dict[str, str]) -> list[str]:
    """The header lines, values escaped; a header name must be ASCII letters, digits or ``_``."""
    lines = []
    for key, value in headers.items():
        if not re.fullmatch(r"\w+", key, re.ASCII):
            raise GameError(f"record: header name {quote(key)} must be letters, digits or _")
        lines.append(f'[{key} "{"".join(_ESCAPES.get(ch, ch) for ch in value)}"]')
    return lines


def format_moves(turns: Iterable[tuple[str, str]], result: str) -> str:
    """The move text of ``(colour to move, token)`` turns, numbered, then the result."""
    words: list[str] = []
    number = 1
    for i, (turn, token) in enumerate(turns):
        if turn == "r":
            words.append(f"{number}.")
        elif i == 0:
            words.append(f"{number}...")
        words.append(token)
        if turn == "b":
            number += 1
    words.append(result)
    return " ".join(words)


__all__ = [
    "LINE_BREAK",
    "MAX_RECORD",
    "RESULTS",
    "MoveReader",
    "RecordText",
    "check_result",
    "format_headers",
    "format_moves",
    "result_token",
    "split_record",
]
