// Unitile's play page: puts the pieces together. The settings show at once; the board, the buttons
// and the keys work once the worker has started Python (js/worker.js) and the game is drawn.
import { startFrame, registerServiceWorker } from "./frame.js";
import { client } from "./start-worker.js";
import { Store } from "./storage.js";
import { Settings } from "./settings.js";
import { UnitileBoard } from "./board.js";
import { BoardFrame, cellNames } from "./grid.js";
import { Controller, GAME_KEY } from "./controller.js";
import { RecordDialog } from "./dialogs.js";
import { bindKeys, releaseAfterPointer } from "./keys.js";
import { followOtherTabs, openLink } from "./keeping.js";
import { unitileKeys } from "./shortcuts.js";

const $ = (id) => document.getElementById(id);
const DEFAULTS = { r: "human", b: "3", pace: "600", marking: true, confirm: false, analysis: false };
const LEVELS = [1, 2, 3, 4, 5, 6]; // unitile_py.players.LEVELS; the worker's info confirms them
const timings = { script: performance.now() };

startFrame();
new BoardFrame($("board"), { rows: 5, cols: 5, names: cellNames(5, 5) }); // empty until Python is up
for (const colour of ["r", "b"]) {
  for (const level of LEVELS) {
    const option = new Option(level === 6 ? "Level 6 · Unbeatable" : `Computer level ${level}`, String(level));
    $(`player-${colour}`).append(option);
  }
}
const store = new Store("unitile");
const settings = new Settings(store, "settings.v1", DEFAULTS);
settings.bind({
  r: $("player-r"),
  b: $("player-b"),
  pace: $("pace"),
  marking: $("opt-marking"),
  confirm: $("opt-confirm"),
  analysis: $("opt-analysis"),
});
const seedParam = new URLSearchParams(location.search).get("seed");
const game = new Controller({
  client,
  settings,
  store,
  seed: seedParam !== null && /^\d+$/.test(seedParam) ? Number(seedParam) : null,
});
settings.onChange((name) => game.changed(name));
const record = new RecordDialog($("dlg-record"), (text) => game.loadRecord(text));

function openRecord() {
  if (!game.ready) return;
  game.cancelChoice(true);
  record.open(game.state ? game.state.record : "");
}

bindKeys(unitileKeys(game, openRecord));
releaseAfterPointer($("main"));

$("btn-new").addEventListener("click", () => game.newGame());
$("btn-undo").addEventListener("click", () => game.undo());
$("btn-hint").addEventListener("click", () => game.hint());
$("btn-record").addEventListener("click", openRecord);
$("btn-confirm").addEventListener("click", () => game.confirmChoice());
$("btn-pause").addEventListener("click", () => game.togglePause());
$("btn-first").addEventListener("click", () => game.viewPly(0));
$("btn-prev").addEventListener("click", () => game.step(-1));
$("btn-next").addEventListener("click", () => game.step(1));
$("btn-last").addEventListener("click", () => game.viewPly(game.state.plies));
$("btn-live").addEventListener("click", () => game.viewPly(game.state.plies));
$("moves").addEventListener("click", (event) => {
  const b = event.target.closest("button.mv");
  if (b) game.viewPly(Number(b.dataset.ply));
});
document.addEventListener(
  "click",
  (event) => {
    // A tap anywhere but a tile that may slide or Confirm cancels a choice (Undo only cancels).
    if (!game.selected) return;
    if (event.target.closest(".spot.legal, #btn-confirm, #btn-undo")) return;
    game.cancelChoice();
  },
  true,
);
window.addEventListener("popstate", (event) => {
  if (game.ready) openLink(game, event.state && event.state.own ? "history" : "typed");
});

// For the browser tests and the benchmark: read-only views of the page, and the worker client.
window.unitile = {
  get state() {
    return game.state;
  },
  get info() {
    return game.info;
  },
  timings,
  calls: client.calls,
  call: (op, args) => client.call(op, args),
  pendingCount: () => client.open + (game.thinking ? 1 : 0) + (game.busy ? 1 : 0),
};

client.ready.then(
  async ({ info, timings: worker, version }) => {
    timings.worker = worker;
    timings.booted = performance.now();
    document.body.dataset.version = version;
    const board = new UnitileBoard($("board"), info);
    $("board").classList.remove("loading");
    $("loading").hidden = true;
    for (const option of document.querySelectorAll("#player-r option, #player-b option")) {
      option.disabled = option.value !== "human" && !(info.players && info.levels.includes(Number(option.value)));
    }
    $("opt-analysis").disabled = !info.tables;
    game.onPlayable = () => {
      timings.playable = performance.now(); // milliseconds since the navigation started
      performance.mark("unitile-playable");
      document.body.dataset.ready = "1";
    };
    game.start(info, board);
    await openLink(game, "visit");
    followOtherTabs(game, store, GAME_KEY);
    registerServiceWorker();
  },
  (error) => {
    $("loading-text").textContent = `Unitile could not start: ${error.message}`;
    $("loading").classList.add("failed");
    document.body.dataset.ready = "failed";
  },
);
