// The game controller both play pages share: the game as a list of moves, the players, the
// computer's turns, Confirm moves, undo, hint, new game, records, looking back, the game kept in the
// URL and in localStorage. Every rule runs in Python behind the worker client: this keeps the game as
// plain data and asks the game's service (its requests, prefixed for Naked Diagonal) what to draw.
// Each game's controller (unitile-controller.js, nd-controller.js) extends it with its board and its
// words.
import { Cancelled, UserError } from "./rpc.js";
import { ComputerTurns } from "./computer.js";
import { ask } from "./dialogs.js";
import { writeLink } from "./link.js";
import { drawChips, drawPanel } from "./panel.js";
import { COLOUR, humansOf, playerName, plies } from "./words.js";

const $ = (id) => document.getElementById(id);
export const GAME_KEY = "game.v1";
export const newSeed = () => crypto.getRandomValues(new Uint32Array(1))[0] >>> 1;

export class GameController {
  /**
   * @param {{client: import("./rpc.js").WorkerClient, settings: import("./settings.js").Settings,
   *   store: import("./storage.js").Store, seed: number|null, prefix?: string}} parts ``seed`` fixes
   *   the computer's choices (the tests' ?seed=); otherwise each game gets its own, kept with it;
   *   ``prefix`` goes before every request's name ("nd_" for Naked Diagonal)
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
    this.game = this.emptyGame();
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
    this.onPlayable = () => {};
  }

  /** Call the game's service. */
  call(op, args = {}) {
    return this.client.call(this.prefix + op, args);
  }

  // ----- what each game says and draws (overridden) --------------------------------------------

  /** A new game at the usual start. */
  emptyGame() {
    return { start: null, moves: [] };
  }

  /** Extra arguments of the "state" request. */
  stateArgs() {
    return {};
  }

  /** What the game's board draws besides the shared flags (Unitile's analysis). */
  look() {
    return {};
  }

  /** The score line's chips: the count of each colour (``st.groups``, ``st.stones``) and its unit. */
  chips() {
    return [{ r: "–", b: "–" }, "", ""];
  }

  /** An arrow key (``step`` [dr, dc]; ``delta`` -1 for left and up, 1 for right and down). */
  arrow() {}

  /** Draw the board and the status around it from ``this.state``. */
  draw() {
    const st = this.state;
    if (!st) return;
    const live = this.live();
    const selected = this.selected;
    const marking = this.settings.get("marking");
    this.board.draw(st, { canAct: this.canAct(), marking, selected, hint: this.hinted, live, ...this.look(st) });
    drawChips(...this.chips(st));
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
    });
  }

  /** The end of a finished game in words. */
  endText() {
    return "";
  }

  /** What is announced after ``mover`` played ``move`` (``before`` and ``this.state`` after). */
  moveText() {
    return "";
  }

  /** A short line after a look at another ply (``shown`` is the state drawn). */
  plyText(shown, target, total) {
    return `Ply ${target} of ${total}.`;
  }

  /** Show why ``name`` may not be played (``why`` is the service's "explain" reply). */
  showRefusal() {}

  /** The first tap on a move with Confirm moves on; a second one plays it. */
  chooseText(move) {
    return `${move} chosen. Press it again, or Enter, to play it; Escape cancels.`;
  }

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

  /** Ask the service for the state to draw, draw it, and let a computer move if it is its turn. */
  async refresh() {
    const gen = this.gen;
    const st = await this.call("state", { game: this.game, humans: this.humans(), ply: this.view, ...this.stateArgs() });
    if (gen !== this.gen) return;
    this.state = st;
    this.stateGen = gen; // a tap on a state older than the game is ignored
    this.draw();
    if (this.live()) {
      this.save(st.over);
      if (st.over) this.say(this.endText(st), `win-${st.winner}`);
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
   * player acts. */
  setGame(game, how, seed = undefined, by = null) {
    this.stopThinking();
    this.cancelHint();
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

  // ----- moves ---------------------------------------------------------------------------------

  async play(move, byComputer) {
    const [before, gen] = [this.state, this.gen];
    const game = await this.call("play", { game: this.game, move });
    if (gen !== this.gen) return; // an undo or a new game came first: this move is dropped
    const how = byComputer && this.humans().length > 0 ? "replace" : "push";
    this.setGame(game, how, undefined, byComputer ? "computer" : "player");
    await this.refresh();
    this.announce(this.moveText(before, move));
  }

  async humanMove(move) {
    if (!this.humanTurn() || !this.state.legal.includes(move)) return;
    this.busy = true;
    try {
      await this.play(move, false);
    } catch (error) {
      this.report(error);
    } finally {
      this.busy = false;
      this.draw();
    }
  }

  /** A tap, click or Enter on a cell: play, choose (Confirm moves), or say why not. */
  tap(name) {
    const st = this.state;
    if (!this.ready || !st || this.busy || this.stateGen !== this.gen) return;
    if (!this.live()) {
      this.say(`You are looking back at ply ${st.ply}: press End or “Back to the game” to play on.`, "note");
      return;
    }
    if (st.over) {
      this.say("The game is over: New game starts another.", "note");
      return;
    }
    if (this.isComputer(st.turn)) {
      this.say(`${playerName(st.turn, this.players)} is to move, not you.`, "note");
      return;
    }
    if (st.legal.includes(name)) {
      this.choose(name);
      return;
    }
    this.cancelChoice(true);
    this.refuse(name);
  }

  /** Say, briefly, why ``name`` may not be played (even with Marking off). */
  async refuse(name) {
    const gen = this.gen;
    const acts = this.acts;
    let why;
    try {
      why = await this.call("explain", this.explainArgs(name));
    } catch (error) {
      this.report(error);
      return;
    }
    if (gen !== this.gen || acts !== this.acts || !why) return;
    this.showRefusal(name, why);
  }

  explainArgs(name) {
    return { game: this.game, move: name };
  }

  choose(move) {
    if (!this.settings.get("confirm") || this.selected === move) {
      this.selected = null;
      this.humanMove(move);
      return;
    }
    this.acted();
    this.selected = move;
    this.draw();
    this.announce(this.chooseText(move));
  }

  cancelChoice(quiet = false) {
    if (!this.selected) return false;
    this.selected = null;
    this.draw();
    if (!quiet) this.announce("Choice cancelled.");
    return true;
  }

  confirmChoice() {
    if (this.selected) this.choose(this.selected);
  }

  /** Escape: cancel a choice, else return from looking back; false when there was nothing to do. */
  escape() {
    if (this.cancelChoice()) return true;
    if (this.live()) return false;
    this.viewPly(this.state.plies);
    return true;
  }

  // ----- the computer --------------------------------------------------------------------------

  get thinking() {
    return this.computer.thinking;
  }

  stopThinking() {
    this.computer.stop();
  }

  scheduleComputer() {
    const st = this.state;
    if (!this.ready || !st || st.over || !this.live() || this.paused || this.thinking) return;
    if (!this.isComputer(st.turn) || !st.legal.length) return;
    if (!this.computersAvailable()) {
      this.say("The computer players are not available in this build.", "error");
      return;
    }
    const wait = Math.max(0, Number(this.settings.get("pace")) - (performance.now() - this.lastMoveAt));
    const request = () => ({
      op: this.prefix + "computer_move",
      args: { game: this.game, level: Number(this.players[this.state.turn]), seed: this.seed },
    });
    this.computer.begin(wait, request, (error, move) => {
      if (error) {
        this.draw();
        this.report(error);
      } else {
        this.play(move, true).catch((e) => this.report(e));
      }
    });
    this.draw();
  }

  togglePause() {
    this.paused = !this.paused;
    if (this.paused) this.stopThinking();
    this.draw();
    this.scheduleComputer();
  }

  // ----- undo, hint, new game, records ---------------------------------------------------------

  async undo() {
    if (this.cancelChoice()) return;
    this.cancelHint();
    const st = this.state;
    if (!st || !st.can_undo || !this.live() || this.busy) return;
    this.busy = true;
    this.stopThinking(); // the computer's search is abandoned: the undo is answered at once
    try {
      const game = await this.call("undo", { game: this.game, humans: this.humans() });
      this.setGame(game, "push");
      if (!this.humans().length) this.paused = true;
      await this.refresh();
      this.announce(`Move taken back. ${playerName(this.state.turn, this.players)} to move.`);
    } catch (error) {
      this.report(error);
    } finally {
      this.busy = false;
      this.draw();
      this.scheduleComputer(); // after a refused undo, the computer's turn goes on
    }
  }

  /** The arguments of the "hint" request. */
  hintArgs() {
    return { game: this.game, seed: this.seed };
  }

  async hint() {
    if (!this.humanTurn() || !this.computersAvailable()) return;
    const gen = this.gen;
    this.acted();
    this.busy = true;
    this.draw();
    const { id, reply } = this.client.send(this.prefix + "hint", this.hintArgs());
    this.hintCall = id;
    try {
      const move = await reply;
      if (gen !== this.gen) return;
      this.hinted = move;
      this.announce(`Hint: ${move}.`);
    } catch (error) {
      this.report(error);
    } finally {
      if (this.hintCall === id) [this.hintCall, this.busy] = [null, false];
      this.draw();
    }
  }

  /** Abandon a hint under way (Undo, New game, another game): the worker drops its search. */
  cancelHint() {
    if (!this.hintCall) return;
    this.client.cancel(this.hintCall);
    [this.hintCall, this.busy] = [null, false];
  }

  /** New game: asks first when the game is under way and not finished. */
  async newGame(game = this.emptyGame()) {
    if (!this.ready) return false;
    const st = this.state;
    if (st && !st.over && st.plies > 0 && (await ask($("dlg-new"))) !== "new") return false;
    this.paused = false;
    this.setGame(game, "push", newSeed());
    await this.refresh();
    this.announce(`New game. ${playerName("r", this.players)} to move.`);
    return true;
  }

  /** Load a pasted record; resolves with null, or the reason it cannot be loaded. */
  async loadRecord(text) {
    let game;
    try {
      game = await this.call("load", { text });
    } catch (error) {
      return error.message;
    }
    if (!this.humans().length) this.paused = true;
    this.setGame(game, "push", newSeed());
    await this.refresh();
    if (!this.state.over) this.say(`Record loaded: ${plies(game.moves.length)}.`);
    const st = this.state;
    this.announce(`Record loaded. ${st.over ? `${COLOUR[st.winner]} won.` : `${playerName(st.turn, this.players)} to move.`}`);
    return null;
  }

  // ----- looking back --------------------------------------------------------------------------

  /** Show the position after ``ply`` plies without undoing anything; the latest one plays on. */
  async viewPly(ply) {
    const st = this.state;
    if (!this.ready || !st) return;
    const target = Math.max(0, Math.min(st.plies, ply));
    this.cancelChoice(true);
    this.acted(); // refresh says where the player is, if not back in the game
    this.stopThinking(); // the computer waits while the player looks back
    this.view = target === st.plies ? null : target;
    this.hinted = null;
    this.gen++;
    await this.refresh();
    const shown = this.state;
    this.announce(this.live() && !shown.over ? `Back to the game. ${playerName(shown.turn, this.players)} to move.` : this.plyText(shown, target, st.plies));
  }

  step(delta) {
    const at = this.view ?? this.state.plies;
    this.viewPly(at + delta);
  }

  // ----- settings ------------------------------------------------------------------------------

  /** The player changed a setting. */
  changed(name) {
    if (!this.ready || !this.state) return;
    if (name === "r" || name === "b") {
      if (this.humans().length) this.paused = false;
      this.selected = null;
      this.hinted = null;
      this.gen++; // a pending computer reply belongs to the old line-up
      this.stopThinking();
      this.lastMoveAt = performance.now();
      this.refresh();
    } else if (name !== "pace") {
      this.selected = null;
      this.draw();
    }
  }
}
