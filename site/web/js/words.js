// What the play pages say, in the player's terms, whatever the game: colours, counts, players.

export const COLOUR = { r: "Red", b: "Blue" };

export const other = (colour) => (colour === "r" ? "b" : "r");

/** "1 ply", "21 plies". */
export function count(n, one, many) {
  return `${n} ${n === 1 ? one : many}`;
}

export const plies = (n) => count(n, "ply", "plies");

/**
 * A service's one-line refusal as a sentence for the player: without what it starts with to name the
 * input (``read``: "record: ", or a position quoted, "position '...': "), capitalised (unless it starts
 * with a cell's name, "a3 and b2 form ..."), with a full stop.
 * @param {string} message
 * @param {RegExp} [read]
 */
export function sentence(message, read = /^record: /) {
  const text = message.replace(read, "").trim();
  const said = /^[a-z]+\d/.test(text) ? text : text.charAt(0).toUpperCase() + text.slice(1);
  return /[.!?]$/.test(said) ? said : `${said}.`;
}

/** "Red", or "Red (level 3)" for a computer player. */
export function playerName(colour, players) {
  const who = players[colour];
  return who === "human" ? COLOUR[colour] : `${COLOUR[colour]} (level ${who})`;
}

/** The colours played by people. */
export function humansOf(players) {
  return ["r", "b"].filter((colour) => players[colour] === "human");
}

/**
 * The end of a game for the banner: with one human player it speaks to them ("You lost: ..."),
 * otherwise it names the winner. ``how(winner, mover, you)`` says what happened in the game's terms.
 */
export function outcome(st, players, mover, how) {
  const winner = st.winner;
  const n = plies(st.plies);
  const humans = humansOf(players);
  if (humans.length === 1) {
    const you = humans[0];
    return `${winner === you ? "You win" : "You lost"}: ${how(winner, mover, you)} (${n}).`;
  }
  return `${COLOUR[winner]} wins in ${n}: ${how(winner, mover, null)}.`;
}
