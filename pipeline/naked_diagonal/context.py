"""Naked Diagonal's :class:`Context` and :class:`Stage`: the shared framework's (:mod:`pipeline.stages`,
which says what a stage is) for a board of N x N points and a :class:`~pipeline.naked_diagonal.store.Store`.
Naked Diagonal's stages subclass :class:`Stage` and have their ``name`` as a class attribute, or as a
property where the tier is in it; :func:`pipeline.naked_diagonal.build.plan` lists them.
"""

from __future__ import annotations

from typing import Protocol

from .. import stages
from .store import Store


class Context(stages.StageContext[int, Store]):
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


class Stage(stages.Stage[Context], Protocol):
    """One step of the solve (:mod:`pipeline.stages`)."""
