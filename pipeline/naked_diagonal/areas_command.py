"""``python -m pipeline nd-areas``: the atlas and the survey published as one file
(:func:`pipeline.naked_diagonal.areas_file.publish`), after checking that the inputs are ``nd-atlas``'s
and ``nd-survey``'s results."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from unitile_py.errors import NakedDiagonalError


def run(args: argparse.Namespace) -> int:
    """Read ``--atlas`` and ``--survey``, write ``--out`` and print its summary."""
    from .areas_file import publish

    for name, given in (("atlas", args.atlas), ("survey", args.survey)):
        if Path(args.out).resolve() == Path(given).resolve():
            raise NakedDiagonalError(f"--out {args.out}: is the --{name} input; write elsewhere")
    atlas = _results(args.atlas, "nd-atlas", ("k_max", "per_k", "entries"))
    survey = _results(args.survey, "nd-survey", ("areas", "per_board", "large"))
    try:
        summary = publish(atlas, survey, args.out)
    except (KeyError, TypeError, ValueError, AttributeError, IndexError, ArithmeticError) as exc:
        # A file of the right top-level shape whose entries are not what nd-atlas and nd-survey write.
        what = f"missing {exc}" if isinstance(exc, KeyError) else f"{type(exc).__name__}: {exc}"
        raise NakedDiagonalError(f"{args.atlas}, {args.survey}: not nd-atlas and nd-survey results "
                                 f"({what})") from None
    print(json.dumps(summary, indent=1))
    return 0


def _results(path: str, command: str, keys: tuple[str, ...]) -> dict[str, Any]:
    """The JSON object of ``command``'s results at ``path``, with its top-level ``keys``; else one line."""
    if not Path(path).is_file():
        raise NakedDiagonalError(f"{path}: no such file (run nd-atlas and nd-survey first)")
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except OSError as exc:
        raise NakedDiagonalError(f"{path}: cannot read: {exc.strerror or exc}") from None
    except (UnicodeDecodeError, ValueError, RecursionError) as exc:
        raise NakedDiagonalError(f"{path}: not {command}'s JSON results: {exc}") from None
    if not isinstance(data, dict) or any(key not in data for key in keys):
        raise NakedDiagonalError(f"{path}: not {command}'s results (expected an object with "
                                 f"{', '.join(keys)})")
    return data
