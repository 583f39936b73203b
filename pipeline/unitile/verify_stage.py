"""The ``verify`` stage: every position checked in one pass per bubble cell, the legal and best slides
derived on the way, a Monte Carlo run from the start, the symmetric images check, and the report.

A task reads T and the values of its cell and of its neighbour cells
(:func:`pipeline.unitile.cellpass.cell_pass`) and checks the value identities, the gaps the legal slides
depend on, that every position where no colour is united has a legal slide and that every value is consistent
with its children's. In a build it writes the cell's shards of ``moves/legal`` and ``perfect/best``; rerun by
``python -m pipeline verify`` (``check=True``) it compares them with the stored ones instead, after checking
that every chunk of every array is stored and reading each chunk the pass does not read (its checksums).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np

from unitile_py.unitile.board import Board
from unitile_py.unitile.position import Position

from ..arrays import open_array, require_complete
from ..cores import use_threads
from ..errors import VerifyError
from .bounds import Cost, slides_per_position
from .cellpass import (
    BLUE_ONLY,
    BOTH,
    COUNTS,
    DECIDING,
    DROP_BAD,
    EQUAL,
    INCONSISTENT,
    MEAN_BAD,
    NEITHER,
    REALS,
    RED_ONLY,
    STUCK,
    UNDECIDABLE,
    block_cells,
    cell_pass,
    combine_stats,
)
from .context import Context, Stage
from .geometry import Geometry
from .solver import UNIT
from .store import MOVE_ARRAYS, PASS_ARRAYS, Store
from .values import Lookup
from .verify import image_pairs, random_walks

#: The checks that fail with a count of the pass: ``(counter, times each case is counted, what)``.
COUNTED_FAILURES = (
    (MEAN_BAD, 1, "positions break mean T(P') = T - 2"),
    (DROP_BAD, 1, "positions have no slide lowering T by 2"),
    (UNDECIDABLE, 2, "slides have |T difference| <= 2 * bound"),
    (EQUAL, 2, "slides join positions with equal T (the tables need none)"),
    (STUCK, 1, "positions where no colour is united have no legal slide"),
    (INCONSISTENT, 1, "values disagree with their children's"),
)

@dataclass(frozen=True)
class VerifyTask:
    """The pass over the positions with the bubble on one cell."""

    path: str
    board: str
    bubble: int
    bound: float
    mean_tol: float
    threads: int | None
    check: bool


def verify_task(task: VerifyTask) -> tuple[list[int], list[float], int, int]:
    """Counts and extremes of one bubble cell (:func:`pipeline.unitile.cellpass.cell_pass`), and the number of
    legal
    bytes and best masks that differ from the stored ones (rerun) or 0, 0 (having written them)."""
    use_threads(task.threads)
    board = Board.parse(task.board)
    store = Store(task.path, board)
    c = board.colourings
    cells = block_cells(board, task.bubble)
    t, v = (np.stack([store.array(name)[b * c : (b + 1) * c] for b in cells]) for name in PASS_ARRAYS)
    legal, best, counts, reals = cell_pass(
        task.bubble, t, v, task.bound, task.mean_tol, Geometry.of(board).args
    )
    sl = slice(task.bubble * c, (task.bubble + 1) * c)
    differ = [0, 0]
    for i, (name, computed) in enumerate(zip(MOVE_ARRAYS, (legal, best), strict=True)):
        if task.check:
            differ[i] = int(np.count_nonzero(store.array(name)[sl] != computed))
        else:
            store.array(name)[sl] = computed
    return counts.tolist(), reals.tolist(), differ[0], differ[1]


@dataclass(frozen=True)
class VerifyStage(Stage):
    """Check every position; derive (or, with ``check``, compare) the legal and best slides; fails the
    build if any check fails."""

    name: ClassVar[str] = "verify"
    walks: int = 20000
    seed: int = 2024
    #: Rerun on a finished store: compare the legal and best slides, and read every array.
    check: bool = False

    def run(self, ctx: Context) -> dict[str, Any]:
        """Check that every chunk is stored (and, rerun, that every chunk passes its checksum), run the
        pass and the other checks, print the report."""
        store = ctx.store
        names = [*value_arrays(store), *PASS_ARRAYS]
        if self.check:
            names += MOVE_ARRAYS
            require_complete(store.path, names)
            scrub(ctx, [n for n in names if n not in PASS_ARRAYS and n not in MOVE_ARRAYS])
        else:
            require_complete(store.path, names)
            for name in MOVE_ARRAYS:
                store.create(name, (ctx.board.positions,), (ctx.board.colourings,), np.uint8)
        report = verify_values(ctx, self.walks, self.seed, self.check)
        return {"report": report}

    def summary(self, record: dict[str, Any]) -> list[str]:
        """The stored report, for a rerun that skips this stage."""
        return format_report(record["report"])

    def cost(self, ctx: Context, record: dict[str, Any]) -> Cost:
        """Per position: a test of each colour; per slide of a position where neither is united, the
        child's T (a rank) and a test of the moving tile's colour, and for a legal one the colour-swapped
        child's value (a rank); T and the values read once, the legal bytes and best masks written; the
        Monte Carlo walks (a test per slide)."""
        board = ctx.board
        rep = record["report"]
        # A slide between two positions where neither is united is seen from both, legal from one.
        slides = rep["neither_united"] * slides_per_position(board)
        legal = slides - rep["deciding_slides"]
        walks = rep["monte_carlo"]["walks"] * rep["monte_carlo"]["mean"]
        return Cost(bytes=board.positions * (8 + 2 + 2), ranks=slides + legal, tests=2 * board.positions
                    + slides + walks, what="every position and its slides")  # fmt: skip


def value_arrays(store: Store) -> list[str]:
    """The arrays of the stages before verify, but those the pass reads."""
    orbits = len(store.require("classes")["counts"])
    return [
        "classes/rank_to_local",
        *(f"classes/ranks_{o}" for o in range(orbits)),
        "graph/nbr",
        "graph/info",
        "graph/swap",
        "values/r",
        "values/T_class",
        "perfect/class_value",
    ]


def check_stored(ctx: Context) -> None:
    """Every chunk of every array of the stages up to ``verify`` stored and passing its checksum, or
    :class:`pipeline.errors.Damaged` in one line naming what is damaged (a rebuild that skips those
    stages checks what it would otherwise have written)."""
    names = [*value_arrays(ctx.store), *PASS_ARRAYS, *MOVE_ARRAYS]
    require_complete(ctx.store.path, names)
    scrub(ctx, names)
    ctx.log(f"verify: every chunk of {len(names)} arrays is stored and passes its checksum")


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


def verify_values(ctx: Context, walks: int, seed: int, check: bool) -> dict[str, Any]:
    """Run the pass over every cell and the other checks; print the report; raise :class:`VerifyError`
    if a check fails."""
    store, board = ctx.store, ctx.board
    solve = store.require("solve")
    bound = float(solve["bound_T"])
    mean_tol = 2.0 * bound + 16.0 * UNIT * float(solve["T_max"])
    tasks = [
        VerifyTask(store.path, str(board), b, bound, mean_tol, ctx.task_threads, check)
        for b in range(board.cells)
    ]
    results = ctx.executor.map(verify_task, tasks, "verify")
    counts, reals = combine_stats(np.array([r[0] for r in results]), np.array([r[1] for r in results]))
    r_start = Lookup(store.path, board).values(Position.start(board))[0]
    mc = monte_carlo(board, r_start, walks, seed)
    images = symmetric_images(store.path, board, samples=walks, seed=seed)
    report: dict[str, Any] = {
        "positions": board.positions,
        **{k: int(v) for k, v in zip(COUNTS, counts, strict=True)},
        **{k: float(v) for k, v in zip(REALS, reals, strict=True)},
        "iterations": solve["iterations"],
        "residual": solve["sigma"],
        "bound_T": bound,
        "mean_tolerance": mean_tol,
        "legal_differing": sum(r[2] for r in results),
        "best_differing": sum(r[3] for r in results),
        "monte_carlo": mc,
        "symmetric_images": images,
    }
    for k in ("deciding_slides", "equal_T_slides", "undecidable_slides"):
        report[k] //= 2  # each slide was counted from both ends
    failures = [f"{counts[k] // per} {what}" for k, per, what in COUNTED_FAILURES if counts[k]]
    for what in ("legal", "best"):
        if report[f"{what}_differing"]:
            failures.append(f"{report[f'{what}_differing']} stored {what} slides differ from those computed")
    if abs(mc["z"]) > 3.0:
        failures.append(f"Monte Carlo mean {mc['mean']:.4f} is {mc['z']:.1f} standard errors from r(start)")
    if images["mismatches"]:
        failures.append(f"{images['mismatches']} symmetric or colour-swapped images have different T bits")
    if counts[RED_ONLY] + counts[BLUE_ONLY] + counts[BOTH] + counts[NEITHER] != board.positions:
        failures.append("position counts do not add up")
    if counts[DECIDING] % 2 or counts[EQUAL] % 2:
        failures.append("a slide was not seen from both ends")
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
    rng = np.random.default_rng(seed)
    picks = rng.choice(board.positions, size=min(samples, board.positions), replace=False)
    images = image_pairs(picks.astype(np.int64), Geometry.of(board).args)
    store = Store(path, board)
    t = store.take("positions/T", np.concatenate([picks, images.ravel()]))
    mine, theirs = t[: picks.shape[0]], t[picks.shape[0] :].reshape(images.shape)
    mismatches = int(np.count_nonzero(theirs != mine[:, None]))
    return {"positions": len(picks), "images": int(images.size), "mismatches": mismatches}


def format_report(rep: dict[str, Any]) -> list[str]:
    """The report as text lines."""
    mc = rep["monte_carlo"]
    images = rep["symmetric_images"]
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
        f"  legal slides: positions without one {rep['stuck_positions']}; perfect play: values inconsistent "
        f"with their children's {rep['values_inconsistent_with_children']}, longest game {rep['longest']} "
        f"plies; stored slides differing: legal {rep['legal_differing']}, best {rep['best_differing']}",
        f"  Monte Carlo from the start: {mc['walks']} walks, mean {mc['mean']:.3f} +- {mc['stderr']:.3f}, "
        f"r(start) {mc['r_start']:.6f}, z = {mc['z']:+.2f}",
        f"  all symmetric and colour-swapped images of {images['positions']:,} sampled positions: "
        f"{images['mismatches']} with different T bits",
        "  verify: " + ("OK" if rep["ok"] else "FAILED: " + "; ".join(rep["failures"])),
    ]
