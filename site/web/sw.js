// Service worker: keeps every file of one build in a cache named after the build's version, so the
// site works offline from the second visit on. site/build.py fills in VERSION and FILES.
//
// The first visit's copy comes after the game, from what was fetched: this worker installs without
// fetching anything; the page's worker (js/worker.js) has already stored the large files it fetched
// (Pyodide, the standard library, unitile_py, the tables) in the same cache, every response that
// passes through here is stored as it goes by, and once the page is playable and idle it asks for
// the copy ("offline-copy"): the files still missing are fetched one at a time at low priority
// (revalidated: the browser's copy when it has one), and the page is told "offline-ready". A new
// version, installed while an older one serves the pages, copies the whole build before it waits for
// the page's "Reload" (then the older caches are deleted).
const VERSION = __VERSION__;
const FILES = __FILES__;
const PREFIX = "unitile-";
const CACHE = PREFIX + VERSION;
/** The cache key of every file of the build (the page's address without its query). */
const KEYS = new Set(FILES.map((file) => keyOf(new URL(file, self.location.href))));

/** @param {URL} url */
function keyOf(url) {
  return url.origin + url.pathname;
}

/**
 * Store a whole response (the Cache API refuses a partial 206; only 200 is kept) of a file of the build.
 * @param {Cache} cache
 * @param {string} key
 * @param {Response} response
 */
async function keep(cache, key, response) {
  if (response.status === 200 && KEYS.has(key)) await cache.put(key, response);
}

/** @type {Promise<void> | null} */
let copying = null;

/**
 * Fetch every file of the build the cache does not hold yet, one at a time (memory stays flat), at low
 * priority; "no-cache" revalidates against the server (a 304 when the browser already has the file),
 * so a new version never mixes in stale files.
 */
async function copyMissing() {
  const cache = await caches.open(CACHE);
  for (const file of FILES) {
    const key = keyOf(new URL(file, self.location.href));
    if (await cache.match(key)) continue;
    const response = await fetch(new Request(file, /** @type {RequestInit} */ ({ cache: "no-cache", priority: "low" })));
    if (response.status !== 200) {
      throw new Error(`offline copy ${file}: HTTP ${response.status}`);
    }
    await keep(cache, key, response);
  }
}

function offlineCopy() {
  copying ||= copyMissing().catch((error) => {
    copying = null; // the next page that asks tries again
    throw error;
  });
  return copying;
}

self.addEventListener("install", (event) => {
  event.waitUntil(
    (async () => {
      const names = await caches.keys();
      if (names.some((name) => name.startsWith(PREFIX) && name !== CACHE)) {
        // An update: the whole new version before it may take over; it waits for the page's reload.
        await offlineCopy();
      } else {
        // The first version takes over at once, and copies once the page asks.
        await self.skipWaiting();
      }
    })(),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    (async () => {
      for (const name of await caches.keys()) {
        if (name.startsWith(PREFIX) && name !== CACHE) {
          await caches.delete(name);
        }
      }
      await self.clients.claim();
    })(),
  );
});

self.addEventListener("message", (event) => {
  const data = event.data;
  if (data && data.type === "skip-waiting") {
    self.skipWaiting();
  }
  if (data && data.type === "version" && event.ports[0]) {
    event.ports[0].postMessage({ version: VERSION });
  }
  if (data && data.type === "offline-copy") {
    const source = /** @type {Client | null} */ (event.source);
    event.waitUntil(
      offlineCopy().then(
        () => source && source.postMessage({ type: "offline-ready", version: VERSION }),
        (error) => console.warn("offline copy unfinished:", error),
      ),
    );
  }
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== self.location.origin) {
    return;
  }
  event.respondWith(
    (async () => {
      const cache = await caches.open(CACHE);
      const key = keyOf(url);
      const hit = await cache.match(key);
      if (hit) {
        return hit;
      }
      const response = await fetch(request);
      if (response.status === 200 && KEYS.has(key) && !request.headers.has("range")) {
        // Stored as it passes: the offline copy need not fetch it again.
        event.waitUntil(keep(cache, key, response.clone()).catch(() => {}));
      }
      return response;
    })(),
  );
});
