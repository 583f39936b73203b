"""Unitile's :class:`Context` and :class:`Stage`: the shared framework's (:mod:`pipeline.stages`, which says
what a stage is) for a :class:`~unitile_py.unitile.board.Board` and a :class:`~pipeline.unitile.store.Store`.
Unitile's stages subclass :class:`Stage`, have their ``name`` as a class attribute and each say what they
must do at the least (:meth:`Stage.cost`); :func:`pipeline.unitile.build.plan` lists them.
"""

from __future__ import annotations

from typing import Any, Protocol

from unitile_py.unitile.board import Board

from .. import stages
from .bounds import Cost
from .store import Store


class Context(stages.StageContext[Board, Store]):
    """What a running stage may use: the board, the store, the executor and where to log."""


class Stage(stages.Stage[Context], Protocol):
    """One step of the build (:mod:`pipeline.stages`), with its cost."""

    def cost(self, ctx: Context, record: dict[str, Any]) -> Cost:
        """What the stage must do at the least, from its record: the bytes it must move, the ranks, tests
        and random reads its kernels must do (:mod:`pipeline.unitile.bounds` makes it the stage's bound)."""
        ...
