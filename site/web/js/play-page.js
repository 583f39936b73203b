// The play pages' skeleton: each game's page (unitile-app.js, nd-app.js) names its settings, levels,
// controller and board, and this does the rest the same way for both: the frame, the settings shown
// at once (before Python), the buttons, the review bar, the move list, a tap elsewhere that cancels
// a choice, the back button, the keys, the record dialog, the hooks for the tests and the benchmark
// (window.unitile), and the start: the board once Python is up, the game of the address or the kept
// one, other tabs followed, then offline play.
import { registerServiceWorker, startFrame } from "./frame.js";
import { client } from "./start-worker.js";
import { Store } from "./storage.js";
import { Settings } from "./settings.js";
import { RecordDialog, keysHelp } from "./dialogs.js";
import { bindKeys, releaseAfterPointer } from "./keys.js";
import { playKeys } from "./shortcuts.js";
import { followOtherTabs, openLink } from "./keeping.js";
import { GAME_KEY } from "./play.js";
import { ReviewPanel } from "./review-chart.js";

const $ = (id) => document.getElementById(id);
/** The control of each setting: these by id, the others are the Options' checkboxes (``opt-name``). */
const CONTROLS = { r: "player-r", b: "player-b", pace: "pace", size: "size" };
/** What a tap may choose (a tap anywhere else cancels a choice). */
const LEGAL = ".spot.legal";

/**
 * Open a game's play page.
 * @template {import("./play.js").GameController} G
 * @param {{store: string, name: string, defaults: object, levels: number[],
 *   label: (level: number) => string,
 *   makeGame: (parts: object) => G,
 *   boot: (ready: object) => Promise<{info: object, board: object}>}} page ``store`` is the
 *   localStorage prefix of the game ("unitile", "nd"), ``defaults`` its settings (each shown in its
 *   control), ``label`` a computer level's name in the player menus, ``makeGame(parts)`` its
 *   controller, ``boot`` makes its board from the worker's ready message
 * @returns {G} the game's controller
 */
export function openPlayPage({ store: prefix, name, defaults, levels, label, makeGame, boot }) {
  startFrame();
  for (const colour of ["r", "b"]) {
    for (const level of levels) $(`player-${colour}`).append(new Option(label(level), String(level)));
  }
  const store = new Store(prefix);
  const settings = new Settings(store, "settings.v1", defaults);
  settings.bind(Object.fromEntries(Object.keys(defaults).map((key) => [key, $(CONTROLS[key] ?? `opt-${key}`)])));
  const game = makeGame({ client, settings, store, seed: seedFromAddress() });
  settings.onChange((setting) => game.changed(setting));
  startPlayPage(game, boot, name);
  return game;
}

function startPlayPage(game, boot, name) {
  const timings = { script: performance.now() };
  const record = new RecordDialog(
    /** @type {HTMLDialogElement} */ ($("dlg-record")),
    (text) => game.loadRecord(text),
    (text) => game.call("records", { text }),
  );

  function openRecord() {
    if (!game.ready) return;
    game.cancelChoice(true);
    record.open(game.state ? game.state.record : "");
  }

  bindKeys(playKeys(game, openRecord, keysHelp(/** @type {HTMLDialogElement} */ ($("dlg-keys")), $("btn-keys"))));
  if ($("review-card")) {
    game.review = new ReviewPanel($("review-card"), {
      request: (g) => game.call("review", { game: g }),
      pick: (ply) => game.viewPly(ply).then(showBoard),
      changed: () => game.reviewed(),
      unit: game.reviewUnit(),
    });
  }
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
    /** @type {HTMLButtonElement | null} */
    const b = /** @type {Element} */ (event.target).closest("button.mv");
    if (b) game.viewPly(Number(b.dataset.ply));
  });
  document.addEventListener(
    "click",
    (event) => {
      // A tap anywhere but what may be chosen or Confirm cancels a choice (Undo only cancels).
      if (!game.selected) return;
      if (/** @type {Element} */ (event.target).closest(`${LEGAL}, #btn-confirm, #btn-undo`)) return;
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
    async (ready) => {
      timings.worker = ready.timings;
      timings.booted = performance.now();
      document.body.dataset.version = ready.version;
      const { info, board } = await boot(ready);
      $("board").classList.remove("loading");
      $("loading").hidden = true;
      game.onPlayable = () => {
        timings.playable = performance.now(); // milliseconds since the navigation started
        performance.mark("unitile-playable");
        document.body.dataset.ready = "1";
        game.keepNewGames();
      };
      game.start(info, board);
      await openLink(game, "visit");
      followOtherTabs(game, game.store, GAME_KEY);
      registerServiceWorker();
    },
    (error) => {
      $("loading-text").textContent = `${name} could not start: ${error.message}`;
      $("loading").classList.add("failed");
      document.body.dataset.ready = "failed";
    },
  );
}

/** Bring the board into view when less than half of it is on the screen (on a phone the Review card
 * is a screen below it): the ply a tap on the chart shows is seen. */
function showBoard() {
  const board = $("board");
  const box = board.getBoundingClientRect();
  const seen = Math.min(box.bottom, window.innerHeight) - Math.max(box.top, 0);
  if (seen >= box.height / 2) return;
  const still = window.matchMedia("(prefers-reduced-motion: reduce)").matches;
  board.scrollIntoView({ block: "nearest", behavior: still ? "auto" : "smooth" });
}

/** The computer's seed fixed by the address (the tests' ?seed=), or null. */
function seedFromAddress() {
  const seed = new URLSearchParams(location.search).get("seed");
  return seed !== null && /^\d+$/.test(seed) ? Number(seed) : null;
}
