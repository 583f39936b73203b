"""``python -m pipeline nd-build|nd-verify|nd-prove|nd-strategy|nd-check-strategy|nd-atlas|nd-survey|
nd-areas``: Naked Diagonal's solve, its winners' strategies and its map of NDE areas on the command line.

:func:`register` adds the commands to ``pipeline.cli``'s subparsers; each sets ``run``, which
``pipeline.cli.main`` (and :func:`main` here) calls through :func:`unitile_py.command_line.run_command`:
one-line errors, exit status 2 for a user error, 1 for a failed check, 130 for Ctrl-C.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from pipeline.arguments import at_least, board
from pipeline.errors import CheckFailed
from pipeline.executor import InProcessExecutor, engine, engine_arguments
from pipeline.puzzles import puzzle_arguments
from pipeline.store import resolved
from unitile_py.command_line import EXIT_INTERRUPTED, Parser, quiet_after_interrupt, run_command
from unitile_py.errors import NakedDiagonalError
from unitile_py.naked_diagonal.strategy import MAX_BOUNDED_NODES, Bounded

from . import puzzles
from .build import BuildOptions, plan, run_build
from .context import Context
from .dfpn import table_slots
from .geometry import MAX_N
from .ledger import default_ledger
from .proof_store import ROUND_MIN, ROUND_NODES, ProofStore, default_proof_path
from .store import Store, default_path

#: The smallest board whose ``nd-prove`` keeps a ledger by default (smaller ones are decided in minutes).
LEDGER_FROM = 6


def board_size(text: str) -> int:
    """N of ``NxN``.

    >>> board_size("4x4")
    4
    """
    parts = text.lower().split("x")
    if len(parts) != 2 or not all(p.isascii() and p.isdigit() for p in parts) or parts[0] != parts[1]:
        raise NakedDiagonalError(f"board {text!r}: expected NxN, such as 4x4")
    return int(parts[0])


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
    build.set_defaults(run=_build)
    verify.set_defaults(run=_verify)
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
    prove.add_argument("--table-mib", type=at_least(1), metavar="MIB",
                       help="df-pn: each task's transposition table in MiB (36 bytes a slot, a power of "
                            "two of slots; default 576 from 5x5 up)")
    prove.set_defaults(run=_prove)
    register_strategy(sub)
    register_areas(sub)
    register_puzzles(sub)


def _run(args: argparse.Namespace, verify_only: bool) -> int:
    n = board_size(args.board)
    if not 1 <= n <= 5:
        raise NakedDiagonalError(
            f"board {args.board}: the tiers take boards 1x1 to 5x5 (larger: see nd-prove)"
        )
    path = resolved(args.store or default_path(n))
    tables = str(Path(args.tables).resolve()) if getattr(args, "tables", None) else None
    max_tier = getattr(args, "max_tier", None)
    options = BuildOptions(part_size=getattr(args, "part_size", 1 << 15), tables=tables, max_tier=max_tier)
    stages = plan(n, options)
    names = [s.name for s in stages]
    force = list(getattr(args, "force", []))
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


def _build(args: argparse.Namespace) -> int:
    return _run(args, verify_only=False)


def _verify(args: argparse.Namespace) -> int:
    return _run(args, verify_only=True)


def _prove(args: argparse.Namespace) -> int:
    from .proof import ALPHA_BETA_MAX_N, prove_openings

    n = board_size(args.board)
    if args.search == "alphabeta" and n > ALPHA_BETA_MAX_N:
        raise NakedDiagonalError(f"board {args.board}: the alpha-beta search's keys hold boards up to "
                                 f"{ALPHA_BETA_MAX_N}x{ALPHA_BETA_MAX_N}; use --search dfpn")
    if args.search != "dfpn" and args.store:
        raise NakedDiagonalError(f"--store {args.store}: a proof store keeps df-pn proofs only "
                                 f"(the default --search dfpn)")
    if args.out:
        _check_output(args.out)
    store = None
    if args.search == "dfpn" and not args.no_store:
        if args.round_nodes < ROUND_MIN:
            # A round stops with its open frames unstored: rounds shorter than a descent make no progress.
            raise NakedDiagonalError(f"--round-nodes {args.round_nodes}: must be at least {ROUND_MIN:,}")
        if args.max_rounds < 0:
            raise NakedDiagonalError(f"--max-rounds {args.max_rounds}: must be 0 (no limit) or more")
        store = resolved(args.store or default_proof_path(n))
        ProofStore(store, n, create=True).check_writable()
    ledger = None
    if args.search == "dfpn" and not args.no_ledger and (args.ledger or n >= LEDGER_FROM):
        ledger = str(Path(args.ledger) if args.ledger else default_ledger(n))
        if Path(ledger).exists() and not Path(ledger).is_dir():
            raise NakedDiagonalError(f"--ledger {ledger}: not a folder")
    elif args.commit:
        raise NakedDiagonalError("--commit: there is no ledger to commit (df-pn with a ledger only)")
    first = tuple(_point(n, text, "--first") for text in args.first)
    slots = table_slots(args.table_mib) if args.table_mib else 0
    try:
        with engine(args) as executor:
            result = prove_openings(n, executor, split=args.split, budget=args.budget, log=_log(args),
                                    search=args.search, store=store, round_nodes=args.round_nodes,
                                    max_rounds=args.max_rounds, progress=not args.quiet,
                                    hint_work=max(0, args.hint_work), ledger=ledger, commit=args.commit,
                                    first=first, slots=slots)
    except KeyboardInterrupt:
        quiet_after_interrupt()
        where = f" (the completed rounds are in {store})" if store else ""
        print(f"stopped: rerun the same command to continue{where}", file=sys.stderr)
        return EXIT_INTERRUPTED
    text = json.dumps(result, indent=1)
    print(text, flush=True)
    if args.out:
        try:
            Path(args.out).write_text(text + "\n")
        except OSError as exc:
            raise NakedDiagonalError(f"--out {args.out}: cannot write ({exc.strerror or exc}); the results "
                                     "are on standard output above") from None
    return 0


def _point(n: int, text: str, option: str) -> int:
    """A point's name on the n x n board, or one line naming the option."""
    from unitile_py.naked_diagonal.grid import Grid

    return Grid.get(n).point(text, f"{option} point")


def _check_output(path: str) -> None:
    """A one-line error now, before any work, when the file ``path`` cannot be written."""
    out = Path(path)
    parent = out.parent if str(out.parent) else Path(".")
    if out.is_dir():
        raise NakedDiagonalError(f"--out {path}: is a directory")
    if not parent.is_dir():
        raise NakedDiagonalError(f"--out {path}: no such directory {parent}")
    existed = out.exists()
    try:
        with out.open("a"):  # opened as the write will be, without changing what it holds
            pass
    except OSError as exc:
        raise NakedDiagonalError(f"--out {path}: cannot write there ({exc.strerror or exc})") from None
    if not existed:
        out.unlink()


def _log(args: argparse.Namespace) -> Any:
    def log(msg: str) -> None:
        if not args.quiet:
            print(msg, file=sys.stderr, flush=True)

    return log


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
    strategy.set_defaults(run=_strategy)
    check = sub.add_parser("nd-check-strategy", help="Naked Diagonal: replay a strategy with the exact rules")
    check.add_argument("directory", metavar="DIR", help="a strategy folder (manifest.json, strategy.bin)")
    check.set_defaults(run=_check_strategy)


def _bounded(text: str) -> Bounded:
    """``NODES:EMPTY`` of ``--bounded``."""
    nodes, _, empty = text.partition(":")
    if not (nodes.isdigit() and empty.isdigit() and 0 < int(nodes) <= MAX_BOUNDED_NODES
            and 0 < int(empty) <= MAX_N * MAX_N):
        raise argparse.ArgumentTypeError(f"{text!r}: expected NODES:EMPTY, NODES from 1 to "
                                         f"{MAX_BOUNDED_NODES:,} and EMPTY from 1 to {MAX_N * MAX_N}, such "
                                         "as 300:12")
    return Bounded(int(nodes), int(empty))


def _with_bounded(command: str, bounded: Bounded | None) -> str:
    return command if bounded is None else f"{command} --bounded {bounded.nodes}:{bounded.empty}"


def _written(args: argparse.Namespace, records: Any, sizes: dict[str, int]) -> str:
    """The end of the summary line: what went into the folder."""
    compact = ""
    if args.bounded:
        stored = json.loads((Path(args.out) / "manifest.json").read_text(encoding="utf-8"))["positions"]
        compact = f", {stored:,} of them stored (compact)"
    return (f"{len(records):,} positions of the winner's turns{compact}; {args.out}: "
            + ", ".join(f"{name} {size:,} bytes" for name, size in sizes.items()))


def _strategy(args: argparse.Namespace) -> int:
    from .strategy_file import strategy_from_tables, write_strategy

    n = board_size(args.board)
    if args.source == "proof":
        return _strategy_from_proof(args, n)
    if args.source == "strategy":
        return _strategy_from_strategy(args, n)
    winner, records = strategy_from_tables(n, args.tables)
    command = _with_bounded(f"python -m pipeline nd-strategy --board {n}x{n}", args.bounded)
    sizes = write_strategy(args.out, n, winner, records, command, bounded=args.bounded)
    print(f"{n}x{n}: {_written(args, records, sizes)}")
    return 0


def _strategy_from_strategy(args: argparse.Namespace, n: int) -> int:
    """A whole strategy written again (compact with ``--bounded``), its proof's results kept."""
    from unitile_py.naked_diagonal.strategy import Strategy

    from .strategy_file import write_strategy

    if not args.strategy:
        raise NakedDiagonalError("--from strategy needs --strategy DIR, the strategy folder to read")
    source = Strategy.load(None, args.strategy)
    if source.n != n:
        raise NakedDiagonalError(f"{args.strategy}: a {source.n}x{source.n} strategy, not {n}x{n}")
    if source.bounded is not None:
        raise NakedDiagonalError(f"{args.strategy}: already compact (it leaves turns to a bounded search)")
    records = dict(zip(source.keys, source.moves, strict=True))
    kept = ("empty_board", "first_placements", "proof")
    results: dict[str, Any] = {name: source.manifest[name] for name in kept if name in source.manifest}
    if args.bounded:
        results["whole"] = {"positions": len(records), "records_sha256": source.manifest["records_sha256"],
                            "command": source.manifest.get("command", "")}
    command = _with_bounded(str(source.manifest.get("command") or f"python -m pipeline nd-strategy "
                                f"--board {n}x{n}"), args.bounded)
    sizes = write_strategy(args.out, n, source.winner, records, command, results, args.bounded)
    print(f"{n}x{n}: {_written(args, records, sizes)}")
    return 0


def _strategy_from_proof(args: argparse.Namespace, n: int) -> int:
    from .dfpn import DfpnSearch
    from .proof import prove_openings
    from .proof_strategy import strategy_from_search
    from .strategy_file import write_strategy

    if not 2 <= n <= MAX_N:
        raise NakedDiagonalError(f"board {args.board}: the df-pn proof takes boards 2x2 to {MAX_N}x{MAX_N}")
    log = _log(args)
    if args.openings:
        openings = _openings_file(args.openings, n)
    else:
        log(f"{n}x{n}: proving every first placement (df-pn, in this process)")
        openings = prove_openings(n, InProcessExecutor(), split=1, log=log, search="dfpn")
    log(f"{n}x{n}: proving the empty board and walking its proof")
    found = strategy_from_search(n, DfpnSearch(n, slots=args.table_slots), log=log)
    if openings["winner"] != {"r": "red", "b": "blue"}[found.winner]:
        raise CheckFailed(f"the openings file says {openings['winner']} wins, the proof {found.winner}")
    results = {
        "empty_board": openings["empty_board"],
        "first_placements": openings["first_placements"],
        "proof": {"search": "dfpn", "nodes": found.proof_nodes, "walk_nodes": found.walk_nodes,
                  "loser_turns": found.loser_turns, "opening_nodes": openings["nodes"]},
    }
    command = _with_bounded(f"python -m pipeline nd-strategy --board {n}x{n} --from proof", args.bounded)
    sizes = write_strategy(args.out, n, found.winner, found.moves, command, results, args.bounded)
    print(f"{n}x{n}: {'Red' if found.winner == 'r' else 'Blue'} wins, {found.loser_turns:,} of the loser's "
          f"turns walked; {_written(args, found.moves, sizes)}")
    return 0


def _openings_file(path: str, n: int) -> dict[str, Any]:
    """nd-prove's results for an n x n board, every first placement decided."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except OSError as exc:
        raise NakedDiagonalError(f"{path}: cannot read: {exc.strerror or exc}") from None
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise NakedDiagonalError(f"{path}: not nd-prove's JSON results: {exc}") from None
    if not isinstance(data, dict) or data.get("board") != f"{n}x{n}":
        raise NakedDiagonalError(f"{path}: not nd-prove's results for {n}x{n}")
    places = data.get("first_placements")
    if data.get("winner") not in ("red", "blue") or not isinstance(places, dict) or not places or any(
        v not in ("win", "loss") for v in places.values()
    ):
        raise NakedDiagonalError(f"{path}: the empty board or some first placement is not decided")
    return data


def _check_strategy(args: argparse.Namespace) -> int:
    from .check_strategy import check_strategy, load_checked

    print(check_strategy(load_checked(args.directory)).text())
    return 0


# The NDE areas -------------------------------------------------------------------------------------


def register_areas(sub: Any) -> None:
    """Add ``nd-atlas``, ``nd-survey`` and ``nd-areas`` (docs/naked-diagonal-areas.md)."""
    atlas = sub.add_parser("nd-atlas", help="Naked Diagonal: every NDE configuration of up to K empty points")
    _engine_arguments(atlas)
    atlas.add_argument("--k", type=int, default=5, help="most points of an area (default 5)")
    atlas.add_argument("--out", metavar="FILE", default="build/nd-atlas.json", help="results (JSON)")
    atlas.set_defaults(run=_atlas)
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
    survey.set_defaults(run=_survey)
    areas = sub.add_parser("nd-areas", help="Naked Diagonal: publish the atlas and the survey as one file")
    areas.add_argument("--atlas", default="build/nd-atlas.json", help="nd-atlas results")
    areas.add_argument("--survey", default="build/nd-survey.json", help="nd-survey results")
    areas.add_argument("--out", default="tables/naked-diagonal/areas.json", help="the published file")
    areas.set_defaults(run=_areas)


def _positive(name: str, value: int) -> None:
    if value < 1:
        raise NakedDiagonalError(f"--{name} {value}: must be at least 1")


def _write(path: str, data: Any) -> None:
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    Path(path).write_text(json.dumps(data, indent=1) + "\n")


def _atlas(args: argparse.Namespace) -> int:
    from .atlas import MAX_K, run_atlas

    if not 1 <= args.k <= MAX_K:
        raise NakedDiagonalError(f"--k {args.k}: expected 1 to {MAX_K}")
    with engine(args) as executor:
        result = run_atlas(executor, args.k, log=_log(args))
    _write(args.out, result)
    summary = {"k_max": result["k_max"], "per_k": result["per_k"], "seconds": result["seconds"]}
    print(json.dumps(summary, indent=1))
    return 0


def _survey(args: argparse.Namespace) -> int:
    from .survey import PLAYERS, SurveyTask, part_name, run_survey

    for n in args.sizes:
        if not 5 <= n <= 13:
            raise NakedDiagonalError(f"--sizes {n}: the survey takes boards 5x5 to 13x13")
    for player in args.players:
        if player not in PLAYERS:
            raise NakedDiagonalError(f"--players {player}: expected {' or '.join(PLAYERS)}")
    _positive("games", args.games)
    _positive("tasks", args.tasks)
    # Round by round (every size and player with one seed, then the next seed), so that a survey
    # stopped early has every board size.
    tasks = [SurveyTask(n, player, args.seed + i, max(1, round(args.games * (5 / n) ** 4)))
             for i in range(args.tasks) for n in args.sizes for player in args.players]
    out = Path(args.out)
    parts = Path(args.parts) if args.parts else out.with_name(out.stem + "-parts")
    if args.kept_only:
        kept = [t for t in tasks if (parts / part_name(t)).is_file()]
        if not kept:
            raise NakedDiagonalError(f"{parts}: no kept results of these tasks")
        result = run_survey(InProcessExecutor(), kept, log=_log(args), parts=parts)
        result["planned_tasks"] = len(tasks)
    else:
        with engine(args) as executor:
            result = run_survey(executor, tasks, log=_log(args), parts=parts)
    result["command"] = "python -m pipeline nd-survey " + " ".join(sys.argv[2:])
    _write(args.out, result)
    print(json.dumps({"per_board": result["per_board"], "configurations": len(result["areas"]),
                      "seconds": result["seconds"]}, indent=1))
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


def _areas(args: argparse.Namespace) -> int:
    from .areas_file import publish

    for name in ("atlas", "survey"):
        if Path(args.out).resolve() == Path(getattr(args, name)).resolve():
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
