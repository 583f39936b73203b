// The progress of the Puzzles pages (puzzles.js), kept in localStorage: the board size and grade
// chosen, the puzzle open on each size, and the puzzles solved on each size ("clean": at the first try
// without the solution shown, else "helped"). What is read back is checked part by part: anything
// malformed (an older or edited value) is dropped, never an error.

/** The key of the progress in the game's Store ("unitile.puzzles.v1", "nd.puzzles.v1"). */
export const PROGRESS_KEY = "puzzles.v1";
export const GRADES = ["easy", "medium", "hard"];
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
        if (/^\d+$/.test(index) && (how === "clean" || how === "helped")) out.solved[size][index] = how;
      }
    }
  }
  return out;
}

