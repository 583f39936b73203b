"""Unitile's commands of ``python -m pipeline``: ``build``, ``verify``, ``report``, ``puzzles`` and ``values``
(:func:`register`; the dispatcher :mod:`pipeline.cli` runs them: user errors print one line and exit
with status 2)."""

from __future__ import annotations

import argparse
import json
import math
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from unitile_py.errors import GameError
from unitile_py.inputs import input_lines, stdin_bytes
from unitile_py.unitile.board import Board
from unitile_py.unitile.notation import parse_position

from ..executor import engine, engine_arguments
from ..puzzles import puzzle_arguments
from ..report import format_stages, stage_rows
from ..store import is_url, resolved
from . import puzzles
from .build import BuildOptions, plan, run_build, value_stages, verify_plan
from .compact import table_file_names
from .context import Context
from .store import Store, default_path
from .table_folder import MANIFEST, check_folder, written_problem
from .table_stages import TablesStage, default_tables_folder
from .values import Lookup
from .verify_stage import check_stored


def register(sub: Any) -> None:
    """Add ``build``, ``verify``, ``report`` and ``values`` to ``python -m pipeline`` (:mod:`pipeline.cli`);
    each sets ``run``, the function of the parsed arguments that does the command."""
    for name, text in (
        ("build", "run the stages not yet complete into a zarr store"),
        ("verify", "check the stored values (rerun the verify stage)"),
    ):
        s = sub.add_parser(name, help=text)
        s.add_argument("--board", default="5x5", help="ROWSxCOLS with an odd number of cells (default 5x5)")
        s.add_argument(
            "--store", help="zarr store path or fsspec URL shared by all workers (default build/<board>.zarr)"
        )
        engine_arguments(s)
        s.set_defaults(run=_build if name == "build" else _verify)
        if name == "build":
            s.add_argument("--force", action="append", default=[], metavar="STAGE", help="rerun a stage")
            s.add_argument(
                "--tables",
                metavar="DIR",
                help="write the lookup tables here (default: tables/<board> for the default store, "
                "<store>.tables next to any other)",
            )
            s.add_argument(
                "--checkpoint-seconds",
                type=float,
                default=15.0,
                metavar="S",
                help="seconds between checkpoints of the solve (default 15)",
            )
    r = sub.add_parser("report", help="print each stage's time, CPU time, bound, ratio and peak memory")
    r.add_argument("--board", default="5x5", help="ROWSxCOLS (default 5x5)")
    r.add_argument("--store", help="zarr store path or fsspec URL (default build/<board>.zarr)")
    r.add_argument("--json", action="store_true", help="one JSON object per stage")
    r.set_defaults(run=_report)
    z = sub.add_parser("puzzles", help="choose puzzles from a finished store into tables/puzzles/")
    z.add_argument("--board", default="5x5", help="ROWSxCOLS (default 5x5)")
    z.add_argument("--store", help="zarr store path or fsspec URL (default build/<board>.zarr)")
    puzzle_arguments(z)
    z.set_defaults(run=puzzles.run)
    v = sub.add_parser("values", help="print r, b and T of positions")
    v.add_argument("position", help="position text such as 'BRBRB/RBRBR/BR.BR/BRBRB/RBRBR r', or - for stdin")
    v.add_argument("--store", help="zarr store path (default build/<board>.zarr)")
    v.add_argument("--json", action="store_true", help='print {"r": .., "b": .., "T": ..}')
    v.set_defaults(run=_values)


def _build(args: argparse.Namespace) -> int:
    return _run(args, verify_only=False)


def _verify(args: argparse.Namespace) -> int:
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


def _report(args: argparse.Namespace) -> int:
    board = Board.parse(args.board)
    stages = Store(resolved(args.store or default_path(board)), board).stages()
    if args.json:
        for row in stage_rows(stages):
            print(json.dumps(row))
    else:
        print("\n".join(format_stages(stages)))
    return 0


def _lines(arg: str) -> Iterator[tuple[int, str | GameError]]:
    """``(line number, text)`` of the positions to look up: the argument, or each line of standard input
    for ``-`` as it arrives (:func:`unitile_py.inputs.input_lines`: a GameError for a line that is not
    UTF-8 or too long)."""
    if arg != "-":
        yield 1, arg
        return
    yield from input_lines(stdin_bytes())


def _values(args: argparse.Namespace) -> int:
    lookups: dict[tuple[Board, str], Lookup] = {}
    status = 0
    for n, line in _lines(args.position):
        text = line.strip() if isinstance(line, str) else line
        if text == "":
            continue
        try:
            if isinstance(text, GameError):
                raise text
            position = parse_position(text)
            path = args.store or default_path(position.board)
            key = (position.board, path)
            if key not in lookups:
                lookups[key] = Lookup(path, position.board)
            r, b, t = lookups[key].values(position)
        except GameError as exc:
            if args.position != "-":
                raise
            said = str(exc) if exc is text else f"line {n}: {exc}"
            print(json.dumps({"error": said}) if args.json else f"error: {said}", flush=True)
            status = 2
            continue
        if args.json:
            print(json.dumps({"r": r, "b": b, "T": t}), flush=True)
        else:
            print(f"r {_num(r)}  b {_num(b)}  T {_num(t)}", flush=True)
    return status


def _num(v: float) -> str:
    return repr(v) if math.isfinite(v) else str(v)
