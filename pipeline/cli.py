"""``python -m pipeline COMMAND``: the commands of every game's precompute, and how every one ends.

Each game of the registry (:mod:`unitile_py.registry`) names the module whose ``register`` adds its
commands (``pipeline``): Unitile's ``build``, ``verify``, ``report`` and ``values``
(:mod:`pipeline.unitile.cli`), Naked Diagonal's ``nd-build``, ``nd-verify``, ``nd-prove``, ``nd-strategy``,
``nd-check-strategy``, ``nd-atlas``, ``nd-survey`` and ``nd-areas`` (:mod:`pipeline.naked_diagonal.cli`).
``compile-kernels`` (:mod:`pipeline.compile_kernels`) is every game's. Each command sets ``run``, which
:func:`main` calls through :func:`unitile_py.command_line.run_command`: every error is one line.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence

from unitile_py import registry
from unitile_py.command_line import Parser, run_command

from . import compile_kernels
from .errors import CheckFailed


def _load_commands() -> None:
    """Import every game's command module (numba and dask with them) as this module loads, so that a
    Ctrl-C while they load is the start-up's ("nothing was done"), never a command's."""
    for game in registry.games():
        if game.pipeline:
            registry.load(game.pipeline)


_load_commands()


def _parser() -> argparse.ArgumentParser:
    games = [g for g in registry.games() if g.pipeline]
    p = Parser(prog="python -m pipeline",
               description=f"The precompute pipelines of {' and '.join(g.name for g in games)}")
    sub = p.add_subparsers(dest="command", required=True)
    for game in games:
        registry.load(game.pipeline).register(sub)
    compile_kernels.register(sub)
    return p


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point; returns the exit status: 0, 1 when a check failed or the store is damaged
    (:class:`pipeline.errors.CheckFailed`), 2 for a user error, 130 on Ctrl-C; every error is one line."""

    def command() -> int:
        args = _parser().parse_args(argv)
        return int(args.run(args))

    return run_command(command, failed=(CheckFailed,), resumable=True)
