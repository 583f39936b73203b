"""Fixtures of the Unitile pipeline tests: a finished 3x5 value build (the 3x3 build to copy is in
tests/pipeline/conftest.py), a rebuild through ``python -m pipeline``."""

from __future__ import annotations

import hashlib
import threading
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import pytest

from pipeline.executor import InProcessExecutor
from pipeline.unitile.build import run_build, value_stages
from pipeline.unitile.context import Context
from pipeline.unitile.store import Store
from tests.pipeline.test_bad_input_and_damage import cli
from unitile_py.unitile import Board

B35 = Board.get(3, 5)


def quiet_build(path: Path, board: Board, executor: object | None = None) -> dict:
    """Run the value stages in process (or on ``executor``) without output."""
    store = Store(str(path), board, create=True)
    ctx = Context(board, store, executor or InProcessExecutor(), log=lambda msg: None)
    return run_build(ctx, stages=value_stages())


@pytest.fixture(scope="session")
def clean35(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A 3x5 store with the value stages done (read it; do not change it)."""
    path = tmp_path_factory.mktemp("b") / "3x5.zarr"
    quiet_build(path, B35)
    return path


def digests(folder: Path) -> dict[str, str]:
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in folder.iterdir() if p.is_file()}


def rebuild(store: Path, *extra: str) -> tuple[int, str]:
    out = cli("build", "--board", "3x3", "--store", str(store), *extra, "--in-process")
    return out.returncode, out.stderr.decode()


def run_in_threads(parts: Sequence[Any], fn: Callable[[Any], Any]) -> list[Any]:
    """``fn(part)`` for every part at once, each in a thread of its own, as the parts of a cluster run
    their loops in their own processes; the results by part. A part that fails makes the others abort
    their waits; the first error is raised once every thread has ended."""
    results: list[Any] = [None] * len(parts)

    def run(i: int) -> None:
        try:
            results[i] = fn(parts[i])
        except Exception as exc:  # reported below, after every thread has ended
            results[i] = exc
            for other in parts:
                with other.arrived:
                    other.aborted = True
                    other.arrived.notify_all()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(parts))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for r in results:
        if isinstance(r, Exception):
            raise r
    return results
