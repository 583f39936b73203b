// The state and plumbing both play pages' controllers share: the game as a list of moves, who plays,
// the line under the board, what the service says to draw, the game kept in the URL and in
// localStorage. Every rule runs in Python behind the worker client: this keeps the game as plain data
// and asks the game's service (its requests, under the game's prefix) what to draw. play.js builds
// the player's actions on it.
import { Cancelled, UserError } from "./rpc.js";
import { ComputerTurns } from "./computer.js";
import { writeLink } from "./link.js";
import { drawChips, drawPanel } from "./panel.js";
import { humansOf } from "./words.js";
import { mistakesText } from "./review-chart.js";
import { addMistakes, gameKey } from "./my-puzzles.js";

const $ = (id) => document.getElementById(id);
export const GAME_KEY = "game.v1";
export const newSeed = () => crypto.getRandomValues(new Uint32Array(1))[0] >>> 1;

/**
 * @template {import("./wire.js").State} [S=import("./wire.js").State] the state of the game's service
 */
export class GameBase {
  /**
   * @param {{client: import("./rpc.js").WorkerClient, settings: import("./settings.js").Settings,
   *   store: import("./storage.js").Store, seed: number|null, prefix?: string}} parts ``seed`` fixes
   *   the computer's choices (the tests' ?seed=); otherwise each game gets its own, kept with it;
   *   ``prefix`` goes before every request's name (the game's, unitile_py/registry.py: "ut_", "nd_")
   */
  constructor({ client, settings, store, seed, prefix = "" }) {
    this.client = client;
    this.settings = settings;
    this.store = store;
    this.prefix = prefix;
    this.fixedSeed = seed;
    this.seed = seed ?? newSeed();
    this.info = null;
    this.board = null;
    this.ready = false;
    /** @type {import("./wire.js").PlainGame} */
    this.game = this.emptyGame();
    /** @type {S | null} */
    this.state = null; // what is drawn now (the service's "state")
    this.view = null; // the ply looked at, or null for the latest position
    this.selected = null; // the move chosen with Confirm moves on
    this.hinted = null;
    this.paused = false;
    this.busy = false;
    this.gen = 0; // bumps whenever the game changes, so late replies are ignored
    this.acts = 0; // bumps whenever the player acts, so a late refusal is not shown
    this.kept = false; // the message stays until the player acts (a damaged link's explanation)
    this.lastBy = null; // who made the last move of the game here: "player", "computer" or null
    this.lastMoveAt = 0;
    this.computer = new ComputerTurns(client);
    this.editor = null; // the position editor (setup.js), set by the page
    this.review = null; // the review panel (review-chart.js), set by the page
    this.added = { key: "", count: 0 }; // the mistakes of the game shown added to Your puzzles
    this.onPlayable = () => {};
    // The state of each game without moves the service has drawn, by its request: a new game or a
    // new board is drawn from it at once, without waiting for the worker (whose search, cancelled,
    // stops only between two of its pieces, and a piece may take a few hundred milliseconds).
    /** @type {Map<string, S>} */
    this.starts = new Map();
  }

  /**
   * Call the game's service.
   * @template [T=any]
   * @param {string} op
   * @param {import("./wire.js").Args} [args]
   * @returns {Promise<T>}
   */
  call(op, args = {}) {
    return this.client.call(this.prefix + op, args);
  }

  // ----- what each game says and draws (overridden) --------------------------------------------

  /**
   * A new game at the usual start.
   * @returns {import("./wire.js").PlainGame}
   */
  emptyGame() {
    return { start: null, moves: [] };
  }

  /**
   * Extra arguments of the "state" request of ``game``.
   * @param {import("./wire.js").PlainGame} [game]
   * @returns {import("./wire.js").Args}
   */
  // eslint-disable-next-line no-unused-vars
  stateArgs(game = this.game) {
    return {};
  }

  /**
   * The games without moves whose states are asked for once the page is playable (the new games
   * the player can start: each game's usual start, Naked Diagonal's on every board size).
   * @returns {import("./wire.js").PlainGame[]}
   */
  newGames() {
    return [this.emptyGame()];
  }

  /**
   * What the game's board draws besides the shared flags (Unitile's analysis).
   * @type {(st: S) => object}
   */
  look() {
    return {};
  }

  /**
   * The score line's chips: the count of each colour (``st.groups``, ``st.stones``) and its unit.
   * @type {(st: S) => Parameters<typeof drawChips>}
   */
  chips() {
    return [{ r: "–", b: "–" }, "", ""];
  }

  /**
   * An arrow key (``step`` [dr, dc]; ``delta`` -1 for left and up, 1 for right and down).
   * @type {(step: [number, number], delta: number) => void}
   */
  arrow() {}

  /** Draw the board and the status around it from ``this.state``. */
  draw() {
    if (this.editor && this.editor.active) {
      this.editor.draw(); // setting up a position (setup.js): the editor's board, not the game's
      return;
    }
    const st = this.state;
    if (!st) return;
    const live = this.live();
    const selected = this.selected;
    const marking = this.settings.get("marking");
    this.board.draw(st, { canAct: this.canAct(), marking, selected, hint: this.hinted, live, ...this.look(st) });
    drawChips(...this.chips(st));
    const verdicts = this.drawReview(st, live);
    drawPanel(st, {
      ready: this.ready,
      live,
      thinking: this.thinking,
      paused: this.paused,
      busy: this.busy,
      selected,
      players: this.players,
      confirm: this.settings.get("confirm"),
      computers: this.computersAvailable(),
      firstTurn: this.game.start ? this.game.start.split(" ")[1] : "r",
      verdicts,
    });
  }

  /** The review after a game and while looking back (review-chart.js); each ply's verdict once the
   * game is reviewed, else null. */
  drawReview(st, live) {
    if (!this.review) return null;
    const whole = st.moves.length === this.game.moves.length; // not a state left over from another game
    const show = whole && st.plies > 0 && (st.over || !live);
    const note = show ? this.reviewNote(st) : null;
    const review = this.review.update({ game: this.game, show, note, current: live ? st.plies : st.ply });
    return review && whole ? review.plies.map((row) => row.verdict) : null;
  }

  /**
   * Why this game has no review (a board without tables), in one line; null when it has one.
   * @type {(st: S) => string | null}
   */
  reviewNote() {
    return null;
  }

  /** The distances of a review in one and many ("ply", "plies"). */
  reviewUnit() {
    return ["ply", "plies"];
  }

  /** A review arrived: the marks in the move list, and the mistakes in the end's banner; a finished
   * game's mistakes become puzzles (my-puzzles.js: the Puzzles page's "Your puzzles"). */
  reviewed() {
    this.draw();
    const st = this.state;
    this.keepMistakes(st);
    if (st && st.over && this.live() && $("message").dataset.kind === `win-${st.winner}`) this.say(this.endLine(st), `win-${st.winner}`);
  }

  /** The board's size, n for n x n (Unitile's game has none: its info's). */
  boardSize() {
    return this.game.size ?? (this.info && this.info.board ? this.info.board.rows : 0);
  }

  /** Add the mistakes of the game shown, once it is over and reviewed, to Your puzzles (kept in the
   * game's Store; a game already added adds nothing). */
  keepMistakes(st) {
    const review = this.review && this.review.reviewOf();
    if (!st || !st.over || !review || review.plies.length !== st.plies || st.moves.length !== this.game.moves.length) return;
    const size = this.boardSize();
    const count = addMistakes(this.store, review, { game: this.game, size, humans: this.humans() });
    const key = gameKey(this.game, size);
    if (count || this.added.key !== key) this.added = { key, count };
  }

  /** The banner at the end of a game: how it ended and, once reviewed, each side's mistakes (and how
   * many became puzzles). */
  endLine(st) {
    const review = this.review && this.review.reviewOf();
    if (!review || review.plies.length !== st.plies) return this.endText(st);
    const added = this.added.count && this.added.key === gameKey(this.game, this.boardSize()) ? this.added.count : 0;
    const kept = added ? ` ${added === 1 ? "1 mistake" : `${added} mistakes`} added to Your puzzles.` : "";
    return `${this.endText(st)} ${mistakesText(review.summary)}${kept}`;
  }

  /**
   * The end of a finished game in words.
   * @type {(st: S) => string}
   */
  endText() {
    return "";
  }

  /**
   * What is announced after ``move`` was played (the state ``before`` it, and ``this.state`` after).
   * @type {(before: S, move: string) => string}
   */
  moveText() {
    return "";
  }

  /** A short line after a look at another ply (``shown`` is the state drawn). */
  plyText(shown, target, total) {
    return `Ply ${target} of ${total}.`;
  }

  /**
   * Show why ``name`` may not be played (``ban`` is the service's "explain" reply: ``kind``,
   * ``move``, ``colour``, ``text`` and the game's own fields).
   * @type {(name: string, ban: unknown) => void}
   */
  showRefusal() {}

  /** The first tap on a move with Confirm moves on; a second one plays it. */
  chooseText(move) {
    return `${move} chosen. Press it again, or Enter, to play it; Escape cancels.`;
  }

  // ----- the player's actions and the computer's turns (GameController, play.js) ----------------

  /** Whether the computer is working on its move. */
  get thinking() {
    return false;
  }

  /**
   * A tap, click or Enter on the cell ``name``.
   * @type {(name: string) => void}
   */
  tap() {}

  /** Let the computer move if it is its turn. */
  scheduleComputer() {}

  /** Abandon the computer's turn under way. */
  stopThinking() {}

  /** Abandon a hint under way. */
  cancelHint() {}

  // ----- who plays -----------------------------------------------------------------------------

  get players() {
    return { r: this.settings.get("r"), b: this.settings.get("b") };
  }

  humans() {
    return humansOf(this.players);
  }

  isComputer(colour) {
    return this.players[colour] !== "human";
  }

  live() {
    return this.view === null;
  }

  humanTurn() {
    const st = this.state;
    return this.ready && st && !st.over && this.live() && !this.isComputer(st.turn) && !this.busy;
  }

  canAct() {
    const st = this.state;
    return Boolean(this.ready && st && !st.over && this.live() && !this.isComputer(st.turn));
  }

  // ----- messages ------------------------------------------------------------------------------

  /** Show one line under the board; with ``untilActed`` it outlives the computer's moves and goes
   * only when the player acts. */
  say(text, kind = "", untilActed = false) {
    const m = $("message");
    m.textContent = text;
    m.dataset.kind = kind;
    this.kept = untilActed;
  }

  /** The player did something valid: what was said of an earlier action (a refusal, a note while
   * looking back, a damaged link's explanation) is out of date. */
  acted() {
    this.acts++;
    this.say("");
  }

  announce(text) {
    $("announce").textContent = text;
  }

  report(error) {
    if (error instanceof Cancelled) return; // the player moved on: nothing to say
    if (error instanceof UserError) {
      this.say(error.message, "error");
    } else {
      console.error(error);
      this.say(`Something went wrong: ${error.message || error}`, "error");
    }
  }

  // ----- the game ------------------------------------------------------------------------------

  /** The arguments of the "state" request but the game (the "play" request's ``view`` too). */
  viewArgs() {
    return { humans: this.humans(), ply: this.view, ...this.stateArgs() };
  }

  /** Ask the service for the state to draw, draw it, and let a computer move if it is its turn; a
   * game without moves whose state the service has drawn before is drawn at once. */
  async refresh() {
    const gen = this.gen;
    const args = { game: this.game, ...this.viewArgs() };
    const kept = this.keptStart(args);
    /** @type {S} */
    const st = kept || (await this.startState(args));
    if (gen !== this.gen) return;
    this.show(st);
  }

  /** The state of a game without moves drawn before (a copy), or null. */
  keptStart(args) {
    const st = args.game.moves.length === 0 && args.ply === null ? this.starts.get(JSON.stringify(args)) : null;
    return st ? structuredClone(st) : null;
  }

  /**
   * The service's state for ``args``, kept when its game has no moves.
   * @returns {Promise<S>}
   */
  async startState(args) {
    /** @type {S} */
    const st = await this.call("state", args);
    if (args.game.moves.length === 0 && args.ply === null) this.starts.set(JSON.stringify(args), structuredClone(st));
    return st;
  }

  /** Ask for the states of the new games the player can start (``newGames``), so that they show at
   * once; called when the page is playable. */
  keepNewGames() {
    for (const game of this.newGames()) {
      const args = { game, humans: this.humans(), ply: null, ...this.stateArgs(game) };
      if (!this.keptStart(args)) this.startState(args).catch(() => {});
    }
  }

  /**
   * Draw ``st``, the state of the game now, and let a computer move if it is its turn.
   * @param {S} st
   */
  show(st) {
    const gen = this.gen;
    this.state = st;
    this.stateGen = gen; // a tap on a state older than the game is ignored
    this.draw();
    if (this.live()) {
      this.save(st.over);
      if (st.over) {
        this.keepMistakes(st); // a review that came first found no finished game to keep
        this.say(this.endLine(st), `win-${st.winner}`);
      }
    } else {
      const on = st.over ? "" : " End or “Back to the game” plays on.";
      this.say(`Looking back at ply ${st.ply} of ${st.plies}.${on}`, "note");
    }
    this.onPlayable();
    this.onPlayable = () => {};
    this.scheduleComputer();
  }

  /** Make ``game`` the game; ``how`` "push" or "replace" puts it in the address, null leaves that;
   * ``by`` "player" or "computer" when a move made here led to it, null for a game opened or loaded
   * (its last move was made elsewhere). The computer's move keeps a message that stays until the
   * player acts.
   * @param {import("./wire.js").PlainGame} game
   * @param {"push" | "replace" | null} how
   * @param {number} [seed]
   * @param {"player" | "computer" | null} [by]
   */
  setGame(game, how, seed = undefined, by = null) {
    this.stopThinking();
    this.cancelHint();
    if (this.editor) this.editor.close(); // a new game (Play from here, a link, another tab) ends a set-up
    if (!(by === "computer" && this.kept)) this.say("");
    this.lastBy = by;
    this.gen++;
    this.game = game;
    if (seed !== undefined) this.seed = this.fixedSeed ?? seed;
    this.selected = null;
    this.hinted = null;
    this.view = null;
    this.lastMoveAt = performance.now();
    if (how) writeLink(game, how);
  }

  /** Keep the game (with its seed) for the next visit, on every page and tab of the site. */
  save(over) {
    this.store.set(GAME_KEY, { ...this.game, seed: this.seed, over });
  }

  /** The game kept by the last visit (or another tab), or null. */
  saved() {
    const game = this.store.get(GAME_KEY);
    if (!game || !Array.isArray(game.moves)) return null;
    const start = typeof game.start === "string" ? game.start : null;
    const kept = { ...game, start, over: Boolean(game.over) };
    return kept;
  }

  /** The board is up: the game can be played from here on. */
  start(info, board) {
    this.info = info;
    this.board = board;
    this.ready = true;
    if (!this.computersAvailable()) {
      for (const colour of ["r", "b"]) if (this.isComputer(colour)) this.settings.set(colour, "human");
    }
    board.frame.onActivate((name) => this.tap(name));
  }

  /** True when this build has computer players. */
  computersAvailable() {
    return Boolean(this.info && this.info.levels && this.info.levels.length);
  }

  /** A line to show after the game is opened (a missing part of the build), or null. */
  openNote() {
    return null;
  }
}
