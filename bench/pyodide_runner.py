"""A bench script run inside Pyodide (the site's interpreter) under node, for the benches that compare it
with CPython (``players.py pyodide``, ``review.py --pyodide``), or by hand:

    .venv/bin/python bench/pyodide_runner.py core.py --dirs unitile_py

Pyodide boots from ``node_modules/pyodide``; the project's folders a script names (``unitile_py``, the
tables it reads) and the bench scripts are copied into its file system, and the script runs there with
the arguments given.
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

#: Node script: boot Pyodide, copy the folders (argument 4, a JSON list) and bench/ in, run the script
#: (argument 3) with its arguments (argument 5, a JSON list).
NODE_RUNNER = r"""
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
const [pyodideDir, root, script, dirs, argv] = process.argv.slice(2);
const { loadPyodide } = await import(pathToFileURL(path.join(pyodideDir, "pyodide.mjs")).href);
const pyodide = await loadPyodide({ indexURL: pyodideDir + path.sep });
const home = "/home/pyodide";
function copy(dir) {
  pyodide.FS.mkdirTree(`${home}/${dir}`);
  for (const name of fs.readdirSync(path.join(root, dir))) {
    const file = path.join(root, dir, name);
    if (name === "__pycache__") continue;
    if (fs.statSync(file).isDirectory()) copy(`${dir}/${name}`);
    else pyodide.FS.writeFile(`${home}/${dir}/${name}`, fs.readFileSync(file));
  }
}
for (const dir of [...JSON.parse(dirs), "bench"]) copy(dir);
pyodide.globals.set("bench_argv", JSON.stringify([`bench/${script}`, ...JSON.parse(argv)]));
pyodide.runPython(`
import argparse
import json
import runpy
import sys
sys.argv = json.loads(bench_argv)
sys.path[:0] = ["${home}", "${home}/bench"]
runpy.run_path("${home}/bench/${script}", run_name="__main__")
`);
"""


def run_in_pyodide(script: str, dirs: Sequence[str], argv: Sequence[str]) -> None:
    """Run ``bench/<script>`` with the arguments ``argv`` inside Pyodide under node, the project's folders
    ``dirs`` copied in; exit with its status."""
    node = shutil.which("node")
    pyodide_dir = ROOT / "node_modules" / "pyodide"
    if node is None or not (pyodide_dir / "pyodide.mjs").exists():
        sys.exit("node and node_modules/pyodide are needed (npm ci)")
    with tempfile.TemporaryDirectory() as tmp:
        runner = Path(tmp) / "runner.mjs"
        runner.write_text(NODE_RUNNER, encoding="utf-8")
        cmd = [node, str(runner), str(pyodide_dir), str(ROOT), script, json.dumps(list(dirs)),
               json.dumps(list(argv))]
        sys.exit(subprocess.run(cmd, check=False).returncode)


def main() -> None:
    parser = argparse.ArgumentParser(description="run a bench script inside Pyodide under node")
    parser.add_argument("script", help="the script's name in bench/, such as review.py")
    parser.add_argument("--dirs", nargs="*", default=["unitile_py"], help="the project's folders it reads")
    parser.add_argument("args", nargs=argparse.REMAINDER, help="the script's own arguments")
    args = parser.parse_args()
    run_in_pyodide(args.script, args.dirs, args.args)


if __name__ == "__main__":
    main()
