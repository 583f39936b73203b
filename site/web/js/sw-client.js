// Registers the service worker (offline play) and offers a reload when a new version has been
// installed. Shared by every page; the game page calls it once the board is playable, so the first
// visit's downloads are not slowed down (the worker then revalidates files the browser already has).

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
  return registration;
}
