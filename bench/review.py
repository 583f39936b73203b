"""The CPU time of the web API's ``review`` and ``nd_review`` requests on long games.

    .venv/bin/python bench/review.py                  # 200 games of each kind, seed 1
    .venv/bin/python bench/review.py --games 20 --seed 2
    .venv/bin/python bench/review.py --pyodide --games 50   # the same inside Pyodide under node

Every request goes through :func:`unitile_py.webapi.handle`, as the page's worker answers it, timed in
CPU time of this process. The games, seeded:

* Unitile 5x5 (the committed tables): *random* games (a uniformly random legal slide each ply) and
  *slow* games (each ply the legal slide after which the perfect-play distance is the longest, ties at
  random: the games that last longest while every slide is legal); for each kind the longest game is
  reviewed *cold* (a freshly loaded tables object, its caches empty, as the first request after the
  page loads) and *warm* (the same request again);
* Naked Diagonal 4x4 and 3x3 (the committed tables): random games, every one reviewed: the first
  request (which loads and checks the size's tables, as the page's first review of a session does)
  and the worst of the others;
* a request of :data:`unitile_py.service.MAX_TURNS` slides (the most a game may hold) whose second
  slide is refused: the replay stops there.

It prints one line per case: the plies of the game and the seconds of CPU; the last line the worst.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from pyodide_runner import run_in_pyodide  # noqa: E402

from unitile_py.naked_diagonal.game import Game as NDGame  # noqa: E402
from unitile_py.naked_diagonal.position import Position as NDPosition  # noqa: E402
from unitile_py.service import MAX_TURNS  # noqa: E402
from unitile_py.unitile import webapi as unitile_webapi  # noqa: E402
from unitile_py.unitile.board import Board  # noqa: E402
from unitile_py.unitile.game import Game  # noqa: E402
from unitile_py.unitile.position import Position  # noqa: E402
from unitile_py.unitile.tables import Tables  # noqa: E402
from unitile_py.webapi import handle  # noqa: E402

BOARD = Board.get(5, 5)


def unitile_game(tables: Tables, rng: random.Random, slow: bool) -> list[str]:
    """The slides of one game to its end: random, or each the slide whose result lasts longest."""
    game = Game(Position.start(BOARD), tables)
    while not game.is_over():
        legal = game.legal_moves()
        if slow:
            results = tables.moves(game.position)
            longest = max(results[c][1] for c in legal)
            legal = tuple(c for c in legal if results[c][1] == longest)
        game.push(rng.choice(legal))
    return [BOARD.name(c) for c in game.moves]


def timed(request: dict[str, Any]) -> tuple[float, dict[str, Any]]:
    """CPU seconds of one request through :func:`handle`, and its reply."""
    began = time.process_time()
    reply = json.loads(handle(json.dumps(request)))
    return time.process_time() - began, reply


def review(moves: list[str], cold: bool) -> float:
    """CPU seconds of Unitile's ``review`` of a game, with freshly loaded tables when ``cold``."""
    if cold:
        unitile_webapi.API.load_tables(directory=str(ROOT / "tables" / "5x5"))
    spent, reply = timed({"op": "review", "args": {"game": {"start": None, "moves": moves}}})
    assert reply["ok"] and len(reply["result"]["plies"]) == len(moves), reply
    return spent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="games of each kind (default 200)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--pyodide", action="store_true", help="run inside Pyodide under node")
    args = parser.parse_args()
    if args.pyodide:
        tables = ["unitile_py", "tables/5x5", "tables/naked-diagonal/3x3", "tables/naked-diagonal/4x4"]
        run_in_pyodide("review.py", tables, ["--games", str(args.games), "--seed", str(args.seed)])
    rng = random.Random(args.seed)
    tables = Tables.load(BOARD)
    worst = 0.0
    for kind in ("random", "slow"):
        games = [unitile_game(tables, rng, kind == "slow") for _ in range(args.games)]
        longest = max(games, key=len)
        mean = sum(map(len, games)) / len(games)
        for cold in (True, False):
            spent = review(longest, cold)
            worst = max(worst, spent)
            how = "cold" if cold else "warm"
            print(f"unitile 5x5 {kind}: longest of {len(games)} games {len(longest)} plies "
                  f"(mean {mean:.1f}), review {how} {spent:.3f} s")
    for n in (4, 3):
        most, plies, first = 0.0, 0, 0.0
        for g in range(args.games):
            game = NDGame(NDPosition.empty(n))
            while not game.is_over():
                game.push(rng.choice(game.legal_moves()))
            moves = [game.name_of(m) for m in game.moves]
            spent, reply = timed({"op": "nd_review", "args": {"game": {"size": n, "moves": moves}}})
            assert reply["ok"], reply
            if g == 0:
                first = spent
            elif spent > most:
                most, plies = spent, len(moves)
        worst = max(worst, most, first)
        print(f"naked diagonal {n}x{n}: the first request (it loads the tables) {first:.3f} s, the worst of "
              f"the {args.games - 1} random games after it {most:.3f} s ({plies} placements)")
    first = Game(Position.start(BOARD), tables).legal_moves()[0]
    moves = [BOARD.name(first)] + ["a1"] * (MAX_TURNS - 1)
    spent, reply = timed({"op": "review", "args": {"game": {"start": None, "moves": moves}}})
    assert not reply["ok"], reply
    worst = max(worst, spent)
    print(f"unitile {MAX_TURNS:,} slides, the second refused: {spent:.3f} s ({reply['error']})")
    print(f"worst: {worst:.3f} s of CPU")


if __name__ == "__main__":
    main()
