"""The NDE areas page (site/web/nd-areas.html): it draws tables/naked-diagonal/areas.json, within the
site's content-security policy, and is reached from Naked Diagonal's rules page."""

from __future__ import annotations

import json
from pathlib import Path

from ..conftest import ROOT, Site, wait_until


def test_the_areas_page_draws_the_atlas_without_errors(site: Site) -> None:
    data = json.loads((ROOT / "tables" / "naked-diagonal" / "areas.json").read_text(encoding="utf-8"))
    assert data  # the page has something to draw
    site.page.goto(site.base + "nd-rules.html")
    site.page.click('a[href="nd-areas.html"]')
    wait_until(lambda: site.page.is_visible("#exhaustive"), "the exhaustive atlas shown")
    wait_until(lambda: site.page.locator("#minimal-areas svg").count() > 0, "minimal areas drawn")
    assert site.page.locator("#exhaustive-table tr").count() > 1
    assert "Mark Steere" in site.page.inner_text("main")
    # An inline <style> or script would be refused by the CSP and logged as a console error.
    assert site.errors == [], site.errors


def test_the_areas_page_is_in_the_offline_cache(site_dir: Path) -> None:
    files = json.loads((site_dir / "build.json").read_text(encoding="utf-8"))["files"]
    for name in ("nd-areas.html", "js/nd-areas.js", "css/nd-areas.css", "tables/naked-diagonal/areas.json"):
        assert name in files, name
    assert "tables/naked-diagonal/areas.json" in (site_dir / "sw.js").read_text(encoding="utf-8")
