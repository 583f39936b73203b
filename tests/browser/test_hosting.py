"""The built site on servers that know nothing about it, under a path prefix (/games/steere/):
Debian's stock nginx (its own /etc/nginx/mime.types, nothing added) and Python's `http.server`
boot both games, play a move in each and boot again offline from the service worker; a server that
sends Pyodide's loader with a wrong type gets one clear line on the page instead of a hang.

nginx comes from Debian's package (.ci/run installs it): without /usr/sbin/nginx its tests are
skipped, except under CI=true, where they fail.
"""

from __future__ import annotations

import http.server
import json
import os
import shutil
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from functools import partial
from pathlib import Path
from typing import Any

import pytest

from .conftest import TIMEOUT, Site, make_context, wait_until

NGINX = Path("/usr/sbin/nginx")
MIME_TYPES = Path("/etc/nginx/mime.types")
PREFIX = "games/steere"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_served(url: str, process: subprocess.Popen[bytes] | None = None) -> None:
    """Wait until ``url`` answers 200 (and fail at once if ``process`` has died)."""

    def up() -> bool:
        if process is not None and process.poll() is not None:
            raise AssertionError(f"the server exited with status {process.returncode}")
        try:
            with urllib.request.urlopen(url, timeout=2) as response:
                return bool(response.status == 200)
        except (OSError, urllib.error.URLError):
            return False

    wait_until(up, f"{url} to answer")


def stop(process: subprocess.Popen[bytes]) -> None:
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


@pytest.fixture(scope="module")
def nginx() -> Path:
    if not NGINX.exists() or not MIME_TYPES.exists():
        if os.environ.get("CI") == "true":
            pytest.fail("CI=true but Debian's nginx is missing: install it (apt-get install nginx)")
        pytest.skip("/usr/sbin/nginx not found: the nginx hosting tests skipped (apt-get install nginx)")
    return NGINX


@pytest.fixture(scope="module")
def www(site_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A web root with the built site copied to games/steere/, as someone hosting it would."""
    root = tmp_path_factory.mktemp("www")
    shutil.copytree(site_dir, root / PREFIX)
    return root


def nginx_config(root: Path, work: Path, port: int, gzip_static: bool) -> str:
    """Debian's defaults for types (its mime.types, default_type application/octet-stream, as its
    nginx.conf has), everything else in ``work`` so that it runs without touching the system's."""
    temp = "\n".join(
        f"  {name}_temp_path {work / name};" for name in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
    )
    user = "user root;\n" if os.geteuid() == 0 else ""
    return f"""{user}daemon off;
worker_processes 1;
pid {work / "nginx.pid"};
error_log {work / "error.log"};
events {{ worker_connections 256; }}
http {{
  include {MIME_TYPES};
  default_type application/octet-stream;
  log_format sent '$status $bytes_sent $request_uri $msec';
  access_log {work / "access.log"} sent;
{temp}
  server {{
    listen 127.0.0.1:{port};
    root {root};
    gzip_static {"on" if gzip_static else "off"};
  }}
}}
"""


@contextmanager
def nginx_serving(nginx: Path, root: Path, work: Path, gzip_static: bool = False) -> Iterator[str]:
    """Debian's nginx serving ``root`` on a free port of 127.0.0.1; yields the site's address."""
    work.mkdir(parents=True, exist_ok=True)
    port = free_port()
    config = work / "nginx.conf"
    config.write_text(nginx_config(root, work, port, gzip_static))
    command = [str(nginx), "-p", str(work), "-e", str(work / "error.log"), "-c", str(config)]
    with served(command, port, stderr=subprocess.PIPE) as url:
        yield url


@contextmanager
def http_server(root: Path) -> Iterator[str]:
    """``python3 -m http.server`` (the standard library's server, as anyone would start it) serving
    ``root``; yields the site's address."""
    port = free_port()
    command = [sys.executable, "-m", "http.server", str(port), "--bind", "127.0.0.1"]
    command += ["--directory", str(root)]
    with served(command, port, stderr=subprocess.DEVNULL) as url:
        yield url


@contextmanager
def served(command: list[str], port: int, stderr: int) -> Iterator[str]:
    """Start the server ``command`` listening on ``port``; yields the site's address under the prefix
    once it answers, and stops the server however the test ends."""
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=stderr)
    try:
        url = f"http://127.0.0.1:{port}/{PREFIX}/"
        wait_served(url, process)
        yield url
    finally:
        stop(process)


def play_one_move(s: Site) -> None:
    """The page says "Red to move"; with two human players Red plays the first legal move."""
    assert s.page.locator("#turn").inner_text() == "Red to move"
    s.set_player("r", "human")
    s.set_player("b", "human")
    s.play(s.legal()[0])
    assert s.page.locator("#turn").inner_text() == "Blue to move"



def boot_play_and_come_back_offline(browser: Any, url: str) -> None:
    """Both games boot at ``url`` to "Red to move" and take a move; offline, a reload boots again."""
    s = make_context(browser, url, service_workers="allow")
    try:
        for page in ("", "nd.html"):
            s.open(page)
            assert s.page.url.startswith(url + page)
            play_one_move(s)
        wait_until(s.offline_ready, "the service worker to cache the site")
        s.context.set_offline(True)
        for page in ("", "nd.html"):
            s.page.goto(url + page)
            s.wait_ready()
            assert s.js("navigator.serviceWorker.controller !== null")
            assert s.page.locator("#turn").inner_text() == "Blue to move"  # the game kept
            s.play(s.legal()[0])
        assert s.errors == [] and s.foreign == []
    finally:
        s.context.close()


def test_stock_nginx_under_a_subpath_boots_both_games_and_offline(
    browser: Any, nginx: Path, www: Path, tmp_path: Path
) -> None:
    with nginx_serving(nginx, www, tmp_path / "nginx") as url:
        with urllib.request.urlopen(url + "pyodide/pyodide.js") as response:
            # stock nginx: .js is JavaScript (.mjs would be application/octet-stream)
            assert response.headers["Content-Type"] == "application/javascript"
        boot_play_and_come_back_offline(browser, url)


def sent_bytes(work: Path) -> int:
    """The bytes nginx sent (headers and bodies), from its access log in ``work``."""
    lines = (work / "access.log").read_text().splitlines()
    return sum(int(line.split()[1]) for line in lines)


def sent_uris(work: Path) -> list[str]:
    """The addresses nginx answered with 200, from its access log in ``work``."""
    lines = (work / "access.log").read_text().splitlines()
    return [line.split()[2] for line in lines if line.split()[0] == "200"]


def test_stock_nginx_with_gzip_static_sends_the_precompressed_copies(
    browser: Any, nginx: Path, www: Path, site_dir: Path, tmp_path: Path
) -> None:
    """The build's .gz copies (site/build.py) are in neither build.json's files nor the service worker's
    list; nginx with gzip_static sends them in place of the originals, and the page works the same with
    fewer bytes. The worker asks for the copies of its large files itself (build.json's ``gzipped``),
    so without gzip_static the WebAssembly comes gzipped all the same."""
    info = json.loads((site_dir / "build.json").read_text())
    assert (site_dir / "pyodide" / "pyodide.asm.wasm.gz").is_file()
    assert not [name for name in info["files"] if name.endswith(".gz")]
    assert "pyodide/pyodide.asm.wasm" in info["gzipped"]
    assert ".gz" not in (site_dir / "sw.js").read_text()
    sent = {}
    for gzip_static in (False, True):
        work = tmp_path / f"nginx-gzip-{gzip_static}"
        with nginx_serving(nginx, www, work, gzip_static=gzip_static) as url:
            gzip = {"Accept-Encoding": "gzip"}
            wasm = urllib.request.Request(url + "pyodide/pyodide.asm.wasm", headers=gzip)
            with urllib.request.urlopen(wasm) as response:
                assert response.headers["Content-Type"] == "application/wasm"
                assert response.headers.get("Content-Encoding") == ("gzip" if gzip_static else None)
                response.read()  # logged once sent whole
            wait_until(lambda w=work: f"/{PREFIX}/pyodide/pyodide.asm.wasm" in sent_uris(w), "nginx's log")
            before, logged = sent_bytes(work), len(sent_uris(work))
            s = make_context(browser, url)
            try:
                for page in ("", "nd.html"):
                    s.open(page)
                    play_one_move(s)
                assert s.errors == [] and s.foreign == []
            finally:
                s.context.close()
            sent[gzip_static] = sent_bytes(work) - before
            uris = sent_uris(work)[logged:]
            assert f"/{PREFIX}/pyodide/pyodide.asm.wasm.gz" in uris
            assert f"/{PREFIX}/pyodide/pyodide.asm.wasm" not in uris
            if gzip_static:  # the service worker caches what the browser decoded: offline works
                boot_play_and_come_back_offline(browser, url)
    plain, packed = sent[False] / 1e6, sent[True] / 1e6
    print(f"both pages, one move each: nginx sent {plain:.2f} MB, {packed:.2f} MB with gzip_static")
    assert sent[True] < sent[False]


def test_python_http_server_under_a_subpath_boots_both_games_and_offline(browser: Any, www: Path) -> None:
    with http_server(www) as url:
        boot_play_and_come_back_offline(browser, url)


class WrongTypes(http.server.SimpleHTTPRequestHandler):
    """Python's static server, except that files named in ``wrong`` come as ``type``."""

    wrong: frozenset[str] = frozenset()
    type = "application/octet-stream"

    def guess_type(self, path: Any) -> str:
        if Path(str(path)).name in self.wrong:
            return self.type
        return str(super().guess_type(path))

    def log_message(self, format: str, *args: Any) -> None:
        pass


class QueuedServer(http.server.ThreadingHTTPServer):
    """A threading server whose queue of connections waiting to be accepted is as long as a real
    server's: the worker asks for its large files at once, and under load the default queue of five
    refused some (CI's run: the check of a wrong type then could not fetch the file)."""

    request_queue_size = 128


@contextmanager
def wrong_types_server(root: Path, wrong: set[str], content_type: str) -> Iterator[str]:
    handler = type_handler(wrong, content_type)
    httpd = QueuedServer(("127.0.0.1", 0), partial(handler, directory=str(root)))
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}/{PREFIX}/"
    finally:
        httpd.shutdown()
        httpd.server_close()
        thread.join()


def type_handler(wrong: set[str], content_type: str) -> type[WrongTypes]:
    return type("Handler", (WrongTypes,), {"wrong": frozenset(wrong), "type": content_type})


@pytest.mark.parametrize(
    ("wrong", "sent", "line"),
    [
        (
            "pyodide.js",
            "application/octet-stream",
            "could not start: the server sends pyodide/pyodide.js as application/octet-stream, "
            "not text/javascript: its MIME types need fixing.",
        ),
        (
            "worker.js",
            "text/plain",
            "could not start: the server sends js/worker.js as text/plain, not text/javascript: "
            "its MIME types need fixing.",
        ),
    ],
)
def test_a_wrong_type_for_a_script_is_said_in_one_line(
    browser: Any, www: Path, wrong: str, sent: str, line: str
) -> None:
    with wrong_types_server(www, {wrong}, sent) as url:
        s = make_context(browser, url)
        try:
            for page, name in (("", "Unitile"), ("nd.html", "Naked Diagonal")):
                started = time.monotonic()
                s.page.goto(url + page)
                wait_until(lambda: s.js("document.body && document.body.dataset.ready") == "failed", "failed")
                assert time.monotonic() - started < TIMEOUT
                assert s.page.locator("#loading-text").inner_text() == f"{name} {line}"
        finally:
            s.context.close()


def failed_line(browser: Any, root: Path) -> str:
    """The line Unitile's page shows when it cannot start from the site under ``root``."""
    with wrong_types_server(root, set(), "") as url:
        s = make_context(browser, url)
        try:
            s.page.goto(url)
            wait_until(lambda: s.js("document.body && document.body.dataset.ready") == "failed", "failed")
            return str(s.page.locator("#loading-text").inner_text())
        finally:
            s.context.close()


def test_damaged_tables_are_said_in_their_own_line(browser: Any, www: Path, tmp_path: Path) -> None:
    """Python hands the page the error's one line (no class name for the page to strip)."""
    root = tmp_path / "www"
    shutil.copytree(www, root)
    table = root / PREFIX / "tables" / "5x5" / "a5.bin"
    size = table.stat().st_size
    table.write_bytes(table.read_bytes()[:-10])
    assert failed_line(browser, root) == (
        f"Unitile could not start: tables 5x5: a5.bin has {size - 10} bytes, manifest.json says {size} "
        "(truncated?)"
    )


def test_a_wasm_sent_as_octet_stream_still_boots(browser: Any, www: Path) -> None:
    """Pyodide's instantiateStreaming refuses it and would wait for ever: the worker compiles the
    bytes instead."""
    with wrong_types_server(www, {"pyodide.asm.wasm"}, "application/octet-stream") as url:
        s = make_context(browser, url)
        try:
            s.open()
            play_one_move(s)
        finally:
            s.context.close()


@pytest.mark.parametrize("missing", ["pyodide/pyodide.asm.wasm", "pyodide/python_stdlib.zip"])
def test_a_missing_runtime_file_is_said_in_one_line(
    browser: Any, www: Path, tmp_path: Path, missing: str
) -> None:
    root = tmp_path / "www"
    shutil.copytree(www, root)
    (root / PREFIX / missing).unlink()
    (root / PREFIX / f"{missing}.gz").unlink()  # the worker would inflate its copy
    assert failed_line(browser, root) == (
        f"Unitile could not start: the server has no {missing} (HTTP 404): copy the whole build/site folder."
    )
