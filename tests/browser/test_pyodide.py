"""unitile_py under Pyodide 314 (Python 3.14), the interpreter the site runs it in, driven by node.

One node process boots Pyodide from node_modules, copies unitile_py (and tables/5x5 when present)
into its file system, runs every module's doctests, and plays seeded random games through the site's
webapi. The same game script runs here under CPython: both must print the same digest.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.browser.conftest import load_site_module

ROOT = Path(__file__).resolve().parents[2]
PYODIDE = ROOT / "node_modules" / "pyodide"
TABLES = ROOT / "tables" / "5x5"

#: Seeded random play through webapi: every state is summed into a digest, so any difference between
#: the two interpreters (hashing, ordering, integer or float behaviour) changes the result.
GAMES = r"""
import hashlib, json, random
from pathlib import Path
from unitile_py.unitile import Board, Position, format_position, parse_position
from unitile_py.unitile.webapi import Api
from unitile_py.webapi import handle

def play_games(tables_dir):
    digest = hashlib.sha256()
    api = Api()
    if tables_dir is not None:
        api.load_tables(files={p.name: p.read_bytes() for p in Path(tables_dir).iterdir() if p.is_file()})
    games = plies = ends = 0
    for seed in range(6):
        rng = random.Random(seed)
        game = api.new_game()
        for _ in range(150):
            st = api.state(game, analysis=tables_dir is not None)
            digest.update(json.dumps(st, sort_keys=True).encode())
            position = parse_position(st["position"])
            assert format_position(position) == st["position"]
            assert Position.from_index(position.board, position.index(), position.turn) == position
            assert len({position.transform(s).canonical_index() for s in range(8)}) == 1
            if st["over"]:
                ends += 1
                break
            if tables_dir is not None and seed % 2:
                move = api.computer_move(game, 1 + seed % 6, seed)
            else:
                move = rng.choice(st["legal"])
            game = api.play(game, move)
            plies += 1
        reply = json.loads(handle(json.dumps({"op": "state", "args": {"game": game}})))
        assert reply["ok"], reply
        games += 1
    return {"games": games, "plies": plies, "ends": ends, "digest": digest.hexdigest()}
"""

RUNNER = r"""
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
const [pyodideDir, root, stdlib, tablesDir, games] = process.argv.slice(2);
const { loadPyodide } = await import(pathToFileURL(path.join(pyodideDir, "pyodide.mjs")).href);
const pyodide = await loadPyodide({ indexURL: pyodideDir + path.sep, stdLibURL: stdlib });
const home = "/home/pyodide";
// The whole package, subpackages too (unitile_py.naked_diagonal).
function copyPackage(from, to) {
  pyodide.FS.mkdirTree(to);
  for (const entry of fs.readdirSync(from, { withFileTypes: true })) {
    const source = path.join(from, entry.name);
    if (entry.isDirectory() && entry.name !== "__pycache__") copyPackage(source, `${to}/${entry.name}`);
    else if (entry.name.endsWith(".py")) pyodide.FS.writeFile(`${to}/${entry.name}`, fs.readFileSync(source));
  }
}
copyPackage(path.join(root, "unitile_py"), `${home}/unitile_py`);
// The repository's tables/ (every board's, Naked Diagonal's folders too) next to the package, where
// unitile_py's readers look by default.
function copyTree(from, to) {
  pyodide.FS.mkdirTree(to);
  for (const entry of fs.readdirSync(from, { withFileTypes: true })) {
    const source = path.join(from, entry.name);
    if (entry.isDirectory()) copyTree(source, `${to}/${entry.name}`);
    else pyodide.FS.writeFile(`${to}/${entry.name}`, fs.readFileSync(source));
  }
}
const tablesRoot = path.join(root, "tables");
if (fs.existsSync(tablesRoot)) copyTree(tablesRoot, `${home}/tables`);
const tables = tablesDir === "-" ? "None" : JSON.stringify(`${home}/tables/5x5`);
pyodide.runPython(fs.readFileSync(games, "utf8"));
const out = pyodide.runPython(`
import doctest, importlib, json, pkgutil, sys
sys.path.insert(0, ${JSON.stringify(home)})
import unitile_py
doctests = {}
for info in pkgutil.iter_modules(unitile_py.__path__):
    if info.name == "__main__":
        continue
    module = importlib.import_module("unitile_py." + info.name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    doctests[info.name] = [result.attempted, result.failed]
json.dumps({"version": sys.version.split()[0], "doctests": doctests, "games": play_games(${tables})})
`);
console.log(out);
"""


@pytest.fixture(scope="module")
def pyodide_run(tmp_path_factory: pytest.TempPathFactory) -> dict:
    node = shutil.which("node")
    if node is None or not (PYODIDE / "pyodide.mjs").exists():
        if os.environ.get("CI") == "true":
            pytest.fail("node and node_modules/pyodide are needed (make test installs the npm package)")
        pytest.skip("node or node_modules/pyodide missing: run `npm ci`")
    stdlib = load_site_module("build").compiled_stdlib()  # cached; boots Pyodide in 2 s instead of 5
    work = tmp_path_factory.mktemp("pyodide")
    (work / "runner.mjs").write_text(RUNNER)
    (work / "games.py").write_text(GAMES)
    tables = str(TABLES) if (TABLES / "manifest.json").exists() else "-"
    args = [
        node,
        str(work / "runner.mjs"),
        str(PYODIDE),
        str(ROOT),
        str(stdlib),
        tables,
        str(work / "games.py"),
    ]
    done = subprocess.run(args, capture_output=True, text=True, timeout=300, check=False)
    # node echoes the failing line of minified JavaScript: keep only short lines of the error.
    assert done.returncode == 0, "\n".join(line[:300] for line in done.stderr.splitlines()[-40:])
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_runs_python_3_14(pyodide_run: dict) -> None:
    assert pyodide_run["version"].startswith("3.14.")


def test_doctests_pass_under_pyodide(pyodide_run: dict) -> None:
    doctests = pyodide_run["doctests"]
    expected = {p.stem for p in (ROOT / "unitile_py").glob("*.py") if p.stem not in ("__init__", "__main__")}
    assert expected <= set(doctests)
    assert {name: failed for name, (_, failed) in doctests.items() if failed} == {}
    assert sum(attempted for attempted, _ in doctests.values()) >= 20


def test_random_play_matches_cpython(pyodide_run: dict) -> None:
    namespace: dict = {}
    exec(compile(GAMES, "games", "exec"), namespace)
    tables = TABLES if (TABLES / "manifest.json").exists() else None
    here = namespace["play_games"](None if tables is None else str(tables))
    assert pyodide_run["games"] == here
    assert here["games"] == 6 and here["plies"] > 100
