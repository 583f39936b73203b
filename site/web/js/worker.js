// Module Web Worker: boots Pyodide, loads unitile_py and the tables from the site's own files, and
// answers the page's requests by calling unitile_py.webapi.handle, for every game of build.json's
// "games" (unitile_py/registry.py: a request's name starts with its game's prefix). It names no game:
// what it preloads, fetches and loads for each comes from build.json. The page never waits on Python.
// The messages each way and build.json are typed in wire.js.
import { fileProblem } from "./hosting.js";
import { OFFLINE_PREFIX, cameWhole, delivered, fetchAhead, keepFetched, notKept, untar } from "./worker-files.js";

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
// same place under HOME, where its service reads them, and only when a game on that board needs them.
// A game whose tables_when is "boot" (Unitile) has all its files loaded by its load_tables request,
// then removed again (they are in memory then, and in the snapshot): on its page while the
// interpreter starts, on another page at its first request. Any other game (Naked Diagonal) gets, at
// a request, the manifests of every board (its service lists the sizes with tables from them) and the
// files of the board the request names (args.game.size or args.size: 4 -> its 4x4 folder), so a 9x9
// game fetches no table and the 5x5 strategy comes with the first 5x5 request. Without them a game
// plays on without what they give (its info says so), and its next request tries again.
/** @type {Map<string, Promise<Uint8Array>>} path -> its bytes */
const tableBytes = new Map();
/** @param {string} path */
function fetchTable(path) {
  if (!tableBytes.has(path)) {
    const bytes = fetchOk(path, "bytes");
    bytes.catch(() => tableBytes.delete(path)); // tried again at the next request
    tableBytes.set(path, bytes);
  }
  return tableBytes.get(path);
}
/** @param {string[]} paths */
function fetchTables(paths) {
  const contents = Promise.all(paths.map(fetchTable));
  contents.catch(() => {}); // reported when the files are needed
  return contents;
}

const BOARD_FOLDER = /\/(\d+x\d+)\//;
/**
 * The files of a game's tables a request needs (see above).
 * @param {import("./wire.js").WorkerGame} game
 * @param {import("./wire.js").Args} [args]
 */
function tableFiles(game, args) {
  if (game.tables_when === "boot") return game.tables;
  const played = args && typeof args.game === "object" && args.game !== null ? /** @type {{size?: unknown}} */ (args.game).size : undefined;
  const size = args ? (played ?? args.size) : undefined;
  return game.tables.filter((path) => {
    if (path.endsWith("/manifest.json")) return true;
    const board = BOARD_FOLDER.exec(path);
    return board !== null && Number.isInteger(size) && board[1] === `${size}x${size}`;
  });
}

/** @type {Set<string>} the table files written into Python's file system */
const written = new Set();
/**
 * Write the files of a game's tables a request needs (once each).
 * @param {Pyodide} pyodide
 * @param {import("./wire.js").WorkerGame} game
 * @param {import("./wire.js").Args} [args]
 */
async function tablesWritten(pyodide, game, args) {
  const paths = tableFiles(game, args).filter((path) => !written.has(path));
  if (!paths.length) return;
  try {
    const contents = await fetchTables(paths);
    writeFiles(pyodide, paths, contents);
    for (const path of paths) written.add(path);
  } catch (error) {
    console.warn(`${game.name}'s tables are missing:`, error.message);
  }
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
    const response = await fetch(url);
    if (!response.ok) throw new Error(`build.json: HTTP ${response.status}`);
    const copy = response.clone();
    /** @type {import("./wire.js").BuildInfo} */
    const info = JSON.parse(await response.text());
    // Kept for the offline copy too (see keepFetched), unless the service worker's cache gave it.
    caches
      .open(OFFLINE_PREFIX + info.version)
      .then(async (cache) => (await cache.match(url.href)) || cache.put(url.href, copy))
      .catch(() => {});
    return info;
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

/**
 * Whether a game with tables loaded at boot has them in the interpreter (a snapshot made on another
 * game's page has not): its info request says so.
 * @param {(op: string, args?: object) => any} call
 * @param {import("./wire.js").WorkerGame} game
 */
function tablesLoaded(call, game) {
  const info = call(game.prefix + "info");
  return Boolean(info.ok && info.result && info.result.tables);
}

async function boot() {
  const started = performance.now();
  // Pyodide's modules at once: starting the interpreter is the longest part of a first visit.
  const runtime = Promise.all([importRuntime("pyodide.js"), importRuntime("pyodide.asm.js")]);
  runtime.catch(() => {}); // reported by startPython
  const info = await readBuildInfo();
  keepFetched(info.version, Object.keys(info.files), Object.keys(info.gzipped || {}));
  const snapshotName = SNAPSHOT_PREFIX + info.version;
  const saved = await readSnapshot(snapshotName);
  /** @type {import("./wire.js").WorkerGame[]} */
  const games = Object.entries(info.games || {}).map(([key, game]) => ({ key, ...game }));
  const pageGame = games.find((game) => game.key === new URL(import.meta.url).searchParams.get("game"));
  // The page's game's tables when it loads them at boot (Unitile's page; the others' on their first request).
  const atBoot = pageGame && pageGame.tables_when === "boot" && pageGame.load_tables ? [pageGame] : [];
  if (!saved) {
    const needed = [...RUNTIME_DATA.map((name) => `pyodide/${name}`), ...info.python, ...atBoot.flatMap((g) => g.tables)];
    const packed = info.gzipped || {};
    const megabytes = needed.reduce((sum, path) => sum + (packed[path] || info.files[path] || 0), 0) / 1e6;
    post({ type: "progress", text: `Loading the game… The first visit downloads ${Math.round(megabytes)} MB; later ones start at once, even offline.` });
  }
  // Pyodide's WebAssembly and standard library and unitile_py's archive at once, while Pyodide's
  // modules still load; the page's boot tables once the network has delivered those (Python starts
  // meanwhile, on the CPU), so that they do not share the network with what the interpreter needs
  // first, and come while it starts.
  const first = [...RUNTIME_DATA.map((name) => `pyodide/${name}`), ...info.python];
  fetchAhead(first);
  const python = startPython(runtime, snapshotName, saved);
  python.catch(() => {}); // reported below
  if (!saved) {
    const tables = atBoot.flatMap((game) => game.tables);
    Promise.all([notKept(tables), Promise.race([delivered(first), cameWhole(first), python])])
      .catch(() => {})
      .then(() => fetchTables(tables));
  }
  const [{ pyodide, restored }, archives] = await Promise.all([
    python,
    Promise.all(info.python.map((path) => fetchOk(path, "bytes"))),
  ]);
  const pythonReady = performance.now();
  // unitile_py, one archive (py/unitile_py.tar), unpacked under HOME.
  for (const archive of archives) {
    const members = untar(archive);
    writeFiles(pyodide, members.map(([path]) => path), members.map(([, bytes]) => bytes));
  }
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
  /** @param {import("./wire.js").WorkerGame} game */
  const loadTables = async (game) => {
    const contents = await fetchTables(game.tables);
    writeFiles(pyodide, game.tables, contents);
    try {
      const loaded = call(game.prefix + game.load_tables, { directory: `${HOME}/tables`, check_records: false });
      if (!loaded.ok) throw new Error(loaded.error); // damaged tables: their one line, whole
    } finally {
      for (const path of game.tables) pyodide.FS.unlink(`${HOME}/${path}`);
    }
  };
  if (!restored) {
    // A fresh interpreter: import the games, load the page's boot tables, then keep a snapshot of all that.
    await Promise.all(atBoot.map((game) => fetchTables(game.tables)));
    steps.fetched = performance.now() - started;
    post({ type: "progress", text: "Setting up the board…" });
    const preloaded = call("preload");
    if (!preloaded.ok) throw new Error(preloaded.error);
    steps.imported = performance.now() - started;
    for (const game of atBoot) await loadTables(game);
    steps.tables = performance.now() - started;
    try {
      snapshot = pyodide.makeMemorySnapshot();
    } catch (error) {
      console.warn("no interpreter snapshot:", error);
    }
    steps.snapshot = performance.now() - started;
  } else {
    // A snapshot made on another game's page lacks this page's boot tables.
    for (const game of atBoot) if (!tablesLoaded(call, game)) await loadTables(game);
  }
  /** @type {Map<string, Promise<void>>} game key -> its boot tables loaded (a game of another page) */
  const bootTables = new Map();
  for (const game of atBoot) bootTables.set(game.key, Promise.resolve());
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
    /**
     * @param {import("./wire.js").WorkerGame} game
     * @param {import("./wire.js").Args} args
     */
    tables: (game, args) => {
      if (game.tables_when !== "boot") return tablesWritten(pyodide, game, args);
      if (!game.load_tables || !game.tables.length) return Promise.resolve();
      if (!bootTables.has(game.key)) {
        const done = tablesLoaded(call, game) ? Promise.resolve() : loadTables(game);
        done.catch((error) => {
          console.warn(`${game.name}'s tables are missing:`, error.message);
          bootTables.delete(game.key);
        });
        bootTables.set(game.key, done.catch(() => {}));
      }
      return bootTables.get(game.key);
    },
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
    const game = games.find((g) => g.prefix && op.startsWith(g.prefix));
    if (game) await tables(game, args);
    if (op.includes("puzzle")) await puzzles();
  } catch (error) {
    post({ type: "reply", id, ok: false, error: "Python did not start" });
    return;
  }
  if (cancelled.delete(id)) return;
  await answer(id, op, args, start, pace);
});
