"""Groups of stateful objects spread over an executor's workers (:meth:`pipeline.executor.Executor.group`).

A game's stage that iterates over parts it keeps in memory (Unitile's solve, :mod:`pipeline.unitile.cg`)
calls a method on every part at once through a :class:`Group`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Protocol

#: The arguments of each part's call (``args[w]`` for part w), or None for none.
CallArgs = Sequence[tuple[Any, ...]] | None
#: What a group whose calls return later calls now and then while it waits.
OnWait = Callable[[], None] | None


class Group(Protocol):
    """Objects that keep state between calls (the parts of a solve), wherever they live: in this
    process (:class:`LocalGroup`) or in dask actors (:class:`pipeline.executor.ActorGroup`)."""

    size: int
    #: What a part calls to reach the others (:meth:`pipeline.unitile.partition.Partition.set_peers`).
    handles: list[Any]
    #: Whether the parts live in other processes (every call a round trip).
    remote: bool

    def call(self, method: str, args: CallArgs = None, on_wait: OnWait = None) -> list[Any]:
        """``[part.method(*args[w]) for each part w]`` (no arguments when ``args`` is None); a group
        whose calls return later calls ``on_wait()`` now and then until they have."""
        ...

    def apart(self) -> bool:
        """Whether every part lives in a process of its own, each with a thread for its calls, so that
        one call on every part can run them all at once, waiting for each other."""
        ...

    def close(self) -> None:
        """Let the parts go now, not whenever the last reference to the group happens to be freed: each
        part that has a ``close`` method drops its handles of the others, then the group forgets them
        (dask actors: their keys are released), so that their memory is free for the next stage. A part
        that cannot be reached (a lost worker) is passed over."""
        ...


class LocalGroup:
    """Objects held in this process."""

    def __init__(self, parts: list[Any]) -> None:
        self.parts = parts
        self.size = len(parts)
        self.handles: list[Any] = list(parts)

    remote = False

    def call(self, method: str, args: CallArgs = None, on_wait: OnWait = None) -> list[Any]:
        """Call each part in turn (each call has returned before the next: ``on_wait`` is never needed)."""
        args = args or [()] * self.size
        return [getattr(part, method)(*a) for part, a in zip(self.parts, args, strict=True)]

    def apart(self) -> bool:
        """No: the parts run one after another."""
        return False

    def close(self) -> None:
        """Close each part that has a ``close`` method, then forget them all."""
        for part in self.parts:
            if hasattr(part, "close"):
                part.close()
        self.parts, self.handles, self.size = [], [], 0


__all__ = ["CallArgs", "Group", "LocalGroup", "OnWait"]
