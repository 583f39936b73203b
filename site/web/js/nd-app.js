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
// unitile_py.naked_diagonal.players: levels 1-5 on every board, 6 (perfect play) where the board's
// size has tables (3x3, 4x4); the worker's info confirms them.
const LEVELS = [1, 2, 3, 4, 5, 6];
const label = (level, sizes = "small boards") => {
  if (level === 6) return `Level 6 · Perfect (${sizes})`;
  return level === 5 ? "Level 5 · Strongest search" : `Computer level ${level}`;
};
const SIZES = [3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13];

startFrame();
for (const colour of ["r", "b"]) {
  levelOptions($(`player-${colour}`), LEVELS, (level) => label(level));
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
    const sizes = info.perfect_sizes.map((n) => `${n}×${n}`).join(", ");
    for (const option of document.querySelectorAll("#player-r option, #player-b option")) {
      const level = Number(option.value);
      if (level === info.perfect) option.textContent = label(level, sizes);
      const offered = info.levels.includes(level) || (level === info.perfect && info.perfect_sizes.length > 0);
      option.disabled = option.value !== "human" && !offered;
    }
    const kept = game.saved();
    const size = kept && Number.isInteger(kept.size) ? kept.size : Number(settings.get("size"));
    return { info, board: makeBoard(size) };
  },
});

// For the benchmark: when the last ban was drawn (performance.now()).
window.unitileBanShown = () => game.banShown;
