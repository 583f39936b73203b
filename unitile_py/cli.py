"""The command line of every game: ``python -m unitile_py GAME COMMAND ...``.

Each game of the registry (:mod:`unitile_py.registry`) gets its subcommand group (``unitile`` or
``ut``, ``naked-diagonal`` or ``nd``), filled by its own ``cli`` module; Unitile's commands are also
at the top (``python -m unitile_py show ...``), as before it had a group. Every failure ends as
:func:`unitile_py.command_line.run_command` says: one line, status 2 for bad input, no traceback.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence

from . import registry
from .command_line import EXIT_USAGE, Parser, run_command


def build_parser() -> argparse.ArgumentParser:
    """The argument parser with every game's subcommands."""
    games = registry.games()
    groups = "; ".join(f"`{g.command}` (or `{'`, `'.join(g.command_aliases)}`) plays {registry.title(g)}"
                       if g.command_aliases else f"`{g.command}` plays {registry.title(g)}" for g in games)
    rules = sorted({g.rules for g in games})
    parser = Parser(
        prog="python -m unitile_py",
        description=f"Board games in the terminal: {groups} (rules: {', '.join(rules)}).",
    )
    sub = parser.add_subparsers(dest="command", required=True)
    for game in games:
        commands = registry.load(game.cli)
        group = sub.add_parser(
            game.command,
            aliases=list(game.command_aliases),
            help=registry.title(game),
            description=f"{registry.title(game)} (rules: {game.rules}).",
        )
        commands.register(group.add_subparsers(dest=f"{game.key}_command", required=True))
        if game.commands_at_top:
            commands.register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    def command() -> int:
        args = build_parser().parse_args(argv)
        return int(args.func(args))

    return run_command(command)


__all__ = ["EXIT_USAGE", "build_parser", "main"]
