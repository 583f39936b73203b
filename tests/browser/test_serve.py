"""The static server (site/serve.py) against hostile requests: no listings, no crash, no hung threads.

These need no browser: each test serves a small folder of its own on 127.0.0.1.
"""

from __future__ import annotations

import http.client
import os
import socket
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from .conftest import ROOT, serve_module


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    (tmp_path / "index.html").write_text("<!doctype html><title>t</title>", encoding="utf-8")
    (tmp_path / "py").mkdir()
    (tmp_path / "py" / "game.py").write_text("x = 1\n", encoding="utf-8")
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "index.html").write_text("<!doctype html><title>d</title>", encoding="utf-8")
    return tmp_path


@pytest.fixture
def server(folder: Path) -> Iterator[Any]:
    with serve_module.SiteServer(folder, idle_timeout=0.5) as s:
        yield s


def get(server: Any, path: str) -> tuple[int, dict[str, str], bytes]:
    conn = http.client.HTTPConnection(server.host, server.port, timeout=10)
    try:
        conn.putrequest("GET", path, skip_accept_encoding=True)
        conn.endheaders()
        response = conn.getresponse()
        return response.status, dict(response.getheaders()), response.read()
    finally:
        conn.close()


def test_a_nul_byte_in_the_path_is_a_bad_request_and_the_server_goes_on(server: Any) -> None:
    assert get(server, "/index.html%00.png")[0] == 400
    assert get(server, "/py/%00")[0] == 400
    assert get(server, "/%ff%fe")[0] == 404
    status, _, body = get(server, "/")
    assert status == 200 and b"<title>t</title>" in body


def test_folders_are_never_listed(server: Any) -> None:
    for path in ("/py/", "/py", "/py/?x=1", "/docs/../py/"):
        status, _, body = get(server, path)
        assert status == 404, path
        assert b"game.py" not in body
    assert get(server, "/docs/")[0] == 200  # a folder with an index page serves that page
    assert get(server, "/py/game.py")[0] == 200


def test_the_server_header_names_no_software_version(server: Any) -> None:
    _, headers, _ = get(server, "/")
    assert headers["Server"] == "site"
    _, headers, _ = get(server, "/missing")
    assert "Python" not in headers["Server"]


def test_an_idle_or_half_sent_request_is_closed(server: Any) -> None:
    with socket.create_connection((server.host, server.port), timeout=10) as half:
        half.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n")  # never finished
        # The server closes the connection after its idle timeout (0.5 s here): recv sees the end.
        data = b""
        while chunk := half.recv(4096):
            data += chunk
    assert b"200 OK" not in data


def test_twenty_parallel_clients_are_all_served(server: Any) -> None:
    assert server.httpd.request_queue_size >= 20
    results: list[int] = []
    lock = threading.Lock()

    def client() -> None:
        status = get(server, "/py/game.py")[0]
        with lock:
            results.append(status)

    threads = [threading.Thread(target=client) for _ in range(40)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert results == [200] * 40


@pytest.mark.parametrize("port", ["99999", "-1", "８０", "http"])
def test_a_bad_port_is_one_line(port: str) -> None:
    run = subprocess.run([sys.executable, str(ROOT / "site" / "serve.py"), "--port", port],
                         capture_output=True, text=True, timeout=60)
    assert run.returncode == 2
    assert "Traceback" not in run.stderr
    assert "port number from 0 to 65535" in run.stderr


def test_a_missing_site_is_one_line(tmp_path: Path) -> None:
    run = subprocess.run([sys.executable, str(ROOT / "site" / "serve.py"), "--dir", str(tmp_path)],
                         capture_output=True, text=True, timeout=60)
    assert run.returncode == 2
    assert run.stderr.count("\n") == 1 and "no index.html" in run.stderr


@pytest.mark.parametrize("kind", ["fifo", "dev-zero link", "dangling link", "index.html a fifo"])
def test_a_special_file_is_never_served(folder: Path, server: Any, kind: str) -> None:
    """A FIFO, a link to /dev/zero or a dangling link answers 404 at once: nothing blocks a thread on
    a FIFO nor sends an endless body under ``Content-Length: 0``; the server goes on serving."""
    if kind == "fifo":
        os.mkfifo(folder / "py" / "pipe.py")
        path = "/py/pipe.py"
    elif kind == "dev-zero link":
        (folder / "py" / "zero.bin").symlink_to("/dev/zero")
        path = "/py/zero.bin"
    elif kind == "dangling link":
        (folder / "py" / "gone.py").symlink_to(folder / "nowhere")
        path = "/py/gone.py"
    else:
        (folder / "py" / "sub").mkdir()
        os.mkfifo(folder / "py" / "sub" / "index.html")
        path = "/py/sub/"
    status, _, body = get(server, path)
    assert status == 404, (status, body[:80])
    assert get(server, "/py/game.py")[0] == 200
