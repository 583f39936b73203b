// "Your puzzles" (issue 52): the mistakes of the games finished on a play page, kept in localStorage
// (the game's Store, under MINE_KEY) as puzzles for its Puzzles page. A mistake is a move the game's
// review (the "review" request the play page asks for at the end of a game) marks "mistake": its
// mover had a win with perfect play and the move lost it. The puzzle is the position before it, the
// mover (Red or Blue) to move and win; the Puzzles page judges every try from the tables (the "state"
// request's analysis), so any winning move solves it, as `puzzles --from` says on the command line
// (unitile_py/mistake_puzzles.py). What is read back is checked part by part: anything malformed is
// dropped, never an error, as the rest of the progress (puzzle-progress.js).

import { SOLVED } from "./puzzle-progress.js";

/** The key in the game's Store: "unitile.my-puzzles.v1", "nd.my-puzzles.v1". */
export const MINE_KEY = "my-puzzles.v1";
/** Whose mistakes a finished game adds: the human players' (both sides when both are human), or both sides'. */
export const FROM = ["human", "both"];
/** The most puzzles kept (the oldest go first), and the most games remembered as already added. */
export const MAX_PUZZLES = 100;
const MAX_GAMES = 60;
const SIDES = { red: "r", blue: "b" };

/** A whole number from ``low`` to ``high``. */
const whole = (value, low, high) => Number.isInteger(value) && value >= low && value <= high;
/** A short word of letters, digits, dots, slashes, spaces: a position's text or a move's name. */
const text = (value, most) => typeof value === "string" && value.length > 0 && value.length <= most && /^[\w./ -]+$/.test(value);

/**
 * One stored puzzle, checked; null when anything is wrong with it.
 * @param {unknown} raw
 */
function readPuzzle(raw) {
  if (!raw || typeof raw !== "object" || Array.isArray(raw)) return null;
  const p = /** @type {Record<string, unknown>} */ (raw);
  if (!text(p.id, 40) || !/^[a-z0-9-]+$/.test(String(p.id))) return null;
  if (!whole(p.size, 2, 25)) return null;
  if (!text(p.position, 400) || !text(p.played, 12)) return null;
  if (p.mover !== "r" && p.mover !== "b") return null;
  if (!whole(p.distance, 1, 10000) || !whole(p.ply, 1, 10000)) return null;
  if (typeof p.added !== "number" || !Number.isFinite(p.added)) return null;
  if (p.solved !== undefined && !Object.hasOwn(SOLVED, String(p.solved))) return null;
  const out = { id: String(p.id), size: Number(p.size), position: String(p.position), mover: p.mover, played: String(p.played) };
  Object.assign(out, { distance: p.distance, ply: p.ply, added: p.added });
  if (p.solved) out.solved = p.solved;
  return /** @type {MyPuzzle} */ (out);
}

/**
 * A puzzle of the player's: the position before a mistake with its mover to move and win.
 * @typedef {object} MyPuzzle
 * @property {string} id
 * @property {number} size the board's size (Unitile: 5)
 * @property {string} position the position's text, the mover to move
 * @property {"r" | "b"} mover
 * @property {string} played the mistake
 * @property {number} distance the fastest win, in the game's unit, counting the winning move
 * @property {number} ply the mistake's ply in its game
 * @property {number} added when it was added (milliseconds since 1970)
 * @property {"clean" | "tries" | "shown" | "helped"} [solved] how it was solved (puzzle-progress.js, SOLVED)
 */

/**
 * The player's puzzles as stored, every part checked: ``from`` (FROM), ``puzzles`` (oldest first),
 * ``games`` (the keys of the games already added, so that a game reviewed again adds nothing, even a
 * puzzle removed since). Every board size is kept: a Puzzles page shows those of the sizes it plays.
 * @param {unknown} raw
 * @returns {{from: string, puzzles: MyPuzzle[], games: string[]}}
 */
export function readMine(raw) {
  const out = { from: FROM[0], puzzles: [], games: [] };
  if (!raw || typeof raw !== "object" || Array.isArray(raw)) return out;
  const r = /** @type {Record<string, unknown>} */ (raw);
  if (FROM.includes(/** @type {string} */ (r.from))) out.from = String(r.from);
  if (Array.isArray(r.puzzles)) {
    const ids = new Set();
    for (const one of r.puzzles.slice(-MAX_PUZZLES)) {
      const p = readPuzzle(one);
      if (p && !ids.has(p.id)) {
        ids.add(p.id);
        out.puzzles.push(p);
      }
    }
  }
  if (Array.isArray(r.games)) out.games = r.games.filter((key) => typeof key === "string" && /^[a-z0-9]{1,16}$/.test(key)).slice(-MAX_GAMES);
  return out;
}

/** A short key of a game (FNV-1a of its moves), for the games already added. */
export function gameKey(game, size) {
  const words = JSON.stringify([size, game.start || null, game.moves]);
  let h = 0x811c9dc5;
  for (let i = 0; i < words.length; i++) {
    h ^= words.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return `${h.toString(36)}${words.length.toString(36)}`;
}

/**
 * Read, change and write the player's puzzles (re-read first, so another tab's change is kept).
 * @template T
 * @param {import("./storage.js").Store} store
 * @param {(mine: ReturnType<typeof readMine>) => T} change
 * @returns {T}
 */
export function updateMine(store, change) {
  const mine = readMine(store.get(MINE_KEY));
  const out = change(mine);
  store.set(MINE_KEY, mine);
  return out;
}

/**
 * Add the mistakes of a finished game's review: all of them, or only the human players' (the
 * setting ``from``). A game already added adds nothing. Returns how many were added.
 * @param {import("./storage.js").Store} store
 * @param {{plies: {ply: number, move: string, mover: string, position: string, verdict: string,
 *   before: {outcome: string, distance: number}}[]}} review
 * @param {{game: import("./wire.js").PlainGame, size: number, humans: string[], now?: number}} finished
 */
export function addMistakes(store, review, { game, size, humans, now = Date.now() }) {
  const key = gameKey(game, size);
  return updateMine(store, (mine) => {
    if (mine.games.includes(key)) return 0;
    mine.games = [...mine.games, key].slice(-MAX_GAMES);
    const there = new Set(mine.puzzles.map((p) => `${p.size} ${p.position}`));
    let added = 0;
    for (const row of review.plies) {
      const mover = SIDES[row.mover];
      if (row.verdict !== "mistake" || !mover || (mine.from === "human" && !humans.includes(mover))) continue;
      if (there.has(`${size} ${row.position}`)) continue;
      there.add(`${size} ${row.position}`);
      const p = readPuzzle(
        { id: `${key}-${row.ply}`, size, position: row.position, mover, played: row.move, distance: row.before.distance, ply: row.ply, added: now },
      );
      if (p) {
        mine.puzzles.push(p);
        added++;
      }
    }
    mine.puzzles = mine.puzzles.slice(-MAX_PUZZLES);
    return added;
  });
}

/** A day in the player's words ("12 Dec"). */
export function day(ms) {
  return new Date(ms).toLocaleDateString(undefined, { day: "numeric", month: "short" });
}
