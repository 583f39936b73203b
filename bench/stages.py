"""A fresh build, stage by stage: each stage's wall and CPU seconds, its bound and the ratio, and the peak
memory of the client and of the largest worker, in one run (issue 18).

    .venv/bin/python bench/stages.py [--board 5x5] [--workers N] [--store DIR] [--keep] [--compare DIR]

Runs ``python -m pipeline build`` into a fresh store (a temporary one unless ``--store``; ``--keep``
keeps the temporary one) with the default engine, then prints the stage table of the store's records
(``python -m pipeline report``: the bounds come from rates measured at the start of the build, see
pipeline/unitile/bounds.py), the wall and CPU seconds of the whole process tree, the machine's load average
before and after, and with ``--compare DIR`` (default: the committed ``tables/<board>`` when it exists)
whether every table file is byte for byte the same as there. The numbers are only as quiet as the
machine: compare the CPU seconds, and the load, before comparing wall times.
"""

from __future__ import annotations

import argparse
import filecmp
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def main() -> int:
    """Build, measure and print; exit status 1 when the tables differ from ``--compare``."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--board", default="5x5")
    ap.add_argument("--workers", type=int, help="local dask workers (default: one per core)")
    ap.add_argument("--in-process", action="store_true", help="no dask (as python -m pipeline --in-process)")
    ap.add_argument("--store", help="build here (a new directory) instead of a temporary store")
    ap.add_argument("--keep", action="store_true", help="keep the temporary store and tables")
    ap.add_argument("--compare", help="compare the tables with this folder (default: tables/<board>)")
    args = ap.parse_args()
    scratch = None if args.store else Path(tempfile.mkdtemp(prefix=f"stages-{args.board}-"))
    store = Path(args.store) if args.store else scratch / f"{args.board}.zarr"  # type: ignore[operator]
    if store.exists():
        print(f"error: {store} exists: give a new directory", file=sys.stderr)
        return 2
    tables = store.with_name(store.name.removesuffix(".zarr") + ".tables")
    cmd = [sys.executable, "-m", "pipeline", "build", "--board", args.board, "--store", str(store),
           "--tables", str(tables), "--quiet"]  # fmt: skip
    cmd += ["--workers", str(args.workers)] if args.workers else []
    cmd += ["--in-process"] if args.in_process else []
    load0 = os.getloadavg()[0]
    t0 = time.perf_counter()
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    wall = time.perf_counter() - t0
    if done.returncode:
        print(done.stderr, file=sys.stderr)
        print(f"error: the build failed with status {done.returncode}", file=sys.stderr)
        return 1
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    ask = [sys.executable, "-m", "pipeline", "report", "--board", args.board, "--store", str(store)]
    report = subprocess.run(ask, cwd=ROOT, capture_output=True, text=True, check=True)
    rows = subprocess.run([*ask, "--json"], cwd=ROOT, capture_output=True, text=True, check=True)
    machine = _machine(store, args.board)
    engine = "in process" if args.in_process else f"{args.workers or os.cpu_count()} dask workers"
    print(f"board {args.board}, {os.cpu_count()} cores, engine: {engine}")
    if machine:
        print(f"measured rates: copy {machine['copy_bandwidth'] / 1e9:.1f} GB/s, ranks "
              f"{machine['rank_rate'] / 1e6:.0f} M/s, connectivity tests "
              f"{machine['test_rate'] / 1e6:.0f} M/s, random reads "
              f"{machine.get('gather_rate', 0) / 1e6:.0f} M/s ({machine['threads']} threads, "
              f"{machine['seconds']:.2f} s to measure)")  # fmt: skip
    print(report.stdout, end="")
    table = [json.loads(line) for line in rows.stdout.splitlines()]
    stage_sum = sum(r["seconds"] or 0 for r in table)
    # The build resets each process's high-water mark at every stage: the peaks are the records'.
    client = max((r["client_peak_gib"] or 0 for r in table), default=0)
    worker = max((r["worker_peak_gib"] or 0 for r in table), default=0)
    print(f"build: {wall:.1f} s wall ({stage_sum:.1f} s in the stages), {cpu:.1f} CPU s of the process tree "
          f"(user + system), peak memory: client {client:.2f} GiB, largest worker {worker:.2f} GiB; "
          f"load average {load0:.2f} before, {os.getloadavg()[0]:.2f} after")  # fmt: skip
    status = 0
    reference = Path(args.compare) if args.compare else ROOT / "tables" / args.board
    if reference.is_dir():
        names = sorted(p.name for p in reference.iterdir() if p.is_file())
        same, differ, missing = filecmp.cmpfiles(reference, tables, names, shallow=False)
        print(f"tables vs {reference}: {len(same)} files identical, {len(differ)} differ {differ}, "
              f"{len(missing)} missing {missing}")  # fmt: skip
        status = 1 if differ or missing else 0
    if scratch is not None and not args.keep:
        shutil.rmtree(scratch)
    elif scratch is not None:
        print(f"kept {scratch}")
    return status


def _machine(store: Path, board: str) -> dict[str, float] | None:
    """The measured rates recorded with the first stage that has a bound."""
    from pipeline.unitile.store import Store
    from unitile_py.unitile.board import Board

    for rec in Store(str(store), Board.parse(board)).stages().values():
        if "bound" in rec:
            return rec["bound"]["machine"]  # type: ignore[no-any-return]
    return None


if __name__ == "__main__":
    sys.exit(main())
