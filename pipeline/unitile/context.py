"""Unitile's :class:`Context` and :class:`Stage`: the shared framework's (:mod:`pipeline.stages`, which says
what a stage is) for a :class:`~unitile_py.unitile.board.Board` and a :class:`~pipeline.unitile.store.Store`.
Unitile's stages have their ``name`` as a class attribute; :func:`pipeline.unitile.build.plan` lists them.
"""

from __future__ import annotations

from typing import Any, ClassVar, Protocol

from unitile_py.unitile.board import Board

from ..stages import StageContext
from .store import Store


class Context(StageContext[Board, Store]):
    """What a running stage may use: the board, the store, the executor and where to log."""


class Stage(Protocol):
    """One step of the build (:mod:`pipeline.stages`)."""

    name: ClassVar[str]

    def run(self, ctx: Context) -> dict[str, Any]:
        """Do the work, write arrays to ``ctx.store``, return the record to store."""
        ...
