"""Exactness stress of the Naked Diagonal engine: a warm engine against fresh, cache-free answers.

    .venv/bin/python bench/nd_exactness.py                       # 200 games per size, 5x5..13x13
    .venv/bin/python bench/nd_exactness.py --games 20 --sizes 9 --probes 8 --full-every 5

The engine keeps caches across positions (per region: witnesses, repaired fillings, legal masks; the
solver's memo of sub-areas with jokers) and decides most candidates by covering or repairing a
witness, so an error there would show only in a warm process after many queries. This plays seeded
games in one process, as a computer player does: at every position it also asks for the legal
placements of ``--probes`` random continuations a few plies deep (as a search's root queries), then
plays a random legal placement. Every position played is checked with a *fresh* solver (no memo,
no witnesses, no covers or repairs): it must have no NDE region. Every ``--full-every``-th position
the whole legal set is recomputed from the definition (each candidate that forms no naked diagonal,
placed, every part of its region solved by a fresh solver) and must equal the engine's. Regions of at
most ``--reference-size`` points are also decided by the independent brute force of
tests/game/naked_diagonal/reference.py. The engine's own full replay of every repaired witness is on.

It prints one JSON line per size (games, positions, probes, full checks, disagreements, time) and
writes each disagreement, with the position and the point, to the file given by ``--out``.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.game.naked_diagonal import reference as ref  # noqa: E402
from unitile_py.naked_diagonal.areas import Solver  # noqa: E402
from unitile_py.naked_diagonal.grid import Grid  # noqa: E402
from unitile_py.naked_diagonal.legality import after, engine, legal_masks  # noqa: E402
from unitile_py.naked_diagonal.position import Position  # noqa: E402
from unitile_py.naked_diagonal.rules import forms  # noqa: E402


def fresh_fillable(position: Position, area: int, reference_size: int) -> bool:
    """Whether the empty region ``area`` can be filled cleanly, by a new solver (and the brute force)."""
    solver = Solver(position.grid)
    got = solver.witness(area, position.red, position.blue) is not None
    if area.bit_count() <= reference_size:
        board, _ = ref.board_of(str(position))
        allowed = frozenset(position.grid.bits(area))
        want = ref.fillable(board, allowed, allowed)
        if want != got:
            raise AssertionError(f"solver {got} brute force {want} on {position} area "
                                 f"{' '.join(position.grid.names(area))}")
    return got


def definition_masks(position: Position, reference_size: int) -> tuple[int, int]:
    """Legal placements from the definition: no naked diagonal formed, every part of the region fillable."""
    g = position.grid
    out = [0, 0]
    for i, colour in enumerate("rb"):
        own = position.stones(colour)
        for p in g.bits(position.empty_points):
            if forms(g, own, p) is not None:
                continue
            placed = position.place(p, colour)
            region = next(m for m in g.components(position.empty_points) if m >> p & 1)
            if all(fresh_fillable(placed, part, reference_size)
                   for part in g.components(region & ~(1 << p))):
                out[i] |= 1 << p
    return out[0], out[1]


def playable(position: Position) -> tuple[int, ...]:
    """The legal placements of the side to move (none once the game is won)."""
    if position.winner() is not None:
        return ()
    red, blue = legal_masks(position)
    return Grid.points(red if position.turn == "r" else blue)


def stress(n: int, games: int, seed: int, probes: int, depth: int, full_every: int,
           reference_size: int, failures: list[dict[str, str]]) -> dict[str, object]:
    """Play and check ``games`` seeded games on an n x n board (see the module docstring)."""
    rng = random.Random(seed * 1_000_003 + n)
    e = engine(Grid.get(n))
    e.check = True
    t0 = time.perf_counter()
    positions = probed = full = 0
    for _ in range(games):
        pos = Position.empty(n)
        while True:
            moves = playable(pos)
            if not moves:
                break
            for _ in range(probes):  # a search's root queries a few plies ahead
                q = pos
                for _ in range(rng.randint(1, depth)):
                    ms = playable(q)
                    if not ms:
                        break
                    q = after(q, rng.choice(ms))
                    probed += 1
            point = rng.choice(moves)
            nxt = after(pos, point)
            positions += 1
            for area in pos.grid.components(nxt.empty_points):
                if not fresh_fillable(nxt, area, reference_size):
                    failures.append({"position": str(pos), "point": pos.grid.name(point),
                                     "leaves": " ".join(pos.grid.names(area))})
            if full_every and positions % full_every == 0:
                full += 1
                want = definition_masks(nxt, reference_size)
                got = legal_masks(nxt)
                if want != got:
                    g = nxt.grid
                    failures.append({"position": str(nxt), "engine": repr([g.names(m) for m in got]),
                                     "definition": repr([g.names(m) for m in want])})
            pos = nxt
    return {"size": n, "games": games, "positions": positions, "probed": probed, "full_checks": full,
            "disagreements": len(failures), "repairs": e.repairs, "fallbacks": e.fallbacks,
            "seconds": round(time.perf_counter() - t0, 1)}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--sizes", type=int, nargs="+", default=[5, 7, 9, 11, 13])
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--probes", type=int, default=4, help="random continuations queried per position")
    ap.add_argument("--depth", type=int, default=6, help="most plies of a continuation")
    ap.add_argument("--full-every", type=int, default=10, help="full legal-set check every k-th position")
    ap.add_argument("--reference-size", type=int, default=10, help="brute force on regions this small")
    ap.add_argument("--out", type=Path, help="append each disagreement here as a JSON line")
    args = ap.parse_args(argv)
    total = 0
    for n in args.sizes:
        failures: list[dict[str, str]] = []
        row = stress(n, args.games, args.seed, args.probes, args.depth, args.full_every,
                     args.reference_size, failures)
        print(json.dumps(row), flush=True)
        total += len(failures)
        if args.out and failures:
            with args.out.open("a", encoding="utf-8") as f:
                for item in failures:
                    f.write(json.dumps(item) + "\n")
    return 1 if total else 0


if __name__ == "__main__":
    sys.exit(main())
