"""Speed and exactness of the Naked Diagonal rules engine.

    .venv/bin/python bench/naked_diagonal.py                      # 1,000 seeded random games per size
    .venv/bin/python bench/naked_diagonal.py --games 50 --sizes 9 13
    .venv/bin/python bench/naked_diagonal.py --pyodide --games 100 # the same under Pyodide in node
    .venv/bin/python bench/naked_diagonal.py --reference 4        # every reachable 4x4 board, brute force
    .venv/bin/python bench/naked_diagonal.py --baseline 200       # against the plain search on a sample
    .venv/bin/python bench/naked_diagonal.py --explain 50 --sizes 9 # time explanations of NDE bans

The games mode plays seeded random games (each side picks a uniformly random legal placement) and
times ``legal_masks`` on every position reached, with the engine's caches as a game keeps them (the
regions a placement did not touch are answered from the cache). Per size it prints the median, 99th
percentile and worst time, the worst positions, how many regions were analysed by size, how often
candidates needed a local repair or the exact fallback, the solver's counters and the peak memory.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from array import array
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from unitile_py.naked_diagonal.bans import LeavesNDE  # noqa: E402
from unitile_py.naked_diagonal.grid import Grid  # noqa: E402
from unitile_py.naked_diagonal.legality import Engine, after, engine, explain, legal_masks  # noqa: E402
from unitile_py.naked_diagonal.position import Position  # noqa: E402
from unitile_py.naked_diagonal.rules import forming  # noqa: E402


def peak_memory_mib() -> float | None:
    """The process's peak resident memory, where the platform says it."""
    try:
        import resource
    except ImportError:
        return None
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak / 1024 if sys.platform != "darwin" else peak / 2**20


def play_games(n: int, games: int, seed: int, cold_every: int) -> dict[str, object]:
    """Time legal placements on every position of seeded random games on an n x n board.

    Warm: the shared engine, as a game uses it, in wall-clock time and in CPU time of the process (the
    latter does not count time the machine gave to other processes). Cold: every ``cold_every``-th
    position again with a fresh engine (no caches at all), in CPU time.
    """
    rng = random.Random(seed)
    e = engine(Grid.get(n))
    times, cpu, cold = Timings(), Timings(), Timings()
    wins = {"r": 0, "b": 0}
    skips = 0

    gc_pauses: list[float] = []
    no_gc = Timings()  # CPU time of each call less the collector's pauses inside it
    started: list[float] = []

    def on_gc(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            started.append(time.process_time())
        elif started:
            gc_pauses.append(time.process_time() - started.pop())

    gc.callbacks.append(on_gc)

    def timed(pos: Position) -> tuple[int, int]:
        before = len(gc_pauses)
        t, c = time.perf_counter(), time.process_time()
        masks = legal_masks(pos)
        times.add(time.perf_counter() - t, pos)
        cpu.add(time.process_time() - c, pos)
        no_gc.add(cpu.seconds[-1] - sum(gc_pauses[before:]), pos)
        if len(times.seconds) % cold_every == 0:
            fresh = Engine(pos.grid)
            c = time.process_time()
            assert fresh.masks(pos.red, pos.blue) == masks
            cold.add(time.process_time() - c, pos)
        return masks

    for _ in range(games):
        pos = Position.empty(n)
        red, blue = timed(pos)
        while True:
            won = pos.winner()
            if won is not None:
                wins[won] += 1
                break
            mine = red if pos.turn == "r" else blue
            assert mine, f"no legal placement for the side to move: {pos}"
            nxt = pos.place(rng.choice(Grid.points(mine)), pos.turn)
            red, blue = timed(nxt)
            opp = "b" if pos.turn == "r" else "r"
            if nxt.winner() is None and not (red if opp == "r" else blue):
                skips += 1
                pos = nxt
            else:
                pos = nxt.with_turn(opp)
    gc.callbacks.remove(on_gc)
    st = e.solver.stats
    return {
        "size": n,
        "games": games,
        "positions": len(times.seconds),
        **summary("", times),
        **summary("cpu_", cpu),
        **summary("cold_", cold),
        **summary("cpu_no_gc_", no_gc),
        "gc_collections": len(gc_pauses),
        "gc_worst_ms": round(max(gc_pauses, default=0.0) * 1e3, 2),
        "worst_positions": times.worst(),
        "worst_cpu_positions": cpu.worst(),
        "wins": wins,
        "skips": skips,
        "regions_by_size": dict(sorted(e.region_sizes.items())),
        "repairs": e.repairs,
        "fallbacks": e.fallbacks,
        "solver": {k: getattr(st, k) for k in ("calls", "memo_hits", "dead", "lattice", "relaxed", "searched",
                                                "searched_nde", "learned")},
        "peak_mib": peak_memory_mib(),
    }


def explain_times(n: int, games: int, seed: int, per_position: int = 3) -> dict[str, object]:
    """CPU time of :func:`explain` on bans that leave an NDE area, in seeded random games.

    At every position up to ``per_position`` random empty points where the side to move may not place
    and which form no naked diagonal (so the ban is an NDE area) are explained, with the shared engine
    warm as in play. Prints the median and worst time, the culprit sizes and the worst cases.
    """
    rng = random.Random(seed)
    times = Timings()
    culprits: dict[int, int] = {}
    areas: dict[int, int] = {}
    for _ in range(games):
        pos = Position.empty(n)
        g = pos.grid
        while pos.winner() is None:
            red, blue = legal_masks(pos)
            mine = red if pos.turn == "r" else blue
            own = pos.stones(pos.turn)
            candidates = list(g.bits(pos.empty_points & ~mine & ~forming(g, own, pos.empty_points)))
            for p in rng.sample(candidates, min(per_position, len(candidates))):
                c = time.process_time()
                ban = explain(pos, p, pos.turn)
                times.add(time.process_time() - c, f"{pos} {g.name(p)}")
                assert isinstance(ban, LeavesNDE), (str(pos), g.name(p))
                k = ban.culprit.bit_count()
                culprits[k] = culprits.get(k, 0) + 1
                a = ban.area.bit_count()
                areas[a] = areas.get(a, 0) + 1
            pos = after(pos, rng.choice(Grid.points(mine)))
    return {"size": n, "games": games, "explained": len(times.seconds), **summary("", times),
            "culprit_sizes": dict(sorted(culprits.items())), "area_sizes": dict(sorted(areas.items())),
            "worst": times.worst()}


class Timings:
    """Seconds per call in an array (no objects for the cycle collector to walk during the run: a list
    of tuples per position made its pauses inside the timed calls grow with the run) and the slowest
    calls' positions."""

    def __init__(self, keep: int = 3) -> None:
        self.seconds = array("d")
        self.slowest: list[tuple[float, str]] = []
        self.keep = keep

    def add(self, seconds: float, what: object) -> None:
        """Record one call's time and what it was on."""
        self.seconds.append(seconds)
        if len(self.slowest) < self.keep or seconds > self.slowest[-1][0]:
            self.slowest = sorted([*self.slowest, (seconds, str(what))], reverse=True)[:self.keep]

    def worst(self) -> list[tuple[float, str]]:
        """The slowest calls: (ms, what), slowest first."""
        return [(round(t * 1e3, 2), text) for t, text in self.slowest]


def summary(prefix: str, times: Timings) -> dict[str, float]:
    """Median, 99th percentile, worst (ms) and total (s) of a run's timings."""
    if not times.seconds:
        return {}
    ms = sorted(t * 1e3 for t in times.seconds)
    return {f"{prefix}n": len(ms), f"{prefix}median_ms": ms[len(ms) // 2],
            f"{prefix}p99_ms": ms[min(len(ms) - 1, int(len(ms) * 0.99))], f"{prefix}worst_ms": ms[-1],
            f"{prefix}total_s": sum(ms) / 1e3}


def plain_legal(grid: Grid, red: int, blue: int) -> tuple[int, int]:
    """The baseline: for each clean candidate, the plain first-move search with a memo, nothing else."""
    memo: dict[tuple[int, int, int], bool] = {}

    def fillable(area: int, red: int, blue: int) -> bool:
        ring = grid.dilate8(area) & ~area
        key = (area, red & ring, blue & ring)
        if key in memo:
            return memo[key]
        ok = False
        for p in grid.bits(area):
            bit = 1 << p
            for own_red in (True, False):
                own = red if own_red else blue
                if forming(grid, own, bit):
                    continue
                r2, b2 = (red | bit, blue) if own_red else (red, blue | bit)
                if all(fillable(part, r2, b2) for part in grid.components(area & ~bit)):
                    ok = True
                    break
            if ok:
                break
        memo[key] = ok
        return ok

    out = [0, 0]
    empty = grid.full & ~(red | blue)
    for area in grid.components(empty):
        for p in grid.bits(area):
            bit = 1 << p
            for i, own_red in enumerate((True, False)):
                own = red if own_red else blue
                if forming(grid, own, bit):
                    continue
                r2, b2 = (red | bit, blue) if own_red else (red, blue | bit)
                if all(fillable(part, r2, b2) for part in grid.components(area & ~bit)):
                    out[i] |= bit
    return out[0], out[1]


def baseline(n: int, sample: int, seed: int, budget_s: float) -> dict[str, object]:
    """Fast engine (cold caches) against the plain search on positions of random games (same answers)."""
    rng = random.Random(seed)
    positions: list[Position] = []
    while len(positions) < sample:
        pos = Position.empty(n)
        while pos.winner() is None:
            positions.append(pos)
            red, blue = legal_masks(pos)
            mine = red if pos.turn == "r" else blue
            pos = after(pos, rng.choice(Grid.points(mine)))
    positions = rng.sample(positions, sample)
    fast = plain = 0.0
    done = 0
    for pos in positions:
        cold = Engine(pos.grid)
        t = time.perf_counter()
        got = cold.masks(pos.red, pos.blue)
        fast += time.perf_counter() - t
        t = time.perf_counter()
        want = plain_legal(pos.grid, pos.red, pos.blue)
        plain += time.perf_counter() - t
        assert got == want, str(pos)
        done += 1
        if plain > budget_s:
            break
    return {"size": n, "positions": done, "fast_cold_ms": fast / done * 1e3, "plain_ms": plain / done * 1e3,
            "ratio": plain / fast}


def reference_check(n: int, workers: int, games: int = 0, seed: int = 1) -> dict[str, object]:
    """Every board reachable on n x n (engine rules), compared with the brute force, in parallel.

    With ``games``, only the boards of that many seeded random games instead of all reachable ones.
    """
    t0 = time.perf_counter()
    start = Position.empty(n)
    seen = {start}
    stack = [start]
    rng = random.Random(seed)
    for _ in range(games):
        pos = start
        while pos.winner() is None:
            red, blue = legal_masks(pos)
            pos = after(pos, rng.choice(Grid.points(red if pos.turn == "r" else blue)))
            seen.add(pos)
    while stack and not games:
        pos = stack.pop()
        if pos.winner() is not None:
            continue
        red, blue = legal_masks(pos)
        for p in Grid.points(red if pos.turn == "r" else blue):
            nxt = after(pos, p)
            if nxt not in seen:
                seen.add(nxt)
                stack.append(nxt)
    boards = sorted({str(p).split()[0] for p in seen})
    enumerate_s = time.perf_counter() - t0
    from multiprocessing import Pool

    random.Random(0).shuffle(boards)  # a partial run is then a uniform sample
    print(json.dumps({"size": n, "positions": len(seen), "boards": len(boards), "enumerate_s": enumerate_s}),
          flush=True)
    bad: list[str] = []
    checked = 0
    with Pool(workers) as pool:
        for b, ok in zip(boards, pool.imap(_compare_board, boards, chunksize=64), strict=True):
            checked += 1
            if not ok:
                bad.append(b)
            if checked % 50_000 == 0:
                print(json.dumps({"checked": checked, "disagreements": len(bad),
                                  "elapsed_s": round(time.perf_counter() - t0)}), flush=True)
    return {"size": n, "positions": len(seen), "boards": len(boards), "checked": checked,
            "disagreements": len(bad), "examples": bad[:5], "enumerate_s": enumerate_s,
            "total_s": time.perf_counter() - t0}


def _compare_board(rows: str) -> bool:
    from tests.game.naked_diagonal import reference as ref

    board, _ = ref.board_of(rows + " r")
    pos = Position.parse(rows + " r")
    red, blue = legal_masks(pos)
    return (Grid.points(red), Grid.points(blue)) == ref.legal_placements(board)


RUNNER = r"""
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
const [pyodideDir, root, stdlib, args] = process.argv.slice(2);
const { loadPyodide } = await import(pathToFileURL(path.join(pyodideDir, "pyodide.mjs")).href);
const pyodide = await loadPyodide({ indexURL: pyodideDir + path.sep, stdLibURL: stdlib });
const home = "/home/pyodide";
function copy(rel) {
  pyodide.FS.mkdirTree(`${home}/${rel}`);
  for (const name of fs.readdirSync(path.join(root, rel))) {
    const full = path.join(root, rel, name);
    if (fs.statSync(full).isDirectory()) { if (name !== "__pycache__") copy(`${rel}/${name}`); }
    else if (name.endsWith(".py")) pyodide.FS.writeFile(`${home}/${rel}/${name}`, fs.readFileSync(full));
  }
}
copy("unitile_py");
copy("bench");
pyodide.FS.mkdirTree(`${home}/tests/game`);
pyodide.runPython(`
import sys, json, runpy
sys.path.insert(0, "${home}")
bench = runpy.run_path("${home}/bench/naked_diagonal.py", run_name="nd_bench")
bench["main"](json.loads(${JSON.stringify(args)}))
`);
"""


def run_pyodide(args: list[str]) -> int:
    """Run this benchmark (games mode) under Pyodide in node, as tests/browser/test_pyodide.py boots it."""
    pyodide = ROOT / "node_modules" / "pyodide"
    node = shutil.which("node")
    if node is None or not (pyodide / "pyodide.mjs").exists():
        print("node and node_modules/pyodide are needed (npm ci)")
        return 2
    sys.path.insert(0, str(ROOT / "site"))
    import importlib.util

    spec = importlib.util.spec_from_file_location("unitile_site_build", ROOT / "site" / "build.py")
    assert spec is not None and spec.loader is not None
    build = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = build
    spec.loader.exec_module(build)
    stdlib = build.compiled_stdlib()
    with tempfile.TemporaryDirectory() as work:
        runner = Path(work) / "runner.mjs"
        runner.write_text(RUNNER)
        done = subprocess.run([node, str(runner), str(pyodide), str(ROOT), str(stdlib), json.dumps(args)],
                              check=False)
    return done.returncode


def report(row: dict[str, object]) -> None:
    """Print one size's numbers."""
    print(f"{row['size']}x{row['size']}: {row['games']} games, {row['positions']} positions: "
          f"median {row['median_ms']:.3f} ms, p99 {row['p99_ms']:.2f} ms, worst {row['worst_ms']:.1f} ms, "
          f"total {row['total_s']:.1f} s; wins {row['wins']}, skips {row['skips']}")
    print(f"  CPU time: median {row['cpu_median_ms']:.3f} ms, p99 {row['cpu_p99_ms']:.2f} ms, "
          f"worst {row['cpu_worst_ms']:.1f} ms")
    print(f"  CPU time less collector pauses: p99 {row['cpu_no_gc_p99_ms']:.2f} ms, "
          f"worst {row['cpu_no_gc_worst_ms']:.1f} ms; {row['gc_collections']} collections, "
          f"longest pause {row['gc_worst_ms']} ms")
    if "cold_n" in row:
        print(f"  cold (fresh engine, CPU time, {row['cold_n']} positions): "
              f"median {row['cold_median_ms']:.3f} ms, "
              f"p99 {row['cold_p99_ms']:.2f} ms, worst {row['cold_worst_ms']:.1f} ms")
    print(f"  repairs {row['repairs']}, exact fallbacks {row['fallbacks']}, solver {row['solver']}, "
          f"peak {row['peak_mib']} MiB")
    print(f"  regions analysed by size: {row['regions_by_size']}")
    for ms, text in row["worst_positions"]:  # type: ignore[attr-defined]
        print(f"  worst {ms} ms: {text}")
    for ms, text in row["worst_cpu_positions"]:  # type: ignore[attr-defined]
        print(f"  worst CPU {ms} ms: {text}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=1000, help="random games per size (default 1000)")
    ap.add_argument("--sizes", type=int, nargs="+", default=[5, 7, 9, 11, 13])
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--cold-every", type=int, default=20, help="time every k-th position cold too")
    ap.add_argument("--json", action="store_true", help="one JSON line per size instead of text")
    ap.add_argument("--pyodide", action="store_true", help="run the games mode under Pyodide in node")
    ap.add_argument("--reference", type=int, metavar="N", help="compare every reachable NxN board")
    ap.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--reference-games", type=int, default=0, metavar="G",
                    help="with --reference: only the boards of G random games")
    ap.add_argument("--baseline", type=int, metavar="K", help="K positions per size against the plain search")
    ap.add_argument("--explain", type=int, metavar="G", help="time explain on NDE bans, G games a size")
    args = ap.parse_args(argv)
    if args.explain:
        for n in args.sizes:
            print(json.dumps(explain_times(n, args.explain, args.seed)), flush=True)
        return 0
    if args.pyodide:
        rest = [a for a in (argv if argv is not None else sys.argv[1:]) if a != "--pyodide"]
        return run_pyodide(rest)
    if args.reference:
        print(json.dumps(reference_check(args.reference, args.workers, args.reference_games, args.seed)))
        return 0
    if args.baseline:
        for n in args.sizes:
            print(json.dumps(baseline(n, args.baseline, args.seed, budget_s=120.0)))
        return 0
    print(f"Python {sys.version.split()[0]} ({sys.implementation.name}), seed {args.seed}")
    for n in args.sizes:
        row = play_games(n, args.games, args.seed, args.cold_every)
        if args.json:
            print(json.dumps(row))
        else:
            report(row)
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
