"""The command line of both games: ``python -m unitile_py COMMAND ...``.

Unitile's commands (``show``, ``slides``, ``record``, ``match``, ``play``, ``analyze``:
:mod:`unitile_py.unitile.cli`) sit at the top; Naked Diagonal's are under ``naked-diagonal`` (or ``nd``:
:mod:`unitile_py.naked_diagonal.cli`). Every failure ends as :func:`unitile_py.command_line.run_command`
says: one line, status 2 for bad input, no traceback.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence

from .command_line import EXIT_USAGE, Parser, run_command
from .naked_diagonal import cli as naked_diagonal_cli
from .unitile import cli as unitile_cli


def build_parser() -> argparse.ArgumentParser:
    """The argument parser with every subcommand of both games."""
    parser = Parser(
        prog="python -m unitile_py",
        description="Unitile, the sliding-tile game by Mark Steere (rules: marksteeregames.com); "
        "`naked-diagonal` (or `nd`) plays his connection game Naked Diagonal.",
    )
    sub = parser.add_subparsers(dest="command", required=True)
    unitile_cli.register(sub)
    naked_diagonal_cli.register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    def command() -> int:
        args = build_parser().parse_args(argv)
        return int(args.func(args))

    return run_command(command)


__all__ = ["EXIT_USAGE", "build_parser", "main"]
