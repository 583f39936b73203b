"""What Naked Diagonal's commands share: the N of ``--board NxN``, the progress log that ``--quiet``
silences, and JSON results written to a file."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from unitile_py.errors import NakedDiagonalError


def board_size(text: str) -> int:
    """N of ``NxN``.

    >>> board_size("4x4")
    4
    """
    parts = text.lower().split("x")
    if len(parts) != 2 or not all(p.isascii() and p.isdigit() for p in parts) or parts[0] != parts[1]:
        raise NakedDiagonalError(f"board {text!r}: expected NxN, such as 4x4")
    return int(parts[0])


def progress_log(args: argparse.Namespace) -> Callable[[str], None]:
    """A log of progress lines to standard error, silent with ``--quiet``."""

    def log(msg: str) -> None:
        if not args.quiet:
            print(msg, file=sys.stderr, flush=True)

    return log


def write_json(path: str, data: Any) -> None:
    """``data`` as indented JSON into the file ``path`` (its folder made if missing)."""
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    Path(path).write_text(json.dumps(data, indent=1) + "\n")
