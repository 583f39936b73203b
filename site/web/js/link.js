// A game in the URL fragment: "#m=c4.d4" (the moves), "&p=" for a custom start position and, for a
// game played on boards of several sizes, "n=9" first. Any game's page can use it; what the moves
// mean is the game service's business (its "salvage").

const SEPARATOR = ".";
/** The keys of a game's link: the board's size, the start position, the moves. */
const KEYS = ["n", "p", "m"];

/**
 * What a link says besides ``known`` keys, in words for the player (a clause: the page capitalises it),
 * or null when it says nothing else.
 * @param {URLSearchParams} params
 * @param {string[]} known
 */
export function unknownKeys(params, known) {
  const others = [...params].filter(([key]) => !known.includes(key));
  if (!others.length) return null;
  const text = new URLSearchParams(others).toString();
  const shown = text.length > 40 ? `${text.slice(0, 40)}…` : text;
  return `the link's “${shown}” ${others.length > 1 ? "are" : "is"} not understood, so ${others.length > 1 ? "they were" : "it was"} ignored`;
}

/**
 * The game in a fragment, as the page found it (it may be damaged: the service checks it).
 * @returns {{game: {start: string|null, moves: string[], size?: number|string}|null, junk: string|null,
 *   unknown: string|null}} ``game`` null when the fragment holds none; ``junk`` the fragment's text
 *   when it is there but no game; ``unknown`` what a game's link says besides its game (unknownKeys)
 */
export function readLink(hash = location.hash) {
  const text = hash.replace(/^#/, "");
  if (!text) return { game: null, junk: null, unknown: null };
  const params = new URLSearchParams(text);
  if (!KEYS.some((key) => params.has(key))) return { game: null, junk: text, unknown: null };
  const moves = (params.get("m") || "").split(SEPARATOR).filter(Boolean);
  const game = { start: params.get("p") || null, moves };
  if (params.has("n")) {
    const size = params.get("n");
    game.size = /^\d{1,3}$/.test(size) ? Number(size) : size; // the service says what is wrong with it
  }
  return { game, junk: null, unknown: unknownKeys(params, KEYS) };
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
