// The Puzzles pages of both games (puzzles.html, nd-puzzles.html): a position from the shipped puzzle
// files (tables/puzzles/, chosen from the tables by the pipeline) where Red, to move, has exactly one
// winning move. The worker judges each try (the "puzzle_try" request, with the moves played so far): a
// wrong move is refused with how fast it loses and the position stays; a right one is played and level
// 6 (perfect play) answers, until Red has won. Progress (the puzzles solved, cleanly or not, per board
// size, and the puzzle open) is kept in localStorage under a versioned key. Each game's page names its
// board, its requests and its words (unitile-puzzles.js, nd-puzzles.js); this does the rest.
//
// "Your puzzles" (issue 52): the mistakes of the games finished on the play page (my-puzzles.js), Red
// or Blue to move and win. The shipped files do not hold them, so their tries are judged here from the
// tables, through the "state" request's analysis (each legal move's result with perfect play): a move
// that keeps the win is right, whichever it is; an illegal one gets the rules' reason ("explain").
import { registerServiceWorker, startFrame } from "./frame.js";
import { client } from "./start-worker.js";
import { Store } from "./storage.js";
import { bindKeys } from "./keys.js";
import { PuzzlePlay } from "./puzzle-play.js";
import { day } from "./my-puzzles.js";
import { unknownKeys } from "./link.js";
import { GRADES, PROGRESS_KEY, SOLVED, betterSolve, readProgress } from "./puzzle-progress.js";
import { YourPuzzles } from "./my-puzzles-card.js";

const $ = (id) => document.getElementById(id);
/** A button of the page. */
const button = (id) => /** @type {HTMLButtonElement} */ ($(id));
/** The grade menu, and the size menu where the game has one (else null). */
const menu = (id) => /** @type {HTMLSelectElement | null} */ ($(id));
/** The keys of a puzzle's link: the board's size (n, as the play pages' links; size in older links),
 * the puzzle's number, or one of Your puzzles. */
const LINK_KEYS = ["n", "size", "p", "mine"];

class PuzzlePage extends PuzzlePlay {
  constructor(page) {
    super(page);
    this.store = new Store(page.store);
    this.progress = readProgress(this.store.get(PROGRESS_KEY), page.sizes);
    this.size = this.progress.size;
    this.list = []; // the puzzles of this size: {index, grade, distance, position}
    this.hash = ""; // the address of the puzzle shown
    this.index = 0;
    this.mine = new YourPuzzles(this.store, page.sizes, page.units); // Your puzzles (my-puzzles-card.js)
    /** @type {import("./my-puzzles.js").MyPuzzle | null} */
    this.current = null; // the puzzle of Your puzzles open, or null for a shipped one
    menu("grade").value = this.progress.grade;
    if (menu("size")) menu("size").value = String(this.size);
  }

  // ----- opening puzzles ------------------------------------------------------------------------

  async start() {
    this.board = await this.page.boot(this.size, (op, args) => this.call(op, args));
    this.board.frame.onActivate((name) => this.tap(name));
    await this.openAddress(true);
  }

  /** The puzzle of the address (#p=N, Naked Diagonal also n=S, the key of the play pages' links;
   * size=S of older links too; #mine=ID), else the one open last (or, on a link followed, the one
   * shown). What the address names that does not exist is said in one line, and the address then
   * names the puzzle shown. */
  async openAddress(first = false) {
    const params = new URLSearchParams(location.hash.slice(1));
    const problems = [unknownKeys(params, LINK_KEYS)];
    const sizeText = params.get("n") ?? params.get("size");
    const size = Number(sizeText);
    const number = Number(params.get("p"));
    if (this.page.sizes.includes(size) && size !== this.size) {
      this.size = size;
      this.list = [];
    } else if (sizeText !== null && !this.page.sizes.includes(size)) {
      const board = /^\d{1,3}$/.test(sizeText) ? `${size}×${size}` : `“${sizeText.slice(0, 20)}”`;
      problems.unshift(`there are no ${board} puzzles, so the ${this.size}×${this.size} ones are shown`);
    }
    if (!this.list.length) await this.loadList();
    const mine = this.mine.here().find((p) => p.id === params.get("mine"));
    const wanted = Number.isInteger(number) && number >= 1 && number <= this.list.length;
    if (mine) {
      if (first || !this.current || mine.id !== this.current.id || !this.game) await this.openMine(mine.id);
    } else if (wanted) {
      if (first || this.current || number - 1 !== this.index || !this.game) await this.open(number - 1);
    } else if (first || !this.game) {
      const at = this.progress.at[this.size];
      await this.open(Number.isInteger(at) && at < this.list.length ? at : this.inGrade()[0]);
    }
    const shown = this.current ? "your puzzle" : `puzzle ${this.index + 1}`;
    if (params.has("mine") && !mine) problems.unshift(`your puzzle “${params.get("mine").slice(0, 20)}” is not in this browser, so ${shown} is shown`);
    else if (params.has("p") && !mine && !wanted) {
      const asked = params.get("p").slice(0, 20);
      problems.unshift(`there is no puzzle ${asked} (the puzzles are 1 to ${this.list.length}), so ${shown} is shown`);
    }
    if (location.hash !== this.hash) history.replaceState(null, "", this.hash);
    const said = problems.filter(Boolean).join("; ");
    if (said) this.say(`${said[0].toUpperCase()}${said.slice(1)}.`, "error");
  }

  /** Every puzzle of this size, without its solution (the "puzzle" request of each number). */
  async loadList() {
    const args = this.page.sizeArgs(this.size);
    const first = await this.call("puzzle", { ...args, index: 0 });
    const rest = await Promise.all(
      Array.from({ length: first.count - 1 }, (_, i) => this.call("puzzle", { ...args, index: i + 1 })),
    );
    this.list = [first, ...rest];
    this.boardOf(this.size);
  }

  /** A board of ``size`` (Naked Diagonal's boards have sizes; Unitile's is always 5x5). */
  boardOf(size) {
    if (this.board.n !== undefined && this.board.n !== size) {
      this.board = this.page.makeBoard(size);
      this.board.frame.onActivate((name) => this.tap(name));
    }
  }

  /** The size of the board of the puzzle open. */
  get puzzleSize() {
    return this.current ? this.current.size : this.size;
  }

  /** The numbers of the puzzles of the chosen grade. */
  inGrade() {
    const grade = this.progress.grade;
    const chosen = this.list.filter((p) => grade === "all" || p.grade === grade).map((p) => p.index);
    return chosen.length ? chosen : this.list.map((p) => p.index);
  }

  /** Show puzzle ``index`` at its start; the same puzzle again (Start again) keeps its wrong tries
   * and whether its solution was shown, so that it cannot then be solved cleanly. */
  async open(index) {
    const again = this.puzzle !== null && this.list[index] === this.puzzle;
    this.current = null;
    this.progress.at[this.size] = index;
    this.progress.size = this.size;
    if (menu("size")) menu("size").value = String(this.size); // a link may name another size
    this.save();
    const number = index + 1;
    const hash = `#${this.page.sizes.length > 1 ? `n=${this.size}&` : ""}p=${number}`;
    const p = this.list[index];
    await this.show(index, p, again, hash, `Puzzle ${number} of ${this.list.length}, ${p.grade}.`);
  }

  /** Show puzzle ``id`` of Your puzzles at its start (again: as :meth:`open`). */
  async openMine(id) {
    const mine = this.mine.here();
    const at = mine.findIndex((p) => p.id === id);
    if (at < 0) return;
    const again = this.current !== null && this.current.id === id;
    this.current = mine[at];
    const { mover, distance, position } = this.current;
    const p = { turn: mover, distance, position, mine: id };
    await this.show(this.index, p, again, `#mine=${id}`, `Your puzzle ${at + 1} of ${mine.length}.`);
  }

  /** Show ``puzzle`` (a shipped one, number ``index``, or one of Your puzzles) at its start. */
  async show(index, puzzle, again, hash, said) {
    this.gen++;
    this.busy = true;
    this.index = index;
    this.puzzle = puzzle;
    this.boardOf(this.puzzleSize);
    this.game = this.page.gameOf(this.puzzleSize, puzzle.position, []);
    if (!again) {
      this.tries = 0;
      this.revealed = false;
    }
    this.hinted = null;
    this.solved = false;
    this.hash = hash;
    if (location.hash !== hash) history.replaceState(null, "", hash);
    try {
      await this.refresh();
      this.say("");
      this.announce(`${said} ${this.title()}.`);
    } catch (error) {
      this.report(error);
    } finally {
      this.busy = false;
    }
    this.drawChrome();
  }

  /** The title, the line under it, the buttons, the list of puzzles and the progress. */
  drawChrome() {
    const p = this.puzzle;
    const n = this.list.length;
    const solved = this.progress.solved[this.size];
    $("puzzle-title").textContent = this.solved ? `Solved: ${this.title()}` : this.title();
    const way = SOLVED[this.current ? this.current.solved : solved[p.index]];
    const how = way ? ` · solved ${way.words}` : "";
    const board = this.page.sizes.length > 1 ? ` · ${this.puzzleSize}×${this.puzzleSize}` : "";
    if (this.current) {
      const mine = this.mine.here();
      const c = this.current;
      const at = mine.findIndex((q) => q.id === c.id) + 1;
      $("puzzle-meta").textContent = `Your puzzle ${at} of ${mine.length} · ply ${c.ply} of a game of ${day(c.added)}${board}${how}`;
    } else $("puzzle-meta").textContent = `Puzzle ${p.index + 1} of ${n} · ${p.grade}${board}${how}`;
    const chosen = this.collection();
    const at = chosen.indexOf(this.current ? this.current.id : p.index);
    button("btn-prev").disabled = at <= 0;
    button("btn-next").disabled = at < 0 ? false : at >= chosen.length - 1;
    button("btn-random").disabled = chosen.length < 2;
    button("btn-restart").disabled = false;
    button("btn-solution").disabled = this.solved || this.state.over;
    const list = $("puzzle-list");
    list.replaceChildren(
      ...this.inGrade().map((index) => {
        const item = document.createElement("li");
        const b = document.createElement("button");
        b.type = "button";
        b.className = "btn btn-small puzzle-number";
        b.dataset.index = String(index);
        b.textContent = String(index + 1);
        const mark = solved[index];
        if (mark) {
          b.dataset.solved = mark;
          const shape = Object.assign(document.createElement("span"), { className: "puzzle-mark", textContent: SOLVED[mark].mark });
          shape.setAttribute("aria-hidden", "true");
          b.append(" ", shape);
        }
        const said = mark ? `, solved ${SOLVED[mark].words}` : "";
        b.setAttribute("aria-label", `Puzzle ${index + 1}, ${this.list[index].grade}${said}`);
        if (!this.current && index === p.index) b.setAttribute("aria-current", "true");
        item.append(b);
        return item;
      }),
    );
    const all = Object.keys(solved).length;
    const grades = GRADES.map((grade) => {
      const of = this.list.filter((q) => q.grade === grade);
      return of.length ? `${grade} ${of.filter((q) => solved[q.index]).length}/${of.length}` : null;
    }).filter(Boolean);
    $("progress").textContent = `Solved ${all} of ${n}${grades.length ? ` (${grades.join(", ")})` : ""}.`;
    this.mine.draw(this.current);
  }

  // ----- Your puzzles (my-puzzles-card.js) -------------------------------------------------------

  /** The puzzles that Previous, Next and Random go through: Your puzzles while one is open (their
   * ids), else the shipped ones of the grade chosen (their numbers). */
  collection() {
    return this.current ? this.mine.here().map((p) => p.id) : this.inGrade();
  }

  /** Open puzzle ``at`` of the collection (an id of Your puzzles or a shipped puzzle's number). */
  openAt(at) {
    return typeof at === "string" ? this.openMine(at) : this.open(at);
  }

  /** Remove puzzle ``id`` (``null``: all of this page's) from Your puzzles; the puzzle open goes too:
   * the next of Your puzzles opens, or the shipped puzzle open last. */
  async remove(id) {
    const { at, gone } = this.mine.remove(id);
    const left = this.mine.here();
    if (this.current && gone.has(this.current.id)) {
      const next = left[Math.min(at, left.length - 1)];
      if (id !== null && next) await this.openMine(next.id);
      else {
        const last = this.progress.at[this.size];
        await this.open(Number.isInteger(last) && last < this.list.length ? last : this.inGrade()[0]);
      }
    } else this.drawChrome();
    this.announce(id === null ? "Your puzzles removed." : `Your puzzle ${at + 1} removed.`);
    this.mine.focusAfterRemove(at);
  }

  // ----- moving between puzzles -----------------------------------------------------------------

  step(delta) {
    if (!this.puzzle) return;
    const chosen = this.collection();
    const at = chosen.indexOf(this.current ? this.current.id : this.index);
    const next = at < 0 ? chosen.find((i) => (delta > 0 ? i > this.index : i < this.index)) : chosen[at + delta];
    if (next !== undefined) this.openAt(next);
  }

  /** Another puzzle of the grade, an unsolved one while there are some. */
  random() {
    if (!this.puzzle) return;
    if (this.current) {
      const others = this.mine.here().filter((p) => p.id !== this.current.id);
      const open = others.filter((p) => !p.solved);
      const from = open.length ? open : others;
      if (from.length) this.openMine(from[Math.floor(Math.random() * from.length)].id);
      return;
    }
    const chosen = this.inGrade().filter((i) => i !== this.index);
    const unsolved = chosen.filter((i) => !this.progress.solved[this.size][i]);
    const pool = unsolved.length ? unsolved : chosen;
    if (pool.length) this.open(pool[Math.floor(Math.random() * pool.length)]);
  }

  setGrade(grade) {
    this.progress.grade = grade;
    this.save();
    if (!this.puzzle) return;
    const chosen = this.inGrade();
    if (this.current || chosen.includes(this.index)) this.drawChrome();
    else this.open(chosen.find((i) => !this.progress.solved[this.size][i]) ?? chosen[0]);
  }

  async setSize(size) {
    if (size === this.size || !this.page.sizes.includes(size)) return;
    this.size = size;
    this.list = [];
    this.gen++;
    try {
      await this.loadList();
      const at = this.progress.at[size];
      await this.open(Number.isInteger(at) && at < this.list.length ? at : this.inGrade()[0]);
    } catch (error) {
      this.report(error);
    }
  }

  puzzleSeed() {
    return this.current ? this.current.ply : this.index;
  }

  /** The puzzle open was solved, ``how`` (puzzle-progress.js, SOLVED). */
  markSolved(how) {
    if (this.current) {
      this.current = this.mine.solved(this.current, how);
      return;
    }
    const solved = this.progress.solved[this.size];
    solved[this.index] = betterSolve(solved[this.index], how);
    this.save();
  }

  /** The move of a try judged: Your puzzles' here, from the analysis; the shipped ones' by "puzzle_try". */
  judge(name) {
    if (this.current) return this.mine.judge(name, this.state, this.game, (op, args) => this.call(op, args));
    const args = { ...this.page.sizeArgs(this.size), index: this.index, move: name, moves: this.game.moves };
    return this.call("puzzle_try", args);
  }

  save() {
    this.store.set(PROGRESS_KEY, this.progress);
  }
}

/**
 * Open a game's Puzzles page.
 * @param {{store: string, sizes: number[], prefix: string, units: [string, string],
 *   boot: (size: number, call: (op: string, args?: object) => Promise<object>) => Promise<object>, makeBoard: (size: number) => object,
 *   gameOf: (size: number, position: string, moves: string[]) => object,
 *   sizeArgs: (size: number) => object, arrow: (board: object, st: object, step: number[]) => string|null,
 *   moveText: (board: object, before: object, move: string, who: string) => string,
 *   refuse: (board: object, name: string) => void}} page ``store`` the localStorage prefix,
 *   ``sizes`` the board sizes with puzzles (the first the default), ``prefix`` of the requests,
 *   ``units`` a move's word (one, many), ``boot`` the board once Python is up, ``makeBoard`` a board
 *   of a size, ``gameOf`` the plain game of a puzzle, ``sizeArgs`` the size in a request, ``arrow``
 *   the cell an arrow key plays (null: it moved a focus ring), ``moveText`` a move in words,
 *   ``refuse`` shows a refused move on the board
 */
export function openPuzzlePage(page) {
  startFrame();
  const puzzles = new PuzzlePage(page);
  bindKeys((key, target) => puzzles.key(key, target));
  for (const [id, action] of /** @type {[string, () => unknown][]} */ ([
    ["btn-prev", () => puzzles.step(-1)],
    ["btn-next", () => puzzles.step(1)],
    ["btn-random", () => puzzles.random()],
    ["btn-restart", () => puzzles.openAt(puzzles.current ? puzzles.current.id : puzzles.index)],
    ["btn-solution", () => puzzles.showSolution()],
  ])) {
    $(id).addEventListener("click", action);
  }
  $("grade").addEventListener("change", () => puzzles.setGrade(menu("grade").value));
  if (menu("size")) menu("size").addEventListener("change", () => puzzles.setSize(Number(menu("size").value)));
  puzzles.mine.bind({
    open: (id) => puzzles.board && puzzles.openMine(id),
    remove: (id) => puzzles.board && puzzles.remove(id).catch((error) => puzzles.report(error)),
    changed: () => puzzles.puzzle && puzzles.drawChrome(),
  });
  $("puzzle-list").addEventListener("click", (event) => {
    /** @type {HTMLButtonElement | null} */
    const b = /** @type {Element} */ (event.target).closest("button[data-index]");
    if (b) puzzles.open(Number(b.dataset.index));
  });
  window.addEventListener("hashchange", () => {
    if (puzzles.board) puzzles.openAddress().catch((error) => puzzles.report(error));
  });
  // For the browser tests: read-only views of the page, and the worker client.
  window.unitile = {
    get state() {
      return puzzles.state;
    },
    get puzzle() {
      return puzzles.puzzle;
    },
    get tries() {
      return puzzles.tries;
    },
    call: (op, args) => client.call(op, args),
    pendingCount: () => client.open + (puzzles.busy ? 1 : 0),
  };
  client.ready.then(
    async (ready) => {
      document.body.dataset.version = ready.version;
      try {
        await puzzles.start();
      } catch (error) {
        puzzles.failed(error);
        return;
      }
      document.body.dataset.ready = "1";
      registerServiceWorker();
    },
    (error) => puzzles.failed(error),
  );
  return puzzles;
}
