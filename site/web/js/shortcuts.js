// Unitile's keys (listed on the page under "Keyboard"), for keys.js: they work whatever control
// has focus. While a game is under way the arrows slide the tile on that side of the empty cell;
// while looking back (or once the game is over) they step through the plies.

const ARROWS = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };

/** The key handler of ``game`` (a Controller); ``openRecord`` shows the record dialog. */
export function unitileKeys(game, openRecord) {
  return (key, target) => {
    const st = game.state;
    if (!game.ready || !st) return false;
    if (key in ARROWS) {
      if (!game.live() || st.over) game.step(key === "ArrowLeft" || key === "ArrowUp" ? -1 : 1);
      else game.slideToward(ARROWS[key]);
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
    if (key === "Escape") {
      if (game.cancelChoice()) return true;
      if (!game.live()) {
        game.viewPly(st.plies);
        return true;
      }
    }
    return false;
  };
}
