"""The ``verify`` stage: the value identities over every position (one task per bubble cell), a Monte
Carlo run from the start, the symmetric images check, and the report.

The per-position checks run as tasks (:func:`verify_task`, kernels in :mod:`pipeline.verify`); this
process reads only r of the start position and the sampled entries of the symmetric images check.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, ClassVar

import numba
import numpy as np

from unitile_py.board import Board
from unitile_py.index import Indexer
from unitile_py.position import Position

from .arrays import open_array, require_complete
from .context import Context
from .errors import CheckFailed
from .geometry import Geometry
from .solver import UNIT
from .store import Store
from .values import Lookup
from .verify import (
    BLUE_ONLY,
    BOTH,
    DECIDING,
    DROP_BAD,
    EQUAL,
    MAX_MEAN_DEV,
    MEAN_BAD,
    MIN_BEST_DROP,
    MIN_GAP,
    NEITHER,
    RED_ONLY,
    UNDECIDABLE,
    random_walks,
    verify_block,
)


@dataclass(frozen=True)
class VerifyTask:
    """Check the identities for all positions with the bubble on one cell."""

    path: str
    board: str
    bubble: int
    bound: float
    mean_tol: float
    threads: int


def verify_task(task: VerifyTask) -> tuple[list[int], list[float]]:
    """Counts and extremes of one bubble cell (see :mod:`pipeline.verify`)."""
    numba.set_num_threads(task.threads)
    board = Board.parse(task.board)
    geo = Geometry.of(board)
    store = Store(task.path, board)
    arr = store.array("positions/T")
    c = geo.colourings
    cells = [task.bubble, *board.neighbours[task.bubble]]
    blocks = np.stack([np.asarray(arr[b * c : (b + 1) * c]) for b in cells])
    counts, reals = verify_block(task.bubble, blocks, task.bound, task.mean_tol, geo.args)
    return counts.tolist(), reals.tolist()


class VerifyError(CheckFailed):
    """The values failed a check: the printed report says which (exit status 1)."""


@dataclass(frozen=True)
class VerifyStage:
    """Check every position's values; fails the build if any check fails."""

    name: ClassVar[str] = "verify"
    walks: int = 20000
    seed: int = 2024

    def run(self, ctx: Context) -> dict[str, Any]:
        """Check that every chunk of the value stages' arrays is stored and passes its checksum, then run
        the checks and print the report."""
        names = value_arrays(ctx.store)
        # Every array of the store, so that ``pipeline verify`` says at once what is missing.
        require_complete(ctx.store.path, names + [n for n in TABLE_ARRAYS if ctx.store.done("perfect")])
        scrub(ctx, [n for n in names if n != "positions/T"])  # the checks read all of positions/T
        report = verify_values(ctx, self.walks, self.seed)
        return {"report": report}

    def summary(self, record: dict[str, Any]) -> list[str]:
        """The stored report, for a rerun that skips this stage."""
        return format_report(record["report"])


#: The arrays of the stages after verify (tables-verify reads every chunk of them).
TABLE_ARRAYS = ("moves/legal", "perfect/value", "perfect/best")


def value_arrays(store: Store) -> list[str]:
    """The arrays the value stages leave in the store."""
    orbits = len(store.require("classes")["counts"])
    return [
        "classes/rank_to_local",
        *(f"classes/ranks_{o}" for o in range(orbits)),
        "graph/nbr",
        "graph/info",
        "graph/swap",
        "values/r",
        "values/T_class",
        "positions/T",
    ]


@dataclass(frozen=True)
class ScrubTask:
    """Read entries ``lo..hi-1`` of an array (every chunk's checksum is checked on the way)."""

    path: str
    name: str
    lo: int
    hi: int


def scrub_task(task: ScrubTask) -> None:
    """Read a range of an array; a chunk failing its checksum raises :class:`pipeline.errors.Damaged`."""
    open_array(task.path, task.name)[task.lo : task.hi]


#: Entries of an array per scrub task (at most).
SCRUB_ENTRIES = 1 << 22


def scrub(ctx: Context, names: list[str]) -> None:
    """Read every chunk of these arrays, in tasks of whole stored objects (shards or chunks)."""
    tasks = []
    for name in names:
        arr = ctx.store.array(name)
        step = max(arr.step, SCRUB_ENTRIES // arr.step * arr.step)
        tasks += [
            ScrubTask(ctx.store.path, name, a, min(a + step, arr.shape[0]))
            for a in range(0, arr.shape[0], step)
        ]
    ctx.executor.map(scrub_task, tasks, "scrub")


def monte_carlo(board: Board, r_start: float, walks: int, seed: int) -> dict[str, float]:
    """Mean and standard error of the slides to unite red from the start, by simulation."""
    start = Position.start(board)
    steps = random_walks(start.red, start.bubble, walks, seed, Geometry.of(board).args).astype(np.float64)
    mean = float(steps.mean())
    se = float(steps.std(ddof=1) / math.sqrt(walks))
    return {"walks": walks, "mean": mean, "stderr": se, "r_start": r_start, "z": (mean - r_start) / se}


def verify_values(ctx: Context, walks: int, seed: int) -> dict[str, Any]:
    """Check every position; print the report; raise :class:`VerifyError` if a check fails."""
    store, board = ctx.store, ctx.board
    solve = store.require("solve")
    store.require("positions")
    bound = float(solve["bound_T"])
    mean_tol = 2.0 * bound + 16.0 * UNIT * float(solve["T_max"])
    tasks = [
        VerifyTask(store.path, str(board), b, bound, mean_tol, ctx.task_threads) for b in range(board.cells)
    ]
    results = ctx.executor.map(verify_task, tasks, "verify")
    counts = [sum(c[i] for c, _ in results) for i in range(len(results[0][0]))]
    max_dev = max(r[MAX_MEAN_DEV] for _, r in results)
    min_drop = min(r[MIN_BEST_DROP] for _, r in results)
    min_gap = min(r[MIN_GAP] for _, r in results)
    r_start = Lookup(store.path, board).values(Position.start(board))[0]
    mc = monte_carlo(board, r_start, walks, seed)
    images = symmetric_images(store.path, board, samples=walks, seed=seed)
    report: dict[str, Any] = {
        "positions": board.positions,
        "red_united_only": counts[RED_ONLY],
        "blue_united_only": counts[BLUE_ONLY],
        "both_united": counts[BOTH],
        "neither_united": counts[NEITHER],
        "iterations": solve["iterations"],
        "residual": solve["sigma"],
        "bound_T": bound,
        "mean_identity_failures": counts[MEAN_BAD],
        "max_mean_deviation": max_dev,
        "mean_tolerance": mean_tol,
        "no_drop_of_2_failures": counts[DROP_BAD],
        "smallest_best_drop": min_drop,
        "deciding_slides": counts[DECIDING] // 2,
        "smallest_T_gap": min_gap,
        "equal_T_slides": counts[EQUAL] // 2,
        "undecidable_slides": counts[UNDECIDABLE] // 2,
        "monte_carlo": mc,
        "symmetric_images": images,
    }
    failures = []
    if counts[MEAN_BAD]:
        failures.append(f"{counts[MEAN_BAD]} positions break mean T(P') = T - 2")
    if counts[DROP_BAD]:
        failures.append(f"{counts[DROP_BAD]} positions have no slide lowering T by 2")
    if counts[UNDECIDABLE]:
        failures.append(f"{counts[UNDECIDABLE] // 2} slides have |T difference| <= 2 * bound")
    if abs(mc["z"]) > 3.0:
        failures.append(f"Monte Carlo mean {mc['mean']:.4f} is {mc['z']:.1f} standard errors from r(start)")
    if images["mismatches"]:
        failures.append(f"{images['mismatches']} symmetric or colour-swapped images have different T bits")
    if sum(counts[:4]) != board.positions:
        failures.append("position counts do not add up")
    report["ok"] = not failures
    report["failures"] = failures
    for line in format_report(report):
        ctx.log(line)
    if failures:
        raise VerifyError("verify failed: " + "; ".join(failures))
    return report


def symmetric_images(path: str, board: Board, samples: int, seed: int) -> dict[str, int]:
    """Compare the T bits of sampled positions with those of all their symmetric and swapped images.

    Reads only the entries of ``positions/T`` it compares (:meth:`Store.take`), not the whole array.
    """
    ix = Indexer.get(board)
    rng = np.random.default_rng(seed)
    picks = rng.choice(board.positions, size=min(samples, board.positions), replace=False)
    pairs = []
    for i in picks.tolist():
        red, bubble = ix.decode(i)
        blue = board.full & ~red & ~(1 << bubble)
        for sym, perm in enumerate(board.symmetries):
            for cells in (red, blue):
                pairs.append((i, ix.index(ix.permute(cells, sym), perm[bubble])))
    at = np.array(pairs, dtype=np.int64).reshape(-1, 2)
    t = Store(path, board).take("positions/T", at.ravel()).reshape(-1, 2)
    mismatches = int(np.count_nonzero(t[:, 0] != t[:, 1]))
    return {"positions": len(picks), "images": len(pairs), "mismatches": mismatches}


def format_report(rep: dict[str, Any]) -> list[str]:
    """The report as text lines."""
    mc = rep["monte_carlo"]
    images = rep.get("symmetric_images", {"positions": 0, "mismatches": 0})
    return [
        f"verify: {rep['positions']:,} positions: red united {rep['red_united_only']:,}, "
        f"blue united {rep['blue_united_only']:,}, both {rep['both_united']:,}, "
        f"neither {rep['neither_united']:,}",
        f"  solve: {rep['iterations']} iterations, residual <= {rep['residual']:.2e}, "
        f"|T error| <= {rep['bound_T']:.3e}",
        f"  mean of T over slides = T - 2: max deviation {rep['max_mean_deviation']:.2e} "
        f"(tolerance {rep['mean_tolerance']:.2e}), failures {rep['mean_identity_failures']}",
        f"  some slide lowers T by >= 2: smallest best drop {rep['smallest_best_drop']:.15g}, "
        f"failures {rep['no_drop_of_2_failures']}",
        f"  slides between positions with neither united: {rep['deciding_slides']:,}; "
        f"smallest non-zero |T gap| {rep['smallest_T_gap']:.3e}; equal T {rep['equal_T_slides']}; "
        f"undecidable (gap <= 2 * bound) {rep['undecidable_slides']}",
        f"  Monte Carlo from the start: {mc['walks']} walks, mean {mc['mean']:.3f} +- {mc['stderr']:.3f}, "
        f"r(start) {mc['r_start']:.6f}, z = {mc['z']:+.2f}",
        f"  all symmetric and colour-swapped images of {images['positions']:,} sampled positions: "
        f"{images['mismatches']} with different T bits",
        "  verify: " + ("OK" if rep["ok"] else "FAILED: " + "; ".join(rep["failures"])),
    ]
