// The module worker's files (js/worker.js): the responses it fetches kept for the offline copy, the
// gzipped copies it inflates itself, and the tar archive of unitile_py it unpacks.

const BASE = new URL("../", import.meta.url);

// The offline copy starts from what this worker fetched (sw.js): each whole (200) response of a file
// of the build, Pyodide's own fetches included, is stored as it arrives in the service worker's cache
// of this version (unless it came from there), so the copy made once the page is idle need not fetch
// the large files again. Without the Cache API (an insecure origin) nothing is kept.
//
// A file with a gzipped copy beside it (build.json's "gzipped": the WebAssembly, the standard library,
// unitile_py's archive, JSON tables) is asked for as that copy and inflated here, so a server that
// does not send the copies in place of the originals (nginx without gzip_static, python's
// http.server) sends no more bytes than one that does; a missing copy falls back to the original, and
// a kept original (a later visit, offline) is used as it is.
export const OFFLINE_PREFIX = "unitile-"; // sw.js's
const siteFetch = self.fetch.bind(self);
const TYPES = { wasm: "application/wasm", json: "application/json", js: "text/javascript" };

/**
 * The file at ``url`` from its gzipped copy, inflated; null when the copy does not come.
 * @param {URL} url
 */
async function inflated(url) {
  const packed = await siteFetch(new URL(url.pathname + ".gz", url)).catch(() => null);
  if (!packed || packed.status !== 200 || !packed.body) return null;
  // A server that labels the copy Content-Encoding: gzip has the browser inflate it already.
  const body = /gzip/.test(packed.headers.get("Content-Encoding") || "")
    ? packed.body
    : packed.body.pipeThrough(new DecompressionStream("gzip"));
  const type = TYPES[url.pathname.split(".").pop()] || "application/octet-stream";
  return new Response(body, { status: 200, headers: { "Content-Type": type } });
}

/** @type {Set<string>} files known to be missing from the version's cache (:func:`notKept`) */
const absent = new Set();
/** @type {Promise<Cache> | null} the version's cache, once :func:`keepFetched` has opened it */
let versionCache = null;

/**
 * Which of ``paths`` (relative to the site) the version's cache lacks, asked now: their later fetch
 * goes to the network at once, without asking the cache again. (While Pyodide starts, the worker's
 * thread is busy for a second or more on a slow phone, and an answer of the cache waits for it; a
 * fetch asked for goes out meanwhile.)
 * @param {string[]} paths
 */
export async function notKept(paths) {
  const cache = await versionCache?.catch(() => null);
  if (!cache) return;
  await Promise.all(paths.map(async (path) => {
    const name = new URL(path, BASE).href;
    if (!(await cache.match(name).catch(() => undefined))) absent.add(name);
  }));
}

/** @type {Map<string, Promise<Response>>} responses asked for ahead of the code that reads them */
const ahead = new Map();
/** @type {Map<string, {promise: Promise<void>, resolve: () => void}>} each file asked for here: when it has come whole */
const whole = new Map();
/** @param {string} name */
function wholeOf(name) {
  if (!whole.has(name)) {
    /** @type {() => void} */
    let resolve = () => {};
    const promise = new Promise((done) => (resolve = () => done(undefined)));
    whole.set(name, { promise, resolve });
  }
  return whole.get(name);
}

/**
 * ``response`` with its body watched: :func:`cameWhole` says when it has all come.
 * @param {Response} response
 * @param {string} name
 */
function watched(response, name) {
  const { resolve } = wholeOf(name);
  if (!response.body) {
    resolve();
    return response;
  }
  const body = response.body.pipeThrough(new TransformStream({ flush: resolve }));
  return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
}

/**
 * Ask for ``paths`` (relative to the site) now; the first fetch of each later gets its response.
 * @param {string[]} paths
 */
export function fetchAhead(paths) {
  for (const path of paths) {
    const url = new URL(path, BASE);
    const { resolve } = wholeOf(url.href);
    const response = self.fetch(url);
    response.catch(resolve); // the reader sees the failure
    ahead.set(url.href, response);
  }
}

/**
 * When the files ``paths`` asked for here have come whole (at once for those not asked for).
 * @param {string[]} paths
 */
export function cameWhole(paths) {
  return Promise.all(paths.map((path) => whole.get(new URL(path, BASE).href)?.promise));
}

/**
 * When the network has delivered the files ``paths`` (relative to the site), as themselves or as
 * their gzipped copies, however slowly their readers take them in: each has a resource timing entry
 * of status 200, which the browser adds once the response's last byte has come. Pyodide reads its
 * WebAssembly and library as it compiles and starts, seconds after they have come on a slow phone:
 * :func:`cameWhole` waits for that, this does not.
 * @param {string[]} paths
 */
export function delivered(paths) {
  const left = new Set(paths.map((path) => new URL(path, BASE).href));
  /** @param {PerformanceEntryList} entries */
  const seen = (entries) => {
    for (const entry of /** @type {PerformanceResourceTiming[]} */ (entries)) {
      if (entry.responseStatus === 200) left.delete(entry.name.replace(/\.gz$/, ""));
    }
    return left.size === 0;
  };
  if (seen(performance.getEntriesByType("resource"))) return Promise.resolve();
  return new Promise((resolve) => {
    const observer = new PerformanceObserver((list) => {
      if (seen(list.getEntries())) {
        observer.disconnect();
        resolve(undefined);
      }
    });
    observer.observe({ type: "resource" });
  });
}

/**
 * Keep the responses of the build's files (``files``, relative to the site) in ``version``'s cache,
 * and fetch those of ``gzipped`` from their copies.
 * @param {string} version
 * @param {Iterable<string>} files
 * @param {Iterable<string>} gzipped
 */
export function keepFetched(version, files, gzipped) {
  const key = (file) => new URL(file, BASE).href;
  const keys = new Set([...files].map(key));
  const packed = new Set([...gzipped].map(key));
  const cache = caches.open(OFFLINE_PREFIX + version);
  cache.catch(() => {});
  versionCache = cache;
  /** @type {typeof fetch} */
  self.fetch = async (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input), BASE);
    const name = url.origin + url.pathname;
    // A request that is not a plain GET, or that asks for the server's answer as it is (no-store:
    // hosting.js's check of a file that did not load), goes to the server untouched.
    const plain = !init || ((!init.method || init.method === "GET") && init.cache !== "no-store");
    if (!keys.has(name) || !plain) return siteFetch(input, init);
    const early = ahead.get(name);
    if (early) {
      ahead.delete(name);
      return early;
    }
    const kept = absent.has(name) ? undefined : await cache.then((c) => c.match(name)).catch(() => undefined);
    if (kept) {
      wholeOf(name).resolve();
      return kept;
    }
    const fetched = (packed.has(name) && (await inflated(url))) || (await siteFetch(input, init));
    const response = watched(fetched, name);
    if (response.status === 200) {
      const copy = response.clone();
      cache.then((c) => c.put(name, copy)).catch(() => {});
    }
    return response;
  };
}

/**
 * The members of a tar archive (ustar, as site/build.py packs unitile_py): [path, bytes] of each file.
 * @param {Uint8Array} tar
 * @returns {[string, Uint8Array][]}
 */
export function untar(tar) {
  const text = (from, length) => new TextDecoder().decode(tar.subarray(from, from + length)).replace(/\0.*$/s, "");
  /** @type {[string, Uint8Array][]} */
  const out = [];
  for (let at = 0; at + 512 <= tar.length && tar[at] !== 0; ) {
    const size = parseInt(text(at + 124, 12).trim(), 8);
    const prefix = text(at + 345, 155);
    const name = (prefix ? prefix + "/" : "") + text(at, 100);
    if (text(at + 156, 1) === "0" || text(at + 156, 1) === "") out.push([name, tar.slice(at + 512, at + 512 + size)]);
    at += 512 + Math.ceil(size / 512) * 512;
  }
  return out;
}
