"""The site in headless chromium: cold and warm load to a playable board, bytes sent on the first
visit, and the time each computer level takes per move in the browser's worker; for Naked Diagonal
too (its page, levels 1-5 on 9x9, and the time from a tap on a banned point to the ban drawn).

    .venv/bin/python bench/browser.py [--runs 5] [--positions 8] [--game both|unitile|nd] [--loads-only]
                                      [--json out.json]
    .venv/bin/python bench/browser.py --budgets 5,9,13 [--positions 6]
    .venv/bin/python bench/browser.py --phone [--runs 1] [--window 60] [--site OTHER_BUILD]

``--phone``: only the first visit of each play page on a phone over 4G, on Debian's stock nginx with
gzip_static on and off (bench/phone.py).

``--budgets``: only the worst time of Naked Diagonal's search levels 2-5 and of its hint per board
size, in the worker (the Python time of the request, its slices summed, and the wall time from its
arrival to its reply), over the empty board and positions of seeded games of each size.

Cold: a fresh browser context (empty HTTP cache, no service worker); its board drawn is the page's
mark ``board-drawn`` (the start, before Python), and it reports the bytes the server sent until the
board was playable and until the service worker had cached the whole build (the offline copy).
Warm: the same context after the service worker has cached the build, reloading the page.
Playable means the board is drawn with its legal slides (the page's own mark, milliseconds since
the navigation started), the page saying "Red to move". Move times are the worker's own time for
``computer_move`` (what the page waits for), over positions from a seeded game. The targets: cold
<= 2 s to "Red to move" and the board drawn within 0.5 s (issue 34), warm <= 1 s (issue 15), level 6
< 50 ms, level 5 < 1 s (issue 6); Naked Diagonal's strongest level <= 2 s per move on 9x9 (issue 16).

Naked Diagonal's bans: on positions of seeded 9x9 games, a tap (a click event) on every empty point
where the side to move may not place, timed until the page has drawn the ban (``unitileBanShown``,
set once the board shows it) and until the next animation frame after that; with the worker's own
time for ``nd_explain``. The NDE and BAD positions of the rules page (5x5) are tapped too.
The machine's load average is printed too: other work on its 2 cores slows everything here.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench import phone  # noqa: E402
from tests.browser.conftest import ARGS, CHROMIUM, load_site_module  # noqa: E402

build_module = load_site_module("build")
serve_module = load_site_module("serve")


def wait_for(page: Any, expression: str, timeout: float = 60.0) -> Any:
    """Poll a JavaScript expression until it is truthy (string predicates would break the CSP)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = page.evaluate(expression)
        if value:
            return value
        time.sleep(0.01)
    raise TimeoutError(f"{expression} stayed false for {timeout} s")


CACHED = """(async () => {
  if (!navigator.serviceWorker.controller) return false;
  const info = await (await fetch('build.json')).json();
  const keys = await (await caches.open('unitile-' + info.version)).keys();
  return keys.length >= Object.keys(info.files).length + 2;
})()"""


DRAWN = "(performance.getEntriesByName('board-drawn')[0] || {}).startTime"


def load_times(browser: Any, server: Any, runs: int, path: str = "") -> dict[str, Any]:
    """Cold loads (a fresh context each), each followed by two warm ones: when the board was drawn
    (the page's mark, before Python), when it was playable with "Red to move", the bytes sent until
    then and until the service worker had cached the whole build."""
    cold, warm, drawn, first_bytes, all_bytes, steps = [], [], [], [], [], []
    for _ in range(runs):
        context = browser.new_context()
        page = context.new_page()
        before = server.bytes_sent
        page.goto(server.url + path)
        cold.append(wait_for(page, "window.unitile && window.unitile.timings.playable"))
        first_bytes.append(server.bytes_sent - before)
        turn = page.evaluate("document.getElementById('turn').textContent")
        if turn != "Red to move":
            raise RuntimeError(f"{path or 'index.html'}: the page says {turn!r}, not 'Red to move'")
        drawn.append(page.evaluate(DRAWN))
        steps.append(page.evaluate("window.unitile.timings.worker"))
        wait_for(page, CACHED)
        all_bytes.append(server.bytes_sent - before)
        for _ in range(2):
            page.reload()
            warm.append(wait_for(page, "window.unitile && window.unitile.timings.playable"))
        context.close()
    return {
        "cold_ms": cold,
        "warm_ms": warm,
        "drawn_ms": drawn,
        "cold_median_ms": statistics.median(cold),
        "warm_median_ms": statistics.median(warm),
        "drawn_median_ms": statistics.median(d for d in drawn if d is not None) if any(drawn) else None,
        "first_visit_bytes": statistics.median(first_bytes),
        "first_visit_cached_bytes": statistics.median(all_bytes),
        "cold_worker_steps": steps,
    }


def computer_ms(page: Any, games: list[dict[str, Any]], level: int, op: str) -> list[float]:
    """The worker's time (ms) for each of ``games`` of the request ``op``, a computer move at ``level``."""
    page.evaluate("window.unitile.calls.length = 0")
    page.evaluate(
        """async ([games, level, op]) => {
          for (const [i, game] of games.entries()) await window.unitile.call(op, { game, level, seed: i });
        }""",
        [games, level, op],
    )
    return [c["ms"] for c in page.evaluate("window.unitile.calls") if c["op"] == op]


def move_times(browser: Any, server: Any, positions: int) -> dict[str, Any]:
    context = browser.new_context(service_workers="block")
    page = context.new_page()
    page.goto(server.url)
    wait_for(page, "window.unitile && window.unitile.timings.playable")
    if not page.evaluate("window.unitile.info.players"):
        context.close()
        return {"error": "this build has no tables, so no computer players"}
    # Positions along a seeded level-3 self-play game: the early, middle and late game.
    games = page.evaluate(
        """async (n) => {
          let game = { start: null, moves: [] };
          const out = [];
          for (let i = 0; i < 200 && out.length < n; i++) {
            const st = await window.unitile.call('state', { game });
            if (st.over) break;
            if (i % 3 === 0) out.push(game);
            const move = await window.unitile.call('computer_move', { game, level: 3, seed: i });
            game = await window.unitile.call('play', { game, move });
          }
          return out;
        }""",
        positions,
    )
    out: dict[str, Any] = {"positions": len(games)}
    for level in range(1, 7):
        ms = computer_ms(page, games, level, "computer_move")
        out[f"level{level}"] = {"mean_ms": statistics.mean(ms), "max_ms": max(ms)}
    page.evaluate("window.unitile.calls.length = 0")
    page.evaluate(
        """async (games) => {
          for (const game of games) await window.unitile.call('state', { game, analysis: true });
        }""",
        games,
    )
    ms = [c["ms"] for c in page.evaluate("window.unitile.calls") if c["op"] == "state"]
    out["analysis"] = {"mean_ms": statistics.mean(ms), "max_ms": max(ms)}
    context.close()
    return out


ND_SETTINGS = "localStorage.setItem('nd.settings.v1', JSON.stringify({r: 'human', b: 'human', size: '9'}))"


def nd_games(page: Any, positions: int, size: int = 9, every: int = 6) -> list[dict[str, Any]]:
    """The empty ``size`` board and positions every ``every`` plies along seeded level-2 games of that
    size (start to end)."""
    return list(
        page.evaluate(
            """async ([n, count, every]) => {
              const out = [{ size: n, start: null, moves: [] }];
              for (let seed = 1; out.length < count && seed < 20; seed++) {
                let game = { size: n, start: null, moves: [] };
                for (let i = 1; out.length < count; i++) {
                  const st = await window.unitile.call('nd_state', { game });
                  if (st.over) break;
                  const args = { game, level: 2, seed: seed * 100 + i };
                  const move = await window.unitile.call('nd_computer_move', args);
                  game = await window.unitile.call('nd_play', { game, move });
                  if (i % every === 0) out.push(game);
                }
              }
              return out;
            }""",
            [size, positions, every],
        )
    )


TAP = """async (name) => {
  const before = window.unitileBanShown();
  const cell = document.querySelector(`#board [role="gridcell"][data-cell="${name}"]`);
  const t0 = performance.now();
  cell.click();
  while (window.unitileBanShown() === before) await new Promise((r) => setTimeout(r, 0));
  const drawn = window.unitileBanShown() - t0;
  await new Promise((r) => requestAnimationFrame(() => r()));
  return { drawn, frame: performance.now() - t0, kind: document.getElementById('board').dataset.ban };
}"""


def nd_page(browser: Any, server: Any) -> tuple[Any, Any]:
    """A fresh context (no service worker) and its page, with Naked Diagonal's page loaded and playable
    under :data:`ND_SETTINGS`."""
    context = browser.new_context(service_workers="block")
    page = context.new_page()
    page.goto(server.url + "about.html")
    page.evaluate(ND_SETTINGS)
    page.goto(server.url + "nd.html")
    wait_for(page, "window.unitile && window.unitile.timings.playable")
    return context, page


def nd_times(browser: Any, server: Any, positions: int) -> dict[str, Any]:
    """Naked Diagonal on 9x9: the worker's time per computer move at each level, and the bans."""
    context, page = nd_page(browser, server)
    games = nd_games(page, positions)
    levels = page.evaluate("window.unitile.info.levels")
    plies = [len(g["moves"]) for g in games]
    out: dict[str, Any] = {"positions": len(games), "plies": plies, "levels": levels}
    for level in levels:
        ms = computer_ms(page, games, level, "nd_computer_move")
        out[f"level{level}"] = {"mean_ms": statistics.mean(ms), "max_ms": max(ms), "empty_board_ms": ms[0]}
    # Bans: every refused empty point of the positions (in the page, as a player taps them).
    taps: list[dict[str, Any]] = []
    fragments = [f"#n=9&m={'.'.join(g['moves'])}" for g in games[1:]]
    fragments += ["#n=5&p=RR..R/...../.BBBR/.B.../..R.B%20r", "#n=5&p=....R/..R.B/..B.B/..RR./.....%20b"]
    for fragment in fragments:
        page.goto(server.url + "about.html")
        page.evaluate("localStorage.removeItem('nd.game.v1')")
        page.goto(server.url + "nd.html" + fragment)
        wait_for(page, "window.unitile && window.unitile.timings.playable && !window.unitile.pendingCount()")
        st = page.evaluate("window.unitile.state")
        names = page.evaluate("[...document.querySelectorAll('#board .spot')].map(c => c.dataset.cell)")
        refused = [n for i, n in enumerate(names) if st["points"][i] == "." and n not in st["legal"]]
        if fragment.startswith("#n=5"):
            refused = [n for n in refused if n in ("d1", "c5")]
        page.evaluate("window.unitile.calls.length = 0")
        for name in refused:
            taps.append({**page.evaluate(TAP, name), "point": name})
        worker = [c["ms"] for c in page.evaluate("window.unitile.calls") if c["op"] == "nd_explain"]
        for tap, ms in zip(taps[len(taps) - len(refused) :], worker, strict=True):
            tap["worker_ms"] = ms
    context.close()
    out["bans"] = taps
    out["games"] = games
    return out


def nd_budgets(browser: Any, server: Any, sizes: list[int], positions: int) -> dict[str, Any]:
    """The worker's time for Naked Diagonal's search levels 2-5 and the hint on each size: for each,
    ``{"ms": [...], "wall": [...], "hurried": [...]}`` over the positions (Python time, arrival to
    reply, and whether the worker's deadline cut the search short)."""
    context, page = nd_page(browser, server)
    out: dict[str, Any] = {}
    for size in sizes:
        games = nd_games(page, positions, size, every=max(2, size * size // 8))
        row: dict[str, Any] = {"positions": len(games)}
        for name, op, level in [*((f"level{lv}", "nd_computer_move", lv) for lv in (2, 3, 4, 5)),
                                ("hint", "nd_hint", None)]:
            page.evaluate("window.unitile.calls.length = 0")
            page.evaluate(
                """async ([games, level, op]) => {
                  for (const [i, game] of games.entries()) {
                    await window.unitile.call(op, level === null ? { game } : { game, level, seed: i });
                  }
                }""",
                [games, level, op],
            )
            calls = [c for c in page.evaluate("window.unitile.calls") if c["op"] == op]
            row[name] = {key: [c[key] for c in calls] for key in ("ms", "wall", "hurried")}
        out[str(size)] = row
    out["latency"] = page.evaluate(LATENCY)
    context.close()
    return out


#: Round trips of a short request (nd_state) with the worker idle, then while it searches level 5's
#: move on the empty 13x13 board (answered between two slices of the search).
LATENCY = """async () => {
  const u = window.unitile;
  const game = { size: 13, start: null, moves: [] };
  const trip = async () => {
    const t0 = performance.now();
    await u.call('nd_state', { game });
    return performance.now() - t0;
  };
  const idle = [];
  for (let i = 0; i < 20; i++) idle.push(await trip());
  let done = false;
  const move = u.call('nd_computer_move', { game, level: 5, seed: 1 }).then(() => { done = true; });
  const busy = [];
  while (!done) {
    const ms = await trip();
    if (!done) busy.push(ms);
  }
  await move;
  return { idle, busy };
}"""


def print_budgets(results: dict[str, Any]) -> None:
    """A Markdown table of the worst (and mean) time per level and size."""
    budgets = dict(results["nd_budgets"])
    latency = budgets.pop("latency")
    names = ["level2", "level3", "level4", "level5", "hint"]
    print("| size | positions | " + " | ".join(n.replace("level", "level ") for n in names) + " |")
    print("|---" * (len(names) + 2) + "|")
    for size, row in budgets.items():
        cells = [
            f"{max(row[n]['ms']):.0f} ({statistics.mean(row[n]['ms']):.0f})"
            + (f" {sum(row[n]['hurried'])}h" if any(row[n]["hurried"]) else "")
            for n in names
        ]
        print(f"| {size}x{size} | {row['positions']} | " + " | ".join(cells) + " |")
    print("worst Python ms per request (mean in brackets; Nh: N requests cut by the deadline);")
    print("worst wall ms (arrival to reply):")
    for size, row in budgets.items():
        print(f"  {size}x{size}: " + ", ".join(f"{n} {max(row[n]['wall']):.0f}" for n in names))
    print(f"nd_state round trip, worker idle: {summary(latency['idle'])}")
    print(f"nd_state round trip during level 5's search on 13x13: {summary(latency['busy'])} "
          f"({len(latency['busy'])} requests)")


NODE_CPU = r"""
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
const [pyodideDir, root, stdlib, jobs] = process.argv.slice(2);
const { loadPyodide } = await import(pathToFileURL(path.join(pyodideDir, "pyodide.mjs")).href);
const pyodide = await loadPyodide({ indexURL: pyodideDir + path.sep, stdLibURL: stdlib });
const home = "/home/pyodide";
function copy(from, to) {
  pyodide.FS.mkdirTree(to);
  for (const entry of fs.readdirSync(from, { withFileTypes: true })) {
    const source = path.join(from, entry.name);
    if (entry.isDirectory() && entry.name !== "__pycache__") copy(source, `${to}/${entry.name}`);
    else if (entry.isFile()) pyodide.FS.writeFile(`${to}/${entry.name}`, fs.readFileSync(source));
  }
}
copy(path.join(root, "unitile_py"), `${home}/unitile_py`);
pyodide.runPython(`import sys\nsys.path.insert(0, "${home}")`);
pyodide.runPython("from unitile_py.naked_diagonal.webapi import Api\napi = Api()");
pyodide.runPython("import json");
const compute = pyodide.runPython("lambda g, level, seed: api.computer_move(json.loads(g), level, seed)");
const out = [];
try {
  for (const { game, level, seed } of JSON.parse(fs.readFileSync(jobs, "utf8"))) {
    const before = process.cpuUsage();
    const t0 = performance.now();
    compute(JSON.stringify(game), level, seed);
    const cpu = process.cpuUsage(before);
    out.push({ level, cpu_ms: (cpu.user + cpu.system) / 1000, wall_ms: performance.now() - t0 });
  }
} catch (error) {
  console.error(String(error.message || error).slice(-2000)); // node would echo minified source
  process.exit(1);
}
console.log(JSON.stringify(out));
"""


def cpu_times(games: list[dict[str, Any]], levels: list[int]) -> dict[str, Any]:
    """The same computer moves in Pyodide under node (the same WebAssembly engine as chromium) and in
    this CPython, timed in CPU time of the process, which the machine's other work hardly changes."""
    import shutil
    import subprocess

    from unitile_py.naked_diagonal.webapi import Api

    jobs = [{"game": g, "level": level, "seed": i} for level in levels for i, g in enumerate(games)]
    node = shutil.which("node")
    pyodide = ROOT / "node_modules" / "pyodide"
    out: dict[str, Any] = {}
    if node and (pyodide / "pyodide.mjs").exists():
        with tempfile.TemporaryDirectory() as tmp:
            (Path(tmp) / "cpu.mjs").write_text(NODE_CPU)
            (Path(tmp) / "jobs.json").write_text(json.dumps(jobs))
            stdlib = build_module.compiled_stdlib()
            script, listed = str(Path(tmp) / "cpu.mjs"), str(Path(tmp) / "jobs.json")
            args = [node, script, str(pyodide), str(ROOT), str(stdlib), listed]
            done = subprocess.run(args, capture_output=True, text=True, timeout=1800, check=True)
        out["pyodide"] = json.loads(done.stdout.strip().splitlines()[-1])
    api = Api()
    cpython = []
    for job in jobs:
        t0 = time.process_time()
        api.computer_move(job["game"], job["level"], job["seed"])
        cpython.append({"level": job["level"], "cpu_ms": (time.process_time() - t0) * 1000})
    out["cpython"] = cpython
    return out


def summary(values: list[float]) -> str:
    ordered = sorted(values)
    p95 = ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]
    return f"median {statistics.median(values):.1f} ms, p95 {p95:.1f} ms, max {max(values):.1f} ms"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="cold loads (each followed by two warm ones)")
    parser.add_argument("--positions", type=int, default=8, help="positions per computer level")
    parser.add_argument("--game", choices=["both", "unitile", "nd"], default="both")
    parser.add_argument(
        "--cpu", action="store_true", help="Naked Diagonal's moves in CPU time too (Pyodide in node, CPython)"
    )
    parser.add_argument("--json", type=Path, help="also write the results here")
    parser.add_argument("--loads-only", action="store_true", help="only the cold and warm loads")
    parser.add_argument(
        "--budgets", help="only the worst time per Naked Diagonal level and hint on these sizes (5,9,13)"
    )
    parser.add_argument("--phone", action="store_true", help="only the first visits on the phone profile")
    parser.add_argument("--window", type=float, default=60.0, help="--phone: seconds watched per visit")
    parser.add_argument("--site", type=Path, help="measure the site already built there (another version's)")
    args = parser.parse_args(argv)
    if args.phone and args.runs == 5:
        args.runs = 1
    if not CHROMIUM.exists():
        print("bench/browser.py: /usr/bin/chromium is missing (apt-get install chromium)", file=sys.stderr)
        return 2
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as tmp:
        if args.site:  # another build, as it is
            site = args.site
            total = sum(p.stat().st_size for p in site.rglob("*") if p.is_file() and p.suffix != ".gz")
        else:
            built = build_module.build(Path(tmp) / "site")
            site, total = built.out, built.total_bytes
        server = serve_module.SiteServer(site).start()
        try:
            with sync_playwright() as pw:
                browser = pw.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
                results: dict[str, Any] = {"load_average": os.getloadavg(), "build_bytes": total}
                if args.phone:
                    results["phone"] = phone.phone_profile(browser, site, args.runs, args.window)
                    args.game = "none"
                if args.budgets:
                    sizes = [int(v) for v in args.budgets.split(",")]
                    results["nd_budgets"] = nd_budgets(browser, server, sizes, args.positions)
                    args.game = "none"
                if args.game not in ("nd", "none"):
                    results.update(load_times(browser, server, args.runs))
                    if not args.loads_only:
                        results["moves"] = move_times(browser, server, args.positions)
                if args.game not in ("unitile", "none"):
                    results["nd_load"] = load_times(browser, server, args.runs, "nd.html")
                    if not args.loads_only:
                        results["nd"] = nd_times(browser, server, args.positions)
                    if args.cpu:
                        games, levels = results["nd"].pop("games"), results["nd"]["levels"]
                        results["nd_cpu"] = cpu_times(games, levels)
                results["load_average_after"] = os.getloadavg()
                browser.close()
        finally:
            server.stop()
    if args.json:
        args.json.write_text(json.dumps(results, indent=1) + "\n")
    load, size = results["load_average"][0], results["build_bytes"] / 1e6
    after = results["load_average_after"][0]
    print(f"load average {load:.1f} before, {after:.1f} after (2 cores); build {size:.2f} MB")
    if args.budgets:
        print_budgets(results)
    if args.phone:
        phone.print_phone(results["phone"], args.window)
    if args.game not in ("nd", "none"):
        print_load("Unitile", results)
    if args.game not in ("unitile", "none"):
        print_load("Naked Diagonal", results["nd_load"])
    if args.game not in ("unitile", "none") and not args.loads_only:
        print_nd(results)
    if args.game not in ("nd", "none") and not args.loads_only:
        print_unitile(results)
    return 0


def print_load(name: str, load: dict[str, Any]) -> None:
    """A page's loads: medians of the cold ones and of the warm ones, bytes of a first visit."""
    n, drawn = len(load["cold_ms"]), load["drawn_median_ms"]
    shown = "(no mark)" if drawn is None else f"{drawn:.0f} ms"
    cold, warm = load["cold_median_ms"], load["warm_median_ms"]
    first, cached = load["first_visit_bytes"] / 1e6, load["first_visit_cached_bytes"] / 1e6
    print(f"{name}, median of {n} cold loads: board drawn {shown}, Red to move {cold:.0f} ms")
    print(f"    warm (the service worker's copy, the interpreter snapshot): median {warm:.0f} ms")
    print(f"    first visit: {first:.2f} MB sent until playable, {cached:.2f} MB with the offline copy")
    names = ("python", "fetched", "imported", "tables", "snapshot", "total")
    runs = load["cold_worker_steps"]
    medians = {k: statistics.median(r[k] for r in runs) for k in names if all(k in r for r in runs)}
    print("    cold, in the worker (ms since it started, medians):", {k: round(medians[k]) for k in medians})


def print_nd(results: dict[str, Any]) -> None:
    nd = results["nd"]
    n = nd["positions"]
    for level in nd["levels"]:
        m = nd[f"level{level}"]
        print(
            f"Naked Diagonal 9x9 level {level}: mean {m['mean_ms']:.0f} ms, "
            f"max {m['max_ms']:.0f} ms, empty board {m['empty_board_ms']:.0f} ms over {n} positions"
        )
    for where, moves in results.get("nd_cpu", {}).items():
        for level in nd["levels"]:
            ms = [m["cpu_ms"] for m in moves if m["level"] == level]
            print(
                f"    {where} CPU time, level {level}: mean {statistics.mean(ms):.0f} ms, "
                f"max {max(ms):.0f} ms, empty board {ms[0]:.0f} ms"
            )
    bans = nd["bans"]
    for kind in sorted({b["kind"] for b in bans}):
        some = [b for b in bans if b["kind"] == kind]
        print(f"ban {kind} ({len(some)} taps): tap to drawn {summary([b['drawn'] for b in some])}")
        print(f"    tap to the next frame {summary([b['frame'] for b in some])}")
        print(f"    nd_explain in the worker {summary([b['worker_ms'] for b in some])}")


def print_unitile(results: dict[str, Any]) -> None:
    moves = results["moves"]
    if "error" in moves:
        print(f"computer moves: {moves['error']}")
    else:
        for level in range(1, 7):
            m = moves[f"level{level}"]
            n = moves["positions"]
            print(f"level {level}: mean {m['mean_ms']:.1f} ms, max {m['max_ms']:.1f} ms over {n} positions")
        a = moves["analysis"]
        print(f"state with analysis: mean {a['mean_ms']:.1f} ms, max {a['max_ms']:.1f} ms")


if __name__ == "__main__":
    sys.exit(main())
