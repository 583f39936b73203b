"""The CG loop run by every part itself (:class:`pipeline.unitile.cg.PeerSteps`), without dask: parts held
in this process, each running the loop in a thread of its own and reaching the others directly (as
actors reach each other on a cluster). The result is the one-part solve's, bit for bit, with restarts and
from any checkpoint; the halo and reduction waits drop stale pushes and give up on abort or timeout."""

from __future__ import annotations

import threading
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from pipeline.groups import LocalGroup
from pipeline.unitile import partition, peers
from pipeline.unitile.cg import PeerSteps, gather, local_parts, run_loop, solve
from pipeline.unitile.partition import Partition, SolutionParts
from pipeline.unitile.solver import SolveResult, SolverState
from pipeline.unitile.store import Store, solve_order
from tests.pipeline.unitile.conftest import B35, run_in_threads

#: Below 3x5's usual target: the solve (in the solve order) restarts from the true residual.
TOL = 1e-13


def parts35(clean35: Path, parts: int) -> tuple[LocalGroup, Any]:
    store = Store(str(clean35), B35)
    order = solve_order(store)
    group = local_parts(store.read("graph/nbr"), store.read("graph/info"), order.split, parts, order)
    return group, order


def run_parts(
    group: LocalGroup, state: SolverState, checkpoint: Any = None, seconds: float = 0.0
) -> list[SolveResult]:
    """Every part runs :func:`run_loop` in a thread of its own; the results by part (raises the first
    part's error, if any)."""

    def run(part: Partition) -> SolveResult:
        write = (lambda st: checkpoint(part, st)) if checkpoint else None
        steps = PeerSteps(part, write, seconds)
        return run_loop(steps, replace(state, history=[*state.history]), tol=TOL)

    return run_in_threads(group.parts, run)


@pytest.mark.parametrize("piece", [partition.PIECE, 1000])
def test_parts_running_the_loop_give_the_one_part_solve_bit_for_bit(
    clean35: Path, piece: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Whole pushes, or pushes in pieces of 1,000 values (3x5's halo shares are a few thousand)."""
    monkeypatch.setattr(partition, "PIECE", piece)
    group, order = parts35(clean35, 2)
    if piece < partition.PIECE:
        assert all(s.stop - s.start > 2 * piece for p in group.parts for s in p.recv["O"].values())
    assert group.size == 2
    results = run_parts(group, SolverState.start(0))
    one = solve(*graph(clean35), order.split, SolverState.start(order.split), order=order, tol=TOL)
    assert one.restarts >= 1, "the 3x5 solve no longer restarts: this test would not cover restarts"
    numbers = {(r.iterations, r.restarts, r.sigma) for r in results}
    assert numbers == {(one.iterations, one.restarts, one.sigma)}
    r = gather(group)[3]
    assert np.array_equal(r[order.to_solve(np.arange(order.n))], one.x)


def graph(clean35: Path) -> tuple[np.ndarray, np.ndarray]:
    store = Store(str(clean35), B35)
    return store.read("graph/nbr"), store.read("graph/info")


def test_parts_checkpoint_at_the_same_iteration_and_resume_bit_for_bit(clean35: Path) -> None:
    """Part 0 decides when a checkpoint is due; every part writes one at that iteration. A solve resumed
    from any of them (on fresh parts) ends with the same bits."""
    group, _ = parts35(clean35, 2)
    saved: dict[int, dict[int, tuple[SolverState, tuple[np.ndarray, ...]]]] = {}
    lock = threading.Lock()

    def keep(part: Partition, st: SolverState) -> None:
        with lock:
            saved.setdefault(st.iteration, {})[part.plan.index] = (replace(st, history=[*st.history]),
                                                                    part.vectors())  # fmt: skip

    full = run_parts(group, SolverState.start(0), keep, seconds=0.0)[0]
    r_full = gather(group)[3]
    assert len(saved) == full.iterations and all(len(v) == 2 for v in saved.values())
    checked = [it for it, v in saved.items() if v[0][0].checked < np.inf]
    for iteration in (5, min(checked) - 1, max(checked)):
        fresh, _ = parts35(clean35, 2)
        states = saved[iteration]
        for part in fresh.parts:
            part.start(*states[part.plan.index][1])
        scalars = [(st.rz, st.iteration, st.restarts, st.checked, st.best, st.stalls, st.history)
                   for st, _ in states.values()]  # fmt: skip
        assert scalars[0] == scalars[1]
        resumed = run_parts(fresh, states[0][0])[0]
        assert (resumed.iterations, resumed.restarts) == (full.iterations, full.restarts), iteration
        assert np.array_equal(gather(fresh)[3], r_full), iteration


def test_a_stale_push_is_dropped_and_a_push_ahead_is_an_error(clean35: Path) -> None:
    group, _ = parts35(clean35, 2)
    a, b = group.parts
    group.call("start", [(None, None, None)] * 2)
    slots = a.recv["O"][1]
    width = slots.stop - slots.start
    a.receive("p", 1, np.full(width, 2.0), 2)
    a.receive("p", 1, np.full(width, 1.0), 1)  # arrives late: dropped
    assert np.all(a.ext["p"][slots] == 2.0) and b.plan.index == 1
    a.sent["p"] = 2
    a.wait_halo("p")  # complete: returns at once
    a.sent["p"] = 1
    with pytest.raises(RuntimeError, match="ahead of the iteration"):
        a.wait_halo("p")


def test_a_push_in_pieces_is_in_once_every_piece_is(
    clean35: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A reader takes each piece where its offset says, counts a push in when the last of its pieces
    comes (in any order), and drops the pieces of an older push."""
    monkeypatch.setattr(partition, "PIECE", 100)
    group, _ = parts35(clean35, 2)
    a = group.parts[0]
    slots = a.recv["O"][1]
    width = slots.stop - slots.start
    values = np.random.default_rng(4).random(width)
    offsets = list(range(0, width, 100))
    assert len(offsets) > 2
    for k, at in enumerate(reversed(offsets)):
        assert a.got["p"].get(1, 0) == 0, k
        a.receive("p", 1, values[at : at + 100], 1, at)
    assert a.got["p"][1] == 1 and np.array_equal(a.ext["p"][slots], values)
    a.receive("p", 1, np.zeros(100), 1, 0)  # a piece of that push again: dropped
    a.receive("p", 1, np.ones(100), 3, 0)  # the first piece of push 3 ...
    a.receive("p", 1, np.zeros(100), 2, 100)  # ... then one of push 2, older: dropped
    assert a.got["p"][1] == 1 and a.pieces[("p", 1)] == (3, 1)
    assert np.array_equal(a.ext["p"][slots][100:], values[100:]) and np.all(a.ext["p"][slots][:100] == 1)


def test_a_wait_ends_on_abort_or_after_the_timeout(clean35: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    group, _ = parts35(clean35, 2)
    a = group.parts[0]
    a.sent["t"] = 1
    monkeypatch.setattr(peers, "PEER_TIMEOUT", 0.2)
    with pytest.raises(RuntimeError, match="no news from a peer"):
        a.wait_halo("t")
    # Another thread aborts a part waiting (as the driver does when it loses a worker).
    group2, _ = parts35(clean35, 2)
    waiting = group2.parts[0]
    waiting.sent["t"] = 1
    started = threading.Event()

    def abort() -> None:
        started.wait()
        with waiting.arrived:
            waiting.aborted = True
            waiting.arrived.notify_all()

    t = threading.Thread(target=abort)
    t.start()
    started.set()
    try:
        with pytest.raises(RuntimeError, match="aborted"):
            waiting.reduce(1.0, timeout=60.0)
    finally:
        t.join()


def test_contributions_of_a_later_reduction_wait_for_it(clean35: Path) -> None:
    """A part that is one reduction ahead sends its next partial sums before the other has finished the
    current reduction: they are kept for that one."""
    group, _ = parts35(clean35, 2)
    a, b = group.parts
    a.contribute(2, 1, "b's second")
    a.contribute(1, 1, "b's first")
    assert a.reduce("a's first") == ["a's first", "b's first"]
    assert a.reduce("a's second") == ["a's second", "b's second"]
    # a sent its contributions to b, which has not reduced yet.
    assert b.partials == {1: {0: "a's first"}, 2: {0: "a's second"}}


def test_the_parts_solution_arrays_give_r_at_any_solve_position(clean35: Path, tmp_path: Path) -> None:
    """Each part writes its rows into an array of its own (wide chunks, no other writer); SolutionParts
    reads r at any solve positions from them: the gathered solution, entry for entry."""
    group, order = parts35(clean35, 3)
    run_parts(group, SolverState.start(0))
    r = gather(group)[3]
    store = Store(str(tmp_path / "r.zarr"), B35, create=True)
    for part in group.parts:
        size = part.plan.own_o + part.plan.own_e
        store.create(f"solve/r_{part.plan.index}", (size,), None, np.float64, chunks=(1000,), compress=False)
        part.write_r(store.path)
    solution = SolutionParts(store.path, [p.plan for p in group.parts])
    positions = np.random.default_rng(2).permutation(order.n)
    assert np.array_equal(solution.at(positions), r[positions])
