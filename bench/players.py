"""Speed and strength of the computer levels (CPython; the browser runs the same code).

    .venv/bin/python bench/players.py speed [--board 5x5] [--games 20]
    .venv/bin/python bench/players.py pyodide [--board 5x5] [--games 8]
    .venv/bin/python bench/players.py strength [--board 5x5] [--games 200] [--jobs 2] [--out FILE.json]

``speed`` plays each level against itself from the start and times every move: *warm* games share
one set of tables and search caches (as a match or a long browser session does), *cold* games start
each game from freshly loaded tables with empty caches (the first game after the page loads). It
prints the mean and the worst milliseconds per move, and the memory the search cache takes per
position. ``pyodide`` runs the same measurement inside Pyodide under node (the site's interpreter).

``strength`` plays every level against every level, ``--games`` games with each colour assignment,
and prints Markdown tables: Red's wins for every (Red, Blue) pair, and for every pair of levels the
row level's share of the games with either colour.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from pyodide_runner import run_in_pyodide

from unitile_py.colours import BLUE, RED
from unitile_py.seeds import game_seed
from unitile_py.unitile import Board, Position
from unitile_py.unitile.match import play_game, run_match
from unitile_py.unitile.players import LEVELS, make_player
from unitile_py.unitile.slide_search import SlideCache, shared_cache
from unitile_py.unitile.tables import Tables, tables_for


def self_play_times(level: int, games: int, board: str, cold: bool) -> list[float]:
    """Seconds of every move in ``games`` games of ``level`` against itself."""
    times: list[float] = []
    for g in range(games):
        tables = Tables.load(board) if cold else tables_for(board)
        result = play_game(
            make_player(level, game_seed(1000 + g, 0, RED), tables),
            make_player(level, game_seed(1000 + g, 0, BLUE), tables),
            tables,
            Position.start(tables.board),
        )
        times += result.seconds[RED] + result.seconds[BLUE]
    return times


def cache_bytes_per_entry(board: str) -> float:
    """Bytes of CPython memory per position the search cache remembers (objects and dict slot)."""
    tables = tables_for(board)
    cache: SlideCache = shared_cache(tables)
    entries = list(cache.entries.items())[:20_000]
    if not entries:
        return 0.0
    total = sys.getsizeof(cache.entries) / len(cache.entries)
    for key, slides in entries:
        total += (
            sys.getsizeof(key)
            + sys.getsizeof(slides)
            + sum(sys.getsizeof(s) + sys.getsizeof(s[1]) for s in slides)
        ) / len(entries)
    return total


def speed(args: argparse.Namespace) -> None:
    entries, per_entry = 0, 0.0
    print(f"Python {sys.version.split()[0]}, board {args.board}, {args.games} self-play games per level")
    print("| level | moves | warm mean ms | warm worst ms | cold mean ms | cold worst ms |")
    print("|---|---|---|---|---|---|")
    for level in LEVELS:
        warm = self_play_times(level, args.games, args.board, cold=False)
        if level == 5:
            entries = len(shared_cache(tables_for(args.board)).entries)
            per_entry = cache_bytes_per_entry(args.board)
        cold = self_play_times(level, max(1, args.games // 4), args.board, cold=True)
        print(
            f"| {level} | {len(warm)} | {1e3 * sum(warm) / len(warm):.3f} | {1e3 * max(warm):.3f} "
            f"| {1e3 * sum(cold) / len(cold):.3f} | {1e3 * max(cold):.3f} |",
            flush=True,
        )
    print(f"search cache after the warm level 5 games: {entries} positions, about {per_entry:.0f} bytes each")


def pyodide(args: argparse.Namespace) -> None:
    """Run ``speed`` inside Pyodide (the site's interpreter) under node."""
    argv = ["speed", "--board", args.board, "--games", str(args.games)]
    run_in_pyodide("players.py", ["unitile_py", f"tables/{args.board}"], argv)


def one_pairing(job: tuple[int, int, int, int, str]) -> dict[str, object]:
    """One (Red level, Blue level) match; run in a worker process."""
    red, blue, games, seed, board = job
    tables = tables_for(board)
    t0 = time.perf_counter()
    summary, _ = run_match(red, blue, games, seed, tables, Position.start(Board.parse(board)))
    return {
        "red": red,
        "blue": blue,
        "seconds": time.perf_counter() - t0,
        **summary.as_json(),
    }


def strength(args: argparse.Namespace) -> None:
    jobs = [(red, blue, args.games, args.seed, args.board) for red in LEVELS for blue in LEVELS]
    # The slowest pairings (level 5) first, so two workers finish at about the same time.
    jobs.sort(key=lambda j: -((j[0] == 5) + (j[1] == 5) + 0.2 * ((j[0] == 4) + (j[1] == 4))))
    results: list[dict[str, object]] = []
    t0 = time.perf_counter()
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        for result in pool.map(one_pairing, jobs):
            results.append(result)
            print(
                f"red {result['red']} vs blue {result['blue']}: red wins {result['red_wins']}/"
                f"{result['games']}, mean plies {result['mean_plies']:.1f} ({result['seconds']:.0f} s)",
                file=sys.stderr,
                flush=True,
            )
    wall = time.perf_counter() - t0
    if args.out:
        Path(args.out).write_text(json.dumps(results, indent=1) + "\n", encoding="utf-8")
    red_wins = {(r["red"], r["blue"]): int(r["red_wins"]) for r in results}  # type: ignore[call-overload]
    plies = {(r["red"], r["blue"]): float(r["mean_plies"]) for r in results}  # type: ignore[arg-type]
    n = args.games
    print(f"board {args.board}, {n} games per (Red, Blue) pairing, match seed {args.seed}, {wall:.0f} s\n")
    print("Red's wins out of", n, "(rows: Red's level, columns: Blue's level)\n")
    print("| Red \\ Blue | " + " | ".join(str(b) for b in LEVELS) + " |")
    print("|---" * (len(LEVELS) + 1) + "|")
    for red in LEVELS:
        print(f"| **{red}** | " + " | ".join(str(red_wins[red, blue]) for blue in LEVELS) + " |")
    print(f"\nRow level's share of the {2 * n} games against the column level, {n} with each colour\n")
    print("| level | " + " | ".join(str(b) for b in LEVELS) + " |")
    print("|---" * (len(LEVELS) + 1) + "|")
    for a in LEVELS:
        cells = []
        for b in LEVELS:
            won = red_wins[a, b] + (n - red_wins[b, a])
            cells.append(f"{100 * won / (2 * n):.1f}%")
        print(f"| **{a}** | " + " | ".join(cells) + " |")
    print("\nMean game length in plies (rows: Red, columns: Blue)\n")
    print("| Red \\ Blue | " + " | ".join(str(b) for b in LEVELS) + " |")
    print("|---" * (len(LEVELS) + 1) + "|")
    for red in LEVELS:
        print(f"| **{red}** | " + " | ".join(f"{plies[red, blue]:.1f}" for blue in LEVELS) + " |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    s = sub.add_parser("speed", help="seconds per move of each level")
    s.add_argument("--board", default="5x5")
    s.add_argument("--games", type=int, default=20)
    s.set_defaults(func=speed)
    y = sub.add_parser("pyodide", help="speed under Pyodide (node), the interpreter the site runs")
    y.add_argument("--board", default="5x5")
    y.add_argument("--games", type=int, default=8)
    y.set_defaults(func=pyodide)
    t = sub.add_parser("strength", help="every level against every level")
    t.add_argument("--board", default="5x5")
    t.add_argument("--games", type=int, default=200)
    t.add_argument("--seed", type=int, default=1)
    t.add_argument("--jobs", type=int, default=2)
    t.add_argument("--out", help="also write the raw results as JSON")
    t.set_defaults(func=strength)
    args = parser.parse_args()
    args.func(args)


if __name__ == "__main__":
    main()
