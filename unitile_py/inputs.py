"""Reading the text the command line is given: files and standard input, as UTF-8, at most a bound.

A record is at most :data:`~unitile_py.records.MAX_RECORD` characters, so at most four times as many
bytes: reading stops there (``record /dev/zero`` is one line, not all the memory there is).

A list of positions on standard input (``analyze -``, ``nd legal -``, ``nd analyze -``) is answered a
line at a time as the lines arrive (:func:`answer_lines`): lines end only at ``\n`` (a ``\r`` before
it is dropped), each line is at most :data:`MAX_LINE_BYTES`, and a line that is too long, not UTF-8
or not a position gets one reply ``{"error": "line N: ..."}`` while the others are still answered.
Blank lines are skipped: one reply per line that holds something.
"""

from __future__ import annotations

import io
import json
import sys
from collections.abc import Callable, Iterator
from typing import BinaryIO, cast

from .errors import GameError
from .records import MAX_RECORD

#: The most bytes of a record: :data:`MAX_RECORD` characters of up to four bytes each in UTF-8.
MAX_RECORD_BYTES = 4 * MAX_RECORD
#: The most bytes of one line of a list of positions, its end of line not counted: 1 MiB, thousands of
#: times a 13x13 position (184 bytes); a longer line is one error, and is not kept in memory.
MAX_LINE_BYTES = 1 << 20


def read_text(path: str, limit: int = MAX_RECORD_BYTES, what: str = "a record") -> str:
    """The text of a file, or of standard input for ``-``; a missing or non-UTF-8 file, or one of more
    than ``limit`` bytes (``what`` it should be names it), is a user error. Reads at most ``limit + 1``
    bytes."""
    where = "standard input" if path == "-" else path
    try:
        if path == "-":
            stream = getattr(sys.stdin, "buffer", None)  # a test may put a text stream there
            data = stream.read(limit + 1) if stream is not None else sys.stdin.read(limit + 1).encode("utf-8")
        else:
            with open(path, "rb") as f:
                data = f.read(limit + 1)
    except OSError as exc:
        raise GameError(f"{path}: {exc.strerror or exc}") from None
    if len(data) > limit:
        raise GameError(f"{where}: too long for {what} (more than {limit:,} bytes)")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise GameError(f"{where}: not UTF-8 text (byte {exc.start})") from None


def stdin_bytes() -> BinaryIO:
    """Standard input as bytes (a test may put a text stream there: its lines are encoded)."""
    stream = getattr(sys.stdin, "buffer", None)
    if stream is not None:
        return cast(BinaryIO, stream)
    return io.BytesIO(sys.stdin.read().encode("utf-8"))


def input_lines(stream: BinaryIO, limit: int = MAX_LINE_BYTES) -> Iterator[tuple[int, str | GameError]]:
    """``(line number, text)`` for each line of ``stream`` as it arrives, its end of line removed, or
    ``(line number, GameError)`` for a line that is not UTF-8 or longer than ``limit`` bytes (said as
    soon as the bound is passed; the rest of the line is then read and dropped, never kept). Lines end
    only at ``\n``, a ``\r`` before it is dropped."""
    number = 0
    while True:
        raw = stream.readline(limit + 1)
        if not raw:
            return
        number += 1
        if not raw.endswith(b"\n") and len(raw) > limit:
            yield number, GameError(f"line {number}: too long (more than {limit:,} bytes)")
            while (rest := stream.readline(1 << 16)) and not rest.endswith(b"\n"):
                pass  # the rest of the line, dropped as it comes (said first: it may never end)
            continue
        raw = raw.removesuffix(b"\n").removesuffix(b"\r")
        try:
            yield number, raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            yield number, GameError(f"line {number}: not UTF-8 text (byte {exc.start})")


def answer_lines(answer: Callable[[str], str], stream: BinaryIO | None = None) -> int:
    """Print ``answer(text)`` for each line of standard input (or ``stream``) that holds something, as
    soon as the line has arrived; a line that cannot be read or that ``answer`` refuses (a
    :class:`GameError`) is answered ``{"error": "line N: ..."}``. Returns 0, or 2 once any line was
    refused (then one line on standard error counts them)."""
    refused: list[int] = []
    for number, line in input_lines(stdin_bytes() if stream is None else stream):
        if isinstance(line, str):
            text = line.strip()
            if not text:
                continue
            try:
                reply = answer(text)
            except GameError as exc:
                line = GameError(f"line {number}: {exc}")
        if isinstance(line, GameError):
            refused.append(number)
            reply = json.dumps({"error": str(line)})
        print(reply, flush=True)
    if not refused:
        return 0
    lines = "line" if len(refused) == 1 else "lines"
    print(f"error: {len(refused)} {lines} refused, the first line {refused[0]}", file=sys.stderr)
    return 2
