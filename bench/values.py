"""Value solve benchmark: time per CG iteration next to the memory-bandwidth bound, and stage times.

The bound is the bytes one iteration must move (every array it touches read or written once; the
gathered neighbour values counted once, as if served from cache) divided by the copy bandwidth
measured here with a two-thread numba copy (bytes read + bytes written per second).

Usage: .venv/bin/python bench/values.py [--store build/5x5.zarr] [--iterations 30] [--build] [--solve]
  --build  first runs the value stages into a fresh store (``--store``, a new directory, or
           build/bench-<board>.zarr) on a LocalCluster, as `python -m pipeline build` does, and reports
           on that store.
  --solve  also reruns the whole solve from scratch in this process and checks it against the store.

  --threads N  numba threads (default: all); the kernel sequence is also timed in CPU seconds, which
           with one thread varies much less with the machine's load than the wall clock.
  --root DIR   measure the pipeline of another checkout (a `git worktree` of an older commit, say).

       .venv/bin/python bench/values.py --against DIR [--rounds 5] [--store ...] [--solve] [--threads N]
  runs this script alternately on this checkout's pipeline and on DIR's (``--root``), on the same
  store, ``--rounds`` times each, and prints every run and the medians with the load average of every
  run: a before/after comparison in one run on a machine whose load varies.
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import re
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import numba
import numpy as np
from numba import njit, prange

#: This checkout.
HERE = Path(__file__).resolve().parent.parent


def checkout() -> Path:
    """The checkout whose pipeline this run measures: ``--root DIR`` (read before the imports below),
    else this one."""
    argv = sys.argv
    return Path(argv[argv.index("--root") + 1]).resolve() if "--root" in argv[:-1] else HERE


CHECKOUT = checkout()
sys.path.insert(0, str(CHECKOUT))

try:  # Unitile's stages in pipeline/unitile/ (since issue 32)
    UNITILE = "pipeline.unitile"
    from pipeline.unitile import cg
    from pipeline.unitile.solver import SolverState
    from pipeline.unitile.store import Store
    from unitile_py.unitile import Board
except ImportError:  # a checkout (--root) from before, with them at the top of pipeline/
    UNITILE = "pipeline"
    from pipeline.solver import SolverState

    from pipeline import cg
    from pipeline.store import Store
    from unitile_py import Board

local_parts, solve = cg.local_parts, cg.solve
if not Path(cg.__file__).resolve().is_relative_to(CHECKOUT):
    raise SystemExit(f"imported {cg.__file__}, not the pipeline of {CHECKOUT}")


def solve_order_of(store: Store) -> Any:
    """The store's solve order (pipeline.unitile.solve_order), or None for a checkout from before it (whose
    solve runs in class-id order)."""
    for module in ("store", "class_stages"):  # where it is now, and where older checkouts had it
        try:
            solve_order = importlib.import_module(f"{UNITILE}.{module}").solve_order
        except (ImportError, AttributeError):
            continue
        return solve_order(store)
    return None


@njit(parallel=True, cache=True)
def _copy(src: np.ndarray, dst: np.ndarray) -> None:
    for i in prange(src.shape[0]):
        dst[i] = src[i]


def copy_bandwidth(n: int = 1 << 26, repeats: int = 5) -> float:
    """Best bytes (read + written) per second of a parallel copy of ``n`` float64."""
    src = np.ones(n)
    dst = np.zeros(n)
    _copy(src, dst)
    best = np.inf
    for _ in range(repeats):
        t0 = time.perf_counter()
        _copy(src, dst)
        best = min(best, time.perf_counter() - t0)
    return 2 * 8 * n / best


def bytes_per_iteration(n_o: int, n_e: int) -> dict[str, int]:
    """Bytes each kernel of one iteration must move (see the module docstring; the solve stage's bound,
    ``pipeline.unitile.solve_stage.iteration_bytes``, counts the same, but an older checkout measured with
    ``--root`` may lack it)."""
    return {
        "to_even": n_e * (16 + 1 + 8) + n_o * 8,
        "to_odd_dot": n_o * (16 + 1 + 8 + 8) + n_e * 8,
        "update_xs": n_o * (1 + 16 + 16 + 8 + 8),
        "update_p": n_o * (8 + 16),
    }


def fresh_build(board: Board, path: str | None) -> str:
    """Run the value stages into a new store (``path``, which must not exist; default
    build/bench-<board>.zarr, replaced if this script made it) with the default engine; print stage times
    and memory."""
    import resource
    import shutil

    from pipeline.executor import DaskExecutor
    from pipeline.unitile.build import run_build, value_stages
    from pipeline.unitile.context import Context
    from pipeline.unitile.store import MARKER

    if path is None:
        path = f"build/bench-{board}.zarr"
        if (Path(path) / MARKER).exists():  # a store of an earlier run: the pipeline's own files
            shutil.rmtree(path)
    if Path(path).exists():
        raise SystemExit(f"error: {path} exists: give --store a new directory")
    store = Store(path, board, create=True)
    executor = DaskExecutor(show_progress=False)
    t0 = time.perf_counter()
    try:
        run_build(Context(board, store, executor, log=lambda m: print(m, flush=True)), stages=value_stages())
    finally:
        executor.close()
    client = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2**20
    worker = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 2**20
    print(
        f"fresh build of the value stages: {time.perf_counter() - t0:.1f} s, peak memory: "
        f"this process {client:.2f} GiB, largest worker process {worker:.2f} GiB"
    )
    return path


#: What a run prints that the comparison reads (ms per iteration), and the load average.
MEASURES = {
    "kernels": re.compile(r"^iteration\s+([\d.]+)", re.MULTILINE),
    "kernels CPU": re.compile(r"^iteration CPU\s+([\d.]+)", re.MULTILINE),
    "solve": re.compile(r"solve from scratch: .*?\(([\d.]+) ms each\)"),
}
LOAD = re.compile(r"load average ([\d.]+)")


def compare(other: Path, rounds: int, passed: list[str]) -> None:
    """Run this script on ``other``'s pipeline and on this checkout's alternately, in turns ABBA...
    (``passed``: the options of both); print every run's ms per iteration and the medians."""
    trees = {"before": other.resolve(), "after": HERE}
    runs: dict[str, list[dict[str, float]]] = {name: [] for name in trees}
    for r in range(rounds):
        # Every other round the other one goes first, so that neither always runs after the other.
        for name, tree in sorted(trees.items(), reverse=r % 2 == 1):
            cmd = [sys.executable, str(Path(__file__).resolve()), "--root", str(tree), *passed]
            out = subprocess.run(cmd, cwd=tree, capture_output=True, text=True, check=True).stdout
            load = LOAD.search(out)
            if load is None:
                raise RuntimeError(f"{tree}: unexpected output:\n{out}")
            got = {k: float(m[1]) for k, rx in MEASURES.items() if (m := rx.search(out))}
            got["load"] = float(load[1])
            runs[name].append(got)
            text = ", ".join(f"{k} {v:.1f}" for k, v in got.items() if k != "load")
            print(
                f"round {r + 1} {name:<6} ({tree}): {text} ms per iteration, load {got['load']:.2f}",
                flush=True,
            )
    print(f"medians of {rounds} runs each (ms per iteration):")
    med: dict[str, dict[str, float]] = {}
    for name, rows in runs.items():
        med[name] = {k: statistics.median(row[k] for row in rows) for k in rows[0] if k != "load"}
        loads = [row["load"] for row in rows]
        text = ", ".join(f"{k} {v:.1f}" for k, v in med[name].items())
        print(f"  {name:<6} {text} (load {min(loads):.2f}-{max(loads):.2f})")
    ratios = ", ".join(f"{k} {med['after'][k] / med['before'][k]:.3f}" for k in med["after"])
    print(f"  after / before: {ratios}")


def main() -> None:
    """Measure and print."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--board", default="5x5")
    ap.add_argument("--store")
    ap.add_argument("--iterations", type=int, default=30)
    ap.add_argument("--solve", action="store_true")
    ap.add_argument(
        "--build",
        action="store_true",
        help="first run the value stages into a fresh store (--store, a new directory, or "
        "build/bench-<board>.zarr) on a LocalCluster",
    )
    ap.add_argument("--threads", type=int, help="numba threads (default: all)")
    ap.add_argument("--root", type=Path, help="measure this checkout's pipeline")
    ap.add_argument("--against", type=Path, help="compare this checkout's pipeline with that one's")
    ap.add_argument("--rounds", type=int, default=5, help="runs of each checkout with --against")
    args = ap.parse_args()
    if args.against is not None:
        store = str(Path(args.store or f"build/{args.board}.zarr").resolve())
        passed = ["--board", args.board, "--store", store, "--iterations", str(args.iterations)]
        passed += ["--solve"] if args.solve else []
        passed += ["--threads", str(args.threads)] if args.threads else []
        compare(args.against, args.rounds, passed)
        return
    if args.threads:
        numba.set_num_threads(args.threads)
    board = Board.parse(args.board)
    path = args.store or f"build/{board}.zarr"
    if args.build:
        path = fresh_build(board, args.store)
    store = Store(path, board)
    print(
        f"machine: {os.cpu_count()} cores, numba threads {numba.get_num_threads()}, "
        f"load average {os.getloadavg()[0]:.2f}; pipeline of {CHECKOUT}"
    )
    bw = copy_bandwidth()
    print(f"copy bandwidth (2-thread numba copy, read + write): {bw / 1e9:.1f} GB/s")

    nbr, info = store.read("graph/nbr"), store.read("graph/info")
    split = int(store.require("classes")["split"])
    n_o, n_e = split, info.shape[0] - split
    # The whole graph as one part in the solve order (as the build runs it), with random vectors.
    order = solve_order_of(store)
    print(f"solve order: {'by locality key across orbits' if order is not None else 'class ids'}")
    extra = {"order": order} if order is not None else {}
    part = local_parts(nbr, info, split, **extra).parts[0]
    rng = np.random.default_rng(1)
    part.start(*(rng.random(n_o) for _ in range(3)))
    kernels = {
        "to_even": part.even_step,
        "to_odd_dot": part.odd_step,
        "update_xs": lambda: part.update(1e-9),
        "update_p": lambda: part.direction(0.5),
    }
    for k in kernels.values():
        k()
    need = bytes_per_iteration(n_o, n_e)
    # Time each kernel inside the real sequence of an iteration, so that caches hold what they hold
    # in the solve (each kernel alone in a loop would find its arrays in the 300 MB L3 cache).
    spent = dict.fromkeys(kernels, 0.0)
    t_all, c_all = time.perf_counter(), time.process_time()
    for _ in range(args.iterations):
        for name, k in kernels.items():
            t0 = time.perf_counter()
            k()
            spent[name] += time.perf_counter() - t0
    total_t = (time.perf_counter() - t_all) / args.iterations
    total_cpu = (time.process_time() - c_all) / args.iterations
    print(f"classes: {n_o + n_e:,} ({n_o:,} solved, {n_e:,} eliminated)")
    print(f"{'kernel':<12} {'ms':>8} {'MB':>8} {'bound ms':>9} {'ratio':>6}")
    for name in kernels:
        dt = spent[name] / args.iterations
        bound = need[name] / bw
        print(f"{name:<12} {dt * 1e3:8.1f} {need[name] / 1e6:8.1f} {bound * 1e3:9.1f} {dt / bound:6.2f}")
    total_b = sum(need.values())
    print(
        f"{'iteration':<12} {total_t * 1e3:8.1f} {total_b / 1e6:8.1f} {total_b / bw * 1e3:9.1f} "
        f"{total_t / (total_b / bw):6.2f}"
    )
    print(f"{'iteration CPU':<12} {total_cpu * 1e3:8.1f} (CPU ms of this process, all threads)")

    print("stages (from the store's records):")
    rec = store.stages().get("solve")
    if rec:
        print(
            f"  solve: {rec['iterations']} iterations, {rec['seconds_per_iteration'] * 1e3:.0f} ms each, "
            f"residual {rec['sigma']:.2e}, bound on T {rec['bound_T']:.2e}"
        )
    try:
        from pipeline.report import format_stages
    except ImportError:  # a checkout (--root) from before the stage table
        for name, rec in store.stages().items():
            print(f"  {name:<13} {rec['seconds']:8.1f} s")
    else:
        for line in format_stages(store.stages()):
            print(f"  {line}")

    ref_path = Path(f"build/reference-{board}.json")
    solve_rec = store.record("solve")
    if ref_path.exists() and solve_rec:
        ref = json.loads(ref_path.read_text())
        print("side by side (value solve only):")
        print(f"  {'':<22} {'iterations':>10} {'s/iteration':>12} {'total s':>8} {'CPU s':>8} {'load':>5}")
        rows = [
            (
                "plain numpy reference",
                ref["iterations"],
                ref["seconds_per_iteration"],
                ref["seconds"],
                ref["cpu_seconds"],
                ref["load_average"],
            ),
            (
                "pipeline solve",
                solve_rec["iterations"],
                solve_rec["seconds_per_iteration"],
                solve_rec["solve_seconds"],
                solve_rec.get("solve_cpu_seconds", float("nan")),
                solve_rec.get("load_average", float("nan")),
            ),
        ]
        for name, its, per, total, cpu, load in rows:
            print(f"  {name:<22} {its:>10} {per:>12.3f} {total:>8.1f} {cpu:>8.1f} {load:>5.1f}")
        print(f"  speed-up {ref['seconds'] / solve_rec['solve_seconds']:.1f}x wall-clock")

    if args.solve:
        t0 = time.perf_counter()
        result = solve(nbr, info, split, SolverState.start(split), **extra)
        dt = time.perf_counter() - t0
        r = store.read("values/r")
        rel = np.max(np.abs(result.x - r) / np.maximum(r, 1.0))
        print(
            f"solve from scratch: {dt:.1f} s, {result.iterations} iterations "
            f"({result.seconds_per_iteration * 1e3:.1f} ms each), residual {result.sigma:.2e}, "
            f"max relative difference from the store {rel:.1e}"
        )


if __name__ == "__main__":
    main()
