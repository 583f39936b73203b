"""The site ships Pyodide's standard library cut to the modules it imports (site/build.py's
``trimmed_stdlib``, found by running both games in Pyodide under node). Here Pyodide boots under node
from that trimmed library, imports every module of unitile_py (and every module outside it that
unitile_py's sources import anywhere) and answers both games' requests (site/exercise.py): a module
missing from the library fails here, not in a player's browser.

Needs node and the pinned ``pyodide`` npm package (``make test`` installs it); without them the test is
skipped, except under CI=true, where it fails.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import zipfile

import pytest

from tests.browser.conftest import ROOT, load_site_module

build = load_site_module("build")


def test_both_games_run_in_pyodide_from_the_trimmed_library() -> None:
    if shutil.which("node") is None or not (build.PYODIDE_DIR / "pyodide.mjs").is_file():
        if os.environ.get("CI") == "true":
            pytest.fail("CI=true but node or node_modules/pyodide is missing")
        pytest.skip("node or node_modules/pyodide is missing (make site installs it)")
    trimmed = build.trimmed_stdlib()
    with zipfile.ZipFile(trimmed) as kept, zipfile.ZipFile(build.compiled_stdlib()) as whole:
        names = set(kept.namelist())
        assert len(names) < len(whole.namelist()) / 2
    assert {"json/__init__.pyc", "hashlib.pyc", "argparse.pyc", "pyodide/__init__.pyc"} <= names
    args = [
        str(build.PYODIDE_DIR),
        str(trimmed),
        str(ROOT / "unitile_py"),
        str(build.TABLES),
        str(build.EXERCISE),
    ]
    node = shutil.which("node")
    assert node is not None
    done = subprocess.run(
        [node, str(build.EXERCISE_RUNNER), *args], capture_output=True, text=True, timeout=120, check=False
    )
    assert done.returncode == 0, done.stderr[-2000:]
    counts = json.loads(done.stdout.strip().splitlines()[-1])["counts"]
    package = [p for p in (ROOT / "unitile_py").rglob("*.py") if "__pycache__" not in p.parts]
    assert counts["modules"] == len([p for p in package if p.name != "__main__.py"])
    assert counts["answered"] > 80 and counts["refused"] == 4  # the four refusals asked for
