// Naked Diagonal's board, drawn on the shared board frame (grid.js): stones on the points of an
// N x N grid, the edges in their owners' colours (Red north and south, Blue west and east), a green
// dot on every point where the side to move may place, the last stone, the hint, a chosen point,
// the winning chain, and a ban drawn on the board: the naked diagonal a stone would form (its two
// stones and the two shared points), or the NDE area it would leave, outlined, BAD or not, with its
// culprit. The rules page draws its diagrams with it too.
import { BoardFrame, cellNames, shake, showBadge } from "./grid.js";
import { COLOUR } from "./words.js";

const SVG = "http://www.w3.org/2000/svg";
const EDGES = { n: "r", s: "r", w: "b", e: "b" };
const OWNS = { r: "north and south", b: "west and east" };

function svg(tag, attributes = {}, parent = null) {
  const el = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attributes)) el.setAttribute(key, String(value));
  if (parent) parent.append(el);
  return el;
}

export class NDBoard {
  /** @param {HTMLElement} root the element with role="grid" @param {number} n the board's side */
  constructor(root, n) {
    this.root = root;
    this.n = n;
    this.frame = new BoardFrame(root, { rows: n, cols: n, names: cellNames(n, n) });
    root.dataset.size = String(n);
    const edges = this.frame.layer("edges");
    for (const [side, colour] of Object.entries(EDGES)) {
      const edge = document.createElement("div");
      edge.className = `edge edge-${side}`;
      edge.dataset.colour = colour;
      edges.append(edge);
    }
    this.lines = svg("svg", { viewBox: `0 0 ${n} ${n}`, preserveAspectRatio: "none" });
    this.lines.classList.add("lines");
    this.lines.setAttribute("aria-hidden", "true");
    for (let i = 0; i < n; i++) {
      const at = i + 0.5;
      svg("line", { x1: 0.5, y1: at, x2: n - 0.5, y2: at }, this.lines);
      svg("line", { x1: at, y1: 0.5, x2: at, y2: n - 0.5 }, this.lines);
    }
    root.insertBefore(this.lines, this.frame.hits);
    this.pointLayer = this.frame.layer("points");
    this.points = this.frame.names.map((name, i) => {
      const point = document.createElement("div");
      point.className = "pt";
      point.dataset.point = name;
      point.innerHTML = '<span class="stone"></span><span class="dot"></span><span class="badge"></span>';
      this.frame.place(point, i);
      this.pointLayer.append(point);
      return point;
    });
    this.overlay = svg("svg", { viewBox: `0 0 ${n} ${n}`, preserveAspectRatio: "none" });
    this.overlay.classList.add("ban");
    this.overlay.setAttribute("aria-hidden", "true");
    root.insertBefore(this.overlay, this.frame.hits);
    this.tag = document.createElement("div");
    this.tag.className = "ban-tag";
    this.tag.hidden = true;
    this.frame.layer("ban-tag-layer").append(this.tag);
    this.ban = null;
    this.cursor = this.frame.names[Math.floor((n * n) / 2)];
  }

  point(name) {
    return this.points[this.frame.index(name)] || null;
  }

  /**
   * Draw a state of the Naked Diagonal service.
   * @param {object} st the state (points, legal, last, chain, turn, ply, over, winner)
   * @param {{canAct: boolean, marking: boolean, selected: string|null, hint: string|null,
   *   live: boolean, analysis?: object|null}} look
   */
  draw(st, look) {
    const names = this.frame.names;
    const legal = new Set(look.live && !st.over ? st.legal : []);
    const chain = new Set(st.chain);
    this.points.forEach((point, i) => {
      const name = names[i];
      const colour = st.points[i];
      point.dataset.colour = colour === "." ? "" : colour;
      const may = legal.has(name);
      point.classList.toggle("legal", may);
      point.classList.toggle("marked", may && look.marking && look.canAct);
      point.classList.toggle("last", name === st.last);
      point.classList.toggle("chosen", look.selected === name);
      point.classList.toggle("hint", look.hint === name);
      point.classList.toggle("chain", chain.has(name));
      point.classList.toggle("dim", chain.size > 0 && colour !== "." && !chain.has(name));
      if (look.selected === name || look.hint === name) point.dataset.ghost = st.turn;
      const a = look.analysis && may ? look.analysis[name] : null;
      showBadge(point.querySelector(".badge"), a, a && a.placements);
    });
    this.frame.cells.forEach((cell, i) => {
      const name = names[i];
      const may = look.canAct && legal.has(name);
      cell.tabIndex = name === this.cursor ? 0 : -1;
      cell.classList.toggle("legal", may);
      cell.setAttribute("aria-selected", String(look.selected === name));
      cell.setAttribute("aria-label", label(name, st.points[i], { may, look, st, chain }));
    });
    const n = this.n;
    const to = st.winner ? `${COLOUR[st.winner]} has won` : `${COLOUR[st.turn]} to move`;
    this.root.setAttribute("aria-label", `Board, ${n} by ${n}: Red owns north and south, Blue west and east; ${to}`);
    this.root.dataset.turn = st.turn;
    this.root.dataset.ply = String(st.ply);
    this.root.dataset.over = String(st.over);
    this.root.classList.toggle("finished", Boolean(st.winner));
  }

  // ----- the cursor (keyboard play) ------------------------------------------------------------

  /** Move the focus ring by ``[dr, dc]`` (it stays on the board) and give it the focus. */
  moveCursor([dr, dc]) {
    const i = this.frame.index(this.cursor);
    const r = Math.min(this.n - 1, Math.max(0, Math.floor(i / this.n) + dr));
    const c = Math.min(this.n - 1, Math.max(0, (i % this.n) + dc));
    this.setCursor(this.frame.names[r * this.n + c], true);
  }

  /** Put the roving focus on ``name`` (focusing it when ``focus``). */
  setCursor(name, focus = false) {
    if (this.frame.index(name) < 0) return;
    const before = this.frame.cell(this.cursor);
    if (before) before.tabIndex = -1;
    this.cursor = name;
    const cell = this.frame.cell(name);
    cell.tabIndex = 0;
    if (focus) cell.focus();
  }

  // ----- bans ----------------------------------------------------------------------------------

  /**
   * Draw why a stone may not go on ``ban.move`` (a reply of the service's "explain"): "naked" (the
   * diagonal, the partner, the shared points), "nde" (the area outlined, its culprit, BAD or not),
   * "clothed" (the rules page: a diagonal and the stone that clothes it), "occupied" (a shake).
   */
  showBan(ban) {
    this.clearBan();
    this.ban = ban;
    const at = this.point(ban.move);
    if (ban.kind === "occupied" || ban.kind === "over") {
      shake(at); // a short shake of the stone (or point)
      return;
    }
    this.root.dataset.ban = ban.kind === "nde" && ban.bad ? "bad" : ban.kind;
    if (ban.kind !== "clothed") {
      at.classList.add("ban-point");
      at.dataset.ghost = ban.colour;
    }
    if (ban.kind === "nde") this.drawArea(ban);
    else this.drawDiagonal(ban);
  }

  clearBan() {
    if (!this.ban) return;
    this.ban = null;
    delete this.root.dataset.ban;
    this.overlay.replaceChildren();
    this.tag.hidden = true;
    for (const point of this.pointLayer.querySelectorAll(".ban-point")) point.classList.remove("ban-point");
  }

  centre(name) {
    const i = this.frame.index(name);
    return [(i % this.n) + 0.5, Math.floor(i / this.n) + 0.5];
  }

  drawDiagonal(ban) {
    const [x1, y1] = this.centre(ban.move);
    const [x2, y2] = this.centre(ban.partner);
    svg("line", { x1, y1, x2, y2, class: "diagonal" }, this.overlay);
    svg("circle", { cx: x2, cy: y2, r: 0.44, class: "partner" }, this.overlay);
    for (const name of ban.shared) {
      const [cx, cy] = this.centre(name);
      const clothing = ban.kind === "clothed" && name === ban.clothing;
      svg("rect", { x: cx - 0.36, y: cy - 0.36, width: 0.72, height: 0.72, rx: 0.12, class: clothing ? "clothing" : "shared" }, this.overlay);
    }
  }

  drawArea(ban) {
    const inside = new Set(ban.area);
    const culprit = new Set(ban.culprit);
    let path = "";
    for (const name of ban.area) {
      const [cx, cy] = this.centre(name);
      const x = cx - 0.5;
      const y = cy - 0.5;
      svg("rect", { x, y, width: 1, height: 1, class: culprit.has(name) ? "culprit" : "area" }, this.overlay);
      // The outline: every side of the area's squares that no other square of it shares.
      const i = this.frame.index(name);
      const [r, c] = [Math.floor(i / this.n), i % this.n];
      const next = (dr, dc) => this.frame.names[(r + dr) * this.n + c + dc];
      const outside = (dr, dc) => r + dr < 0 || r + dr >= this.n || c + dc < 0 || c + dc >= this.n || !inside.has(next(dr, dc));
      if (outside(-1, 0)) path += `M${x} ${y}h1`;
      if (outside(1, 0)) path += `M${x} ${y + 1}h1`;
      if (outside(0, -1)) path += `M${x} ${y}v1`;
      if (outside(0, 1)) path += `M${x + 1} ${y}v1`;
    }
    svg("path", { d: path, class: "outline" }, this.overlay);
    const first = this.frame.index(ban.culprit[0]);
    this.tag.textContent = ban.bad ? "BAD" : "NDE";
    this.tag.dataset.kind = ban.bad ? "bad" : "nde";
    this.frame.place(this.tag, first);
    this.tag.hidden = false;
  }

}

function label(name, colour, { may, look, st, chain }) {
  const parts = [name];
  if (colour === ".") {
    parts.push("empty");
    if (may) parts.push(`${COLOUR[st.turn]} may place`);
  } else {
    parts.push(`${COLOUR[colour].toLowerCase()} stone`);
    if (name === st.last) parts.push("placed last");
    if (chain.has(name)) parts.push(`in the chain that joins ${OWNS[colour]}`);
  }
  if (look.selected === name) parts.push("chosen, press again to place");
  if (look.hint === name) parts.push("hint");
  const a = look.analysis && may ? look.analysis[name] : null;
  if (a) parts.push(`${a.result === "win" ? "wins" : "loses"} in ${a.placements} ${a.placements === 1 ? "placement" : "placements"} with perfect play`);
  return parts.join(", ");
}

/** The state of a position's text, for a board that only shows it (the rules page's diagrams). */
export function stateOf(text) {
  const [rows, turn] = text.trim().split(/\s+/);
  const points = [...rows.replaceAll("/", "")].map((c) => (c === "." ? "." : c.toLowerCase()));
  return { points, legal: [], chain: [], last: null, turn, ply: 0, over: false, winner: null };
}
