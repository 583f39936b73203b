// Unitile's Puzzles page (puzzles.html): the 5x5 puzzles on Unitile's board, the shared plumbing in
// puzzles.js. The arrow keys slide the tile on that side of the empty cell, as on the play page.
import { UnitileBoard } from "./unitile-board.js";
import { openPuzzlePage } from "./puzzles.js";
import { direction } from "./unitile-words.js";

const $ = (id) => document.getElementById(id);
let info = null;

openPuzzlePage({
  store: "unitile",
  sizes: [5],
  prefix: "ut_",
  units: ["ply", "plies"],
  boot: async (size, call) => {
    info = await call("info");
    return new UnitileBoard($("board"), info);
  },
  makeBoard: () => new UnitileBoard($("board"), info),
  gameOf: (size, position, moves) => ({ start: position, moves }),
  sizeArgs: () => ({}),
  arrow: (board, st, step) => (st.over ? null : board.frame.neighbour(st.bubble, step)),
  moveText: (board, before, move, who) => {
    const way = direction(board.frame, move, before.bubble);
    return `${who} slide${who === "You" ? "" : "s"} ${move} ${way} to ${before.bubble}.`;
  },
  refuse: (board, name) => board.refuse(name),
});
