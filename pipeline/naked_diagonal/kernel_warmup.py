"""Naked Diagonal's numba kernels compiled into numba's cache (``python -m pipeline compile-kernels``): a
whole 2x2 solve in this process into a scratch folder (the tiers, solve, checks and tables), one proof by
the df-pn search and one area decided by the exact solver.

A board's size is a value, not a type, to every kernel, so these compile what every board's runs use.
"""

from __future__ import annotations

from pathlib import Path

from ..executor import InProcessExecutor
from . import kernels
from .build import BuildOptions, plan, run_build
from .context import Context
from .dfpn import DfpnSearch
from .geometry import Geometry
from .store import Store


def compile_kernels(folder: Path) -> None:
    """Solve 2x2 into ``folder`` (a scratch folder the caller removes), prove its empty board, and
    decide one 4x4 area."""
    store = Store(str(folder / "2x2.zarr"), 2, create=True)
    ctx = Context(2, store, InProcessExecutor(), log=lambda line: None)
    run_build(ctx, plan(2, BuildOptions(tables=str(folder / "tables"))))
    DfpnSearch(2).prove(0, 0, 0)
    kernels.fillable(Geometry.of(4).args, 0b0110_0110, 0, 0, 0, kernels.new_memo())
