"""The worst CPU time of each web API request over random, adversarial and crafted positions.

    .venv/bin/python bench/nd_requests.py                  # 9x9 and 13x13: 12 games of each kind, 8 crafted
    .venv/bin/python bench/nd_requests.py --games 2 --crafted 4 --sizes 13 --explains 8

Every request goes through :func:`unitile_py.webapi.start`, as the page's worker answers it, timed in
CPU time of this process. Naked Diagonal positions come from three kinds of games per size:

* *random*: a uniformly random legal placement each turn, from the empty board;
* *adversarial*: among a few sampled legal placements, the one after which the most empty points are
  refused for leaving an NDE area (the bans whose explanation searches a culprit);
* *crafted*: a custom start (``start`` in the game) made to be slow: a random game of random length
  with a random blob of its stones cleared (stones left forming a naked diagonal removed), then
  climbed for ``--climb`` steps (flip one to three points, keep the change when the exact engine,
  from a fresh cache, does at least as much work on it: a count, so the start is the same on every
  machine; a start with an NDE area counts too, it is refused), then played randomly from there; the
  first crafted games of a size start from :data:`KNOWN_STARTS` instead. The engine's caches are
  emptied before a crafted game's first request: the page may meet it cold.

On every position: ``nd_state``, ``nd_load`` of its record, ``nd_undo``, ``nd_explain`` of up to
``--explains`` refused points (NDE bans first), ``nd_salvage`` of the game with a refused placement
appended, ``nd_play``; every ``--every`` positions also ``nd_hint``, ``nd_hint_source`` and
``nd_computer_move`` at every level the size has (the hint's search remembered by neither: each
request searches as in a fresh worker); per game ``nd_new_game`` and ``nd_info``. Unitile
(5x5, with its tables when ``tables/5x5`` is there): ``--unitile-games`` random games with ``state``,
``load``, ``undo``, ``explain``, ``salvage``, ``play`` on every position, ``hint`` and
``computer_move`` at every level every ``--every`` positions, ``new_game`` and ``info`` per game.

Every request runs as the page's worker runs it, a :class:`unitile_py.webapi.Task` stepped one piece
at a time: a request its game answers in steps (``STEPS``) holds the worker for one piece at most, any
other for the whole request. Per request it prints the count, median and worst time of the whole
request and, for a stepped one, its worst piece, with the position that gave the worst; then the worst
piece on the crafted starts and on the random 13x13 games, every request that is not stepped with its
worst time, and last the worst of all: the longest the worker was held (issue 51's bound: 0.5 s).
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

from unitile_py.errors import NakedDiagonalError  # noqa: E402
from unitile_py.naked_diagonal import hints as nd_hints  # noqa: E402
from unitile_py.naked_diagonal import legality  # noqa: E402
from unitile_py.naked_diagonal.grid import Grid  # noqa: E402
from unitile_py.naked_diagonal.legality import legal_masks  # noqa: E402
from unitile_py.naked_diagonal.players import levels_for  # noqa: E402
from unitile_py.naked_diagonal.position import Position  # noqa: E402
from unitile_py.naked_diagonal.rules import forming, naked_diagonals  # noqa: E402
from unitile_py.naked_diagonal.webapi import API  # noqa: E402
from unitile_py.unitile.webapi import API as UNITILE  # noqa: E402
from unitile_py.unitile.webapi import LEVELS as UNITILE_LEVELS  # noqa: E402
from unitile_py.webapi import routes, start  # noqa: E402

#: Legal placements an adversarial game compares at each turn.
ADVERSARY_SAMPLE = 6
#: Starts found slow by a longer climb than the bench's, played as crafted games too (with each side to
#: move): tests/game/naked_diagonal/test_bounded_work.py's CRAFTED_13.
KNOWN_STARTS = {
    13: ["BR..R..B..B../B...B..RR.B.B/B..RR.B...R.B/R.BR..R.B.RRB/.....RR.R..../.B.....B..RRR/"
         ".B..R..R..B../.R.........../...R.B..RR.BR/B.B....BR..BB/B.R..BBB...RB/......BBB..../"
         f".B.RB.RRR.B.. {turn}" for turn in "rb"],
}
#: Unitile's tables (its computer levels need them).
UNITILE_TABLES = ROOT / "tables" / "5x5"
#: The requests answered in pieces, under their names.
STEPPED_NAMES = set(routes().steps)
#: The kinds of positions whose worst piece is reported on its own line: (label, size, game kind).
REPORTED_KINDS = (("the crafted starts", None, "crafted"), ("random 13x13 games", 13, "random"))


class Worst:
    """The times of each request, and where its worst happened."""

    def __init__(self) -> None:
        self.times: dict[str, list[float]] = {}
        self.where: dict[str, tuple[float, str]] = {}
        #: The longest piece of each request, and the longest piece per (size, game kind).
        self.piece: dict[str, tuple[float, str]] = {}
        self.by_kind: dict[tuple[int, str], tuple[float, str]] = {}
        self.positions: dict[str, int] = {}
        #: The (size, game kind) of the game being played (0 and "" outside Naked Diagonal's games).
        self.kind: tuple[int, str] = (0, "")

    def timed(self, op: str, args: dict[str, Any], where: str, position: str = "") -> Any:
        """The result of one request (None for an error), its CPU time recorded, whole and per piece;
        ``position`` is the position's text, reported with the worst time."""
        task = start(json.dumps({"op": op, "args": args}))
        spent = longest = 0.0
        while True:
            begun = time.process_time()
            text = task.step(0.0)
            piece = time.process_time() - begun
            spent, longest = spent + piece, max(longest, piece)
            if text is not None:
                break
        reply = json.loads(text)
        here = f"{where}: {position}" if position else where
        self.times.setdefault(op, []).append(spent)
        if spent > self.where.get(op, (-1.0, ""))[0]:
            self.where[op] = (spent, here)
        if longest > self.piece.get(op, (-1.0, ""))[0]:
            self.piece[op] = (longest, here)
        if longest > self.by_kind.get(self.kind, (-1.0, ""))[0]:
            self.by_kind[self.kind] = (longest, f"{op} at {here}")
        if not reply["ok"] and "internal error" in reply["error"]:
            raise SystemExit(f"{op} at {where} {position}: {reply['error']}")
        return reply.get("result")

    def seen(self, kind: str) -> None:
        """Count one position of ``kind``."""
        self.positions[kind] = self.positions.get(kind, 0) + 1

    def report(self) -> float:
        """Print one line per request, the worst piece per kind of position and the requests that are
        not stepped; the longest the worker was held (one piece of a stepped request, or a whole other
        one)."""
        for op in sorted(self.times):
            ts = self.times[op]
            spent, where = self.where[op]
            pieces = ""
            if op in STEPPED_NAMES:
                longest, at = self.piece[op]
                pieces = f"; stepped, worst piece {1000 * longest:8.2f} ms ({at})"
            print(f"{op:17} {len(ts):6} requests: median {1000 * statistics.median(ts):8.2f} ms, "
                  f"worst {1000 * spent:8.2f} ms ({where}){pieces}")
        for label, size, kind in REPORTED_KINDS:
            found = [v for (n, k), v in self.by_kind.items() if k == kind and size in (None, n)]
            if found:
                longest, at = max(found)
                print(f"worst on {label}: {1000 * longest:.2f} ms of CPU ({at})")
        for op in sorted(set(self.times) - STEPPED_NAMES):
            print(f"not stepped: {op} worst {1000 * self.where[op][0]:.2f} ms of CPU ({self.where[op][1]})")
        return max((longest for longest, _ in self.piece.values()), default=0.0)


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


def engine_work(position: Position) -> int:
    """The work the exact engine does on ``position`` from empty caches: every area its solver
    decides costs 1 + a tenth of its points (the solver's budget units), a region 1."""
    legality._ENGINES.clear()
    e = legality.engine(position.grid)
    for area in position.grid.components(position.empty_points):
        if not e.region(area, position.red, position.blue).fillable:
            break
    work = sum((1 + k // 10) * c for k, c in e.solver.stats.sizes.items())
    legality._ENGINES.clear()
    return work + len(e.region_sizes)


def random_play(position: Position, plies: int, rng: random.Random) -> Position:
    """``position`` after up to ``plies`` random legal placements (fewer if the game ends)."""
    for _ in range(plies):
        red, blue = legal_masks(position)
        legal = list(Grid.points(red if position.turn == "r" else blue))
        if not legal:
            break
        placed = position.place(rng.choice(legal), position.turn)
        if placed.winner() is not None:
            break
        position = placed.with_turn("b" if position.turn == "r" else "r")
    return position


def without_naked(grid: Grid, red: int, blue: int) -> tuple[int, int]:
    """The stones with those forming a naked diagonal removed, one at a time."""
    while True:
        naked = naked_diagonals(grid, red, blue)
        if not naked:
            return red, blue
        p, _, colour = naked[0]
        if colour == "r":
            red &= ~(1 << p)
        else:
            blue &= ~(1 << p)


def crafted_start(n: int, rng: random.Random, climb: int) -> Position:
    """A start made to be slow: a random game with a blob of stones cleared, climbed (see the module)."""
    g = Grid.get(n)
    position = random_play(Position.empty(n), rng.randint(g.size // 3, g.size), rng)
    blob = 1 << rng.randrange(g.size)
    target = rng.randint(g.size // 8, g.size // 2)
    while blob.bit_count() < target:
        blob |= 1 << rng.choice(Grid.points(g.dilate4(blob) & ~blob))
    red, blue = without_naked(g, position.red & ~blob, position.blue & ~blob)
    position = Position(g, red, blue, rng.choice("rb"))
    work = engine_work(position)
    for _ in range(climb):
        red, blue = position.red, position.blue
        for _ in range(rng.randint(1, 3)):
            bit = 1 << rng.randrange(g.size)
            if (red | blue) & bit:
                red, blue = red & ~bit, blue & ~bit
            elif rng.random() < 0.5:
                red |= bit
            else:
                blue |= bit
        try:
            candidate = Position(g, red, blue, position.turn)
        except NakedDiagonalError:
            continue
        if candidate.winner() is not None:
            continue
        more = engine_work(candidate)
        if more >= work:
            position, work = candidate, more
    return position


def play_game(n: int, kind: str, seed: int, opts: argparse.Namespace, worst: Worst) -> int:
    """One game of ``kind`` on n x n with every request timed on every position; its positions."""
    rng = random.Random(f"{kind}-{n}-{seed}")
    g = Grid.get(n)
    start = None
    if kind == "crafted":
        known = KNOWN_STARTS.get(n, [])
        i = seed - opts.seed
        start = known[i] if i < len(known) else str(crafted_start(n, rng, opts.climb))
        legality._ENGINES.clear()  # the page may meet the start cold
    game: dict[str, Any] = {"size": n, "start": start, "moves": []}
    label = f"{n}x{n} {kind} game {seed}"
    worst.kind = (n, kind)
    worst.timed("nd_new_game", {"size": n}, label)
    worst.timed("nd_info", {}, label)
    positions = 0
    while True:
        ply = len(game["moves"])
        where = f"{label} ply {ply}"
        text = f"start {start} moves {' '.join(game['moves'])}" if start else " ".join(game["moves"])
        state = worst.timed("nd_state", {"game": game}, where, text)
        positions += 1
        worst.seen(f"{n}x{n} {kind}")
        if state is None:  # a crafted start refused (it leaves an NDE area): what the page still asks
            worst.timed("nd_load", {"text": f'[Position "{start}"]\n'}, where, text)
            worst.timed("nd_salvage", {"game": game}, where, text)
            worst.timed("nd_explain", {"game": game, "move": "a1"}, where, text)
            return positions
        worst.timed("nd_load", {"text": state["record"]}, where, text)
        if ply:
            worst.timed("nd_undo", {"game": game, "humans": ["r", "b"]}, where, text)
        if state["over"] or not state["legal"]:
            return positions
        position = Position.parse(state["position"])
        nde, naked = nde_bans(position)
        rng.shuffle(nde)
        rng.shuffle(naked)
        for p in (nde + naked)[:opts.explains]:
            worst.timed("nd_explain", {"game": game, "move": g.name(p)}, f"{where} {g.name(p)}", text)
        if nde:
            refused = {**game, "moves": [*game["moves"], g.name(nde[0])]}
            worst.timed("nd_salvage", {"game": refused}, f"{where} {g.name(nde[0])}", text)
        if positions % opts.every == 1:
            for op in ("nd_hint", "nd_hint_source"):
                nd_hints.forget()  # each searches, as the first of the two does on the page
                worst.timed(op, {"game": game}, where, text)
            for level in levels_for(n):
                args = {"game": game, "level": level, "seed": seed}
                worst.timed("nd_computer_move", args, f"{where} level {level}", text)
        legal = [g.point(name) for name in state["legal"]]
        p = adversarial_choice(position, legal, rng) if kind == "adversarial" else rng.choice(legal)
        game = worst.timed("nd_play", {"game": game, "move": g.name(p)}, f"{where} {g.name(p)}", text)


def unitile_game(seed: int, opts: argparse.Namespace, worst: Worst) -> int:
    """One random Unitile game with every request timed on every position; its positions."""
    rng = random.Random(f"unitile-{seed}")
    game: dict[str, Any] = worst.timed("new_game", {}, f"unitile game {seed}")
    info = worst.timed("info", {}, f"unitile game {seed}")
    positions = 0
    while True:
        where = f"unitile game {seed} ply {len(game['moves'])}"
        text = " ".join(game["moves"])
        state = worst.timed("state", {"game": game}, where, text)
        positions += 1
        worst.seen("unitile 5x5")
        worst.timed("load", {"text": state["record"]}, where, text)
        if game["moves"]:
            worst.timed("undo", {"game": game, "humans": ["r", "b"]}, where, text)
        if state["over"] or not state["legal"]:
            return positions
        names = info["names"]
        for name in rng.sample(names, min(opts.explains, len(names))):
            worst.timed("explain", {"game": game, "move": name}, f"{where} {name}", text)
        refused = next((m for m in names if m not in state["legal"]), None)
        if refused is not None:
            worst.timed("salvage", {"game": {**game, "moves": [*game["moves"], refused]}}, where, text)
        if info["players"] and positions % opts.every == 1:
            worst.timed("hint", {"game": game}, where, text)
            for level in UNITILE_LEVELS:
                args = {"game": game, "level": level, "seed": seed}
                worst.timed("computer_move", args, f"{where} level {level}", text)
        game = worst.timed("play", {"game": game, "move": rng.choice(state["legal"])}, where, text)


def main(argv: list[str] | None = None) -> int:
    """Run the games and print the worst time of each request."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[9, 13])
    parser.add_argument("--games", type=int, default=12, help="random and adversarial games per size, each")
    parser.add_argument("--crafted", type=int, default=8, help="crafted starts per size")
    parser.add_argument("--climb", type=int, default=40, help="climbing steps of each crafted start")
    parser.add_argument("--kinds", nargs="+", choices=("random", "adversarial", "crafted"),
                        default=["random", "adversarial", "crafted"])
    parser.add_argument("--explains", type=int, default=4, help="refused points explained per position")
    parser.add_argument("--every", type=int, default=10, help="positions between hints and computer moves")
    parser.add_argument("--unitile-games", type=int, default=10)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    if (args.games < 1 or args.crafted < 0 or args.climb < 0 or args.explains < 0 or args.every < 1
            or args.unitile_games < 0 or any(n not in range(3, 14) for n in args.sizes)):
        parser.error("--games and --every at least 1, --crafted, --climb, --explains and --unitile-games "
                     "at least 0, sizes 3 to 13")
    if UNITILE_TABLES.is_dir():
        UNITILE.load_tables(directory=str(UNITILE_TABLES))
    API.replay({"size": args.sizes[0], "start": None, "moves": []})
    worst = Worst()
    started = time.process_time()
    for n in args.sizes:
        for kind in args.kinds:
            for i in range(args.crafted if kind == "crafted" else args.games):
                play_game(n, kind, args.seed + i, args, worst)
    worst.kind = (0, "")
    for i in range(args.unitile_games):
        unitile_game(args.seed + i, args, worst)
    counts = ", ".join(f"{k} {v}" for k, v in worst.positions.items())
    requests = sum(len(t) for t in worst.times.values())
    print(f"{sum(worst.positions.values())} positions ({counts}), {requests} requests, "
          f"{time.process_time() - started:.1f} s of CPU")
    top = worst.report()
    print(f"worst request: {1000 * top:.2f} ms of CPU (the longest the worker was held: a piece of a "
          f"stepped request or a whole other one)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
