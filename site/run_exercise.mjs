// Boot the site's Pyodide under node from a standard library zip, write unitile_py and the tables
// into its file system as the worker does, run site/exercise.py (every module imported, both games'
// requests answered) and an error's way to JavaScript, and print one JSON line: the exercise's counts
// and every module then imported with its file (site/build.py keeps those of the library).
//
//   node site/run_exercise.mjs PYODIDE_DIR STDLIB.zip PACKAGE_DIR TABLES_DIR EXERCISE.py
//     PACKAGE_DIR is unitile_py (sources or .pyc); TABLES_DIR the site's tables/ folder.
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

const [pyodideDir, stdlib, packageDir, tablesDir, exercise] = process.argv.slice(2);
if (!exercise) {
  console.error("usage: run_exercise.mjs PYODIDE_DIR STDLIB.zip PACKAGE_DIR TABLES_DIR EXERCISE.py");
  process.exit(2);
}
const dir = path.resolve(pyodideDir);
const { loadPyodide } = await import(pathToFileURL(path.join(dir, "pyodide.mjs")).href);
const pyodide = await loadPyodide({ indexURL: dir + path.sep, stdLibURL: path.resolve(stdlib), _makeSnapshot: true });
const HOME = "/home/pyodide";

/** Every file under the folder ``from`` (not __pycache__) at the same place under ``to``. */
function copy(from, to) {
  for (const name of fs.readdirSync(from, { recursive: true })) {
    const source = path.join(from, name);
    if (name.split(path.sep).includes("__pycache__") || !fs.statSync(source).isFile()) continue;
    const target = `${to}/${name.split(path.sep).join("/")}`;
    pyodide.FS.mkdirTree(target.slice(0, target.lastIndexOf("/")));
    pyodide.FS.writeFile(target, fs.readFileSync(source));
  }
}
copy(packageDir, `${HOME}/unitile_py`);
copy(tablesDir, `${HOME}/tables`);
pyodide.FS.writeFile("/tmp/exercise.py", fs.readFileSync(exercise));
try {
  pyodide.runPython("raise ValueError('the way of an error to JavaScript')");
} catch {
  // expected: Pyodide formats the traceback, with the modules that takes
}
try {
  const counts = pyodide.runPython(`
import json, sys
sys.path.insert(0, "/tmp")
import exercise
json.dumps(exercise.run(${JSON.stringify(HOME)}))
`);
  pyodide.makeMemorySnapshot();
  const modules = pyodide.runPython(`
json.dumps({name: getattr(m, "__file__", None) for name, m in sorted(sys.modules.items())})
`);
  console.log(JSON.stringify({ counts: JSON.parse(counts), modules: JSON.parse(modules) }));
} catch (error) {
  console.error(String(error.message || error).slice(-3000)); // node would echo minified source
  process.exit(1);
}
