"""``python -m pipeline nd-build`` and ``nd-verify``: a small board solved into a store and its tables
(:func:`pipeline.naked_diagonal.build.plan`, run by :func:`pipeline.naked_diagonal.build.run_build`), or
the checks of a solved store run again."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from pipeline.executor import engine
from pipeline.store import resolved
from unitile_py.errors import NakedDiagonalError

from .build import DEFAULTS, BuildOptions, plan, run_build
from .command_io import board_size
from .context import Context
from .store import Store, default_path


def run(args: argparse.Namespace) -> int:
    """``nd-build``: the stages not yet complete (and those of ``--force``) with the options given."""
    tables = str(Path(args.tables).resolve()) if args.tables else None
    options = BuildOptions(part_size=args.part_size, tables=tables, max_tier=args.max_tier)
    return _run(args, options, list(args.force), verify_only=False)


def run_verify(args: argparse.Namespace) -> int:
    """``nd-verify``: the checks of a solved store run again (and the tables' when it has them)."""
    return _run(args, DEFAULTS, [], verify_only=True)


def _run(args: argparse.Namespace, options: BuildOptions, force: list[str], verify_only: bool) -> int:
    """``nd-build`` (or, ``verify_only``, ``nd-verify``): run the plan's stages not yet complete (those
    named in ``force`` again) and say who wins and where the tables went."""
    n = board_size(args.board)
    if not 1 <= n <= 5:
        raise NakedDiagonalError(
            f"board {args.board}: the tiers take boards 1x1 to 5x5 (larger: see nd-prove)"
        )
    path = resolved(args.store or default_path(n))
    stages = plan(n, options)
    names = [s.name for s in stages]
    for f in force:
        if f not in names:
            raise NakedDiagonalError(f"--force {f}: no such stage (stages: {', '.join(names)})")
    store = Store(path, n, create=not verify_only)
    if verify_only:
        store.require("solve-00")
        stages = [s for s in stages if s.name in ("verify", "tables-verify") and (s.name != "tables-verify"
                                                                                   or store.done("tables"))]
        force = [s.name for s in stages]
    with engine(args) as executor:
        ctx = Context(n, store, executor, show_progress=not args.quiet)
        records = run_build(ctx, stages, force=force)
    start = records.get("tables", {})
    if "solve-00" in records and not verify_only:
        value = records["solve-00"]["value"]
        who = "the side to move (Red)" if value > 0 else "the second player (Blue)"
        print(f"{n}x{n}: {who} wins; {abs(value)} placements with perfect play", file=sys.stderr)
    if start:
        print(f"tables: {start['directory']} ({start['bytes']:,} bytes)", file=sys.stderr)
    return 0
