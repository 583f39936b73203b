"""Browser tests: Playwright for Python driving Debian's chromium against the built site on 127.0.0.1.

One site build, one server and one browser serve the whole session; every test gets a fresh browser
context (its own cache, storage and service worker), and every request to another host is aborted
and remembered, so a test fails if the site tries to reach one. Without /usr/bin/chromium the tests
are skipped, except under CI=true, where they fail.
"""

from __future__ import annotations

import importlib.util
import os
import re
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from types import ModuleType
from typing import Any
from urllib.parse import urlsplit

import pytest

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = Path("/usr/bin/chromium")
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
ARTIFACTS = ROOT / "test-artifacts"
#: Upper bound for any one condition; a cold Pyodide boot takes about 2 s here.
TIMEOUT = 30.0
#: The screens the pages are checked on: width and height of the viewport.
VIEWPORTS = {
    "desktop-1920x1080": (1920, 1080),
    "laptop-1366x768": (1366, 768),
    "tablet-768x1024": (768, 1024),
    "tablet-1024x768": (1024, 768),
    "phone-390x844": (390, 844),
    "phone-844x390": (844, 390),
}


def load_site_module(name: str) -> ModuleType:
    """site/build.py or site/serve.py as a module (site/ is not a package, and `site` is taken)."""
    spec = importlib.util.spec_from_file_location(f"unitile_site_{name}", ROOT / "site" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


build_module = load_site_module("build")
serve_module = load_site_module("serve")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if Path(str(item.fspath)).is_relative_to(Path(__file__).parent):
            item.add_marker(pytest.mark.browser)


@pytest.fixture(scope="session")
def chromium() -> Path:
    if not CHROMIUM.exists():
        if os.environ.get("CI") == "true":
            pytest.fail("CI=true but /usr/bin/chromium is missing: install it (apt-get install chromium)")
        pytest.skip("/usr/bin/chromium not found: browser tests skipped (apt-get install chromium)")
    return CHROMIUM


@pytest.fixture(scope="session")
def site_dir(tmp_path_factory: pytest.TempPathFactory, chromium: Path) -> Path:
    out = tmp_path_factory.mktemp("site") / "site"
    build_module.build(out)
    return out


@pytest.fixture(scope="session")
def server(site_dir: Path) -> Iterator[Any]:
    srv = serve_module.SiteServer(site_dir).start()
    try:
        yield srv
    finally:
        srv.stop()


@pytest.fixture(scope="session")
def browser(chromium: Path) -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    pw = sync_playwright().start()
    try:
        b = pw.chromium.launch(executable_path=str(chromium), args=ARGS)
        try:
            yield b
        finally:
            b.close()
    finally:
        pw.stop()


def wait_until(check: Callable[[], Any], what: str, timeout: float = TIMEOUT) -> Any:
    """Poll ``check`` until it returns something truthy; fail naming ``what`` after ``timeout``."""
    from playwright.sync_api import Error as PlaywrightError

    deadline = time.monotonic() + timeout
    while True:
        try:
            value = check()
        except PlaywrightError as exc:
            if "navigation" not in str(exc) and "context was destroyed" not in str(exc):
                raise
            value = None  # the page is reloading: ask again
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout:.0f} s waiting for {what}")
        time.sleep(0.02)


@dataclass
class Site:
    """A browser context and page on the site, with helpers that wait on the page's own state."""

    context: Any
    page: Any
    base: str
    foreign: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)

    def open(self, path: str = "", wait: bool = True, idle: bool = True) -> None:
        self.page.goto(self.base + path)
        if wait:
            self.wait_ready(idle)

    def wait_ready(self, idle: bool = True) -> None:
        """Wait for the playable board (and, with ``idle``, for the page to settle: not when two
        computer players keep it busy)."""
        ready = "document.body && document.body.dataset.ready"
        wait_until(lambda: self.js(ready) in ("1", "failed"), "the board to be playable")
        assert self.js(ready) == "1", self.page.locator("#loading-text").inner_text()
        if idle:
            self.wait_idle()

    def js(self, expression: str) -> Any:
        return self.page.evaluate(expression)

    def state(self) -> dict[str, Any]:
        return self.js("window.unitile.state")

    def ply(self) -> int:
        return int(self.page.locator("#board").get_attribute("data-ply") or "-1")

    def wait_ply(self, ply: int, timeout: float = TIMEOUT) -> None:
        wait_until(lambda: self.ply() == ply and self.idle(), f"ply {ply} (now {self.ply()})", timeout)

    def offline_ready(self) -> bool:
        """The service worker controls the page and has cached the whole build (its files and the
        two addresses of the start page)."""
        return bool(
            self.js(
                """(async () => {
                  if (!navigator.serviceWorker.controller) return false;
                  const info = await (await fetch('build.json')).json();
                  const keys = await (await caches.open('unitile-' + info.version)).keys();
                  return keys.length >= Object.keys(info.files).length + 2;
                })()"""
            )
        )

    def idle(self) -> bool:
        """No request is waiting on the worker and no computer is about to move."""
        return bool(self.js("window.unitile.pendingCount() === 0"))

    def wait_idle(self) -> None:
        wait_until(self.idle, "the page to finish its requests")

    def tile(self, name: str) -> Any:
        """The drawn tile on a cell (its classes show marking, last slide, choice, hint, end)."""
        return self.page.locator(f'#board .tile[data-cell="{name}"]')

    def cell(self, name: str) -> Any:
        """The grid cell on top of a tile: it takes the taps and the focus, and has the label."""
        return self.page.locator(f'#board [role="gridcell"][data-cell="{name}"]')

    def message(self) -> str:
        return str(self.page.locator("#message").inner_text())

    def legal(self) -> list[str]:
        return list(self.state()["legal"])

    def click(self, name: str) -> None:
        self.cell(name).click()

    def play(self, *moves: str) -> None:
        """Click each tile (Confirm moves off) and wait for the slide to land."""
        for move in moves:
            ply = self.ply()
            self.click(move)
            self.wait_ply(ply + 1)

    def new_game(self) -> None:
        """New game, answering yes when the page asks."""
        self.page.locator("#btn-new").click()
        if self.page.locator("#dlg-new").is_visible():
            self.page.locator("#dlg-new-ok").click()
        self.wait_ply(0)

    def load_record(self, text: str) -> None:
        """Paste ``text`` into the record dialog and press Load (the dialog closes if it loads)."""
        self.page.locator("#btn-record").click()
        self.page.locator("#record-load").fill(text)
        self.page.locator("#btn-load").click()

    def set_option(self, option_id: str, on: bool) -> None:
        box = self.page.locator(f"#{option_id}")
        if box.is_checked() != on:
            box.click()
        self.wait_idle()

    def set_player(self, colour: str, value: str) -> None:
        self.page.locator(f"#player-{colour}").select_option(value)
        self.wait_idle()

    def shot(self, name: str) -> None:
        ARTIFACTS.mkdir(exist_ok=True)
        self.page.screenshot(path=str(ARTIFACTS / f"{name}.png"), animations="disabled")


def make_context(browser: Any, base: str, **options: Any) -> Site:
    """A fresh context whose requests to any other origin are aborted and remembered.

    Service workers are blocked unless ``service_workers="allow"`` is passed: only the offline and
    update tests need one, and the others would spend their time filling its cache.
    """
    options.setdefault("viewport", {"width": 1200, "height": 900})
    options.setdefault("service_workers", "block")
    context = browser.new_context(**options)
    context.set_default_timeout(TIMEOUT * 1000)
    page = context.new_page()
    site = Site(context, page, base)
    site_errors(site)

    def abort(r: Any) -> None:
        site.foreign.append(r.request.url)
        r.abort()

    # Matched inside Playwright's driver, so the site's own requests never wait on Python.
    origin = f"{urlsplit(base).scheme}://{urlsplit(base).netloc}/"
    context.route(re.compile(f"^(?!{re.escape(origin)})"), abort)
    return site


def site_errors(site: Site) -> None:
    """Collect the page's uncaught errors and console errors (a CSP violation is one) in ``errors``."""
    site.page.on("pageerror", lambda e: site.errors.append(f"pageerror: {e}"))
    site.page.on("console", lambda m: site.errors.append(f"console: {m.text}") if m.type == "error" else None)


@pytest.fixture(scope="session")
def shared(browser: Any, server: Any) -> Iterator[Site]:
    """One context for the tests that need no service worker: after the first page, Pyodide starts
    from the interpreter snapshot in this context's Cache Storage, so each test boots in well under
    a second instead of cold."""
    s = make_context(browser, server.url, permissions=["clipboard-read", "clipboard-write"])
    try:
        yield s
    finally:
        s.context.close()


@pytest.fixture
def site(shared: Site) -> Iterator[Site]:
    """A new page in the shared context, with the settings cleared (each test sets what it needs)."""
    page = shared.context.new_page()
    s = Site(shared.context, page, shared.base, foreign=shared.foreign)
    shared.foreign.clear()
    site_errors(s)
    page.goto(s.base + "about.html")
    page.evaluate("localStorage.clear()")
    try:
        yield s
        assert s.foreign == [], f"requests to other hosts: {s.foreign}"
        assert s.errors == [], f"errors in the page: {s.errors}"
    finally:
        page.close()


def in_view(site: Site, selector: str, width: int, height: int) -> dict[str, Any]:
    """The box of ``selector``, asserted to be wholly inside the ``width`` x ``height`` viewport."""
    box = site.page.locator(selector).bounding_box()
    assert box is not None, selector
    inside = box["x"] >= 0 and box["y"] >= 0
    inside = inside and box["x"] + box["width"] <= width + 0.5 and box["y"] + box["height"] <= height + 0.5
    assert inside, f"{selector} at {box} is not inside {width}x{height}"
    return dict(box)


def screen(site: Site, name: str, scheme: str) -> tuple[int, int]:
    """Show the page on the screen ``name`` of VIEWPORTS in the colour ``scheme``, without motion."""
    width, height = VIEWPORTS[name]
    site.page.set_viewport_size({"width": width, "height": height})
    site.page.emulate_media(color_scheme=scheme, reduced_motion="reduce")
    return width, height


def assert_play_page_fits(site: Site, name: str, selectors: list[str]) -> None:
    """The play page on the screen ``name``: the whole board, at least 300 px wide where the screen
    allows, and ``selectors`` in view, nothing overflowing sideways; on a phone held sideways the
    buttons right of the board."""
    width, height = VIEWPORTS[name]
    board = in_view(site, "#board", width, height)
    assert board["width"] >= min(300, width - 40, height - 90), board
    for selector in ["#scoreline", "#btn-new", "#btn-undo", "#btn-hint", "#btn-record", *selectors]:
        in_view(site, selector, width, height)
    assert site.js("document.documentElement.scrollWidth") <= width
    if name == "phone-844x390":
        assert site.page.locator("#btn-new").bounding_box()["x"] > board["x"] + board["width"]


@contextmanager
def held_site(browser: Any, site_dir: Path, held: str = "/build.json",
              paths: list[str] | None = None) -> Iterator[tuple[Site, threading.Event]]:
    """A server of its own whose answer to ``held`` (by default build.json, the worker's first
    request: meanwhile the page is up but Python is not) waits until the test sets the event, and a
    context on it; the path of every request is appended to ``paths``."""
    gate = threading.Event()

    class Held(serve_module.SiteHandler):  # type: ignore[misc, name-defined]
        def do_GET(self) -> None:
            if paths is not None:
                paths.append(self.path)
            if self.path.startswith(held):
                gate.wait(TIMEOUT)
            super().do_GET()

    server = serve_module.SiteServer(site_dir)
    server.httpd.RequestHandlerClass = partial(Held, directory=str(site_dir))
    server.start()
    s = make_context(browser, server.url)
    try:
        yield s, gate
    finally:
        gate.set()
        s.context.close()
        server.stop()


def pause_and_finish(site: Site, dots: str) -> tuple[int, dict[str, Any]]:
    """Two computers are playing: Pause stops them after their first moves (no ``dots``, the marking,
    while a computer is to move), Resume lets them play to the end. The ply paused at, the last state."""
    pause = site.page.locator("#btn-pause")
    assert pause.is_visible()
    wait_until(lambda: site.ply() >= 2, "the first computer moves")
    pause.click()
    site.wait_idle()
    paused_at = site.ply()
    assert pause.inner_text() == "Resume" and site.page.locator("#turn").inner_text() == "Paused"
    assert site.state()["ply"] == paused_at and not site.state()["over"]
    assert site.page.locator(dots).count() == 0
    pause.click()
    wait_until(lambda: site.state()["over"], "the end of the game", timeout=120)
    st = site.state()
    assert st["plies"] > paused_at and pause.is_hidden()
    return paused_at, st
