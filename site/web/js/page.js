// The rules and about pages: only the service worker, so they too work offline and can offer updates.
import { registerServiceWorker } from "./sw-client.js";

registerServiceWorker();
