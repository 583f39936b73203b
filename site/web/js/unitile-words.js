// What Unitile's page says of a slide and of the end of a game.
import { COLOUR, other, outcome } from "./words.js";

/**
 * Who won a finished game and how: the colour united, whose slide did it, after how many plies.
 * With one human player it speaks to them ("You lost: your slide united Blue (21 plies)."). The last
 * slide is "yours" or "the computer's" only when it was made on this page (``playedHere``); in a
 * game loaded or opened from a link it is the colour's ("You lost: Red's slide united Blue ...").
 */
export function endText(st, players, playedHere = true) {
  const mover = other(st.turn); // the slide that ended the game was the other side's
  return outcome(st, players, mover, (winner, by, you) => {
    if (you && !playedHere) return `${COLOUR[by]}'s slide united ${COLOUR[winner]}`;
    if (you) return `${by === you ? "your slide" : "the computer's slide"} united ${COLOUR[winner]}`;
    const whose = by === winner ? `${COLOUR[by]}'s own slide` : `${COLOUR[by]}'s slide`;
    return `${whose} united the ${COLOUR[winner].toLowerCase()} tiles`;
  });
}

/** "down", "up", "left" or "right": the way a tile slid from ``from`` into ``to``. */
export function direction(frame, from, to) {
  const a = frame.index(from);
  const b = frame.index(to);
  if (Math.floor(a / frame.cols) === Math.floor(b / frame.cols)) return b > a ? "right" : "left";
  return b > a ? "down" : "up";
}
