// The NDE areas page (nd-areas.html): draws every configuration of tables/naked-diagonal/areas.json
// (written by `python -m pipeline nd-areas`, docs/naked-diagonal-areas.md) as a small SVG, with the
// counts. A drawing is rows north first joined by "/": o area point, R red stone, B blue stone,
// . no stone, # beyond the board edge.
import { registerServiceWorker, startFrame } from "./frame.js";

const DATA = "tables/naked-diagonal/areas.json";
const SVG = "http://www.w3.org/2000/svg";
const CELL = 16;
const PAGE = 120;
let hatches = 0;

function el(name, attrs = {}, text = "") {
  const node = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  if (text) node.textContent = text;
  return node;
}

// An SVG of one drawing, with a text description for screen readers.
export function drawConfiguration(text) {
  const rows = text.split("/");
  const h = rows.length;
  const w = rows[0].length;
  const svg = el("svg", { width: w * CELL, height: h * CELL, viewBox: `0 0 ${w * CELL} ${h * CELL}`, role: "img" });
  const points = { o: 0, R: 0, B: 0 };
  const defs = el("defs");
  const hatch = el("pattern", { id: `nd-areas-hatch-${hatches++}`, width: 4, height: 4, patternUnits: "userSpaceOnUse" });
  hatch.append(el("path", { d: "M0 4 L4 0", stroke: "currentColor", "stroke-opacity": 0.45, "stroke-width": 1 }));
  defs.append(hatch);
  svg.append(defs);
  for (let r = 0; r < h; r++) {
    for (let c = 0; c < w; c++) {
      const v = rows[r][c];
      const x = c * CELL + CELL / 2;
      const y = r * CELL + CELL / 2;
      if (v === "#") {
        svg.append(el("rect", { x: c * CELL, y: r * CELL, width: CELL, height: CELL, fill: `url(#${hatch.id})` }));
        continue;
      }
      // The grid lines through the point (to the neighbouring points that are on the board).
      if (c + 1 < w && rows[r][c + 1] !== "#") {
        svg.append(el("line", { x1: x, y1: y, x2: x + CELL, y2: y, stroke: "currentColor", "stroke-opacity": 0.3 }));
      }
      if (r + 1 < h && rows[r + 1][c] !== "#") {
        svg.append(el("line", { x1: x, y1: y, x2: x, y2: y + CELL, stroke: "currentColor", "stroke-opacity": 0.3 }));
      }
    }
  }
  for (let r = 0; r < h; r++) {
    for (let c = 0; c < w; c++) {
      const v = rows[r][c];
      const x = c * CELL + CELL / 2;
      const y = r * CELL + CELL / 2;
      if (v === "R" || v === "B") {
        points[v]++;
        svg.append(el("circle", { cx: x, cy: y, r: CELL * 0.38, fill: v === "R" ? "#d33" : "#2a6fdb" }));
      } else if (v === "o") {
        points.o++;
        svg.append(el("circle", { cx: x, cy: y, r: CELL * 0.3, fill: "none", stroke: "currentColor", "stroke-width": 2 }));
      } else if (v === ".") {
        svg.append(el("circle", { cx: x, cy: y, r: 1.5, fill: "currentColor", "fill-opacity": 0.6 }));
      }
    }
  }
  svg.append(el("title", {}, `${points.o} empty points, ${points.R} red and ${points.B} blue stones around them`));
  return svg;
}

function banText(banned) {
  if (!banned) return "not BAD";
  if (banned === "RB") return "BAD: both banned";
  return `BAD: ${banned === "R" ? "Red" : "Blue"} banned`;
}

function item(entry, caption) {
  const li = document.createElement("li");
  li.append(drawConfiguration(entry.drawing));
  const span = document.createElement("span");
  span.textContent = caption;
  li.append(span);
  return li;
}

// A table of counts: a header row, then one row a line, the first cell naming it. Each cell also
// carries its column's header (data-label), shown beside the number where a narrow screen stacks
// the rows (nd-areas.css); the explicit roles keep it a table for screen readers in either layout.
function table(node, head, rows) {
  node.setAttribute("role", "table");
  const thead = document.createElement("thead");
  const tbody = document.createElement("tbody");
  for (const part of [thead, tbody]) part.setAttribute("role", "rowgroup");
  const tr = document.createElement("tr");
  tr.setAttribute("role", "row");
  for (const h of head) {
    const th = document.createElement("th");
    th.scope = "col";
    th.setAttribute("role", "columnheader");
    th.textContent = h;
    tr.append(th);
  }
  thead.append(tr);
  for (const row of rows) {
    const r = document.createElement("tr");
    r.setAttribute("role", "row");
    row.forEach((v, i) => {
      const td = document.createElement(i === 0 ? "th" : "td");
      if (i === 0) td.scope = "row";
      td.setAttribute("role", i === 0 ? "rowheader" : "cell");
      td.dataset.label = head[i];
      td.textContent = typeof v === "number" ? v.toLocaleString("en") : String(v);
      r.append(td);
    });
    tbody.append(r);
  }
  node.replaceChildren(thead, tbody);
}

// A list shown PAGE items at a time.
function paged(list, button, entries, caption) {
  let shown = 0;
  const more = () => {
    for (const e of entries.slice(shown, shown + PAGE)) list.append(item(e, caption(e)));
    shown = Math.min(entries.length, shown + PAGE);
    button.hidden = shown >= entries.length;
    button.textContent = `Show more (${(entries.length - shown).toLocaleString("en")} left)`;
  };
  list.replaceChildren();
  button.onclick = more;
  more();
}

function showExhaustive(ex) {
  const perK = Object.entries(ex.per_k);
  document.getElementById("exhaustive-intro").textContent =
    `Every connected area of 1 to ${ex.k_max} empty points, with every colouring of the points around it ` +
    "(a red or blue stone next to the area, also nothing at a corner) and every placement of the board's " +
    "edges, without a naked diagonal among the stones.";
  table(document.getElementById("exhaustive-table"),
    ["points", "shapes", "configurations", "without naked diagonal", "NDE", "NDE, not BAD", "minimal (up to symmetry)", "culprit not BAD"],
    perK.map(([k, r]) => [k, r.shapes, r.patterns, r.valid, r.nde, r.nde_not_bad, r.minimal, r.culprit_not_bad]));
  const odd = ex.entries.filter((e) => !e.culprit_bad);
  const oddList = document.getElementById("odd-areas");
  oddList.replaceChildren(...odd.map((e) => item(e, `${e.k} points, ${banText(e.banned)}`)));
  if (!odd.length) oddList.textContent = "None.";
  const select = /** @type {HTMLSelectElement} */ (document.getElementById("minimal-k"));
  const ks = [...new Set(ex.entries.filter((e) => e.minimal).map((e) => e.k))];
  select.replaceChildren(...ks.map((k) => new Option(String(k), String(k))));
  const showK = () => {
    const k = Number(select.value);
    paged(document.getElementById("minimal-areas"), document.getElementById("minimal-more"),
      ex.entries.filter((e) => e.minimal && e.k === k), (e) => banText(e.banned));
  };
  select.onchange = showK;
  if (ks.length) showK();
  document.getElementById("exhaustive").hidden = false;
}

function showSurvey(sv) {
  const boards = Object.entries(sv.per_board);
  document.getElementById("survey-intro").textContent =
    `${sv.positions.toLocaleString("en")} positions of games on ${boards.length} board sizes; in each, every ` +
    "placement that forms no naked diagonal but is illegal was asked which NDE areas it would leave." +
    (sv.configurations ? ` ${sv.configurations.toLocaleString("en")} configurations up to symmetry; listed ` +
      `below: ${sv.listed}.` : "");
  table(document.getElementById("survey-table"),
    ["board", "games", "positions", "candidates", "leave an NDE area", "NDE areas"],
    boards.map(([b, r]) => [b, r.games || 0, r.positions || 0, r.candidates || 0, r.leave_nde || 0, r.parts || 0]));
  paged(document.getElementById("survey-areas"), document.getElementById("survey-more"), sv.areas,
    (e) => `${e.count.toLocaleString("en")}×, ${e.k} points, ${banText(e.banned)}`);
  document.getElementById("survey").hidden = false;
}

async function main() {
  startFrame();
  const status = document.getElementById("areas-status");
  try {
    const response = await fetch(DATA);
    if (!response.ok) throw new Error(`${DATA}: ${response.status}`);
    const data = await response.json();
    if (data.game !== "naked-diagonal" || data.format !== 1) throw new Error(`${DATA}: not format 1`);
    showExhaustive(data.exhaustive);
    showSurvey(data.survey);
    status.textContent = "";
  } catch (err) {
    status.textContent = `The areas could not be loaded (${err.message}).`;
  }
  registerServiceWorker();
}

main();
