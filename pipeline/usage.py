"""What a stage costs a process: CPU seconds and peak resident memory, sampled in the client and (through
the executor) in every worker.

The peak is the kernel's high-water mark of the resident set (``VmHWM`` in ``/proc/self/status``), which
:func:`sample` can reset (writing 5 to ``/proc/self/clear_refs``, Linux 4.0 and later), so that each stage
gets its own peak. Where that is not possible (another system, a kernel that refuses) the peak is the
process's peak since it started (``ru_maxrss``), which is never smaller than the stage's.
"""

from __future__ import annotations

import os
import resource
import time
from pathlib import Path

_STATUS = Path("/proc/self/status")
_CLEAR = Path("/proc/self/clear_refs")


def peak_rss() -> int:
    """Peak resident memory of this process in bytes (since the last reset, where possible)."""
    try:
        for line in _STATUS.read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) * 1024
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024


def reset_peak() -> bool:
    """Make the peak start again from the current resident memory; False where that is not possible."""
    try:
        _CLEAR.write_text("5")
    except OSError:
        return False
    return True


def sample(reset: bool = False) -> tuple[float, int]:
    """``(CPU seconds of this process so far, peak resident bytes)``; with ``reset`` the peak starts
    again after it is read. Runs in the client and, through the executor, in each worker."""
    out = (time.process_time(), peak_rss())
    if reset:
        reset_peak()
    return out


def load_average() -> float:
    """The machine's 1-minute load average."""
    return os.getloadavg()[0]
