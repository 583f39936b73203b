// Unitile's status around the board: the groups of each colour in the score line, then what both
// pages draw (panel.js).
import { drawChips, drawPanel } from "./panel.js";

/** @param {object} st a state of unitile_py.unitile.webapi @param {object} m the page's flags (panel.js) */
export function drawStatus(st, m) {
  drawChips(st.groups, "group", "groups");
  drawPanel(st, m);
}
