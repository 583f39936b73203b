// The review of a game in the play pages' side panel (issue 36), for both games: each ply judged by
// the game's service from its tables (the "review" request, "nd_review" for Naked Diagonal), drawn as
// a chart, counted in a line, and written out in a table that a screen reader reads. Nothing here
// knows a game's rules: the rows come from the service, the page says when to show them.
//
// The chart: x is the ply (0 the start), y Red's outcome with perfect play in the position after the
// ply: above the middle line Red wins, below it Blue wins, and the farther from the line, the sooner
// the game ends (the edge itself is the end). A finished game therefore ends on the winner's edge, a
// mistake is the line crossing the middle, and a slow or hastened game shows as the line drifting
// towards or away from the line. GamesmanUni puts the remoteness itself on the axis, so a game ends
// on the middle line and a decided game looks the same as an open one; here the picture of a game
// reads from left to right as a story that ends on the winner's side. Every point is coloured by the
// side that wins there and shaped by the verdict on its ply (a disc for a best or good move, a hollow
// triangle for an inaccuracy, a large outlined diamond for a mistake), so neither colour nor shape
// alone carries the meaning; the ply shown on the board gets a ring and a vertical line.
//
// Keyboard: the chart is one focusable slider (role "slider"): the arrows and Home / End move the
// selection over the plies (read out as the slider's value), Enter or Space shows the selected ply,
// as the review bar's buttons do; a click or tap anywhere on the chart shows the nearest ply.
import { COLOUR, count } from "./words.js";

const SVG = "http://www.w3.org/2000/svg";
/** The chart's own units (its viewBox): it is scaled to the panel's width. */
const W = 320;
const H = 150;
const LEFT = 12;
const RIGHT = 12;
const TOP = 22;
const BOTTOM = 22;
const MID = TOP + (H - TOP - BOTTOM) / 2;
const HALF = (H - TOP - BOTTOM) / 2;
const SIDES = { red: "r", blue: "b" };
/** The mark after a move in the move list, and its words. */
export const MARKS = { mistake: "?", inaccuracy: "?!" };
/** The slider's own keys: keys.js leaves them to it while it has the focus. */
const KEYS = "ArrowLeft ArrowRight ArrowUp ArrowDown Home End Enter Space";
/** The reviews kept, the latest ones (a review is asked for once per game). */
const KEEP = 8;

const flip = (outcome) => (outcome === "win" ? "loss" : "win");

/**
 * Red's outcome and distance to the end with perfect play in the position after each ply (index 0:
 * the start), from a review's rows: each ply's ``before`` is the mover's result in the position the
 * previous ply left; the last position's is the last row's ``after`` less the move (a skipped turn
 * places nothing and counts nothing).
 * @param {object[]} rows the review's ``plies``
 * @returns {{outcome: string, distance: number}[]} one more than there are rows
 */
export function redLine(rows) {
  const red = (row, result) => ({
    outcome: row.mover === "red" ? result.outcome : flip(result.outcome),
    distance: result.distance,
  });
  const line = rows.map((row) => red(row, row.before));
  const last = rows.at(-1);
  const counted = last.move === "skip" ? 0 : 1;
  line.push(red(last, { outcome: last.after.outcome, distance: Math.max(0, last.after.distance - counted) }));
  return line;
}

/**
 * One side's accuracy from a review's summary: "Red accuracy: 94.1% result, 87.5% distance", the share
 * of its moves that kept its result with perfect play, and of those the share that kept the distance
 * (the service's numbers: unitile_py/review.py, ``accuracy``).
 */
export function accuracyText(summary, side) {
  const a = summary[side].accuracy;
  const name = side === "red" ? "Red" : "Blue";
  const pct = (share) => (share === null ? "–" : `${share}%`);
  return a.moves ? `${name} accuracy: ${pct(a.result)} result, ${pct(a.distance)} distance` : `${name} accuracy: no moves`;
}

/** "Mistakes: Red 1, Blue 0." (or "No mistakes.") from a review's summary. */
export function mistakesText(summary) {
  const [red, blue] = [summary.red.mistakes, summary.blue.mistakes];
  return red + blue ? `Mistakes: Red ${red}, Blue ${blue}.` : "No mistakes.";
}

function svg(name, attrs, parent) {
  const el = document.createElementNS(SVG, name);
  for (const [key, value] of Object.entries(attrs)) el.setAttribute(key, String(value));
  if (parent) parent.append(el);
  return el;
}

function html(name, attrs = {}, text = "") {
  const el = document.createElement(name);
  for (const [key, value] of Object.entries(attrs)) el.setAttribute(key, String(value));
  if (text) el.textContent = text;
  return el;
}

/** A point's shape at (x, y): a disc, a triangle (inaccuracy) or a diamond (mistake). */
function shape(verdict, x, y, attrs, parent) {
  if (verdict === "mistake") {
    return svg("polygon", { points: `${x},${y - 7} ${x + 7},${y} ${x},${y + 7} ${x - 7},${y}`, ...attrs }, parent);
  }
  if (verdict === "inaccuracy") {
    return svg("polygon", { points: `${x},${y - 5.5} ${x + 5},${y + 3.5} ${x - 5},${y + 3.5}`, ...attrs }, parent);
  }
  return svg("circle", { cx: x, cy: y, r: 3.5, ...attrs }, parent);
}

export class ReviewPanel {
  /**
   * @param {HTMLElement} card the panel's section (its heading inside); the rest is built here
   * @param {{request: (game: object) => Promise<object>, pick: (ply: number) => void,
   *   changed: () => void, unit: string[]}} hooks ``request`` asks the service for a game's review,
   *   ``pick`` shows a ply (as the review bar does), ``changed`` is called when a review arrives for
   *   the game shown, ``unit`` the distances' word in one and many ("ply", "plies")
   */
  constructor(card, { request, pick, changed, unit }) {
    this.card = card;
    this.request = request;
    this.pick = pick;
    this.changed = changed;
    this.unit = unit;
    this.cache = new Map(); // game key -> {review} | {note} | {pending: true}
    this.key = null; // the game shown
    this.current = null; // the ply shown on the board
    this.selected = 0; // the slider's ply
    this.drawn = null; // what the chart was last drawn from
    this.summary = html("p", { class: "rc-summary", id: "review-summary" });
    this.slider = html("div", {
      class: "rc-slider",
      role: "slider",
      tabindex: "0",
      "aria-label": "Review chart: choose a ply, Enter shows it",
      "aria-describedby": "review-summary",
      "data-keys": KEYS,
    });
    this.accuracy = html("p", {
      class: "rc-accuracy",
      id: "review-accuracy",
      title: "Of each side's moves, the share that kept its result with perfect play; of those, the share that kept the distance (the fastest win or the slowest loss)",
    });
    this.legend = html("p", { class: "rc-legend" });
    // A table is as wide as its text whatever its width: hidden in a box that is not.
    const hidden = html("div", { class: "visually-hidden" });
    this.table = html("table", { id: "review-table" });
    hidden.append(this.table);
    this.fillLegend();
    card.append(this.summary, this.accuracy, this.slider, this.legend, hidden);
    this.slider.addEventListener("keydown", (event) => this.onKey(event));
    this.slider.addEventListener("click", (event) => this.click(event));
  }

  /**
   * Called on every draw of the page: show the review of ``game`` when ``show`` (a note instead when
   * ``note`` says why there is none), asking the service once per game. Returns the review of
   * ``game`` once it is known (for the marks in the move list), else null.
   * @param {{game: object, show: boolean, note: string|null, current: number}} view ``current`` is
   *   the ply shown on the board
   */
  update({ game, show, note, current }) {
    const key = JSON.stringify({ size: game.size ?? null, start: game.start || null, moves: game.moves });
    if (key !== this.key) this.current = null; // another game: the selection starts at the ply shown
    this.key = key;
    this.card.hidden = !show;
    if (!show) return this.reviewOf(key);
    if (!note && !this.cache.has(key)) this.ask(key, game);
    const entry = note ? { note } : this.cache.get(key);
    this.card.setAttribute("aria-busy", String(Boolean(entry.pending)));
    if (entry.pending) {
      this.showNote("Reviewing…");
      return null;
    }
    if (entry.note) {
      this.showNote(entry.note);
      return null;
    }
    if (current !== this.current) this.selected = current;
    this.current = current;
    this.draw(key, entry.review);
    return entry.review;
  }

  /** The review of the game shown, if it is known. */
  reviewOf(key = this.key) {
    const entry = this.cache.get(key);
    return entry && entry.review ? entry.review : null;
  }

  ask(key, game) {
    this.cache.set(key, { pending: true });
    while (this.cache.size > KEEP) this.cache.delete(this.cache.keys().next().value);
    this.request(game).then(
      (review) => this.arrived(key, { review }),
      (error) => {
        const text = String(error && error.message ? error.message : error);
        this.arrived(key, { note: `No review: ${text.replace(/^review: /, "")}.` });
      },
    );
  }

  arrived(key, entry) {
    this.cache.set(key, entry);
    if (key === this.key) this.changed();
  }

  showNote(text) {
    this.summary.textContent = text;
    this.accuracy.hidden = true;
    this.slider.hidden = true;
    this.legend.hidden = true;
    this.table.replaceChildren();
    this.drawn = null;
  }

  // ----- drawing ---------------------------------------------------------------------------------

  draw(key, review) {
    const rows = review.plies;
    this.slider.hidden = rows.length === 0;
    this.legend.hidden = rows.length === 0;
    this.accuracy.hidden = rows.length === 0;
    const s = review.summary;
    const side = (name) => `${count(s[name].mistakes, "mistake", "mistakes")}, ${count(s[name].inaccuracies, "inaccuracy", "inaccuracies")}`;
    if (!rows.length) {
      this.summary.textContent = "No moves to review.";
      return;
    }
    const [red, blue] = [`Red: ${side("red")};`, `Blue: ${side("blue")}`];
    if (this.summary.textContent !== `${red} ${blue}`) {
      this.summary.replaceChildren(html("span", { class: "rc-side" }, red), " ", html("span", { class: "rc-side" }, blue));
    }
    const [redAcc, blueAcc] = [accuracyText(s, "red"), accuracyText(s, "blue")];
    if (this.accuracy.textContent !== `${redAcc}; ${blueAcc}`) {
      this.accuracy.replaceChildren(html("span", { class: "rc-side" }, `${redAcc};`), " ", html("span", { class: "rc-side" }, blueAcc));
    }
    const at = `${key} ${this.current} ${this.selected}`;
    if (this.drawn !== at) {
      this.drawChart(rows);
      if (!this.drawn || !this.drawn.startsWith(`${key} `)) this.fillTable(rows);
      this.drawn = at;
    }
    this.describe(rows);
  }

  x(k, n) {
    return LEFT + (k * (W - LEFT - RIGHT)) / n;
  }

  drawChart(rows) {
    const n = rows.length;
    const line = redLine(rows);
    const far = Math.max(1, ...line.map((v) => v.distance));
    const y = (v) => MID - (v.outcome === "win" ? 1 : -1) * ((far + 1 - v.distance) / (far + 1)) * HALF;
    const chart = svg("svg", { viewBox: `0 0 ${W} ${H}`, class: "rc-chart", "aria-hidden": "true", focusable: "false" });
    svg("rect", { x: 0, y: 0, width: W, height: H, class: "rc-bg" }, chart);
    svg("line", { x1: LEFT, x2: W - RIGHT, y1: MID, y2: MID, class: "rc-mid" }, chart);
    svg("text", { x: LEFT - 6, y: 14, class: "rc-label rc-r" }, chart).textContent = "Red wins";
    svg("text", { x: LEFT - 6, y: H - 5, class: "rc-label rc-b" }, chart).textContent = "Blue wins";
    const cur = Math.min(n, Math.max(0, this.current));
    svg("line", { x1: this.x(cur, n), x2: this.x(cur, n), y1: TOP - 6, y2: H - BOTTOM + 6, class: "rc-now" }, chart);
    const points = line.map((v, k) => `${this.x(k, n).toFixed(1)},${y(v).toFixed(1)}`);
    svg("polyline", { points: points.join(" "), class: "rc-path" }, chart);
    svg("circle", { cx: this.x(0, n), cy: y(line[0]), r: 2.5, class: "rc-start", "data-ply": 0 }, chart);
    rows.forEach((row, i) => {
      const v = line[i + 1];
      const classes = `rc-pt rc-${v.outcome === "win" ? "r" : "b"} rc-${row.verdict}`;
      const el = shape(row.verdict, this.x(i + 1, n), y(v), { class: classes, "data-ply": i + 1, "data-verdict": row.verdict }, chart);
      svg("title", {}, el).textContent = this.plyWords(rows, line, i + 1);
    });
    svg("circle", { cx: this.x(cur, n), cy: y(line[cur]), r: 9.5, class: "rc-ring" }, chart);
    const sel = Math.min(n, Math.max(0, this.selected));
    svg("circle", { cx: this.x(sel, n), cy: y(line[sel]), r: 12, class: "rc-sel" }, chart);
    this.slider.replaceChildren(chart);
  }

  /** The slider's value in words. */
  describe(rows) {
    const n = rows.length;
    const line = redLine(rows);
    this.slider.setAttribute("aria-valuemin", "0");
    this.slider.setAttribute("aria-valuemax", String(n));
    this.slider.setAttribute("aria-valuenow", String(this.selected));
    this.slider.setAttribute("aria-valuetext", this.plyWords(rows, line, this.selected));
  }

  /** "Ply 2 of 16: Blue b4, mistake. Then Red wins in 26 plies." */
  plyWords(rows, line, k) {
    const v = line[k];
    const winner = v.outcome === "win" ? "Red" : "Blue";
    const then = v.distance === 0 ? `${winner} has won` : `${winner} wins in ${count(v.distance, ...this.unit)}`;
    if (k === 0) return `The start: ${then} with perfect play.`;
    const row = rows[k - 1];
    return `Ply ${k} of ${rows.length}: ${COLOUR[SIDES[row.mover]]} ${row.move}, ${row.verdict}. Then ${then}.`;
  }

  /** The text equivalent: one row a ply, the mover's result before and after the move. */
  fillTable(rows) {
    const result = (r) => `${r.outcome} in ${count(r.distance, ...this.unit)}`;
    const caption = html("caption", {}, `Review, ply by ply: each move's result for its mover with perfect play, before and after it`);
    const head = html("tr");
    for (const name of ["Ply", "Move", "Mover", "Before", "After", "Verdict"]) head.append(html("th", { scope: "col" }, name));
    const body = html("tbody");
    for (const row of rows) {
      const tr = html("tr");
      const cells = [row.ply, row.move, COLOUR[SIDES[row.mover]], result(row.before), result(row.after), row.verdict];
      cells.forEach((text, i) => tr.append(html(i === 0 ? "th" : "td", i === 0 ? { scope: "row" } : {}, String(text))));
      body.append(tr);
    }
    const thead = html("thead");
    thead.append(head);
    this.table.replaceChildren(caption, thead, body);
  }

  fillLegend() {
    const item = (verdict, cls, words) => {
      const span = html("span", { class: "rc-key" });
      const icon = svg("svg", { viewBox: "-8 -8 16 16", class: "rc-icon", "aria-hidden": "true", focusable: "false" });
      shape(verdict, 0, 0, { class: `rc-pt ${cls} rc-${verdict}` }, icon);
      span.append(icon, words);
      return span;
    };
    const line = html("span", { class: "rc-axis" }, "Above the line Red wins with perfect play, below it Blue; the farther from it, the sooner.");
    this.legend.append(item("best", "rc-r", "move"), item("inaccuracy", "rc-r", "inaccuracy ?!"), item("mistake", "rc-r", "mistake ?"), line);
  }

  // ----- keys and taps ---------------------------------------------------------------------------

  select(k) {
    const rows = this.reviewOf()?.plies;
    if (!rows || !rows.length) return;
    this.selected = Math.min(rows.length, Math.max(0, k));
    this.draw(this.key, this.reviewOf());
  }

  onKey(event) {
    const rows = this.reviewOf()?.plies;
    if (!rows || event.ctrlKey || event.metaKey || event.altKey) return;
    const moves = { ArrowLeft: -1, ArrowDown: -1, ArrowRight: 1, ArrowUp: 1 };
    if (event.key in moves) this.select(this.selected + moves[event.key]);
    else if (event.key === "Home") this.select(0);
    else if (event.key === "End") this.select(rows.length);
    else if (event.key === "Enter" || event.key === " ") this.pick(this.selected);
    else return;
    event.preventDefault();
  }

  click(event) {
    const rows = this.reviewOf()?.plies;
    const chart = this.slider.querySelector("svg");
    if (!rows || !rows.length || !chart) return;
    const on = event.target instanceof Element ? event.target.closest("[data-ply]") : null;
    let k;
    if (on) k = Number(on.dataset.ply);
    else {
      const box = chart.getBoundingClientRect();
      const x = ((event.clientX - box.left) * W) / box.width;
      k = Math.round(((x - LEFT) * rows.length) / (W - LEFT - RIGHT));
    }
    this.selected = Math.min(rows.length, Math.max(0, k));
    this.pick(this.selected);
  }
}
