"""``python -m pipeline nd-prove``: who wins a board too large for the tiers, by a proof search.

The value of the empty board and of every first placement (5 x 5 and up), without distances: by
:mod:`.dfpn`'s df-pn (the default, which solved 5x5), or by a depth-first alpha-beta search over win or
loss with a transposition table (canonical keys, so the eight symmetries share entries) and move
ordering, split into dask tasks over opening lines.

* **The search** (:class:`ProofSearch`): a position is a win for the side to move when some legal
  placement wins at once, or leads to a position that is a loss for the opponent (no turn is ever
  skipped: fact 5 of docs/naked-diagonal.md); otherwise a loss. Each node is one numba call
  (:func:`expand`): the legal placements of the side to move, a placement that wins at once if any,
  and the children sorted by a connection heuristic: the mover's shortest path between its edges
  (stones 0, empty points 1) minus the opponent's, smallest first. Every answer is exact: the ordering
  only decides how soon a winning move is found. ``--search dfpn`` (the default) runs :mod:`.dfpn`'s
  df-pn instead (the whole search in one numba call).
* **The split** (:func:`prove_openings`): the lines of ``split`` placements from the empty board, one
  task per canonical position at their end (each with its own table and an optional node budget); the
  client then combines the answers up the opening tree. With a budget a task may answer "unknown",
  and the combination is three-valued (a win needs one child known lost for the opponent, a loss all
  children known won for the opponent).
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from pipeline.executor import Executor
from unitile_py.naked_diagonal.grid import Grid

from .dfpn import DfpnSearch
from .geometry import Geometry
from .kernels import JIT, canonical, legal_points, memo_for, winner_bits
from .moves import FAR, canonical_pair, connection_score, expand, path_length
from .proof_store import ROUND_NODES, task_name

__all__ = ["FAR", "Budget", "ProofSearch", "connection_score", "expand", "path_length", "prove_openings"]

#: The searches ``nd-prove`` can run (the first is the default).
SEARCHES = ("dfpn", "alphabeta")
#: Slots of a search's transposition table by default (8 bytes each: 256 MiB).
TABLE_SLOTS = 1 << 25
#: Slots tried from a key's home slot before an entry is overwritten.
PROBES = 8
#: Fibonacci hashing's multiplier, as a signed 64-bit number (numba multiplies int64 by int64, wrapping).
GOLDEN = 0x9E3779B97F4A7C15 - (1 << 64)


@JIT
def table_get(slots: np.ndarray, key: int) -> int:
    """The result stored for a canonical key: 1 win, 0 loss, -1 unknown (open addressing, linear probes;
    an entry is ``(key + 1) << 1 | win``)."""
    mask = slots.shape[0] - 1
    home = (key * GOLDEN) >> 20 & mask
    want = key + 1
    for i in range(PROBES):
        entry = slots[(home + i) & mask]
        if entry == 0:
            return -1
        if entry >> 1 == want:
            return entry & 1
    return -1


@JIT
def table_put(slots: np.ndarray, key: int, win: int) -> None:
    """Store a result: in the first free slot of the key's probes, else over the home slot (an entry lost
    costs only a search again)."""
    mask = slots.shape[0] - 1
    home = (key * GOLDEN) >> 20 & mask
    entry = (key + 1) << 1 | win
    for i in range(PROBES):
        at = (home + i) & mask
        if slots[at] == 0 or slots[at] >> 1 == key + 1:
            slots[at] = entry
            return
    slots[home] = entry


class Budget(Exception):
    """The search used its node budget without an answer."""


#: The largest board of :class:`ProofSearch`: its table entry, ``(canonical key + 1) << 1 | win``, holds
#: the key's ``2 N N + 1`` bits in a signed 64-bit word only up to 5 x 5 (df-pn keys are two words).
ALPHA_BETA_MAX_N = 5


class ProofSearch:
    """Win or loss for the side to move, exactly (see the module docstring)."""

    def __init__(self, n: int, budget: int = 0, slots: int = 0) -> None:
        if not 1 <= n <= ALPHA_BETA_MAX_N:
            largest = f"{ALPHA_BETA_MAX_N}x{ALPHA_BETA_MAX_N}"
            raise ValueError(f"the alpha-beta search takes boards 1x1 to {largest}")
        self.n = n
        self.geo = Geometry.of(n)
        self.memo = memo_for(n)
        slots = slots or (TABLE_SLOTS if n >= 5 else 1 << 20)
        #: The transposition table (see :func:`table_get`), a power of two of slots.
        self.table = np.zeros(1 << max(4, (slots - 1).bit_length()), dtype=np.int64)
        self.budget = budget
        self.nodes = 0

    @property
    def stored(self) -> int:
        """Entries in the transposition table."""
        return int(np.count_nonzero(self.table))

    def wins(self, red: int, blue: int, turn: int) -> bool:
        """Whether the side to move (0 Red, 1 Blue) wins with perfect play."""
        if winner_bits(self.geo.args, red, blue):
            return False  # the opponent's last placement won
        return self._wins(red, blue, turn)

    def _wins(self, red: int, blue: int, turn: int) -> bool:
        g = self.geo.args
        key = canonical(g, red, blue, turn)[0]
        known = table_get(self.table, key)
        if known >= 0:
            return known == 1
        self.nodes += 1
        if self.budget and self.nodes > self.budget:
            raise Budget
        point, kids = expand(g, red, blue, turn, self.memo)
        result = point >= 0
        for j in range(len(kids)):
            if result:
                break
            _, r2, b2, nxt, _ = (int(x) for x in kids[j])
            result = not self._wins(r2, b2, nxt)
        table_put(self.table, key, int(result))
        return result

    def best_line(self, red: int, blue: int, turn: int, limit: int = 64) -> list[int]:
        """A line of play where the winner always plays a winning placement (the first found) and the
        loser its first placement in the search order; points in this position's orientation."""
        g = self.geo.args
        line: list[int] = []
        while not winner_bits(g, red, blue) and len(line) < limit:
            point, kids = expand(g, red, blue, turn, self.memo)
            if point >= 0:
                line.append(point)
                break
            if not len(kids):
                break
            winning = self.wins(red, blue, turn)
            chosen = 0
            for j in range(len(kids)):
                _, r2, b2, nxt, _ = (int(x) for x in kids[j])
                if (not self.wins(r2, b2, nxt)) == winning:
                    chosen = j
                    break
            p, red, blue, turn, _ = (int(x) for x in kids[chosen])
            line.append(p)
        return line


# Tasks over opening lines -------------------------------------------------------------------------


@dataclass(frozen=True)
class ProveTask:
    """Prove the position after the placements ``line`` (points, alternating from Red)."""

    n: int
    line: tuple[int, ...]
    budget: int
    #: ``"alphabeta"`` (:class:`ProofSearch`) or ``"dfpn"`` (:class:`.dfpn.DfpnSearch`).
    search: str = "dfpn"
    #: df-pn only: the proof store (:mod:`.proof_store`) to load proven entries from and to save the
    #: task's rounds of ``round_nodes`` nodes in (None: all in memory); at most ``max_rounds`` rounds
    #: in this run (0: no limit); ``quiet``: no progress line per round.
    store: str | None = None
    round_nodes: int = 0
    max_rounds: int = 0
    quiet: bool = True
    #: With a store: also save, each round, the unproven entries whose search took at least this many
    #: nodes, as hints that a resumed run of the task loads first (0: none).
    hint_work: int = 0
    #: With a store: the rounds (paths) already reported damaged in this run, not reported again.
    reported: tuple[str, ...] = ()
    #: df-pn only: slots of the task's transposition table (0: :func:`.dfpn.default_slots`).
    slots: int = 0
    #: df-pn only: the threat tests put off until the search enters a child (:data:`.dfpn.LAZY`'s bits).
    lazy: int = 0


def position_after(n: int, line: tuple[int, ...]) -> tuple[int, int, int]:
    """``(red, blue, turn)`` after alternate placements from the empty board, Red first."""
    red = blue = 0
    for i, p in enumerate(line):
        if i % 2 == 0:
            red |= 1 << p
        else:
            blue |= 1 << p
    return red, blue, len(line) % 2


def prove_task(task: ProveTask) -> dict[str, Any]:
    """``{"line", "wins" (True, False or None when over budget), "nodes", "seconds", "cpu_seconds",
    "proof"}`` for the side to move after the line."""
    if task.store is not None:
        return prove_task_in_rounds(task)
    t0, c0 = time.perf_counter(), time.process_time()
    red, blue, turn = position_after(task.n, task.line)
    wins: bool | None
    search: ProofSearch | DfpnSearch
    if task.search == "dfpn":
        search = DfpnSearch(task.n, slots=task.slots, lazy=task.lazy)
        wins = search.prove(red, blue, turn, task.budget)
        nodes = search.nodes
        line = search.best_line(red, blue, turn) if wins is not None else []
    else:
        search = ProofSearch(task.n, task.budget)
        try:
            wins = search.wins(red, blue, turn)
            line = search.best_line(red, blue, turn)
        except Budget:
            wins, line = None, []
        nodes = search.nodes
    proof = [Grid.get(task.n).name(p) for p in line]
    return {
        "line": [Grid.get(task.n).name(p) for p in task.line],
        "search": task.search,
        "wins": wins,
        "nodes": nodes,
        "table": search.stored,
        "seconds": round(time.perf_counter() - t0, 3),
        "cpu_seconds": round(time.process_time() - c0, 3),
        "proof": proof,
    }


def _stderr(msg: str) -> None:
    print(msg, file=sys.stderr, flush=True)


def prove_task_in_rounds(task: ProveTask) -> dict[str, Any]:
    """:func:`prove_task` by df-pn with a proof store: load the proven entries of every completed round
    in the store (of every task: proven facts hold in any search of the board), then search in rounds
    of ``round_nodes`` nodes, each ending with its newly proven entries and its record written to the
    store, until the task is decided, its ``budget`` (nodes over all its runs) is spent or
    ``max_rounds`` rounds have run. Totals (nodes, CPU and wall seconds) continue those of the task's
    last completed round."""
    assert task.store is not None
    from .proof_store import ProofStore, entry_ids, latest, new_writer, task_name

    t0, c0 = time.perf_counter(), time.process_time()
    say = (lambda msg: None) if task.quiet else _stderr
    store = ProofStore(task.store, task.n)
    grid = Grid.get(task.n)
    names = [grid.name(p) for p in task.line]
    name = task_name(names)
    search = DfpnSearch(task.n, slots=task.slots, lazy=task.lazy)
    seen: set[str] = set()
    reported = set(task.reported)  # damage is reported whatever ``quiet`` says, once a run
    rows, rounds = store.load(warn=_stderr, seen=seen, reported=reported)
    last = latest(rounds, name)
    hints = store.read_hints(last, warn=_stderr) if last is not None else None
    if hints is not None:
        search.load_hints(hints)  # first: a proven entry loaded next replaces a hint, never the reverse
    search.load(rows)
    saved = np.sort(entry_ids(rows))
    loaded = int(rows.shape[0])
    before = last.record if last is not None else {}
    nodes0 = int(before.get("nodes", 0))
    cpu0, wall0 = float(before.get("cpu_seconds", 0.0)), float(before.get("seconds", 0.0))
    index = (last.index if last is not None else 0) + 1
    writer = new_writer()
    red, blue, turn = position_after(task.n, task.line)
    step = task.round_nodes if task.round_nodes > 0 else ROUND_NODES
    wins: bool | None = None
    ran = 0
    proof: list[str] = []
    while True:
        r0, n0 = time.perf_counter(), search.nodes
        room = task.budget - nodes0 - search.nodes if task.budget else step
        if room <= 0:
            break
        if ran:
            # What other tasks (other workers, other machines) saved since: exact facts, shared.
            more, _ = store.load(warn=_stderr, seen=seen, reported=reported)
            if more.shape[0]:
                search.load(more)
                saved = np.sort(np.concatenate([saved, entry_ids(more)]))
                loaded += int(more.shape[0])
        wins = search.prove(red, blue, turn, min(step, room))
        if wins is not None:
            proof = [grid.name(p) for p in search.best_line(red, blue, turn)]
        done_nodes = search.nodes - n0
        entries = search.proven_entries()
        new = entries[~np.isin(entry_ids(entries), saved)]
        saved = np.sort(np.concatenate([saved, entry_ids(new)]))
        record: dict[str, Any] = {
            "line": names, "wins": wins, "nodes": nodes0 + search.nodes, "round_nodes": done_nodes,
            "table": search.stored, "proven_in_table": int(entries.shape[0]), "loaded": loaded,
            "cpu_seconds": round(cpu0 + time.process_time() - c0, 3),
            "seconds": round(wall0 + time.perf_counter() - t0, 3), "proof": proof,
        }
        kept = search.hint_entries(task.hint_work) if task.hint_work > 0 else None
        seen.add(store.write_round(name, index, writer, new, record, kept).path)
        ran += 1
        index += 1
        if not task.quiet:
            took = max(time.perf_counter() - r0, 1e-9)
            done = len({r.task for r in store.rounds() if r.record.get("wins") is not None})
            say(f"  {' '.join(names) or '(empty)'}: round {index - 1}, {record['nodes']:,} nodes "
                f"({done_nodes / took:,.0f}/s), {_word(wins)}, {done} tasks proven, "
                f"{search.stored:,} table entries ({new.shape[0]:,} newly proven saved)")
        if wins is not None or (task.max_rounds and ran >= task.max_rounds):
            break
    return {
        "line": names,
        "search": task.search,
        "wins": wins,
        "nodes": nodes0 + search.nodes,
        "table": search.stored,
        "seconds": round(wall0 + time.perf_counter() - t0, 3),
        "cpu_seconds": round(cpu0 + time.process_time() - c0, 3),
        "proof": proof,
        "rounds": index - 1,
        "run_nodes": search.nodes,
        "run_cpu_seconds": round(time.process_time() - c0, 3),
        "loaded": loaded,
        "hints_loaded": 0 if hints is None else int(hints.shape[0]),
    }


#: The fields of a task's result that the store's records and the ledger's entries both keep.
RESULT_FIELDS = ("line", "wins", "nodes", "seconds", "cpu_seconds", "proof")
#: A position of the opening tree: its canonical pair (:func:`.moves.canonical_pair`), unique on every
#: board the kernels take (the one-word key of :func:`.kernels.canonical` overflows beyond 5 x 5).
TreeKey = tuple[int, int]


def opening_tree(n: int, split: int) -> tuple[dict[TreeKey, list[tuple[int, TreeKey]]],
                                              dict[TreeKey, tuple[int, ...]]]:
    """The canonical positions of the first ``split`` placements: ``(moves, lines)`` where ``moves[key]``
    lists ``(point, child key)`` of each legal placement (no entry for a position at depth ``split``, or
    won) and ``lines[key]`` is one line reaching each leaf that needs a task."""
    geo = Geometry.of(n)
    g, memo = geo.args, memo_for(n)
    moves: dict[TreeKey, list[tuple[int, TreeKey]]] = {}
    leaves: dict[TreeKey, tuple[int, ...]] = {}
    level: dict[TreeKey, tuple[int, ...]] = {canonical_pair(g, 0, 0, 0): ()}
    for depth in range(split + 1):
        following: dict[TreeKey, tuple[int, ...]] = {}
        for key, line in level.items():
            red, blue, turn = position_after(n, line)
            if depth == split or winner_bits(g, red, blue):
                if not winner_bits(g, red, blue):
                    leaves.setdefault(key, line)
                continue
            mine = legal_points(g, red, blue, turn, memo)
            out = []
            for p in Grid.points(mine):
                r2, b2 = (red | 1 << p, blue) if turn == 0 else (red, blue | 1 << p)
                child = canonical_pair(g, r2, b2, 1 - turn)
                out.append((p, child))
                following.setdefault(child, (*line, p))
            moves[key] = out
        level = following
    return moves, leaves


def lines_from(n: int, leaves: dict[TreeKey, tuple[int, ...]], first: tuple[int, ...]
               ) -> dict[TreeKey, tuple[int, ...]]:
    """The leaves of :func:`opening_tree` reached by a line opening with one of the points ``first``
    (or with a symmetric image of one: each leaf stands for its whole class)."""
    g = Geometry.of(n).args
    openings = {canonical_pair(g, 1 << p, 0, 1) for p in first}
    kept: dict[TreeKey, tuple[int, ...]] = {}
    for key, line in leaves.items():
        if line and canonical_pair(g, 1 << line[0], 0, 1) in openings:
            kept[key] = line
    return kept


def prove_openings(
    n: int, executor: Executor, split: int = 1, budget: int = 0, log: Callable[[str], None] = print,
    search: str = "dfpn", store: str | None = None, round_nodes: int = ROUND_NODES,
    max_rounds: int = 0, progress: bool = False, hint_work: int = 0, ledger: str | None = None,
    commit: bool = False, warn: Callable[[str], None] = _stderr, first: tuple[int, ...] = (),
    slots: int = 0, lazy: int = 0,
) -> dict[str, Any]:
    """The value of the empty board and of each first placement (see the module docstring), each task
    proven by ``search`` (``"alphabeta"`` or ``"dfpn"``).

    With a proof ``store`` (df-pn only, :mod:`.proof_store`; made when missing) the tasks search in
    rounds of ``round_nodes`` nodes (at most ``max_rounds`` in this call, 0: no limit) and save what
    they prove; tasks the store holds as decided are not run again (their recorded results are
    used), the others continue with every proven entry of the store loaded. ``progress``: a line per
    round (from the process running the task). A round found damaged or implausible is reported to
    ``warn`` (standard error: whatever ``log`` or ``progress`` say) once, and its work done again; a
    task counts as decided only where the store's proven entries agree with its deciding round
    (:func:`.proof_store.decided_by_entries`).

    With a ``ledger`` folder (:mod:`.ledger`) the lines it holds are not run either, and every line
    decided here (or found decided in the store) is written into it as it finishes, and committed to
    git when ``commit``; a line after each finished task gives the lines decided, the nodes and the
    rate, and an estimate of the CPU time left.

    ``first``: search only the lines opening with these points (:func:`lines_from`); the others stay
    unknown unless the ledger or the store holds them. ``slots``: each df-pn task's table slots;
    ``lazy``: the threat tests its df-pn puts off (:data:`.dfpn.LAZY`; the ledger records them)."""
    if search not in SEARCHES:
        raise ValueError(f"search {search!r}: expected one of {', '.join(SEARCHES)}")
    if store is not None and search != "dfpn":
        raise ValueError("a proof store holds df-pn proofs only")
    t0 = time.perf_counter()
    geo = Geometry.of(n)
    g = geo.args
    grid = Grid.get(n)
    moves, leaves = opening_tree(n, split)
    chosen = lines_from(n, leaves, first) if first else leaves
    reported: set[str] = set()
    held: dict[str, Any] = {}
    if store is not None:
        from .proof_store import ProofStore, decided_by_entries

        rows, rounds = ProofStore(store, n, create=True).load(warn=warn, reported=reported)
        held = decided_by_entries(n, rows, rounds, warn, store)
    tasks = [ProveTask(n, line, budget, search, store, round_nodes, max_rounds, not progress, hint_work,
                       tuple(sorted(reported)), slots, lazy) for line in leaves.values()]
    log(f"{n}x{n}: {len(tasks)} opening positions after {split} placements")
    recorded: dict[int, dict[str, Any]] = {}
    book = Ledger(n, Path(ledger), commit, search, split, log, lazy) if ledger is not None else None
    names = [task_name([grid.name(p) for p in task.line]) for task in tasks]

    def record(i: int, table: int, fields: dict[str, Any], where: str) -> None:
        """Take task i's result as recorded in ``where`` (not run again)."""
        recorded[i] = res = {"search": search, "table": table, "recorded": True, **fields}
        log(f"  {' '.join(res['line']) or '(empty)'}: {_word(res['wins'])} for the side to move "
            f"(recorded in {where}: {res['nodes']:,} nodes, {res['cpu_seconds']} s CPU)")

    if book is not None:
        for i, name in enumerate(names):
            if name in book.held:
                record(i, 0, {"round": 0, **{k: book.held[name][k] for k in RESULT_FIELDS}}, "the ledger")
        log(f"{len(recorded)} of {len(tasks)} tasks decided in the ledger {ledger}")
    if store is not None:
        for i, name in enumerate(names):
            r = held.get(name)
            if r is not None and i not in recorded:
                record(i, r.record.get("table", 0), {k: r.record[k] for k in (*RESULT_FIELDS, "round")},
                       "the store")
                if book is not None:
                    book.add(recorded[i])
        log(f"{len(recorded)} of {len(tasks)} tasks decided in {store}")
    picked = {i for i, key in enumerate(leaves) if key in chosen}
    for i in range(len(tasks)):
        if i not in recorded and i not in picked:
            recorded[i] = {"line": [grid.name(p) for p in tasks[i].line], "search": search, "wins": None,
                           "nodes": 0, "cpu_seconds": 0.0, "seconds": 0.0, "proof": [], "table": 0,
                           "not_searched": True}
    if first:
        log(f"{len(picked)} tasks open with {', '.join(grid.name(p) for p in first)} (or an image of it)")
    todo = [i for i in range(len(tasks)) if i not in recorded]
    on_result = None
    if book is not None:
        book.start(len(tasks), [r for r in recorded.values() if not r.get("not_searched")])
        on_result = book.finished
    ran = iter(executor.map(prove_task, [tasks[i] for i in todo], f"prove {n}x{n}", on_result=on_result))
    results = [recorded[i] if i in recorded else next(ran) for i in range(len(tasks))]
    known: dict[TreeKey, bool | None] = {}
    for i, (key, res) in enumerate(zip(leaves, results, strict=True)):
        known[key] = res["wins"]
        if i not in recorded:
            log(f"  {' '.join(res['line']) or '(empty)'}: {_word(res['wins'])} for the side to move "
                f"({res['nodes']:,} nodes, {res['cpu_seconds']} s CPU)")

    def value(key: TreeKey) -> bool | None:
        if key in known:
            return known[key]
        red, blue = key[1], key[0] & g.full
        if winner_bits(g, red, blue):
            known[key] = False
            return False
        children = [value(child) for _, child in moves[key]]
        if any(c is False for c in children):
            known[key] = True
        elif all(c is True for c in children):
            known[key] = False
        else:
            known[key] = None
        return known[key]

    start = canonical_pair(g, 0, 0, 0)
    root = value(start)
    outcomes = {}
    for p, child in moves.get(start, []):
        v = value(child)
        outcomes[grid.name(p)] = _word(None if v is None else not v)
    return {
        "board": f"{n}x{n}",
        "split": split,
        "search": search,
        "budget": budget,
        **({"store": store} if store is not None else {}),
        "empty_board": _word(root),
        "winner": None if root is None else ("red" if root else "blue"),
        "first_placements": outcomes,
        "tasks": results,
        "nodes": sum(r["nodes"] for r in results),
        "cpu_seconds": round(sum(r["cpu_seconds"] for r in results), 3),
        "seconds": round(time.perf_counter() - t0, 3),
    }


class Ledger:
    """What :func:`prove_openings` keeps in a ledger folder (:mod:`.ledger`): the entries already there,
    each newly decided line written (and committed), and a progress line per finished task."""

    def __init__(self, n: int, folder: Path, commit: bool, search: str, split: int,
                 log: Callable[[str], None], lazy: int = 0) -> None:
        from . import dfpn
        from .ledger import read_ledger

        self.n, self.folder, self.commit, self.log = n, folder, commit, log
        self.settings: dict[str, Any] = {"search": search, "split": split, "mobility": dfpn.MOBILITY,
                                         "deep": dfpn.DEEP, "epsilon": list(dfpn.EPSILON),
                                         **({"lazy": lazy} if lazy else {})}
        self.held = read_ledger(folder, n, log)
        self.tasks = 0
        self.decided: list[dict[str, Any]] = []
        self.run_nodes = 0
        self.run_cpu = 0.0

    def add(self, result: dict[str, Any]) -> None:
        """Write a decided line's entry unless the ledger holds it (and commit it when asked)."""
        from .ledger import commit_entry, write_entry

        name = task_name(list(result["line"]))
        if result["wins"] is None or name in self.held:
            return
        try:
            path = write_entry(self.folder, self.n, result, self.settings)
        except OSError as exc:
            self.log(f"warning: ledger {self.folder}: cannot write ({exc.strerror or exc}); the line is in "
                     "the results only")
            return
        self.held[name] = {}
        if self.commit:
            line = " ".join(result["line"]) or "the empty board"
            commit_entry(path, f"nd-prove {self.n}x{self.n}: {line}, {_word(result['wins'])} for the side "
                               f"to move ({result['nodes']:,} nodes)", self.log)

    def start(self, tasks: int, recorded: list[dict[str, Any]]) -> None:
        """Count the lines decided before this run."""
        self.tasks = tasks
        self.decided = [r for r in recorded if r["wins"] is not None]

    def finished(self, _index: int, result: dict[str, Any]) -> None:
        """A task of this run is done: its entry, then a line of progress."""
        self.add(result)
        self.run_nodes += int(result.get("run_nodes", result["nodes"]))
        self.run_cpu += float(result.get("run_cpu_seconds", result["cpu_seconds"]))
        if result["wins"] is not None:
            self.decided.append(result)
        rate = self.run_nodes / self.run_cpu if self.run_cpu > 0 else 0.0
        left = self.tasks - len(self.decided)
        text = f"{len(self.decided)} of {self.tasks} lines decided; this run {self.run_nodes:,} nodes"
        if rate > 0:
            text += f" at {rate:,.0f} per CPU second"
        if self.decided and rate > 0 and left:
            mean = sum(r["nodes"] for r in self.decided) / len(self.decided)
            text += (f"; {left} lines left, about {left * mean / rate / 3600:,.1f} CPU hours at the mean "
                     f"of the decided lines ({mean:,.0f} nodes; a guess: open lines are the harder ones)")
        self.log(text)


def _word(wins: bool | None) -> str:
    return "unknown" if wins is None else ("win" if wins else "loss")
