// The progress of the Puzzles pages (puzzles.js), kept in localStorage: the board size and grade
// chosen, the puzzle open on each size, and the puzzles solved on each size, and how (SOLVED). What is
// read back is checked part by part: anything malformed (an older or edited value) is dropped, never
// an error.

/** The key of the progress in the game's Store ("unitile.puzzles.v1", "nd.puzzles.v1"). */
export const PROGRESS_KEY = "puzzles.v1";
export const GRADES = ["easy", "medium", "hard"];

/** How a puzzle was solved, best first, each with its mark in the list (a shape, whatever the colour)
 * and its words: at the first try ("clean"), after wrong tries ("tries"), with the solution shown
 * ("shown"); "helped", written by earlier pages, was one of the last two. */
export const SOLVED = {
  clean: { mark: "✓", words: "at the first try" },
  tries: { mark: "↻", words: "after wrong tries" },
  helped: { mark: "↻", words: "not at the first try" },
  shown: { mark: "◐", words: "with the solution shown" },
};

/**
 * How a puzzle solved now was solved: after ``tries`` wrong tries, with the solution ``shown`` or not.
 * @returns {"clean" | "tries" | "shown"}
 */
export function solvedHow(tries, shown) {
  return shown ? "shown" : tries ? "tries" : "clean";
}

/** The better of two ways of solving one puzzle (``was`` may be undefined: not solved before). */
export function betterSolve(was, now) {
  const order = Object.keys(SOLVED);
  return was in SOLVED && order.indexOf(was) < order.indexOf(now) ? was : now;
}

/** Progress as stored, every part checked: anything malformed is dropped, never an error. */
export function readProgress(raw, sizes) {
  const out = { size: sizes[0], grade: "all", at: {}, solved: Object.fromEntries(sizes.map((n) => [n, {}])) };
  if (!raw || typeof raw !== "object" || Array.isArray(raw)) return out;
  if (sizes.includes(raw.size)) out.size = raw.size;
  if (raw.grade === "all" || GRADES.includes(raw.grade)) out.grade = raw.grade;
  for (const size of sizes) {
    const at = raw.at && typeof raw.at === "object" ? raw.at[size] : undefined;
    if (Number.isInteger(at) && at >= 0) out.at[size] = at;
    const solved = raw.solved && typeof raw.solved === "object" ? raw.solved[size] : undefined;
    if (solved && typeof solved === "object" && !Array.isArray(solved)) {
      for (const [index, how] of Object.entries(solved)) {
        if (/^\d+$/.test(index) && Object.hasOwn(SOLVED, how)) out.solved[size][index] = how;
      }
    }
  }
  return out;
}

