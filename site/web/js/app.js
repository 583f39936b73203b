// Unitile's play page: puts the pieces together. The settings show at once; the board, the buttons
// and the keys work once the worker has started Python (js/worker.js) and the game is drawn.
import { startFrame } from "./frame.js";
import { client } from "./start-worker.js";
import { Store } from "./storage.js";
import { Settings } from "./settings.js";
import { UnitileBoard } from "./board.js";
import { BoardFrame, cellNames } from "./grid.js";
import { Controller } from "./controller.js";
import { levelOptions, seedFromAddress, startPlayPage } from "./play-page.js";
import { unitileKeys } from "./shortcuts.js";

const $ = (id) => document.getElementById(id);
const DEFAULTS = { r: "human", b: "3", pace: "600", marking: true, confirm: false, analysis: false };
const LEVELS = [1, 2, 3, 4, 5, 6]; // unitile_py.unitile.players.LEVELS; the worker's info confirms them

startFrame();
new BoardFrame($("board"), { rows: 5, cols: 5, names: cellNames(5, 5) }); // empty until Python is up
for (const colour of ["r", "b"]) {
  levelOptions($(`player-${colour}`), LEVELS, (level) => (level === 6 ? "Level 6 · Unbeatable" : `Computer level ${level}`));
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
const game = new Controller({ client, settings, store, seed: seedFromAddress() });
settings.onChange((name) => game.changed(name));

startPlayPage({
  game,
  client,
  name: "Unitile",
  keys: unitileKeys,
  legalSelector: ".spot.legal",
  boot: async ({ info }) => {
    const board = new UnitileBoard($("board"), info);
    for (const option of document.querySelectorAll("#player-r option, #player-b option")) {
      option.disabled = option.value !== "human" && !(info.players && info.levels.includes(Number(option.value)));
    }
    $("opt-analysis").disabled = !info.tables;
    return { info, board };
  },
});
