"""The site in headless chromium: cold and warm load to a playable board, bytes sent on the first
visit, and the time each computer level takes per move in the browser's worker.

    .venv/bin/python bench/browser.py [--runs 3] [--positions 8] [--json out.json]

Cold: a fresh browser context (empty HTTP cache, no service worker). Warm: the same context after
the service worker has cached the build, reloading the page. Playable means the board is drawn
with its legal slides (the page's own mark, milliseconds since the navigation started). Move times
are the worker's own time for ``computer_move`` (what the page waits for), over positions from a
seeded game. The targets: cold <= 3 s, warm <= 1 s (issue 15), level 6 < 50 ms, level 5 < 1 s (issue 6).
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


def load_times(browser: Any, server: Any, runs: int) -> dict[str, Any]:
    cold, warm, first_bytes, steps = [], [], [], []
    for _ in range(runs):
        context = browser.new_context()
        page = context.new_page()
        before = server.bytes_sent
        page.goto(server.url)
        cold.append(wait_for(page, "window.unitile && window.unitile.timings.playable"))
        first_bytes.append(server.bytes_sent - before)
        steps.append(page.evaluate("window.unitile.timings.worker"))
        wait_for(page, CACHED)
        for _ in range(2):
            page.reload()
            warm.append(wait_for(page, "window.unitile && window.unitile.timings.playable"))
        context.close()
    return {
        "cold_ms": cold,
        "warm_ms": warm,
        "cold_median_ms": statistics.median(cold),
        "warm_median_ms": statistics.median(warm),
        "first_visit_bytes": statistics.median(first_bytes),
        "cold_worker_steps": steps,
    }


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
        page.evaluate("window.unitile.calls.length = 0")
        page.evaluate(
            """async ([games, level]) => {
              for (const [i, game] of games.entries()) {
                await window.unitile.call('computer_move', { game, level, seed: i });
              }
            }""",
            [games, level],
        )
        ms = [c["ms"] for c in page.evaluate("window.unitile.calls") if c["op"] == "computer_move"]
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


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3, help="cold loads (each followed by two warm ones)")
    parser.add_argument("--positions", type=int, default=8, help="positions per computer level")
    parser.add_argument("--json", type=Path, help="also write the results here")
    args = parser.parse_args(argv)
    if not CHROMIUM.exists():
        print("bench/browser.py: /usr/bin/chromium is missing (apt-get install chromium)", file=sys.stderr)
        return 2
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as tmp:
        built = build_module.build(Path(tmp) / "site")
        server = serve_module.SiteServer(built.out).start()
        try:
            with sync_playwright() as pw:
                browser = pw.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
                results = {
                    "load_average": os.getloadavg(),
                    "build_bytes": built.total_bytes,
                    **load_times(browser, server, args.runs),
                    "moves": move_times(browser, server, args.positions),
                }
                browser.close()
        finally:
            server.stop()
    load, size = results["load_average"][0], results["build_bytes"] / 1e6
    print(f"load average {load:.1f} (2 cores); build {size:.2f} MB")
    print(f"first visit: {results['first_visit_bytes'] / 1e6:.2f} MB sent by the server")
    print(f"cold load to playable: median {results['cold_median_ms']:.0f} ms  {results['cold_ms']}")
    print(f"warm load to playable: median {results['warm_median_ms']:.0f} ms  {results['warm_ms']}")
    names = ("python", "fetched", "imported", "tables", "snapshot", "total")
    runs = results["cold_worker_steps"]
    medians = {n: statistics.median(r[n] for r in runs) for n in names if all(n in r for r in runs)}
    print("cold, in the worker (ms since it started, medians):", {n: round(v) for n, v in medians.items()})
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
    if args.json:
        args.json.write_text(json.dumps(results, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
