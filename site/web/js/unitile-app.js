// Unitile's play page: its settings, levels, controller and board, put together by the play pages'
// skeleton (play-page.js). The settings show at once; the board, the buttons and the keys work once
// the worker has started Python (js/worker.js) and the game is drawn.
import { UnitileBoard } from "./unitile-board.js";
import { BoardFrame, cellNames } from "./grid.js";
import { UnitileController } from "./unitile-controller.js";
import { openPlayPage } from "./play-page.js";
import { drawStart } from "./unitile-start.js";
import { Store } from "./storage.js";
import { GAME_KEY } from "./play.js";
import { PositionEditor } from "./setup.js";
import { unitileSetup } from "./unitile-setup.js";

const $ = (id) => document.getElementById(id);

// The start at once when the page opens on it (no game kept, none in the address), else the empty
// board until Python has read the game.
if (location.hash.length > 1 || new Store("unitile").get(GAME_KEY)) {
  new BoardFrame($("board"), { rows: 5, cols: 5, names: cellNames(5, 5) });
} else {
  drawStart($("board"));
}
const game = openPlayPage({
  store: "unitile",
  name: "Unitile",
  defaults: { r: "human", b: "3", pace: "600", marking: true, confirm: false, analysis: false },
  levels: [1, 2, 3, 4, 5, 6], // unitile_py.unitile.players.LEVELS; the worker's info confirms them
  label: (level) => (level === 6 ? "Level 6 · Perfect play" : `Computer level ${level}`),
  makeGame: (parts) => {
    const controller = new UnitileController(parts);
    controller.editor = new PositionEditor(controller, unitileSetup);
    return controller;
  },
  boot: async () => {
    const info = await game.call("info");
    const board = new UnitileBoard($("board"), info);
    for (const option of /** @type {NodeListOf<HTMLOptionElement>} */ (document.querySelectorAll("#player-r option, #player-b option"))) {
      option.disabled = option.value !== "human" && !(info.players && info.levels.includes(Number(option.value)));
    }
    /** @type {HTMLInputElement} */ ($("opt-analysis")).disabled = !info.tables;
    return { info, board };
  },
});
