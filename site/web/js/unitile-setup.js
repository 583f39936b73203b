// Unitile's part of the position editor (setup.js): its words, its board (tiles drawn on Unitile's
// board, which shows as many tiles as the set-up holds), its usual start, and "Analyse": both sides
// played by you with the analysis on (each slide's win or loss with perfect play, from the tables).
import { COLOUR } from "./words.js";

/** What the board draws of a set-up: no slide, no marking, no last slide. */
const LOOK = { canAct: false, marking: false, selected: null, hint: null, analysis: null, live: true };

/** @type {import("./setup.js").SetupRules} */
export const unitileSetup = {
  help: "Tap a cell to change it: red tile, blue tile, empty cell.",
  blankLabel: "Usual start",
  units: ["tile", "tiles"],
  analyseTitle: "Both sides played by you, with the win or loss of every slide shown (the Analysis option)",
  word: (cell) => (cell === "." ? "empty cell" : `${COLOUR[cell].toLowerCase()} tile`),
  cellsOf: (st) => st.cells,
  sizeOf: (st) => Math.sqrt(st.cells.length), // 5: the page plays on 5x5
  board: (game) => game.board,
  draw(board, cells, turn) {
    const empty = cells.indexOf(".");
    const bubble = empty >= 0 ? board.frame.names[empty] : null;
    const st = { cells, bubble, turn, ply: 0, legal: [], last: null, uniting: [], over: false, winner: null };
    board.draw(st, LOOK);
  },
  gameOf: (start) => ({ start, moves: [] }),
  analyse: (game) => (game.info && game.info.tables ? { r: "human", b: "human", analysis: true } : null),
};
