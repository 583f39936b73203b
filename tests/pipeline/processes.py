"""Processes a test starts (each in its own session, its whole group killed at the end even when the test
fails) and a real dask cluster on 127.0.0.1 made of them: a ``dask scheduler`` and named ``dask worker``
processes, run from the virtual environment the project is installed into, without ``PYTHONPATH``."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

DASK = str(Path(sys.executable).with_name("dask"))
DEADLINE = 120.0


def installed_env() -> dict[str, str]:
    """This environment without ``PYTHONPATH``: the processes find the project as installed."""
    return {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}


def wait_for(condition: Callable[[], Any], what: str, timeout: float = DEADLINE) -> Any:
    """Poll ``condition`` until it returns something truthy; fail after ``timeout`` seconds."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        value = condition()
        if value:
            return value
        time.sleep(0.005)
    raise AssertionError(f"timed out waiting for {what}")


class Processes:
    """Processes started by a test, each in its own session; :meth:`stop_all` kills their groups."""

    def __init__(self, logs: Path, env: dict[str, str] | None = None) -> None:
        self.logs = logs
        #: The environment of every process (default: :func:`installed_env`).
        self.env = env if env is not None else installed_env()
        self.started: list[subprocess.Popen[bytes]] = []

    def start(self, name: str, cmd: list[str]) -> subprocess.Popen[bytes]:
        """Start ``cmd`` in the log directory (a temporary one) with :attr:`env`."""
        with open(self.logs / f"{name}.log", "wb") as log:
            proc = subprocess.Popen(
                cmd, cwd=self.logs, env=self.env, stdout=log, stderr=subprocess.STDOUT,
                start_new_session=True,
            )  # fmt: skip
        self.started.append(proc)
        return proc

    @staticmethod
    def kill(proc: subprocess.Popen[bytes]) -> None:
        """SIGKILL the process and everything in its group (a nanny and its worker)."""
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()

    def stop_all(self) -> None:
        for proc in self.started:
            self.kill(proc)


class Cluster:
    """A scheduler and named workers, plus a client in the test process to watch the scheduler."""

    def __init__(self, procs: Processes, tmp: Path) -> None:
        from dask.distributed import Client

        self.procs = procs
        self.file = tmp / "scheduler.json"
        procs.start(
            "scheduler",
            [DASK, "scheduler", "--host", "127.0.0.1", "--port", "0", "--no-dashboard",
             "--scheduler-file", str(self.file)],
        )  # fmt: skip
        wait_for(lambda: self.file.exists() and self.file.stat().st_size > 0, "the scheduler file")
        self.address: str = wait_for(self._address, "the scheduler address")
        self.workers: dict[str, subprocess.Popen[bytes]] = {}
        self.client = Client(self.address, timeout="30s")

    def _address(self) -> str | None:
        try:
            return json.loads(self.file.read_text())["address"]
        except (json.JSONDecodeError, KeyError):
            return None

    def start_worker(self, name: str, prefix: tuple[str, ...] = ()) -> None:
        """A single-threaded worker; ``prefix`` runs it through another command (``taskset -c 0``)."""
        self.workers[name] = self.procs.start(
            name,
            [*prefix, DASK, "worker", "--scheduler-file", str(self.file), "--host", "127.0.0.1",
             "--nworkers", "1", "--nthreads", "1", "--no-dashboard", "--name", name],
        )  # fmt: skip

    def wait_workers(self, n: int) -> None:
        self.client.wait_for_workers(n, timeout=DEADLINE)

    def worker_address(self, name: str) -> str | None:
        for address, info in self.client.scheduler_info(n_workers=-1)["workers"].items():
            if info.get("name") == name:
                return address
        return None

    def processing(self, address: str) -> tuple[str, ...]:
        """Keys of the tasks the scheduler has assigned to one worker."""
        return tuple(str(k) for k in self.client.processing(workers=[address]).get(address, ()))
