"""Reading the text the command line is given: files and standard input, as UTF-8, at most a bound.

A record is at most :data:`~unitile_py.records.MAX_RECORD` characters, so at most four times as many
bytes: reading stops there (``record /dev/zero`` is one line, not all the memory there is).
"""

from __future__ import annotations

import sys

from .errors import GameError
from .records import MAX_RECORD

#: The most bytes of a record: :data:`MAX_RECORD` characters of up to four bytes each in UTF-8.
MAX_RECORD_BYTES = 4 * MAX_RECORD
#: The most bytes of a list of positions, one a line (``analyze -``, ``nd legal -``): 64 MiB, more than
#: 300,000 lines of 13x13 positions (184 bytes each).
MAX_LINES_BYTES = 64 << 20


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
