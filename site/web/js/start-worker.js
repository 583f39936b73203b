// The play page's first module (its own script tag, before app.js): the worker starts Python while
// the page's other modules are still loading. app.js imports the same client from here.
import { WorkerClient } from "./rpc.js";

// The worker is told the page's game: Naked Diagonal's page has it fetch that game's tables at once.
const game = document.documentElement.dataset.game;
export const client = new WorkerClient(new URL(`./worker.js?game=${game}`, import.meta.url), (text) => {
  document.getElementById("loading-text").textContent = text;
});
