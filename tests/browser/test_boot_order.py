"""The order of a first visit's downloads (docs/first-visit.md): Pyodide's files first, then the page's
boot tables while the interpreter starts on the CPU, not after it has started."""

from __future__ import annotations

from typing import Any

from tests.browser.conftest import make_context


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
