// Registers the service worker (offline play) and offers a reload when a new version has been
// installed. Shared by every page; the game page calls it once the board is playable, so the first
// visit's downloads are not slowed down. Once the page is idle it asks the service worker for the
// offline copy (sw.js: the files not yet kept, at low priority), and says in one quiet line, under
// the footer, when both games are available offline (body[data-offline="ready"]).

let updateRequested = false;

function offerUpdate(waiting) {
  const banner = document.getElementById("update");
  if (!banner) return;
  banner.hidden = false;
  document.body.dataset.update = "available";
  document.getElementById("update-reload").onclick = () => {
    updateRequested = true;
    waiting.postMessage({ type: "skip-waiting" });
  };
}

/** When the page has nothing else to do (or after a few seconds at most). */
function whenIdle() {
  return new Promise((resolve) => {
    if ("requestIdleCallback" in window) window.requestIdleCallback(() => resolve(undefined), { timeout: 5000 });
    else setTimeout(resolve, 1000);
  });
}

function offlineReady() {
  document.body.dataset.offline = "ready";
  const note = document.getElementById("offline-note");
  if (note) note.hidden = false;
}

/** Ask the active service worker for the offline copy once the page is idle; show its end. */
async function askForTheCopy() {
  navigator.serviceWorker.addEventListener("message", (event) => {
    if (event.data && event.data.type === "offline-ready") offlineReady();
  });
  const registration = await navigator.serviceWorker.ready;
  await whenIdle();
  if (registration.active) registration.active.postMessage({ type: "offline-copy" });
}

export async function registerServiceWorker() {
  if (!("serviceWorker" in navigator)) return null;
  const root = new URL("../", import.meta.url);
  let registration;
  try {
    registration = await navigator.serviceWorker.register(new URL("sw.js", root), { scope: root.pathname });
  } catch (error) {
    console.warn("service worker not registered:", error);
    return null;
  }
  if (!registration) return null; // some embedders stub registration out
  navigator.serviceWorker.addEventListener("controllerchange", () => {
    if (updateRequested) location.reload();
  });
  if (registration.waiting && navigator.serviceWorker.controller) offerUpdate(registration.waiting);
  registration.addEventListener("updatefound", () => {
    const installing = registration.installing;
    installing.addEventListener("statechange", () => {
      if (installing.state === "installed" && navigator.serviceWorker.controller) offerUpdate(installing);
    });
  });
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible") registration.update().catch(() => {});
  });
  window.unitileRegistration = registration;
  askForTheCopy().catch((error) => console.warn("no offline copy:", error));
  return registration;
}
