"""The first visit on a phone: the built site on Debian's stock nginx under /games/steere/ (as
tests/browser/test_hosting.py starts it, gzip_static on and off), chromium at 390x844 with the network
and the CPU slowed through the DevTools protocol (``Network.emulateNetworkConditions``: 9 Mbps down,
1.5 Mbps up, 60 ms round trip; ``Emulation.setCPUThrottlingRate`` 4), each page in a fresh context
(empty HTTP cache, no service worker), as a new player opens the link.

Per page and setting: when the board was drawn (the page's ``board-drawn`` mark), when it was playable
("Red to move", the page's ``timings.playable``), the bytes nginx sent until then and in the first
``--window`` seconds (from its access log: ``$bytes_sent``, headers included, of each response
finished by then), the files it sent whole (HTTP 200) more than once, and when the page said that the
games are available offline (``body[data-offline="ready"]``), if it did within the window.

    .venv/bin/python bench/browser.py --phone [--runs 1] [--window 60] [--json out.json]
"""

from __future__ import annotations

import collections
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from tests.browser.test_hosting import NGINX, PREFIX, nginx_serving

#: Network.emulateNetworkConditions: bytes per second and milliseconds.
NETWORK = {"offline": False, "latency": 60, "downloadThroughput": 9e6 / 8, "uploadThroughput": 1.5e6 / 8}
CPU_RATE = 4
VIEWPORT = {"width": 390, "height": 844}
PAGES = {"Unitile": "", "Naked Diagonal": "nd.html"}


def log_entries(work: Path) -> list[tuple[float, int, int, str]]:
    """nginx's access log in ``work``: ``(finished, epoch seconds; status; bytes sent; uri)``."""
    out = []
    for line in (work / "access.log").read_text().splitlines():
        status, sent, uri, msec = line.split()
        out.append((float(msec), int(status), int(sent), uri))
    return out


def phone_visit(browser: Any, url: str, work: Path, window: float) -> dict[str, Any]:
    """One first visit of ``url`` on the phone profile, watched for ``window`` seconds."""
    context = browser.new_context(viewport=VIEWPORT, device_scale_factor=3, is_mobile=True, has_touch=True)
    try:
        page = context.new_page()
        cdp = context.new_cdp_session(page)
        cdp.send("Network.enable")
        cdp.send("Network.emulateNetworkConditions", NETWORK)
        cdp.send("Emulation.setCPUThrottlingRate", {"rate": CPU_RATE})
        logged = len(log_entries(work))
        page.goto(url, wait_until="commit")
        origin = page.evaluate("performance.timeOrigin") / 1000
        playable = offline = None
        while time.time() < origin + window:
            if playable is None:
                playable = page.evaluate("window.unitile && window.unitile.timings.playable")
                if page.evaluate("document.body && document.body.dataset.ready") == "failed":
                    raise RuntimeError(f"{url}: {page.locator('#loading-text').inner_text()}")
            if offline is None and page.evaluate("document.body && document.body.dataset.offline") == "ready":
                offline = time.time() - origin
            time.sleep(0.05)
        if playable is None:
            raise RuntimeError(f"{url}: not playable within {window} s")
        turn = page.evaluate("document.getElementById('turn').textContent")
        worker = page.evaluate("window.unitile.timings.worker")
        worker.pop("files", None)
        drawn = page.evaluate("(performance.getEntriesByName('board-drawn')[0] || {}).startTime")
    finally:
        context.close()
    time.sleep(0.5)  # nginx writes a response's line once it has sent it
    entries = log_entries(work)[logged:]
    until = origin + playable / 1000
    whole = collections.Counter(uri for _, status, _, uri in entries if status == 200)
    return {
        "drawn_ms": drawn,
        "playable_ms": playable,
        "turn": turn,
        "offline_s": offline,
        "bytes_until_playable": sum(sent for at, _, sent, _ in entries if at <= until),
        "bytes_window": sum(sent for at, _, sent, _ in entries if at <= origin + window),
        "requests_until_playable": sum(1 for at, _, _, _ in entries if at <= until),
        "requests_window": len(entries),
        "sent_twice": sorted(uri for uri, n in whole.items() if n > 1),
        "worker": worker,
    }


def phone_profile(browser: Any, site: Path, runs: int, window: float) -> dict[str, Any]:
    """Every page of :data:`PAGES` ``runs`` times with gzip_static on and off: ``{"on": {page: [visit,
    ...]}, "off": ...}``."""
    if not NGINX.exists():
        raise RuntimeError("the phone profile needs Debian's nginx (/usr/sbin/nginx)")
    out: dict[str, Any] = {}
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "www"
        shutil.copytree(site, root / PREFIX)
        for gzip_static in (True, False):
            setting = "on" if gzip_static else "off"
            work = Path(tmp) / f"nginx-{setting}"
            with nginx_serving(NGINX, root, work, gzip_static=gzip_static) as url:
                out[setting] = {
                    name: [phone_visit(browser, url + path, work, window) for _ in range(runs)]
                    for name, path in PAGES.items()
                }
    return out


def print_phone(results: dict[str, Any], window: float) -> None:
    """A Markdown table of the phone profile's medians."""
    print(
        f"| page | gzip_static | board drawn | playable | sent until playable | sent in the first "
        f"{window:.0f} s | offline line | sent twice |"
    )
    print("|---|---|---|---|---|---|---|---|")
    for setting, pages in results.items():
        for name, visits in pages.items():

            def med(key: str, visits: list[dict[str, Any]] = visits) -> float:
                return float(statistics.median(v[key] for v in visits))

            offline = [v["offline_s"] for v in visits if v["offline_s"] is not None]
            twice = sorted({uri for v in visits for uri in v["sent_twice"]})
            print(
                f"| {name} | {setting} | {med('drawn_ms') / 1000:.1f} s | {med('playable_ms') / 1000:.1f} s "
                f"| {med('bytes_until_playable') / 1e6:.1f} MB ({med('requests_until_playable'):.0f} files) "
                f"| {med('bytes_window') / 1e6:.1f} MB ({med('requests_window'):.0f}) "
                f"| {f'{statistics.median(offline):.0f} s' if offline else '-'} "
                f"| {', '.join(u.rsplit('/', 1)[-1] for u in twice) or 'none'} |"
            )
            steps = {k: round(statistics.median(v["worker"][k] for v in visits)) for k in visits[0]["worker"]}
            print(f"<!-- {name}, gzip_static {setting}: the worker's steps, ms since it started: {steps} -->")


if __name__ == "__main__":  # the same as bench/browser.py --phone (its options)
    from bench import browser

    sys.exit(browser.main(["--phone", *sys.argv[1:]]))
