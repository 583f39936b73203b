"""What a stage costs a process: CPU seconds and peak resident memory, sampled in the client and (through
the executor) in every worker.

The peak is the kernel's high-water mark of the resident set (``VmHWM`` in ``/proc/self/status``), which
:func:`sample` can reset (writing 5 to ``/proc/self/clear_refs``, Linux 4.0 and later), so that each stage
gets its own peak. Where that is not possible (another system, a kernel that refuses) the peak is the
process's peak since it started (``ru_maxrss``), which is never smaller than the stage's.

Before a stage, :func:`sample` with ``reset`` also gives the memory that earlier stages freed back to the
system: it first collects the garbage that only the cycle collector frees (dask's actor calls, for one,
leave reference cycles that hold the arrays passed to them), then returns the heap's freed blocks (glibc's
``malloc_trim``), which otherwise stay resident: a long-lived worker would carry every earlier stage's
high-water mark into the next stage's peak.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import functools
import gc
import os
import resource
import time
from collections.abc import Callable
from pathlib import Path

_STATUS = Path("/proc/self/status")
_CLEAR = Path("/proc/self/clear_refs")


def _status_bytes(field: str) -> int | None:
    """A memory field of ``/proc/self/status`` (``VmHWM``, ``VmRSS``) in bytes; None where there is none."""
    try:
        for line in _STATUS.read_text().splitlines():
            if line.startswith(field + ":"):
                return int(line.split()[1]) * 1024
    except OSError:
        pass
    return None


def peak_rss() -> int:
    """Peak resident memory of this process in bytes (since the last reset, where possible)."""
    peak = _status_bytes("VmHWM")
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024 if peak is None else peak


def resident() -> int:
    """Resident memory of this process now in bytes (0 where ``/proc`` does not say)."""
    return _status_bytes("VmRSS") or 0


@functools.cache
def _malloc_trim() -> Callable[[int], int] | None:
    name = ctypes.util.find_library("c")
    try:
        trim = ctypes.CDLL(name).malloc_trim if name else None
    except (OSError, AttributeError):  # not glibc
        return None
    if trim is not None:
        trim.argtypes, trim.restype = [ctypes.c_size_t], ctypes.c_int
    return trim


def release_freed() -> bool:
    """Return the heap's freed memory to the system (glibc's ``malloc_trim(0)``); False where the C
    library has no such call."""
    trim = _malloc_trim()
    if trim is None:
        return False
    trim(0)
    return True


def reset_peak() -> bool:
    """Make the peak start again from the current resident memory; False where that is not possible."""
    try:
        _CLEAR.write_text("5")
    except OSError:
        return False
    return True


def sample(reset: bool = False) -> tuple[float, int, int]:
    """``(CPU seconds of this process so far, peak resident bytes, resident bytes now)``; with ``reset``
    the garbage is first collected, the freed memory returned to the system (:func:`release_freed`), and
    the peak starts again after it is read. Runs in the client and, through the executor, in each worker."""
    if reset:
        gc.collect()
        release_freed()
    out = (time.process_time(), peak_rss(), resident())
    if reset:
        reset_peak()
    return out


def load_average() -> float:
    """The machine's 1-minute load average."""
    return os.getloadavg()[0]
