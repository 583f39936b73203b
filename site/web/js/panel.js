// What both play pages draw around the board from a state of their game's service and the page's
// flags: the turn, the buttons, the review bar and the move list (nothing here changes the game).
import { COLOUR, count, playerName } from "./words.js";
import { MARKS } from "./review-chart.js";

const $ = (id) => document.getElementById(id);

/**
 * @param {object} st the drawn state (``ply``, ``plies``, ``moves``, ``turn``, ``winner``, ``over``,
 *   ``result``, ``can_undo``)
 * @param {{ready: boolean, live: boolean, thinking: boolean, paused: boolean, busy: boolean,
 *   selected: string|null, players: object, confirm: boolean, computers: boolean,
 *   firstTurn: string, verdicts: string[]|null}} m ``verdicts``: each ply's, once the game is reviewed
 */
export function drawPanel(st, m) {
  const turn = $("turn");
  turn.dataset.colour = st.winner || st.turn;
  const computerToMove = m.players[st.turn] !== "human";
  if (!m.live) turn.textContent = `Ply ${st.ply} of ${st.plies}`;
  else if (st.winner) turn.textContent = `${COLOUR[st.winner]} wins`;
  else if (m.thinking) turn.textContent = `${COLOUR[st.turn]} is thinking…`;
  else if (m.paused && computerToMove) turn.textContent = "Paused";
  else turn.textContent = `${playerName(st.turn, m.players)} to move`;
  turn.classList.toggle("thinking", m.thinking);
  turn.classList.toggle("looking-back", !m.live);
  $("board").setAttribute("aria-busy", String(m.thinking || !m.ready));
  document.body.dataset.thinking = String(m.thinking);
  document.body.dataset.review = String(!m.live);

  const humanTurn = m.ready && m.live && !st.over && !computerToMove && !m.busy;
  enable("btn-new", m.ready);
  enable("btn-setup", m.ready);
  enable("btn-record", m.ready);
  enable("btn-undo", m.ready && m.live && st.can_undo);
  enable("btn-hint", humanTurn && m.computers);
  $("btn-confirm").hidden = !m.confirm;
  enable("btn-confirm", Boolean(m.selected));
  const watching = m.players.r !== "human" && m.players.b !== "human";
  $("btn-pause").hidden = !watching || st.over;
  $("btn-pause").textContent = m.paused ? "Resume" : "Pause";
  $("btn-pause").setAttribute("aria-pressed", String(m.paused));

  const review = $("review");
  review.hidden = st.plies === 0;
  const ply = m.live ? st.plies : st.ply;
  $("review-text").textContent = m.live && !st.over ? count(st.plies, "ply", "plies") : `Ply ${ply} / ${st.plies}`;
  enable("btn-first", ply > 0);
  enable("btn-prev", ply > 0);
  enable("btn-next", ply < st.plies);
  enable("btn-last", ply < st.plies);
  $("btn-live").hidden = m.live || st.over;
  drawMoves(st, m.live ? st.plies : st.ply, m.firstTurn, m.verdicts);
}

/**
 * The two colour chips of the score line: ``values`` per colour, and the unit in one and many.
 * @param {{r: number | string, b: number | string}} values
 * @param {string} one
 * @param {string} many
 */
export function drawChips(values, one, many) {
  for (const colour of ["r", "b"]) {
    $(`count-${colour}`).textContent = values[colour];
    $(`count-${colour}-unit`).textContent = values[colour] === 1 ? one : many;
  }
}

/**
 * @param {string} id a button
 * @param {boolean} on
 */
function enable(id, on) {
  /** @type {HTMLButtonElement} */ ($(id)).disabled = !on;
}

/** The move list, numbered by pairs as in the record; every ply is a button to look at it. A
 * skipped turn ("skip") is listed where it happened; once reviewed, a mistake is marked "?" and an
 * inaccuracy "?!" (said in the button's name). */
function drawMoves(st, current, firstTurn, verdicts) {
  const list = $("moves");
  list.replaceChildren();
  let li = null;
  st.moves.forEach((move, i) => {
    const colour = (i % 2 === 0) === (firstTurn === "r") ? "r" : "b";
    if (!li || colour === firstTurn) {
      li = document.createElement("li");
      list.append(li);
    }
    const b = document.createElement("button");
    b.type = "button";
    b.className = `mv mv-${colour}${move === "skip" ? " mv-skip" : ""}`;
    b.textContent = move;
    b.dataset.ply = String(i + 1);
    const what = move === "skip" ? "turn skipped: no legal placement" : move;
    const verdict = verdicts ? verdicts[i] : null;
    const marked = Boolean(verdict) && verdict in MARKS;
    if (marked) {
      const mark = document.createElement("span");
      mark.className = `mv-mark mv-${verdict}`;
      mark.setAttribute("aria-hidden", "true");
      mark.textContent = MARKS[verdict];
      b.append(mark);
    }
    b.setAttribute("aria-label", `ply ${i + 1}, ${COLOUR[colour]} ${what}${marked ? `, ${verdict}` : ""}`);
    if (i + 1 === current) b.setAttribute("aria-current", "step");
    li.append(b);
  });
  if (st.over) {
    const result = document.createElement("li");
    result.className = "result";
    result.textContent = st.result;
    list.append(result);
  }
  // Scroll the list only (never the page): the start at the top, the ply looked at in the middle, else
  // the latest ply; always to a row's top, so that the row under the heading is whole (app.css).
  /** @type {HTMLElement | null} */
  const shown = list.querySelector('[aria-current="step"]');
  let want = list.scrollHeight;
  if (current === 0) want = 0;
  else if (shown && current < st.plies) want = shown.offsetTop - list.clientHeight / 2;
  const row = list.firstElementChild ? /** @type {HTMLElement} */ (list.firstElementChild).offsetHeight : 0;
  const most = list.scrollHeight - list.clientHeight;
  list.scrollTop = row ? Math.min(Math.floor(most / row), Math.max(0, Math.round(want / row))) * row : 0;
}
