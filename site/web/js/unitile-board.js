// Unitile's board: sliding tiles drawn on the shared board frame (grid.js). It draws what it is
// given (a webapi state and how to show it) and keeps the tile elements, so a slide glides.
import { BoardFrame, shake, showBadge } from "./grid.js";
import { COLOUR } from "./words.js";

export class UnitileBoard {
  /** @param {HTMLElement} root @param {{board: {rows: number, cols: number}, names: string[]}} info */
  constructor(root, info) {
    this.root = root;
    this.frame = new BoardFrame(root, { rows: info.board.rows, cols: info.board.cols, names: info.names });
    this.tiles = this.frame.layer("tiles");
    this.ghost = this.frame.layer("ghost");
    this.ghost.hidden = true;
    this.tileAt = [];
    this.drawn = null;
    for (let i = 0; i < info.names.length - 1; i++) this.newTile();
  }

  newTile() {
    const tile = document.createElement("div");
    tile.className = "tile";
    tile.innerHTML = '<span class="face"></span><span class="dot"></span><span class="badge"></span>';
    this.tiles.append(tile);
    return tile;
  }

  cell(name) {
    return this.frame.cell(name);
  }

  tile(name) {
    return this.tileAt[this.frame.index(name)] || null;
  }

  /** Every tile on its cell; a position being set up (setup.js) may hold more or fewer tiles than a
   * game's, so tiles are added or hidden. */
  layoutAll(cells) {
    const free = /** @type {HTMLElement[]} */ ([...this.tiles.children]);
    this.tileAt = cells.map((colour, i) => {
      if (colour === ".") return null;
      const tile = free.pop() || this.newTile();
      tile.hidden = false;
      tile.dataset.colour = colour;
      this.frame.place(tile, i);
      return tile;
    });
    for (const tile of free) {
      tile.hidden = true;
      delete tile.dataset.cell;
    }
  }

  /** Move the tile elements to the cells of ``cells``; one slide (either way) glides. */
  arrange(cells) {
    const drawn = this.drawn;
    const changed = drawn ? cells.filter((c, i) => c !== drawn[i]).length : -1;
    const oldBubble = drawn ? drawn.indexOf(".") : -1;
    const newBubble = cells.indexOf(".");
    if (changed === 2 && oldBubble >= 0 && newBubble >= 0 && cells[oldBubble] === drawn[newBubble]) {
      const tile = this.tileAt[newBubble];
      this.tileAt[oldBubble] = tile;
      this.tileAt[newBubble] = null;
      this.frame.place(tile, oldBubble);
    } else if (changed !== 0) {
      this.root.classList.add("instant");
      this.layoutAll(cells);
      void this.root.offsetWidth; // apply the positions before transitions return
      this.root.classList.remove("instant");
    }
    this.drawn = cells.slice();
  }

  /**
   * Draw a state of webapi.
   * @param {object} st the state
   * @param {{canAct: boolean, marking: boolean, selected: string|null, hint: string|null,
   *   analysis: object|null, live: boolean}} look
   */
  draw(st, look) {
    const names = this.frame.names;
    this.arrange(st.cells);
    const legal = new Set(look.live && !st.over ? st.legal : []);
    const lastTo = st.last ? this.frame.index(st.last.to) : -1;
    const uniting = new Set(st.uniting);
    this.tileAt.forEach((tile, i) => {
      if (!tile) return;
      const name = names[i];
      const isLegal = legal.has(name);
      tile.dataset.cell = name;
      tile.classList.toggle("legal", isLegal);
      tile.classList.toggle("marked", isLegal && look.marking && look.canAct);
      tile.classList.toggle("last", i === lastTo);
      tile.classList.toggle("selected", look.selected === name);
      tile.classList.toggle("hint", look.hint === name);
      tile.classList.toggle("uniting", uniting.has(name));
      tile.classList.toggle("dim", uniting.size > 0 && !uniting.has(name));
      const a = look.analysis && isLegal ? look.analysis[name] : null;
      showBadge(tile.querySelector(".badge"), a, a && a.plies);
    });
    /** @type {NodeListOf<HTMLElement>} */ (this.frame.squares.childNodes).forEach((square, i) => square.classList.toggle("bubble", st.cells[i] === "."));
    this.frame.cells.forEach((cell, i) => {
      const name = names[i];
      const colour = st.cells[i];
      const may = look.canAct && legal.has(name);
      cell.tabIndex = may ? 0 : -1;
      cell.classList.toggle("legal", may);
      cell.setAttribute("aria-selected", String(look.selected === name));
      cell.setAttribute("aria-label", label(name, colour, { may, look, lastTo: i === lastTo, uniting }));
    });
    const chosen = look.selected ? st.cells[this.frame.index(look.selected)] : null;
    this.ghost.hidden = !chosen;
    if (chosen) {
      this.ghost.dataset.colour = chosen;
      this.frame.place(this.ghost, st.cells.indexOf("."));
    }
    this.root.setAttribute("aria-label", `Board, ${this.frame.rows} by ${this.frame.cols}, empty cell ${st.bubble}`);
    this.root.dataset.turn = st.turn;
    this.root.dataset.ply = String(st.ply);
    this.root.dataset.over = String(st.over);
    this.root.classList.toggle("finished", Boolean(st.winner));
  }

  /** A short shake of the tile on ``name`` (or the empty cell): it may not slide. */
  refuse(name) {
    shake(this.tile(name) || this.frame.squares.childNodes[this.frame.index(name)]);
  }
}

function label(name, colour, { may, look, lastTo, uniting }) {
  if (colour === ".") return `${name}, empty cell`;
  const parts = [`${name}, ${COLOUR[colour].toLowerCase()} tile`];
  if (may) parts.push("can slide");
  if (lastTo) parts.push("slid last");
  if (look.selected === name) parts.push("chosen, press again to slide");
  if (look.hint === name) parts.push("hint");
  const a = look.analysis && may ? look.analysis[name] : null;
  if (a) parts.push(`${a.result === "win" ? "wins" : "loses"} in ${a.plies} plies with perfect play`);
  if (uniting.has(name)) parts.push("united");
  return parts.join(", ");
}
