"""What a stage costs a process: the resident memory, its peak, and memory freed inside the heap given
back to the system before a stage (pipeline/usage.py)."""

from __future__ import annotations

import pytest

from pipeline import usage

MIB = 2**20


def test_release_freed_gives_back_holes_in_the_heap() -> None:
    """Blocks below the mmap threshold come from the heap; freeing most of them while every 32nd (the
    top one included) stays leaves holes that stay resident until :func:`usage.release_freed`."""
    if usage.resident() == 0:
        pytest.skip("no /proc/self/status here")
    blocks = [bytes([i % 251]) * (64 << 10) for i in range(4096)]  # 256 MiB, every page written
    kept = blocks[31::32]
    before = usage.resident()
    del blocks
    freed_not_returned = usage.resident()
    if not usage.release_freed():
        pytest.skip("the C library has no malloc_trim")
    after = usage.resident()
    assert before - after > 150 * MIB, (before, freed_not_returned, after)
    assert len(kept) == 128


def test_sample_resets_the_peak_to_the_resident_memory() -> None:
    """After ``sample(reset=True)`` the peak starts again from what is resident now, not from the
    process's high-water mark; ``sample`` also reports the resident memory itself."""
    if not usage.reset_peak():
        pytest.skip("the kernel does not let the peak be reset")
    big = bytes(1) * (300 * MIB)
    assert usage.peak_rss() >= len(big)
    del big
    _, peak_before, _ = usage.sample(reset=True)
    _, peak, now = usage.sample()
    assert peak_before >= 300 * MIB
    assert now <= peak < peak_before - 200 * MIB
