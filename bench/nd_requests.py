"""The worst CPU time of each Naked Diagonal web API request over random and adversarial games.

    .venv/bin/python bench/nd_requests.py                          # 20 games per size and kind, 9x9 and 13x13
    .venv/bin/python bench/nd_requests.py --games 5 --sizes 13 --explains 8

Each game is played through :func:`unitile_py.webapi.handle`, as the page's worker answers it, from the
empty board: a *random* game picks a uniformly random legal placement; an *adversarial* one picks, among
a few sampled legal placements, the one after which the most empty points are refused for leaving an
NDE area (the bans whose explanation searches a culprit). On every position the page's requests are
timed in CPU time of this process: ``nd_state``, ``nd_explain`` of up to ``--explains`` refused points
(NDE bans first), ``nd_play`` of the chosen placement, ``nd_undo``, ``nd_salvage`` of the game with a
refused placement appended, and ``nd_load`` of its record. The engine's caches are warm, as in a page.
Per request it prints the count, median and worst time and where the worst happened; the last line is
the worst of all (the bound of issue 35 is 1 s).
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from unitile_py.naked_diagonal.grid import Grid  # noqa: E402
from unitile_py.naked_diagonal.legality import legal_masks  # noqa: E402
from unitile_py.naked_diagonal.position import Position  # noqa: E402
from unitile_py.naked_diagonal.rules import forming  # noqa: E402
from unitile_py.naked_diagonal.webapi import API  # noqa: E402
from unitile_py.webapi import handle  # noqa: E402

#: Legal placements an adversarial game compares at each turn.
ADVERSARY_SAMPLE = 6


class Worst:
    """The times of each request, and where its worst happened."""

    def __init__(self) -> None:
        self.times: dict[str, list[float]] = {}
        self.where: dict[str, tuple[float, str]] = {}

    def timed(self, op: str, args: dict[str, Any], where: str) -> Any:
        """The result of one request (None for an error), its CPU time recorded."""
        start = time.process_time()
        reply = json.loads(handle(json.dumps({"op": op, "args": args})))
        spent = time.process_time() - start
        self.times.setdefault(op, []).append(spent)
        if spent > self.where.get(op, (-1.0, ""))[0]:
            self.where[op] = (spent, where)
        if not reply["ok"] and "internal error" in reply["error"]:
            raise SystemExit(f"{op} at {where}: {reply['error']}")
        return reply.get("result")

    def report(self) -> float:
        """Print one line per request; the worst time of all."""
        worst = 0.0
        for op in sorted(self.times):
            ts = self.times[op]
            spent, where = self.where[op]
            worst = max(worst, spent)
            print(f"{op:12} {len(ts):6} requests: median {1000 * statistics.median(ts):8.2f} ms, "
                  f"worst {1000 * spent:8.2f} ms ({where})")
        return worst


def nde_bans(position: Position) -> tuple[list[int], list[int]]:
    """The empty points refused to the side to move: for leaving an NDE area, and the others."""
    g = position.grid
    red, blue = legal_masks(position)
    legal = red if position.turn == "r" else blue
    refused = position.empty_points & ~legal
    naked = forming(g, position.stones(position.turn), refused)
    return list(Grid.points(refused & ~naked)), list(Grid.points(refused & naked))


def adversarial_choice(position: Position, legal: list[int], rng: random.Random) -> int:
    """Among a few sampled legal placements, the one leaving the opponent the most NDE bans."""
    best, most = legal[0], -1
    for p in rng.sample(legal, min(ADVERSARY_SAMPLE, len(legal))):
        placed = position.place(p, position.turn).with_turn("b" if position.turn == "r" else "r")
        if placed.winner() is not None:
            continue
        count = len(nde_bans(placed)[0])
        if count > most:
            best, most = p, count
    return best


def play_game(n: int, kind: str, seed: int, explains: int, worst: Worst) -> int:
    """One game of ``kind`` on n x n with every request timed on every position; its length."""
    rng = random.Random(f"{kind}-{n}-{seed}")
    g = Grid.get(n)
    game: dict[str, Any] = {"size": n, "start": None, "moves": []}
    while True:
        ply = len(game["moves"])
        where = f"{n}x{n} {kind} game {seed} ply {ply}"
        state = worst.timed("nd_state", {"game": game}, where)
        worst.timed("nd_load", {"text": state["record"]}, where)
        if ply:
            worst.timed("nd_undo", {"game": game, "humans": ["r", "b"]}, where)
        if state["over"] or not state["legal"]:
            return ply
        position = Position.parse(state["position"])
        nde, naked = nde_bans(position)
        rng.shuffle(nde)
        rng.shuffle(naked)
        for p in (nde + naked)[:explains]:
            worst.timed("nd_explain", {"game": game, "point": g.name(p)}, f"{where} {g.name(p)}")
        if nde:
            refused = {**game, "moves": [*game["moves"], g.name(nde[0])]}
            worst.timed("nd_salvage", {"game": refused}, f"{where} {g.name(nde[0])}")
        legal = [g.point(name) for name in state["legal"]]
        p = rng.choice(legal) if kind == "random" else adversarial_choice(position, legal, rng)
        game = worst.timed("nd_play", {"game": game, "move": g.name(p)}, f"{where} {g.name(p)}")


def main(argv: list[str] | None = None) -> int:
    """Run the games and print the worst time of each request."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[9, 13])
    parser.add_argument("--games", type=int, default=20, help="games per size and kind")
    parser.add_argument("--kinds", nargs="+", choices=("random", "adversarial"),
                        default=["random", "adversarial"])
    parser.add_argument("--explains", type=int, default=4, help="refused points explained per position")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    if args.games < 1 or args.explains < 0 or any(n not in range(3, 14) for n in args.sizes):
        parser.error("--games at least 1, --explains at least 0, sizes 3 to 13")
    API.replay({"size": args.sizes[0], "start": None, "moves": []})
    worst = Worst()
    positions = 0
    started = time.process_time()
    for n in args.sizes:
        for kind in args.kinds:
            for i in range(args.games):
                positions += play_game(n, kind, args.seed + i, args.explains, worst) + 1
    print(f"{positions} positions, {sum(len(t) for t in worst.times.values())} requests, "
          f"{time.process_time() - started:.1f} s of CPU")
    top = worst.report()
    print(f"worst request: {1000 * top:.2f} ms of CPU")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
