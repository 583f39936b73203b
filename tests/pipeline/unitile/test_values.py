"""The value pipeline against independent truth on small boards: exact rationals (3x3), a sparse
direct solve (3x5), brute-force counts, symmetric images, the query command and resumability."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

from pipeline.cli import main
from pipeline.executor import InProcessExecutor
from pipeline.unitile.build import run_build, value_stages
from pipeline.unitile.context import Context
from pipeline.unitile.store import Store
from pipeline.unitile.values import Lookup, load_bound, load_T
from tests.game.unitile.reference import exact_r, float_r, swap_index, total_values
from unitile_py.unitile import Board, Position
from unitile_py.unitile.index import Indexer

ROOT = Path(__file__).resolve().parents[3]


def build(path: Path, board: Board) -> dict:
    """A value build of ``board`` in this process (quiet)."""
    store = Store(str(path), board, create=True)
    ctx = Context(board, store, InProcessExecutor(), log=lambda msg: None)
    return run_build(ctx, stages=value_stages())


@pytest.fixture(scope="module")
def store33(tmp_path_factory: pytest.TempPathFactory) -> str:
    path = tmp_path_factory.mktemp("s") / "3x3.zarr"
    build(path, Board.get(3, 3))
    return str(path)


@pytest.fixture(scope="module")
def store35(tmp_path_factory: pytest.TempPathFactory) -> str:
    path = tmp_path_factory.mktemp("s") / "3x5.zarr"
    build(path, Board.get(3, 5))
    return str(path)


def test_3x3_equals_exact_rationals(store33: str) -> None:
    board = Board.get(3, 3)
    exact_t = total_values(board, exact_r(board))
    t = load_T(store33, board)
    bound = load_bound(store33, board)
    assert t.shape == (board.positions,) and t.dtype == np.float64
    assert 0 < bound < 1e-9
    for i, e in enumerate(exact_t):
        err = abs(Fraction(t[i]) - e)
        assert err <= bound, (i, float(err), bound)
        assert err <= Fraction(1, 10**12) * max(e, 1)


def test_3x5_equals_sparse_direct_solve(store35: str) -> None:
    board = Board.get(3, 5)
    r_ref = np.array(float_r(board))
    t_ref = np.array(total_values(board, r_ref))
    t = load_T(store35, board)
    assert np.all(np.abs(t - t_ref) <= 1e-12 * np.maximum(t_ref, 1.0))
    lookup = Lookup(store35, board)
    rng = np.random.default_rng(7)
    sw = swap_index(board)
    for i in rng.choice(board.positions, 300, replace=False):
        p = Position.from_index(board, int(i))
        r, b, total = lookup.values(p)
        assert abs(r - r_ref[i]) <= 1e-12 * max(r_ref[i], 1.0)
        assert abs(b - r_ref[sw[i]]) <= 1e-12 * max(r_ref[sw[i]], 1.0)
        assert total == r + b == t[i]


@pytest.mark.parametrize("fixture", ["store33", "store35"])
def test_symmetric_images_have_identical_T(fixture: str, request: pytest.FixtureRequest) -> None:
    path = request.getfixturevalue(fixture)
    board = Board.get(3, 3) if fixture == "store33" else Board.get(3, 5)
    t = load_T(path, board)
    ix = Indexer.get(board)
    for i in range(board.positions):
        red, bubble = ix.decode(i)
        p = Position(board, red, bubble)
        for sym in range(len(board.symmetries)):
            q = p.transform(sym)
            assert t[q.index()] == t[i]
            assert t[q.swap_colours().index()] == t[i]


def test_verify_report_counts_match_brute_force(store33: str, store35: str) -> None:
    for path, board in ((store33, Board.get(3, 3)), (store35, Board.get(3, 5))):
        report = Store(path, board).require("verify")["report"]
        counts = {"red": 0, "blue": 0, "both": 0, "neither": 0}
        for i in range(board.positions):
            p = Position.from_index(board, i)
            ru, bu = p.united("r"), p.united("b")
            counts["both" if ru and bu else "red" if ru else "blue" if bu else "neither"] += 1
        assert report["red_united_only"] == counts["red"]
        assert report["blue_united_only"] == counts["blue"]
        assert report["both_united"] == counts["both"]
        assert report["neither_united"] == counts["neither"]
        assert report["ok"] and report["undecidable_slides"] == 0
        assert report["smallest_T_gap"] > 2 * load_bound(path, board)
        assert abs(report["monte_carlo"]["z"]) <= 3


def test_solve_record_meets_the_precision_target(store35: str) -> None:
    rec = Store(store35, Board.get(3, 5)).require("solve")
    assert rec["sigma"] <= 1e-12
    assert rec["iterations"] > 10
    assert rec["bound_T"] == pytest.approx(rec["relative_bound_T"] * rec["T_max"], rel=1e-12)
    # Its phases account for the stage's time (the rest is recording it and the bound's checks).
    phases = rec["phase_seconds"]
    assert set(phases) >= {"starting_parts", "cg"}
    # One part writes r and T itself; several write r in solve positions and tasks form T.
    assert "writing_r_and_T" in phases if rec["parts"] == 1 else set(phases) >= {"writing_r", "forming_T"}
    assert 0 < sum(phases.values()) <= rec["seconds"]


def _cli(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "pipeline", *args],
        cwd=ROOT,
        input=stdin,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_values_command(store33: str) -> None:
    board = Board.get(3, 3)
    t = load_T(store33, board)
    start = Position.start(board)
    out = _cli("values", str(start), "--store", store33, "--json")
    assert out.returncode == 0, out.stderr
    got = json.loads(out.stdout)
    assert got["T"] == t[start.index()] == got["r"] + got["b"]
    exact = exact_r(board)
    assert abs(Fraction(got["r"]) - exact[start.index()]) < Fraction(1, 10**10)
    lines = f"{start}\nnot a position\n{start.play(start.slides()[0])}\n"
    out = _cli("values", "-", "--store", store33, "--json", stdin=lines)
    rows = [json.loads(x) for x in out.stdout.splitlines()]
    assert len(rows) == 3 and "error" in rows[1] and rows[0] == got
    assert out.returncode == 2


@pytest.mark.parametrize(
    "args",
    [
        ("build", "--board", "4x4"),
        ("build", "--board", "five"),
        ("verify", "--board", "3x3", "--store", "/nonexistent/x.zarr"),
        ("values", "BRB/R.B/RBX r", "--store", "/nonexistent/x.zarr"),
        ("values", "BRB/R.B/RBR r", "--store", "/nonexistent/x.zarr"),
    ],
)
def test_user_errors_are_one_line(args: tuple[str, ...], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(list(args)) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and err.count("\n") == 1, err


def test_verify_fails_on_corrupted_values(store33: str, tmp_path: Path) -> None:
    board = Board.get(3, 3)
    path = tmp_path / "bad.zarr"
    shutil.copytree(store33, path)
    arr = Store(str(path), board).array("positions/T")
    t = np.asarray(arr[...])
    start = Position.start(board).index()
    t[start] += 1e-6
    arr[...] = t
    out = _cli("verify", "--board", "3x3", "--store", str(path), "--in-process", "--quiet")
    assert out.returncode == 1
    assert "verify failed" in out.stderr and "break mean T(P') = T - 2" in out.stderr
    assert not Store(str(path), board).done("verify")
