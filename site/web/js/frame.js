// The frame every page shares: the header's colour-scheme toggle, offline play and the update
// prompt (the header itself is written once, in site/web/frame/, and filled in by site/build.py).
import { registerServiceWorker } from "./sw-client.js";
import { bindThemeToggle } from "./theme.js";

export { registerServiceWorker };

export function startFrame() {
  bindThemeToggle(document.getElementById("theme-toggle"));
}
