// The position editor both play pages share: "Set up" turns the board into an editor of the position
// shown. A tap (or Enter or Space on the focused cell) cycles a cell through red, blue and empty, the
// arrows move the focus over the cells, the radio buttons choose the side to move. After every change
// the game's own service checks the position (its "state" request with the position as a custom
// start: the counts, a naked diagonal, an NDE area, both colours united are refused there in one
// line; a game already won comes back over), so nothing of either game's rules is written here. A
// legal position can be played ("Play from here", a new game from that start: it goes into the
// address as any custom start does) or analysed (both sides human, the game's analysis on). Each game
// gives its part (unitile-setup.js, nd-setup.js): its words, its board, its blank position.
import { Cancelled } from "./rpc.js";
import { drawChips } from "./panel.js";
import { ARROWS } from "./shortcuts.js";
import { COLOUR, sentence } from "./words.js";

const $ = (id) => document.getElementById(id);
/** Both games cycle a cell the same way: red, blue, empty, red again. */
const NEXT = { r: "b", b: ".", ".": "r" };

/** A position's text, as both games write it: the rows from the top joined by "/", then the side. */
export function positionText(cells, cols, turn) {
  const rows = [];
  for (let i = 0; i < cells.length; i += cols) rows.push(cells.slice(i, i + cols).join("").toUpperCase());
  return `${rows.join("/")} ${turn}`;
}

/** The service's refusal as a sentence for the player (words.js, sentence), without the position it
 * quotes at its start ("position 'RRRRR/...': 13 red tiles ...", a long one cut short: "position
 * '...../...'...: "). */
export function problemText(message) {
  return sentence(message, /^(?:position|start) '[^']*'(?:\.\.\.)?: /);
}

/**
 * A game's part of the editor (unitile-setup.js, nd-setup.js): ``word`` names a cell's content,
 * ``cellsOf`` and ``sizeOf`` read a state of its service, ``board`` gives the board of side n to draw
 * on, ``gameOf`` a plain game from a start (null: the game's usual start), ``analyse`` the settings of
 * "Analyse" for the game ``start`` it starts (null when the build cannot).
 * @typedef {{help: string, blankLabel: string, units: [string, string], word: (cell: string) => string,
 *   cellsOf: (st: object) => string[], sizeOf: (st: object) => number, board: (game: object, n: number)
 *   => object, draw: (board: object, cells: string[], turn: string) => void, gameOf: (start: string|null,
 *   n: number) => object, analyse: (game: object, start: object) => object|null, analyseTitle: string}} SetupRules
 */

export class PositionEditor {
  /**
   * @param {import("./play.js").GameController} game the page's controller (its board, its requests)
   * @param {SetupRules} rules the game's part
   */
  constructor(game, rules) {
    this.game = game;
    this.rules = rules;
    this.active = false;
    this.cells = [];
    this.turn = "r";
    this.n = 0;
    this.cursor = 0;
    this.verdict = null; // the service's answer on the position shown: {ok, text, game}
    this.checkCall = null; // the check under way (a newer change cancels it)
    this.starting = false;
    $("setup-help").textContent = rules.help;
    $("setup-blank").textContent = rules.blankLabel;
    $("setup-analyse").title = rules.analyseTitle;
    $("btn-setup").addEventListener("click", () => this.enter());
    $("setup-play").addEventListener("click", () => this.start(false));
    $("setup-analyse").addEventListener("click", () => this.start(true));
    $("setup-blank").addEventListener("click", () => this.blank(this.n));
    $("setup-cancel").addEventListener("click", () => this.leave());
    for (const colour of ["r", "b"]) {
      $(`setup-turn-${colour}`).addEventListener("change", () => this.setTurn(colour));
    }
  }

  /** Edit the position shown (the game's latest one, or the one looked back at). */
  enter() {
    const g = this.game;
    const st = g.state;
    if (!g.ready || !st || this.active) return;
    g.cancelChoice(true);
    g.stopThinking();
    g.cancelHint();
    g.gen++; // a reply to the game under way is not drawn over the editor
    this.active = true;
    this.cells = this.rules.cellsOf(st).slice();
    this.turn = st.turn;
    this.n = this.rules.sizeOf(st);
    this.cursor = Math.floor(this.cells.length / 2); // the centre
    this.verdict = null;
    this.say("", true);
    document.body.dataset.editing = "true";
    $("setup").hidden = false;
    $("moves").inert = true;
    this.draw();
    this.check();
    this.focusCursor();
    g.announce(`Set up a position. ${this.rules.help} Arrow keys move, Enter or Space changes a cell, Escape cancels.`);
  }

  /** Close the editor without touching the game (a new game was set, or the page leaves it). */
  close() {
    if (!this.active) return;
    this.active = false;
    this.cancelCheck();
    delete document.body.dataset.editing;
    $("setup").hidden = true;
    $("moves").inert = false;
    this.game.board.root.classList.remove("editing");
  }

  /** Cancel: back to the game as it was. */
  leave() {
    if (!this.active) return;
    const g = this.game;
    this.close();
    g.gen++;
    g.refresh().catch((error) => g.report(error));
    $("btn-setup").focus();
    g.announce("Set-up cancelled: back to the game.");
  }

  // ----- the board -----------------------------------------------------------------------------

  draw() {
    const board = this.rules.board(this.game, this.n);
    this.rules.draw(board, this.cells, this.turn);
    const names = board.frame.names;
    board.frame.cells.forEach((cell, i) => {
      cell.tabIndex = i === this.cursor ? 0 : -1;
      cell.classList.remove("legal");
      cell.setAttribute("aria-selected", "false");
      cell.setAttribute("aria-label", `${names[i]}, ${this.rules.word(this.cells[i])}`);
    });
    board.root.classList.add("editing");
    board.root.setAttribute("aria-label", `Set-up board, ${board.frame.rows} by ${board.frame.cols}: Enter or Space changes a cell`);
    const count = (colour) => this.cells.filter((c) => c === colour).length;
    drawChips({ r: count("r"), b: count("b") }, ...this.rules.units);
    const turn = $("turn");
    turn.textContent = "Setting up";
    turn.dataset.colour = this.turn;
    turn.classList.remove("thinking", "looking-back");
    $("board").setAttribute("aria-busy", "false");
    for (const colour of ["r", "b"]) /** @type {HTMLInputElement} */ ($(`setup-turn-${colour}`)).checked = colour === this.turn;
    this.drawVerdict();
  }

  focusCursor() {
    const cell = this.game.board.frame.cells[this.cursor];
    if (cell) cell.focus();
  }

  /** A tap, click, Enter or Space on a cell: its next content. */
  tap(name) {
    const i = this.game.board.frame.index(name);
    if (!this.active || i < 0) return;
    this.cells[i] = NEXT[this.cells[i]];
    this.cursor = i;
    this.changed();
    this.game.announce(`${name}: ${this.rules.word(this.cells[i])}.`);
  }

  /** Move the focus by ``[dr, dc]``, staying on the board. */
  move([dr, dc]) {
    const { rows, cols } = this.game.board.frame;
    const r = Math.min(rows - 1, Math.max(0, Math.floor(this.cursor / cols) + dr));
    const c = Math.min(cols - 1, Math.max(0, (this.cursor % cols) + dc));
    this.cursor = r * cols + c;
    this.draw();
    this.focusCursor();
  }

  setTurn(colour) {
    if (!this.active || colour === this.turn) return;
    this.turn = colour;
    this.changed();
  }

  /** The game's blank position of side ``n`` (Unitile's usual start, Naked Diagonal's empty board),
   * as its service draws it. */
  async blank(n) {
    if (!this.active) return;
    const g = this.game;
    try {
      const st = await g.call("state", { game: this.rules.gameOf(null, n) });
      if (!this.active) return;
      this.cells = this.rules.cellsOf(st).slice();
      this.n = n;
      this.turn = st.turn;
      this.cursor = Math.min(this.cursor, this.cells.length - 1);
      this.changed();
    } catch (error) {
      if (!(error instanceof Cancelled)) this.say(problemText(error.message), false);
    }
  }

  /** The board's size changed (Naked Diagonal's Board menu) while editing: a blank board of it. */
  resize(n) {
    if (n !== this.n) this.blank(n);
  }

  changed() {
    this.verdict = null;
    this.draw();
    this.check();
  }

  // ----- the check and the start ---------------------------------------------------------------

  cancelCheck() {
    if (this.checkCall !== null) this.game.client.cancel(this.checkCall);
    this.checkCall = null;
  }

  /** Ask the game's service about the position shown; its answer enables Play or says what is wrong. */
  async check() {
    this.cancelCheck();
    const g = this.game;
    const game = this.rules.gameOf(positionText(this.cells, this.game.board.frame.cols, this.turn), this.n);
    const { id, reply } = g.client.send(g.prefix + "state", { game });
    this.checkCall = id;
    let verdict;
    try {
      const st = await reply;
      verdict = st.over
        ? { ok: false, text: `${COLOUR[st.winner]} has already won in this position: a game cannot start there.` }
        : { ok: true, text: `A legal position, ${COLOUR[st.turn]} to move.`, game };
    } catch (error) {
      if (error instanceof Cancelled) return;
      verdict = { ok: false, text: problemText(error.message) };
    }
    if (this.checkCall !== id) return;
    this.checkCall = null;
    if (!this.active) return;
    this.verdict = verdict;
    this.drawVerdict();
  }

  drawVerdict() {
    const v = this.verdict;
    const ready = Boolean(v && v.ok && !this.starting);
    /** @type {HTMLButtonElement} */ ($("setup-play")).disabled = !ready;
    /** @type {HTMLButtonElement} */ ($("setup-analyse")).disabled = !ready || !this.rules.analyse(this.game, v.game);
    if (v) this.say(v.text, v.ok);
  }

  /** The line under the board (a live region): said again only when it changes. */
  say(text, ok) {
    const line = $("setup-problem");
    line.dataset.kind = ok ? "note" : "error";
    if (line.textContent !== text) line.textContent = text;
  }

  /** "Play from here" (``analyse`` false) or "Analyse": a new game from the position, asked first
   * when a game is under way, as New game does. */
  async start(analyse) {
    const v = this.verdict;
    if (!this.active || !v || !v.ok || this.starting) return;
    const g = this.game;
    const settings = analyse ? this.rules.analyse(g, v.game) : {};
    if (!settings) return;
    this.starting = true;
    this.drawVerdict();
    const before = Object.fromEntries(Object.keys(settings).map((name) => [name, g.settings.get(name)]));
    try {
      const { game } = await g.call("salvage", { game: v.game }); // the address spells it as usual
      if (!this.active || this.verdict !== v) return; // cancelled, or changed meanwhile
      for (const [name, value] of Object.entries(settings)) g.settings.set(name, value);
      if (await g.newGame(game)) {
        const cell = g.board.root.querySelector('[role="gridcell"][tabindex="0"]');
        (cell || $("btn-setup")).focus();
      } else {
        for (const [name, value] of Object.entries(before)) g.settings.set(name, value);
      }
    } catch (error) {
      if (!(error instanceof Cancelled)) this.say(problemText(error.message), false);
    } finally {
      this.starting = false;
      if (this.active) this.drawVerdict();
    }
  }

  /** A key while editing (keys.js); true when it was used. */
  key(key, target) {
    if (key in ARROWS) {
      if (target.matches("input, select")) return false; // the radio buttons' own arrows
      this.move(ARROWS[key]);
      return true;
    }
    const spot = target.closest(".spot");
    if ((key === "Enter" || key === " ") && spot) {
      this.tap(spot.dataset.cell);
      return true;
    }
    if (key === "Escape") {
      this.leave();
      return true;
    }
    return false;
  }
}
