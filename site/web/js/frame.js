// The frame every page shares: the game switch (Unitile | Naked Diagonal), the header's colour-scheme
// toggle, offline play and the update prompt (the header itself is written once, in site/web/frame/,
// and filled in by site/build.py). The game of the page opened last is remembered ("site.game"): a
// page of the whole site (about.html) points its Play and Rules links at it, and entering the site
// at its address opens it (js/early.js).
import { registerServiceWorker } from "./sw-client.js";
import { Store } from "./storage.js";
import { bindThemeToggle } from "./theme.js";

export { registerServiceWorker };

/** Each game's pages, as site/build.py links them. */
export const GAMES = {
  unitile: { play: "./", rules: "rules.html", puzzles: "puzzles.html" },
  nd: { play: "nd.html", rules: "nd-rules.html", puzzles: "nd-puzzles.html" },
};
const site = new Store("site");

/** The game chosen last ("unitile" or "nd"). */
export function lastGame() {
  const game = site.get("game", "unitile");
  return game in GAMES ? game : "unitile";
}

export function startFrame() {
  bindThemeToggle(document.getElementById("theme-toggle"));
  const own = document.documentElement.dataset.game;
  if (own in GAMES) {
    site.set("game", own);
  } else {
    // A page of both games: its links go to the game played last.
    const game = lastGame();
    const nav = document.querySelector("header .pages");
    const link = (selector) => /** @type {HTMLAnchorElement} */ (nav.querySelector(selector));
    link('a[href="./"], a[href="nd.html"]').href = GAMES[game].play;
    link('a[href="rules.html"], a[href="nd-rules.html"]').href = GAMES[game].rules;
    link('a[href="puzzles.html"], a[href="nd-puzzles.html"]').href = GAMES[game].puzzles;
    document.querySelector(`header .game[data-game="${game}"]`).setAttribute("aria-current", "true");
  }
  for (const link of /** @type {NodeListOf<HTMLAnchorElement>} */ (document.querySelectorAll("header .game"))) {
    link.addEventListener("click", () => site.set("game", link.dataset.game));
  }
}
