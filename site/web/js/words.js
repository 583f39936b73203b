// What Unitile's page says, in the player's terms: names, counts, the end of a game.

export const COLOUR = { r: "Red", b: "Blue" };

export const other = (colour) => (colour === "r" ? "b" : "r");

/** "1 ply", "21 plies". */
export function count(n, one, many) {
  return `${n} ${n === 1 ? one : many}`;
}

export const plies = (n) => count(n, "ply", "plies");

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
 * Who won a finished game and how: the colour united, whose slide did it, after how many plies.
 * With one human player it speaks to them ("You lost: your slide united Blue (21 plies).").
 */
export function endText(st, players) {
  const winner = st.winner;
  const mover = other(st.turn); // the slide that ended the game was the other side's
  const n = plies(st.plies);
  const humans = humansOf(players);
  if (humans.length === 1) {
    const you = humans[0];
    const outcome = winner === you ? "You win" : "You lost";
    const by = mover === you ? "your slide" : "the computer's slide";
    return `${outcome}: ${by} united ${COLOUR[winner]} (${n}).`;
  }
  const by = mover === winner ? `${COLOUR[mover]}'s own slide` : `${COLOUR[mover]}'s slide`;
  return `${COLOUR[winner]} wins in ${n}: ${by} united the ${COLOUR[winner].toLowerCase()} tiles.`;
}

/** "down", "up", "left" or "right": the way a tile slid from ``from`` into ``to``. */
export function direction(frame, from, to) {
  const a = frame.index(from);
  const b = frame.index(to);
  if (Math.floor(a / frame.cols) === Math.floor(b / frame.cols)) return b > a ? "right" : "left";
  return b > a ? "down" : "up";
}
