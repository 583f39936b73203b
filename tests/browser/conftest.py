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
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
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
