// The board frame any game's page can use: a role="grid" of rows and cells in reading order (a5, b5,
// ..., e1 on 5x5), so the tab order and the accessibility tree follow the board, with the file and
// rank coordinates around it. What stands on the cells is drawn by the game in layers under the grid
// (hidden from assistive technology); the grid cells on top take the taps, the focus and the labels.

/** The usual cell names in reading order: files a, b, ... from the left, ranks from the top down. */
export function cellNames(rows, cols) {
  const names = [];
  for (let r = rows; r >= 1; r--) {
    for (let c = 0; c < cols; c++) names.push(`${String.fromCharCode(97 + c)}${r}`);
  }
  return names;
}

/** A short shake of ``el`` (a piece that may not move there; the message says why). */
export function shake(el) {
  if (!el) return;
  el.classList.remove("refused");
  void el.offsetWidth; // restart the animation
  el.classList.add("refused");
  el.addEventListener("animationend", () => el.classList.remove("refused"), { once: true });
}

/**
 * A cell's analysis badge: "W" or "L" and the moves to the end with perfect play, or nothing.
 * @param {HTMLElement} badge
 * @param {{result: string} | null} analysis the mover's result after the move, or null for none
 * @param {number} [moves] the moves to the end (the game's unit: plies, placements)
 */
export function showBadge(badge, analysis, moves) {
  badge.textContent = analysis ? `${analysis.result === "win" ? "W" : "L"}${moves}` : "";
  badge.className = analysis ? `badge ${analysis.result}` : "badge";
}

export class BoardFrame {
  /**
   * @param {HTMLElement} root the element with role="grid"
   * @param {{rows: number, cols: number, names: string[]}} board cell names in reading order
   */
  constructor(root, { rows, cols, names }) {
    this.root = root;
    this.rows = rows;
    this.cols = cols;
    this.names = names;
    root.replaceChildren();
    root.style.setProperty("--rows", String(rows));
    root.style.setProperty("--cols", String(cols));
    this.squares = this.layer("cells");
    for (let i = 0; i < rows * cols; i++) {
      const square = document.createElement("div");
      square.className = "cell";
      this.place(square, i);
      this.squares.append(square);
    }
    this.hits = document.createElement("div");
    this.hits.className = "hits";
    this.hits.setAttribute("role", "none");
    this.cells = [];
    for (let r = 0; r < rows; r++) {
      const row = document.createElement("div");
      row.className = "grid-row";
      row.setAttribute("role", "row");
      row.style.setProperty("--r", String(r));
      for (let c = 0; c < cols; c++) {
        const cell = document.createElement("div");
        cell.className = "spot";
        cell.setAttribute("role", "gridcell");
        cell.dataset.cell = names[r * cols + c];
        cell.style.setProperty("--c", String(c));
        cell.tabIndex = -1;
        row.append(cell);
        this.cells.push(cell);
      }
      this.hits.append(row);
    }
    root.append(this.hits);
    root.append(this.coords("files", names.slice(0, cols).map((n) => n.replace(/\d+$/, ""))));
    root.append(this.coords("ranks", names.filter((_, i) => i % cols === 0).map((n) => n.replace(/^\D+/, ""))));
  }

  /** A new drawing layer under the grid cells, hidden from assistive technology. */
  layer(className) {
    const el = document.createElement("div");
    el.className = className;
    el.setAttribute("aria-hidden", "true");
    if (this.hits) this.root.insertBefore(el, this.hits);
    else this.root.append(el);
    return el;
  }

  coords(kind, labels) {
    const el = document.createElement("div");
    el.className = `coords coords-${kind}`;
    el.setAttribute("aria-hidden", "true");
    for (const label of labels) {
      const span = document.createElement("span");
      span.textContent = label;
      el.append(span);
    }
    return el;
  }

  /** Put a layer's element on cell ``index`` (reading order). */
  place(el, index) {
    el.style.setProperty("--r", Math.floor(index / this.cols));
    el.style.setProperty("--c", index % this.cols);
  }

  index(name) {
    return this.names.indexOf(name);
  }

  cell(name) {
    return this.cells[this.index(name)] || null;
  }

  /** The cell next to ``name`` by ``[dr, dc]``, or null off the board. */
  neighbour(name, [dr, dc]) {
    const i = this.index(name);
    const r = Math.floor(i / this.cols) + dr;
    const c = (i % this.cols) + dc;
    if (i < 0 || r < 0 || r >= this.rows || c < 0 || c >= this.cols) return null;
    return this.names[r * this.cols + c];
  }

  /** ``listener(name)`` when a cell is tapped or clicked. */
  onActivate(listener) {
    this.hits.addEventListener("click", (event) => {
      /** @type {HTMLElement | null} */
      const cell = /** @type {Element} */ (event.target).closest(".spot");
      if (cell) listener(cell.dataset.cell);
    });
  }
}
