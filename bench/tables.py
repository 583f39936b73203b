"""Speed of the lookup tables in CPython, and (with --rebuild) a rebuild of the 5x5 tables compared by hash.

    .venv/bin/python bench/tables.py [--board 5x5] [--positions 20000] [--seed 1]
    .venv/bin/python bench/tables.py --rebuild [--board 5x5] [--store build/5x5.zarr]

Lookups: load time (files read, sha256 checked, locators built), inflating every block, then
microseconds per call over seeded random positions where no colour is united (both sides to move),
best of 5 rounds: the record lookup itself (symmetry reduction, record number, one record), legal()
and best() (split by the parity of the bubble's cell: odd cells read their neighbours' records),
outcome() with its memory cleared before every call (it follows best slides to the end; percentiles
per call) and remembered (a second pass), and moves() (one outcome per legal slide, as the analysis).

--rebuild: builds the board's tables (``--board``, 5x5 by default) again into a temporary directory
(``--out DIR`` keeps them) and compares every file's sha256 with tables/<board>/manifest.json. With
--store it reruns the stages from ``verify`` (the pass that derives the legal and best slides) on that
store, reusing the values and perfect play; without, it builds everything from scratch in a temporary
store. The ``.bin`` files depend only on the legal and best slides; manifest.json also
records the value solve's iterations, residual and bounds, so it changes when the solver does.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import statistics
import subprocess
import sys
import tempfile
import time
import timeit
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from unitile_py.unitile import Board, Position  # noqa: E402
from unitile_py.unitile.tables import Tables  # noqa: E402


def per_call(fn: Callable[[], object], n: int, repeat: int = 5) -> float:
    """Microseconds per call: the best of ``repeat`` rounds of ``fn`` (which makes ``n`` calls)."""
    return min(timeit.repeat(fn, number=1, repeat=repeat)) / n * 1e6


def sample(board: Board, count: int, seed: int) -> list[Position]:
    """Seeded random positions where no colour is united, either side to move."""
    rng = random.Random(seed)
    out: list[Position] = []
    while len(out) < count:
        p = Position.from_index(board, rng.randrange(board.positions), rng.choice("rb"))
        if p.winner() is None:
            out.append(p)
    return out


def lookups(board: Board, count: int, seed: int) -> None:
    """Print the lookup timings."""
    t0 = time.perf_counter()
    tables = Tables.load(board)
    load = time.perf_counter() - t0
    files = sum(f["bytes"] for f in tables.manifest["files"].values())
    t0 = time.perf_counter()
    blocks = 0
    for ff in tables._files.values():
        for b in range(len(ff.blocks)):
            if ff.blocks[b] is None:
                ff.inflate(b)
                blocks += 1
    inflate = time.perf_counter() - t0
    raw = sum(len(b or b"") for ff in tables._files.values() for b in ff.blocks)
    positions = sample(board, count, seed)
    even = [p for p in positions if sum(board.row_col(p.bubble)) % 2 == 0]
    odd = [p for p in positions if sum(board.row_col(p.bubble)) % 2 == 1]
    locs = tables._loc

    def record_lookup() -> None:
        for p in positions:
            lc = locs[p.bubble]
            lc.file.record(lc.locate(p.red)[0])

    rows = [
        ("record lookup (reduce, number, read)", per_call(record_lookup, len(positions))),
        ("legal(), all", per_call(lambda: [tables.legal(p) for p in positions], len(positions))),
        ("legal(), bubble on an even cell", per_call(lambda: [tables.legal(p) for p in even], len(even))),
        ("legal(), bubble on an odd cell", per_call(lambda: [tables.legal(p) for p in odd], len(odd))),
        ("best(), all", per_call(lambda: [tables.best(p) for p in positions], len(positions))),
        ("best(), bubble on an even cell", per_call(lambda: [tables.best(p) for p in even], len(even))),
        ("best(), bubble on an odd cell", per_call(lambda: [tables.best(p) for p in odd], len(odd))),
    ]
    few = positions[: min(len(positions), 5000)]
    times = []
    plies = []
    for p in few:
        tables._memo.clear()
        t = time.perf_counter()
        _, d = tables.outcome(p)
        times.append((time.perf_counter() - t) * 1e6)
        plies.append(d)
    tables._memo.clear()
    for p in few:
        tables.outcome(p)
    rows.append(
        ("outcome(), remembered (second pass)", per_call(lambda: [tables.outcome(p) for p in few], len(few)))
    )
    tables._memo.clear()
    t = time.perf_counter()
    for p in few[:1000]:
        tables._memo.clear()
        tables.moves(p)
    rows.append(("moves() (analysis), memory cleared", (time.perf_counter() - t) / min(1000, len(few)) * 1e6))
    q = statistics.quantiles(times, n=100)
    print(f"tables {board}: {files:,} bytes in {len(tables.manifest['files'])} files + manifest")
    print(
        f"  load (read, sha256, locators): {load * 1e3:.1f} ms; inflate all {blocks} blocks: "
        f"{inflate * 1e3:.1f} ms ({raw:,} bytes)"
    )
    print(f"  {len(positions)} random positions (seed {seed}), no colour united, either side to move:")
    for name, us in rows:
        print(f"    {name:<42} {us:8.2f} us")
    print(
        f"    {'outcome(), memory cleared before each':<42} {statistics.fmean(times):8.2f} us mean; "
        f"median {q[49]:.1f}, p90 {q[89]:.1f}, p99 {q[98]:.1f}, max {max(times):.1f} us; "
        f"mean distance {statistics.fmean(plies):.1f} plies (max {max(plies)})"
    )
    per_ply = sum(times) / max(1, sum(plies))
    print(f"    {'outcome() per ply followed':<42} {per_ply:8.2f} us")


def rebuild(board: Board, store: str | None, keep: str | None) -> int:
    """Rebuild a board's tables into a temporary directory (or ``keep``) and compare hashes with the
    committed manifest."""
    committed = json.loads((ROOT / "tables" / str(board) / "manifest.json").read_text())
    with tempfile.TemporaryDirectory(prefix=f"tables{board}-") as tmp:
        out = Path(keep) if keep else Path(tmp) / "tables"
        cmd = [sys.executable, "-m", "pipeline", "build", "--board", str(board), "--tables", str(out)]
        cmd.append("--quiet")
        if store:
            # From the pass over every position on: legal and best slides, then the files.
            cmd += ["--store", store, "--force", "verify"]
        else:
            cmd += ["--store", str(Path(tmp) / f"{board}.zarr")]
        t0 = time.perf_counter()
        subprocess.run(cmd, cwd=ROOT, check=True)
        seconds = time.perf_counter() - t0
        same = True
        for name, info in committed["files"].items():
            digest = hashlib.sha256((out / name).read_bytes()).hexdigest()
            ok = digest == info["sha256"]
            same &= ok
            print(f"  {name:<8} {digest[:16]}  {'same' if ok else 'DIFFERENT'}")
        manifest_same = (out / "manifest.json").read_bytes() == (
            ROOT / "tables" / str(board) / "manifest.json"
        ).read_bytes()
        print(f"  manifest.json {'same' if manifest_same else 'DIFFERENT'}")
        print(
            f"rebuild ({'from ' + store if store else 'from scratch'}): {seconds:.0f} s; "
            f"{'identical' if same and manifest_same else 'NOT identical'}"
        )
        return 0 if same and manifest_same else 1


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--board", default="5x5")
    p.add_argument("--positions", type=int, default=20000)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--rebuild", action="store_true", help="rebuild the board's tables and compare hashes")
    p.add_argument("--store", help="with --rebuild: reuse the values of this store")
    p.add_argument("--out", help="with --rebuild: keep the rebuilt tables in this directory")
    args = p.parse_args()
    if args.rebuild:
        return rebuild(Board.parse(args.board), args.store, args.out)
    lookups(Board.parse(args.board), args.positions, args.seed)
    return 0


if __name__ == "__main__":
    sys.exit(main())
