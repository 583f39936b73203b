"""``python -m pipeline compile-kernels``: every game's numba kernels compiled into numba's cache.

A kernel is compiled at its first call (seconds to minutes each: minutes in all for a game on a fresh
checkout) and then loaded from the cache by every later process that imports the same source: builds,
dask workers started on this machine or sharing its folder, tests. This command pays that once, ahead,
by each game's small real run in a scratch folder that it removes (the registry's ``kernels`` module).
The test suite runs it in the background, at the lowest priority, while its first tests run.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path
from typing import Any

from unitile_py import registry


def run(args: argparse.Namespace) -> int:
    """Compile the kernels of the games named (all when none), printing each game's time."""
    games = [g for g in registry.games() if g.kernels and (not args.game or g.key in args.game)]
    with tempfile.TemporaryDirectory(prefix="compile-kernels-") as scratch:
        for game in games:
            start = time.perf_counter()
            folder = Path(scratch) / game.key
            folder.mkdir()
            registry.load(game.kernels).compile_kernels(folder)
            if not args.quiet:
                print(f"{game.name}: kernels ready in {time.perf_counter() - start:.1f} s", flush=True)
    return 0


def register(sub: Any) -> None:
    """Add ``compile-kernels`` to ``python -m pipeline``."""
    keys = [g.key for g in registry.games() if g.kernels]
    c = sub.add_parser("compile-kernels", help="compile every game's numba kernels into numba's cache")
    c.add_argument("--game", action="append", choices=keys, help="only this game's (repeatable)")
    c.add_argument("--quiet", action="store_true", help="print nothing")
    c.set_defaults(run=run)
