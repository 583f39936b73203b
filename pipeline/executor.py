"""Executors: run a stage's independent tasks in this process or on a dask.distributed cluster.

Both offer ``map(fn, items, desc)`` returning results in item order, with a progress bar. Tasks are
plain top-level functions of picklable arguments that read their inputs from the zarr store and write
their outputs there, so any executor gives the same results.
"""

from __future__ import annotations

import contextlib
import logging
import sys
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import CancelledError
from typing import Any, Protocol, TypeVar

from tqdm import tqdm

from unitile_py.errors import GameError

from .cores import allowed_cores
from .groups import CallArgs, LocalGroup, OnWait

T = TypeVar("T")
R = TypeVar("R")
S = TypeVar("S")

#: The allocator settings docs/cluster.md asks for in the environment of a cluster's ``dask worker``
#: processes: glibc's behaviour once its mmap threshold has adapted (a nanny's own
#: ``MALLOC_TRIM_THRESHOLD_=65536`` turns the adaptation off; see :class:`DaskExecutor`), with that
#: threshold at 16 MiB and one heap for all threads (what a trim gives back).
WORKER_MALLOC_ENV = {
    "MALLOC_TRIM_THRESHOLD_": str(128 << 20),
    "MALLOC_MMAP_THRESHOLD_": str(16 << 20),
    "MALLOC_ARENA_MAX": "1",
}

BAR_FORMAT = "{desc:<10} {percentage:3.0f}%|{bar:24}| {n_fmt}/{total_fmt} [{elapsed}<{remaining}{postfix}]"


def progress(total: float, desc: str, enabled: bool = True, unit: str = "task") -> tqdm:
    """A progress bar with elapsed time and ETA (silent when disabled or not a terminal)."""
    return tqdm(
        total=total,
        desc=desc,
        unit=unit,
        disable=not enabled,
        bar_format=BAR_FORMAT,
        file=sys.stderr,
        leave=True,
        mininterval=0.5,
        dynamic_ncols=True,
    )


class Executor(Protocol):
    """Runs independent tasks."""

    #: Parallel workers (the solve's parts on a cluster are one per worker).
    workers: int
    #: The numba threads each task asks for (:func:`pipeline.cores.usable_threads`): the share of the
    #: cores when this process knows the machine the tasks run on; None lets the worker decide.
    threads: int | None
    show_progress: bool
    #: The tasks run so far: one per item of every :meth:`map`, one per object of every :meth:`group`
    #: (a stage's record counts its own).
    tasks: int

    def map(self, fn: Callable[[T], R], items: Sequence[T], desc: str,
            on_result: Callable[[int, R], None] | None = None) -> list[R]:
        """``[fn(item) for item in items]``, possibly in parallel; ``on_result(i, result)`` as each
        task finishes (a caller keeps results a stopped run would lose)."""
        ...

    def map_shared(self, fn: Callable[[T, S], R], items: Sequence[T], shared: S, desc: str) -> list[R]:
        """``[fn(item, shared) for item in items]``, possibly in parallel: ``shared`` is one object every
        task reads, which goes to each worker once instead of with every task."""
        ...

    def group(self, cls: type, args: Sequence[tuple[Any, ...]]) -> Any:
        """Objects ``cls(*a)`` that keep state between calls, one per ``a``, spread over the workers;
        a :class:`pipeline.groups.Group` over them."""
        ...

    def lost_workers(self) -> bool:
        """Whether a worker that held objects of :meth:`group` is gone (so a retry may succeed)."""
        ...

    def sample_workers(self, reset: bool = False) -> dict[str, tuple[float, int, int]]:
        """:func:`pipeline.usage.sample` in every worker process other than this one, by worker; empty
        when the tasks run in this process."""
        ...

    def close(self) -> None:
        """Release workers."""
        ...


class InProcessExecutor:
    """Runs tasks one after the other in this process (tests, debugging, tiny boards)."""

    def __init__(self, show_progress: bool = False) -> None:
        self.workers = 1
        self.threads: int | None = None  # every core this process may use
        self.show_progress = show_progress
        self.tasks = 0

    def map(self, fn: Callable[[T], R], items: Sequence[T], desc: str,
            on_result: Callable[[int, R], None] | None = None) -> list[R]:
        """Run each task in turn."""
        self.tasks += len(items)
        out = []
        with progress(len(items), desc, self.show_progress) as bar:
            for i, item in enumerate(items):
                out.append(fn(item))
                if on_result is not None:
                    on_result(i, out[-1])
                bar.update(1)
        return out

    def map_shared(self, fn: Callable[[T, S], R], items: Sequence[T], shared: S, desc: str) -> list[R]:
        """:meth:`map` of ``fn(item, shared)``."""
        return self.map(lambda item: fn(item, shared), items, desc)

    def group(self, cls: type, args: Sequence[tuple[Any, ...]]) -> Any:
        """The objects, in this process."""
        self.tasks += len(args)
        return LocalGroup([cls(*a) for a in args])

    def lost_workers(self) -> bool:
        """Never: everything is in this process."""
        return False

    def sample_workers(self, reset: bool = False) -> dict[str, tuple[float, int, int]]:
        """None: the tasks run in this process, whose own sample covers them."""
        return {}

    def close(self) -> None:
        """Nothing to release."""


class DaskExecutor:
    """Runs tasks on dask.distributed: a LocalCluster of ``workers`` processes, or ``scheduler``.

    Tasks lost with a worker are rerun by dask (up to ``retries`` more times on errors).
    """

    def __init__(
        self,
        workers: int | None = None,
        scheduler: str | None = None,
        processes: bool = True,
        show_progress: bool = True,
        retries: int = 2,
    ) -> None:
        import dask
        from dask.distributed import Client, LocalCluster

        self.show_progress = show_progress
        self.retries = retries
        self.tasks = 0
        self.cluster = None
        self.scheduler = scheduler
        #: Whether the workers are processes other than this one (a LocalCluster of threads is not).
        self.processes = processes or scheduler is not None
        #: The workers that hold objects of the last :meth:`group`.
        self._held: set[str] = set()
        if scheduler is not None:
            address = scheduler if "://" in scheduler else f"tcp://{scheduler}"
            # The client's own log is of its connection (a lost scheduler: tracebacks of each attempt to
            # reconnect, and of the batched stream that closes: "Batched Comm Closed", at INFO); task
            # errors come back with the futures, and a lost scheduler is one line (check_scheduler).
            # "distributed.client" has a level of its own in dask's config; the others inherit.
            for name in ("distributed", "distributed.client"):
                logging.getLogger(name).setLevel(logging.CRITICAL)
            try:
                self.client = Client(address, timeout="10s")
            except (OSError, TimeoutError) as exc:
                raise GameError(f"scheduler {scheduler}: cannot connect ({exc})") from None
            except ValueError as exc:
                raise GameError(f"scheduler {scheduler}: give HOST:PORT ({exc})") from None
            info = self.client.scheduler_info()
            self.workers = max(1, len(info.get("workers", {})))
            # The workers' machines are not this one: each worker sizes its tasks' threads itself.
            self.threads: int | None = None
        else:
            # The workers are processes (or threads) on this machine and inherit this process's CPU
            # affinity: one per core it may use, and each task its share of those cores.
            cores = allowed_cores()
            n = workers or cores
            # dask's nanny starts workers with MALLOC_TRIM_THRESHOLD_=65536, which also turns off
            # glibc's adaptive mmap threshold: every large numpy temporary is then mapped and unmapped
            # afresh, its pages faulted in again (measured: docs/pipeline.md, "The allocator"). Local
            # workers get glibc's defaults.
            with dask.config.set({"distributed.nanny.pre-spawn-environ.MALLOC_TRIM_THRESHOLD_": None}):
                self.cluster = LocalCluster(
                    n_workers=n,
                    threads_per_worker=1,
                    processes=processes,
                    dashboard_address=":0",
                    silence_logs=40,
                )
            self.client = Client(self.cluster)
            self.workers = n
            self.threads = max(1, cores // n)
        link = self.client.dashboard_link
        if link and show_progress:
            print(f"dask dashboard: {link}", file=sys.stderr)

    def map(self, fn: Callable[[T], R], items: Sequence[T], desc: str,
            on_result: Callable[[int, R], None] | None = None) -> list[R]:
        """Submit every task, collect results in order as they finish."""
        self.tasks += len(items)
        futures = self.client.map(fn, list(items), pure=False, retries=self.retries)
        return self._collect(futures, desc, on_result)

    def map_shared(self, fn: Callable[[T, S], R], items: Sequence[T], shared: S, desc: str) -> list[R]:
        """:meth:`map` of ``fn(item, shared)``, ``shared`` scattered to every worker once (a worker that
        joins later fetches it from another, as any task's input)."""
        self.tasks += len(items)
        [common] = self.client.scatter([shared], broadcast=True, hash=False)
        try:
            shared_args = [common] * len(items)
            futures = self.client.map(fn, list(items), shared_args, pure=False, retries=self.retries)
            return self._collect(futures, desc, None)
        finally:
            common.release()

    def _collect(
        self, futures: list[Any], desc: str, on_result: Callable[[int, Any], None] | None
    ) -> list[Any]:
        """The results of ``futures``, in order, each let go as soon as it is in: a worker keeps a task's
        arguments as long as the client holds its future (measured, docs/cluster.md: "The tasks'
        arguments")."""
        from dask.distributed import as_completed

        index = {f.key: i for i, f in enumerate(futures)}
        out: list[Any] = [None] * len(futures)
        with progress(len(futures), desc, self.show_progress) as bar:
            try:
                for fut in as_completed(futures):
                    i = index[fut.key]
                    out[i] = fut.result()
                    fut.release()
                    if on_result is not None:
                        on_result(i, out[i])
                    bar.update(1)
            except (ImportError, RuntimeError, CancelledError, OSError) as exc:
                self.check_scheduler()
                cause = exc if isinstance(exc, ImportError) else exc.__cause__
                if not isinstance(cause, ImportError):
                    raise
                exc = cause
                self.client.cancel(futures)
                raise GameError(
                    f"{desc}: the cluster cannot import the project ({exc}); install it on every node "
                    "(pip install -e . with requirements.lock, docs/cluster.md) and start the scheduler "
                    "and workers from that environment"
                ) from None
        return out

    def check_scheduler(self) -> None:
        """A one-line error when the connection to the scheduler is lost (it died, or its machine)."""
        if self.client.status in ("running", "newly-created"):
            return
        where = f"scheduler {self.scheduler}" if self.scheduler else "the local scheduler"
        raise GameError(
            f"{where} is gone (the connection to it was lost); start it again and rerun the same command "
            "to resume"
        )

    def worker_addresses(self) -> list[str]:
        """The workers now connected, in a fixed order."""
        return sorted(self.client.scheduler_info(n_workers=-1).get("workers", {}))

    def group(self, cls: type, args: Sequence[tuple[Any, ...]]) -> ActorGroup:
        """Dask actors, one per ``args`` entry, placed round robin on the workers now connected."""
        self.check_scheduler()
        self.tasks += len(args)
        workers = self.worker_addresses()
        if not workers:
            raise GameError("the cluster has no workers")
        futures = [
            self.client.submit(
                cls, *a, actor=True, pure=False, workers=[workers[i % len(workers)]], allow_other_workers=True
            )
            for i, a in enumerate(args)
        ]
        actors = [f.result() for f in futures]
        self._held = {workers[i % len(workers)] for i in range(len(args))}
        return ActorGroup(actors, futures)

    def lost_workers(self, patience: float = 30.0) -> bool:
        """Whether a worker that held actors is no longer connected. The scheduler may notice a death
        a little after this client does, so ask again for up to ``patience`` seconds."""
        import time

        held = self._held
        end = time.monotonic() + patience
        while True:
            self.check_scheduler()
            if held - set(self.worker_addresses()):
                return True
            if time.monotonic() > end:
                return False
            time.sleep(0.2)

    def sample_workers(self, reset: bool = False) -> dict[str, tuple[float, int, int]]:
        """:func:`pipeline.usage.sample` in every worker (none for thread workers, which live in this
        process, nor when the scheduler is out of reach: the numbers are only a report)."""
        from .usage import sample

        if not self.processes or self.client.status != "running":
            return {}
        try:
            got = self.client.run(sample, reset)
        except Exception:  # a worker going away while asked: no sample rather than a failed build
            return {}
        return {str(k): (float(v[0]), int(v[1]), int(v[2])) for k, v in got.items()}

    def close(self) -> None:
        """Close the client and any cluster it started."""
        self.client.close(timeout=10)
        if self.cluster is not None:
            self.cluster.close()


#: Seconds between looks at the other calls of a round while one is still running.
POLL_SECONDS = 0.05
#: Seconds a group waits for each actor to close before it releases them anyway.
CLOSE_SECONDS = 30.0


class ActorGroup:
    """Dask actors; a call runs a method on all of them at once and waits for every result."""

    def __init__(self, actors: list[Any], futures: list[Any]) -> None:
        self.actors = actors
        self.futures = futures  # held so that the actors live as long as the group
        self.size = len(actors)
        self.handles = actors

    #: Every call is a message to another process and back (docs/pipeline.md, "The solve beside its part").
    remote = True

    def call(self, method: str, args: CallArgs = None, on_wait: OnWait = None) -> list[Any]:
        """``[actor.method(*args[w]) for each actor w]``, run concurrently; ``on_wait()`` every
        :data:`POLL_SECONDS` while some are still running.

        The first call that fails (an actor on a lost worker) makes every actor :meth:`abort` whatever
        it waits for, and is raised at once: the others would otherwise wait for the lost one.
        """
        args = args or [()] * self.size
        results: list[Any] = [None] * self.size
        try:
            pending = [getattr(a, method)(*x) for a, x in zip(self.actors, args, strict=True)]
            waiting = list(range(self.size))
            while waiting:
                for w in list(waiting):
                    try:
                        results[w] = pending[w].result(timeout=POLL_SECONDS)
                    except TimeoutError:
                        continue
                    waiting.remove(w)
                if waiting and on_wait is not None:
                    on_wait()
        except Exception:
            self.abort()
            raise
        return results

    def apart(self) -> bool:
        """Whether every actor is on a worker of its own (each worker runs one actor call at a time; after
        a lost worker, two actors may share one)."""
        return len({getattr(a, "_address", None) for a in self.actors} - {None}) == self.size

    def abort(self) -> None:
        """Ask every actor to stop waiting for the others (not awaited: a lost one never answers)."""
        for actor in self.actors:
            with contextlib.suppress(Exception):  # an actor on a lost worker refuses calls
                actor.abort()

    def close(self) -> None:
        """Close every actor whose class has a ``close`` method (it drops its handles of the others), then
        release the actors' keys, so that their workers delete them now."""
        closing = []
        for actor in self.actors:
            if hasattr(getattr(actor, "_cls", None), "close"):
                with contextlib.suppress(Exception):  # an actor on a lost worker refuses calls
                    closing.append(actor.close())
        for pending in closing:
            with contextlib.suppress(Exception):
                pending.result(timeout=CLOSE_SECONDS)
        if self.futures:
            with contextlib.suppress(Exception):  # a client already closed has nothing to release
                self.futures[0].client.cancel(self.futures)
        self.actors, self.futures, self.handles, self.size = [], [], [], 0


def engine_arguments(parser: Any) -> None:
    """Add the options that choose the engine of a command (:func:`executor_of`) to an argparse parser."""
    parser.add_argument("--workers", type=int, help="local dask workers (default: one per core)")
    parser.add_argument("--scheduler", help="HOST:PORT of an existing dask.distributed scheduler")
    parser.add_argument("--threads", action="store_true", help="local workers are threads, not processes")
    parser.add_argument("--in-process", action="store_true", help="no dask: run every task in this process")
    parser.add_argument("--quiet", action="store_true", help="no progress bars")


@contextlib.contextmanager
def engine(args: Any) -> Iterator[Executor]:
    """The executor of :func:`executor_of`, closed when the block ends."""
    executor = executor_of(args)
    try:
        yield executor
    finally:
        executor.close()


def executor_of(args: Any) -> Executor:
    """The engine that the options of :func:`engine_arguments` ask for."""
    if args.in_process:
        return InProcessExecutor(show_progress=not args.quiet)
    if args.workers is not None and args.workers < 1:
        raise GameError(f"--workers {args.workers}: must be at least 1")
    return DaskExecutor(
        workers=args.workers,
        scheduler=args.scheduler,
        processes=not args.threads,
        show_progress=not args.quiet,
    )
