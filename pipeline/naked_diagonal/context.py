"""What a stage of the Naked Diagonal solve is (:class:`NDStage`), what it may use while it runs
(:class:`NDContext`) and the options of the stages that have any (:class:`NDOptions`).

A stage is a frozen dataclass with a ``name`` (a class attribute, or a property where the tier is in it) and
``run(ctx) -> dict``, as in the shared framework (:mod:`pipeline.stages`): it reads earlier stages' arrays
from the store, runs its tasks through ``ctx.executor.map`` (:class:`pipeline.executor.Executor`: in
process, a dask ``LocalCluster`` or a cluster's scheduler) and returns its record.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

from pipeline.stages import Stage, StageContext

from .store import NDStore


class NDContext(StageContext[int, NDStore]):
    """What a running stage may use: the board size N (``board``), the store, the executor and where
    to log."""

    @property
    def n(self) -> int:
        """Points on a side of the board."""
        return self.board

    @property
    def points(self) -> int:
        """Points on the board."""
        return self.board * self.board


#: One step of the solve.
NDStage = Stage[NDContext]


@dataclass(frozen=True)
class NDOptions:
    """The options of the stages that have any."""

    #: Positions per part of a tier (one task and one shard each).
    part_size: int = 1 << 15
    #: Where the ``tables`` stage writes (None: ``tables/naked-diagonal/<n>x<n>`` of the repository).
    tables: str | None = None
    #: Positions per part whose legality ``verify`` compares with the game's engine.
    legality_sample: int = 24
    #: Build only the tiers up to this many stones (no solve): to measure a board too large to solve.
    max_tier: int | None = None


def default_tables(n: int) -> str:
    """``tables/naked-diagonal/<n>x<n>`` of the repository (or under ``$UNITILE_TABLES``)."""
    from unitile_py.naked_diagonal.keys import default_root

    return os.fspath(default_root() / f"{n}x{n}")
