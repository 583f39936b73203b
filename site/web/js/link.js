// A game in the URL fragment: "#m=c4.d4" (the moves), "&p=" for a custom start position and, for a
// game played on boards of several sizes, "n=9" first. Any game's page can use it; what the moves
// mean is the game service's business (its "salvage").

const SEPARATOR = ".";

/**
 * The game in a fragment, as the page found it (it may be damaged: the service checks it).
 * @returns {{game: {start: string|null, moves: string[], size?: number|string}|null, junk: string|null}}
 *   ``game`` null when the fragment holds none; ``junk`` the fragment's text when it is there but
 *   no game.
 */
export function readLink(hash = location.hash) {
  const text = hash.replace(/^#/, "");
  if (!text) return { game: null, junk: null };
  const params = new URLSearchParams(text);
  if (!params.has("m") && !params.has("p") && !params.has("n")) return { game: null, junk: text };
  const moves = (params.get("m") || "").split(SEPARATOR).filter(Boolean);
  const game = { start: params.get("p") || null, moves };
  if (params.has("n")) {
    const size = params.get("n");
    game.size = /^\d{1,3}$/.test(size) ? Number(size) : size; // the service says what is wrong with it
  }
  return { game, junk: null };
}

/** The fragment of a game ("" for a new game at the usual start of a game with one board). */
export function linkOf(game) {
  const params = new URLSearchParams();
  if (game.size !== undefined) params.set("n", String(game.size));
  if (game.start) params.set("p", game.start);
  if (game.moves.length) params.set("m", game.moves.join(SEPARATOR));
  const text = params.toString();
  return text ? `#${text}` : "";
}

/** Put a game in the address: a new history entry ("push") or the current one ("replace"). */
export function writeLink(game, how) {
  const url = location.pathname + location.search + linkOf(game);
  // Entries the page made itself carry a state, so popstate can tell them from a typed address.
  if (how === "push") history.pushState({ own: true }, "", url);
  else history.replaceState({ own: true }, "", url);
}

/** True when ``short`` is ``long`` or its beginning (same board and start, first moves alike). */
export function isPrefix(short, long) {
  return (
    (short.size ?? null) === (long.size ?? null) &&
    (short.start || null) === (long.start || null) &&
    short.moves.length <= long.moves.length &&
    short.moves.every((move, i) => move === long.moves[i])
  );
}
