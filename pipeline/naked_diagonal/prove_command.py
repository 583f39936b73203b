"""``python -m pipeline nd-prove``: who wins the empty board and each opening line, by a proof search over
the opening lines' tasks (:func:`pipeline.naked_diagonal.proof.prove_openings`); resumable through a
proof store, and a ledger of decided lines kept in the repository from :data:`LEDGER_FROM` up."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from pipeline.executor import engine
from pipeline.store import resolved
from unitile_py.command_line import EXIT_INTERRUPTED, quiet_after_interrupt
from unitile_py.errors import NakedDiagonalError

from .command_io import board_size, progress_log
from .dfpn import TEST_NAMES, table_slots
from .ledger import default_ledger
from .proof_store import ROUND_MIN, ProofStore, default_proof_path

#: The smallest board whose ``nd-prove`` keeps a ledger by default (smaller ones are decided quickly).
LEDGER_FROM = 6


def run(args: argparse.Namespace) -> int:
    """Check the options (before any work), run the search, print the results as JSON (and write them to
    ``--out``); Ctrl-C says how to continue, exit status 130."""
    from .proof import ALPHA_BETA_MAX_N, prove_openings

    n = board_size(args.board)
    if args.search == "alphabeta" and n > ALPHA_BETA_MAX_N:
        raise NakedDiagonalError(f"board {args.board}: the alpha-beta search's keys hold boards up to "
                                 f"{ALPHA_BETA_MAX_N}x{ALPHA_BETA_MAX_N}; use --search dfpn")
    if args.search != "dfpn" and args.store:
        raise NakedDiagonalError(f"--store {args.store}: a proof store keeps df-pn proofs only "
                                 f"(the default --search dfpn)")
    if args.out:
        check_output(args.out)
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
    first = tuple(point(n, text, "--first") for text in args.first)
    slots = table_slots(args.table_mib) if args.table_mib else 0
    lazy = sum({TEST_NAMES[name] for name in args.defer})
    try:
        with engine(args) as executor:
            result = prove_openings(n, executor, split=args.split, budget=args.budget, log=progress_log(args),
                                    search=args.search, store=store, round_nodes=args.round_nodes,
                                    max_rounds=args.max_rounds, progress=not args.quiet,
                                    hint_work=max(0, args.hint_work), ledger=ledger, commit=args.commit,
                                    first=first, slots=slots, lazy=lazy)
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


def point(n: int, text: str, option: str) -> int:
    """A point's name on the n x n board, or one line naming the option."""
    from unitile_py.naked_diagonal.grid import Grid

    return Grid.get(n).point(text, f"{option} point")


def check_output(path: str) -> None:
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
