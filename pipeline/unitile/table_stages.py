"""The stages after the values and their checks: the compact tables and the check of the files.

* ``tables`` -- the files of ``tables/<board>/`` (or ``--tables DIR``), see :mod:`pipeline.unitile.compact`:
one task
  per frame cell encodes that frame's file from the cell's shards of ``moves/legal``, ``perfect/best``
  and ``perfect/value``; this process adds the manifest (the counts come from the verify stage's pass)
  and writes the folder at once (:mod:`pipeline.unitile.table_folder`).
* ``tables-verify`` -- every position decoded back from the files (:mod:`pipeline.unitile.decode`, one task
per
  bubble cell: the even cells first, whose records' legal slides the odd cells then decode theirs from)
  against the arrays, the files read by the game's own reader (on sampled positions,
  reading only their entries of the arrays), and the checks from the rules.
"""

from __future__ import annotations

import hashlib
import random
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

import numpy as np

from unitile_py.errors import GameError, UnitileError
from unitile_py.unitile.board import Board
from unitile_py.unitile.position import Position

from ..arrays import require_complete
from ..cores import use_threads
from ..errors import CheckFailed
from ..store import is_url
from .bounds import Cost
from .cellpass import UNITED
from .compact import assemble, frame_cells, frame_file, is_even
from .context import Context, Stage
from .decode import check_even, check_odd, load_records
from .store import MOVE_ARRAYS, PASS_ARRAYS, Store, default_path
from .table_folder import write_tables

ROOT = Path(__file__).resolve().parents[2]


def default_tables_folder(store_path: str, board: Board) -> Path:
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


@dataclass(frozen=True)
class CellTask:
    """Work on the positions with the bubble on one cell."""

    path: str
    board: str
    bubble: int
    threads: int | None
    extra: str = ""


def cell_arrays(task: CellTask) -> tuple[Board, Store, np.ndarray, np.ndarray, np.ndarray]:
    """What a per-cell table task reads (after setting its numba threads): the board, the store and the
    cell's legal bytes, best masks and values."""
    use_threads(task.threads)
    board = Board.parse(task.board)
    store = Store(task.path, board)
    c = board.colourings
    sl = slice(task.bubble * c, (task.bubble + 1) * c)
    legal, best = (store.array(name)[sl] for name in MOVE_ARRAYS)
    return board, store, legal, best, store.array("perfect/value")[sl]


# tables -----------------------------------------------------------------------------------------------


def tables_task(task: CellTask) -> tuple[str, bytes, dict[str, Any]]:
    """``(name, bytes, manifest entry)`` of the frame of one frame cell, from the cell's shards."""
    board, _, legal, best, value = cell_arrays(task)
    return frame_file(board, task.bubble, legal, best, value)


@dataclass(frozen=True)
class TablesStage(Stage):
    """The compact files of ``tables/<board>/`` (``directory``, from ``--tables DIR``, for another place)."""

    name: ClassVar[str] = "tables"
    #: Where the files go; None: :func:`default_tables_folder`.
    directory: str | None = None
    #: The files the store's previous record says this stage wrote there (they may be replaced even when
    #: the manifest there is missing or damaged: :func:`pipeline.unitile.table_folder.owned_files`).
    written: tuple[str, ...] = ()

    def run(self, ctx: Context) -> dict[str, Any]:
        """One task per frame cell, then this process writes the files and the manifest, and records
        sizes and hashes."""
        board, store = ctx.board, ctx.store
        perfect = store.require("perfect")
        report = store.require("verify")["report"]
        solve = store.require("solve")
        tasks = [CellTask(store.path, str(board), b, ctx.task_threads) for b in frame_cells(board)]
        frames = ctx.executor.map(tables_task, tasks, "tables")
        info = {
            "counts": {
                "positions": board.positions,
                "red_united": report["red_united_only"] + report["both_united"],
                "blue_united": report["blue_united_only"] + report["both_united"],
                "neither_united": report["neither_united"],
                "wins_red_to_move": report["wins_red_to_move"],
                "wins_blue_to_move": report["wins_blue_to_move"],
            },
            "perfect_play": {"start": perfect["start"], "longest": perfect["max_distance"]},
            "solver": {
                "iterations": solve.get("iterations"),
                "residual": solve.get("sigma"),
                "bound_T": solve.get("bound_T"),
                "smallest_T_gap": report["smallest_any_T_gap"],
                "smallest_relative_T_gap": report["smallest_relative_T_gap"],
            },
        }
        files, manifest = assemble(board, frames, info)
        out = Path(self.directory) if self.directory else default_tables_folder(ctx.store.path, board)
        write_tables(out, board, files, ours=self.written)
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

    def cost(self, ctx: Context, record: dict[str, Any]) -> Cost:
        """Every colouring of each frame cell numbered (a record number, counted as one rank), its legal
        byte, best mask and value read (the compression of the records not counted)."""
        n = len(frame_cells(ctx.board)) * ctx.board.colourings
        return Cost(bytes=n * 4, ranks=n, what="every colouring of each frame cell")


# tables-verify ----------------------------------------------------------------------------------------


#: The legal slides of the records of every position of the even cells, as those cells' own slides
#: (tables-verify's: the odd cells decode their legality from them), one shard per even cell.
RECORDS_LEGAL = "check/records_legal"


def even_rows(board: Board) -> dict[int, int]:
    """The row (shard) of each even cell in :data:`RECORDS_LEGAL`."""
    return {b: i for i, b in enumerate(b for b in range(board.cells) if is_even(board, b))}


def check_task(task: CellTask) -> tuple[int, int]:
    """For one bubble cell: ``(legal bytes decoded wrongly from the files, best sets decoded wrongly)``.

    An even cell also writes its shard of :data:`RECORDS_LEGAL`; an odd cell reads those of its
    neighbour cells (all even), so the even cells go first."""
    board, store, legal, best, value = cell_arrays(task)
    records = load_records(board, Path(task.extra))
    c = board.colourings
    rows = even_rows(board)
    arr = store.array(RECORDS_LEGAL)
    if is_even(board, task.bubble):
        bad_legal, bad_best, raw = check_even(board, task.bubble, records, legal, best, value)
        i = rows[task.bubble]
        arr[i * c : (i + 1) * c] = raw
        return bad_legal, bad_best
    raw = np.stack([arr[rows[n] * c : (rows[n] + 1) * c] for n in board.neighbours[task.bubble]])
    return check_odd(board, task.bubble, records, legal, best, value, raw)


def reader_sample(board: Board, folder: Path, store: Store, samples: int, seed: int) -> dict[str, Any]:
    """Load the files with :class:`unitile_py.unitile.tables.Tables` and compare seeded random positions.

    Reads only the sampled entries of the arrays (:meth:`Store.take`).
    """
    from unitile_py.unitile.tables import Tables

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
    from unitile_py.unitile.tables import Tables

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
class TablesVerifyStage(Stage):
    """Check the files against the arrays over every position, the game's reader on sampled positions,
    and the rules' examples."""

    name: ClassVar[str] = "tables-verify"
    samples: int = 2000
    seed: int = 4

    def run(self, ctx: Context) -> dict[str, Any]:
        """One task per bubble cell, then the reader checks in this process."""
        board, store = ctx.board, ctx.store
        rec = store.require("tables")
        require_complete(store.path, [*MOVE_ARRAYS, *PASS_ARRAYS])
        folder = Path(rec["directory"])
        c = board.colourings
        store.create(RECORDS_LEGAL, (len(even_rows(board)) * c,), (c,), np.uint8)
        results = []
        for even in (True, False):  # the odd cells read what the even cells' tasks wrote
            cells = [b for b in range(board.cells) if is_even(board, b) == even]
            tasks = [CellTask(store.path, str(board), b, ctx.task_threads, str(folder)) for b in cells]
            results += ctx.executor.map(check_task, tasks, "check even" if even else "check odd")
        report: dict[str, Any] = {
            "legal_decoded_wrongly": sum(r[0] for r in results),
            "best_decoded_wrongly": sum(r[1] for r in results),
        }
        try:
            report["reader"] = reader_sample(board, folder, store, self.samples, self.seed)
            report["rules"] = rules_checks(board, folder)
        except GameError as exc:  # the reader refuses the files
            raise CheckFailed(f"tables-verify failed: the game's reader refuses the files: {exc}") from None
        failures = [k for k in ("legal_decoded_wrongly", "best_decoded_wrongly") if report[k]]
        if report["reader"]["mismatches"]:
            failures.append("reader mismatches")
        failures += report["rules"]["failures"]
        report["ok"] = not failures
        for line in format_tables_report(report):
            ctx.log(line)
        if failures:
            raise CheckFailed("tables-verify failed: " + "; ".join(failures))
        return {"report": report}

    def cost(self, ctx: Context, record: dict[str, Any]) -> Cost:
        """Per position a test of each colour and its record's number (counted as a rank), and on an odd
        cell the rank of the position after each slide; the legal bytes, best masks and values read,
        the records' legal slides of the even cells written and read back."""
        board = ctx.board
        odd = [b for b in range(board.cells) if not is_even(board, b)]
        after = sum(board.colourings * len(board.neighbours[b]) for b in odd)
        return Cost(bytes=board.positions * 5, ranks=board.positions + after, tests=2 * board.positions,
                    what="every position decoded from the files")  # fmt: skip


def format_tables_report(rep: dict[str, Any]) -> list[str]:
    """The report as text lines."""
    rules = rep["rules"]
    lines = [
        f"tables-verify: every position decoded from the files: legal wrong {rep['legal_decoded_wrongly']}, "
        f"best wrong {rep['best_decoded_wrongly']}; game reader on {rep['reader']['samples']} random "
        f"positions: {rep['reader']['mismatches']} mismatches",
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
