// board.js: the board view. It owns the piece selected and the squares
// clicked since (a capture is entered landing square by landing square),
// the drag in progress and the keyboard focus. The board is an ARIA grid:
// one row per drawn row, one focusable cell per playing square (roving
// tabindex: the board is one Tab stop), each named in the variant's
// notation with what stands on it. Arrow keys move the focus as the board
// is drawn (flipped too); Enter or Space act as a click; Escape drops the
// selection.

import { $, svgEl, message } from './dom.js';
import { settings, save } from './store.js';
import { rec, variant, labelsMode, canEnter, play } from './game.js';
import * as setup from './setup.js';

let sel = null;   // {from, clicks: []}
let drag = null;  // {from, start, x, y, moved}
let focusSq = null; // the square holding the board's Tab stop

// positionChanged keeps a selection made while Rio answered if the
// position did not change (a setting did) and the piece can still move.
export function positionChanged(prev, st) {
  const same = prev && prev.fen === st.fen && prev.variant === st.variant;
  if (!same || !sel || !st.legal.some((m) => m.from === sel.from)) sel = null;
}

// place returns the drawn (x, y) of a square, the board turned if flipped.
function place(sq) {
  let r = sq.row, c = sq.col;
  if (settings.flip) { r = 7 - r; c = 7 - c; }
  return { x: c * 100, y: r * 100, r, c };
}

function pieceAt() {
  if (setup.active()) return setup.pieces();
  const m = new Map();
  if (rec.state) rec.state.board.forEach((p) => m.set(p.sq, p.color + (p.king ? '-king' : '-man')));
  return m;
}

const pieceNames = { 'white-man': 'white man', 'white-king': 'white king', 'black-man': 'black man', 'black-king': 'black king' };

export function renderBoard() {
  const svg = $('board');
  const hadFocus = svg.contains(document.activeElement);
  svg.textContent = '';
  const defs = svgEl('defs', {}, svg);
  const gw = svgEl('radialGradient', { id: 'g-white', cx: '40%', cy: '35%', r: '70%' }, defs);
  svgEl('stop', { offset: '0%', 'stop-color': '#ffffff' }, gw);
  svgEl('stop', { offset: '100%', 'stop-color': '#d8d2c4' }, gw);
  const gb = svgEl('radialGradient', { id: 'g-black', cx: '40%', cy: '35%', r: '70%' }, defs);
  svgEl('stop', { offset: '0%', 'stop-color': '#5a5a5a' }, gb);
  svgEl('stop', { offset: '100%', 'stop-color': '#111111' }, gb);

  const back = svgEl('g', { 'aria-hidden': 'true' }, svg);
  for (let r = 0; r < 8; r++) {
    for (let c = 0; c < 8; c++) svgEl('rect', { x: c * 100, y: r * 100, width: 100, height: 100, class: 'sq-light' }, back);
  }
  const v = variant();
  const st = rec.state;
  const last = !setup.active() && st && rec.cursor > 0 ? st.moves[rec.cursor - 1] : null;
  const lastSquares = new Set(last ? [last.from, last.to].concat(last.path || []) : []);
  const pieces = pieceAt();
  const mode = labelsMode();
  const cands = candidates();
  const next = nextSquares(cands);
  const taken = new Set();
  cands.forEach((m) => (m.captured || []).forEach((s) => taken.add(s)));
  if (focusSq === null || !v.squares.some((s) => s.id === focusSq)) focusSq = defaultFocus(v);

  const rows = [];
  for (let r = 0; r < 8; r++) rows.push(svgEl('g', { role: 'row' }, svg));
  [...v.squares].sort((a, b) => place(a).c - place(b).c).forEach((sq) => {
    const { x, y, r } = place(sq);
    const p = pieces.get(sq.id);
    const g = svgEl('g', {
      role: 'gridcell', 'data-sq': sq.id, 'data-num': sq.num, 'data-name': sq.name,
      tabindex: sq.id === focusSq ? '0' : '-1',
      'aria-label': cellName(sq, p, lastSquares.has(sq.id), next.has(sq.id)),
    }, rows[r]);
    if (sel && sel.from === sq.id) g.setAttribute('aria-selected', 'true');
    let cls = 'sq-dark';
    if (sel && sel.from === sq.id) cls = 'sq-sel';
    svgEl('rect', { x, y, width: 100, height: 100, class: cls }, g);
    if (cls === 'sq-sel') svgEl('rect', { x: x + 14, y: y + 14, width: 72, height: 72, class: 'sq-sel-ring' }, g);
    if (cls === 'sq-dark' && lastSquares.has(sq.id)) svgEl('rect', { x, y, width: 100, height: 100, class: 'sq-last' }, g);
    if (mode === 'numbers') {
      const t = svgEl('text', { x: x + 6, y: y + 20, class: 'sq-num' }, g);
      t.textContent = sq.num;
    }
    if (p && !(drag && drag.from === sq.id && drag.moved)) drawPiece(g, x + 50, y + 50, p, taken.has(sq.id));
    if (next.has(sq.id)) svgEl('circle', { cx: x + 50, cy: y + 50, r: p ? 44 : 14, class: p ? 'via' : 'target' }, g);
    svgEl('rect', { x: x + 3, y: y + 3, width: 94, height: 94, class: 'sq-focus sq-focus-out' }, g);
    svgEl('rect', { x: x + 8, y: y + 8, width: 84, height: 84, class: 'sq-focus sq-focus-in' }, g);
  });
  if (mode === 'coords') drawCoords(svg);
  if (drag && drag.moved) {
    const g = svgEl('g', { class: 'dragging', 'aria-hidden': 'true' }, svg);
    drawPiece(g, drag.x, drag.y, pieces.get(drag.from), false);
  }
  svg.setAttribute('aria-label', 'Board, ' + (settings.flip ? 'Black' : 'White') + ' at the bottom');
  if (hadFocus) focusCell(focusSq);
}

// cellName is a square's accessible name: its name in the variant's
// notation, what stands there, and its part in the move being entered.
function cellName(sq, p, last, next) {
  let s = (labelsMode() === 'numbers' ? String(sq.num) : sq.name) + ', ' + (p ? pieceNames[p] : 'empty');
  if (next && !(sel && sel.from === sq.id)) s += p ? ', to take' : ', move here';
  if (last) s += ', last move';
  return s;
}

// defaultFocus is the first playing square of the bottom row as drawn.
function defaultFocus(v) {
  let best = null;
  v.squares.forEach((sq) => {
    const a = place(sq);
    if (!best || a.r > best.r || (a.r === best.r && a.c < best.c)) best = { r: a.r, c: a.c, id: sq.id };
  });
  return best.id;
}

function focusCell(id) {
  const g = document.querySelector(`#board [data-sq="${id}"]`);
  if (g) g.focus();
}

function drawPiece(g, cx, cy, p, faded) {
  const [color, kind] = p.split('-');
  const grp = svgEl('g', { 'data-piece': p, class: faded ? 'taken' : '' }, g);
  svgEl('circle', { cx, cy: cy + 4, r: 38, fill: 'rgba(0,0,0,0.35)' }, grp);
  svgEl('circle', { cx, cy, r: 38, class: 'piece-' + color }, grp);
  svgEl('circle', { cx, cy, r: 27, class: 'ring-' + color }, grp);
  if (kind === 'king') {
    const d = `M${cx - 20},${cy + 10} L${cx - 24},${cy - 12} L${cx - 11},${cy - 2} L${cx},${cy - 18} ` +
      `L${cx + 11},${cy - 2} L${cx + 24},${cy - 12} L${cx + 20},${cy + 10} Z`;
    svgEl('path', { d, class: 'crown-' + color }, grp);
    svgEl('rect', { x: cx - 20, y: cy + 12, width: 40, height: 6, class: 'crown-' + color }, grp);
  }
}

function drawCoords(svg) {
  const g = svgEl('g', { 'aria-hidden': 'true' }, svg);
  for (let i = 0; i < 8; i++) {
    const file = settings.flip ? 7 - i : i;
    const rank = settings.flip ? i + 1 : 8 - i;
    // The bottom row's dark squares are the even columns, the left
    // column's the odd rows: each label takes the other square colour.
    const f = svgEl('text', { x: i * 100 + 86, y: 792, class: i % 2 ? 'coord coord-on-light' : 'coord coord-on-dark' }, g);
    f.textContent = String.fromCharCode(97 + file);
    const r = svgEl('text', { x: 4, y: i * 100 + 18, class: i % 2 ? 'coord coord-on-dark' : 'coord coord-on-light' }, g);
    r.textContent = String(rank);
  }
}

// candidates are the legal moves from the selected piece that agree with
// the squares clicked since: each clicked square is one of the move's
// landing squares or one of the pieces it takes.
function candidates() {
  if (!sel || !rec.state) return [];
  return rec.state.legal.filter((m) => m.from === sel.from && sel.clicks.every((c) => onMove(m, c)));
}

function onMove(m, sq) {
  if (!m.path) return sq === m.to;
  return m.path.includes(sq) || m.captured.includes(sq);
}

// nextSquares are where the next click may go: the next landing square of
// each candidate; where candidates share it, the squares that tell them
// apart.
function nextSquares(cands) {
  const out = new Set();
  if (!cands.length) return out;
  const distinct = new Set(cands.map((m) => m.move));
  const clicks = sel.clicks;
  cands.forEach((m) => {
    if (!m.path) { out.add(m.to); return; }
    const rest = m.path.filter((s) => !clicks.includes(s));
    if (rest.length) out.add(rest[0]);
  });
  if (distinct.size > 1 && clicks.length) {
    // Clicked the shared end: offer the squares only some of them pass.
    cands.forEach((m) => (m.path || []).concat(m.captured || []).forEach((s) => {
      if (!clicks.includes(s) && !cands.every((o) => onMove(o, s))) out.add(s);
    }));
  }
  return out;
}

function movable(sq) {
  return !!rec.state && rec.state.legal.some((m) => m.from === sq);
}

// pick is a click (or Enter) on square sq.
export function pick(sq) {
  focusSq = sq;
  if (setup.active()) { setup.put(sq); renderBoard(); return; }
  if (!canEnter()) return;
  if (!sel) {
    if (movable(sq)) { sel = { from: sq, clicks: [] }; renderBoard(); }
    return;
  }
  if (sq === sel.from && !sel.clicks.length) { sel = null; renderBoard(); return; }
  const clicks = sel.clicks.concat([sq]);
  const cands = rec.state.legal.filter((m) => m.from === sel.from && clicks.every((c) => onMove(m, c)));
  if (!cands.length) {
    // Not a square of any move: another piece of the side to move is
    // chosen instead; anything else is not accepted.
    if (movable(sq)) sel = { from: sq, clicks: [] };
    renderBoard();
    return;
  }
  const distinct = new Set(cands.map((m) => m.move));
  if (distinct.size === 1) { sel = null; play(cands[0]); return; }
  sel.clicks = clicks;
  if (cands.every((m) => m.to === sq)) message('Several captures end here: click a square along the one you mean.', 'info');
  renderBoard();
}

function squareFromEvent(ev) {
  const t = document.elementFromPoint(ev.clientX, ev.clientY);
  const g = t && t.closest ? t.closest('[data-sq]') : null;
  return g ? Number(g.dataset.sq) : null;
}

function svgPoint(ev) {
  const r = $('board').getBoundingClientRect();
  return { x: (ev.clientX - r.left) / r.width * 800, y: (ev.clientY - r.top) / r.height * 800 };
}

function onPointerDown(ev) {
  const sq = squareFromEvent(ev);
  if (sq === null) return;
  ev.preventDefault();
  if (!setup.active() && !sel && movable(sq) && canEnter()) {
    const p = svgPoint(ev);
    drag = { from: sq, start: p, x: p.x, y: p.y, moved: false };
    $('board').setPointerCapture(ev.pointerId);
  }
  pick(sq);
}

function onPointerMove(ev) {
  if (!drag) return;
  const p = svgPoint(ev);
  drag.x = p.x; drag.y = p.y;
  if (!drag.moved && Math.hypot(p.x - drag.start.x, p.y - drag.start.y) > 12) drag.moved = true;
  if (drag.moved) renderBoard();
}

function onPointerUp(ev) {
  const d = drag;
  if (!d) return;
  drag = null;
  if (d.moved) {
    const sq = squareFromEvent(ev);
    if (sq !== null && sq !== d.from && sel && sel.from === d.from) pick(sq);
    else renderBoard();
  }
}

// step moves the focus from square id by (dr, dc) on the board as drawn:
// along a row to the next playing square, to the row above or below at
// the nearest playing square.
function step(id, dr, dc) {
  const v = variant();
  const here = place(v.squares.find((s) => s.id === id));
  const cells = v.squares.map((s) => Object.assign({ id: s.id }, place(s)));
  let best = null;
  if (dr === 0) {
    cells.filter((o) => o.r === here.r && Math.sign(o.c - here.c) === dc).forEach((o) => {
      if (!best || Math.abs(o.c - here.c) < Math.abs(best.c - here.c)) best = o;
    });
  } else {
    cells.filter((o) => o.r === here.r + dr).forEach((o) => {
      if (!best || Math.abs(o.c - here.c) < Math.abs(best.c - here.c)) best = o;
    });
  }
  return best ? best.id : id;
}

function onKeyDown(ev) {
  if (ev.ctrlKey || ev.metaKey || ev.altKey) return;
  const cell = ev.target.closest && ev.target.closest('[data-sq]');
  if (!cell) return;
  const id = Number(cell.dataset.sq);
  const moves = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
  if (moves[ev.key]) {
    focusSq = step(id, ...moves[ev.key]);
    renderBoard();
    focusCell(focusSq);
  } else if (ev.key === 'Enter' || ev.key === ' ') {
    pick(id);
    focusCell(focusSq);
  } else if (ev.key === 'Escape') {
    if (!sel) return;
    sel = null;
    renderBoard();
  } else {
    return;
  }
  ev.preventDefault();
  ev.stopPropagation();
}

export function wireBoard() {
  const board = $('board');
  board.addEventListener('pointerdown', onPointerDown);
  board.addEventListener('pointermove', onPointerMove);
  board.addEventListener('pointerup', onPointerUp);
  board.addEventListener('pointercancel', () => { drag = null; renderBoard(); });
  board.addEventListener('keydown', onKeyDown);
  board.addEventListener('focusin', (ev) => {
    const cell = ev.target.closest && ev.target.closest('[data-sq]');
    if (cell) focusSq = Number(cell.dataset.sq);
  });
}

export function flip() {
  settings.flip = !settings.flip;
  save();
  renderBoard();
}
