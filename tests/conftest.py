"""The whole suite's hooks: numba's kernels compiled in the background while the first tests run.

On a fresh checkout each numba kernel is compiled at its first call, minutes in all, inside whichever
test calls it first. When tests that need no kernels come first (the browser's and the games'), the
session starts ``python -m pipeline compile-kernels`` beside them at the lowest priority, so that the
compiling uses the core they leave idle; a test that needs a kernel before it is cached compiles it
itself, as without this. The process is stopped when the session ends, whatever happened.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.pipeline.processes import Processes

ROOT = Path(__file__).resolve().parent.parent
#: Where the tests that call the kernels are.
KERNEL_TESTS = (ROOT / "tests" / "pipeline", ROOT / "pipeline")
#: How many tests must run before the first that calls a kernel for the background compile to start.
AHEAD = 50
COMPILER = pytest.StashKey["subprocess.Popen[bytes]"]()


def first_kernel_test(items: list[pytest.Item]) -> int | None:
    """The index of the first item that may call a numba kernel, or None."""
    for i, item in enumerate(items):
        if any(Path(str(item.fspath)).resolve().is_relative_to(d) for d in KERNEL_TESTS):
            return i
    return None


def pytest_collection_finish(session: pytest.Session) -> None:
    first = first_kernel_test(session.items)
    if first is None or first < AHEAD:
        return
    session.config.stash[COMPILER] = subprocess.Popen(
        [sys.executable, "-m", "pipeline", "compile-kernels", "--quiet"],
        cwd=ROOT, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        start_new_session=True, preexec_fn=lambda: os.nice(19),
    )


def pytest_sessionfinish(session: pytest.Session) -> None:
    proc = session.config.stash.get(COMPILER, None)
    if proc is not None:
        Processes.kill(proc)  # (a finished one is only waited for)
