// The rules and about pages: the shared frame, and the service worker at once, so they too work
// offline and can offer updates.
import { registerServiceWorker, startFrame } from "./frame.js";

startFrame();
registerServiceWorker();
