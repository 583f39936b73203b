// Naked Diagonal's play page: puts the pieces together, as app.js does for Unitile. The settings
// and an empty board of the chosen size show at once; the rest works once the worker has started
// Python (js/worker.js, the same worker as Unitile's) and the game is drawn.
import { startFrame } from "./frame.js";
import { client } from "./start-worker.js";
import { Store } from "./storage.js";
import { Settings } from "./settings.js";
import { NDBoard } from "./nd-board.js";
import { NDController } from "./nd-controller.js";
import { levelOptions, seedFromAddress, startPlayPage } from "./play-page.js";
import { ndKeys } from "./nd-shortcuts.js";

const $ = (id) => document.getElementById(id);
const DEFAULTS = { r: "human", b: "3", size: "9", pace: "600", marking: true, confirm: false };
const LEVELS = [1, 2, 3, 4, 5]; // unitile_py.naked_diagonal.players.LEVELS; the worker's info confirms them
const SIZES = [3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13];

startFrame();
for (const colour of ["r", "b"]) {
  levelOptions($(`player-${colour}`), LEVELS, (level) => (level === 5 ? "Level 5 · Strongest" : `Computer level ${level}`));
}
for (const n of SIZES) $("size").append(new Option(`${n} × ${n}`, String(n)));
const store = new Store("nd");
const settings = new Settings(store, "settings.v1", DEFAULTS);
settings.bind({
  r: $("player-r"),
  b: $("player-b"),
  size: $("size"),
  pace: $("pace"),
  marking: $("opt-marking"),
  confirm: $("opt-confirm"),
});
const makeBoard = (n) => new NDBoard($("board"), n);
makeBoard(Number(settings.get("size"))); // empty until Python is up
const game = new NDController({ client, settings, store, seed: seedFromAddress(), makeBoard });
settings.onChange((name) => game.changed(name));

startPlayPage({
  game,
  client,
  name: "Naked Diagonal",
  keys: ndKeys,
  legalSelector: ".spot.legal",
  boot: async () => {
    const info = await client.call("nd_info");
    for (const option of document.querySelectorAll("#player-r option, #player-b option")) {
      option.disabled = option.value !== "human" && !info.levels.includes(Number(option.value));
    }
    const kept = game.saved();
    const size = kept && Number.isInteger(kept.size) ? kept.size : Number(settings.get("size"));
    return { info, board: makeBoard(size) };
  },
});

// For the benchmark: when the last ban was drawn (performance.now()).
window.unitileBanShown = () => game.banShown;
