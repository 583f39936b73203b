// Naked Diagonal's keys (listed on the page under "Keyboard"), for keys.js: they work whatever
// control has focus. The arrows move the magenta focus ring over the points (and give the board the
// focus), Enter or Space places on the point in the ring or says why not; the rest as on Unitile's
// page (shortcuts.js): Page Up / Page Down, Home / End look back, u h n r.

const ARROWS = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };

/** The key handler of ``game`` (an NDController); ``openRecord`` shows the record dialog. */
export function ndKeys(game, openRecord) {
  return (key, target) => {
    const st = game.state;
    if (!game.ready || !st) return false;
    if (key in ARROWS) {
      game.board.moveCursor(ARROWS[key]);
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
