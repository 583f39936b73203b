"""The zarr store of ``nd-prove --search dfpn``: what each opening task has proven, round by round, so
that a stopped proof resumes and tasks (and machines) share their facts (docs/naked-diagonal-solve.md,
"Resumable proofs").

Layout (one zarr group, default ``build/naked-diagonal-<N>x<N>-proof.zarr``)::

    .nd-proof-store                   the marker, written first when nd-prove creates the store
    zarr.json attrs: naked_diagonal_proof = {format, board}, search = "dfpn"
    proven/<task>/<round>-<writer>    (entries, 5) int64: high, low, pn, dn, work of proven table entries
                                      attrs: record = {round, nodes, cpu_seconds, table, wins, ...}
    hints/<task>/<round>-<writer>     (entries, 5) int64: unproven entries of much work (optional), never
                                      a proof: a resumed task loads its last round's, before the proofs

``<task>`` names the opening line (``c3``, ``c3-b2``; ``root`` for the empty board), ``<round>`` is the
task's round number (five digits) and ``<writer>`` a random word of the process that wrote it, so that
two runs of one task (two machines sharing the store) never write one array. An array is written once,
whole, by one task; its record goes into its attributes after its entries, and a round counts only once
its record is there: a killed write leaves an array without a record, which is ignored. Every chunk has a
crc32c checksum and is stored even when it equals the fill value; a round whose entries are damaged
(missing chunk, failed checksum, unreadable metadata) is reported in one line and ignored, so its work is
done again.
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
import zarr
import zarr.codecs

from pipeline.arrays import DECODE_ERRORS, open_array
from pipeline.errors import Damaged
from pipeline.store import StageStore, StoreKind, as_record
from unitile_py.errors import NakedDiagonalError

#: The store format.
FORMAT = 1
MARKER = ".nd-proof-store"
MARKER_TEXT = b"a store of Naked Diagonal proofs (python -m pipeline nd-prove); it may delete anything\n"
#: The search whose table entries the store holds.
SEARCH = "dfpn"
#: Columns of a round's array.
COLUMNS = ("high", "low", "pn", "dn", "work")
#: Nodes of a round of a task, by default (``nd-prove --round-nodes``).
ROUND_NODES = 2_000_000
#: The fewest nodes of a round on the command line: a round that ends keeps none of the frames still open
#: (:mod:`.dfpn`), so rounds too short to finish a subtree repeat themselves forever (4x4 with rounds of
#: 10 nodes did not finish an opening in 20,000 nodes; 30 did).
ROUND_MIN = 1000
#: Entries per chunk of a round's array.
CHUNK = 1 << 16


def default_proof_path(n: int) -> str:
    """``build/naked-diagonal-<n>x<n>-proof.zarr``."""
    return f"build/naked-diagonal-{n}x{n}-proof.zarr"


def task_name(names: list[str]) -> str:
    """The store's name of the task after an opening line (point names), ``root`` for the empty board.

    >>> task_name(["c3", "b2"]), task_name([])
    ('c3-b2', 'root')
    """
    return "-".join(names) or "root"


def new_writer() -> str:
    """A random word naming one run of one task (its rounds' arrays end with it)."""
    return uuid.uuid4().hex[:10]


@dataclass(frozen=True)
class Round:
    """A completed round of a task: its array's name in the store and its record."""

    task: str
    name: str
    record: dict[str, Any]

    @property
    def path(self) -> str:
        """The array's path in the store."""
        return f"proven/{self.task}/{self.name}"

    @property
    def index(self) -> int:
        """The task's round number."""
        return int(self.record.get("round", 0))


def entry_ids(rows: np.ndarray) -> np.ndarray:
    """One comparable item per row of ``(high, low, ...)`` (its two key words), for :func:`numpy.isin`."""
    pair = np.ascontiguousarray(np.asarray(rows, dtype=np.int64).reshape(-1, 5)[:, :2])
    return pair.view([("high", "<i8"), ("low", "<i8")]).ravel()


class ProofStore(StageStore):
    """The proof store of one board (``create`` makes it when missing)."""

    kind = StoreKind(NakedDiagonalError, "Naked Diagonal proof", "naked_diagonal_proof", FORMAT, MARKER,
                     MARKER_TEXT)

    def __init__(self, path: str, n: int, search: str = SEARCH, create: bool = False) -> None:
        self.n = n
        super().__init__(path, f"{n}x{n}", create)
        held = self.root.attrs.get("search")
        if held is None:
            with self._writing():
                self.root.attrs["search"] = search
        elif held != search:
            raise NakedDiagonalError(f"store {path}: holds a proof by the {held} search, not {search}")

    def _not_found(self) -> NakedDiagonalError:
        return NakedDiagonalError(f"store {self.path}: not found (run: python -m pipeline nd-prove "
                                  f"--search dfpn)")

    def _foreign(self, fs: Any, root: str) -> NakedDiagonalError:
        return NakedDiagonalError(
            f"store {self.path}: exists and is not a proof store of nd-prove (no {MARKER} in it)"
        )

    # Rounds -----------------------------------------------------------------------------------------

    def task_names(self) -> list[str]:
        """The tasks with a folder of rounds."""
        try:
            group = zarr.open_group(self.path, path="proven", mode="r")
        except (FileNotFoundError, zarr.errors.GroupNotFoundError):
            return []
        return sorted(group.group_keys())

    def rounds(self, task: str | None = None) -> list[Round]:
        """The rounds with a record (of one task, or of every task), in task and round order; arrays
        without a record (a write in progress or killed) or with unreadable metadata are left out."""
        out = []
        for t in [task] if task is not None else self.task_names():
            try:
                group = zarr.open_group(self.path, path=f"proven/{t}", mode="r")
                names = sorted(group.array_keys())
            except (FileNotFoundError, zarr.errors.GroupNotFoundError):
                continue
            except DECODE_ERRORS:
                continue
            for name in names:
                try:
                    record = as_record(zarr.open_array(self.path, path=f"proven/{t}/{name}",
                                                       mode="r").attrs.get("record"))
                except (FileNotFoundError, *DECODE_ERRORS):
                    continue
                if record:
                    out.append(Round(t, name, record))
        return out

    def read_round(self, r: Round) -> np.ndarray:
        """The entries of a round, checked (:class:`pipeline.errors.Damaged` when a chunk is missing or
        fails its checksum)."""
        arr = open_array(self.path, r.path)
        rows = arr[...]
        if rows.ndim != 2 or rows.shape[1] != len(COLUMNS):
            raise Damaged(f"store {self.path}: array {r.path}: shape {rows.shape}, expected (entries, 5)")
        return rows

    def load(self, warn: Callable[[str], None] | None = None,
             seen: set[str] | None = None) -> tuple[np.ndarray, list[Round]]:
        """The proven entries of every completed round of every task, and those rounds; a damaged round is
        left out (with a line to ``warn``). With ``seen``, only the rounds whose :attr:`Round.path` is not
        in it, and every round looked at (damaged or not) is added to it."""
        parts, good = [], []
        for r in self.rounds():
            if seen is not None:
                if r.path in seen:
                    continue
                seen.add(r.path)
            try:
                parts.append(self.read_round(r))
            except Damaged as exc:
                if warn is not None:
                    warn(f"warning: {exc}; round ignored (its work is done again)")
                continue
            good.append(r)
        rows = np.concatenate(parts) if parts else np.zeros((0, len(COLUMNS)), dtype=np.int64)
        return rows, good

    def _write_rows(self, name: str, rows: np.ndarray) -> zarr.Array:
        chunk = max(1, min(CHUNK, rows.shape[0]))
        arr = self.create_array(name, rows.shape, (chunk, len(COLUMNS)), None, np.int64,
                                zarr.codecs.ZstdCodec(level=3), 0)
        with self._writing():
            if rows.size:
                arr[...] = rows
        return arr

    def write_round(self, task: str, index: int, writer: str, rows: np.ndarray, record: dict[str, Any],
                    hints: np.ndarray | None = None) -> Round:
        """Write a round's proven entries as a new array (and its ``hints``, unproven entries, as
        ``hints/<task>/<round>-<writer>``), then its record (which makes the round count)."""
        rows = np.ascontiguousarray(rows, dtype=np.int64).reshape(-1, len(COLUMNS))
        name = f"{index:05d}-{writer}"
        extra: dict[str, Any] = {}
        if hints is not None:
            hints = np.ascontiguousarray(hints, dtype=np.int64).reshape(-1, len(COLUMNS))
            self._write_rows(f"hints/{task}/{name}", hints)
            extra["hints"] = int(hints.shape[0])
        arr = self._write_rows(f"proven/{task}/{name}", rows)
        full = {"round": index, "writer": writer, "entries": int(rows.shape[0]), **extra, **record,
                "finished": time.time()}
        with self._writing():
            arr.attrs["record"] = full
        return Round(task, name, full)

    def read_hints(self, r: Round, warn: Callable[[str], None] | None = None) -> np.ndarray | None:
        """The hints saved with a round (None when it has none, or they are damaged: said to ``warn``)."""
        if "hints" not in r.record:
            return None
        try:
            arr = open_array(self.path, f"hints/{r.task}/{r.name}")
            rows = arr[...]
        except Damaged as exc:
            if warn is not None:
                warn(f"warning: {exc}; hints ignored")
            return None
        return rows if rows.ndim == 2 and rows.shape[1] == len(COLUMNS) else None


def decided(rounds: list[Round]) -> dict[str, Round]:
    """The round that decided each decided task (its record has ``wins`` true or false)."""
    out: dict[str, Round] = {}
    for r in rounds:
        if r.record.get("wins") is not None and r.task not in out:
            out[r.task] = r
    return out


def latest(rounds: list[Round], task: str) -> Round | None:
    """A task's round of highest number (its totals so far), None when it has none."""
    mine = [r for r in rounds if r.task == task]
    return max(mine, key=lambda r: r.index) if mine else None
