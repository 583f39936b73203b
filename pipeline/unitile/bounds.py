"""Bounds on the time of each stage, from rates measured on this machine at the start of a build.

A stage's :class:`Cost` is what it cannot avoid: the bytes of the arrays it must read and write once
(uncompressed), the colex ranks and the connectivity tests its kernels must compute (counted per
position from the rules: every slide of every position, say), and whether that work can use every
core. :meth:`Machine.bound` turns a cost into seconds with the rates of :meth:`Machine.measure`:

* the copy bandwidth (bytes read + written per second by a parallel numba copy of 2 x 64 MB, best of
  3), the rate of a memory-bound stage;
* ranks and connectivity tests per second on random-looking tile masks (parallel numba loops over
  2^20 masks each, best of 3, the cost of stepping through the masks subtracted), the rate of a
  compute-bound one;
* random reads per second (parallel numba loop of 2^21 independent reads of random entries of a 128 MB
  array, best of 3), the rate of a pass whose reads follow the graph rather than the memory order.

The bound is the larger of the memory time and the compute time (random reads counted with the
compute), so ``seconds / bound`` (the *ratio*
each stage record carries) is how far the stage is from the better of the two: 1 would be a stage that
does nothing but its unavoidable work at the measured rate. It is a bound of this model, not of every
conceivable implementation (a faster rank or a cleverer order would beat it).
"""

from __future__ import annotations

import os
import time
from dataclasses import asdict, dataclass
from typing import Any

import numba
import numpy as np
from numba import prange

from unitile_py.unitile.board import Board

from ..cores import allowed_cores
from .bits import PARALLEL, GeoArgs, cells_of, connected, next_combination, rank, unrank
from .geometry import Geometry

#: float64 values per array of the bandwidth copy (64 MB each: larger than a last-level cache, so that the
#: copy measures the memory's bandwidth).
COPY_N = 1 << 23
#: Tile masks per rate probe.
PROBE_N = 1 << 20
#: Parallel strips of each probe (each steps through its own run of masks).
STRIPS = 64
#: float64 entries of the random-read probe's array (128 MB), and the reads.
GATHER_N = 1 << 24
GATHER_READS = 1 << 21


@PARALLEL
def _copy(src: np.ndarray, dst: np.ndarray) -> None:
    for i in prange(src.shape[0]):
        dst[i] = src[i]


@PARALLEL
def _probe(kind: int, n: int, bubble: int, g: GeoArgs) -> int:
    """Step through ``n`` masks in :data:`STRIPS` strips; per mask nothing (kind 0), a rank (1) or a
    connectivity test of the red cells (2). Returns a checksum, so that nothing is optimised away."""
    per = n // STRIPS
    span = max(1, g.colourings // STRIPS)
    acc = 0
    for s in prange(STRIPS):
        m = unrank((s * span) % g.colourings, g)
        x = 0
        for _ in range(per):
            m = next_combination(m)
            if m >> g.tiles:  # past the last colouring: start again
                m = unrank(0, g)
            if kind == 1:
                x += rank(m, g)
            elif kind == 2:
                x += int(connected(cells_of(m, bubble), g))
            else:
                x += m & 1
        acc += x
    return acc


@PARALLEL
def _gather(src: np.ndarray, at: np.ndarray) -> float:
    acc = 0.0
    for i in prange(at.shape[0]):
        acc += src[at[i]]
    return acc


def _gather_seconds() -> float:
    src = np.ones(GATHER_N)
    at = np.random.default_rng(1).integers(0, GATHER_N, GATHER_READS)
    return _best(lambda: _gather(src, at))


def _best(fn: Any, repeats: int = 3) -> float:
    fn()
    best = np.inf
    for _ in range(repeats):
        t0 = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t0)
    return float(best)


def _copy_seconds() -> float:
    src, dst = np.ones(COPY_N), np.zeros(COPY_N)
    return _best(lambda: _copy(src, dst))


@dataclass(frozen=True)
class Cost:
    """What a stage must do (see the module docstring)."""

    #: bytes read and written once, uncompressed.
    bytes: float = 0.0
    #: colex ranks (or record numbers, counted as one rank: a lower bound).
    ranks: float = 0.0
    #: connectivity tests.
    tests: float = 0.0
    #: reads of random entries (following the graph, not the memory order).
    gathers: float = 0.0
    #: the work is one serial pass (one core).
    serial: bool = False
    #: what the numbers count, in words.
    what: str = ""


@dataclass(frozen=True)
class Machine:
    """Rates measured on this machine (:meth:`measure`)."""

    #: bytes read + written per second by a parallel copy.
    copy_bandwidth: float
    #: ranks and connectivity tests per second, all threads.
    rank_rate: float
    test_rate: float
    #: random reads per second, all threads.
    gather_rate: float
    #: numba threads of the measuring process (the client) and the cores it may run on.
    threads: int
    cores: int
    load_average: float
    #: seconds the measurement took.
    seconds: float

    @staticmethod
    def measure(board: Board) -> Machine:
        """Measure the rates (about a second; the masks are the board's colourings)."""
        t0 = time.perf_counter()
        copy = _copy_seconds()
        gather = _gather_seconds()
        g = Geometry.of(board).args
        bubble = board.cells // 2
        step = _best(lambda: _probe(0, PROBE_N, bubble, g))
        ranks = _best(lambda: _probe(1, PROBE_N, bubble, g))
        tests = _best(lambda: _probe(2, PROBE_N, bubble, g))
        # The masks' stepping is part of every probe; what is left is the primitive itself.
        floor = 1e-3 * step
        return Machine(
            copy_bandwidth=2 * 8 * COPY_N / copy,
            rank_rate=PROBE_N / max(ranks - step, floor),
            test_rate=PROBE_N / max(tests - step, floor),
            gather_rate=GATHER_READS / gather,
            threads=numba.get_num_threads(),
            cores=allowed_cores(),
            load_average=os.getloadavg()[0],
            seconds=time.perf_counter() - t0,
        )

    @staticmethod
    def of_record(record: dict[str, Any]) -> Machine:
        """The machine of a record written by :meth:`as_record`."""
        return Machine(**{k: record.get(k, 0.0) for k in Machine.__dataclass_fields__})

    def as_record(self) -> dict[str, Any]:
        """Plain data for a store's attributes."""
        return asdict(self)

    def bound(self, cost: Cost) -> dict[str, Any]:
        """The bound of a cost in seconds, which part sets it, and the cost itself."""
        memory = cost.bytes / self.copy_bandwidth
        share = self.threads if cost.serial else 1
        compute = (
            cost.ranks / self.rank_rate + cost.tests / self.test_rate + cost.gathers / self.gather_rate
        ) * share
        return {
            "seconds": max(memory, compute),
            "by": "memory" if memory >= compute else "compute" + (" (one core)" if cost.serial else ""),
            "memory_seconds": memory,
            "compute_seconds": compute,
            **{k: v for k, v in asdict(cost).items()},
        }


def slides_per_position(board: Board) -> float:
    """The mean number of slides of a position (the mean degree of the bubble's cell)."""
    return sum(len(n) for n in board.neighbours) / board.cells
