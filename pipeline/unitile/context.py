"""What a stage of the build is (:class:`Stage`) and what it may use while it runs (:class:`Context`).

A stage is a frozen dataclass with a class attribute ``name`` and a method ``run(ctx) -> dict``: it reads
what earlier stages stored, runs independent tasks through ``ctx.executor.map(task_fn, items, desc)``
(``task_fn`` a top-level function of one picklable argument), writes its arrays with
``ctx.store.create`` / ``ctx.store.array`` (shards aligned to tasks) and returns its record, a JSON dict
that :func:`pipeline.unitile.build.run_build` stores once the stage is complete. Its options are fields, set
when the plan is made (:func:`pipeline.unitile.build.plan`). An optional method ``summary(record) ->
list[str]`` gives lines to print when a rerun skips the completed stage.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, ClassVar, Protocol

from unitile_py.unitile.board import Board

from ..executor import Executor
from .store import Store


def _to_stderr(msg: str) -> None:
    print(msg, file=sys.stderr)


@dataclass(frozen=True)
class Context:
    """What a running stage may use: the board, the store, the executor and where to log."""

    board: Board
    store: Store
    executor: Executor
    show_progress: bool = False
    log: Callable[[str], None] = field(default=_to_stderr)

    @property
    def task_threads(self) -> int:
        """Numba threads for each task, so that all workers together use the machine's cores."""
        return max(1, (os.cpu_count() or 1) // max(1, self.executor.workers))


class Stage(Protocol):
    """One step of the build (see the module docstring)."""

    name: ClassVar[str]

    def run(self, ctx: Context) -> dict[str, Any]:
        """Do the work, write arrays to ``ctx.store``, return the record to store."""
        ...
