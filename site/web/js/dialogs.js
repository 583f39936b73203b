// Dialogs any game's page can use: a question (a <dialog> whose form has buttons with values), the
// record dialog (the game as text to copy, and a box to paste a record into) and the keyboard help.
import { sentence } from "./words.js";

/**
 * Show a question dialog; resolves with the value of the button that closed it ("" for Escape).
 * @param {HTMLDialogElement} dialog
 * @returns {Promise<string>}
 */
export function ask(dialog) {
  return new Promise((resolve) => {
    dialog.returnValue = "";
    dialog.addEventListener("close", () => resolve(dialog.returnValue), { once: true });
    dialog.showModal();
  });
}

/** A record's result in words. */
const RESULT = { "1-0": "Red won", "0-1": "Blue won", "*": "unfinished" };
/** The longest file the dialog reads: the command line's limit (unitile_py/inputs.py). */
const MOST = 400_000;

export class RecordDialog {
  /**
   * @param {HTMLDialogElement} dialog with #record-text, #btn-copy, #copy-status, #record-load,
   *   #btn-load, #load-error, #record-games, #record-file, #btn-record-file and #btn-record-close inside
   * @param {(text: string) => Promise<string|null>} load loads a pasted record: null when it
   *   worked, else the reason it did not, in one line
   * @param {(text: string) => Promise<object[]>} [games] the games of a file of records (the
   *   service's "records" request): with more than one, the dialog offers them to choose from
   */
  constructor(dialog, load, games = null) {
    this.dialog = dialog;
    const part = (id) => dialog.querySelector(`#${id}`);
    this.text = /** @type {HTMLTextAreaElement} */ (part("record-text"));
    this.status = part("copy-status");
    this.paste = /** @type {HTMLTextAreaElement} */ (part("record-load"));
    this.error = part("load-error");
    this.games = /** @type {HTMLElement} */ (part("record-games"));
    /** @type {{text: string}[] | null} */
    this.offered = null; // the games offered
    this.load = load;
    this.split = games;
    const file = /** @type {HTMLInputElement} */ (part("record-file"));
    part("btn-copy").addEventListener("click", () => this.copy());
    part("btn-record-close").addEventListener("click", () => dialog.close());
    part("btn-record-file").addEventListener("click", () => file.click());
    file.addEventListener("change", async () => {
      const chosen = file.files && file.files[0];
      file.value = "";
      if (!chosen) return;
      if (chosen.size > MOST * 4) {
        this.error.textContent = `${chosen.name} is too large for a file of records.`;
        return;
      }
      this.paste.value = await chosen.text();
      this.submit();
    });
    part("btn-load").addEventListener("click", () => this.submit());
    part("record-games-list").addEventListener("click", (event) => {
      const b = /** @type {HTMLElement | null} */ (/** @type {Element} */ (event.target).closest("button[data-game]"));
      if (b && this.offered) this.loadText(this.offered[Number(b.dataset.game) - 1].text);
    });
  }

  /** Load the text pasted (or read from a file): one game at once, several offered to choose from. */
  async submit() {
    const text = this.paste.value;
    this.games.hidden = true;
    this.offered = null;
    if (!text.trim()) {
      this.error.textContent = "Paste a record first.";
      return;
    }
    let games = [];
    if (this.split) {
      try {
        games = await this.split(text);
      } catch (error) {
        this.error.textContent = sentence(error.message);
        return;
      }
    }
    if (games.length > 1) this.offer(games);
    else await this.loadText(text);
  }

  /** Load one game's record; the dialog closes when it loads. */
  async loadText(text) {
    const problem = await this.load(text);
    if (problem) {
      this.error.textContent = sentence(problem);
      return;
    }
    this.paste.value = "";
    this.games.hidden = true;
    this.offered = null;
    this.dialog.close();
  }

  /** Offer the games of a file, each a button (a game that does not load: its reason, no button). */
  offer(games) {
    this.offered = games;
    this.error.textContent = "";
    const title = this.games.querySelector("#record-games-title");
    title.textContent = `This file holds ${games.length} games: choose the one to open.`;
    const el = (name, cls, text = "") => Object.assign(document.createElement(name), { className: cls, textContent: text });
    this.games.querySelector("#record-games-list").replaceChildren(
      ...games.map((g) => {
        const item = el("li", "record-game");
        const h = g.headers || {};
        const who = h.Red || h.Blue ? `Red: ${h.Red || "?"}; Blue: ${h.Blue || "?"}` : "";
        const moves = g.moves === null ? "" : `${g.moves} ${g.moves === 1 ? "move" : "moves"}, ${RESULT[g.result] || g.result}`;
        const about = [who, g.error ? `it does not load: ${sentence(g.error)}` : moves].filter(Boolean).join(" · ");
        if (g.error) item.append(el("span", "record-game-name", `Game ${g.number}`));
        else {
          const b = el("button", "btn btn-small record-game-name", `Open game ${g.number}`);
          b.type = "button";
          b.dataset.game = String(g.number);
          b.setAttribute("aria-describedby", `record-game-${g.number}`);
          item.append(b);
        }
        const line = el("span", "record-game-about", about);
        line.id = `record-game-${g.number}`;
        item.append(line);
        return item;
      }),
    );
    this.games.hidden = false;
    /** @type {HTMLElement} */ (title).focus();
  }

  get isOpen() {
    return this.dialog.open;
  }

  /** @param {string} record */
  open(record) {
    this.text.value = record;
    this.status.textContent = "";
    this.error.textContent = "";
    this.games.hidden = true;
    this.dialog.showModal();
  }

  async copy() {
    try {
      await navigator.clipboard.writeText(this.text.value);
    } catch {
      this.text.select();
      document.execCommand("copy");
    }
    this.status.textContent = "Copied";
  }
}

/**
 * The keyboard help: ``dialog`` (a modal <dialog> with a name, so a screen reader says it opened,
 * and a Close button, which gets the focus; Escape closes it too) opened by ``button`` or by the
 * function returned (the "?" key).
 * @param {HTMLDialogElement} dialog
 * @param {HTMLElement} button
 */
export function keysHelp(dialog, button) {
  const open = () => {
    if (!dialog.open) dialog.showModal();
  };
  button.addEventListener("click", open);
  return open;
}
