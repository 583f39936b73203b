// Naked Diagonal's part of the position editor (setup.js): its words, its board of the size being set
// up (the Board menu changes it while editing), its empty board, and "Analyse": both sides played by
// you, to try lines with Hint (perfect play where level 6 plays) and Undo, with the analysis on where
// the size has tables (each placement's win or loss with perfect play).
import { COLOUR } from "./words.js";

/** What the board draws of a set-up: no dots, no last stone, no chain. */
const LOOK = { canAct: false, marking: false, selected: null, hint: null, live: true };

/** @type {import("./setup.js").SetupRules} */
export const ndSetup = {
  help: "Tap a point to change it: red stone, blue stone, empty.",
  blankLabel: "Empty board",
  units: ["stone", "stones"],
  analyseTitle: "Both sides played by you: try lines, with Hint and Undo, and on 3×3 and 4×4 the win or loss of every placement (the Analysis option)",
  word: (cell) => (cell === "." ? "empty" : `${COLOUR[cell].toLowerCase()} stone`),
  cellsOf: (st) => st.points,
  sizeOf: (st) => st.size,
  board(game, n) {
    if (game.board.n !== n) {
      game.board = game.makeBoard(n);
      game.board.frame.onActivate((name) => game.tap(name));
    }
    return game.board;
  },
  draw(board, cells, turn) {
    board.clearBan();
    board.draw({ points: cells, legal: [], chain: [], last: null, turn, ply: 0, over: false, winner: null }, LOOK);
  },
  gameOf: (start, n) => ({ size: n, start, moves: [] }),
  analyse: (game, start) => ({ r: "human", b: "human", ...(start && game.tablesHere(start.size) ? { analysis: true } : {}) }),
};
