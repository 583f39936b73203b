// Service worker: keeps every file of one build in a cache named after the build's version, so the
// site works offline from the second visit on. site/build.py fills in VERSION and FILES.
const VERSION = __VERSION__;
const FILES = __FILES__;
const PREFIX = "unitile-";
const CACHE = PREFIX + VERSION;

async function precache() {
  const cache = await caches.open(CACHE);
  // One file at a time keeps memory flat; "no-cache" revalidates against the server (a 304 when the
  // browser already has the file), so a new version never mixes in stale files.
  for (const file of FILES) {
    const request = new Request(file, { cache: "no-cache" });
    const response = await fetch(request);
    // The Cache API refuses partial (206) responses: insist on a whole 200.
    if (response.status !== 200) {
      throw new Error(`precache ${file}: HTTP ${response.status}`);
    }
    await cache.put(request, response);
  }
}

self.addEventListener("install", (event) => {
  event.waitUntil(
    precache().then(async () => {
      // The first version takes over at once; later ones wait until the page agrees to reload.
      const names = await caches.keys();
      if (!names.some((name) => name.startsWith(PREFIX) && name !== CACHE)) {
        await self.skipWaiting();
      }
    }),
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
  if (event.data && event.data.type === "skip-waiting") {
    self.skipWaiting();
  }
  if (event.data && event.data.type === "version" && event.ports[0]) {
    event.ports[0].postMessage({ version: VERSION });
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
      const key = url.origin + url.pathname;
      const hit = await cache.match(key);
      if (hit) {
        return hit;
      }
      return fetch(request);
    })(),
  );
});
