"""Lighthouse 12.2.3 (package.json's, against Debian's chromium) scores the built site 100 for
accessibility, best practices and SEO (issue 34): every page on a phone, and the two game pages on a
desktop too (a desktop run of the other pages has never scored otherwise, and costs CI a minute:
``bench/lighthouse.py`` with no options runs every page in both forms). The runs are bench/lighthouse.py's,
so a failure prints each page's lost audits."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from tests.browser.conftest import ROOT

PAGES = ("index.html", "rules.html", "puzzles.html", "nd.html", "nd-rules.html", "nd-puzzles.html",
         "nd-areas.html", "about.html")  # fmt: skip


#: The pages also scored in the desktop form.
DESKTOP = ("index.html", "nd.html")


def scores(site_dir: Path, out: Path, pages: tuple[str, ...], form: str) -> list[dict[str, object]]:
    """bench/lighthouse.py's results for ``pages`` in one form factor."""
    run = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "lighthouse.py"), "--site", str(site_dir), "--json", str(out),
         "--pages", ",".join(pages), "--forms", form],
        capture_output=True, text=True, timeout=900, check=False,
    )  # fmt: skip
    assert run.returncode == 0, run.stdout + run.stderr
    results: list[dict[str, object]] = json.loads(out.read_text(encoding="utf-8"))
    return results


def test_every_page_scores_100_on_a_phone_the_game_pages_on_a_desktop(site_dir: Path, tmp_path: Path) -> None:
    results = scores(site_dir, tmp_path / "mobile.json", PAGES, "mobile")
    results += scores(site_dir, tmp_path / "desktop.json", DESKTOP, "desktop")
    assert {(r["page"], r["form"]) for r in results} == {(p, "mobile") for p in PAGES} | {
        (p, "desktop") for p in DESKTOP
    }
    for result in results:
        assert result["version"] == "12.2.3"
        assert result["scores"] == {"accessibility": 100, "best-practices": 100, "seo": 100}, result
