// Naked Diagonal's game controller: the shared one (play.js) with this game's board, words and
// requests (the "nd_" ones of unitile_py.webapi, served by unitile_py.naked_diagonal.webapi): the
// board size, placements, a ban drawn on the board when a tap is refused, skipped turns, the winning
// chain, and the keys that move the focus ring over the points.
import { GameController } from "./play.js";
import { COLOUR, other, outcome, playerName } from "./words.js";

/** What the page says on a board whose level 6 follows a stored proof (unitile_py/naked_diagonal/perfect.py). */
function proofText(size, winner, perfect) {
  const who = winner === "red" ? "Red, the first player," : "Blue, the second player,";
  return `On ${size}×${size}, level ${perfect} and the hint follow a stored proof that ${who} wins; off its lines they search exactly, or play level 5 and say so.`;
}

const $ = (id) => document.getElementById(id);
/** The edges each colour joins. */
export const EDGES = { r: "north and south", b: "west and east" };

/**
 * The "nd_state" reply (unitile_py.naked_diagonal.webapi): the board's size and points, the last stone,
 * a skipped turn, each colour's stones, the winning chain, each placement's result with perfect play
 * when asked for.
 * @typedef {import("./wire.js").State & {size: number, points: string[], last: string | null,
 *   skipped: import("./wire.js").Colour | null, stones: {r: number, b: number}, chain: string[],
 *   analysis?: Record<string, {result: string, placements: number}> | null}} NDState
 */

/** @extends {GameController<NDState>} */
export class NDController extends GameController {
  /** @param {object} parts as GameController's, and ``makeBoard(n)`` for a board of side n */
  constructor(parts) {
    super({ ...parts, prefix: "nd_" });
    this.makeBoard = parts.makeBoard;
    this.banShown = 0; // performance.now() when the last ban was drawn (for the benchmark)
  }

  emptyGame() {
    return { size: Number(this.settings.get("size")), start: null, moves: [] };
  }

  hintArgs() {
    return { game: this.game };
  }

  /** Whether the game's size has tables: the analysis and the review read them. */
  tablesHere(size = this.game && this.game.size) {
    return Boolean(this.info && (this.info.table_sizes || []).includes(size));
  }

  stateArgs(game = this.game) {
    return { analysis: Boolean(this.settings.get("analysis") && this.tablesHere(game.size)) };
  }

  /** A new game on each board size of the menu. */
  newGames() {
    return Array.from(/** @type {HTMLSelectElement} */ ($("size")).options, (o) => ({ size: Number(o.value), start: null, moves: [] }));
  }

  /** The analysis badges, when asked for; a start the tables do not hold is said once. */
  look(st) {
    if (!this.settings.get("analysis") || !this.tablesHere(st.size)) return { analysis: null };
    const start = `${st.size} ${this.game.start}`;
    if (st.analysis === null && !st.over && this.analysisNoted !== start) {
      this.analysisNoted = start;
      this.say("No analysis here: play from the empty board never reaches this start, so the tables do not hold it.", "note");
    }
    return { analysis: st.analysis || null };
  }

  /** @param {Parameters<GameController["setGame"]>} args */
  setGame(...args) {
    if (this.board) this.board.clearBan();
    super.setGame(...args);
  }

  draw() {
    const st = this.state;
    if (!st || (this.editor && this.editor.active)) {
      super.draw(); // the editor draws its own board, of the size it sets up
      return;
    }
    if (st.size !== this.board.n) {
      this.board = this.makeBoard(st.size);
      this.board.frame.onActivate((name) => this.tap(name));
    }
    this.fitLevels(st.size);
    /** @type {HTMLInputElement} */ ($("opt-analysis")).disabled = !this.tablesHere(st.size);
    if (String(st.size) !== this.settings.get("size")) this.settings.set("size", String(st.size));
    super.draw();
  }

  /** The review needs the tables' distances: the sizes of level 6 but those played from a stored
   * proof (5x5), which says who wins but not how soon. */
  reviewNote(st) {
    const proofs = (this.info && this.info.proof_sizes) || {};
    const sizes = ((this.info && this.info.perfect_sizes) || []).filter((n) => !(String(n) in proofs));
    if (sizes.includes(st.size)) return null;
    const names = sizes.map((n) => `${n}×${n}`).join(" and ");
    return `No review on ${st.size}×${st.size}: it needs the tables of perfect play${names ? `, which cover ${names} only` : ""}.`;
  }

  reviewUnit() {
    return ["placement", "placements"];
  }

  /**
   * The score line counts each colour's stones.
   * @returns {Parameters<typeof import("./panel.js").drawChips>}
   */
  chips(st) {
    return [st.stones, "stone", "stones"];
  }

  /** An arrow key moves the focus ring. */
  arrow(step) {
    this.board.moveCursor(step);
  }

  /** Level 6 plays where the board's size has tables or a stored proof: offered there; elsewhere a
   * player set to it plays the strongest search level instead, and the page says so. On a size whose
   * level 6 follows a stored proof (5x5), the page says so once when the board comes up. */
  fitLevels(size) {
    const info = this.info;
    if (!info || !info.perfect) return;
    const perfect = String(info.perfect);
    const here = info.perfect_sizes.includes(size);
    const proved = (info.proof_sizes || {})[String(size)];
    if (proved && this.proofNoted !== size) {
      this.say(proofText(size, proved, perfect), "note");
    }
    this.proofNoted = size;
    for (const colour of ["r", "b"]) {
      /** @type {HTMLOptionElement | null} */
      const option = $(`player-${colour}`).querySelector(`option[value="${perfect}"]`);
      if (option) option.disabled = !here;
      if (!here && this.settings.get(colour) === perfect) {
        this.settings.set(colour, String(info.best));
        const names = info.perfect_sizes.map((n) => `${n}×${n}`);
        const sizes = names.length > 1 ? `${names.slice(0, -1).join(", ")} and ${names.at(-1)}` : names.join("");
        this.say(`Level ${perfect} plays perfectly on ${sizes} only: ${COLOUR[colour]} plays level ${info.best} on this board.`, "note");
      }
    }
  }

  endText(st) {
    return outcome(st, this.players, other(st.turn), (winner, by, you) => {
      const edges = EDGES[winner];
      if (you) return winner === you ? `your chain joins ${edges}` : `${COLOUR[winner]}'s chain joins ${edges}`;
      return `a ${COLOUR[winner].toLowerCase()} chain joins the ${edges} edges`;
    });
  }

  /** "Blue has no legal placement: Blue's turn is skipped, Red places again." */
  skipText(st) {
    const skipped = st.skipped;
    return `${COLOUR[skipped]} has no legal placement: ${COLOUR[skipped]}'s turn is skipped, ${COLOUR[other(skipped)]} places again.`;
  }

  moveText(before, move) {
    const now = this.state;
    let text = `${playerName(before.turn, this.players)} places ${move}.`;
    if (now.winner) return `${text} ${this.endText(now)}`;
    if (now.skipped) text += ` ${this.skipText(now)}`;
    return `${text} ${playerName(now.turn, this.players)} to move.`;
  }

  plyText(shown, target, total) {
    const last = shown.last ? `: ${COLOUR[other(shown.turn)]} placed ${shown.last}` : "";
    return `Ply ${target} of ${total}${last}.`;
  }

  chooseText(move) {
    return `${move} chosen. Press it again, or Enter, to place a stone there; Escape cancels.`;
  }

  tap(name) {
    if (this.board) {
      this.board.clearBan();
      this.board.setCursor(name);
    }
    super.tap(name);
  }

  /** Draw the ban on the board and say it in words (the service's "explain" reply). */
  showRefusal(name, ban) {
    this.board.showBan(ban);
    this.banShown = performance.now();
    this.say(ban.text, "refused");
    this.announce(ban.text);
  }

  /** Escape: cancel a choice, else hide an explanation, else return from looking back. */
  escape() {
    if (this.selected || !this.board || !this.board.ban) return super.escape();
    this.board.clearBan();
    this.say("");
    return true;
  }

  async hint() {
    if (!this.humanTurn() || !this.computersAvailable()) return;
    const asked = super.hint(); // up to its request it runs now: it clears the last message
    this.say("Looking for a hint…", "note");
    await asked;
    if (!this.hinted) return;
    const hinted = this.hinted;
    let source = "";
    if (this.info && this.state && (this.info.proof_sizes || {})[String(this.state.size)]) {
      // On a stored proof's size: where the hint came from (remembered by the worker, no new search).
      try {
        source = ` (${await this.call("hint_source", this.hintArgs())})`;
      } catch {
        source = "";
      }
    }
    if (this.hinted === hinted) this.say(`Hint: ${hinted}${source}.`, "note");
  }

  /**
   * A placement; a skipped turn after it is said, and so is level 6's placement on a stored proof's
   * size when it was level 5's choice (off the proof's lines, too open for an exact search), as the
   * page promises (proofText).
   * @param {string} move
   * @param {boolean} byComputer
   */
  async play(move, byComputer) {
    const [before, mover] = [this.game, this.state.turn];
    const perfect = Boolean(byComputer && this.info && Number(this.players[mover]) === this.info.perfect);
    await super.play(move, byComputer);
    if (this.state.skipped && !this.state.over) this.say(this.skipText(this.state), "note");
    if (!perfect || !(this.info.proof_sizes || {})[String(before.size)] || this.state.over) return;
    const gen = this.gen;
    /** @type {string} */
    let source;
    try {
      source = await this.call("hint_source", { game: before }); // remembered by the worker: no search
    } catch {
      return;
    }
    if (gen === this.gen && source.includes(`level ${this.info.best}`)) {
      this.say(`${playerName(mover, this.players)} placed ${move} (${source}).`, "note");
    }
  }

  /** The board size changed in its menu: a new game of that size (asking first). */
  async changeSize() {
    const size = Number(this.settings.get("size"));
    if (this.state && size === this.state.size) return;
    const started = await this.newGame({ size, start: null, moves: [] });
    if (!started && this.state) this.settings.set("size", String(this.state.size));
  }

  changed(name) {
    if (name === "size" && this.editor && this.editor.active) this.editor.resize(Number(this.settings.get("size")));
    else if (name === "size" && this.ready) this.changeSize();
    else if (name === "analysis" && this.ready && this.state) {
      this.refresh();
      this.keepNewGames(); // the new games' states, with the analysis or without
    } else super.changed(name);
  }

  /** The "New game" question names the board size in play (it may change with the menu). */
  async newGame(game = this.emptyGame()) {
    $("dlg-new-title").textContent = game.size === (this.state && this.state.size) ? "Start a new game?" : `Start a new ${game.size}×${game.size} game?`;
    return super.newGame(game);
  }
}
