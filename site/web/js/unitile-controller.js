// Unitile's game controller: the shared one (play.js) with Unitile's board, words and requests
// (unitile_py.unitile.webapi): slides, the analysis, the arrows that slide the tile beside the empty cell.
import { GameController } from "./play.js";
import { direction, endText } from "./unitile-words.js";
import { playerName } from "./words.js";

/**
 * The "ut_state" reply (unitile_py.unitile.webapi): the cells, the bubble, each colour's groups, the
 * last slide, the tiles that united, each slide's result with perfect play when asked for.
 * @typedef {import("./wire.js").State & {cells: string[], bubble: string, groups: {r: number, b: number},
 *   last: {from: string, to: string} | null, uniting: string[], tables: boolean,
 *   analysis?: Record<string, {result: string, plies: number}> | null}} UnitileState
 */

/** @extends {GameController<UnitileState>} */
export class UnitileController extends GameController {
  constructor(parts) {
    super({ ...parts, prefix: "ut_" });
  }

  computersAvailable() {
    return Boolean(this.info && this.info.players);
  }

  stateArgs() {
    return { analysis: Boolean(this.settings.get("analysis") && this.info.tables) };
  }

  openNote() {
    return this.info.tables ? null : "The lookup tables are missing from this build: every slide is allowed.";
  }

  reviewNote() {
    return this.info.tables ? null : "No review: the lookup tables are missing from this build.";
  }

  look(st) {
    return { analysis: this.settings.get("analysis") && st.analysis ? st.analysis : null };
  }

  /**
   * The score line counts each colour's groups.
   * @returns {Parameters<typeof import("./panel.js").drawChips>}
   */
  chips(st) {
    return [st.groups, "group", "groups"];
  }

  endText(st) {
    return endText(st, this.players, this.lastBy !== null);
  }

  moveText(before, move) {
    const now = this.state;
    const to = before.bubble;
    let text = `${playerName(before.turn, this.players)} slides ${move} ${direction(this.board.frame, move, to)} to ${to}.`;
    if (now.winner) text += ` ${this.endText(now)}`;
    else text += ` ${playerName(now.turn, this.players)} to move. Groups: red ${now.groups.r}, blue ${now.groups.b}.`;
    return text;
  }

  plyText(shown, target, total) {
    const last = shown.last ? `: ${shown.last.from} to ${shown.last.to}` : "";
    return `Ply ${target} of ${total}${last}.`;
  }

  chooseText(move) {
    return `${move} chosen. Press it again, or Enter, to slide it; Escape cancels.`;
  }

  showRefusal(name, ban) {
    this.board.refuse(name);
    const text = `${ban.text}.`; // it starts with the cell's name: "c3 would not lower the sum of the two values."
    this.say(text, "refused");
    this.announce(text);
  }

  /** An arrow key: the tile on that side of the empty cell slides; while looking back, or once the
   * game is over, a step through the plies. */
  arrow(step, delta) {
    if (!this.live() || this.state.over) {
      this.step(delta);
      return;
    }
    const name = this.board.frame.neighbour(this.state.bubble, step);
    if (name) this.tap(name);
  }

  changed(name) {
    if (name === "analysis" && this.ready && this.state) {
      this.refresh();
      this.keepNewGames(); // the new game's state, with the analysis or without
    } else super.changed(name);
  }
}
