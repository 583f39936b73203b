// Where a play page's game lives between visits: the address (#m=...) and localStorage. A link opens
// its game (as much of it as can be played, and one line on the rest); without one the kept game
// comes back, on every page of the site, in a new tab and in the installed app. Only New game, or
// the player's yes to "Open the game in the link?", discards an unfinished game. Both games use it
// with their controller (play.js): the game service's "salvage" says what a link holds.
import { ask } from "./dialogs.js";
import { isPrefix, readLink } from "./link.js";
import { newSeed } from "./play.js";
import { plies } from "./words.js";

const $ = (id) => document.getElementById(id);
const sameGame = (a, b) => isPrefix(a, b) && a.moves.length === b.moves.length;

/**
 * Open the game of the address in ``game`` (a GameController). ``how``: "visit" (the page was
 * opened), "typed" (a new address in this tab), "history" (back or forward through the page's own
 * entries, which never asks).
 */
export async function openLink(game, how) {
  const link = readLink();
  const kept = game.saved();
  const salvage = async (g) => game.call("salvage", { game: g });
  let shown = game.emptyGame();
  let seed = kept && Number.isInteger(kept.seed) ? kept.seed : newSeed();
  let problem = null;
  if (link.game) {
    ({ game: shown, problem } = await salvage(link.game));
    const unfinished = kept && kept.moves.length > 0 && !kept.over;
    if (how !== "history" && unfinished && !isPrefix(kept, shown) && (await askToReplace(kept)) !== "open") {
      shown = (await salvage(kept)).game;
      problem = null;
    } else if (how !== "history" && !(kept && isPrefix(kept, shown))) {
      seed = newSeed(); // another game than the one kept
    }
  } else {
    // An entry of the page's own without a game is the usual start (Back past the first move); an
    // address without one brings the kept game back.
    if (kept && how !== "history") shown = (await salvage(kept)).game;
    if (link.junk !== null) {
      const what = kept && kept.moves.length ? "your game goes on" : "a new game starts";
      const text = link.junk.length > 40 ? `${link.junk.slice(0, 40)}…` : link.junk;
      problem = `the link's “#${text}” holds no game, so ${what}`;
    }
  }
  if (link.unknown) problem = problem ? `${problem}; ${link.unknown}` : link.unknown;
  game.setGame(shown, "replace", seed); // the address now spells the game as the service does
  if (link.game && !game.humans().length) game.paused = true; // a shared game of two computers: look first
  await game.refresh();
  const note = game.openNote();
  // Both stay, whatever the computer plays, until the player acts.
  if (problem) game.say(`${problem[0].toUpperCase()}${problem.slice(1)}.`, "error", true);
  else if (note) game.say(note, "error", true);
}

function askToReplace(kept) {
  $("dlg-link-text").textContent = `Your unfinished game (${plies(kept.moves.length)}) will be discarded.`;
  return ask(/** @type {HTMLDialogElement} */ ($("dlg-link")));
}

/** When another tab of the site changes the kept game, show the same game here. */
export function followOtherTabs(game, store, key) {
  store.watch(key, (kept) => {
    if (!kept || !Array.isArray(kept.moves) || game.busy) return;
    const other = { ...kept, start: kept.start || null };
    delete other.seed;
    delete other.over;
    if (sameGame(other, game.game)) return;
    game.setGame(other, "replace", kept.seed);
    game.refresh().then(() => game.say("The game went on in another tab of this site.", "note"));
  });
}
