"""Unitile's start is drawn before Python is up (js/unitile-start.js), not playable, and is the
worker's own start position."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ..conftest import held_site, wait_until

TILES = """Object.fromEntries([...document.querySelectorAll('#board .tile')]
  .map((t) => [t.dataset.cell, t.dataset.colour]))"""


def test_the_start_shows_before_python_and_is_the_workers(browser: Any, site_dir: Path) -> None:
    """The worker's first request waits until the test lets it go: meanwhile the start is drawn."""
    with held_site(browser, site_dir) as (s, gate):
        s.page.goto(s.base, wait_until="domcontentloaded")
        wait_until(lambda: s.page.locator("#board .tile[data-cell]").count() == 24, "the start to be drawn")
        early = s.js(TILES)
        assert s.page.locator("#board").get_attribute("aria-label") == "Board, 5 by 5, empty cell c3"
        assert s.page.locator("#board .tile.marked, #board .spot.legal").count() == 0
        assert s.page.locator("#loading").is_visible()
        s.cell("c4").dispatch_event("click")  # not playable yet (under the loading line): nothing happens
        assert s.js("document.body.dataset.ready") is None and s.ply() == 0
        gate.set()
        s.wait_ready()
        st = s.state()
        names = s.js("window.unitile.info.names")
        assert early == {n: c for n, c in zip(names, st["cells"], strict=True) if c != "."}
        assert s.js(TILES) == early and st["ply"] == 0
        assert s.page.locator("#turn").inner_text() == "Red to move"
        assert s.errors == [] and s.foreign == []
