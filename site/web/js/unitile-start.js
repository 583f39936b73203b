// Unitile's start, drawn at once while Python starts (no slide can be taken yet: the board stays
// dimmed under the loading line until the worker is ready). The start needs no Python: in reading
// order (a5, b5, ..., e1) the tiles alternate blue, red, ..., and the empty cell is c3 (unitile_py's
// Position.start on 5x5; tests/browser/unitile/test_start.py compares it with the worker's). A kept game or a game in the address is not drawn
// here: the page shows the empty board until Python has read it.
import { UnitileBoard } from "./unitile-board.js";
import { cellNames } from "./grid.js";

const ROWS = 5;
const COLS = 5;
const CENTRE = (ROWS * COLS - 1) / 2;

/** The start position as the worker's state has it (the fields the board draws). */
export function startState() {
  const tile = (k) => (k % 2 ? "r" : "b"); // the k-th tile in reading order, the empty cell skipped
  const cells = Array.from({ length: ROWS * COLS }, (_, i) => (i === CENTRE ? "." : tile(i < CENTRE ? i : i - 1)));
  const bubble = cellNames(ROWS, COLS)[CENTRE];
  return { cells, bubble, turn: "r", ply: 0, legal: [], last: null, uniting: [], over: false, winner: null };
}

/** Draw the start on ``root`` (not playable), and mark the moment for bench/browser.py. */
export function drawStart(root) {
  const board = new UnitileBoard(root, { board: { rows: ROWS, cols: COLS }, names: cellNames(ROWS, COLS) });
  board.draw(startState(), { canAct: false, marking: false, selected: null, hint: null, analysis: null, live: false });
  performance.mark("board-drawn");
  return board;
}
