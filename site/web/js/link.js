// A game in the URL fragment: "#m=c4.d4" (the moves) and "&p=" for a custom start position. Any
// game's page can use it; what the moves mean is the game service's business (webapi.salvage).

const SEPARATOR = ".";

/**
 * The game in a fragment, as the page found it (it may be damaged: the service checks it).
 * @returns {{game: {start: string|null, moves: string[]}|null, junk: string|null}} ``game`` null
 *   when the fragment holds none; ``junk`` the fragment's text when it is there but no game.
 */
export function readLink(hash = location.hash) {
  const text = hash.replace(/^#/, "");
  if (!text) return { game: null, junk: null };
  const params = new URLSearchParams(text);
  if (!params.has("m") && !params.has("p")) return { game: null, junk: text };
  const moves = (params.get("m") || "").split(SEPARATOR).filter(Boolean);
  return { game: { start: params.get("p") || null, moves }, junk: null };
}

/** The fragment of a game ("" for a new game at the usual start). */
export function linkOf(game) {
  const params = new URLSearchParams();
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

/** True when ``short`` is ``long`` or its beginning (same start, first moves alike). */
export function isPrefix(short, long) {
  return (
    (short.start || null) === (long.start || null) &&
    short.moves.length <= long.moves.length &&
    short.moves.every((move, i) => move === long.moves[i])
  );
}
