"""The stages after the values: legal slides, perfect play, the compact tables and their checks.

* ``legal`` -- one task per bubble cell: the legal byte of every position (:mod:`pipeline.legal`),
  stored as ``moves/legal``; fails if two neighbouring positions have exactly equal T (the tables
  assume a strict order) or if a position where no colour is united has no legal slide.
* ``perfect`` -- level sweeps by bubble parity (:mod:`pipeline.perfect`): one task per bubble cell of the
  swept parity per half-sweep, each reading the ``perfect/value`` shards of its cell and its neighbour
  cells and writing its own (int16 for Red to move); once few positions are unknown (on 5x5 after 25 of
  the 51 half-sweeps, 0.9 million positions) this process finishes the levels over those alone. Then one
  task per bubble cell for the best slides (``perfect/best``), re-deriving every value from its children
  on the way. No process holds a whole per-position array.
* ``tables`` -- the files of ``tables/<board>/`` (or ``--tables DIR``), see :mod:`pipeline.compact`:
  one task per bubble cell reads the cell's shards, counts its positions for the manifest and, on a frame
  cell, encodes that frame's file; this process sums the counts, writes the files and the manifest.
* ``tables-verify`` -- the tablebase consistency pass over every position, every position decoded back
  from the files, the files read by the game's own reader (on sampled positions, reading only their
  entries of the arrays), and the checks from the rules.
"""

from __future__ import annotations

import hashlib
import random
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

import numba
import numpy as np

from unitile_py.board import Board
from unitile_py.errors import UnitileError
from unitile_py.position import Position

from .arrays import require_complete
from .compact import (
    Decoder,
    assemble,
    colourings,
    decode_mismatches,
    file_name,
    frame_cells,
    frame_file,
)
from .context import Context
from .errors import CheckFailed
from .legal import SLIDES, UNITED, LegalResult, combine, legal_of_bubble
from .perfect import (
    TAIL,
    Unknowns,
    best_of_bubble,
    block_cells,
    block_rows,
    run_sweeps,
    solve_tail,
    sweep_bubble,
    unknowns_of_bubble,
)
from .store import Store, default_path, fast_compressor, is_url
from .tables_dir import write_tables
from .values import load_bound
from .verify_stage import TABLE_ARRAYS

ROOT = Path(__file__).resolve().parent.parent
#: Positions decoded at a time by tables-verify (about 300 bytes of work arrays each).
DECODE_SLICE = 1 << 18


def tables_dir(store_path: str, board: Board) -> Path:
    """Where the ``tables`` stage writes without ``--tables DIR``: the repository's ``tables/<board>``
    when the store is the default ``build/<board>.zarr``; else ``<store>.tables`` next to a store that is
    a path or a ``file://`` URL (so that a build into a scratch store never touches the committed
    tables). Other URLs need ``--tables DIR``, a directory the client writes and every worker reads: a
    one-line error."""
    if is_url(store_path) and not store_path.startswith("file://"):
        raise UnitileError(
            f"store {store_path}: give --tables DIR, a directory the client writes and every worker reads"
        )
    store = Path(store_path.removeprefix("file://")).resolve()
    if store == (ROOT / default_path(board)).resolve():
        return ROOT / "tables" / str(board)
    return store.with_name(store.name.removesuffix(".zarr") + ".tables")


def _stamp(store: Store, stage: str) -> str:
    return str(store.require(stage)["finished"])


# legal ------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class CellTask:
    """Work on the positions with the bubble on one cell."""

    path: str
    board: str
    bubble: int
    threads: int
    extra: str = ""


def legal_task(task: CellTask) -> tuple[int, int, float, float]:
    """Write the legal bytes of one bubble cell; return ``(ties, stuck, min gap, min relative gap)``."""
    numba.set_num_threads(task.threads)
    board = Board.parse(task.board)
    store = Store(task.path, board)
    arr = store.array("positions/T")
    c = board.colourings
    blocks = np.stack(
        [np.asarray(arr[b * c : (b + 1) * c]) for b in (task.bubble, *board.neighbours[task.bubble])]
    )
    res = legal_of_bubble(board, task.bubble, blocks)
    store.array("moves/legal")[task.bubble * c : (task.bubble + 1) * c] = res.legal
    return res.ties, res.stuck, res.min_gap, res.min_rel_gap


@dataclass(frozen=True)
class LegalStage:
    """The legal slides of every position, from T."""

    name: ClassVar[str] = "legal"

    def run(self, ctx: Context) -> dict[str, Any]:
        """One task per bubble cell."""
        board = ctx.board
        ctx.store.require("positions")
        ctx.store.create("moves/legal", (board.positions,), (board.colourings,), np.uint8)
        tasks = [CellTask(ctx.store.path, str(board), b, ctx.task_threads) for b in range(board.cells)]
        results = ctx.executor.map(legal_task, tasks, "legal")
        res = combine([LegalResult(np.empty(0, np.uint8), t, s, g, r) for t, s, g, r in results])
        bound = load_bound(ctx.store.path, board)
        record = {
            "equal_T_slides": res.ties,
            "stuck_positions": res.stuck,
            "smallest_T_gap": res.min_gap,
            "smallest_relative_T_gap": res.min_rel_gap,
            "bound_T": bound,
            "gap_over_2_bound": res.min_gap / (2 * bound) if bound > 0 else None,
        }
        ctx.log(
            f"legal: smallest |T gap| {res.min_gap:.3e} (bound on T errors {bound:.2e}), "
            f"equal T {res.ties}, positions without a legal slide {res.stuck}"
        )
        if res.ties:
            raise CheckFailed(
                f"legal: {res.ties // 2} slides join positions with equal T; the tables need none"
            )
        if res.stuck:
            raise CheckFailed(f"legal: {res.stuck} positions where no colour is united have no legal slide")
        if bound > 0 and res.min_gap <= 2 * bound:
            raise CheckFailed(f"legal: smallest T gap {res.min_gap:.3e} is within twice the error bound")
        return record


# perfect ----------------------------------------------------------------------------------------------


def cell_slice(board: Board, bubble: int) -> slice:
    """The positions with the bubble on ``bubble`` (one shard of every per-position array)."""
    c = board.colourings
    return slice(bubble * c, (bubble + 1) * c)


def value_block(store: Store, board: Board, bubble: int) -> tuple[np.ndarray, np.ndarray]:
    """``perfect/value`` of the bubble cell and its neighbour cells as a block, and its row map (see
    :mod:`pipeline.perfect`): the shards of at most five cells, never the whole array."""
    arr = store.array("perfect/value")
    cells = block_cells(board, bubble)
    block = np.empty((len(cells), board.colourings), dtype=np.int16)
    for j, cell in enumerate(cells):
        block[j] = arr[cell_slice(board, cell)]
    return block, block_rows(board, bubble)


@dataclass(frozen=True)
class SweepTask:
    """Half-sweep ``level`` on the positions with the bubble on one cell."""

    path: str
    board: str
    bubble: int
    threads: int
    level: int


def cell_inputs(task: CellTask | SweepTask) -> tuple[Board, Store, slice, np.ndarray, np.ndarray, np.ndarray]:
    """What a per-cell perfect-play task reads (after setting its numba threads): the board, the store,
    the cell's slice of positions, its legal bytes, and the value block of the cell and its neighbours
    with its row map (:func:`value_block`)."""
    numba.set_num_threads(task.threads)
    board = Board.parse(task.board)
    store = Store(task.path, board)
    sl = cell_slice(board, task.bubble)
    legal = np.asarray(store.array("moves/legal")[sl])
    block, row = value_block(store, board, task.bubble)
    return board, store, sl, legal, block, row


def sweep_task(task: SweepTask) -> tuple[int, int]:
    """One half-sweep step on one bubble cell: solve what its neighbour cells' values allow, write the
    cell's values back when some are new; return ``(solved by this level, still unknown)``.

    The counts come from the values, so that a rerun (dask reruns a task whose worker was lost, maybe
    after it wrote) returns the same: this level solves exactly the positions at distance ``level`` and
    ``level + 1`` (see :mod:`pipeline.perfect`).
    """
    board, store, sl, legal, block, row = cell_inputs(task)
    solved, unknown = sweep_bubble(board, task.bubble, legal, block, row, task.level)
    if solved:
        store.array("perfect/value")[sl] = block[0]
    return int(np.count_nonzero(np.abs(block[0]) >= max(task.level, 1))), unknown


def unknowns_task(task: CellTask) -> Unknowns:
    """The unknown positions of one bubble cell and their slides (to finish the sweeps in the client)."""
    board, _store, _sl, legal, block, row = cell_inputs(task)
    return unknowns_of_bubble(board, task.bubble, legal, block, row)


@dataclass(frozen=True)
class TailTask:
    """Values to write at some ranks of one bubble cell."""

    path: str
    board: str
    bubble: int
    ranks: np.ndarray
    values: np.ndarray


def tail_task(task: TailTask) -> None:
    """Write values into one bubble cell's shard of ``perfect/value``."""
    board = Board.parse(task.board)
    arr = Store(task.path, board).array("perfect/value")
    sl = cell_slice(board, task.bubble)
    own = np.asarray(arr[sl])
    own[task.ranks] = task.values
    arr[sl] = own


def best_task(task: CellTask) -> tuple[int, int, int, int]:
    """Write the best-slide masks of one bubble cell; return ``(positions whose value is inconsistent,
    active positions, those Red to move wins, longest distance)``."""
    board, store, sl, legal, block, row = cell_inputs(task)
    res = best_of_bubble(board, task.bubble, legal, block, row)
    store.array("perfect/best")[sl] = res.best
    own = block[0]
    active = int(np.count_nonzero((legal & UNITED) == 0))
    return res.inconsistent, active, int(np.count_nonzero(own > 0)), int(np.abs(own).max())


def start_result(board: Board, value: int) -> dict[str, Any]:
    """Perfect play from the start (``value`` of the start position): the first player's result and the
    plies to the end."""
    return {
        "first_player": "win" if value > 0 else "loss",
        "plies": abs(value),
        "winner": "red" if value > 0 else "blue",
    }


@dataclass(frozen=True)
class PerfectStage:
    """Win or loss and distance of every position (Red to move; Blue by the colour swap), best slides."""

    name: ClassVar[str] = "perfect"
    #: finish the sweeps in this process once at most this many positions are unknown.
    tail: int = TAIL

    def run(self, ctx: Context) -> dict[str, Any]:
        """Level sweeps by bubble parity, one task per bubble cell of the swept parity (one ``map`` per
        half-sweep; cells with no unknown position left, or whose neighbour cells solved nothing in the
        previous half-sweep, are skipped); once at most ``tail`` positions are unknown, one task per cell
        gathers them with their slides, this process finishes the levels over those alone
        (:func:`pipeline.perfect.solve_tail`) and one task per cell writes their values. Then the best
        slides per cell, which also give the record's counts.

        Every task reads the shards of its cell and its neighbour cells and writes only its own; within a
        half-sweep the neighbours (the other parity) are not written, so tasks never race. The stage
        zeroes ``perfect/value`` first: a client killed mid-stage reruns it from scratch.
        """
        board, store = ctx.board, ctx.store
        store.require("legal")
        c = board.colourings
        # One chunk per cell, compressed fast: every half-sweep reads and writes these shards.
        value = store.create(
            "perfect/value", (board.positions,), (c,), np.int16, chunks=(c,), codec=fast_compressor(2)
        )
        zeros = np.zeros(c, dtype=np.int16)
        for b in range(board.cells):  # every chunk stored: a missing one is damage
            value[b * c : (b + 1) * c] = zeros
        store.create("perfect/best", (board.positions,), (c,), np.uint8)

        def tasks(cells: list[int]) -> list[CellTask]:
            return [CellTask(store.path, str(board), b, ctx.task_threads) for b in cells]

        def half_sweep(cells: list[int], level: int) -> list[tuple[int, int]]:
            level_tasks = [SweepTask(store.path, str(board), b, ctx.task_threads, level) for b in cells]
            return ctx.executor.map(sweep_task, level_tasks, f"sweep {level}")

        def finish(cells: list[int], level: int) -> int:
            parts = ctx.executor.map(unknowns_task, tasks(cells), "unknowns")
            found, levels = solve_tail(board, parts, level)
            writes = [
                TailTask(store.path, str(board), p.bubble, p.ranks, v)
                for p, v in zip(parts, found, strict=True)
            ]
            ctx.executor.map(tail_task, writes, "tail")
            return levels

        sweeps = run_sweeps(board, half_sweep, finish, self.tail)
        results = ctx.executor.map(best_task, tasks(list(range(board.cells))), "best")
        inconsistent = sum(r[0] for r in results)
        if inconsistent:
            raise CheckFailed(f"perfect: {inconsistent} values disagree with their children")
        start = start_result(
            board, int(np.asarray(store.array("perfect/value")[Position.start(board).index()]))
        )
        max_distance = max(r[3] for r in results)
        tail = (
            f" (the last {sweeps.in_process} in this process over {sweeps.tail_positions:,} positions)"
            if sweeps.in_process
            else ""
        )
        ctx.log(
            f"perfect: {sweeps.total} half-sweeps{tail}; longest game {max_distance} plies; from the start "
            f"the {start['winner']} side wins in {start['plies']} plies"
        )
        return {
            "active_positions": sum(r[1] for r in results),
            "red_to_move_wins": sum(r[2] for r in results),
            "max_distance": max_distance,
            "start": start,
            "sweeps": sweeps.total,
        }


# tables -----------------------------------------------------------------------------------------------


#: The per-cell counts of the manifest, summed over the bubble cells.
COUNTS = ("red_united", "blue_united", "neither_united", "wins_red_to_move", "wins_blue_to_move")


def cell_counts(board: Board, bubble: int, legal: np.ndarray, value: np.ndarray) -> tuple[int, ...]:
    """The :data:`COUNTS` of the positions with the bubble on ``bubble`` from their shards of
    ``moves/legal`` and ``perfect/value``. Blue to move in P is Red to move in swap(P), and the colour
    swap keeps the bubble cell."""
    active = (legal & UNITED) == 0
    _, swap = colourings(board, bubble)
    return (
        int(np.count_nonzero(legal & 0x10)),
        int(np.count_nonzero(legal & 0x20)),
        int(np.count_nonzero(active)),
        int(np.count_nonzero(value[active] > 0)),
        int(np.count_nonzero(value[swap[active]] > 0)),
    )


@dataclass(frozen=True)
class TablesTask:
    """The counts of one bubble cell and, for a frame cell, its file."""

    path: str
    board: str
    bubble: int
    threads: int
    frame: bool


def tables_task(task: TablesTask) -> tuple[tuple[int, ...], tuple[str, bytes, dict[str, Any]] | None]:
    """``(counts, (name, bytes, manifest entry) or None)`` from the shards of one bubble cell."""
    numba.set_num_threads(task.threads)
    board = Board.parse(task.board)
    store = Store(task.path, board)
    c = board.colourings
    sl = slice(task.bubble * c, (task.bubble + 1) * c)
    legal = np.asarray(store.array("moves/legal")[sl])
    value = np.asarray(store.array("perfect/value")[sl])
    counts = cell_counts(board, task.bubble, legal, value)
    if not task.frame:
        return counts, None
    best = np.asarray(store.array("perfect/best")[sl])
    return counts, frame_file(board, task.bubble, legal, best, value)


@dataclass(frozen=True)
class TablesStage:
    """The compact files of ``tables/<board>/`` (``directory``, from ``--tables DIR``, for another place)."""

    name: ClassVar[str] = "tables"
    #: Where the files go; None: :func:`tables_dir`.
    directory: str | None = None

    def run(self, ctx: Context) -> dict[str, Any]:
        """One task per bubble cell (counts; a frame cell also encodes its file), then this process
        writes the files and the manifest, and records sizes and hashes."""
        board, store = ctx.board, ctx.store
        perfect = store.require("perfect")
        legal_rec = store.require("legal")
        solve = store.require("solve")
        frames = frame_cells(board)
        # The frame cells first: their tasks are the longest.
        order = frames + [b for b in range(board.cells) if b not in frames]
        tasks = [TablesTask(store.path, str(board), b, ctx.task_threads, b in frames) for b in order]
        results = ctx.executor.map(tables_task, tasks, "tables")
        sums = [sum(counts[k] for counts, _ in results) for k in range(len(COUNTS))]
        info = {
            "counts": {"positions": board.positions, **dict(zip(COUNTS, sums, strict=True))},
            "perfect_play": {"start": perfect["start"], "longest": perfect["max_distance"]},
            "solver": {
                "iterations": solve.get("iterations"),
                "residual": solve.get("sigma"),
                "bound_T": solve.get("bound_T"),
                "smallest_T_gap": legal_rec["smallest_T_gap"],
                "smallest_relative_T_gap": legal_rec["smallest_relative_T_gap"],
            },
        }
        files, manifest = assemble(board, [file for _, file in results if file is not None], info)
        out = Path(self.directory) if self.directory else tables_dir(ctx.store.path, board)
        write_tables(out, board, files)
        data_bytes = sum(len(v) for k, v in files.items() if k != "manifest.json")
        total = sum(len(v) for v in files.values())
        ctx.log(
            f"tables: {out}: {total:,} bytes ({8 * total / board.positions:.4f} bits per position, "
            f"{8 * total / (2 * board.positions):.4f} per position and side to move)"
        )
        return {
            "directory": str(out),
            "bytes": total,
            "data_bytes": data_bytes,
            "bits_per_position": 8 * total / board.positions,
            "files": manifest["files"],
            "manifest_sha256": hashlib.sha256(files["manifest.json"]).hexdigest(),
        }


# tables-verify ----------------------------------------------------------------------------------------


def check_task(task: CellTask) -> tuple[int, int, int, int, int]:
    """For one bubble cell: ``(values inconsistent with children, best masks differing, active positions
    without a legal slide, legal bytes decoded wrongly from the files, best masks decoded wrongly)``.

    The files are decoded in slices of :data:`DECODE_SLICE` positions, so that the decoder's work arrays
    stay small beside the cell's own arrays.
    """
    board, store, sl, legal, block, row = cell_inputs(task)
    best = np.asarray(store.array("perfect/best")[sl])
    res = best_of_bubble(board, task.bubble, legal, block, row)
    stuck = int(np.count_nonzero(((legal & UNITED) == 0) & ((legal & SLIDES) == 0)))
    folder = Path(task.extra)
    files = {file_name(board, f): (folder / file_name(board, f)).read_bytes() for f in frame_cells(board)}
    decoder = Decoder(board, files)
    cells, _ = colourings(board, task.bubble)
    bad_legal = bad_best = 0
    for a in range(0, board.colourings, DECODE_SLICE):
        part = slice(a, a + DECODE_SLICE)
        got = decoder.bubble(task.bubble, cells[part])
        bad = decode_mismatches(got, legal[part], best[part], block[0][part])
        bad_legal += bad[0]
        bad_best += bad[1]
    return res.inconsistent, int(np.count_nonzero(res.best != best)), stuck, bad_legal, bad_best


def reader_sample(board: Board, folder: Path, store: Store, samples: int, seed: int) -> dict[str, Any]:
    """Load the files with :class:`unitile_py.tables.Tables` and compare seeded random positions.

    Reads only the sampled entries of the arrays (:meth:`Store.take`).
    """
    from unitile_py.tables import Tables

    tables = Tables.load(board, folder)
    rng = random.Random(seed)
    picks: list[tuple[Position, int, int]] = []  # (position, its index, index of the Red-to-move entry)
    for _ in range(samples):
        i = rng.randrange(board.positions)
        turn = rng.choice("rb")
        p = Position.from_index(board, i, turn)
        picks.append((p, i, i if turn == "r" else p.swap_colours().index()))
    legal = store.take("moves/legal", np.array([i for _, i, _ in picks], dtype=np.int64))
    at = np.array([j for _, _, j in picks], dtype=np.int64)
    best, value = store.take("perfect/best", at), store.take("perfect/value", at)
    bad = 0
    for (p, _, _), lb, bm, v in zip(picks, legal.tolist(), best.tolist(), value.tolist(), strict=True):
        want_legal = () if lb & UNITED else tuple(sorted(c for k, c in enumerate(p.slides()) if lb >> k & 1))
        if tables.legal(p) != want_legal:
            bad += 1
            continue
        if lb & UNITED:
            bad += tables.best(p) != ()
            continue
        want_best = tuple(sorted(c for k, c in enumerate(p.slides()) if bm >> k & 1))
        bad += tables.best(p) != want_best
        bad += tables.outcome(p) != ("win" if v > 0 else "loss", abs(v))
    return {"samples": samples, "seed": seed, "mismatches": bad}


def rules_checks(board: Board, folder: Path) -> dict[str, Any]:
    """The checks from the rules text (5x5), through the game's reader: Blue, the second player, wins
    from the start, and after Red's c4 exactly three tiles can slide, c3 (sliding it back) not among them.
    Other boards only report who wins from the start."""
    from unitile_py.tables import Tables

    tables = Tables.load(board, folder)
    start = Position.start(board)
    outcome, plies = tables.outcome(start)
    out: dict[str, Any] = {"start": {"red_to_move": outcome, "plies": plies, "blue_wins": outcome == "loss"}}
    failures = []
    if str(board) == "5x5":
        if outcome != "loss":
            failures.append("Blue, the second player, does not win from the start")
        after = start.play(board.cell("c4"))
        legal = [board.name(c) for c in tables.legal(after)]
        out["after_c4"] = {"legal": legal, "c3_legal": "c3" in legal}
        if len(legal) != 3 or "c3" in legal:
            failures.append(f"after c4 the legal slides are {legal}, not three without c3")
    out["failures"] = failures
    return out


@dataclass(frozen=True)
class TablesVerifyStage:
    """Check the perfect-play values, the files and the rules' examples over every position."""

    name: ClassVar[str] = "tables-verify"
    samples: int = 2000
    seed: int = 4

    def run(self, ctx: Context) -> dict[str, Any]:
        """One task per bubble cell, then the reader checks in this process."""
        board, store = ctx.board, ctx.store
        rec = store.require("tables")
        require_complete(store.path, list(TABLE_ARRAYS))
        folder = Path(rec["directory"])
        tasks = [
            CellTask(store.path, str(board), b, ctx.task_threads, str(folder)) for b in range(board.cells)
        ]
        results = ctx.executor.map(check_task, tasks, "check")
        sums = [sum(r[i] for r in results) for i in range(5)]
        report: dict[str, Any] = {
            "values_inconsistent_with_children": sums[0],
            "best_slides_differing": sums[1],
            "active_positions_without_legal_slide": sums[2],
            "legal_decoded_wrongly": sums[3],
            "best_decoded_wrongly": sums[4],
            "reader": reader_sample(board, folder, store, self.samples, self.seed),
            "rules": rules_checks(board, folder),
        }
        failures = [k for k in list(report)[:5] if report[k]]
        if report["reader"]["mismatches"]:
            failures.append("reader mismatches")
        failures += report["rules"]["failures"]
        report["ok"] = not failures
        for line in format_tables_report(report):
            ctx.log(line)
        if failures:
            raise CheckFailed("tables-verify failed: " + "; ".join(failures))
        return {"report": report}


def format_tables_report(rep: dict[str, Any]) -> list[str]:
    """The report as text lines."""
    rules = rep["rules"]
    lines = [
        "tables-verify: every position: values inconsistent with children "
        f"{rep['values_inconsistent_with_children']}, best slides differing {rep['best_slides_differing']}, "
        f"positions without a legal slide {rep['active_positions_without_legal_slide']}",
        f"  decoded from the files: legal wrong {rep['legal_decoded_wrongly']}, best wrong "
        f"{rep['best_decoded_wrongly']}; game reader on {rep['reader']['samples']} random positions: "
        f"{rep['reader']['mismatches']} mismatches",
        f"  from the start Red to move: {rules['start']['red_to_move']} in {rules['start']['plies']} plies "
        f"(Blue wins: {rules['start']['blue_wins']})",
    ]
    if "after_c4" in rules:
        lines.append(
            f"  after c4: legal {' '.join(rules['after_c4']['legal'])}; "
            f"c3 legal: {rules['after_c4']['c3_legal']}"
        )
    lines.append("  tables-verify: " + ("OK" if rep["ok"] else "FAILED"))
    return lines
