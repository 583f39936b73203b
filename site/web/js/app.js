// The game page: draws the board and forwards input. All game logic runs in Python (unitile_py) in
// js/worker.js; this file keeps the game as a list of moves, which also lives in the URL fragment.
import { registerServiceWorker } from "./sw-client.js";

const $ = (id) => document.getElementById(id);
const COLOUR = { r: "Red", b: "Blue" };
const SETTINGS_KEY = "unitile.settings.v1";
const DEFAULTS = { r: "human", b: "3", pace: "600", marking: true, confirm: false, analysis: false };

// ----- worker RPC ------------------------------------------------------------------------------

class UserError extends Error {}

const worker = new Worker(new URL("./worker.js", import.meta.url), { type: "module" });
const pending = new Map();
let nextId = 1;

function call(op, args = {}) {
  return new Promise((resolve, reject) => {
    const id = nextId++;
    pending.set(id, { resolve, reject, op });
    worker.postMessage({ id, op, args });
  });
}

worker.addEventListener("message", (event) => {
  const data = event.data;
  if (data.type === "progress") {
    $("loading-text").textContent = data.text;
  } else if (data.type === "ready") {
    booted(data);
  } else if (data.type === "failed") {
    bootFailed(data.error);
  } else if (data.type === "reply") {
    const waiter = pending.get(data.id);
    pending.delete(data.id);
    if (!waiter) return;
    if (data.ok) {
      timings.calls.push({ op: waiter.op, ms: data.ms });
      if (timings.calls.length > 200) timings.calls.shift();
      waiter.resolve(data.result);
    } else {
      waiter.reject(new UserError(data.error));
    }
  }
});
worker.addEventListener("error", (event) => bootFailed(event.message || "the worker could not start"));

// ----- state -----------------------------------------------------------------------------------

const S = {
  info: null,
  ready: false,
  game: { start: null, moves: [] },
  state: null, // what is drawn now (a reply of webapi "state")
  view: null, // ply under review in a finished game, or null for the latest position
  selected: null, // tile chosen with Confirm moves on
  hint: null,
  paused: false,
  thinking: false,
  busy: false,
  gen: 0, // bumps whenever the game changes, so late replies are ignored
  seed: initialSeed(),
  lastMoveAt: 0,
  settings: loadSettings(),
};
const timings = { script: performance.now(), calls: [] };
// For the browser tests and the benchmark: the page state and how many worker requests are open.
window.unitile = { S, timings, call, pendingCount: () => pending.size + (S.thinking ? 1 : 0) };

function initialSeed() {
  const fromUrl = new URLSearchParams(location.search).get("seed");
  if (fromUrl !== null && /^\d+$/.test(fromUrl)) return Number(fromUrl);
  return crypto.getRandomValues(new Uint32Array(1))[0] >>> 1;
}

function loadSettings() {
  try {
    return { ...DEFAULTS, ...JSON.parse(localStorage.getItem(SETTINGS_KEY) || "{}") };
  } catch {
    return { ...DEFAULTS };
  }
}

function saveSettings() {
  try {
    localStorage.setItem(SETTINGS_KEY, JSON.stringify(S.settings));
  } catch {
    // Private browsing may refuse storage; the settings then last for this visit.
  }
}

const player = (colour) => S.settings[colour];
const isComputer = (colour) => player(colour) !== "human";
const humans = () => ["r", "b"].filter((c) => !isComputer(c));
const live = () => S.view === null;
const humansMove = () => S.ready && S.state && !S.state.over && live() && !isComputer(S.state.turn);
const humanTurn = () => humansMove() && !S.busy;
const playerName = (colour) =>
  isComputer(colour) ? `${COLOUR[colour]} (level ${player(colour)})` : COLOUR[colour];

// ----- board drawing ---------------------------------------------------------------------------

const boardEl = $("board");
const tilesEl = $("tiles");
const cellsEl = $("cells");
const ghostEl = $("ghost");
let rows = 5;
let cols = 5;
let names = [];
let tileAt = []; // tile element on each cell (null on the bubble)
let drawn = null; // cells of the drawn position

function buildBoard(info) {
  rows = info.board.rows;
  cols = info.board.cols;
  names = info.names;
  boardEl.style.setProperty("--rows", rows);
  boardEl.style.setProperty("--cols", cols);
  cellsEl.replaceChildren();
  for (let i = 0; i < rows * cols; i++) {
    const cell = document.createElement("div");
    cell.className = "cell";
    place(cell, i);
    cellsEl.append(cell);
  }
  tilesEl.replaceChildren();
  tileAt = new Array(rows * cols).fill(null);
  for (let i = 0; i < rows * cols - 1; i++) {
    const tile = document.createElement("button");
    tile.type = "button";
    tile.className = "tile";
    tile.tabIndex = -1;
    tile.innerHTML = '<span class="face"></span><span class="dot"></span><span class="badge"></span>';
    tilesEl.append(tile);
  }
}

function place(el, cell) {
  el.style.setProperty("--r", Math.floor(cell / cols));
  el.style.setProperty("--c", cell % cols);
}

function layoutAll(cells) {
  const free = [...tilesEl.children];
  tileAt = cells.map((colour, i) => {
    if (colour === ".") return null;
    const tile = free.pop();
    tile.dataset.colour = colour;
    place(tile, i);
    return tile;
  });
}

function draw(st) {
  const cells = st.cells;
  const index = (name) => names.indexOf(name);
  const changed = drawn ? cells.map((c, i) => c !== drawn[i]).reduce((n, d) => n + d, 0) : -1;
  const oldBubble = drawn ? drawn.indexOf(".") : -1;
  const newBubble = cells.indexOf(".");
  if (changed === 2 && cells[oldBubble] === drawn[newBubble]) {
    // One slide (forwards or back): move that tile's element so it glides.
    const tile = tileAt[newBubble];
    tileAt[oldBubble] = tile;
    tileAt[newBubble] = null;
    place(tile, oldBubble);
  } else if (changed !== 0) {
    boardEl.classList.add("instant");
    layoutAll(cells);
    void boardEl.offsetWidth; // apply the positions before transitions return
    boardEl.classList.remove("instant");
  }
  drawn = cells.slice();

  const legal = new Set(live() && !st.over ? st.legal : []);
  const canAct = humansMove();
  const lastTo = st.last ? index(st.last.to) : -1;
  const uniting = new Set(st.uniting);
  const analysis = S.settings.analysis && st.analysis ? st.analysis : null;
  // Dots are a help for the human to move; while a computer is to move they would only distract.
  const marking = S.settings.marking && canAct;
  tileAt.forEach((tile, i) => {
    if (!tile) return;
    const name = names[i];
    const isLegal = legal.has(name);
    tile.dataset.cell = name;
    tile.classList.toggle("legal", isLegal);
    tile.classList.toggle("marked", isLegal && marking);
    tile.classList.toggle("last", i === lastTo);
    tile.classList.toggle("selected", S.selected === name);
    tile.classList.toggle("hint", S.hint === name);
    tile.classList.toggle("uniting", uniting.has(name));
    tile.classList.toggle("dim", uniting.size > 0 && !uniting.has(name));
    tile.tabIndex = canAct && isLegal ? 0 : -1;
    tile.setAttribute("aria-disabled", canAct && isLegal ? "false" : "true");
    const badge = tile.querySelector(".badge");
    const a = analysis && isLegal ? analysis[name] : null;
    badge.textContent = a ? `${a.result === "win" ? "W" : "L"}${a.plies}` : "";
    badge.className = a ? `badge ${a.result}` : "badge";
    const parts = [`${name}, ${COLOUR[tile.dataset.colour].toLowerCase()} tile`];
    if (isLegal) parts.push("can slide");
    if (i === lastTo) parts.push("slid last");
    if (S.selected === name) parts.push("chosen, press again to slide");
    if (S.hint === name) parts.push("hint");
    if (a) parts.push(`${a.result === "win" ? "wins" : "loses"} in ${a.plies} plies with perfect play`);
    if (uniting.has(name)) parts.push("united");
    tile.setAttribute("aria-label", parts.join(", "));
  });
  [...cellsEl.children].forEach((cell, i) => cell.classList.toggle("bubble", cells[i] === "."));
  const selectedColour = S.selected ? cells[index(S.selected)] : null;
  ghostEl.hidden = !selectedColour;
  if (selectedColour) {
    ghostEl.dataset.colour = selectedColour;
    place(ghostEl, newBubble);
  }
  boardEl.setAttribute("aria-label", `Board, ${rows} by ${cols}, bubble on ${st.bubble}`);
  boardEl.dataset.turn = st.turn;
  boardEl.dataset.ply = String(st.ply);
  boardEl.dataset.over = String(st.over);
  boardEl.classList.toggle("finished", Boolean(st.winner));
}

function drawStatus() {
  const st = S.state;
  if (!st) return;
  $("groups-r").textContent = st.groups.r;
  $("groups-b").textContent = st.groups.b;
  $("groups-r-unit").textContent = st.groups.r === 1 ? "group" : "groups";
  $("groups-b-unit").textContent = st.groups.b === 1 ? "group" : "groups";
  const turn = $("turn");
  turn.dataset.colour = st.winner || st.turn;
  if (st.winner && live()) {
    turn.textContent = `${COLOUR[st.winner]} wins`;
  } else if (!live()) {
    turn.textContent = `Move ${st.ply} of ${st.plies}`;
  } else if (S.thinking) {
    turn.textContent = `${COLOUR[st.turn]} is thinking…`;
  } else if (S.paused && isComputer(st.turn)) {
    turn.textContent = "Paused";
  } else {
    turn.textContent = `${playerName(st.turn)} to move`;
  }
  turn.classList.toggle("thinking", S.thinking);
  boardEl.setAttribute("aria-busy", String(S.thinking || !S.ready));
  document.body.dataset.thinking = String(S.thinking);

  const over = st.over;
  $("btn-undo").disabled = !S.ready || !st.can_undo || !live();
  $("btn-undo").setAttribute("aria-disabled", String($("btn-undo").disabled));
  $("btn-hint").disabled = !humanTurn() || !S.info.players;
  $("btn-confirm").hidden = !S.settings.confirm;
  $("btn-confirm").disabled = !S.selected;
  const watching = isComputer("r") && isComputer("b");
  $("btn-pause").hidden = !watching || over;
  $("btn-pause").textContent = S.paused ? "Resume" : "Pause";
  $("btn-pause").setAttribute("aria-pressed", String(S.paused));

  const review = $("review");
  review.hidden = !over;
  if (over) {
    const ply = S.view === null ? st.plies : S.view;
    $("review-text").textContent = `Move ${ply} / ${st.plies}`;
    $("btn-first").disabled = $("btn-prev").disabled = ply === 0;
    $("btn-next").disabled = $("btn-last").disabled = ply === st.plies;
  }
  drawMoves();
}

function drawMoves() {
  const st = S.state;
  const list = $("moves");
  list.replaceChildren();
  const firstTurn = st.plies > 0 && S.game.start ? S.game.start.split(" ")[1] : "r";
  const current = S.view === null ? st.plies : S.view;
  let li = null;
  st.moves.forEach((move, i) => {
    const colour = (i % 2 === 0) === (firstTurn === "r") ? "r" : "b";
    if (!li || colour === firstTurn) {
      li = document.createElement("li");
      list.append(li);
    }
    const b = document.createElement("button");
    b.type = "button";
    b.className = `mv mv-${colour}`;
    b.textContent = move;
    b.dataset.ply = String(i + 1);
    b.disabled = !st.over;
    b.setAttribute("aria-label", `move ${i + 1}, ${COLOUR[colour]} ${move}`);
    if (i + 1 === current) b.setAttribute("aria-current", "step");
    li.append(b);
  });
  if (st.over) {
    const result = document.createElement("li");
    result.className = "result";
    result.textContent = st.result;
    list.append(result);
  }
  list.scrollTop = list.scrollHeight;
}

function setMessage(text, kind = "") {
  const m = $("message");
  m.textContent = text;
  m.dataset.kind = kind;
}

function announce(text) {
  $("announce").textContent = text;
}

// ----- game flow -------------------------------------------------------------------------------

async function refresh() {
  const gen = S.gen;
  const st = await call("state", {
    game: S.game,
    humans: humans(),
    ply: S.view,
    analysis: S.settings.analysis && S.info.tables,
  });
  if (gen !== S.gen) return;
  S.state = st;
  draw(st);
  drawStatus();
  if (st.over && live()) {
    const n = st.plies;
    setMessage(`${COLOUR[st.winner]} wins: every ${COLOUR[st.winner].toLowerCase()} tile is in one group after ${n} move${n === 1 ? "" : "s"}.`, `win-${st.winner}`);
  } else if (!live()) {
    setMessage("Use ← and → (or the buttons) to step through the game.");
  }
  if (!S.playable) {
    // The first drawn state: the board takes input from here on (a finished game has no slides).
    S.playable = true;
    timings.playable = performance.now(); // milliseconds since the navigation started
    performance.mark("unitile-playable");
    document.body.dataset.ready = "1";
  }
  scheduleComputer();
}

function fragmentOf(game) {
  const params = new URLSearchParams();
  if (game.start) params.set("p", game.start);
  if (game.moves.length) params.set("m", game.moves.join("."));
  const text = params.toString();
  return text ? `#${text}` : location.pathname + location.search;
}

function gameFromFragment() {
  const params = new URLSearchParams(location.hash.slice(1));
  const moves = (params.get("m") || "").split(".").filter(Boolean);
  return { start: params.get("p") || null, moves };
}

function remember(game, how) {
  const url = fragmentOf(game);
  if (how === "push") history.pushState(null, "", url);
  else history.replaceState(null, "", url);
}

function setGame(game, how) {
  stopThinking();
  setMessage("");
  S.gen++;
  S.game = game;
  S.selected = null;
  S.hint = null;
  S.view = null;
  S.lastMoveAt = performance.now();
  if (how) remember(game, how);
}

async function slide(move, byComputer) {
  const mover = S.state.turn;
  const from = move;
  const to = S.state.bubble;
  const game = await call("play", { game: S.game, move });
  setGame(game, byComputer && humans().length > 0 ? "replace" : "push");
  await refresh();
  const st = S.state;
  const [fr, fc] = [names.indexOf(from), names.indexOf(to)].map((i) => [Math.floor(i / cols), i % cols]);
  const dir = fr[0] === fc[0] ? (fc[1] > fr[1] ? "right" : "left") : fc[0] > fr[0] ? "down" : "up";
  let text = `${playerName(mover)} slides ${from} ${dir} to ${to}.`;
  if (st.winner) text += ` ${COLOUR[st.winner]} wins: all ${COLOUR[st.winner].toLowerCase()} tiles are united.`;
  else text += ` ${playerName(st.turn)} to move. Groups: red ${st.groups.r}, blue ${st.groups.b}.`;
  announce(text);
}

async function humanMove(move) {
  if (!humanTurn() || !S.state.legal.includes(move)) return;
  S.busy = true;
  try {
    await slide(move, false);
  } catch (error) {
    report(error);
  } finally {
    S.busy = false;
    drawStatus();
  }
}

function choose(move) {
  // A tap or key on a legal tile: slide now, or with Confirm moves on, choose first.
  if (!humanTurn()) return;
  if (!S.state.legal.includes(move)) {
    cancelChoice();
    return;
  }
  if (!S.settings.confirm || S.selected === move) {
    S.selected = null;
    humanMove(move);
    return;
  }
  S.selected = move;
  draw(S.state);
  drawStatus();
  announce(`${move} chosen. Press it again, or Enter, to slide it; Escape cancels.`);
}

function cancelChoice() {
  if (!S.selected) return false;
  S.selected = null;
  draw(S.state);
  drawStatus();
  announce("Choice cancelled.");
  return true;
}

function confirmChoice() {
  if (S.selected) choose(S.selected);
}

let computerTimer = null;
let thinkToken = 0;

function stopThinking() {
  clearTimeout(computerTimer);
  thinkToken++;
  S.thinking = false;
}

function scheduleComputer() {
  const st = S.state;
  if (!S.ready || !st || st.over || !live() || S.paused || S.thinking || !isComputer(st.turn)) return;
  if (!S.info.players) {
    setMessage("The computer players are not available in this build.", "error");
    return;
  }
  clearTimeout(computerTimer);
  const gen = S.gen;
  const token = ++thinkToken;
  S.thinking = true;
  drawStatus();
  const wait = Math.max(0, Number(S.settings.pace) - (performance.now() - S.lastMoveAt));
  computerTimer = setTimeout(() => computerMove(token, gen), wait);
}

async function computerMove(token, gen) {
  if (token !== thinkToken) return;
  const level = Number(player(S.state.turn));
  let move;
  try {
    move = await call("computer_move", { game: S.game, level, seed: S.seed });
  } catch (error) {
    if (token === thinkToken) {
      S.thinking = false;
      drawStatus();
      report(error);
    }
    return;
  }
  if (token !== thinkToken) return; // superseded: undo, new game, pause or a new line-up
  S.thinking = false;
  if (gen !== S.gen) {
    drawStatus();
    scheduleComputer();
    return;
  }
  try {
    await slide(move, true);
  } catch (error) {
    report(error);
  }
}

function report(error) {
  if (error instanceof UserError) {
    setMessage(error.message, "error");
  } else {
    console.error(error);
    setMessage(`Something went wrong: ${error.message || error}`, "error");
  }
}

async function undo() {
  if (cancelChoice()) return;
  if (!S.state || !S.state.can_undo || !live() || S.busy) return;
  S.busy = true;
  try {
    const game = await call("undo", { game: S.game, humans: humans() });
    setGame(game, "push");
    if (!humans().length) S.paused = true;
    await refresh();
    setMessage("");
    announce(`Move taken back. ${playerName(S.state.turn)} to move.`);
  } catch (error) {
    report(error);
  } finally {
    S.busy = false;
    drawStatus();
  }
}

function newGame() {
  const st = S.state;
  if (st && !st.over && st.plies > 0) {
    $("dlg-new").showModal();
    return;
  }
  startNewGame();
}

async function startNewGame() {
  S.seed = crypto.getRandomValues(new Uint32Array(1))[0] >>> 1;
  S.paused = false;
  setGame({ start: null, moves: [] }, "push");
  setMessage("");
  await refresh();
  announce(`New game. ${playerName("r")} to move.`);
}

async function hint() {
  if (!humanTurn() || !S.info.players) return;
  try {
    const gen = S.gen;
    const move = await call("hint", { game: S.game, seed: S.seed });
    if (gen !== S.gen) return;
    S.hint = move;
    draw(S.state);
    announce(`Hint: slide ${move}.`);
  } catch (error) {
    report(error);
  }
}

async function viewPly(ply) {
  const st = S.state;
  if (!st || !st.over) return;
  const target = Math.max(0, Math.min(st.plies, ply));
  S.view = target === st.plies ? null : target;
  S.gen++;
  await refresh();
  announce(`Move ${target} of ${st.plies}${S.state.last ? `: ${S.state.last.from} to ${S.state.last.to}` : ""}.`);
}

async function loadFromFragment() {
  const game = gameFromFragment();
  try {
    await call("state", { game, humans: humans() });
    setGame(game);
    if (!humans().length) S.paused = true;
    await refresh();
  } catch (error) {
    setMessage(`The game in the link could not be loaded: ${error.message}`, "error");
    remember(S.game, "replace");
  }
}

// ----- record dialog ---------------------------------------------------------------------------

function openRecord() {
  cancelChoice();
  $("record-text").value = S.state ? S.state.record : "";
  $("copy-status").textContent = "";
  $("load-error").textContent = "";
  $("dlg-record").showModal();
}

async function copyRecord() {
  const text = $("record-text").value;
  try {
    await navigator.clipboard.writeText(text);
  } catch {
    const area = $("record-text");
    area.select();
    document.execCommand("copy");
  }
  $("copy-status").textContent = "Copied";
}

async function loadRecord() {
  const text = $("record-load").value;
  if (!text.trim()) {
    $("load-error").textContent = "Paste a record first.";
    return;
  }
  try {
    const game = await call("load", { text });
    if (!humans().length) S.paused = true;
    setGame(game, "push");
    $("dlg-record").close();
    $("record-load").value = "";
    setMessage(`Record loaded: ${game.moves.length} moves.`);
    await refresh();
    announce(`Record loaded. ${S.state.over ? `${COLOUR[S.state.winner]} won.` : `${playerName(S.state.turn)} to move.`}`);
  } catch (error) {
    $("load-error").textContent = error.message;
  }
}

// ----- settings --------------------------------------------------------------------------------

function drawSettings() {
  for (const colour of ["r", "b"]) {
    const select = $(`player-${colour}`);
    if (select.options.length === 1) {
      for (const level of S.info.levels) {
        const option = document.createElement("option");
        option.value = String(level);
        option.textContent = level === 6 ? "Level 6 · Unbeatable" : `Computer level ${level}`;
        select.append(option);
      }
    }
    for (const option of select.options) option.disabled = option.value !== "human" && !S.info.players;
    if (!S.info.players) S.settings[colour] = "human";
    select.value = S.settings[colour];
  }
  $("pace").value = S.settings.pace;
  $("opt-marking").checked = S.settings.marking;
  $("opt-confirm").checked = S.settings.confirm;
  $("opt-analysis").checked = S.settings.analysis;
  $("opt-analysis").disabled = !S.info.tables;
}

function bindSettings() {
  for (const colour of ["r", "b"]) {
    $(`player-${colour}`).addEventListener("change", (event) => {
      S.settings[colour] = event.target.value;
      saveSettings();
      if (humans().length) S.paused = false;
      S.selected = null;
      S.hint = null;
      S.gen++; // a pending computer reply belongs to the old line-up
      stopThinking();
      S.lastMoveAt = performance.now();
      refresh();
    });
  }
  $("pace").addEventListener("change", (event) => {
    S.settings.pace = event.target.value;
    saveSettings();
  });
  for (const [id, key] of [["opt-marking", "marking"], ["opt-confirm", "confirm"], ["opt-analysis", "analysis"]]) {
    $(id).addEventListener("change", (event) => {
      S.settings[key] = event.target.checked;
      saveSettings();
      S.selected = null;
      if (key === "analysis") refresh();
      else {
        draw(S.state);
        drawStatus();
      }
    });
  }
}

// ----- input -----------------------------------------------------------------------------------

function bindInput() {
  tilesEl.addEventListener("click", (event) => {
    const tile = event.target.closest(".tile");
    if (tile && tile.dataset.cell) choose(tile.dataset.cell);
  });
  document.addEventListener(
    "click",
    (event) => {
      // A tap anywhere but a legal tile or Confirm cancels a choice (Undo only cancels, see undo()).
      if (!S.selected) return;
      const target = event.target;
      if (target.closest(".tile.legal") || target.closest("#btn-confirm") || target.closest("#btn-undo")) return;
      cancelChoice();
    },
    true,
  );
  $("btn-new").addEventListener("click", newGame);
  $("btn-undo").addEventListener("click", undo);
  $("btn-hint").addEventListener("click", hint);
  $("btn-record").addEventListener("click", openRecord);
  $("btn-confirm").addEventListener("click", confirmChoice);
  $("btn-pause").addEventListener("click", () => {
    S.paused = !S.paused;
    if (S.paused) stopThinking();
    drawStatus();
    scheduleComputer();
  });
  $("btn-first").addEventListener("click", () => viewPly(0));
  $("btn-prev").addEventListener("click", () => viewPly((S.view ?? S.state.plies) - 1));
  $("btn-next").addEventListener("click", () => viewPly((S.view ?? S.state.plies) + 1));
  $("btn-last").addEventListener("click", () => viewPly(S.state.plies));
  $("moves").addEventListener("click", (event) => {
    const b = event.target.closest("button.mv");
    if (b && !b.disabled) viewPly(Number(b.dataset.ply));
  });
  $("btn-copy").addEventListener("click", copyRecord);
  $("btn-load").addEventListener("click", loadRecord);
  $("btn-record-close").addEventListener("click", () => $("dlg-record").close());
  $("dlg-new").addEventListener("close", () => {
    if ($("dlg-new").returnValue === "new") startNewGame();
  });
  window.addEventListener("popstate", () => {
    if (S.ready) loadFromFragment();
  });
  document.addEventListener("keydown", onKey);
}

const ARROWS = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };

function onKey(event) {
  if (event.ctrlKey || event.metaKey || event.altKey) return;
  const target = event.target;
  if (target.closest("input, select, textarea, dialog[open]")) return;
  const st = S.state;
  if (!st) return;
  if (st.over && (event.key in ARROWS || event.key === "Home" || event.key === "End")) {
    const ply = S.view ?? st.plies;
    const step = { ArrowLeft: -1, ArrowUp: -1, ArrowRight: 1, ArrowDown: 1 }[event.key];
    viewPly(event.key === "Home" ? 0 : event.key === "End" ? st.plies : ply + step);
    event.preventDefault();
    return;
  }
  if (event.key in ARROWS) {
    const [dr, dc] = ARROWS[event.key];
    const bubble = names.indexOf(st.bubble);
    const r = Math.floor(bubble / cols) + dr;
    const c = (bubble % cols) + dc;
    event.preventDefault();
    if (r < 0 || r >= rows || c < 0 || c >= cols) return;
    const move = names[r * cols + c];
    if (st.legal.includes(move)) choose(move);
    else if (humanTurn()) announce(`${move} may not slide now.`);
    return;
  }
  if (event.key === "Enter" && S.selected) {
    event.preventDefault();
    confirmChoice();
  } else if (event.key === "Escape") {
    cancelChoice();
  } else if (event.key === "u") {
    undo();
  } else if (event.key === "h") {
    hint();
  } else if (event.key === "n") {
    newGame();
  } else if (event.key === "r") {
    openRecord();
  }
}

// ----- boot ------------------------------------------------------------------------------------

async function booted({ info, timings: workerTimings, version }) {
  S.info = info;
  timings.worker = workerTimings;
  timings.booted = performance.now();
  document.body.dataset.version = version;
  buildBoard(info);
  drawSettings();
  S.ready = true;
  boardEl.classList.remove("loading");
  $("loading").hidden = true;
  if (!info.tables) {
    setMessage("The lookup tables are missing from this build: every slide is allowed.", "error");
  }
  const fromUrl = gameFromFragment();
  if (fromUrl.start || fromUrl.moves.length) {
    await loadFromFragment();
  } else {
    await refresh();
  }
  registerServiceWorker();
}

function bootFailed(error) {
  $("loading-text").textContent = `Unitile could not start: ${error}`;
  $("loading").classList.add("failed");
  document.body.dataset.ready = "failed";
}

bindSettings();
bindInput();
