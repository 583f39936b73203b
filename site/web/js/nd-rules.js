// Naked Diagonal's rules page: the shared frame, offline play, and the diagrams, drawn by the play
// page's board (nd-board.js) from each diagram's position and its reason (data-why, checked against
// the engine by tests/browser/naked_diagonal/test_play.py).
import { registerServiceWorker, startFrame } from "./frame.js";
import { NDBoard, stateOf } from "./nd-board.js";

startFrame();
for (const el of /** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll(".nd-diagram .board[data-position]"))) {
  const st = stateOf(el.dataset.position);
  const label = el.getAttribute("aria-label");
  const board = new NDBoard(el, Math.round(Math.sqrt(st.points.length)));
  board.draw(st, { canAct: false, marking: false, selected: null, hint: null, live: true });
  board.showBan(JSON.parse(el.dataset.why));
  el.setAttribute("role", "img"); // a picture, described by its label: not a grid to play on
  // ... and its grid cells, out of the accessibility tree and the focus order
  board.frame.hits.setAttribute("aria-hidden", "true");
  for (const cell of board.frame.cells) cell.removeAttribute("tabindex");
  el.setAttribute("aria-label", label);
}
registerServiceWorker();
