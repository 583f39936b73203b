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
crc32c checksum and is stored even when it equals the fill value.

Nothing in the store is taken on trust: a round whose metadata cannot be read, whose record has a field
of the wrong type or out of range (:func:`record_problem`), whose array's shape is not the record's
``(entries, 5)`` (checked before anything is read, and ``entries`` at most the proven entries one search
holds) or whose entries are damaged (missing chunk, failed checksum) is reported in one line and ignored,
so its work is done again. A decided round's answer is not read from its record alone: it must be the
answer of the proven entries of the store for its task's position (:func:`decided_by_entries`), else
the round is reported and its task searched again (from those entries, so quickly).
"""

from __future__ import annotations

import math
import re
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
import zarr
import zarr.codecs

from pipeline.arrays import DECODE_ERRORS, Checked, open_array
from pipeline.errors import Damaged
from pipeline.store import StageStore, StoreKind, as_record, is_number, is_whole, place
from unitile_py.errors import GameError, NakedDiagonalError
from unitile_py.naked_diagonal.grid import Grid

from .dfpn import default_slots
from .geometry import Geometry
from .kernels import winner_bits
from .moves import canonical_pair

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
#: The name of a round's array: its round number (five digits) and its writer.
ARRAY_NAME = re.compile(r"(\d{5})-([0-9A-Za-z]+)")
#: The fields of a record that are whole numbers (when present), and those that are seconds.
WHOLE_FIELDS = ("nodes", "round_nodes", "table", "proven_in_table", "loaded", "hints")
SECONDS_FIELDS = ("cpu_seconds", "seconds", "finished")
#: The fields a decided round's record must hold (the task's result: :data:`.proof.RESULT_FIELDS`).
DECIDED_FIELDS = ("line", "wins", "nodes", "seconds", "cpu_seconds", "proof")
#: What a round that cannot be trusted gets in its one line.
IGNORED = "round ignored (its work is done again)"


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


def _names(value: object) -> bool:
    return isinstance(value, list) and all(isinstance(v, str) for v in value)


def record_problem(n: int, task: str, name: str, record: dict[str, Any],
                   shape: tuple[int, ...]) -> str | None:
    """What is wrong with a round's record and its array's ``shape`` (None when nothing is): its
    round number and writer are those of the array's ``name``, every field present has its type and
    range, ``entries`` is at most what one search holds (:func:`.dfpn.default_slots`) and the shape is
    ``(entries, 5)``; a line, when given, is the task's.

    >>> record_problem(4, "c3", "00002-ab", {"round": 2, "writer": "ab", "entries": 3, "wins": None}, (3, 5))
    >>> record_problem(4, "c3", "00002-ab", {"round": "x", "writer": "ab", "entries": 3}, (3, 5))
    "field round is 'x', not a round number (2, from the array's name)"
    """
    match = ARRAY_NAME.fullmatch(name)
    if match is None:
        return "its name is not <round>-<writer>"
    index, writer = int(match.group(1)), match.group(2)
    value = record.get("round")
    if not is_whole(value) or value != index or index == 0:
        return f"field round is {value!r}, not a round number ({index}, from the array's name)"
    if record.get("writer") != writer:
        return f"field writer is {record.get('writer')!r}, not {writer!r} (from the array's name)"
    entries = record.get("entries")
    if not isinstance(entries, int) or not is_whole(entries) or entries > default_slots(n):
        return f"field entries is {entries!r}, not a whole number up to {default_slots(n):,}"
    if tuple(shape) != (entries, len(COLUMNS)):
        return f"its array's shape is {list(shape)}, not [{entries}, {len(COLUMNS)}] (the record's entries)"
    if "wins" in record and not isinstance(record["wins"], bool | None):
        return f"field wins is {record['wins']!r}, not true, false or null"
    for key in WHOLE_FIELDS:
        if key in record and not is_whole(record[key]):
            return f"field {key} is {record[key]!r}, not a whole number"
    for key in SECONDS_FIELDS:
        if key in record and not (is_number(record[key]) and math.isfinite(record[key]) and record[key] >= 0):
            return f"field {key} is {record[key]!r}, not seconds"
    for key in ("line", "proof"):
        if key in record and not _names(record[key]):
            return f"field {key} is not a list of point names"
    if "line" in record and task_name(record["line"]) != task:
        return f"field line is {record['line']!r}, not the line of task {task}"
    return None


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

    def _folders(self, under: str) -> list[str]:
        """The names of the folders in ``under`` (listed, not read through zarr: one damaged
        ``zarr.json`` hides none of the others)."""
        fs, root, _ = place(self.path)
        try:
            found = fs.ls(f"{root}/{under}", detail=True)
        except (FileNotFoundError, NotADirectoryError):
            return []
        except OSError as exc:
            raise self.error(f"store {self.path}: cannot read {under} ({exc.strerror or exc})") from None
        return sorted(str(f["name"]).rstrip("/").rsplit("/", 1)[-1] for f in found
                      if f.get("type") == "directory")

    def task_names(self) -> list[str]:
        """The tasks with a folder of rounds."""
        return self._folders("proven")

    def rounds(self, task: str | None = None,
               problems: list[tuple[str, str]] | None = None) -> list[Round]:
        """The rounds with a record (of one task, or of every task), in task and round order; arrays
        without a record (a write in progress or killed) are left out, and so are those whose metadata
        cannot be read or whose record or shape is wrong (:func:`record_problem`): each of those is
        added to ``problems`` as ``(its path, one line)``."""
        out = []
        for t in [task] if task is not None else self.task_names():
            for name in self._folders(f"proven/{t}"):
                path = f"proven/{t}/{name}"
                try:
                    arr = zarr.open_array(self.path, path=path, mode="r")
                    raw, shape = arr.attrs.get("record"), tuple(arr.shape)
                except (FileNotFoundError, zarr.errors.NodeNotFoundError):
                    if not self._folders(path):
                        continue  # an empty folder: an array whose write is only beginning
                    why: str | None = "its zarr.json is missing"
                except (*DECODE_ERRORS, AttributeError, OSError) as exc:
                    why = f"its metadata cannot be read ({type(exc).__name__})"
                else:
                    if raw is None:
                        continue
                    record = as_record(raw)
                    why = (record_problem(self.n, t, name, record, shape) if record
                           else "its record is not an object")
                    if why is None:
                        out.append(Round(t, name, record))
                        continue
                if problems is not None:
                    problems.append((path, f"warning: store {self.path}: array {path}: {why}; {IGNORED}"))
        return out

    def read_round(self, r: Round) -> np.ndarray:
        """The entries of a round, checked (:class:`pipeline.errors.Damaged` when the array's shape is not
        its record's, or a chunk is missing or fails its checksum): the shape before any read."""
        arr = open_array(self.path, r.path)
        why = record_problem(self.n, r.task, r.name, r.record, arr.shape) or _layout_problem(arr)
        if why is not None:
            raise Damaged(f"store {self.path}: array {r.path}: {why}")
        return arr[...]

    def load(self, warn: Callable[[str], None] | None = None, seen: set[str] | None = None,
             reported: set[str] | None = None) -> tuple[np.ndarray, list[Round]]:
        """The proven entries of every completed round of every task, and those rounds; a damaged or
        implausible round is left out, with a line to ``warn`` unless its :attr:`Round.path` is in
        ``reported`` (to which it is added: each is reported once). With ``seen``, only the rounds whose
        path is not in it, and every round looked at (damaged or not) is added to it."""
        parts, good = [], []
        problems: list[tuple[str, str]] = []
        told = reported if reported is not None else set()

        def report(path: str, line: str) -> None:
            if path not in told and warn is not None:
                warn(line)
            told.add(path)

        rounds = self.rounds(problems=problems)
        for path, line in problems:
            report(path, line)
        for r in rounds:
            if seen is not None:
                if r.path in seen:
                    continue
                seen.add(r.path)
            try:
                parts.append(self.read_round(r))
            except Damaged as exc:
                report(r.path, f"warning: {exc}; {IGNORED}")
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
            why = _layout_problem(arr)
            if arr.shape != (r.record["hints"], len(COLUMNS)):
                why = f"shape {list(arr.shape)}, not [{r.record['hints']}, {len(COLUMNS)}] (the record's)"
            if why is not None:
                raise Damaged(f"store {self.path}: array hints/{r.task}/{r.name}: {why}")
            return arr[...]
        except Damaged as exc:
            if warn is not None:
                warn(f"warning: {exc}; hints ignored")
            return None


def _layout_problem(arr: Checked) -> str | None:
    """What is wrong with the dtype or the chunks of a round's array of known shape (None: nothing):
    int64, in chunks of :data:`CHUNK` entries or of all of them, as :meth:`ProofStore.write_round`
    writes them."""
    if arr.dtype != np.int64:
        return f"dtype {arr.dtype}, not int64"
    chunk = (max(1, min(CHUNK, arr.shape[0])), len(COLUMNS))
    if arr.chunks != chunk:
        return f"its chunks are {list(arr.chunks)}, not {list(chunk)}"
    return None


def decided(rounds: list[Round]) -> dict[str, Round]:
    """The round that decided each decided task (its record has ``wins`` true or false), as its record
    says (:func:`decided_by_entries` checks it against the proven entries)."""
    out: dict[str, Round] = {}
    for r in rounds:
        if r.record.get("wins") is not None and r.task not in out:
            out[r.task] = r
    return out


def _task_key(n: int, line: list[str]) -> tuple[int, int] | None:
    """The canonical pair of the position after a line of point names (alternating from Red), None when
    a name is not a point or a point repeats."""
    grid = Grid.get(n)
    red = blue = 0
    try:
        for i, name in enumerate(line):
            bit = 1 << grid.point(name)
            if (red | blue) & bit:
                return None
            red, blue = (red | bit, blue) if i % 2 == 0 else (red, blue | bit)
    except GameError:
        return None
    g = Geometry.of(n).args
    if winner_bits(g, red, blue):
        return None
    high, low = canonical_pair(g, red, blue, len(line) % 2)
    return int(high), int(low)


def decided_by_entries(n: int, rows: np.ndarray, rounds: list[Round],
                       warn: Callable[[str], None] | None = None, where: str = "") -> dict[str, Round]:
    """The round that decided each decided task, trusted only where the proven entries ``rows`` (of the
    good ``rounds``) give its task's position the answer its record gives, and its record holds every
    field of a result; a decided round that fails is reported to ``warn`` in one line and its task is
    left undecided (searched again, from the entries). The answer so comes from the entries, never from
    a record alone: a record's ``wins`` changed in a good round changes nothing."""
    keys: dict[str, tuple[int, int] | None] = {}
    for r in rounds:
        if r.record.get("wins") is not None and "line" in r.record:
            keys[r.path] = _task_key(n, r.record["line"])
    wanted = np.array([k for k in keys.values() if k is not None], dtype=np.int64).reshape(-1, 2)
    rows = np.asarray(rows, dtype=np.int64).reshape(-1, len(COLUMNS))
    known: dict[tuple[int, int], set[bool]] = {}
    if wanted.shape[0] and rows.shape[0]:
        padded = np.zeros((wanted.shape[0], len(COLUMNS)), dtype=np.int64)
        padded[:, :2] = wanted
        for high, low, pn, dn, _ in rows[np.isin(entry_ids(rows), entry_ids(padded))].tolist():
            if pn == 0 or dn == 0:
                known.setdefault((high, low), set()).add(pn == 0)
    out: dict[str, Round] = {}
    for r in rounds:
        wins = r.record.get("wins")
        if wins is None or r.task in out:
            continue
        missing = [k for k in DECIDED_FIELDS if k not in r.record]
        key = keys.get(r.path)
        if missing:
            why = f"decided, but its record has no {', '.join(missing)}"
        elif key is None:
            why = f"field line {r.record['line']!r} is not a line of play on {n}x{n}"
        elif len(known.get(key, ())) > 1:
            why = "the proven entries of the store disagree on its task's position"
        elif known.get(key) != {wins}:
            found = known.get(key)
            said = "no proven entry" if not found else "a win" if True in found else "a loss"
            why = f"its record says {'a win' if wins else 'a loss'}, the store's proven entries {said}"
        else:
            out[r.task] = r
            continue
        if warn is not None:
            warn(f"warning: store {where}: array {r.path}: {why}; {IGNORED}")
    return out


def latest(rounds: list[Round], task: str) -> Round | None:
    """A task's round of highest number (its totals so far), None when it has none."""
    mine = [r for r in rounds if r.task == task]
    return max(mine, key=lambda r: r.index) if mine else None
