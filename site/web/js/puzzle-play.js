// Playing one puzzle on the Puzzles pages (puzzles.js opens them and draws around the board): each try
// judged (a shipped puzzle's by the worker's "puzzle_try", one of Your puzzles from the tables'
// analysis, my-puzzles-card.js), a wrong move refused with how fast it loses, a right one played and
// answered by level 6 (perfect play) until the puzzle's side has won; Show solution; the keys.
import { client } from "./start-worker.js";
import { Cancelled, UserError } from "./rpc.js";
import { ARROWS } from "./shortcuts.js";
import { COLOUR, count } from "./words.js";
import { solvedHow } from "./puzzle-progress.js";

const $ = (id) => document.getElementById(id);
/** The computer that answers: perfect play. */
const LEVEL = 6;
/** Milliseconds between the player's move and level 6's answer, so the move is seen first. */
const PAUSE = 300;

/** The puzzle page's play; the page (puzzles.js, a subclass) says what is open and draws the rest. */
export class PuzzlePlay {
  constructor(page) {
    this.page = page;
    this.puzzle = null; // the puzzle open: {turn, distance, position, ...}
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
  }

  /** Call the game's service (its requests have the game's prefix, unitile_py/registry.py). */
  call(op, args = {}) {
    return client.call(this.page.prefix + op, args);
  }

  // ----- what the page says (puzzles.js) ----------------------------------------------------------

  /**
   * The answer to a try: ``{right, text}``, or a UserError with the rules' reason.
   * @type {(name: string) => Promise<{right: boolean, text: string}>}
   */
  judge() {
    return Promise.reject(new Error("no puzzle"));
  }

  /**
   * Record that the puzzle open was solved, and how (puzzle-progress.js, SOLVED).
   * @type {(how: "clean" | "tries" | "shown") => void}
   */
  markSolved() {}

  /** Draw what is around the board. */
  drawChrome() {}

  /** Level 6's seed when the address fixes none. */
  puzzleSeed() {
    return 0;
  }

  // ----- the board --------------------------------------------------------------------------------

  title() {
    const p = this.puzzle;
    return `${COLOUR[p.turn]} to move and win in ${count(p.distance, ...this.page.units)}`;
  }

  async refresh() {
    const gen = this.gen;
    // Your puzzles are judged from the analysis: each legal move's result with perfect play.
    const st = await this.call("state", { game: this.game, ...(this.puzzle.mine ? { analysis: true } : {}) });
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

  // ----- playing --------------------------------------------------------------------------------

  /** A tap (or Enter) on a cell: the try goes to the worker, which judges it from the tables. */
  async tap(name) {
    const st = this.state;
    if (this.busy || !st || st.over || st.turn !== this.puzzle.turn) return;
    const gen = this.gen;
    this.busy = true;
    this.drawBoard();
    try {
      const reply = await this.judge(name);
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
    const args = { game: this.game, level: LEVEL, seed: this.seed ?? this.puzzleSeed() };
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
    this.markSolved(solvedHow(this.tries, this.revealed));
    const how = clean ? "at the first try" : this.revealed ? "with the solution shown" : `after ${count(this.tries, "wrong try", "wrong tries")}`;
    const text = `Solved, ${how}! ${COLOUR[st.winner]} has won.`;
    this.say(text, `win-${st.winner}`);
    this.announce(`${text} Next puzzle is the next button.`);
    this.busy = false;
    this.drawBoard();
    this.drawChrome();
    if (!(/** @type {HTMLButtonElement} */ ($("btn-next")).disabled)) $("btn-next").focus();
    return true;
  }

  /** The winning move now (level 6's choice, the hint): shown on the board; the puzzle then counts
   * as solved with the solution shown. */
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
      const wins = st.analysis ? Object.keys(st.analysis).filter((name) => st.analysis[name].result === "win").sort() : [];
      const any = wins.length > 1 ? ` (any of ${wins.join(", ")} wins)` : "";
      const text = `Solution: ${move}${any}. Play it to go on.`;
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
}

/** The computer's seed fixed by the address (the tests' ?seed=), or null (then the puzzle's). */
function seedFromAddress() {
  const seed = new URLSearchParams(location.search).get("seed");
  return seed !== null && /^\d+$/.test(seed) ? Number(seed) : null;
}
