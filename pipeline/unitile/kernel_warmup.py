"""Unitile's numba kernels compiled into numba's cache: a whole 3x3 build, in this process, into a
scratch folder (``python -m pipeline compile-kernels``).

Every kernel is compiled at its first call and kept in numba's cache beside its source (or under
``NUMBA_CACHE_DIR``); a board's size is a value, not a type, so the 3x3 build compiles what every board's
build, check and lookup run.
"""

from __future__ import annotations

from pathlib import Path

from unitile_py.unitile.board import Board

from ..executor import InProcessExecutor
from .build import BuildOptions, plan, run_build
from .context import Context
from .store import Store


def compile_kernels(folder: Path) -> None:
    """Build 3x3 into ``folder`` (a scratch folder the caller removes)."""
    board = Board.parse("3x3")
    store = Store(str(folder / "3x3.zarr"), board, create=True)
    ctx = Context(board, store, InProcessExecutor(), log=lambda line: None)
    run_build(ctx, plan(BuildOptions(tables=str(folder / "tables"))))
