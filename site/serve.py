"""Serve the built site on 127.0.0.1 with the right MIME types and the Content-Security-Policy header.

    python site/serve.py [--dir build/site] [--host 127.0.0.1] [--port 8000]

Port 0 picks a free port; the first line printed is the URL. Tests run :class:`SiteServer` in a
thread instead of a process.
"""

from __future__ import annotations

import argparse
import contextlib
import http.server
import os
import socket
import stat
import sys
import threading
import urllib.parse
from functools import partial
from http import HTTPStatus
from pathlib import Path
from typing import Any, ClassVar

ROOT = Path(__file__).resolve().parent.parent

#: Only the site's own origin; Pyodide compiles WebAssembly, which needs 'wasm-unsafe-eval'.
CSP = (
    "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; worker-src 'self'; connect-src 'self'; "
    "img-src 'self' data:; style-src 'self'; font-src 'self'; object-src 'none'; base-uri 'self'; "
    "form-action 'none'; frame-ancestors 'none'; manifest-src 'self'"
)

MIME_TYPES = {
    ".html": "text/html; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".mjs": "text/javascript; charset=utf-8",
    ".json": "application/json",
    ".wasm": "application/wasm",
    ".zip": "application/zip",
    ".py": "text/x-python; charset=utf-8",
    ".pyc": "application/octet-stream",
    ".svg": "image/svg+xml",
    ".png": "image/png",
    ".webmanifest": "application/manifest+json",
    ".txt": "text/plain; charset=utf-8",
    ".bin": "application/octet-stream",
}


#: Seconds a connection may stay idle (or half-sent) before the server closes it.
IDLE_TIMEOUT = 15.0
#: Pending connections the listening socket queues (parallel page loads, without SYN retries).
BACKLOG = 128


class SiteHandler(http.server.SimpleHTTPRequestHandler):
    """Static files with explicit MIME types, the CSP header and revalidation on every use.

    Only regular files are served: a folder answers with its ``index.html`` or 404 (never a listing), a
    FIFO, a device or a link to one 404 (never opened), a path
    with a NUL byte or one the file system cannot name answers 400, and the ``Server`` header names no
    software version. An idle connection is closed after :data:`IDLE_TIMEOUT` seconds.
    """

    protocol_version = "HTTP/1.1"  # keep-alive: the page loads a few dozen files
    server_version = "site"
    timeout = IDLE_TIMEOUT
    extensions_map: ClassVar[dict[str, str]] = {
        **http.server.SimpleHTTPRequestHandler.extensions_map,
        **MIME_TYPES,
        "": "application/octet-stream",
    }
    quiet = True

    def version_string(self) -> str:
        """The ``Server`` header: no software or version (the default names Python's)."""
        return self.server_version

    def setup(self) -> None:
        super().setup()
        self.wfile = _CountingWriter(self.wfile, self.server)  # type: ignore[assignment]

    def send_head(self) -> Any:
        """The file's headers (and the open file), after refusing what is not a plain file request."""
        path = urllib.parse.unquote(self.path.split("?", 1)[0].split("#", 1)[0], errors="replace")
        if "\x00" in path:
            self.send_error(HTTPStatus.BAD_REQUEST, "Bad path")
            return None
        local = self.translate_path(self.path)
        try:
            is_dir = os.path.isdir(local)
            target = os.path.join(local, "index.html") if is_dir else local
            if (is_dir or os.path.lexists(local)) and not _regular(target):
                # A folder without index.html, or a FIFO, a device or a link to one: never opened,
                # so nothing blocks a thread or sends an endless body.
                self.send_error(HTTPStatus.NOT_FOUND, "File not found")
                return None
            return super().send_head()
        except ValueError:  # a name the file system cannot hold
            self.send_error(HTTPStatus.BAD_REQUEST, "Bad path")
            return None

    def list_directory(self, path: str | os.PathLike[str]) -> None:
        """Never list a folder."""
        self.send_error(HTTPStatus.NOT_FOUND, "File not found")

    def end_headers(self) -> None:
        self.send_header("Content-Security-Policy", CSP)
        self.send_header("X-Content-Type-Options", "nosniff")
        self.send_header("Referrer-Policy", "no-referrer")
        # The service worker keeps the site offline; the HTTP cache revalidates (cheap 304s).
        self.send_header("Cache-Control", "no-cache")
        super().end_headers()

    def log_message(self, format: str, *args: object) -> None:
        if not self.quiet:
            super().log_message(format, *args)


def _regular(path: str) -> bool:
    """True when ``path`` is (or links to) a regular file; a special file is never served."""
    try:
        return stat.S_ISREG(os.stat(path).st_mode)
    except (OSError, ValueError):
        return False


class _CountingWriter:
    """A response stream that adds every byte written to its server's ``bytes_sent``."""

    def __init__(self, raw: Any, server: Any) -> None:
        self._raw = raw
        self._server = server

    def write(self, data: bytes) -> int:
        written = self._raw.write(data)
        with self._server.lock:
            self._server.bytes_sent += len(data)
        return written

    def __getattr__(self, name: str) -> Any:
        return getattr(self._raw, name)


class _QuietServer(http.server.ThreadingHTTPServer):
    """A threaded server that counts the bytes it sends and does not print a traceback when a
    browser drops a connection."""

    daemon_threads = True
    request_queue_size = BACKLOG

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.lock = threading.Lock()
        self.bytes_sent = 0
        self.connections: set[socket.socket] = set()

    def process_request(self, request: Any, client_address: Any) -> None:
        with self.lock:
            self.connections.add(request)
        super().process_request(request, client_address)

    def shutdown_request(self, request: Any) -> None:
        with self.lock:
            self.connections.discard(request)
        super().shutdown_request(request)

    def close_connections(self) -> None:
        """Cut every open (keep-alive) connection, so a stopped server really answers nothing."""
        with self.lock:
            live = list(self.connections)
        for conn in live:
            with contextlib.suppress(OSError):
                conn.shutdown(socket.SHUT_RDWR)

    def handle_error(self, request: object, client_address: object) -> None:
        if not isinstance(sys.exc_info()[1], ConnectionError):
            super().handle_error(request, client_address)  # type: ignore[arg-type]


class SiteServer:
    """A threaded static server for one folder; ``with SiteServer(dir) as s: s.url``."""

    def __init__(self, directory: Path, host: str = "127.0.0.1", port: int = 0, quiet: bool = True,
                 idle_timeout: float = IDLE_TIMEOUT) -> None:
        attrs = {"quiet": quiet, "timeout": idle_timeout}
        handler = partial(type("Handler", (SiteHandler,), attrs), directory=str(directory))
        self.httpd = _QuietServer((host, port), handler)
        self.host, self.port = self.httpd.server_address[:2]
        self._thread: threading.Thread | None = None

    @property
    def url(self) -> str:
        """The site's base URL, with a trailing slash."""
        return f"http://{self.host}:{self.port}/"

    @property
    def bytes_sent(self) -> int:
        """Bytes sent so far (headers and bodies of every response)."""
        return int(self.httpd.bytes_sent)

    def start(self) -> SiteServer:
        """Serve in a background thread."""
        self._thread = threading.Thread(target=self.httpd.serve_forever, name="site-server", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        """Stop serving and close the port (idempotent)."""
        if self._thread is not None:
            self.httpd.shutdown()
            self._thread.join()
            self._thread = None
        self.httpd.server_close()
        self.httpd.close_connections()

    def __enter__(self) -> SiteServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


def _port(text: str) -> int:
    """A TCP port number from the command line."""
    if not (text.isascii() and text.isdigit()) or not 0 <= int(text) <= 65535:
        raise argparse.ArgumentTypeError(f"{text[:20]!r} is not a port number from 0 to 65535")
    return int(text)


def main(argv: list[str] | None = None) -> int:
    """Command line: serve until interrupted."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dir", type=Path, default=ROOT / "build" / "site")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=_port, default=8000, help="0 to 65535 (0: any free port)")
    parser.add_argument("--log", action="store_true", help="log every request")
    args = parser.parse_args(argv)
    if not (args.dir / "index.html").exists():
        print(f"serve: {args.dir} has no index.html: run `make site` first", file=sys.stderr)
        return 2
    try:
        server = SiteServer(args.dir, args.host, args.port, quiet=not args.log)
    except OSError as exc:
        print(f"serve: cannot listen on {args.host}:{args.port}: {exc.strerror}", file=sys.stderr)
        return 2
    print(f"Unitile at {server.url}  (Ctrl-C stops)", flush=True)
    try:
        server.httpd.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.httpd.server_close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
