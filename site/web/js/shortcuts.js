// The play pages' keys (listed on each page under "Keyboard"), for keys.js: they work whatever
// control has focus. The arrows are the game's (``game.arrow``: Unitile slides the tile on that side
// of the empty cell, Naked Diagonal moves the focus ring over the points); Enter or Space on a cell
// plays it (or says why not), Enter confirms, Escape cancels (``game.escape``); Page Up / Page Down,
// Home / End look back; u undo, h hint, n new game, r record; ? the keyboard help (also while the
// game loads).

export const ARROWS = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };

/**
 * The key handler of ``game`` (a GameController of play.js); ``openRecord`` shows the record dialog,
 * ``openKeys`` the keyboard help.
 */
export function playKeys(game, openRecord, openKeys) {
  return (key, target) => {
    if (key === "?") {
      openKeys();
      return true;
    }
    const st = game.state;
    if (!game.ready || !st) return false;
    if (game.editor && game.editor.active) return game.editor.key(key, target); // setting up a position
    if (key in ARROWS) {
      game.arrow(ARROWS[key], key === "ArrowLeft" || key === "ArrowUp" ? -1 : 1);
      return true;
    }
    const actions = {
      PageUp: () => game.step(-1),
      PageDown: () => game.step(1),
      Home: () => game.viewPly(0),
      End: () => game.viewPly(st.plies),
      u: () => game.undo(),
      h: () => game.hint(),
      n: () => game.newGame(),
      r: () => openRecord(),
    };
    if (key in actions) {
      actions[key]();
      return true;
    }
    const spot = target.closest(".spot");
    if ((key === "Enter" || key === " ") && spot) {
      game.tap(spot.dataset.cell);
      return true;
    }
    if (key === "Enter" && game.selected) {
      game.confirmChoice();
      return true;
    }
    if (key === "Escape") return game.escape();
    return false;
  };
}
