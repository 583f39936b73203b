"""The Naked Diagonal solve, measured and checked (slow checks live here, not in the tests).

    .venv/bin/python bench/nd_solve.py build --board 4x4            # time and memory of a fresh build
    .venv/bin/python bench/nd_solve.py legality --board 4x4         # numba vs unitile_py on every position
    .venv/bin/python bench/nd_solve.py legality --board 4x4 --images   # ... every position, not only records
    .venv/bin/python bench/nd_solve.py legality --random 2000 --sizes 5 6 7   # ... and on random games
    .venv/bin/python bench/nd_solve.py legality --boards 2000 --sizes 4 5 6   # ... and random boards
    .venv/bin/python bench/nd_solve.py forward --board 4x4          # forward negamax vs the tables
    .venv/bin/python bench/nd_solve.py proof --sizes 2 3 4          # proof-search nodes from the empty board
    .venv/bin/python bench/nd_solve.py depth --board 5x5 --stones 14 12 10 --samples 20 --budget 2000000
    .venv/bin/python bench/nd_solve.py compare --stones 13 11 9 7 5 --samples 6 --budget 2000000
    .venv/bin/python bench/nd_solve.py dfpn-check --board 4x4    # df-pn vs every record of the tables
    .venv/bin/python bench/nd_solve.py rate --board 6x6 --openings a6 c3 --nodes 200000   # nodes per CPU s
    .venv/bin/python bench/nd_solve.py solve --board 5x5 --workers 1 2   # the 5x5 openings on 1, 2 workers

* ``build`` runs ``python -m pipeline nd-build`` on a fresh store (a temporary one unless ``--store``)
  and prints the wall time, the CPU time of the whole process tree and the peak resident memory of
  the client and of the largest dask worker (sampled every 0.2 s from /proc), with the stage records.
* ``legality`` compares :func:`pipeline.naked_diagonal.kernels.legal_masks` with
  :func:`unitile_py.naked_diagonal.legality.legal_masks` on every record of a solved size's tables
  (``--board``; with ``--images`` on every position, each record's distinct images under the four maps
  that keep the players), on the positions of seeded random games (``--random``) or on seeded random
  boards without a naked diagonal, NDE regions included (``--boards``). Every disagreement is printed
  and appended to ``--disagreements`` (default /tmp/notes/nd-disagreements.txt), one position and the
  point per line.
* ``forward`` solves the board forward from the empty board with unitile_py's ``Game`` alone (negamax
  with a memo on positions up to symmetry: the fastest win, the longest loss) and compares every
  position it solved with the committed tables; ``--outcome-only`` stops at the first winning move
  (win or loss of the empty board only, much faster).
* ``proof`` and ``depth`` measure the proof search of ``nd-prove``: nodes to solve the empty board of
  small boards, and nodes to solve random positions with a given number of stones (for the cost model
  in docs/naked-diagonal-solve.md).
* ``compare`` runs the alpha-beta search and df-pn (``nd-prove --search``) on the same positions: the
  ``depth`` positions (same seed, same games) and the 4x4 empty board; each search in its own process
  (its peak resident memory is its own), a fresh legality memo per position; nodes, nodes per CPU
  second, CPU and wall seconds per position and in all.
* ``solve`` runs ``nd-prove`` (df-pn, every first placement, no store) on 1 and then 2 local dask
  workers: nodes, nodes per CPU second of the process tree, wall and CPU seconds, peak memory of the
  client and the largest worker, and checks that the answers agree.
* ``empty`` proves the empty board of each size by df-pn (its defaults, or ``--plain``): nodes, CPU
  seconds, nodes per CPU second and peak memory, against the bound of 600,000 nodes on 5x5 (exit
  status 1 above it).
* ``rate`` runs df-pn (its defaults) for ``--nodes`` nodes from each opening (the first placement, the
  other side to move), a fresh table of ``--slots`` slots and a fresh memo each, and prints nodes per
  CPU second (the numba compile excluded), the table's entries and the peak memory; exit status 1 when
  the rate of all openings together is below ``--bound`` (issue 48: 50,000 on 6x6; 0: none).
* ``dfpn-check`` proves every record of a solved size's tables with one df-pn search and compares the
  outcome.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import random
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from unitile_py.errors import NakedDiagonalError  # noqa: E402
from unitile_py.naked_diagonal.game import Game  # noqa: E402
from unitile_py.naked_diagonal.grid import Grid  # noqa: E402
from unitile_py.naked_diagonal.legality import legal_masks  # noqa: E402
from unitile_py.naked_diagonal.position import Position  # noqa: E402
from unitile_py.naked_diagonal.rules import forming  # noqa: E402
from unitile_py.naked_diagonal.tables import NDTables  # noqa: E402

PY = sys.executable


def size_of(board: str) -> int:
    """N of NxN."""
    return int(board.lower().split("x")[0])


# build ------------------------------------------------------------------------------------------


def _tree(root: int) -> list[int]:
    """The process ids of ``root`` and its descendants now alive."""
    kids: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as f:
                    ppid = int(f.read().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            kids.setdefault(ppid, []).append(int(entry))
    out, todo = [], [root]
    while todo:
        p = todo.pop()
        out.append(p)
        todo.extend(kids.get(p, []))
    return out


def _rss_mib(pid: int) -> float:
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


def run_sampled(cmd: list[str], capture_stderr: bool = False) -> tuple[int, str, dict[str, float]]:
    """Run ``cmd`` in the repository, sampling the resident memory of its process (``client``) and of its
    descendants (``worker``) every 0.2 s: ``(exit status, standard error if captured, peak MiB)``."""
    peak = {"client": 0.0, "worker": 0.0}
    proc = subprocess.Popen(cmd, cwd=ROOT, stderr=subprocess.PIPE if capture_stderr else None, text=True)
    done = threading.Event()

    def sample() -> None:
        while not done.is_set():
            for pid in _tree(proc.pid):
                key = "client" if pid == proc.pid else "worker"
                peak[key] = max(peak[key], _rss_mib(pid))
            time.sleep(0.2)

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    _, err = proc.communicate()
    done.set()
    sampler.join()
    return proc.returncode, err or "", peak


def cmd_build(args: argparse.Namespace) -> int:
    """Time and memory of a fresh build."""
    with tempfile.TemporaryDirectory() as tmp:
        store = args.store or str(Path(tmp) / "solve.zarr")
        tables = args.tables or str(Path(tmp) / "tables")
        cmd = [PY, "-m", "pipeline.naked_diagonal", "nd-build", "--board", args.board, "--store", store,
               "--tables", tables, "--quiet", *args.extra]
        t0 = time.perf_counter()
        status, err, peak = run_sampled(cmd, capture_stderr=True)
        wall = time.perf_counter() - t0
        import resource

        cpu = resource.getrusage(resource.RUSAGE_CHILDREN)
        print(err, end="")
        print(json.dumps({
            "board": args.board,
            "status": status,
            "wall_seconds": round(wall, 1),
            "cpu_seconds_process_tree": round(cpu.ru_utime + cpu.ru_stime, 1),
            "peak_rss_mib": {k: round(v, 1) for k, v in peak.items()},
            "load_average": os.getloadavg(),
        }, indent=1))
        if args.tables:
            print(f"tables in {tables}")
        return status


# solve -------------------------------------------------------------------------------------------


def cmd_solve(args: argparse.Namespace) -> int:
    """``nd-prove`` of every first placement (df-pn, no store) on 1 and then 2 local dask workers: nodes,
    nodes per CPU second, wall and process-tree CPU seconds, peak resident memory of the client and of
    the largest worker, the answer (the same on both)."""
    import resource

    answers = set()
    for workers in args.workers:
        with tempfile.TemporaryDirectory() as tmp:
            out = Path(tmp) / "result.json"
            cmd = [PY, "-m", "pipeline", "nd-prove", "--board", args.board, "--split", "1", "--no-store",
                   "--quiet", "--workers", str(workers), "--out", str(out)]
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            load = os.getloadavg()
            t0 = time.perf_counter()
            status, err, peak = run_sampled(cmd, capture_stderr=True)
            wall = time.perf_counter() - t0
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            if status != 0:
                print(err, end="")
                return status
            result = json.loads(out.read_text())
        cpu = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
        answers.add((result["empty_board"], json.dumps(result["first_placements"], sort_keys=True)))
        print(json.dumps({
            "board": args.board, "workers": workers, "empty_board": result["empty_board"],
            "nodes": result["nodes"], "nodes_per_cpu_second": round(result["nodes"] / max(cpu, 1e-9)),
            "wall_seconds": round(wall, 1), "cpu_seconds_process_tree": round(cpu, 1),
            "task_cpu_seconds": result["cpu_seconds"],
            "peak_rss_mib": {k: round(v, 1) for k, v in peak.items()},
            "load_average_before": load, "load_average_after": os.getloadavg(),
        }), flush=True)
    if len(answers) != 1:
        print("DISAGREE: the runs gave different answers")
        return 1
    return 0


# legality ----------------------------------------------------------------------------------------


def legality_positions(args: argparse.Namespace) -> list[Position]:
    """The positions ``legality`` compares (see the module docstring)."""
    positions: list[Position] = []
    rng = random.Random(args.seed)
    if args.boards:
        for n in args.sizes:
            grid = Grid.get(n)
            count = 0
            while count < args.boards:
                fill = rng.random()
                cells = [rng.random() < fill for _ in range(grid.size)]
                red = sum(1 << p for p in range(grid.size) if cells[p] and rng.random() < 0.5)
                blue = sum(1 << p for p in range(grid.size) if cells[p] and not red >> p & 1)
                try:
                    positions.append(Position(grid, red, blue, "r"))
                except NakedDiagonalError:
                    continue  # a naked diagonal: no such position
                count += 1
    elif args.random:
        for n in args.sizes:
            count = 0
            while count < args.random:
                game = Game(Position.empty(n))
                while not game.is_over() and count < args.random:
                    positions.append(game.position)
                    count += 1
                    game.push(rng.choice(game.legal_moves()))
    else:
        n = size_of(args.board)
        tables = NDTables.load(n, args.tables) if args.tables else NDTables.load(n)
        grid = Grid.get(n)
        keep = [s for s in grid.symmetries if not s.swaps_edges]
        for tier in tables.tiers.values():
            for key in tier.keys:
                red, blue = key & grid.full, key >> grid.size & grid.full
                turn = "b" if key >> (2 * grid.size) & 1 else "r"
                position = Position(grid, red, blue, turn)
                if args.images:
                    seen = {str(position.transform(s)): position.transform(s) for s in keep}
                    positions.extend(seen.values())
                else:
                    positions.append(position)
    return positions


def cmd_legality(args: argparse.Namespace) -> int:
    """numba vs unitile_py legality."""
    from pipeline.naked_diagonal import kernels as k
    from pipeline.naked_diagonal.geometry import Geometry

    positions = legality_positions(args)
    agree = differ = blocked = nde_bans = 0
    sizes: dict[str, int] = {}
    t_numba = t_py = 0.0
    out = Path(args.disagreements)
    for position in positions:
        grid = position.grid
        g = Geometry.of(grid.n).args
        memo = k.memo_for(grid.n)
        a = time.process_time()
        mine = k.legal_masks(g, position.red, position.blue, memo)
        b = time.process_time()
        theirs = legal_masks(position)
        c = time.process_time()
        t_numba += b - a
        t_py += c - b
        board = f"{grid.n}x{grid.n}"
        sizes[board] = sizes.get(board, 0) + 1
        if tuple(mine) == theirs:
            agree += 1
            empty = position.empty_points
            blocked += theirs == (0, 0) and bool(empty)
            for own, legal in ((position.red, theirs[0]), (position.blue, theirs[1])):
                nde_bans += (empty & ~forming(grid, own, empty) & ~legal).bit_count()
        else:
            differ += 1
            print(f"differ: {position}: numba {mine}, unitile_py {theirs}")
            out.parent.mkdir(parents=True, exist_ok=True)
            with out.open("a") as f:
                for colour, (m1, m2) in zip("rb", zip(mine, theirs, strict=True), strict=True):
                    for p in Grid.points(int(m1) ^ m2):
                        who = "numba" if int(m1) >> p & 1 else "unitile_py"
                        f.write(f"{position} {grid.name(p)} {colour}: legal for {who} only\n")
    print(json.dumps({"positions": len(positions), "per_board": sizes, "agree": agree, "differ": differ,
                      "with_an_nde_region": blocked, "placements_banned_by_an_nde_area": nde_bans,
                      "numba_cpu_seconds": round(t_numba, 2), "unitile_py_cpu_seconds": round(t_py, 2),
                      "load_average": os.getloadavg()}))
    return 1 if differ else 0


# forward ------------------------------------------------------------------------------------------


def forward(n: int, outcome_only: bool) -> tuple[dict[str, tuple[bool, int]], tuple[bool, int]]:
    """Negamax from the empty board with unitile_py's Game: ``(memo, value of the empty board)``; a value
    is ``(the side to move wins, placements to the end)`` (distance 0 when ``outcome_only``)."""
    sys.setrecursionlimit(10_000)
    grid = Grid.get(n)
    memo: dict[str, tuple[bool, int]] = {}

    def key(position: Position) -> str:
        return min(str(position.transform(s)) for s in grid.symmetries)

    def solve(game: Game) -> tuple[bool, int]:
        position = game.position
        k = key(position)
        if k in memo:
            return memo[k]
        won = game.winner()
        if won is not None:
            result = (won == position.turn, 0)
        else:
            best: tuple[bool, int] | None = None
            for p in game.legal_moves():
                game.push(p)
                child = game.position
                wins, dist = solve(game)
                game.pop()
                mine = (wins if child.turn == position.turn else not wins, dist + 1)
                if best is None or _better(mine, best):
                    best = mine
                if outcome_only and mine[0]:
                    best = (True, 0)
                    break
            assert best is not None, f"{position}: no move and no winner"
            result = (best[0], 0) if outcome_only else best
        memo[k] = result
        return result

    root = solve(Game(Position.empty(n)))
    return memo, root


def _better(a: tuple[bool, int], b: tuple[bool, int]) -> bool:
    if a[0] != b[0]:
        return a[0]
    return a[1] < b[1] if a[0] else a[1] > b[1]


def cmd_forward(args: argparse.Namespace) -> int:
    """Forward search vs the tables."""
    n = size_of(args.board)
    c0, t0 = time.process_time(), time.perf_counter()
    memo, root = forward(n, args.outcome_only)
    cpu, wall = time.process_time() - c0, time.perf_counter() - t0
    tables = NDTables.load(n, args.tables) if args.tables else NDTables.load(n)
    mismatch = 0
    for text, (wins, dist) in memo.items():
        got = tables.outcome(Position.parse(text))
        if (got[0] == "win") != wins or (not args.outcome_only and got[1] != dist):
            mismatch += 1
            if mismatch <= 10:
                print(f"differ: {text}: forward {wins, dist}, tables {got}")
    print(json.dumps({
        "board": args.board,
        "empty_board": {"outcome": "win" if root[0] else "loss", "distance": root[1]},
        "tables": tables.outcome(Position.empty(n)),
        "positions_compared": len(memo),
        "mismatches": mismatch,
        "cpu_seconds": round(cpu, 1),
        "wall_seconds": round(wall, 1),
    }))
    return 1 if mismatch else 0


# proof search ------------------------------------------------------------------------------------


def cmd_proof(args: argparse.Namespace) -> int:
    """Nodes of the proof search from the empty board of small boards."""
    from pipeline.naked_diagonal.proof import ProofSearch

    for n in args.sizes:
        search = ProofSearch(n, args.budget)
        c0 = time.process_time()
        wins = search.wins(0, 0, 0)
        print(json.dumps({"board": f"{n}x{n}", "red_wins": wins, "nodes": search.nodes,
                          "table": search.stored, "cpu_seconds": round(time.process_time() - c0, 2)}))
    return 0


def cmd_empty(args: argparse.Namespace) -> int:
    """df-pn on the empty board of each size, its default settings (or ``--plain``: no starting dn
    factor, no threat lookahead), against the bound of nodes the project set (issue 48: 600,000 on
    5x5); exit status 1 when a size's nodes exceed ``--bound``."""
    import resource

    from pipeline.naked_diagonal.dfpn import DfpnSearch

    over = False
    for n in args.sizes:
        search = DfpnSearch(n, mobility=0, deep=0) if args.plain else DfpnSearch(n)
        c0, w0 = time.process_time(), time.perf_counter()
        wins = search.prove(0, 0, 0)
        cpu = time.process_time() - c0
        bound = args.bound if n == 5 else 0
        over |= bool(bound) and search.nodes > bound
        print(json.dumps({
            "board": f"{n}x{n}", "settings": "plain" if args.plain else "default",
            "red_wins": wins, "nodes": search.nodes, "bound": bound or None,
            "cpu_seconds": round(cpu, 2), "seconds": round(time.perf_counter() - w0, 2),
            "nodes_per_cpu_second": round(search.nodes / max(cpu, 1e-9)),
            "table": search.stored,
            "peak_rss_mib": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024),
            "load_average": os.getloadavg(),
        }), flush=True)
    return 1 if over else 0


def cmd_depth(args: argparse.Namespace) -> int:
    """Nodes to solve random positions with a given number of stones (random legal games)."""
    from pipeline.naked_diagonal.proof import Budget, ProofSearch

    n = size_of(args.board)
    positions = depth_positions(args.board, args.stones, args.samples, args.seed)
    for stones in args.stones:
        rows = []
        for _, red, blue, turn in (p for p in positions if p[0] == stones):
            search = ProofSearch(n, args.budget)
            c0 = time.process_time()
            try:
                result: bool | None = search.wins(red, blue, turn)
            except Budget:
                result = None
            rows.append((search.nodes, result, time.process_time() - c0))
        nodes = sorted(r[0] for r in rows)
        print(json.dumps({
            "board": args.board, "stones": stones, "samples": len(rows),
            "unknown": sum(r[1] is None for r in rows),
            "nodes_median": nodes[len(nodes) // 2], "nodes_max": nodes[-1],
            "nodes_mean": round(sum(nodes) / len(nodes)),
            "cpu_seconds": round(sum(r[2] for r in rows), 1),
        }), flush=True)
    return 0


def depth_positions(board: str, stones_list: list[int], samples: int,
                    seed: int) -> list[tuple[int, int, int, int]]:
    """``(stones, red, blue, turn)`` of the positions ``depth`` measures (seeded random games)."""
    n = size_of(board)
    rng = random.Random(seed)
    out = []
    for stones in stones_list:
        k = 0
        while k < samples:
            game = Game(Position.empty(n))
            while not game.is_over() and len(game.moves) < stones:
                game.push(rng.choice(game.legal_moves()))
            if game.is_over():
                continue
            p = game.position
            out.append((stones, p.red, p.blue, int(p.turn == "b")))
            k += 1
    return out


def cmd_compare_one(args: argparse.Namespace) -> int:
    """One search on the ``compare`` positions (run by ``compare`` in a process of its own)."""
    import resource

    from pipeline.naked_diagonal import kernels
    from pipeline.naked_diagonal.dfpn import DfpnSearch
    from pipeline.naked_diagonal.proof import Budget, ProofSearch

    cases = [(f"{args.board} {s} stones", size_of(args.board), r, b, t)
             for s, r, b, t in depth_positions(args.board, args.stones, args.samples, args.seed)]
    cases.append(("4x4 empty", 4, 0, 0, 0))
    # Compile first, so that no position pays for it.
    for n in sorted({c[1] for c in cases}):
        DfpnSearch(n, slots=16).prove(0, 0, 0, 10)
        with contextlib.suppress(Budget):
            ProofSearch(n, 10, slots=16).wins(0, 0, 0)
    for name, n, red, blue, turn in cases:
        kernels._MEMOS.clear()
        c0, t0 = time.process_time(), time.perf_counter()
        result: bool | None
        if args.search == "dfpn":
            search = DfpnSearch(n)
            result = search.prove(red, blue, turn, args.budget)
            nodes, table = search.nodes, search.table.nbytes
        else:
            ab = ProofSearch(n, args.budget)
            try:
                result = ab.wins(red, blue, turn)
            except Budget:
                result = None
            nodes, table = ab.nodes, ab.table.nbytes
        cpu, wall = time.process_time() - c0, time.perf_counter() - t0
        print(json.dumps({"case": name, "search": args.search, "wins": result, "nodes": nodes,
                          "cpu_seconds": round(cpu, 3), "seconds": round(wall, 3),
                          "table_mib": round(table / 2**20)}), flush=True)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(json.dumps({"search": args.search, "peak_mib": round(peak)}), flush=True)
    return 0


def cmd_compare(args: argparse.Namespace) -> int:
    """Alpha-beta and df-pn on the same positions, each in its own process (see the module docstring)."""
    rows: dict[str, list[dict[str, object]]] = {}
    peaks = {}
    print(f"load average before: {os.getloadavg()}", flush=True)
    for search in ("alphabeta", "dfpn"):
        cmd = [PY, __file__, "compare-one", "--search", search, "--board", args.board, "--samples",
               str(args.samples), "--budget", str(args.budget), "--seed", str(args.seed), "--stones",
               *map(str, args.stones)]
        out = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, check=True).stdout
        for line in out.splitlines():
            row = json.loads(line)
            if "peak_mib" in row:
                peaks[search] = row["peak_mib"]
            else:
                rows.setdefault(search, []).append(row)
                print(line, flush=True)
    print(f"load average after: {os.getloadavg()}", flush=True)
    ab, df = rows["alphabeta"], rows["dfpn"]
    for x, y in zip(ab, df, strict=True):
        if x["wins"] is not None and y["wins"] is not None and x["wins"] != y["wins"]:
            print(f"DISAGREE on {x['case']}: alpha-beta {x['wins']}, df-pn {y['wins']}")
            return 1
    print("| positions | search | solved | nodes (median) | nodes (sum) | CPU s | wall s | nodes/CPU s |")
    print("|---|---|---:|---:|---:|---:|---:|---:|")
    for case in dict.fromkeys(str(r["case"]) for r in ab):
        for search, got in (("alpha-beta", ab), ("df-pn", df)):
            sel = [r for r in got if r["case"] == case]
            nodes = sorted(int(str(r["nodes"])) for r in sel)
            cpu = sum(float(str(r["cpu_seconds"])) for r in sel)
            wall = sum(float(str(r["seconds"])) for r in sel)
            solved = sum(r["wins"] is not None for r in sel)
            print(f"| {case} ({len(sel)}) | {search} | {solved} | {nodes[len(nodes) // 2]:,} "
                  f"| {sum(nodes):,} | {cpu:.2f} | {wall:.2f} | {sum(nodes) / max(cpu, 1e-9):,.0f} |")
    print(f"peak resident memory (MiB): alpha-beta {peaks.get('alphabeta')}, df-pn {peaks.get('dfpn')}")
    return 0


def cmd_rate(args: argparse.Namespace) -> int:
    """df-pn's nodes per CPU second from the first placements ``--openings`` (see the module docstring)."""
    import resource

    from pipeline.naked_diagonal.dfpn import DfpnSearch
    from unitile_py.coords import parse_cell

    n = size_of(args.board)
    DfpnSearch(n, slots=16).prove(0, 0, 0, 10)  # the numba compile, outside the measurement
    nodes = 0
    cpu = 0.0
    for name in args.openings:
        point = parse_cell(name, n, n, "opening")
        search = DfpnSearch(n, slots=args.slots)
        c0 = time.process_time()
        wins = search.prove(1 << point, 0, 1, args.nodes)
        spent = time.process_time() - c0
        nodes, cpu = nodes + search.nodes, cpu + spent
        print(json.dumps({"board": args.board, "opening": name, "blue_wins": wins, "nodes": search.nodes,
                          "cpu_seconds": round(spent, 2),
                          "nodes_per_cpu_second": round(search.nodes / max(spent, 1e-9)),
                          "table": search.stored,
                          "peak_rss_mib": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024),
                          "load_average": os.getloadavg()}), flush=True)
    rate = nodes / max(cpu, 1e-9)
    print(json.dumps({"board": args.board, "nodes": nodes, "cpu_seconds": round(cpu, 2),
                      "nodes_per_cpu_second": round(rate), "bound": args.bound or None}))
    return 1 if args.bound and rate < args.bound else 0


def cmd_dfpn_check(args: argparse.Namespace) -> int:
    """df-pn's outcome of every record of a solved size's tables against the tables."""
    from pipeline.naked_diagonal.dfpn import DfpnSearch

    n = size_of(args.board)
    tables = NDTables.load(n, args.tables) if args.tables else NDTables.load(n)
    size = n * n
    full = (1 << size) - 1
    search = DfpnSearch(n, slots=args.slots)
    c0, t0 = time.process_time(), time.perf_counter()
    records = mismatches = 0
    for tier in tables.tiers.values():
        for key, value in zip(tier.keys, tier.values, strict=True):
            got = search.prove(key & full, key >> size & full, key >> (2 * size) & 1)
            records += 1
            if got is not bool(value & 1):
                mismatches += 1
                print(f"MISMATCH key {key}: df-pn {got}, tables {'win' if value & 1 else 'loss'}")
    print(json.dumps({"board": args.board, "records": records, "mismatches": mismatches,
                      "nodes": search.nodes, "cpu_seconds": round(time.process_time() - c0, 1),
                      "seconds": round(time.perf_counter() - t0, 1), "load": os.getloadavg()}))
    return 1 if mismatches else 0


def main() -> int:
    """Entry point."""
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="command", required=True)
    b = sub.add_parser("build")
    b.add_argument("--board", default="4x4")
    b.add_argument("--store")
    b.add_argument("--tables")
    b.add_argument("extra", nargs="*", help="more nd-build options (after --)")
    b.set_defaults(func=cmd_build)
    lg = sub.add_parser("legality")
    lg.add_argument("--board", default="4x4")
    lg.add_argument("--tables", help="tables directory (default: the committed ones)")
    lg.add_argument("--random", type=int, default=0, help="positions of random games per size instead")
    lg.add_argument("--boards", type=int, default=0,
                    help="random boards without a naked diagonal per size instead (NDE regions included)")
    lg.add_argument("--images", action="store_true", help="every image of every record (all positions)")
    lg.add_argument("--sizes", type=int, nargs="*", default=[5, 6, 7])
    lg.add_argument("--seed", type=int, default=1)
    lg.add_argument("--disagreements", default="/tmp/notes/nd-disagreements.txt",
                    help="file the disagreements are appended to")
    lg.set_defaults(func=cmd_legality)
    f = sub.add_parser("forward")
    f.add_argument("--board", default="4x4")
    f.add_argument("--tables")
    f.add_argument("--outcome-only", action="store_true")
    f.set_defaults(func=cmd_forward)
    pr = sub.add_parser("proof")
    pr.add_argument("--sizes", type=int, nargs="*", default=[2, 3, 4])
    pr.add_argument("--budget", type=int, default=0)
    pr.set_defaults(func=cmd_proof)
    e = sub.add_parser("empty")
    e.add_argument("--sizes", type=int, nargs="*", default=[4, 5])
    e.add_argument("--plain", action="store_true", help="the search before the dn factor and lookahead")
    e.add_argument("--bound", type=int, default=600_000, help="most nodes on 5x5 (0: none)")
    e.set_defaults(func=cmd_empty)
    d = sub.add_parser("depth")
    d.add_argument("--board", default="5x5")
    d.add_argument("--stones", type=int, nargs="*", default=[16, 14, 12])
    d.add_argument("--samples", type=int, default=10)
    d.add_argument("--budget", type=int, default=2_000_000)
    d.add_argument("--seed", type=int, default=1)
    d.set_defaults(func=cmd_depth)
    for name, func in (("compare", cmd_compare), ("compare-one", cmd_compare_one)):
        c = sub.add_parser(name)
        c.add_argument("--board", default="5x5")
        c.add_argument("--stones", type=int, nargs="*", default=[13, 11, 9, 7, 5])
        c.add_argument("--samples", type=int, default=6)
        c.add_argument("--budget", type=int, default=2_000_000)
        c.add_argument("--seed", type=int, default=1)
        c.add_argument("--search", default="dfpn", help="compare-one only: alphabeta or dfpn")
        c.set_defaults(func=func)
    sv = sub.add_parser("solve")
    sv.add_argument("--board", default="5x5")
    sv.add_argument("--workers", type=int, nargs="+", default=[1, 2])
    sv.set_defaults(func=cmd_solve)
    rt = sub.add_parser("rate")
    rt.add_argument("--board", default="6x6")
    rt.add_argument("--openings", nargs="+", default=["a6", "c3"])
    rt.add_argument("--nodes", type=int, default=200_000)
    rt.add_argument("--slots", type=int, default=1 << 22, help="df-pn table slots")
    rt.add_argument("--bound", type=int, default=50_000, help="fewest nodes per CPU second (0: none)")
    rt.set_defaults(func=cmd_rate)
    dc = sub.add_parser("dfpn-check")
    dc.add_argument("--board", default="4x4")
    dc.add_argument("--tables", help="tables directory (default: the committed ones)")
    dc.add_argument("--slots", type=int, default=1 << 22, help="df-pn table slots")
    dc.set_defaults(func=cmd_dfpn_check)
    args = p.parse_args()
    return int(args.func(args))


if __name__ == "__main__":
    sys.exit(main())
