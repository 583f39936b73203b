"""Every script in bench/ runs, with tiny arguments, to the end and prints its figures (so that a
benchmark cannot rot unnoticed: issue 18). Performance itself is measured by the scripts, not here.

Each script has an entry in :data:`SMOKE`: its arguments (``{store}`` is a finished 3x3 store,
``{tmp}`` a fresh directory) and a pattern its output must contain; a script with several modes has an
entry per mode, keyed ``"script.py --mode"``. A script in bench/ without an entry fails
:func:`test_every_bench_script_has_a_smoke_run`.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from pipeline.executor import InProcessExecutor
from pipeline.unitile.build import plan, run_build
from pipeline.unitile.context import Context
from pipeline.unitile.store import Store
from unitile_py.unitile import Board

ROOT = Path(__file__).resolve().parents[2]
BENCH = ROOT / "bench"
#: Seconds a smoke run may take (a loaded 2-core machine, numba's compilation included).
TIMEOUT = 900

#: script (and mode): (arguments, a pattern its output must contain).
SMOKE: dict[str, tuple[list[str], str]] = {
    "core.py": ([], r"rank speed-up over the plain loop: [\d.]+x"),
    "players.py": (["speed", "--board", "3x5", "--games", "1"], r"\| 6 \| \d+ \| [\d.]+ \| [\d.]+ \|"),
    "reference_cg.py": (["--board", "3x3", "--store", "{store}"], r"iterations"),
    "scaling.py": (
        ["--boards", "3x3", "--workers", "1", "--scratch", "{tmp}", "--out", "{tmp}/scaling.json"],
        r"3x3\s+630\s+1\s+[\d.]+\s+[\d.]+",
    ),
    "scaling.py --model": (
        ["--model", "--boards", "3x5", "--machines", "1,2", "--cores-per-machine", "2", "--iterations", "80"],
        r"3x5, 80 CG iterations(.|\n)*\| 2 \| 4 \|( [\d.,]+ \|){10} [a-z -]+ \| [\d,]+ \|(.|\n)*"
        r"2 machines: compute [\d.]+ \+ network [\d.]+ .* \+ latency [\d.]+ = [\d.]+",
    ),
    "solve_parts.py": (
        ["{store}", "--workers", "1,2"],
        r"1 worker\(s\), driver \w+: \d+ iterations(.|\n)*2 worker\(s\), driver parts: \d+ iterations",
    ),
    "tables.py": (["--board", "3x5", "--positions", "200"], r"outcome\(\) per ply followed\s+[\d.]+ us"),
    "values.py": (
        ["--board", "3x3", "--store", "{store}", "--iterations", "2", "--solve"],
        r"iteration\s+[\d.]+(.|\n)*solve from scratch: [\d.]+ s, \d+ iterations",
    ),
    "stages.py": (["--board", "3x3", "--workers", "1"],
                  r"total\s+[\d.]+\s+[\d.]+.*\nsolve: starting parts [\d.]+ s, cg .*\n.*build: [\d.]+ s"),
    "naked_diagonal.py": (["--games", "2", "--sizes", "5"], r"5x5: 2 games, \d+ positions: median [\d.]+ ms"),
    "nd_players.py": (
        ["speed", "--size", "5", "--positions", "1"],
        r"\| 5 \| \d+ \| [\d.]+ \|(.|\n)*peak memory",
    ),
    "nd_solve.py": (["build", "--board", "2x2"], r"\"wall_seconds\": [\d.]+"),
    "nd_solve.py empty": (["empty", "--sizes", "3", "4"], r'"board": "4x4", "settings": "default"'),
    "nd_solve.py rate": (["rate", "--board", "4x4", "--openings", "a4", "--nodes", "300", "--slots", "4096",
                          "--bound", "0"], r'"opening": "a4", (.|\n)*"nodes_per_cpu_second": \d+'),
    "nd_frames.py": (["--sizes", "4", "--frames", "300", "--budget", "200"],
                     r'"size": "4x4", "frames": 300, "median_us": [\d.]+(.|\n)*"over_1ms": \d+'),
    "nd_atlas.py": (
        ["atlas", "--k", "2", "--in-process", "--out", "{tmp}/atlas.json"],
        r'"status": 0,(.|\n)*"wall_seconds": [\d.]+',
    ),
    "nd_requests.py": (
        ["--games", "1", "--sizes", "5", "--explains", "1", "--crafted", "1", "--climb", "2",
         "--unitile-games", "1", "--every", "20"],
        r"nd_computer_move +\d+ requests: median +[\d.]+ ms(.|\n)*nd_explain +\d+ requests(.|\n)*"
        r"\nstate +\d+ requests(.|\n)*worst request: [\d.]+ ms of CPU",
    ),
    "nd_exactness.py": (["--games", "1", "--sizes", "5", "--probes", "1"], r'"disagreements": 0'),
    "review.py": (["--games", "2"],
                  r"unitile 5x5 random: (.|\n)*naked diagonal 4x4: (.|\n)*worst: [\d.]+ s of CPU"),
    "browser.py": (["--runs", "1", "--positions", "1"], r"\d+(\.\d+)? ?(ms|s)"),
    "pyodide_runner.py": (["--help"], r"usage: pyodide_runner.py"),
    # bench/browser.py --phone (about a minute a setting: not a smoke run); its options parse.
    "phone.py": (["--help"], r"--phone(.|\n)*--window"),
    # Its real runs are tests/browser/test_lighthouse.py's.
    "lighthouse.py": (["--help"], r"--pages"),
}


def test_every_bench_script_has_a_smoke_run() -> None:
    missing = sorted(p.name for p in BENCH.glob("*.py") if p.name not in {k.split()[0] for k in SMOKE})
    assert not missing, f"bench scripts without a smoke run in {__file__}: {missing}"


@pytest.fixture(scope="module")
def store33(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A finished 3x3 build (values, perfect play, tables) in a temporary store."""
    root = tmp_path_factory.mktemp("bench")
    path, tables = root / "3x3.zarr", root / "3x3.tables"
    board = Board.get(3, 3)
    from pipeline.unitile.build import BuildOptions

    ctx = Context(board, Store(str(path), board, create=True), InProcessExecutor(), log=lambda m: None)
    run_build(ctx, plan(BuildOptions(tables=str(tables))))
    return path


@pytest.mark.parametrize("script", sorted(SMOKE))
def test_bench_script_runs_small(script: str, store33: Path, tmp_path: Path) -> None:
    name = script.split()[0]
    if not (BENCH / name).exists():
        pytest.skip(f"bench/{name} is not in this checkout")
    if script in ("browser.py", "lighthouse.py") and not Path("/usr/bin/chromium").exists():
        if os.environ.get("CI") == "true":
            pytest.fail(f"CI=true but /usr/bin/chromium is missing: bench/{name} cannot run")
        pytest.skip(f"bench/{name} needs /usr/bin/chromium")
    if script == "browser.py" and not (ROOT / "build" / "site" / "build.json").exists():
        pytest.skip("bench/browser.py needs the built site (make site)")
    args, pattern = SMOKE[script]
    argv = [a.format(store=store33, tmp=tmp_path) for a in args]
    work = tmp_path / "cwd"
    (work / "build").mkdir(parents=True)  # scripts that write build/<file> write it here
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, str(BENCH / name), *argv],
        cwd=work,
        env=env,
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
    )
    out = done.stdout + done.stderr
    assert done.returncode == 0, f"bench/{name} {' '.join(argv)} exited {done.returncode}:\n{out[-3000:]}"
    assert re.search(pattern, out), f"bench/{script}: no {pattern!r} in its output:\n{out[-3000:]}"
    shutil.rmtree(work)
