"""The order of a first visit's downloads (docs/first-visit.md): the worker before the page's modules,
Pyodide's files first, then the page's boot tables while the interpreter starts on the CPU, not after
it has started."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.browser.conftest import held_site, make_context, wait_until


def test_the_worker_starts_before_the_pages_modules_have_come(browser: Any, site_dir: Path) -> None:
    """early.js starts the worker: while the server holds the page's first module, the worker's module
    and its first request (build.json) are already asked for; the page then takes that worker over
    (one request for worker.js) and is playable."""
    paths: list[str] = []
    with held_site(browser, site_dir, "/js/start-worker.js", paths) as (s, gate):
        s.page.goto(s.base, wait_until="commit")
        wait_until(lambda: any(p.startswith("/build.json") for p in paths), "the worker's first request")
        assert not s.js("document.body && document.body.dataset.ready")
        gate.set()
        s.wait_ready()
        assert sum(p.startswith("/js/worker.js") for p in paths) == 1, paths
        assert s.js("window.unitileWorker === undefined")


def test_a_first_visit_asks_for_the_boot_tables_while_python_starts(browser: Any, server: Any) -> None:
    """Unitile's tables are asked for once the network has delivered the WebAssembly, the library
    and unitile_py's archive, before Python is up. (They waited for an answer of the cache, which
    came only once the worker's thread was free again: after Python's start, a second or more on a
    phone.)"""
    s = make_context(browser, server.url)
    try:
        s.open()
        worker = s.js("window.unitile.timings.worker")
        assert worker["restored"] is False
        files = {name: (start, end) for name, start, end in worker["files"]}
        tables = [start for name, (start, _) in files.items() if name.startswith("tables/5x5/")]
        first = ("pyodide/pyodide.asm.wasm", "py/")
        runtime = [end for name, (_, end) in files.items() if name.startswith(first)]
        assert len(tables) == 7 and len(runtime) == 2, files
        assert max(runtime) <= min(tables) and max(tables) < worker["python"], (files, worker)
    finally:
        s.context.close()
