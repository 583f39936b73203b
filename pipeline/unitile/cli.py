"""Unitile's commands of ``python -m pipeline``: ``build``, ``verify``, ``report``, ``puzzles`` and ``values``
(:func:`register`; the dispatcher :mod:`pipeline.cli` runs them: user errors print one line and exit
with status 2). Only their arguments are here; each sets ``run``, the function of its command module
(:mod:`.build_command`, :mod:`.puzzles`, :mod:`.values_command`)."""

from __future__ import annotations

from typing import Any

from ..executor import engine_arguments
from ..puzzles import puzzle_arguments
from . import build_command, puzzles, values_command


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
        s.set_defaults(run=build_command.run if name == "build" else build_command.run_verify)
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
    r.set_defaults(run=build_command.run_report)
    z = sub.add_parser("puzzles", help="choose puzzles from a finished store into tables/puzzles/")
    z.add_argument("--board", default="5x5", help="ROWSxCOLS (default 5x5)")
    z.add_argument("--store", help="zarr store path or fsspec URL (default build/<board>.zarr)")
    puzzle_arguments(z)
    z.set_defaults(run=puzzles.run)
    v = sub.add_parser("values", help="print r, b and T of positions")
    v.add_argument("position", help="position text such as 'BRBRB/RBRBR/BR.BR/BRBRB/RBRBR r', or - for stdin")
    v.add_argument("--store", help="zarr store path (default build/<board>.zarr)")
    v.add_argument("--json", action="store_true", help='print {"r": .., "b": .., "T": ..}')
    v.set_defaults(run=values_command.run)
