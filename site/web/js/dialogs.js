// Dialogs any game's page can use: a question (a <dialog> whose form has buttons with values), the
// record dialog (the game as text to copy, and a box to paste a record into) and the keyboard help.

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

export class RecordDialog {
  /**
   * @param {HTMLDialogElement} dialog with #record-text, #btn-copy, #copy-status, #record-load,
   *   #btn-load, #load-error and #btn-record-close inside
   * @param {(text: string) => Promise<string|null>} load loads a pasted record: null when it
   *   worked, else the reason it did not, in one line
   */
  constructor(dialog, load) {
    this.dialog = dialog;
    const part = (id) => dialog.querySelector(`#${id}`);
    this.text = /** @type {HTMLTextAreaElement} */ (part("record-text"));
    this.status = part("copy-status");
    this.paste = /** @type {HTMLTextAreaElement} */ (part("record-load"));
    this.error = part("load-error");
    part("btn-copy").addEventListener("click", () => this.copy());
    part("btn-record-close").addEventListener("click", () => dialog.close());
    part("btn-load").addEventListener("click", async () => {
      const text = this.paste.value;
      if (!text.trim()) {
        this.error.textContent = "Paste a record first.";
        return;
      }
      const problem = await load(text);
      if (problem) {
        this.error.textContent = problem;
        return;
      }
      this.paste.value = "";
      dialog.close();
    });
  }

  get isOpen() {
    return this.dialog.open;
  }

  /** @param {string} record */
  open(record) {
    this.text.value = record;
    this.status.textContent = "";
    this.error.textContent = "";
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
