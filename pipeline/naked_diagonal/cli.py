"""``python -m pipeline nd-build|nd-verify|nd-prove|nd-strategy|nd-check-strategy|nd-atlas|nd-survey|
nd-areas``: Naked Diagonal's solve, its winners' strategies and its map of NDE areas on the command line.

:func:`register` adds the commands' arguments to ``pipeline.cli``'s subparsers; each sets ``run``, the
function of its command module (:mod:`.build_command`, :mod:`.prove_command`, :mod:`.strategy_command`,
:mod:`.atlas_command`, :mod:`.survey_command`, :mod:`.areas_command`, :mod:`.puzzles`), which
``pipeline.cli.main`` (and :func:`main` here) calls through :func:`unitile_py.command_line.run_command`:
one-line errors, exit status 2 for a user error, 1 for a failed check, 130 for Ctrl-C.
"""

from __future__ import annotations

import argparse
from typing import Any

from pipeline.arguments import at_least, board
from pipeline.errors import CheckFailed
from pipeline.executor import engine_arguments
from pipeline.puzzles import puzzle_arguments
from unitile_py.command_line import Parser, run_command
from unitile_py.naked_diagonal.strategy import MAX_BOUNDED_NODES, Bounded

from . import (
    areas_command,
    atlas_command,
    build_command,
    prove_command,
    puzzles,
    strategy_command,
    survey_command,
)
from .dfpn import TEST_NAMES
from .geometry import MAX_N
from .proof_store import ROUND_NODES
from .prove_command import LEDGER_FROM


def _engine_arguments(s: argparse.ArgumentParser, default: str = "4x4", largest: int = 5) -> None:
    """``--board`` (checked: 1x1 to ``largest`` x ``largest``) and the engine's options."""
    s.add_argument("--board", default=default, type=board(1, largest),
                   help=f"NxN, 1x1 to {largest}x{largest} (default {default})")
    engine_arguments(s)


def register_puzzles(sub: Any) -> None:
    """Add ``nd-puzzles``: puzzles chosen from the tables of a solved size (:mod:`.puzzles`)."""
    z = sub.add_parser("nd-puzzles", help="Naked Diagonal: choose puzzles from a solved size's tables")
    z.add_argument("--board", default="4x4", type=board(2, 4), help="NxN, 2x2 to 4x4 (default 4x4)")
    z.add_argument("--tables", metavar="DIR", help="tables folder (default tables/naked-diagonal)")
    puzzle_arguments(z)
    z.set_defaults(run=puzzles.run)


def register(sub: Any) -> None:
    """Add ``nd-build``, ``nd-verify``, ``nd-prove``, the strategy commands (:func:`register_strategy`) and
    the NDE area commands (:func:`register_areas`) and ``nd-puzzles`` (:func:`register_puzzles`) to
    ``python -m pipeline``."""
    build = sub.add_parser("nd-build", help="Naked Diagonal: solve a small board into a store and tables")
    verify = sub.add_parser("nd-verify", help="Naked Diagonal: rerun the checks of a solved store")
    for s in (build, verify):
        _engine_arguments(s)
        s.add_argument("--store", help="zarr store path or URL (default build/naked-diagonal-<N>x<N>.zarr)")
    build.add_argument("--force", action="append", default=[], metavar="STAGE", help="rerun a stage")
    build.add_argument("--tables", metavar="DIR", help="tables folder (default tables/naked-diagonal/NxN)")
    build.add_argument("--part-size", type=at_least(1), default=1 << 15,
                       help="positions per part and task (32768)")
    build.add_argument("--max-tier", type=at_least(0), metavar="T",
                       help="only the tiers up to T stones (no solve)")
    build.set_defaults(run=build_command.run)
    verify.set_defaults(run=build_command.run_verify)
    prove = sub.add_parser("nd-prove", help="Naked Diagonal: who wins the empty board, each first move")
    _engine_arguments(prove, default="5x5", largest=MAX_N)
    prove.add_argument("--split", type=at_least(1), default=1,
                       help="placements of the opening lines (default 1)")
    prove.add_argument("--budget", type=at_least(0), default=0, help="most nodes per task, 0 for no limit")
    prove.add_argument("--search", choices=("dfpn", "alphabeta"), default="dfpn",
                       help="the proof search of every task: df-pn (default) or alpha-beta")
    prove.add_argument("--out", metavar="FILE", help="write the results as JSON here too")
    prove.add_argument("--store", metavar="PATH",
                       help="df-pn only: the proof store to resume from and save each round's proven "
                            "entries in (default build/naked-diagonal-<N>x<N>-proof.zarr)")
    prove.add_argument("--no-store", action="store_true", help="df-pn: keep everything in memory")
    prove.add_argument("--round-nodes", type=at_least(0), default=ROUND_NODES,
                       help=f"df-pn with a store: nodes per task between saves (default {ROUND_NODES:,})")
    prove.add_argument("--max-rounds", type=at_least(0), default=0,
                       help="df-pn with a store: stop each task after this many rounds (0: no limit)")
    prove.add_argument("--hint-work", type=at_least(0), default=0, metavar="NODES",
                       help="df-pn with a store: also save unproven entries whose search took at least "
                            "NODES nodes, as hints a resumed task loads (0: none, the default)")
    prove.add_argument("--ledger", metavar="DIR",
                       help="df-pn: the folder of decided lines kept in the repository (default "
                            f"tables/naked-diagonal/progress/<N>x<N> from {LEDGER_FROM}x{LEDGER_FROM} up, "
                            "none below): lines it holds are not searched, lines decided are added")
    prove.add_argument("--no-ledger", action="store_true", help="df-pn: keep no ledger")
    prove.add_argument("--commit", action="store_true",
                       help="git-commit each ledger file as its line is decided (that file alone)")
    prove.add_argument("--first", nargs="+", default=[], metavar="POINT",
                       help="search only the lines opening with these first placements (each standing "
                            "for its symmetric images), for example the centre: c3")
    prove.add_argument("--defer", nargs="+", default=[], choices=sorted(TEST_NAMES), metavar="TEST",
                       help="df-pn: threat tests to ask of a new child only when the search enters it: "
                            f"{', '.join(sorted(TEST_NAMES))} (more nodes, each cheaper; none by default)")
    prove.add_argument("--table-mib", type=at_least(1), metavar="MIB",
                       help="df-pn: each task's transposition table in MiB (36 bytes a slot, a power of "
                            "two of slots; default 576 from 5x5 up)")
    prove.set_defaults(run=prove_command.run)
    register_strategy(sub)
    register_areas(sub)
    register_puzzles(sub)


def main(argv: list[str] | None = None) -> int:
    """``python -m pipeline.naked_diagonal COMMAND`` (the same commands as ``python -m pipeline``)."""
    parser = Parser(prog="python -m pipeline.naked_diagonal", description=__doc__)
    register(parser.add_subparsers(dest="command", required=True))

    def command() -> int:
        args = parser.parse_args(argv)
        return int(args.run(args))

    return run_command(command, failed=(CheckFailed,), resumable=True)


# Strategies -----------------------------------------------------------------------------------------


def register_strategy(sub: Any) -> None:
    """Add ``nd-strategy`` (a solved board's winner's strategy from its tables, built in this process)
    and ``nd-check-strategy`` (the separate verifier: exit status 0 accepted, 1 rejected)."""
    strategy = sub.add_parser("nd-strategy",
                              help="Naked Diagonal: write the winner's strategy of a solved board")
    strategy.add_argument("--board", default="4x4", help="NxN, a board with tables (default 4x4)")
    strategy.add_argument("--tables", metavar="DIR", help="tables folder (default tables/naked-diagonal)")
    strategy.add_argument("--out", metavar="DIR", required=True, help="the strategy folder to write")
    strategy.add_argument("--from", dest="source", choices=("tables", "proof", "strategy"), default="tables",
                          help="the tables' fastest wins (default), a df-pn proof (boards without tables), "
                               "or the whole strategy in --strategy DIR (to write it compact)")
    strategy.add_argument("--strategy", metavar="DIR",
                          help="with --from strategy: the strategy folder to read")
    strategy.add_argument("--bounded", metavar="NODES:EMPTY", type=_bounded,
                          help="write a compact strategy: leave out the winner's turns (and all below) where "
                               "the bounded search wins within NODES positions on at most EMPTY empty points")
    strategy.add_argument("--openings", metavar="FILE",
                          help="with --from proof: nd-prove --search dfpn --out FILE's results for the "
                               "manifest (default: prove the openings here, in this process)")
    strategy.add_argument("--table-slots", type=int, default=0, metavar="N",
                          help="with --from proof: slots of the df-pn table (default 2^24, 36 bytes each)")
    strategy.add_argument("--quiet", action="store_true", help="no progress lines")
    strategy.set_defaults(run=strategy_command.run)
    check = sub.add_parser("nd-check-strategy", help="Naked Diagonal: replay a strategy with the exact rules")
    check.add_argument("directory", metavar="DIR", help="a strategy folder (manifest.json, strategy.bin)")
    check.set_defaults(run=strategy_command.run_check)


def _bounded(text: str) -> Bounded:
    """``NODES:EMPTY`` of ``--bounded``."""
    nodes, _, empty = text.partition(":")
    if not (nodes.isdigit() and empty.isdigit() and 0 < int(nodes) <= MAX_BOUNDED_NODES
            and 0 < int(empty) <= MAX_N * MAX_N):
        raise argparse.ArgumentTypeError(f"{text!r}: expected NODES:EMPTY, NODES from 1 to "
                                         f"{MAX_BOUNDED_NODES:,} and EMPTY from 1 to {MAX_N * MAX_N}, such "
                                         "as 300:12")
    return Bounded(int(nodes), int(empty))


# The NDE areas -------------------------------------------------------------------------------------


def register_areas(sub: Any) -> None:
    """Add ``nd-atlas``, ``nd-survey`` and ``nd-areas`` (docs/naked-diagonal-areas.md)."""
    atlas = sub.add_parser("nd-atlas", help="Naked Diagonal: every NDE configuration of up to K empty points")
    _engine_arguments(atlas)
    atlas.add_argument("--k", type=int, default=5, help="most points of an area (default 5)")
    atlas.add_argument("--out", metavar="FILE", default="build/nd-atlas.json", help="results (JSON)")
    atlas.set_defaults(run=atlas_command.run)
    survey = sub.add_parser("nd-survey", help="Naked Diagonal: the NDE areas placements leave in games")
    _engine_arguments(survey)
    survey.add_argument("--sizes", type=int, nargs="+", default=list(range(5, 14)),
                        help="board sizes (default 5 to 13)")
    survey.add_argument("--players", nargs="+", default=["random", "greedy"], help="random and/or greedy")
    survey.add_argument("--games", type=int, default=200,
                        help="games per task on 5x5 (default 200); n x n plays games * (5/n)**4, at least 1")
    survey.add_argument("--tasks", type=int, default=2, help="tasks per size and player (default 2)")
    survey.add_argument("--seed", type=int, default=1, help="first seed (default 1)")
    survey.add_argument("--out", metavar="FILE", default="build/nd-survey.json", help="results (JSON)")
    survey.add_argument("--parts", metavar="DIR",
                        help="keep each finished task's result here and reuse them: a stopped survey "
                             "resumes (default: OUT without .json, plus -parts)")
    survey.add_argument("--kept-only", action="store_true",
                        help="run nothing: merge the kept results of the planned tasks that finished "
                             "(a survey stopped early; the output says how many were planned)")
    survey.set_defaults(run=survey_command.run)
    areas = sub.add_parser("nd-areas", help="Naked Diagonal: publish the atlas and the survey as one file")
    areas.add_argument("--atlas", default="build/nd-atlas.json", help="nd-atlas results")
    areas.add_argument("--survey", default="build/nd-survey.json", help="nd-survey results")
    areas.add_argument("--out", default="tables/naked-diagonal/areas.json", help="the published file")
    areas.set_defaults(run=areas_command.run)
