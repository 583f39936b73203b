"""The model of N machines in ``bench/scaling.py --model``: its arithmetic on small hand-computed numbers,
the measured board reproduced on one core, and how the predicted time moves with the machines."""

from __future__ import annotations

import importlib.util
import itertools
import json
import math
import sys
from pathlib import Path
from types import ModuleType

import pytest

from unitile_py.unitile import Board

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def scaling() -> ModuleType:
    """bench/scaling.py as a module (bench/ is not a package)."""
    spec = importlib.util.spec_from_file_location("bench_scaling", ROOT / "bench" / "scaling.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def test_hand_computed(scaling: ModuleType) -> None:
    """Every term of :func:`predict` on numbers small enough to follow by hand."""
    measured = scaling.Measured(
        board="toy", positions=1000, classes=100, iterations=10,
        stage_seconds={"classes": 1.0, "graph": 2.0, "solve": 3.0, "perfect": 4.0, "positions": 5.0,
                       "verify": 6.0, "tables": 7.0, "tables-verify": 8.0},
        tasks={}, seconds_per_iteration=0.2, seconds_per_iteration_2=0.15,
    )  # fmt: skip
    tasks = {"classes": 2, "graph": 4, "positions": 8, "verify": 5, "tables": 1, "tables-verify": 4}
    # 2 machines x 2 cores = 4 workers; 8e-6 Gb/s = 1000 B/s into a machine.
    cluster = scaling.Cluster(machines=2, cores=2, gbps=8e-6)
    assume = scaling.Assumptions(iterations=10, tasks_per_second=1000.0, bands=2, cross_depth=1.0,
                                 perfect_reads=1.0)  # fmt: skip
    r = scaling.predict(measured, 2000, 200, tasks, cluster, assume, halo={2: (0.5, 0.6), 4: (1.0, 1.2)})
    stages = r["stages"]
    # Task stages: the cost doubles with the positions (or classes); ceil(k / 4) waves of cost / k, and
    # k / 1000 s through the scheduler.
    assert stages["classes"] == pytest.approx(1 * 2.0 / 2 + 0.002)
    assert stages["graph"] == pytest.approx(1 * 4.0 / 4 + 0.004)
    assert stages["positions"] == pytest.approx(2 * 10.0 / 8 + 0.008)
    assert stages["verify"] == pytest.approx(2 * 12.0 / 5 + 0.005)
    assert stages["tables"] == pytest.approx(14.0 + 0.001)
    assert stages["tables-verify"] == pytest.approx(16.0 / 4 + 0.004)
    # The solve, 2 parts: compute 0.2 s x 2 / 4 workers; network the largest part's halo 0.6 x 100 own
    # classes x 8 B at 1000 B/s; latency 0.15 - 0.2 / 2 = 0.05 s x log2(2); 10 iterations; the other
    # phases (3 - 10 x 0.2) x 2 / 4; 2 parts and 1 task forming T through the scheduler.
    solve = r["solve"]
    assert (solve["compute"], solve["network"], solve["latency"]) == pytest.approx((0.1, 0.48, 0.05))
    assert solve["part_bytes"] == pytest.approx(100 * (73 + 8 * 0.6))
    assert stages["solve"] == pytest.approx(10 * (0.1 + 0.48 + 0.05) + 0.5 + 3 / 1000)
    # Perfect play on 4 parts: 8 core-s / 4; 2 bands x (1 + 1) rounds of 0.05 / 4 s x log2(4); each of 200
    # values read by 1 other part (10 B), 1 - 1/4 of them on another part, over 2 machines at 1000 B/s.
    assert r["perfect"]["rounds"] == 4
    assert stages["perfect"] == pytest.approx(2.0 + 4 * 0.0125 * 2 + 200 * 10 * 0.75 / 2000 + 4 / 1000)
    assert r["total"] == pytest.approx(sum(stages.values()))
    assert r["total"] == pytest.approx(36.981)
    assert r["dominant"] == "tables tasks"


def test_one_core_reproduces_the_measured_build(scaling: ModuleType) -> None:
    """The measured board on one machine of one core with its own iterations: every stage's measured
    seconds, and the whole build within 1 %; the board's tasks as the build made them."""
    m = scaling.MEASURED_5X5
    board = Board.parse(m.board)
    tasks = scaling.board_tasks(board, m.classes)
    assert tasks == {s: k for s, k in m.tasks.items() if s in tasks}
    r = scaling.predict(m, m.positions, m.classes, tasks, scaling.Cluster(1, 1, 25.0),
                        scaling.Assumptions(iterations=m.iterations))  # fmt: skip
    for stage, seconds in m.stage_seconds.items():
        assert r["stages"][stage] == pytest.approx(seconds, rel=0.01), stage
    assert r["total"] == pytest.approx(sum(m.stage_seconds.values()), rel=0.01)
    assert r["solve"]["network"] == r["solve"]["latency"] == 0


def test_more_machines_faster_until_the_network_or_latency_dominates(scaling: ModuleType) -> None:
    """5x7 on 1-64 machines of 32 cores: with a network far faster than the halo needs, every doubling
    is faster; at 25 Gb/s the halo exchange makes 2 and 4 machines slower than 1 (the largest part's halo
    grows from 0.19 to 0.58 of its own classes) and dominates from 2 on, and from 4 on every doubling is
    faster again (a machine's share of the halo shrinks). A small board is latency-bound: its best machine
    count is not the largest."""
    m = scaling.MEASURED_5X5
    big = Board.parse("5x7")
    classes = big.positions // len(big.symmetries)
    tasks = scaling.board_tasks(big, classes, split=1 << 22)
    machines = [1, 2, 4, 8, 16, 32, 64]

    def totals(board: Board, n_classes: int, jobs: dict[str, int], cores: int, gbps: float) -> list[float]:
        return [scaling.predict(m, board.positions, n_classes, jobs, scaling.Cluster(n, cores, gbps),
                                scaling.Assumptions(iterations=500))["total"] for n in machines]  # fmt: skip

    fast = totals(big, classes, tasks, 32, 1e6)
    assert all(b < a for a, b in itertools.pairwise(fast)), fast
    real = totals(big, classes, tasks, 32, 25.0)
    assert real[2] > real[1] > real[0]
    assert all(b < a for a, b in itertools.pairwise(real[2:])), real
    for n in machines[1:]:
        r = scaling.predict(m, big.positions, classes, tasks, scaling.Cluster(n, 32, 25.0),
                            scaling.Assumptions(iterations=500))  # fmt: skip
        assert r["dominant"] == "solve network"
        assert r["solve"]["network"] > 2 * (r["solve"]["compute"] + r["solve"]["latency"])
    small = Board.parse("3x5")
    few = totals(small, 13_000, scaling.board_tasks(small, 13_000), 1, 25.0)
    assert min(few) < few[-1]


def test_halo_interpolation(scaling: ModuleType) -> None:
    """Measured part counts as measured, others linear in log(parts), beyond them flagged."""
    table = scaling.HALO_5X5
    assert scaling.halo_at(1, table) == (0.0, 0.0, False)
    assert scaling.halo_at(16, table) == (*table[16], False)
    total, largest, extrapolated = scaling.halo_at(32, table)
    middle = [(a + b) / 2 for a, b in zip(table[16], table[64], strict=True)]
    assert [total, largest] == pytest.approx(middle)
    assert not extrapolated
    w = math.log(128 / 16) / math.log(64 / 16)
    total, _, extrapolated = scaling.halo_at(128, table)
    assert total == pytest.approx(table[16][0] + w * (table[64][0] - table[16][0]))
    assert extrapolated


def test_measured_from_pin_results(scaling: ModuleType, tmp_path: Path) -> None:
    """``--measured FILE`` takes the one-worker run of the largest board also built on two workers; a file
    that is not such results is one line."""

    def run(board: str, workers: int, spi: float, positions: int) -> dict[str, object]:
        return {"board": board, "workers": workers, "positions": positions, "classes": positions // 8,
                "iterations": 7, "stage_seconds": {"solve": 1.0, "verify": 2.0},
                "stage_tasks": {"solve": workers, "verify": 3}, "solve": {"seconds_per_iteration": spi}}

    path = tmp_path / "scaling.json"
    runs = [run("3x5", 1, 0.5, 100), run("5x5", 1, 0.04, 1000), run("5x5", 2, 0.03, 1000),
            run("3x9", 1, 9, 9000)]  # fmt: skip
    path.write_text(json.dumps({"runs": runs}))
    m = scaling.measured_from(str(path))
    assert (m.board, m.positions, m.classes, m.iterations) == ("5x5", 1000, 125, 7)
    assert (m.seconds_per_iteration, m.seconds_per_iteration_2) == (0.04, 0.03)
    assert m.stage_seconds == {"solve": 1.0, "verify": 2.0} and m.tasks == {"solve": 1, "verify": 3}
    path.write_text(json.dumps({"runs": runs[:2]}))
    with pytest.raises(SystemExit, match="no board built on both 1 and 2 workers"):
        scaling.measured_from(str(path))
    path.write_text("{}")
    with pytest.raises(SystemExit, match=r"not the --out file of bench/scaling\.py"):
        scaling.measured_from(str(path))
    with pytest.raises(SystemExit, match=r"not the --out file of bench/scaling\.py"):
        scaling.measured_from(str(tmp_path / "missing.json"))
