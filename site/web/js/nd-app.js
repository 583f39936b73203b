// Naked Diagonal's play page: its settings, levels, board sizes, controller and board, put together
// by the play pages' skeleton (play-page.js), as for Unitile. The settings and an empty board of the
// chosen size show at once; the rest works once the worker has started Python (js/worker.js, the
// same worker as Unitile's) and the game is drawn.
import { NDBoard } from "./nd-board.js";
import { NDController } from "./nd-controller.js";
import { openPlayPage } from "./play-page.js";
import { PositionEditor } from "./setup.js";
import { ndSetup } from "./nd-setup.js";

const $ = (id) => document.getElementById(id);
// Level 6's sizes are in the note under the menus (#level-note), not in its name: a menu cuts what
// does not fit its width.
const label = (level) => {
  if (level === 6) return "Level 6 · Perfect play";
  return level === 5 ? "Level 5 · Strongest search" : `Computer level ${level}`;
};
const and = (words) => (words.length > 1 ? `${words.slice(0, -1).join(", ")} and ${words.at(-1)}` : words.join(""));
const SIZES = [3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13];
const makeBoard = (n) => new NDBoard($("board"), n);

for (const n of SIZES) $("size").append(new Option(`${n} × ${n}`, String(n)));
for (const colour of ["r", "b"]) $(`player-${colour}`).setAttribute("aria-describedby", "level-note");
const game = openPlayPage({
  store: "nd",
  name: "Naked Diagonal",
  defaults: { r: "human", b: "3", size: "9", pace: "600", marking: true, confirm: false, analysis: false },
  // unitile_py.naked_diagonal.players: levels 1-5 on every board, 6 (perfect play) where the board's
  // size has tables (3x3, 4x4) or a stored proof (5x5: a winner's strategy, info.proof_sizes); the
  // worker's info confirms them.
  levels: [1, 2, 3, 4, 5, 6],
  label: (level) => label(level),
  makeGame: (parts) => {
    makeBoard(Number(parts.settings.get("size"))); // empty until Python is up
    performance.mark("board-drawn"); // for bench/browser.py
    const controller = new NDController({ ...parts, makeBoard });
    controller.editor = new PositionEditor(controller, ndSetup);
    return controller;
  },
  boot: async () => {
    const info = await game.call("info");
    const proofs = info.proof_sizes || {};
    const sizes = info.perfect_sizes.map((n) => `${n}×${n}${n in proofs ? " (by proof)" : ""}`);
    if (sizes.length) $("level-note").textContent = `Level ${info.perfect} plays perfectly on ${and(sizes)} only.`;
    for (const option of /** @type {NodeListOf<HTMLOptionElement>} */ (document.querySelectorAll("#player-r option, #player-b option"))) {
      const level = Number(option.value);
      const offered = info.levels.includes(level) || (level === info.perfect && info.perfect_sizes.length > 0);
      option.disabled = option.value !== "human" && !offered;
    }
    const kept = game.saved();
    const size = kept && Number.isInteger(kept.size) ? kept.size : Number(game.settings.get("size"));
    return { info, board: makeBoard(size) };
  },
});

// For the benchmark: when the last ban was drawn (performance.now()).
window.unitileBanShown = () => game.banShown;
