"""Lighthouse 12.2.3 (package.json's, against Debian's chromium) scores every page of the built site 100
for accessibility, best practices and SEO, on a phone and on a desktop (issue 34). The runs are
bench/lighthouse.py's, so a failure prints each page's lost audits."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from tests.browser.conftest import ROOT

PAGES = ("index.html", "rules.html", "puzzles.html", "nd.html", "nd-rules.html", "nd-puzzles.html",
         "nd-areas.html", "about.html")  # fmt: skip


def test_every_page_scores_100_on_phone_and_desktop(site_dir: Path, tmp_path: Path) -> None:
    out = tmp_path / "lighthouse.json"
    run = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "lighthouse.py"), "--site", str(site_dir), "--json", str(out)],
        capture_output=True, text=True, timeout=900, check=False,
    )  # fmt: skip
    assert run.returncode == 0, run.stdout + run.stderr
    results = json.loads(out.read_text(encoding="utf-8"))
    assert {(r["page"], r["form"]) for r in results} == {(p, f) for p in PAGES for f in ("mobile", "desktop")}
    for result in results:
        assert result["version"] == "12.2.3"
        assert result["scores"] == {"accessibility": 100, "best-practices": 100, "seo": 100}, result
