"""Lighthouse's accessibility, best practices and SEO scores of every page, mobile and desktop, against
Debian's chromium (issue 34: they stay at 100).

    .venv/bin/python bench/lighthouse.py [--lighthouse PATH] [--pages about.html,...] [--forms mobile]
                                         [--site build/site] [--json out.json] [--jobs N]

``PATH`` is the ``lighthouse`` command of Lighthouse 12.2.3 from npm, by default the project's own
(``node_modules/.bin/lighthouse``, pinned in package.json: ``npm ci`` installs it). Without
``--site`` the site is built into a temporary folder first. The site is served on 127.0.0.1 by
site/serve.py; CHROME_PATH is /usr/bin/chromium. ``--jobs`` runs (default: one per core this process may
use) go at once, each with its own browser; none of the categories scored depends on timing. Prints one
line a page and form factor, in order, with every audit that lost points; exit status 1 when a score is
under 100, 2 when Lighthouse cannot run.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.browser.conftest import ARGS, CHROMIUM, load_site_module  # noqa: E402

build_module = load_site_module("build")
serve_module = load_site_module("serve")

PAGES = ["", "rules.html", "puzzles.html", "nd.html", "nd-rules.html", "nd-puzzles.html", "nd-areas.html",
         "about.html"]  # fmt: skip
FORMS = ("mobile", "desktop")
LIGHTHOUSE = ROOT / "node_modules" / ".bin" / "lighthouse"
CATEGORIES = "accessibility,best-practices,seo"
VERSION = "12.2.3"


def audit(lighthouse: str, url: str, form: str, out: Path) -> dict[str, Any]:
    """One Lighthouse run: the scores (0-100) by category and the audits that lost points."""
    flags = " ".join(["--headless=new", "--disable-gpu", *ARGS])
    command = [lighthouse, url, f"--only-categories={CATEGORIES}", f"--chrome-flags={flags}",
               "--output=json", f"--output-path={out}", "--quiet", "--max-wait-for-load=60000"]  # fmt: skip
    if form == "desktop":
        command.append("--preset=desktop")
    env = dict(os.environ, CHROME_PATH=str(CHROMIUM))
    subprocess.run(command, check=True, env=env, timeout=300)
    report = json.loads(out.read_text(encoding="utf-8"))
    categories = report["categories"]
    lost = sorted(
        {
            ref["id"]
            for category in categories.values()
            for ref in category["auditRefs"]
            if ref["weight"] > 0 and report["audits"][ref["id"]].get("score") not in (None, 1)
        }
    )
    return {
        "version": report["lighthouseVersion"],
        "scores": {name: round(c["score"] * 100) for name, c in categories.items()},
        "lost": lost,
    }


def run(
    lighthouse: str, site: Path, pages: list[str], forms: list[str], jobs: int = 1
) -> list[dict[str, Any]]:
    """Every page in every form factor, served from ``site``, ``jobs`` at a time; prints one line each, in
    order."""
    server = serve_module.SiteServer(site).start()
    try:
        with tempfile.TemporaryDirectory() as tmp, ThreadPoolExecutor(max(1, jobs)) as pool:

            def one(i: int, page: str, form: str) -> dict[str, Any]:
                result = audit(lighthouse, server.url + page, form, Path(tmp) / f"report{i}.json")
                result.update(page=page or "index.html", form=form)
                return result

            runs = [(page, form) for page in pages for form in forms]
            futures = [pool.submit(one, i, page, form) for i, (page, form) in enumerate(runs)]
            results = []
            for future in futures:
                result = future.result()
                print(f"{result['page']:15} {result['form']:8} {result['scores']} {' '.join(result['lost'])}")
                results.append(result)
    finally:
        server.stop()
    return results


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lighthouse", default=str(LIGHTHOUSE), help="the lighthouse command (12.2.3, npm)")
    parser.add_argument("--pages", help="only these pages, comma-separated (index.html for the first)")
    parser.add_argument("--forms", help="only these form factors, comma-separated (mobile, desktop)")
    parser.add_argument("--site", type=Path, help="a built site (default: build one)")
    parser.add_argument("--json", type=Path, help="write the results here")
    parser.add_argument("--jobs", type=int, default=len(os.sched_getaffinity(0)), help="runs at once")
    args = parser.parse_args(argv)
    pages = PAGES if args.pages is None else ["" if p == "index.html" else p for p in args.pages.split(",")]
    forms = list(FORMS) if args.forms is None else args.forms.split(",")
    unknown = sorted({*pages} - {*PAGES}) + sorted({*forms} - {*FORMS})
    if unknown:
        print(f"lighthouse: no such page or form factor: {', '.join(unknown)}", file=sys.stderr)
        return 2
    try:
        version = subprocess.run([args.lighthouse, "--version"], capture_output=True, text=True, check=True)
    except (OSError, subprocess.CalledProcessError) as exc:
        print(f"lighthouse: cannot run {args.lighthouse} ({exc})", file=sys.stderr)
        return 2
    if version.stdout.strip() != VERSION:
        print(f"lighthouse: {args.lighthouse} is {version.stdout.strip()}, not {VERSION}", file=sys.stderr)
        return 2
    if not CHROMIUM.exists():
        print(f"lighthouse: {CHROMIUM} is missing (apt-get install chromium)", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory() as tmp:
        site = args.site or build_module.build(Path(tmp) / "site").out
        results = run(args.lighthouse, site, pages, forms, args.jobs)
    if args.json:
        args.json.write_text(json.dumps(results, indent=1) + "\n", encoding="utf-8")
    below = [r for r in results if min(r["scores"].values()) < 100]
    return 1 if below else 0


if __name__ == "__main__":
    sys.exit(main())
