"""The empirical survey of NDE areas: the areas that placements would leave in positions of real games.

One dask task (:class:`SurveyTask`) plays seeded games on one board size (5 x 5 to 13 x 13) with the
game's own exact engine (:mod:`unitile_py.naked_diagonal.legality`: with its caches it is the cheaper
of the two, and it takes every size, where the pipeline's 64-bit kernels stop at 7 x 7). The
players:

* ``random``: a uniformly random legal placement;
* ``greedy``: a computer player: of eight legal placements drawn at random it plays the one after which
  its shortest orthogonal path between its edges (own stones 0, empty points 1) minus the opponent's
  is smallest, and one move in ten a random legal placement.

In every position before a placement, each candidate (an empty point and a colour) that forms no naked
diagonal but is illegal leaves NDE parts: the parts of its region minus the point that are NDE after
the placement. A part of up to :data:`MAX_DRAWN` points is decided by the engine's exact solver; a larger
one by its quick exact proofs (a dead point, a window around the placement), or, when it is the only
part left undecided and no other part is NDE, because the placement is illegal (some part must be NDE);
large parts still undecided are counted as ``large_undecided`` (an exhaustive search of a large NDE
part can take very long). Each NDE part is counted by its **configuration**: the part
and the points around it (red, blue, or no stone: the board edge or an empty point of another region),
drawn over the part's box grown by one, up to the eight symmetries and the colour exchange
(:func:`pipeline.naked_diagonal.atlas.canonical_drawing`); parts of more than :data:`MAX_DRAWN`
points are counted by size and banned colours only (``"23 -"``: 23 points, no colour banned). The
client merges the tasks (:func:`merge`).
"""

from __future__ import annotations

import json
import os
import random
import resource
import time
from collections import Counter, OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pipeline.executor import Executor
from unitile_py.colours import other
from unitile_py.errors import NakedDiagonalError
from unitile_py.naked_diagonal.game import Game
from unitile_py.naked_diagonal.grid import Grid
from unitile_py.naked_diagonal.legality import engine, legal_masks
from unitile_py.naked_diagonal.position import Position
from unitile_py.naked_diagonal.rules import forming

from .atlas import AREA, BLUE, EDGE, NONE, RED, banned_of, canonical_drawing

#: Changes when a task's result would change (kept results of another version are refused).
SURVEY_VERSION = 1
#: The largest NDE part counted by its configuration (points).
MAX_DRAWN = 16
#: Players of :class:`SurveyTask`.
PLAYERS = ("random", "greedy")
#: Legal placements the greedy player compares.
GREEDY_SAMPLE = 8


def path_length(grid: Grid, own: int, enemy: int, colour: str) -> int:
    """Empty points colour ``colour`` (``"r"`` north-south, ``"b"`` west-east) still needs for an
    orthogonal chain between its edges through ``own`` stones and empty points; ``grid.size + 1`` when
    it cannot."""
    n = grid.n
    first = range(n) if colour == "r" else range(0, grid.size, n)
    last = {grid.size - n + i for i in range(n)} if colour == "r" else {i * n + n - 1 for i in range(n)}
    far = grid.size + 1
    dist = [far] * grid.size
    todo: list[list[int]] = [[] for _ in range(grid.size + 2)]
    for p in first:
        if not enemy >> p & 1:
            d = 0 if own >> p & 1 else 1
            if d < dist[p]:
                dist[p] = d
                todo[d].append(p)
    for d in range(grid.size + 1):
        for p in todo[d]:
            if dist[p] != d:
                continue
            if p in last:
                return d
            for q in grid.orth[p]:
                if enemy >> q & 1:
                    continue
                e = d + (0 if own >> q & 1 else 1)
                if e < dist[q]:
                    dist[q] = e
                    todo[e].append(q)
    return far


def greedy_choice(position: Position, legal: tuple[int, ...], rng: random.Random) -> int:
    """The greedy player's placement (see the module docstring)."""
    if rng.random() < 0.1 or len(legal) == 1:
        return rng.choice(legal)
    grid = position.grid
    me = position.turn
    sample = legal if len(legal) <= GREEDY_SAMPLE else tuple(rng.sample(legal, GREEDY_SAMPLE))
    best: list[int] = []
    best_score = 0
    for p in sample:
        after = position.place(p, me)
        mine, theirs = (after.red, after.blue) if me == "r" else (after.blue, after.red)
        score = path_length(grid, mine, theirs, me) - path_length(grid, theirs, mine, other(me))
        if not best or score < best_score:
            best, best_score = [p], score
        elif score == best_score:
            best.append(p)
    return rng.choice(best)


def configuration(grid: Grid, part: int, red: int, blue: int) -> dict[tuple[int, int], str]:
    """The cells of an NDE part's configuration (see the module docstring), board coordinates: the part,
    the stones on its ring, no stone elsewhere on the board, the edge beyond it."""
    ring = grid.dilate8(part) & ~part
    rows = [p // grid.n for p in grid.bits(part)]
    cols = [p % grid.n for p in grid.bits(part)]
    cells: dict[tuple[int, int], str] = {}
    for r in range(min(rows) - 1, max(rows) + 2):
        for c in range(min(cols) - 1, max(cols) + 2):
            v = EDGE
            if 0 <= r < grid.n and 0 <= c < grid.n:
                v = NONE
                bit = 1 << (r * grid.n + c)
                if part & bit:
                    v = AREA
                elif ring & red & bit:
                    v = RED
                elif ring & blue & bit:
                    v = BLUE
            cells[(r, c)] = v
    return cells


@dataclass(frozen=True)
class SurveyTask:
    """``games`` games on n x n by ``player`` (both sides), seeded with ``seed``."""

    n: int
    player: str
    seed: int
    games: int


class _Drawings:
    """Canonical drawings of NDE parts, with a bounded cache on the part and the stones around it."""

    def __init__(self, grid: Grid, limit: int = 200_000) -> None:
        self.grid = grid
        self.cache: OrderedDict[tuple[int, int, int], str] = OrderedDict()
        self.limit = limit

    def __call__(self, part: int, red: int, blue: int) -> str:
        ring = self.grid.dilate8(part) & ~part
        key = (part, red & ring, blue & ring)
        text = self.cache.get(key)
        if text is None:
            text = canonical_drawing(configuration(self.grid, part, red, blue))[0]
            if len(self.cache) >= self.limit:
                self.cache.popitem(last=False)
            self.cache[key] = text
        return text


def survey_position(position: Position, drawings: _Drawings, counts: Counter[str], large: Counter[str],
                    stats: Counter[str]) -> None:
    """Record the NDE parts the illegal candidates of one position would leave."""
    grid = position.grid
    solver = engine(grid).solver
    empty = position.empty_points
    legal = legal_masks(position)
    stats["positions"] += 1
    if empty and legal == (0, 0):
        stats["nde_regions"] += 1  # no game reaches such a position: nothing to record
        return
    for colour, own, mask in (("r", position.red, legal[0]), ("b", position.blue, legal[1])):
        clean = empty & ~forming(grid, own, empty)
        stats["candidates"] += clean.bit_count()
        stats["legal"] += mask.bit_count()
        for p in grid.bits(clean & ~mask):
            stats["leave_nde"] += 1
            bit = 1 << p
            if colour == "r":
                red, blue = position.red | bit, position.blue
            else:
                red, blue = position.red, position.blue | bit
            region = grid.grow(bit, empty)
            nde: list[int] = []
            open_large: list[int] = []
            for part in grid.components(region & ~bit):
                if part.bit_count() <= MAX_DRAWN:
                    if solver.witness(part, red, blue, hint=p) is None:
                        nde.append(part)
                elif solver.proves_nde(part, red, blue, p):
                    nde.append(part)
                else:
                    open_large.append(part)
            # The placement is illegal, so some part is NDE: a lone large part no quick proof settled
            # is it when no other part is (the exhaustive search of a large NDE part can take very long).
            if not nde and len(open_large) == 1:
                nde = open_large
            elif open_large:
                stats["large_undecided"] += len(open_large)
            for part in nde:
                stats["parts"] += 1
                size = part.bit_count()
                if size <= MAX_DRAWN:
                    counts[drawings(part, red, blue)] += 1
                else:
                    banned = "".join(c.upper() for c, own in (("r", red), ("b", blue))
                                     if not part & ~forming(grid, own, part))
                    large[f"{size} {banned or '-'}"] += 1


def survey_task(task: SurveyTask) -> dict[str, Any]:
    """Play a task's games: ``{"counts": {drawing: count}, "large": {"size banned": count}, ...}``."""
    t0, c0 = time.perf_counter(), time.process_time()
    grid = Grid.get(task.n)
    rng = random.Random(f"nd-survey {task.n} {task.player} {task.seed}")
    drawings = _Drawings(grid)
    counts: Counter[str] = Counter()
    large: Counter[str] = Counter()
    stats: Counter[str] = Counter()
    for _ in range(task.games):
        game = Game(Position.empty(task.n))
        while not game.is_over():
            position = game.position
            survey_position(position, drawings, counts, large, stats)
            moves = game.legal_moves()
            point = rng.choice(moves) if task.player == "random" else greedy_choice(position, moves, rng)
            game.push(point)
            stats["placements"] += 1
        stats["games"] += 1
        stats[f"{game.winner()}_won"] += 1
    return {
        "version": SURVEY_VERSION,
        "n": task.n,
        "player": task.player,
        "seed": task.seed,
        "games": task.games,
        "counts": dict(counts),
        "large": dict(large),
        "stats": dict(stats),
        "seconds": round(time.perf_counter() - t0, 3),
        "cpu_seconds": round(time.process_time() - c0, 3),
        "max_rss_mib": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
        "pid": os.getpid(),
    }


def merge(results: list[dict[str, Any]]) -> dict[str, Any]:
    """The tasks merged: ``{"areas": [...], "large": {...}, "per_board": {...}}``, the areas most frequent
    first, each with its drawing, points, banned colours, count and counts per board and player."""
    areas: dict[str, dict[str, Any]] = {}
    large: Counter[str] = Counter()
    per_board: dict[str, dict[str, Any]] = {}
    for res in results:
        board = f"{res['n']}x{res['n']}"
        row = per_board.setdefault(board, {"tasks": 0, "cpu_seconds": 0.0, "max_rss_mib": 0.0})
        row["tasks"] += 1
        for name, v in res["stats"].items():
            row[name] = row.get(name, 0) + v
        row["cpu_seconds"] = round(row["cpu_seconds"] + res["cpu_seconds"], 3)
        row["max_rss_mib"] = max(row["max_rss_mib"], res["max_rss_mib"])
        for size, c in res["large"].items():
            large[size] += c
        for text, c in res["counts"].items():
            entry = areas.get(text)
            if entry is None:
                entry = areas[text] = {"drawing": text, "k": text.count(AREA), "banned": banned_of(text),
                                       "count": 0, "boards": {}, "players": {}}
            entry["count"] += c
            entry["boards"][board] = entry["boards"].get(board, 0) + c
            entry["players"][res["player"]] = entry["players"].get(res["player"], 0) + c
    ordered = sorted(areas.values(), key=lambda e: (-e["count"], e["k"], e["drawing"]))
    by_size = sorted(large.items(), key=lambda kv: (int(kv[0].split()[0]), kv[0]))
    return {"areas": ordered, "large": dict(by_size), "per_board": per_board}


def part_name(task: SurveyTask) -> str:
    """The file name of a finished task's result in a survey's parts folder."""
    return f"{task.n}x{task.n}-{task.player}-seed{task.seed}-games{task.games}.json"


def _load_part(path: Path, task: SurveyTask) -> dict[str, Any]:
    """A finished task's result kept by an earlier run; one clear line when it is not one."""
    try:
        res = json.loads(path.read_text())
        ok = (res.get("version") == SURVEY_VERSION and [res.get(k) for k in ("n", "player", "seed", "games")]
              == [task.n, task.player, task.seed, task.games] and isinstance(res.get("counts"), dict))
    except (OSError, ValueError, AttributeError):
        ok = False
    if not ok:
        raise NakedDiagonalError(f"{path}: not a result of this survey task (version {SURVEY_VERSION}); "
                                 "move it away to run the task again")
    return dict(res)


def _keep_part(parts: Path, task: SurveyTask, res: dict[str, Any]) -> None:
    """Write a finished task's result whole (a temporary file renamed), so that a stopped run resumes."""
    path = parts / part_name(task)
    tmp = path.with_suffix(f".tmp{os.getpid()}")
    tmp.write_text(json.dumps(res) + "\n")
    os.replace(tmp, path)


def run_survey(
    executor: Executor, tasks: list[SurveyTask], log: Callable[[str], None] = print,
    parts: Path | None = None,
) -> dict[str, Any]:
    """Run the tasks and merge them (with each task's own record, counts left out).

    With ``parts``, each finished task's result is kept there as it arrives, and the tasks whose
    results are already there are not run again (a stopped survey resumes where it was).
    """
    t0 = time.perf_counter()
    results: list[dict[str, Any] | None] = [None] * len(tasks)
    if parts is not None:
        parts.mkdir(parents=True, exist_ok=True)
        for i, task in enumerate(tasks):
            if (parts / part_name(task)).is_file():
                results[i] = _load_part(parts / part_name(task), task)
    todo = [i for i, res in enumerate(results) if res is None]
    if len(todo) < len(tasks):
        log(f"survey: {len(tasks) - len(todo)} of {len(tasks)} tasks kept from an earlier run in {parts}")

    def keep(j: int, res: dict[str, Any]) -> None:
        if parts is not None:
            _keep_part(parts, tasks[todo[j]], res)

    for j, res in enumerate(executor.map(survey_task, [tasks[i] for i in todo], "survey", on_result=keep)):
        results[todo[j]] = res
    done = [res for res in results if res is not None]
    merged = merge(done)
    merged["tasks"] = [{k: v for k, v in r.items() if k not in ("counts", "large")} for r in done]
    merged["seconds"] = round(time.perf_counter() - t0, 3)
    log(f"survey: {sum(r['stats'].get('positions', 0) for r in done):,} positions, "
        f"{len(merged['areas']):,} configurations, {merged['seconds']} s")
    return merged
