"""What every part of a stage held in memory across workers shares (the solve's
:class:`~pipeline.unitile.partition.Partition`, perfect play's
:class:`~pipeline.unitile.perfect_parts.PerfectPart`): reaching the other parts, directly in this
process or worker to worker through dask actor calls, and waiting for what they send, with a timeout and
an abort.

A part's peers are the other parts' objects in this process (a :class:`~pipeline.groups.LocalGroup`)
or their dask actor handles. A delivery runs on the receiving worker's event loop (:meth:`Peers.deliver`
is a coroutine), so it lands while the part's own method runs in the actor thread; what it stores is
guarded by :attr:`Peers.arrived`, which it notifies.
"""

from __future__ import annotations

import inspect
import threading
import time
from collections.abc import Callable, Sequence
from typing import Any, ClassVar

from ..usage import peak_rss

#: Seconds a part waits for another part before giving up (a lost worker the driver has not seen yet;
#: once it has, it tells the parts to abort).
PEER_TIMEOUT = 60.0


class Peers:
    """The link of one part to the others: :meth:`set_peers`, :meth:`_send_all`, :meth:`_wait`."""

    #: The methods other parts may call through :meth:`deliver`.
    DELIVERIES: ClassVar[tuple[str, ...]] = ()

    def __init__(self, index: int) -> None:
        self.index = index
        self.peers: list[Any] = []
        self.aborted = False
        #: Notified whenever something from a peer arrives (or the driver aborts).
        self.arrived = threading.Condition()

    def set_peers(self, peers: Sequence[Any]) -> None:
        """All parts by index: part objects in this process, or dask actor handles (a part then calls the
        others' :meth:`deliver` directly, worker to worker)."""
        self.peers = list(peers)

    def close(self) -> None:
        """Drop the other parts' handles (the group is closing: :meth:`pipeline.groups.Group.close`)."""
        self.peers = []

    async def deliver(self, method: str, args: tuple[Any, ...]) -> None:
        """One of :attr:`DELIVERIES`, called by another part. A coroutine, so that dask runs it on the
        worker's event loop while this part's own method may be running in the actor thread."""
        if method not in self.DELIVERIES:
            raise ValueError(f"no such delivery: {method}")
        getattr(self, method)(*args)

    async def abort(self) -> None:
        """Stop waiting for peers (the driver lost one); runs on the event loop, like :meth:`deliver`."""
        with self.arrived:
            self.aborted = True
            self.arrived.notify_all()

    def run(self, fn: Callable[..., Any], *args: Any) -> Any:
        """``fn(self, *args)`` in this part's process: a loop that every part runs itself, exchanging
        with the others, instead of a round of calls per step from a driver in another process."""
        return fn(self, *args)

    def peak_memory(self) -> float:
        """Peak resident memory of this process since its stage began (the stage runner resets the
        high-water mark where the system allows: :mod:`pipeline.usage`), GiB."""
        return peak_rss() / 2**30

    def _wait(self, ready: Callable[[], bool], what: str, timeout: float | None = None) -> None:
        """Wait (on :attr:`arrived`) until ``ready()``; raise after ``timeout`` seconds (default
        :data:`PEER_TIMEOUT`) or on abort."""
        timeout = PEER_TIMEOUT if timeout is None else timeout
        deadline = time.monotonic() + timeout
        with self.arrived:
            while not ready():
                left = deadline - time.monotonic()
                if self.aborted or left <= 0:
                    why = "aborted" if self.aborted else f"no news from a peer in {timeout:.0f} s"
                    raise RuntimeError(f"part {self.index}: waiting for {what}: {why}")
                self.arrived.wait(left)

    def _send_all(self, calls: list[tuple[int, str, tuple[Any, ...]]], wait: bool = True) -> list[Any]:
        """``peers[w].method(*args)`` for every call, concurrently to actors, and wait for all (unless
        not ``wait``: a part running a loop itself waits for what it receives instead). Returns the
        calls still under way (none after a wait; :meth:`_settle` waits for them)."""
        pending = []
        for w, method, args in calls:
            peer = self.peers[w]
            if isinstance(peer, Peers):
                getattr(peer, method)(*args)
                continue
            fut = peer.deliver(method, args)
            if inspect.iscoroutine(fut):
                # dask hands an actor on the same worker over as the object itself: its coroutine
                # never awaits, so it runs to completion here.
                try:
                    fut.send(None)
                except StopIteration:
                    continue
                raise RuntimeError(f"{type(self).__name__}.deliver awaited")
            pending.append(fut)
        if not wait:
            return pending
        self._settle(pending)
        return []

    def _settle(self, pending: list[Any], errors: bool = True) -> None:
        """Wait until every call of ``pending`` (dask actor futures) has been taken by its peer, and raise
        the error of one that failed (not without ``errors``: a call already answered then needs no
        round through the event loop, which ``result`` makes). A peer on a lost worker may never answer:
        give up when the driver says so (abort) or after :data:`PEER_TIMEOUT`, so that the round fails
        and the stage can restart the parts."""
        deadline = time.monotonic() + PEER_TIMEOUT
        for fut in pending:
            while errors or not fut.done():
                try:
                    fut.result(timeout=0.5)
                    break
                except TimeoutError:
                    if self.aborted or time.monotonic() > deadline:
                        raise RuntimeError(f"part {self.index}: a peer did not take what it sent") from None
