"""``python -m pipeline nd-strategy``: a winner's strategy written into a folder, from a solved board's
tables, from a df-pn proof (boards without tables) or from a whole strategy (to write it compact); and
``nd-check-strategy``, its separate verifier (exit status 0 accepted, 1 rejected)."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from pipeline.errors import CheckFailed
from pipeline.executor import InProcessExecutor
from unitile_py.errors import NakedDiagonalError
from unitile_py.naked_diagonal.strategy import Bounded

from .command_io import board_size, progress_log
from .geometry import MAX_N


def run(args: argparse.Namespace) -> int:
    """Write the strategy of ``--board`` into ``--out`` from what ``--from`` names; print one summary
    line."""
    from .strategy_file import strategy_from_tables, write_strategy

    n = board_size(args.board)
    if args.source == "proof":
        return _from_proof(args, n)
    if args.source == "strategy":
        return _from_strategy(args, n)
    winner, records = strategy_from_tables(n, args.tables)
    command = _with_bounded(f"python -m pipeline nd-strategy --board {n}x{n}", args.bounded)
    sizes = write_strategy(args.out, n, winner, records, command, bounded=args.bounded)
    print(f"{n}x{n}: {_written(args, records, sizes)}")
    return 0


def run_check(args: argparse.Namespace) -> int:
    """Replay the strategy folder with the exact rules and print the verdict (a rejection raises
    :class:`pipeline.errors.CheckFailed`)."""
    from .check_strategy import check_strategy, load_checked

    print(check_strategy(load_checked(args.directory)).text())
    return 0


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


def _from_strategy(args: argparse.Namespace, n: int) -> int:
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


def _from_proof(args: argparse.Namespace, n: int) -> int:
    """The strategy of a walk of the empty board's df-pn proof, with the openings' results (proved here,
    or read from ``--openings``)."""
    from .dfpn import DfpnSearch
    from .proof import prove_openings
    from .proof_strategy import strategy_from_search
    from .strategy_file import write_strategy

    if not 2 <= n <= MAX_N:
        raise NakedDiagonalError(f"board {args.board}: the df-pn proof takes boards 2x2 to {MAX_N}x{MAX_N}")
    log = progress_log(args)
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
