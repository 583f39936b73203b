// What is wrong with the server, in one line, when a file the game needs does not load: missing, or
// sent with a type the browser refuses (a module must come as JavaScript; WebAssembly the worker
// compiles whatever its type, see worker.js). Used by the worker client (rpc.js), when the worker's
// own module does not load, and by the worker, when Pyodide's files do not.

const KINDS = {
  javascript: { test: (type) => /javascript|ecmascript/.test(type), want: "text/javascript" },
  json: { test: () => true, want: "application/json" },
  any: { test: () => true, want: "" },
};

/**
 * Why ``url`` cannot be used as ``kind`` ("javascript", "json" or "any"), in one line, or null when
 * it can (or when the check itself cannot tell: offline, say).
 * @param {URL} url
 * @param {string} kind
 * @param {URL} base the site's folder: the message names the file relative to it
 */
export async function fileProblem(url, kind, base) {
  const href = url.origin + url.pathname; // without the worker's ?game=
  const name = href.startsWith(base.href) ? href.slice(base.href.length) : url.pathname;
  let response;
  // A refused or reset connection (a busy server's full queue) is tried again before the check gives
  // up: only a server that never answers leaves the browser's own words.
  for (let attempt = 0; !response; attempt++) {
    try {
      response = await fetch(url, { cache: "no-store" });
    } catch {
      if (attempt === 2) return null;
      await new Promise((resolve) => setTimeout(resolve, 200 * (attempt + 1)));
    }
  }
  if (!response.ok) {
    return `the server has no ${name} (HTTP ${response.status}): copy the whole build/site folder.`;
  }
  const type = (response.headers.get("Content-Type") || "none").split(";")[0].trim().toLowerCase();
  const { test, want } = KINDS[kind];
  if (!test(type)) {
    return `the server sends ${name} as ${type}, not ${want}: its MIME types need fixing.`;
  }
  return null;
}
