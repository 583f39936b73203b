// Module Web Worker: boots Pyodide, loads unitile_py and the tables from the site's own files, and
// answers the page's requests by calling unitile_py.webapi.handle. The page never waits on Python.
import { loadPyodide } from "../pyodide/pyodide.mjs";

const BASE = new URL("../", import.meta.url);
const HOME = "/home/pyodide";

function post(message) {
  self.postMessage(message);
}

async function fetchOk(path, kind) {
  const response = await fetch(new URL(path, BASE));
  if (!response.ok) {
    throw new Error(`${path}: HTTP ${response.status}`);
  }
  return kind === "text" ? response.text() : new Uint8Array(await response.arrayBuffer());
}

async function boot() {
  const started = performance.now();
  const info = await (await fetch(new URL("build.json", BASE))).json();
  post({ type: "progress", text: "Starting Python…" });
  const [pyodide, sources, tables] = await Promise.all([
    loadPyodide({ indexURL: new URL("pyodide/", BASE).href, packages: [] }),
    Promise.all(info.python.map((path) => fetchOk(path, "text"))),
    Promise.all(info.tables.map((path) => fetchOk(path, "bytes"))),
  ]);
  const pythonReady = performance.now();
  info.python.forEach((path, i) => {
    const target = `${HOME}/${path.replace(/^py\//, "")}`;
    pyodide.FS.mkdirTree(target.slice(0, target.lastIndexOf("/")));
    pyodide.FS.writeFile(target, sources[i]);
  });
  const tableDir = `${HOME}/tables-in-memory`;
  pyodide.FS.mkdirTree(tableDir);
  const tableNames = info.tables.map((path) => path.slice(path.lastIndexOf("/") + 1));
  tableNames.forEach((name, i) => pyodide.FS.writeFile(`${tableDir}/${name}`, tables[i]));
  post({ type: "progress", text: tables.length ? "Loading the tables…" : "Loading the game…" });
  pyodide.globals.set("_table_names", pyodide.toPy(tableNames));
  pyodide.runPython(`
import sys
if ${JSON.stringify(HOME)} not in sys.path:
    sys.path.insert(0, ${JSON.stringify(HOME)})
from unitile_py import webapi
if _table_names:
    _files = {}
    for _name in _table_names:
        with open(${JSON.stringify(tableDir)} + "/" + _name, "rb") as _f:
            _files[_name] = _f.read()
    webapi.API.load_tables(files=_files)
    del _files
`);
  for (const name of tableNames) {
    pyodide.FS.unlink(`${tableDir}/${name}`);
  }
  const handle = pyodide.globals.get("webapi").handle;
  const finished = performance.now();
  return {
    handle,
    timings: { python: pythonReady - started, total: finished - started },
    version: info.version,
  };
}

const ready = boot();
ready.then(
  ({ handle, timings, version }) => {
    const info = JSON.parse(handle(JSON.stringify({ op: "info" }))).result;
    post({ type: "ready", info, timings, version });
  },
  (error) => post({ type: "failed", error: String(error && error.message ? error.message : error) }),
);

self.addEventListener("message", async (event) => {
  const { id, op, args } = event.data;
  let handle;
  try {
    ({ handle } = await ready);
  } catch (error) {
    post({ type: "reply", id, ok: false, error: "Python did not start" });
    return;
  }
  const started = performance.now();
  try {
    const reply = JSON.parse(handle(JSON.stringify({ op, args })));
    post({ type: "reply", id, ...reply, ms: performance.now() - started });
  } catch (error) {
    // A Python exception that is not a UnitileError is a bug: report it in one line and keep going.
    const text = String(error && error.message ? error.message : error);
    const lines = text.trim().split("\n");
    console.error(text);
    post({ type: "reply", id, ok: false, error: `internal error: ${lines[lines.length - 1]}`, ms: 0 });
  }
});
