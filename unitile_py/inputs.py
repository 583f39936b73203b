"""Reading the text the command line is given: files and standard input, as UTF-8."""

from __future__ import annotations

import sys

from .errors import GameError


def read_text(path: str) -> str:
    """The text of a file, or of standard input for ``-``; a missing or non-UTF-8 file is a user error."""
    try:
        if path == "-":
            stream = getattr(sys.stdin, "buffer", None)  # a test may put a text stream there
            data = stream.read() if stream is not None else sys.stdin.read().encode("utf-8")
        else:
            with open(path, "rb") as f:
                data = f.read()
    except OSError as exc:
        raise GameError(f"{path}: {exc.strerror or exc}") from None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        where = "standard input" if path == "-" else path
        raise GameError(f"{where}: not UTF-8 text (byte {exc.start})") from None
