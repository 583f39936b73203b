// The "Your puzzles" card of the Puzzles pages (issue 52): the puzzles made of the mistakes of the
// player's finished games (my-puzzles.js keeps them), each to open or remove, Remove all (asked
// first), and whose mistakes a finished game adds. The page (puzzles.js) plays them; their tries are
// judged here from the "state" request's analysis, each legal move's result with perfect play from
// the tables, as "puzzle_try" judges a shipped puzzle's: any move that keeps the win is right.
import { UserError } from "./rpc.js";
import { ask } from "./dialogs.js";
import { COLOUR, count } from "./words.js";
import { FROM, MINE_KEY, day, readMine, updateMine } from "./my-puzzles.js";
import { SOLVED, betterSolve } from "./puzzle-progress.js";

const $ = (id) => document.getElementById(id);

export class YourPuzzles {
  /**
   * @param {import("./storage.js").Store} store the game's
   * @param {number[]} sizes the board sizes of the page
   * @param {[string, string]} units a move's word (one, many)
   */
  constructor(store, sizes, units) {
    this.store = store;
    this.sizes = sizes;
    this.units = units;
    this.mine = readMine(store.get(MINE_KEY));
    this.from = /** @type {HTMLSelectElement} */ ($("mine-from"));
    this.from.value = this.mine.from;
    this.list = $("mine-list");
    this.clear = /** @type {HTMLButtonElement} */ ($("btn-mine-clear"));
  }

  /**
   * Wire the card: ``open(id)`` and ``remove(id)`` (null: all) are the page's, ``changed()`` is called
   * when another tab (a play page) changed Your puzzles.
   * @param {{open: (id: string) => unknown, remove: (id: string|null) => unknown, changed: () => unknown}} page
   */
  bind({ open, remove, changed }) {
    this.from.addEventListener("change", () => this.setFrom(this.from.value));
    this.clear.addEventListener("click", async () => {
      if ((await ask(/** @type {HTMLDialogElement} */ ($("dlg-mine-clear")))) === "remove") remove(null);
    });
    this.list.addEventListener("click", (event) => {
      const b = /** @type {HTMLElement | null} */ (/** @type {Element} */ (event.target).closest("button"));
      if (b && b.dataset.mine) open(b.dataset.mine);
      else if (b && b.dataset.remove) remove(b.dataset.remove);
    });
    this.store.watch(MINE_KEY, () => {
      this.mine = readMine(this.store.get(MINE_KEY));
      this.from.value = this.mine.from;
      changed();
    });
  }

  /**
   * Your puzzles on the board sizes of this page, oldest first.
   * @returns {import("./my-puzzles.js").MyPuzzle[]}
   */
  here() {
    return this.mine.puzzles.filter((p) => this.sizes.includes(p.size));
  }

  setFrom(from) {
    if (!FROM.includes(from)) return;
    this.mine = updateMine(this.store, (mine) => Object.assign(mine, { from }));
  }

  /** Remove puzzle ``id`` (null: all of this page's sizes); ``at`` its place in :meth:`here`. */
  remove(id) {
    const mine = this.here();
    const gone = new Set(id === null ? mine.map((p) => p.id) : [id]);
    this.mine = updateMine(this.store, (all) => Object.assign(all, { puzzles: all.puzzles.filter((p) => !gone.has(p.id)) }));
    return { at: Math.max(0, mine.findIndex((p) => p.id === id)), gone };
  }

  /** After a removal the focus stays in the list: on the Remove button now at ``at``, else the heading. */
  focusAfterRemove(at) {
    const buttons = this.list.querySelectorAll("button.mine-remove");
    const spot = /** @type {HTMLElement | undefined} */ (buttons[Math.min(at, buttons.length - 1)]);
    (spot || $("mine-title")).focus();
  }

  /** Puzzle ``p`` was solved, ``how`` (puzzle-progress.js, SOLVED): its record now. */
  solved(p, how) {
    this.mine = updateMine(this.store, (mine) => {
      const q = mine.puzzles.find((one) => one.id === p.id);
      if (q) q.solved = betterSolve(q.solved, how);
      return mine;
    });
    return this.here().find((q) => q.id === p.id) || p;
  }

  /**
   * Judge the move ``name`` in the state ``st`` (asked with its analysis) of ``game``, as
   * "puzzle_try" judges a shipped puzzle's: ``{right, text}``; an illegal move is a UserError with
   * the rules' reason (the "explain" request).
   * @param {(op: string, args: object) => Promise<any>} call the game's service
   */
  async judge(name, st, game, call) {
    if (!st.legal.includes(name)) {
      const ban = await call("explain", { game, move: name });
      throw new UserError(ban ? ban.text : `${name} cannot be played now.`);
    }
    const a = st.analysis ? st.analysis[name] : null;
    if (!a) throw new UserError("The tables cannot judge this position.");
    const distance = count(a.plies ?? a.placements, ...this.units);
    if (a.result === "win") return { right: true, text: `Right: ${name} wins in ${distance}.` };
    const why = game.moves.length ? "throws the win away" : "is not it";
    return { right: false, text: `${name} ${why}: it loses in ${distance}.` };
  }

  /** The card: a line on Your puzzles, the list (each to open or remove), Remove all. */
  draw(current) {
    const mine = this.here();
    const solved = mine.filter((p) => p.solved).length;
    $("mine-status").textContent = mine.length
      ? `${count(mine.length, "puzzle", "puzzles")} from your games, ${solved} solved.`
      : "None yet: each game you finish on the Play page adds its mistakes here.";
    this.clear.disabled = !mine.length;
    this.list.hidden = !mine.length;
    this.list.replaceChildren(...mine.map((p, i) => this.item(p, i, current)));
  }

  item(p, i, current) {
    const el = (name, cls, text = "") => Object.assign(document.createElement(name), { className: cls, textContent: text });
    const item = el("li", "mine-item");
    const open = el("button", "btn btn-small mine-open");
    open.type = "button";
    open.dataset.mine = p.id;
    if (p.solved) open.dataset.solved = p.solved;
    const what = `${COLOUR[p.mover]} to move, win in ${count(p.distance, ...this.units)}`;
    const board = this.sizes.length > 1 ? `${p.size}×${p.size} · ` : "";
    const from = `${board}ply ${p.ply}, ${day(p.added)}${p.solved ? ` · solved ${SOLVED[p.solved].words}` : ""}`;
    open.append(el("span", "mine-what", `${i + 1}. ${what}`), el("span", "mine-from", from));
    open.setAttribute("aria-label", `Your puzzle ${i + 1}: ${what}; ${from}`);
    if (current && current.id === p.id) open.setAttribute("aria-current", "true");
    const remove = el("button", "btn btn-small mine-remove", "Remove");
    remove.type = "button";
    remove.dataset.remove = p.id;
    remove.setAttribute("aria-label", `Remove your puzzle ${i + 1}`);
    item.append(open, remove);
    return item;
  }
}
