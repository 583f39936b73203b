"""``python -m pipeline build``, ``verify`` and ``report``: a board's values, perfect play and tables built
into a store (:func:`pipeline.unitile.build.plan`, run by :func:`pipeline.unitile.build.run_build`), its
checks run again, and its stage records as a table."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from unitile_py.errors import GameError
from unitile_py.unitile.board import Board

from ..executor import engine
from ..report import format_stages, stage_rows
from ..store import is_url, resolved
from .build import BuildOptions, plan, run_build, value_stages, verify_plan
from .compact import table_file_names
from .context import Context
from .store import Store, default_path
from .table_folder import MANIFEST, check_folder, written_problem
from .table_stages import TablesStage, default_tables_folder
from .verify_stage import check_stored


def run(args: argparse.Namespace) -> int:
    """``build``: the stages not yet complete (and those of ``--force``) into the store; the stage table
    printed at the end (not with ``--quiet``)."""
    return _run(args, verify_only=False)


def run_verify(args: argparse.Namespace) -> int:
    """``verify``: the pass over every position run again on a complete store (and the tables' checks
    when it has them)."""
    return _run(args, verify_only=True)


def _run(args: argparse.Namespace, verify_only: bool) -> int:
    board = Board.parse(args.board)
    # Tasks on the workers open the store and the tables by these names, from their own directory.
    path = resolved(args.store or default_path(board))
    names = [s.name for s in plan()]
    for f in [] if verify_only else args.force:
        if f not in names:
            raise GameError(f"--force {f}: no such stage (stages: {', '.join(names)})")
    if not verify_only and not args.tables and is_url(path) and not path.startswith("file://"):
        default_tables_folder(path, board)  # refuses, in one line: such a store needs --tables DIR
    store = Store(path, board, create=not verify_only)
    tables: Path | None = None
    written: tuple[str, ...] = ()
    if verify_only:
        store.require("verify")
        stages = verify_plan(store)
        force = [s.name for s in stages]
    else:
        # A record forced to run again is not checked (it may be the damage that --force repairs).
        forced = TablesStage.name in args.force
        previous = None if forced else store.record(TablesStage.name)
        tables, written = _tables_folder(args.tables, store.stages().get(TablesStage.name), path, board)
        stages = plan(BuildOptions(checkpoint_seconds=args.checkpoint_seconds, tables=str(tables),
                                   tables_written=written))  # fmt: skip
        force = list(args.force)
        problem = written_problem(tables, previous) if previous is not None else None
        if problem is not None:
            # The stage is done, but its files are not all there as written: write them again.
            if not args.quiet:
                print(f"tables: {problem}: writing them again", file=sys.stderr)
            force.append(TablesStage.name)
    # Say now, not after the first stages, that the store or the tables folder cannot be written.
    todo = [s.name for s in stages if s.name in force or not store.done(s.name)]
    if todo:
        store.check_writable()
        first = [s.name for s in stages].index(todo[0])
        if tables is not None and TablesStage.name in [s.name for s in stages[first:]]:
            check_folder(tables, board, table_file_names(board), written)
    with engine(args) as executor:
        ctx = Context(board, store, executor, show_progress=not args.quiet)
        if not verify_only and not set(todo) & {s.name for s in value_stages()}:
            # The values are not computed again: check that they are all there and undamaged.
            check_stored(ctx)
        records = run_build(ctx, stages, force=force)
    if not args.quiet:
        for line in format_stages({s.name: records[s.name] for s in stages if s.name in records}):
            print(line, file=sys.stderr)
    return 0


def _tables_folder(
    chosen: str | None, previous: dict[str, Any] | None, path: str, board: Board
) -> tuple[Path, tuple[str, ...]]:
    """Where the ``tables`` stage writes: ``--tables DIR``, else where it wrote before, else
    :func:`default_tables_folder`; and the files that an earlier ``tables`` stage wrote there."""
    before = previous.get("directory") if previous is not None else None
    if chosen:
        folder = Path(chosen).resolve()
    elif isinstance(before, str):
        folder = Path(before)
    else:
        folder = default_tables_folder(path, board)
    files = previous.get("files") if previous is not None else None
    written = (*files, MANIFEST) if before == str(folder) and isinstance(files, dict) else ()
    return folder, tuple(str(name) for name in written)


def run_report(args: argparse.Namespace) -> int:
    """``report``: each stage's time, CPU time, bound, ratio and peak memory from the store's records (one
    JSON object a stage with ``--json``)."""
    board = Board.parse(args.board)
    stages = Store(resolved(args.store or default_path(board)), board).stages()
    if args.json:
        for row in stage_rows(stages):
            print(json.dumps(row))
    else:
        print("\n".join(format_stages(stages)))
    return 0
