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
  /** @type {typeof fetch} */
  self.fetch = async (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input), BASE);
    const name = url.origin + url.pathname;
    if (!keys.has(name) || (init && init.method && init.method !== "GET")) return siteFetch(input, init);
    const kept = await cache.then((c) => c.match(name)).catch(() => undefined);
    if (kept) return kept;
    const response = (packed.has(name) && (await inflated(url))) || (await siteFetch(input, init));
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
