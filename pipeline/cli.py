"""``python -m pipeline COMMAND``: the commands of both games' precomputes, and how every one ends.

Unitile's ``build``, ``verify``, ``report`` and ``values`` (:mod:`pipeline.unitile.cli`) and Naked
Diagonal's ``nd-build``, ``nd-verify``, ``nd-prove``, ``nd-strategy``, ``nd-check-strategy``, ``nd-atlas``,
``nd-survey`` and ``nd-areas``
(:mod:`pipeline.naked_diagonal.cli`) each set ``run``, which :func:`main` calls through
:func:`unitile_py.command_line.run_command`: every error is one line.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence

from unitile_py.command_line import Parser, run_command

from .errors import CheckFailed
from .naked_diagonal.cli import register as register_naked_diagonal
from .unitile.cli import register as register_unitile


def _parser() -> argparse.ArgumentParser:
    p = Parser(
        prog="python -m pipeline", description="The precompute pipelines of Unitile and Naked Diagonal"
    )
    sub = p.add_subparsers(dest="command", required=True)
    register_unitile(sub)
    register_naked_diagonal(sub)
    return p


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point; returns the exit status: 0, 1 when a check failed or the store is damaged
    (:class:`pipeline.errors.CheckFailed`), 2 for a user error, 130 on Ctrl-C; every error is one line."""

    def command() -> int:
        args = _parser().parse_args(argv)
        return int(args.run(args))

    return run_command(command, failed=(CheckFailed,), resumable=True)
