// The game controller both play pages share, on GameBase (play-base.js): moves, Confirm moves, the
// computer's turns, undo, hint, new game, records, looking back and the settings. Each game's
// controller (unitile-controller.js, nd-controller.js) extends it with its board and its words.
import { ask } from "./dialogs.js";
import { GameBase, newSeed } from "./play-base.js";
import { COLOUR, playerName, plies } from "./words.js";

export { GAME_KEY, newSeed } from "./play-base.js";

const $ = (id) => document.getElementById(id);

/**
 * @template {import("./wire.js").State} [S=import("./wire.js").State] the state of the game's service
 * @extends {GameBase<S>}
 */
export class GameController extends GameBase {
  // ----- moves ---------------------------------------------------------------------------------

  /**
   * Make a move: one request, whose reply is the new game and its state (the latest position).
   * @param {string} move
   * @param {boolean} byComputer
   */
  async play(move, byComputer) {
    const [before, gen] = [this.state, this.gen];
    const view = { ...this.viewArgs(), ply: null };
    /** @type {import("./wire.js").Played<S>} */
    const { game, state } = await this.call("play", { game: this.game, move, view });
    if (gen !== this.gen) return; // an undo or a new game came first: this move is dropped
    const how = byComputer && this.humans().length > 0 ? "replace" : "push";
    this.setGame(game, how, undefined, byComputer ? "computer" : "player");
    this.show(state);
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
    if (this.editor && this.editor.active) {
      this.editor.tap(name);
      return;
    }
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
    let ban;
    try {
      ban = await this.call("explain", { game: this.game, move: name });
    } catch (error) {
      this.report(error);
      return;
    }
    if (gen !== this.gen || acts !== this.acts || !ban) return;
    this.showRefusal(name, ban);
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
    if (this.editor && this.editor.active) return;
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
      /** @type {import("./wire.js").PlainGame} */
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

  /**
   * The arguments of the "hint" request.
   * @returns {import("./wire.js").Args}
   */
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
    if (st && !st.over && st.plies > 0 && (await ask(/** @type {HTMLDialogElement} */ ($("dlg-new")))) !== "new") return false;
    performance.mark("new-game"); // the page's own measure of the action, "new-game", for the tests
    this.paused = false;
    this.setGame(game, "push", newSeed());
    await this.refresh();
    performance.measure("new-game", "new-game");
    this.announce(`New game. ${playerName(this.state.turn, this.players)} to move.`);
    return true;
  }

  /**
   * Load a pasted record; resolves with null, or the reason it cannot be loaded.
   * @param {string} text
   * @returns {Promise<string | null>}
   */
  async loadRecord(text) {
    /** @type {import("./wire.js").PlainGame} */
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
    if (name === "r" || name === "b") this.keepNewGames(); // the new games' states name the human players
  }
}
