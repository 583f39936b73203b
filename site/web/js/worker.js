// Module Web Worker: boots Pyodide, loads unitile_py and the tables from the site's own files, and
// answers the page's requests by calling unitile_py.webapi.handle, for every game of build.json's
// "games" (unitile_py/registry.py: a request's name starts with its game's prefix). It names no game:
// what it preloads, fetches and loads for each comes from build.json. The page never waits on Python.
// The messages each way and build.json are typed in wire.js.
import { fileProblem } from "./hosting.js";

const BASE = new URL("../", import.meta.url);
const PYODIDE = new URL("pyodide/", BASE);
const HOME = "/home/pyodide";

/** @param {import("./wire.js").FromWorker} message */
function post(message) {
  self.postMessage(message);
}

/**
 * A file of the site, as text or bytes.
 * @overload
 * @param {string} path
 * @param {"text"} kind
 * @returns {Promise<string>}
 */
/**
 * @overload
 * @param {string} path
 * @param {"bytes"} kind
 * @returns {Promise<Uint8Array>}
 */
/**
 * @param {string} path
 * @param {"text" | "bytes"} kind
 * @returns {Promise<string | Uint8Array>}
 */
async function fetchOk(path, kind) {
  const response = await fetch(new URL(path, BASE));
  if (!response.ok) {
    throw new Error(`${path}: HTTP ${response.status}`);
  }
  return kind === "text" ? response.text() : new Uint8Array(await response.arrayBuffer());
}

// A memory snapshot of the interpreter with unitile_py imported makes later visits start in a
// fraction of the time (Pyodide's experimental _makeSnapshot/_loadSnapshot). It is kept in its own
// cache, named after the build, and any failure falls back to a normal start. One worker and one
// snapshot serve every game: before the snapshot, the "preload" request imports each game's service
// and the modules its build.json entry lists (its computer players).
const SNAPSHOT_PREFIX = "pyodide-snapshot-";
/** @typedef {import("pyodide").PyodideInterface} Pyodide the npm package's types, of the same version */

async function readSnapshot(name) {
  try {
    const hit = await (await caches.open(name)).match("snapshot");
    return hit ? new Uint8Array(await hit.arrayBuffer()) : null;
  } catch {
    return null; // no Cache API here (an insecure origin): start normally
  }
}

async function storeSnapshot(name, bytes) {
  try {
    for (const old of await caches.keys()) {
      if (old.startsWith(SNAPSHOT_PREFIX) && old !== name) await caches.delete(old);
    }
    await (await caches.open(name)).put("snapshot", new Response(bytes));
  } catch (error) {
    console.warn("interpreter snapshot not stored:", error);
  }
}

// Pyodide 314 restores a snapshot into the new module's initial memory (30 MiB) without growing it,
// so the snapshot of a heap that grew (loading the tables does) fails with "offset is out of bounds".
// While it starts, the new instance's memory is grown to the snapshot's heap before Pyodide uses it.
function growMemoryFor(snapshot) {
  const heap = snapshot.byteLength - new Uint32Array(snapshot.buffer, snapshot.byteOffset, 4)[1];
  const originals = { instantiate: WebAssembly.instantiate, instantiateStreaming: WebAssembly.instantiateStreaming };
  const wrap = (original) =>
    async function (...args) {
      const result = await original.apply(WebAssembly, args);
      const instance = result instanceof WebAssembly.Instance ? result : result.instance;
      const memory = instance && instance.exports.memory;
      if (memory instanceof WebAssembly.Memory) {
        const missing = Math.ceil((heap - memory.buffer.byteLength) / 65536);
        if (missing > 0) memory.grow(missing);
      }
      return result;
    };
  WebAssembly.instantiate = wrap(originals.instantiate);
  WebAssembly.instantiateStreaming = wrap(originals.instantiateStreaming);
  return () => Object.assign(WebAssembly, originals);
}

// Pyodide's two ES modules, vendored as pyodide.js and pyodide.asm.js (site/build.py: any server
// sends .js as JavaScript, not every one .mjs), both imported here at once; loadPyodide gets the
// second as its createPyodideModule instead of importing pyodide.asm.mjs itself.
async function importRuntime(name) {
  const url = new URL(name, PYODIDE);
  try {
    return await import(url.href);
  } catch (error) {
    throw new Error((await fileProblem(url, "javascript", BASE)) || `${url.pathname}: ${error.message}`, { cause: error });
  }
}

// Pyodide compiles its WebAssembly with instantiateStreaming, which refuses a response whose type is
// not application/wasm (a server that does not know .wasm), and it only logs a failed compilation and
// waits for ever. Here a wasm of another type is compiled from its bytes, and a failure ends the boot.
/** @type {(error: Error) => void} */
let runtimeFailed = () => {}; // rejects the start under way (each attempt gets its own, see load)
const instantiateStreaming = WebAssembly.instantiateStreaming;
WebAssembly.instantiateStreaming = async function (source, imports) {
  try {
    const response = await source;
    if (!response.ok) {
      throw new Error(`the server has no ${response.url.slice(BASE.href.length)} (HTTP ${response.status}): copy the whole build/site folder.`);
    }
    const type = (response.headers.get("Content-Type") || "").split(";")[0].trim();
    if (type === "application/wasm") return await instantiateStreaming.call(WebAssembly, response, imports);
    return await WebAssembly.instantiate(await response.arrayBuffer(), imports);
  } catch (error) {
    runtimeFailed(error);
    throw error;
  }
};

const RUNTIME_DATA = ["python_stdlib.zip", "pyodide-lock.json", "pyodide.asm.wasm"];

/**
 * @param {Promise<[{loadPyodide: typeof import("pyodide").loadPyodide}, {default: unknown}]>} runtime
 * @param {string} snapshotName
 * @param {Uint8Array | null} snapshot
 * @returns {Promise<{pyodide: Pyodide, restored: boolean}>}
 */
async function startPython(runtime, snapshotName, snapshot) {
  const [{ loadPyodide }, { default: createPyodideModule }] = await runtime;
  const options = { indexURL: PYODIDE.href, createPyodideModule };
  const load = (extra) =>
    Promise.race([
      loadPyodide({ ...options, ...extra }),
      new Promise((resolve, reject) => {
        runtimeFailed = reject;
      }),
    ]).catch(async (error) => {
      // Pyodide reports a missing standard library as Python's exit: name the file instead.
      for (const name of RUNTIME_DATA) {
        const problem = await fileProblem(new URL(name, PYODIDE), "any", BASE);
        if (problem) throw new Error(problem, { cause: error });
      }
      throw error;
    });
  if (snapshot) {
    const restore = growMemoryFor(snapshot);
    try {
      return { pyodide: await load({ _loadSnapshot: snapshot }), restored: true };
    } catch (error) {
      console.warn("interpreter snapshot unusable, starting afresh:", error);
      await caches.delete(snapshotName).catch(() => {});
    } finally {
      restore();
    }
  }
  return { pyodide: await load({ _makeSnapshot: true }), restored: false };
}

/**
 * Write site files into Python's file system, at the same place under HOME (py/ is the package's).
 * @param {Pyodide} pyodide
 * @param {string[]} paths
 * @param {(string | Uint8Array)[]} contents
 */
function writeFiles(pyodide, paths, contents) {
  paths.forEach((path, i) => {
    const target = `${HOME}/${path.replace(/^py\//, "")}`;
    pyodide.FS.mkdirTree(target.slice(0, target.lastIndexOf("/")));
    pyodide.FS.writeFile(target, contents[i]);
  });
}

// Each game's table files (build.json's games[key].tables), written into Python's file system at the
// same place under HOME, where its service reads them. A game whose tables_when is "boot" has them
// written while the interpreter starts, loaded by its load_tables request and removed again (they are
// in memory then, and in the snapshot); any other game on its first request (so a page of one game
// never loads another's tables of perfect play or stored proofs). The page's own game
// (the worker's ?game=) has its files fetched while Python starts. Without them a game plays on
// without what they give (its info says so), and its next request tries again.
/** @type {Map<string, Promise<Uint8Array[]>>} game key -> promise of its files' bytes */
const fetched = new Map();
/** @type {Map<string, Promise<void>>} game key -> promise of its files written */
const written = new Map();
/** @param {import("./wire.js").WorkerGame} game */
function fetchTables(game) {
  if (!fetched.has(game.key)) {
    const contents = Promise.all(game.tables.map((path) => fetchOk(path, "bytes")));
    contents.catch(() => {}); // reported when the files are needed
    fetched.set(game.key, contents);
  }
  return fetched.get(game.key);
}
/**
 * @param {Pyodide} pyodide
 * @param {import("./wire.js").WorkerGame} game
 */
function tablesWritten(pyodide, game) {
  if (!written.has(game.key)) {
    const done = fetchTables(game).then(
      (contents) => writeFiles(pyodide, game.tables, contents),
      (error) => {
        console.warn(`${game.name}'s tables are missing:`, error.message);
        fetched.delete(game.key);
        written.delete(game.key);
      },
    );
    written.set(game.key, done);
  }
  return written.get(game.key);
}

// The games' puzzle files (build.json's puzzles: tables/puzzles/*.json), fetched and written on the
// first puzzle request (the Puzzles pages'), where the services read them (unitile_py.puzzles.Shelf).
/** @type {Promise<void> | null} */
let puzzleFiles = null;
/**
 * @param {Pyodide} pyodide
 * @param {string[]} paths
 */
function puzzlesWritten(pyodide, paths) {
  puzzleFiles ||= Promise.all(paths.map((path) => fetchOk(path, "text"))).then(
    (contents) => writeFiles(pyodide, paths, contents),
    (error) => {
      console.warn("the puzzle files are missing:", error.message);
      puzzleFiles = null;
    },
  );
  return puzzleFiles;
}

/** @returns {Promise<import("./wire.js").BuildInfo>} */
async function readBuildInfo() {
  const url = new URL("build.json", BASE);
  try {
    return JSON.parse(await fetchOk("build.json", "text"));
  } catch (error) {
    throw new Error((await fileProblem(url, "json", BASE)) || `build.json: ${error.message}`, { cause: error });
  }
}

/**
 * The worker's downloads so far: [file, start, end] in ms since ``started`` (bench/browser.py).
 * @param {number} started
 * @returns {import("./wire.js").Timings["files"]}
 */
function fileTimes(started) {
  const entries = /** @type {PerformanceResourceTiming[]} */ (performance.getEntriesByType("resource"));
  return entries.map((e) => [
    e.name.slice(BASE.href.length),
    Math.round(e.startTime - started),
    Math.round(e.responseEnd - started),
  ]);
}

async function boot() {
  const started = performance.now();
  // Pyodide's modules at once: starting the interpreter is the longest part of a first visit.
  const runtime = Promise.all([importRuntime("pyodide.js"), importRuntime("pyodide.asm.js")]);
  runtime.catch(() => {}); // reported by startPython
  const info = await readBuildInfo();
  const snapshotName = SNAPSHOT_PREFIX + info.version;
  const saved = await readSnapshot(snapshotName);
  if (!saved) {
    const megabytes = Object.values(info.files).reduce((a, b) => a + b, 0) / 1e6;
    post({ type: "progress", text: `Loading the game… The first visit downloads ${Math.round(megabytes)} MB; later ones start at once, even offline.` });
  }
  const python = startPython(runtime, snapshotName, saved);
  python.catch(() => {}); // reported below
  // The other files once Pyodide has asked for its WebAssembly and standard library, so that the
  // server's few connections (six over HTTP/1.1) serve those first, not 60 small files before them.
  await runtime.catch(() => {});
  await new Promise((resolve) => setTimeout(resolve, 0));
  /** @type {import("./wire.js").WorkerGame[]} */
  const games = Object.entries(info.games || {}).map(([key, game]) => ({ key, ...game }));
  const atBoot = games.filter((game) => game.tables_when === "boot");
  const pageGame = new URL(import.meta.url).searchParams.get("game");
  // Without a snapshot the boot tables are needed: fetch them, and the page's game's, while Python starts.
  for (const game of games) {
    if ((!saved && game.tables_when === "boot") || (game.key === pageGame && game.tables_when !== "boot")) {
      fetchTables(game);
    }
  }
  const [{ pyodide, restored }, sources] = await Promise.all([
    python,
    Promise.all(info.python.map((path) => fetchOk(path, "bytes"))),
  ]);
  const pythonReady = performance.now();
  writeFiles(pyodide, info.python, sources);
  let snapshot = null;
  /** @type {Partial<import("./wire.js").Timings>} */
  const steps = {}; // milliseconds since the worker started, for bench/browser.py
  pyodide.runPython(`
import sys
if ${JSON.stringify(HOME)} not in sys.path:
    sys.path.insert(0, ${JSON.stringify(HOME)})
from unitile_py import webapi
`);
  const call = (op, args = {}) => JSON.parse(pyodide.globals.get("webapi").handle(JSON.stringify({ op, args })));
  if (!restored) {
    // A fresh interpreter: import the games, load the boot tables, then keep a snapshot of all that.
    const contents = await Promise.all(atBoot.map((game) => fetchTables(game)));
    steps.fetched = performance.now() - started;
    post({ type: "progress", text: "Setting up the board…" });
    const preloaded = call("preload");
    if (!preloaded.ok) throw new Error(preloaded.error);
    steps.imported = performance.now() - started;
    atBoot.forEach((game, i) => {
      writeFiles(pyodide, game.tables, contents[i]);
      if (game.load_tables && game.tables.length) {
        const loaded = call(game.prefix + game.load_tables, { directory: `${HOME}/tables`, check_records: false });
        if (!loaded.ok) throw new Error(loaded.error); // damaged tables: their one line, whole
      }
      for (const path of game.tables) pyodide.FS.unlink(`${HOME}/${path}`);
    });
    steps.tables = performance.now() - started;
    try {
      snapshot = pyodide.makeMemorySnapshot();
    } catch (error) {
      console.warn("no interpreter snapshot:", error);
    }
    steps.snapshot = performance.now() - started;
  }
  const webapi = pyodide.globals.get("webapi");
  const handle = webapi.handle;
  const start = webapi.start;
  const pace = { slice: webapi.SLICE, deadline: webapi.DEADLINE }; // unitile_py.webapi's
  const finished = performance.now();
  if (snapshot) {
    // After the board is up: the page must not wait for the snapshot to be written.
    setTimeout(() => storeSnapshot(snapshotName, snapshot), 0);
  }
  return {
    handle,
    start,
    pace,
    timings: { python: pythonReady - started, ...steps, total: finished - started, restored, files: fileTimes(started) },
    version: info.version,
    games,
    tables: (game) => tablesWritten(pyodide, game),
    puzzles: () => puzzlesWritten(pyodide, info.puzzles || []),
  };
}

const ready = boot();
ready.then(
  ({ handle, timings, version }) => {
    /** @type {import("./wire.js").GameEntry[]} */
    const games = JSON.parse(handle(JSON.stringify({ op: "games" }))).result;
    post({ type: "ready", games, timings, version });
  },
  (error) => {
    // Bad tables arrive as their one line (see boot); only a bug in Python arrives as a whole
    // traceback, whose last line the page shows.
    const text = String(error && error.message ? error.message : error).trim();
    console.error(text);
    post({ type: "failed", error: text.split("\n").pop() });
  },
);

// Each request runs as a task of unitile_py.webapi.start in slices of webapi.SLICE seconds: between two
// slices the worker yields to its event loop, so the page's next messages are handled at once (a
// cancel drops the task: its search is abandoned and no reply is sent; another request is answered
// between the slices of a long one). A MessageChannel message is a zero-delay yield (setTimeout
// would clamp to 4 ms after a few nested calls). "ms" in a reply is the Python time spent on it,
// "wall" the time from its arrival to its reply. A search that has worked webapi.DEADLINE seconds answers
// from the playouts it has ("hurried" in the reply): the playout counts hold the budget on this
// machine (docs/players.md), the deadline only on a much slower or busier one.
const cancelled = new Set(); // ids cancelled before or while they run
const channel = new MessageChannel();
const waiting = [];
channel.port1.onmessage = () => waiting.shift()();
function yieldToEvents() {
  return new Promise((resolve) => {
    waiting.push(resolve);
    channel.port2.postMessage(null);
  });
}

/** @param {number} id */
function failed(id, error) {
  // A Python exception that is not a UnitileError is a bug: report it in one line and keep going.
  const text = String(error && error.message ? error.message : error);
  const lines = text.trim().split("\n");
  console.error(text);
  post({ type: "reply", id, ok: false, error: `internal error: ${lines[lines.length - 1]}`, ms: 0 });
}

/**
 * @param {number} id
 * @param {string} op
 * @param {import("./wire.js").Args} args
 * @param {{slice: number, deadline: number}} pace
 */
async function answer(id, op, args, start, pace) {
  const arrived = performance.now();
  let task;
  try {
    task = start(JSON.stringify({ op, args }), pace.deadline);
  } catch (error) {
    failed(id, error);
    return;
  }
  let ms = 0;
  try {
    for (;;) {
      const t0 = performance.now();
      const reply = task.step(pace.slice);
      ms += performance.now() - t0;
      if (reply !== undefined && reply !== null) {
        const wall = performance.now() - arrived;
        post({ type: "reply", id, ...JSON.parse(reply), ms, wall, hurried: task.hurried });
        return;
      }
      await yieldToEvents();
      if (cancelled.has(id)) {
        task.cancel();
        return;
      }
    }
  } catch (error) {
    failed(id, error);
  } finally {
    cancelled.delete(id);
    task.destroy();
  }
}

self.addEventListener("message", async (/** @type {MessageEvent<import("./wire.js").ToWorker>} */ event) => {
  const { id, op, args, cancel } = /** @type {Partial<import("./wire.js").Call & import("./wire.js").Cancel>} */ (event.data);
  if (cancel !== undefined) {
    cancelled.add(cancel);
    return;
  }
  let start, pace;
  try {
    let games, tables, puzzles;
    ({ start, pace, games, tables, puzzles } = await ready);
    const game = games.find((g) => g.tables_when !== "boot" && g.prefix && op.startsWith(g.prefix));
    if (game) await tables(game);
    if (op.includes("puzzle")) await puzzles();
  } catch (error) {
    post({ type: "reply", id, ok: false, error: "Python did not start" });
    return;
  }
  if (cancelled.delete(id)) return;
  await answer(id, op, args, start, pace);
});
