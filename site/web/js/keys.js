// Keyboard play that works whatever control has focus. Any game's page can use it.
//
// One listener on the document, in the capture phase, sees every key first and hands it to the page,
// except where the focused control needs it: typing in a text field, keys inside an open dialog,
// Enter and Space on a button, link or checkbox, and the keys that change a select from the keyboard
// (arrows, Home, End, Page Up/Down), and the keys a control names as its own (``data-keys``, the
// review chart's arrows and Enter). A letter shortcut pressed on a select is the page's, not the
// select's type-ahead. A select or checkbox changed with the mouse gives the focus back, so the arrow
// keys go to the board again rather than to the level just chosen.

const TEXT = 'textarea, [contenteditable="true"], input:not([type="checkbox"]):not([type="radio"])';
const SELECT_KEYS = new Set(["ArrowUp", "ArrowDown", "ArrowLeft", "ArrowRight", "Home", "End", "PageUp", "PageDown", " ", "Enter"]);
const ACTIVATE = new Set(["Enter", " "]);

/** ``handle(key, target)`` returns true when it used the key (its default action is then prevented). */
export function bindKeys(handle) {
  document.addEventListener(
    "keydown",
    (event) => {
      if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey) return;
      const target = event.target instanceof Element ? event.target : document.body;
      if (target.closest(TEXT) || target.closest("dialog[open]")) return;
      if (target.matches("select") && SELECT_KEYS.has(event.key)) return;
      if (target.closest("button, a[href], input, summary") && ACTIVATE.has(event.key)) return;
      const own = /** @type {HTMLElement | null} */ (target.closest("[data-keys]")); // a control with keys of its own (the review chart)
      if (own && own.dataset.keys.split(" ").includes(event.key === " " ? "Space" : event.key)) return;
      if (handle(event.key, target)) event.preventDefault();
    },
    true,
  );
}

/** Controls under ``root`` changed with a pointer let go of the focus afterwards. */
export function releaseAfterPointer(root) {
  let byPointer = false;
  root.addEventListener("pointerdown", () => (byPointer = true), true);
  root.addEventListener("keydown", () => (byPointer = false), true);
  root.addEventListener("change", (event) => {
    if (byPointer && event.target.matches("select, input[type='checkbox']")) event.target.blur();
    byPointer = false;
  });
}
