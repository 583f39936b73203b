// The Puzzles pages of both games (puzzles.html, nd-puzzles.html): a position from the shipped puzzle
// files (tables/puzzles/, chosen from the tables by the pipeline) where Red, to move, has exactly one
// winning move. The worker judges each try (the "puzzle_try" request, with the moves played so far): a
// wrong move is refused with how fast it loses and the position stays; a right one is played and level
// 6 (perfect play) answers, until Red has won. Progress (the puzzles solved, cleanly or not, per board
// size, and the puzzle open) is kept in localStorage under a versioned key. Each game's page names its
// board, its requests and its words (unitile-puzzles.js, nd-puzzles.js); this does the rest.
import { registerServiceWorker, startFrame } from "./frame.js";
import { client } from "./start-worker.js";
import { Cancelled, UserError } from "./rpc.js";
import { Store } from "./storage.js";
import { bindKeys } from "./keys.js";
import { ARROWS } from "./shortcuts.js";
import { COLOUR, count } from "./words.js";
import { GRADES, PROGRESS_KEY, readProgress } from "./puzzle-progress.js";

const $ = (id) => document.getElementById(id);
/** A button of the page. */
const button = (id) => /** @type {HTMLButtonElement} */ ($(id));
/** The grade menu, and the size menu where the game has one (else null). */
const menu = (id) => /** @type {HTMLSelectElement | null} */ ($(id));
/** The computer that answers: perfect play. */
const LEVEL = 6;
/** Milliseconds between the player's move and level 6's answer, so the move is seen first. */
const PAUSE = 300;

class PuzzlePage {
  constructor(page) {
    this.page = page;
    this.store = new Store(page.store);
    this.progress = readProgress(this.store.get(PROGRESS_KEY), page.sizes);
    this.size = this.progress.size;
    this.list = []; // the puzzles of this size: {index, grade, distance, position}
    this.index = 0;
    this.puzzle = null;
    this.game = null;
    this.state = null;
    this.board = null;
    this.busy = false;
    this.gen = 0; // bumps when another puzzle opens, so late replies are ignored
    this.tries = 0; // wrong moves tried on this puzzle
    this.revealed = false; // the solution was shown
    this.hinted = null;
    this.solved = false;
    this.seed = seedFromAddress();
    menu("grade").value = this.progress.grade;
    if (menu("size")) menu("size").value = String(this.size);
  }

  /** Call the game's service (its requests have the game's prefix, unitile_py/registry.py). */
  call(op, args = {}) {
    return client.call(this.page.prefix + op, args);
  }

  // ----- opening puzzles ------------------------------------------------------------------------

  async start() {
    this.board = await this.page.boot(this.size, (op, args) => this.call(op, args));
    this.board.frame.onActivate((name) => this.tap(name));
    await this.openAddress(true);
  }

  /** The puzzle of the address (#p=N, Naked Diagonal also size=S), else the one open last. */
  async openAddress(first = false) {
    const params = new URLSearchParams(location.hash.slice(1));
    const size = Number(params.get("size"));
    const number = Number(params.get("p"));
    if (this.page.sizes.includes(size) && size !== this.size) {
      this.size = size;
      this.list = [];
    }
    if (!this.list.length) await this.loadList();
    if (Number.isInteger(number) && number >= 1 && number <= this.list.length) {
      if (!first && number - 1 === this.index && this.game) return;
      await this.open(number - 1);
    } else if (first || !this.game) {
      const at = this.progress.at[this.size];
      await this.open(Number.isInteger(at) && at < this.list.length ? at : this.inGrade()[0]);
    }
  }

  /** Every puzzle of this size, without its solution (the "puzzle" request of each number). */
  async loadList() {
    const args = this.page.sizeArgs(this.size);
    const first = await this.call("puzzle", { ...args, index: 0 });
    const rest = await Promise.all(
      Array.from({ length: first.count - 1 }, (_, i) => this.call("puzzle", { ...args, index: i + 1 })),
    );
    this.list = [first, ...rest];
    if (this.board.n !== undefined && this.board.n !== this.size) {
      this.board = this.page.makeBoard(this.size);
      this.board.frame.onActivate((name) => this.tap(name));
    }
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
    this.gen++;
    this.busy = true;
    this.index = index;
    this.puzzle = this.list[index];
    this.game = this.page.gameOf(this.size, this.puzzle.position, []);
    if (!again) {
      this.tries = 0;
      this.revealed = false;
    }
    this.hinted = null;
    this.solved = false;
    this.progress.at[this.size] = index;
    this.progress.size = this.size;
    if (menu("size")) menu("size").value = String(this.size); // a link may name another size
    this.save();
    const number = index + 1;
    const hash = `#${this.page.sizes.length > 1 ? `size=${this.size}&` : ""}p=${number}`;
    if (location.hash !== hash) history.replaceState(null, "", hash);
    try {
      await this.refresh();
      this.say("");
      const p = this.puzzle;
      this.announce(`Puzzle ${number} of ${this.list.length}, ${p.grade}. ${this.title()}.`);
    } catch (error) {
      this.report(error);
    } finally {
      this.busy = false;
    }
    this.drawChrome();
  }

  title() {
    const p = this.puzzle;
    return `${COLOUR[p.turn]} to move and win in ${count(p.distance, ...this.page.units)}`;
  }

  async refresh() {
    const gen = this.gen;
    const st = await this.call("state", { game: this.game });
    if (gen !== this.gen) return;
    this.state = st;
    this.drawBoard();
  }

  drawBoard() {
    const st = this.state;
    const canAct = Boolean(!this.busy && !st.over && st.turn === this.puzzle.turn);
    this.board.draw(st, { canAct, marking: false, selected: null, hint: this.hinted, live: true, analysis: null });
    $("board").classList.remove("loading");
    $("board").removeAttribute("aria-busy");
    $("loading").hidden = true;
  }

  /** The title, the line under it, the buttons, the list of puzzles and the progress. */
  drawChrome() {
    const p = this.puzzle;
    const n = this.list.length;
    const solved = this.progress.solved[this.size];
    $("puzzle-title").textContent = this.solved ? `Solved: ${this.title()}` : this.title();
    const how = { clean: " · solved", helped: " · solved with help" }[solved[p.index]] || "";
    const board = this.page.sizes.length > 1 ? ` · ${this.size}×${this.size}` : "";
    $("puzzle-meta").textContent = `Puzzle ${p.index + 1} of ${n} · ${p.grade}${board}${how}`;
    const chosen = this.inGrade();
    const at = chosen.indexOf(p.index);
    button("btn-prev").disabled = at <= 0;
    button("btn-next").disabled = at < 0 ? false : at >= chosen.length - 1;
    button("btn-random").disabled = chosen.length < 2;
    button("btn-restart").disabled = false;
    button("btn-solution").disabled = this.solved || this.state.over;
    const list = $("puzzle-list");
    list.replaceChildren(
      ...chosen.map((index) => {
        const item = document.createElement("li");
        const b = document.createElement("button");
        b.type = "button";
        b.className = "btn btn-small puzzle-number";
        b.dataset.index = String(index);
        b.textContent = String(index + 1);
        const mark = solved[index];
        if (mark) b.dataset.solved = mark;
        const said = mark === "clean" ? ", solved" : mark === "helped" ? ", solved with help" : "";
        b.setAttribute("aria-label", `Puzzle ${index + 1}, ${this.list[index].grade}${said}`);
        if (index === p.index) b.setAttribute("aria-current", "true");
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
  }

  // ----- moving between puzzles -----------------------------------------------------------------

  step(delta) {
    if (!this.puzzle) return;
    const chosen = this.inGrade();
    const at = chosen.indexOf(this.index);
    const next = at < 0 ? chosen.find((i) => (delta > 0 ? i > this.index : i < this.index)) : chosen[at + delta];
    if (next !== undefined) this.open(next);
  }

  /** Another puzzle of the grade, an unsolved one while there are some. */
  random() {
    if (!this.puzzle) return;
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
    if (chosen.includes(this.index)) this.drawChrome();
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

  // ----- playing --------------------------------------------------------------------------------

  /** A tap (or Enter) on a cell: the try goes to the worker, which judges it from the tables. */
  async tap(name) {
    const st = this.state;
    if (this.busy || !st || st.over || st.turn !== this.puzzle.turn) return;
    const gen = this.gen;
    this.busy = true;
    this.drawBoard();
    const args = { ...this.page.sizeArgs(this.size), index: this.index, move: name, moves: this.game.moves };
    try {
      const reply = await this.call("puzzle_try", args);
      if (gen !== this.gen) return;
      if (!reply.right) {
        this.tries++;
        this.page.refuse(this.board, name);
        this.say(`${reply.text} Try again (${count(this.tries, "wrong try", "wrong tries")}).`, "refused");
        this.announce(reply.text);
        return;
      }
      await this.play(name, "You", gen);
      if (gen !== this.gen) return;
      this.say(reply.text, "note");
      if (this.solvedNow()) return;
      if (this.state.turn !== this.puzzle.turn) await this.answer(gen, reply.text);
    } catch (error) {
      if (gen !== this.gen) return;
      if (error instanceof UserError) {
        this.page.refuse(this.board, name);
        this.say(error.message, "refused");
        this.announce(error.message);
      } else this.report(error);
    } finally {
      if (gen === this.gen) {
        this.busy = false;
        if (this.state) this.drawBoard();
        this.drawChrome();
      }
    }
  }

  async play(move, who, gen) {
    const before = this.state;
    this.hinted = null;
    this.game = { ...this.game, moves: [...this.game.moves, move] };
    await this.refresh();
    if (gen !== this.gen) return "";
    const text = this.page.moveText(this.board, before, move, who);
    this.announce(text);
    return text;
  }

  /** Level 6 answers (after a short pause, so the player's move is seen first). */
  async answer(gen, right) {
    await new Promise((resolve) => setTimeout(resolve, PAUSE));
    if (gen !== this.gen) return;
    const args = { game: this.game, level: LEVEL, seed: this.seed ?? this.index };
    const move = await this.call("computer_move", args);
    if (gen !== this.gen) return;
    const said = await this.play(move, "Level 6", gen);
    if (gen !== this.gen || this.solvedNow()) return;
    this.say(`${right} Level 6 answered ${move}. Your move: keep the win.`, "note");
    this.announce(`${said} Your move: keep the win.`);
  }

  /** True when the game is over; then the puzzle is solved (perfect play from a won position). */
  solvedNow() {
    const st = this.state;
    if (!st.over) return false;
    if (st.winner !== this.puzzle.turn) {
      this.say(`${COLOUR[st.winner]} has won: this puzzle was lost. Start again to try once more.`, "error");
      return true;
    }
    this.solved = true;
    const clean = this.tries === 0 && !this.revealed;
    const solved = this.progress.solved[this.size];
    if (solved[this.index] !== "clean") solved[this.index] = clean ? "clean" : "helped";
    this.save();
    const how = clean ? "at the first try" : this.revealed ? "with the solution shown" : `after ${count(this.tries, "wrong try", "wrong tries")}`;
    const text = `Solved, ${how}! ${COLOUR[st.winner]} has won.`;
    this.say(text, `win-${st.winner}`);
    this.announce(`${text} Next puzzle is the next button.`);
    this.busy = false;
    this.drawBoard();
    this.drawChrome();
    if (!button("btn-next").disabled) $("btn-next").focus();
    return true;
  }

  /** The winning move now (level 6's choice, the hint): shown on the board; the puzzle then counts
   * as solved with help. */
  async showSolution() {
    const st = this.state;
    if (this.busy || !st || st.over) return;
    const gen = this.gen;
    this.busy = true;
    try {
      const move = await this.call("hint", { game: this.game });
      if (gen !== this.gen) return;
      this.revealed = true;
      this.hinted = move;
      const text = `Solution: ${move}. Play it to go on.`;
      this.say(text, "note");
      this.announce(text);
    } catch (error) {
      this.report(error);
    } finally {
      if (gen === this.gen) {
        this.busy = false;
        this.drawBoard();
        this.drawChrome();
      }
    }
  }

  // ----- keys, messages, storage ----------------------------------------------------------------

  key(key, target) {
    if (!this.state) return false;
    if (key in ARROWS) {
      const name = this.page.arrow(this.board, this.state, ARROWS[key]);
      if (name) this.tap(name);
      return true;
    }
    const spot = target.closest(".spot");
    if ((key === "Enter" || key === " ") && spot) {
      this.tap(spot.dataset.cell);
      return true;
    }
    return false;
  }

  say(text, kind = "") {
    $("message").textContent = text;
    $("message").dataset.kind = kind;
  }

  announce(text) {
    $("announce").textContent = text;
  }

  report(error) {
    if (error instanceof Cancelled) return;
    if (!(error instanceof UserError)) console.error(error);
    this.say(error instanceof UserError ? error.message : `Something went wrong: ${error.message || error}`, "error");
  }

  failed(error) {
    $("loading-text").textContent = `The puzzles could not start: ${error.message || error}`;
    $("loading").classList.add("failed");
    document.body.dataset.ready = "failed";
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
    ["btn-restart", () => puzzles.open(puzzles.index)],
    ["btn-solution", () => puzzles.showSolution()],
  ])) {
    $(id).addEventListener("click", action);
  }
  $("grade").addEventListener("change", () => puzzles.setGrade(menu("grade").value));
  if (menu("size")) menu("size").addEventListener("change", () => puzzles.setSize(Number(menu("size").value)));
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

/** The computer's seed fixed by the address (the tests' ?seed=), or null (then the puzzle's number). */
function seedFromAddress() {
  const seed = new URLSearchParams(location.search).get("seed");
  return seed !== null && /^\d+$/.test(seed) ? Number(seed) : null;
}
