"""How many numba threads a task uses, decided in the process that runs it.

A task may use the cores its process is allowed to run on (:func:`allowed_cores`: ``taskset``, a cgroup
cpuset or a SLURM job step's CPU binding narrow them; a CPU quota does not), and never more than numba's
thread pool (:func:`numba_limit`, ``NUMBA_NUM_THREADS``). Within those limits, :func:`usable_threads` takes:

* the request of the client, when the client knows the machine (it runs the tasks itself or started the
  LocalCluster's workers on its own cores and shares them out);
* otherwise ``NUMBA_NUM_THREADS``, when the process's environment sets it (an operator's figure);
* otherwise, on a dask worker, the worker's own number of threads (``dask worker --nthreads``): dask's
  convention is one core per worker thread (its nanny sets ``OMP_NUM_THREADS=1`` for the same reason),
  so a worker given one thread runs one numba thread however many cores its machine has;
* otherwise every core the process is allowed.

numba's thread count belongs to the calling thread: :func:`use_threads` sets it for the thread that
calls it (a dask worker runs tasks and an actor's methods in threads of their own).
"""

from __future__ import annotations

import os
import sys


def allowed_cores() -> int:
    """The cores this process may run on (its CPU affinity; the machine's cores where there is none)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):  # no sched_getaffinity on this system
        return os.cpu_count() or 1


def numba_limit() -> int:
    """The size of numba's thread pool (``NUMBA_NUM_THREADS``; numba's default is the allowed cores)."""
    import numba

    # numba.config sets its attributes from the environment at run time, out of a type checker's sight.
    return max(1, int(numba.config.NUMBA_NUM_THREADS))  # type: ignore[attr-defined]


def worker_threads() -> int | None:
    """The threads of the dask worker running the calling task (None: not in a dask worker's task)."""
    if "distributed" not in sys.modules:  # not imported: this is no dask worker
        return None
    from distributed import get_worker

    try:
        return int(get_worker().state.nthreads)
    except ValueError:  # "No worker found": a plain process, or a thread outside a task
        return None


def usable_threads(requested: int | None = None) -> int:
    """The numba threads for a task here: ``requested`` (or, when None, ``NUMBA_NUM_THREADS`` if the
    environment sets it, else the dask worker's threads, else every allowed core), at least 1 and at most
    :func:`allowed_cores` and :func:`numba_limit`."""
    limit = min(allowed_cores(), numba_limit())
    if requested is None:
        requested = limit if "NUMBA_NUM_THREADS" in os.environ else worker_threads() or limit
    return max(1, min(requested, limit))


def use_threads(requested: int | None = None) -> int:
    """Set the calling thread's numba threads to :func:`usable_threads` and return how many."""
    import numba

    n = usable_threads(requested)
    numba.set_num_threads(n)
    return n
