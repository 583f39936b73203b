// Naked Diagonal's Puzzles page (nd-puzzles.html): the 4x4 and 3x3 puzzles on Naked Diagonal's board,
// the shared plumbing in puzzles.js. The arrow keys move the focus ring over the points, as on the
// play page; Enter or Space places there.
import { NDBoard } from "./nd-board.js";
import { shake } from "./grid.js";
import { openPuzzlePage } from "./puzzles.js";

const $ = (id) => document.getElementById(id);
const makeBoard = (n) => new NDBoard($("board"), n);

openPuzzlePage({
  store: "nd",
  sizes: [4, 3],
  prefix: "nd_",
  units: ["placement", "placements"],
  boot: async (size) => makeBoard(size),
  makeBoard,
  gameOf: (size, position, moves) => ({ size, start: position, moves }),
  sizeArgs: (size) => ({ size }),
  arrow: (board, st, step) => {
    board.moveCursor(step);
    return null;
  },
  moveText: (board, before, move, who) => `${who} place${who === "You" ? "" : "s"} ${move}.`,
  refuse: (board, name) => shake(board.point(name)),
});
