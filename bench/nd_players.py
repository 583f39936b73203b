"""Speed and strength of the Naked Diagonal computer levels (CPython; the browser runs the same code).

    .venv/bin/python bench/nd_players.py speed [--size 9] [--positions 20]
    .venv/bin/python bench/nd_players.py strength [--size 7] [--games 10] [--levels 3,4,5] [--jobs 2]

``speed`` times every level's choice on the empty board and on positions drawn from seeded random
games (CPU seconds per move: mean and worst), with the peak memory of the process. ``strength`` plays
every pair of levels ``--games`` games with each colour assignment and prints Markdown tables: Red's
wins for every (Red, Blue) pair, and each pair's share of the games for the row level.
"""

from __future__ import annotations

import argparse
import itertools
import json
import random
import resource
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from unitile_py.naked_diagonal.game import Game
from unitile_py.naked_diagonal.players import LEVELS, make_player, playouts_for
from unitile_py.naked_diagonal.position import Position
from unitile_py.playing import run_games


def sample_positions(n: int, count: int, seed: int) -> list[Position]:
    """Positions met in seeded random games (each game cut at a random point), the empty board first."""
    rng = random.Random(seed)
    out = [Position.empty(n)]
    while len(out) < count:
        game = Game(Position.empty(n))
        stop = rng.randrange(1, n * n // 2)
        while not game.is_over() and game.ply < stop:
            game.push(rng.choice(game.legal_moves()))
        if not game.is_over():
            out.append(game.position)
    return out


def speed(args: argparse.Namespace) -> None:
    positions = sample_positions(args.size, args.positions, 1)
    size = f"{args.size}x{args.size}"
    print(f"Python {sys.version.split()[0]}, {size}, {len(positions)} positions (empty board first)")
    print("| level | playouts | empty board s | mean s | worst s |")
    print("|---|---|---|---|---|")
    for level in LEVELS:
        times = []
        for p in positions:
            t0 = time.process_time()
            make_player(level, 1).choose(p)
            times.append(time.process_time() - t0)
        playouts = playouts_for(level, args.size) if level > 1 else 0
        print(f"| {level} | {playouts} | {times[0]:.3f} | {sum(times) / len(times):.3f} | {max(times):.3f} |")
    print(f"peak memory {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MiB")


def _pair(job: tuple[int, int, int, int, int]) -> tuple[int, int, int, int]:
    red, blue, games, seed, size = job
    summary, _ = run_games(red, blue, games, seed, lambda: Game(Position.empty(size)), make_player)
    return red, blue, summary.red_wins, games


def strength(args: argparse.Namespace) -> None:
    levels = [int(v) for v in args.levels.split(",")] if args.levels else list(LEVELS)
    jobs = [(r, b, args.games, args.seed, args.size) for r, b in itertools.product(levels, levels) if r != b]
    t0 = time.perf_counter()
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        results = list(pool.map(_pair, jobs))
    red_wins = {(r, b): w for r, b, w, _ in results}
    print(
        f"{args.size}x{args.size}, {args.games} games per (Red, Blue) pair, seed {args.seed}, "
        f"{time.perf_counter() - t0:.0f} s on {args.jobs} processes\n"
    )
    print("Red's wins (rows: Red's level, columns: Blue's level)\n")
    print("| Red \\ Blue | " + " | ".join(str(b) for b in levels) + " |")
    print("|---" * (len(levels) + 1) + "|")
    for r in levels:
        cells = ["-" if r == b else f"{red_wins[(r, b)]}/{args.games}" for b in levels]
        print(f"| {r} | " + " | ".join(cells) + " |")
    print("\nThe row level's share of the games against the column level, with either colour\n")
    print("| level | " + " | ".join(str(b) for b in levels) + " |")
    print("|---" * (len(levels) + 1) + "|")
    for r in levels:
        cells = []
        for b in levels:
            if r == b:
                cells.append("-")
                continue
            won = red_wins[(r, b)] + (args.games - red_wins[(b, r)])
            cells.append(f"{100 * won / (2 * args.games):.0f}%")
        print(f"| {r} | " + " | ".join(cells) + " |")
    if args.out:
        Path(args.out).write_text(json.dumps({f"{r}-{b}": w for (r, b), w in red_wins.items()}, indent=1))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    s = sub.add_parser("speed")
    s.add_argument("--size", type=int, default=9)
    s.add_argument("--positions", type=int, default=20)
    t = sub.add_parser("strength")
    t.add_argument("--size", type=int, default=7)
    t.add_argument("--games", type=int, default=10)
    t.add_argument("--seed", type=int, default=1)
    t.add_argument("--jobs", type=int, default=2)
    t.add_argument("--levels", help="only these levels, such as 3,4,5")
    t.add_argument("--out", help="also write Red's wins per pair as JSON")
    args = parser.parse_args()
    speed(args) if args.command == "speed" else strength(args)


if __name__ == "__main__":
    main()
