// Rio's board. Every rule decision comes from the server (/api/game
// answers the board, the legal moves with their landing squares, the
// notation and the result); this page draws, takes clicks and drags, and
// keeps the game (start position and moves) in localStorage so that it
// survives a reload.
'use strict';

const SVGNS = 'http://www.w3.org/2000/svg';
const STORE = 'rio-gui-v1';

const $ = (id) => document.getElementById(id);

const app = {
  config: null,
  variants: {},          // name -> variant view (squares...)
  game: { variant: 'brazilian', fen: '', moves: [], tags: {}, result: '', reason: '' },
  cursor: 0,             // ply shown
  state: null,           // last /api/game answer
  evals: [],             // per ply, White's view, in men
  settings: { flip: false, labels: '', rio: 'black', level: 0, movetime: 1, lines: 3, analyse: false },
  sel: null,             // {from, clicks: []}
  drag: null,
  setup: null,           // {pieces: Map(id -> 'white-man'...), put: 'white-man'}
  gen: 0,                // bumped by every change of the game: late answers are dropped
  thinking: null,        // AbortController of Rio's move
  source: null,          // EventSource of the analysis
  tab: tabId(),
  imported: [],
};

function tabId() {
  let id = sessionStorage.getItem('rio-tab');
  if (!id) {
    const a = new Uint8Array(9);
    crypto.getRandomValues(a);
    id = Array.from(a, (b) => b.toString(16).padStart(2, '0')).join('');
    sessionStorage.setItem('rio-tab', id);
  }
  return id;
}

// ---------- transport ----------
// The served board (engine gui) talks HTTP to Rio. The static board that
// engine gui --export writes (its index.html names the worker in a
// <meta name="rio-worker"> tag) talks to board.wasm in a Web Worker: the
// same API and handlers, each request a message, each answer one or more
// messages (a stream's events as they come).

const transport = (() => {
  const meta = document.querySelector('meta[name="rio-worker"]');
  if (!meta) {
    return {
      fetch: (path, init) => fetch(path, init),
      events: (path) => new EventSource(path),
      beacon: (path, body) => navigator.sendBeacon && navigator.sendBeacon(path, new Blob([body], { type: 'application/json' })),
    };
  }
  const worker = new Worker(meta.content);
  const pending = new Map(); // id -> function(message)
  let next = 1;
  let fatal = null;
  worker.onmessage = (e) => {
    const m = e.data;
    if (m && m.fatal) {
      fatal = m.fatal;
      for (const f of pending.values()) f({ status: 503, type: 'application/json', chunk: JSON.stringify({ error: fatal }), end: true });
      pending.clear();
      return;
    }
    const f = pending.get(m.id);
    if (f) f(m);
    if (m.end) pending.delete(m.id);
  };
  worker.onerror = (e) => { fatal = 'Rio could not start: ' + (e.message || 'the worker failed'); };
  const send = (path, init, onMessage) => {
    const id = next++;
    pending.set(id, onMessage);
    worker.postMessage({
      id, path, method: (init && init.method) || 'GET',
      body: init && typeof init.body === 'string' ? init.body : '',
      type: (init && init.headers && init.headers['Content-Type']) || '',
    });
    return id;
  };
  const cancel = (id) => { pending.delete(id); worker.postMessage({ id, cancel: true }); };
  return {
    fetch(path, init) {
      if (fatal) return Promise.reject(new Error(fatal));
      return new Promise((resolve, reject) => {
        let text = '';
        const signal = init && init.signal;
        const id = send(path, init, (m) => {
          text += m.chunk || '';
          if (m.end) resolve(new Response(text, { status: m.status, headers: { 'Content-Type': m.type || 'text/plain' } }));
        });
        if (signal) signal.addEventListener('abort', () => { cancel(id); reject(new DOMException('aborted', 'AbortError')); });
      });
    },
    // A Server-Sent Events reader over the worker: named events with
    // addEventListener, onerror when the stream ends unasked, close.
    events(path) {
      const listeners = {};
      let buf = '';
      const src = {
        onerror: null,
        addEventListener(type, f) { (listeners[type] = listeners[type] || []).push(f); },
        close() { if (id) { cancel(id); id = 0; } },
      };
      let id = send(path, { method: 'GET' }, (m) => {
        buf += m.chunk || '';
        let i;
        while ((i = buf.indexOf('\n\n')) >= 0) {
          const block = buf.slice(0, i);
          buf = buf.slice(i + 2);
          let type = 'message';
          const data = [];
          for (const line of block.split('\n')) {
            if (line.startsWith('event:')) type = line.slice(6).trim();
            else if (line.startsWith('data:')) data.push(line.slice(5).replace(/^ /, ''));
          }
          if (data.length) for (const f of listeners[type] || []) f({ type, data: data.join('\n') });
        }
        if (m.end && id) { id = 0; if (src.onerror) src.onerror(new Event('error')); }
      });
      return src;
    },
    beacon(path, body) { send(path, { method: 'POST', body, headers: { 'Content-Type': 'application/json' } }, () => {}); },
  };
})();

// ---------- server ----------

async function api(path, body, signal) {
  const r = await transport.fetch(path, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
    signal,
  });
  let j = null;
  try { j = await r.json(); } catch (e) { j = null; }
  if (!r.ok) throw new Error((j && j.error) || (r.status + ' ' + r.statusText));
  return j;
}

function gameReq(at) {
  const g = { variant: app.game.variant, fen: app.game.fen, moves: app.game.moves };
  if (at !== undefined) g.at = at;
  return g;
}

function message(text, kind) {
  const m = $('message');
  m.textContent = text || '';
  m.className = kind || '';
}

function save() {
  localStorage.setItem(STORE, JSON.stringify({ game: app.game, cursor: app.cursor, settings: app.settings, evals: app.evals }));
}

function restore() {
  try {
    const s = JSON.parse(localStorage.getItem(STORE) || 'null');
    if (!s) return false;
    if (s.settings) Object.assign(app.settings, s.settings);
    if (s.game && app.variants[s.game.variant]) {
      app.game = Object.assign({ tags: {}, result: '', reason: '' }, s.game);
      app.cursor = Math.min(s.cursor | 0, app.game.moves.length);
      app.evals = Array.isArray(s.evals) ? s.evals : [];
      return true;
    }
  } catch (e) { /* a broken store starts afresh */ }
  return false;
}

// refresh asks the server for the position shown and redraws; it then
// starts Rio's move or the analysis where they are due.
async function refresh() {
  const gen = ++app.gen;
  stopThinking();
  stopAnalysis();
  let st;
  try {
    st = await api('/api/game', gameReq(app.cursor));
  } catch (e) {
    message(e.message, 'error');
    return false;
  }
  if (gen !== app.gen) return false;
  // A selection made while the answer came stays if the position did not
  // change (a setting changed) and the piece can still move.
  const same = app.state && app.state.fen === st.fen && app.state.variant === st.variant;
  app.state = st;
  if (!same || !app.sel || !st.legal.some((m) => m.from === app.sel.from)) app.sel = null;
  save();
  render();
  if (!app.setup) {
    if (rioToMove()) rioMove();
    else if (app.settings.analyse) startAnalysis();
  }
  return true;
}

function over() {
  return !!app.game.result || (app.state && app.state.final !== '*');
}

function rioToMove() {
  const st = app.state;
  return st && app.settings.rio === st.side && app.cursor === app.game.moves.length &&
    st.result === '*' && !app.game.result;
}

// ---------- playing ----------

function play(move) {
  if (app.game.result) return;
  // A move played back in the game starts a new line from there.
  app.game.moves = app.game.moves.slice(0, app.cursor);
  app.evals = app.evals.slice(0, app.cursor + 1);
  app.game.moves.push(move.move);
  app.cursor = app.game.moves.length;
  message('');
  refresh();
}

async function rioMove() {
  const gen = app.gen;
  const ctl = new AbortController();
  app.thinking = ctl;
  renderStatus();
  $('draw').disabled = true;
  try {
    const body = { tab: app.tab, game: gameReq(), level: app.settings.level };
    if (!app.settings.level) body.movetime = app.settings.movetime;
    const ans = await api('/api/search', body, ctl.signal);
    if (gen !== app.gen) return;
    app.thinking = null;
    app.evals[app.cursor] = ans.score.white;
    play(ans.move);
  } catch (e) {
    if (e.name === 'AbortError') return;
    if (gen === app.gen) { app.thinking = null; message(e.message, 'error'); renderStatus(); }
  }
}

function stopThinking() {
  if (app.thinking) { app.thinking.abort(); app.thinking = null; }
}

function newGame() {
  app.game = { variant: app.game.variant, fen: '', moves: [], tags: {}, result: '', reason: '' };
  app.cursor = 0;
  app.evals = [];
  message('');
  refresh();
}

function takeBack() {
  if (!app.game.moves.length) return;
  stopThinking();
  let n = app.game.moves.length - 1;
  // Against Rio, back to the last position where the player was to move.
  if (app.settings.rio !== 'none') while (n > 0 && sideAt(n) === app.settings.rio) n--;
  app.game.moves = app.game.moves.slice(0, n);
  app.game.result = ''; app.game.reason = '';
  app.evals = app.evals.slice(0, n + 1);
  app.cursor = n;
  refresh();
}

// sideAt is the side to move at ply n (moves alternate from the start).
function sideAt(n) {
  const first = app.state && app.state.start[0] === 'B' ? 'black' : 'white';
  return (n % 2 === 0) === (first === 'white') ? 'white' : 'black';
}

function resign() {
  if (over()) return;
  const st = app.state;
  const side = app.settings.rio === 'none' ? st.side : (app.settings.rio === 'white' ? 'black' : 'white');
  stopThinking();
  app.game.result = side === 'white' ? '0-2' : '2-0';
  app.game.reason = (side === 'white' ? 'White' : 'Black') + ' resigned';
  save();
  render();
}

async function offerDraw() {
  if (over()) return;
  if (app.settings.rio === 'none') {
    app.game.result = '1-1'; app.game.reason = 'draw agreed';
    save(); render();
    return;
  }
  stopAnalysis();
  try {
    const ans = await api('/api/draw', { tab: app.tab, game: gameReq(), rio: app.settings.rio });
    if (ans.accept) {
      app.game.result = '1-1'; app.game.reason = 'draw agreed';
      message('Rio accepts the draw.', 'info');
      save(); render();
    } else {
      message('Rio declines the draw.', 'info');
      if (app.settings.analyse) startAnalysis();
    }
  } catch (e) { message(e.message, 'error'); }
}

// ---------- analysis ----------

function startAnalysis() {
  stopAnalysis();
  const st = app.state;
  if (!st || st.result !== '*') {
    renderAnalysis(null);
    return;
  }
  const q = new URLSearchParams({
    tab: app.tab, variant: app.game.variant, fen: app.game.fen || '',
    moves: app.game.moves.join(' '), at: String(app.cursor), lines: String(app.settings.lines),
  });
  const src = transport.events('/api/analyse?' + q.toString());
  const gen = app.gen;
  app.source = src;
  src.addEventListener('analysis', (ev) => {
    if (gen !== app.gen || app.source !== src) return;
    const a = JSON.parse(ev.data);
    if (a.lines.length) {
      renderAnalysis(a);
      if (a.depth >= 6) { app.evals[app.cursor] = a.lines[0].score.white; renderGraph(); }
    }
    if (a.done) { src.close(); if (app.source === src) app.source = null; }
  });
  // No automatic reconnection: a stream that ends (another search of this
  // tab, the server gone) is started again only by the page.
  src.onerror = () => { src.close(); if (app.source === src) app.source = null; };
}

function stopAnalysis() {
  if (app.source) {
    app.source.close();
    app.source = null;
  }
}

function renderAnalysis(a) {
  const lines = $('an-lines');
  lines.textContent = '';
  if (!a) {
    $('an-score').textContent = '';
    $('an-info').textContent = '';
    $('an-table').textContent = tableText();
    return;
  }
  $('an-score').textContent = a.lines[0].score.text;
  $('an-score').title = 'for the side to move (' + app.state.side + ')';
  $('an-info').textContent = 'depth ' + a.depth + ' · ' + formatNPS(a.nps) + ' · ' + a.time.toFixed(1) + ' s';
  $('an-table').textContent = a.table ? 'tables: ' + a.table : tableText();
  a.lines.forEach((l) => {
    const li = document.createElement('li');
    const sc = document.createElement('span');
    sc.className = 'score';
    sc.textContent = l.score.text;
    li.appendChild(sc);
    li.appendChild(document.createTextNode(' '));
    l.pv.forEach((m, k) => {
      const s = document.createElement('span');
      s.className = 'pv-move';
      s.textContent = moveText(m);
      s.title = 'play up to here';
      s.addEventListener('click', () => playLine(l.pv.slice(0, k + 1)));
      li.appendChild(s);
      li.appendChild(document.createTextNode(' '));
    });
    lines.appendChild(li);
  });
}

function tableText() {
  return app.state && app.state.table ? 'tables: ' + app.state.table : '';
}

function formatNPS(n) {
  if (n >= 1e6) return (n / 1e6).toFixed(2) + ' M nodes/s';
  return (n / 1e3).toFixed(0) + ' k nodes/s';
}

function playLine(pv) {
  if (app.game.result) return;
  app.game.moves = app.game.moves.slice(0, app.cursor).concat(pv.map((m) => m.move));
  app.evals = app.evals.slice(0, app.cursor + 1);
  app.cursor = app.game.moves.length;
  refresh();
}

async function scoreGame() {
  message('Scoring the game…', 'info');
  stopAnalysis();
  const gen = app.gen;
  try {
    const ans = await api('/api/graph', { tab: app.tab, game: gameReq() });
    if (gen !== app.gen) return;
    app.evals = ans.scores;
    save();
    renderGraph();
    message('');
    if (app.settings.analyse) startAnalysis();
  } catch (e) { message(e.message, 'error'); }
}

// ---------- drawing ----------

function variant() { return app.variants[app.game.variant]; }

function labelsMode() {
  return app.settings.labels || (variant().algebraic ? 'coords' : 'numbers');
}

function moveText(m) {
  return labelsMode() === 'numbers' ? m.num : m.text;
}

// place returns the drawn (x, y) of a square, the board turned if flipped.
function place(sq) {
  let r = sq.row, c = sq.col;
  if (app.settings.flip) { r = 7 - r; c = 7 - c; }
  return { x: c * 100, y: r * 100 };
}

function el(name, attrs, parent) {
  const e = document.createElementNS(SVGNS, name);
  for (const k in attrs) e.setAttribute(k, attrs[k]);
  if (parent) parent.appendChild(e);
  return e;
}

function render() {
  renderBoard();
  renderMoves();
  renderStatus();
  renderGraph();
  const st = app.state;
  $('fen-out').value = st ? st.fen : '';
  $('rules').textContent = variant().rules;
  $('variant').value = app.game.variant;
  $('labels').textContent = labelsMode() === 'numbers' ? (variant().algebraic ? 'a-h/1-8' : 'Edges') : 'Numbers';
  $('rio-side').value = app.settings.rio;
  $('level').value = String(app.settings.level);
  $('movetime').value = app.settings.movetime;
  $('movetime-box').hidden = app.settings.level !== 0;
  $('lines').value = String(app.settings.lines);
  $('analyse').checked = app.settings.analyse;
  const done = over();
  $('resign').disabled = done || !!app.setup;
  $('draw').disabled = done || !!app.setup || !!app.thinking;
  $('takeback').disabled = !app.game.moves.length;
  if (!app.settings.analyse) renderAnalysis(null);
}

function pieceAt() {
  const m = new Map();
  if (app.setup) {
    app.setup.pieces.forEach((v, k) => m.set(k, v));
  } else if (app.state) {
    app.state.board.forEach((p) => m.set(p.sq, p.color + (p.king ? '-king' : '-man')));
  }
  return m;
}

function renderBoard() {
  const svg = $('board');
  svg.textContent = '';
  const defs = el('defs', {}, svg);
  const gw = el('radialGradient', { id: 'g-white', cx: '40%', cy: '35%', r: '70%' }, defs);
  el('stop', { offset: '0%', 'stop-color': '#ffffff' }, gw);
  el('stop', { offset: '100%', 'stop-color': '#d8d2c4' }, gw);
  const gb = el('radialGradient', { id: 'g-black', cx: '40%', cy: '35%', r: '70%' }, defs);
  el('stop', { offset: '0%', 'stop-color': '#5a5a5a' }, gb);
  el('stop', { offset: '100%', 'stop-color': '#111111' }, gb);

  for (let r = 0; r < 8; r++) {
    for (let c = 0; c < 8; c++) {
      el('rect', { x: c * 100, y: r * 100, width: 100, height: 100, class: 'sq-light' }, svg);
    }
  }
  const v = variant();
  const st = app.state;
  const last = !app.setup && st && app.cursor > 0 ? st.moves[app.cursor - 1] : null;
  const lastSquares = new Set(last ? [last.from, last.to].concat(last.path || []) : []);
  const pieces = pieceAt();
  const mode = labelsMode();
  const cands = candidates();
  const next = nextSquares(cands);
  const taken = new Set();
  cands.forEach((m) => (m.captured || []).forEach((s) => taken.add(s)));

  v.squares.forEach((sq) => {
    const { x, y } = place(sq);
    const g = el('g', { 'data-sq': sq.id, 'data-num': sq.num, 'data-name': sq.name }, svg);
    let cls = 'sq-dark';
    if (app.sel && app.sel.from === sq.id) cls = 'sq-sel';
    else if (lastSquares.has(sq.id)) cls = 'sq-dark';
    el('rect', { x, y, width: 100, height: 100, class: cls }, g);
    if (cls === 'sq-dark' && lastSquares.has(sq.id)) el('rect', { x, y, width: 100, height: 100, class: 'sq-last' }, g);
    if (mode === 'numbers') {
      const t = el('text', { x: x + 6, y: y + 20, class: 'sq-num' }, g);
      t.textContent = sq.num;
    }
    const p = pieces.get(sq.id);
    if (p && !(app.drag && app.drag.from === sq.id && app.drag.moved)) {
      drawPiece(g, x + 50, y + 50, p, taken.has(sq.id));
    }
    if (next.has(sq.id)) el('circle', { cx: x + 50, cy: y + 50, r: p ? 44 : 14, class: p ? 'via' : 'target' }, g);
  });
  if (mode === 'coords') drawCoords(svg);
  if (app.drag && app.drag.moved) {
    const g = el('g', { class: 'dragging' }, svg);
    drawPiece(g, app.drag.x, app.drag.y, pieces.get(app.drag.from), false);
  }
}

function drawPiece(g, cx, cy, p, faded) {
  const [color, kind] = p.split('-');
  const grp = el('g', { 'data-piece': p, class: faded ? 'taken' : '' }, g);
  el('circle', { cx, cy: cy + 4, r: 38, fill: 'rgba(0,0,0,0.35)' }, grp);
  el('circle', { cx, cy, r: 38, class: 'piece-' + color }, grp);
  el('circle', { cx, cy, r: 27, class: 'ring-' + color }, grp);
  if (kind === 'king') {
    const d = `M${cx - 20},${cy + 10} L${cx - 24},${cy - 12} L${cx - 11},${cy - 2} L${cx},${cy - 18} ` +
      `L${cx + 11},${cy - 2} L${cx + 24},${cy - 12} L${cx + 20},${cy + 10} Z`;
    el('path', { d, class: 'crown-' + color }, grp);
    el('rect', { x: cx - 20, y: cy + 12, width: 40, height: 6, class: 'crown-' + color }, grp);
  }
}

function drawCoords(svg) {
  for (let i = 0; i < 8; i++) {
    const file = app.settings.flip ? 7 - i : i;
    const rank = app.settings.flip ? i + 1 : 8 - i;
    // The bottom row's dark squares are the even columns, the left
    // column's the odd rows: each label takes the other square colour.
    const f = el('text', { x: i * 100 + 86, y: 792, class: 'coord', fill: i % 2 ? '#a26e45' : '#efd9b4' }, svg);
    f.textContent = String.fromCharCode(97 + file);
    const r = el('text', { x: 4, y: i * 100 + 18, class: 'coord', fill: i % 2 ? '#efd9b4' : '#a26e45' }, svg);
    r.textContent = String(rank);
  }
}

function renderMoves() {
  const ol = $('movelist');
  ol.textContent = '';
  const st = app.state;
  if (!st) return;
  const blackFirst = st.start[0] === 'B';
  let li = null;
  st.moves.forEach((m, i) => {
    const whiteMove = blackFirst ? i % 2 === 1 : i % 2 === 0;
    if (!li || whiteMove || (i === 0 && blackFirst)) {
      li = document.createElement('li');
      ol.appendChild(li);
      if (i === 0 && blackFirst) li.appendChild(document.createTextNode('… '));
    }
    const s = document.createElement('span');
    s.textContent = moveText(m);
    s.dataset.ply = String(i + 1);
    if (i + 1 === app.cursor) s.className = 'current';
    s.addEventListener('click', () => goTo(i + 1));
    li.appendChild(s);
  });
  const cur = ol.querySelector('.current');
  if (cur) cur.scrollIntoView({ block: 'nearest' });
}

function renderStatus() {
  const st = app.state;
  if (!st) return;
  const el2 = $('status');
  let text;
  if (app.setup) {
    text = 'Set up a position: choose a piece, click squares.';
  } else if (app.game.result && app.cursor === app.game.moves.length) {
    text = app.game.result + ' — ' + app.game.reason;
  } else if (st.result !== '*') {
    text = st.result + ' — ' + st.reason;
  } else {
    text = (st.side === 'white' ? 'White' : 'Black') + ' to move';
    if (app.thinking) text += ' · Rio is thinking…';
    if (st.rule) text += ' · ' + st.rule;
    if (st.table) text += ' · tables: ' + st.table;
  }
  if (app.cursor < app.game.moves.length) text += ' (move ' + app.cursor + ' of ' + app.game.moves.length + ')';
  el2.textContent = text;
  el2.dataset.result = st.result;
}

function renderGraph() {
  const svg = $('graph');
  svg.textContent = '';
  const n = Math.max(app.game.moves.length, 1);
  el('line', { x1: 0, y1: 50, x2: 400, y2: 50, stroke: '#bbb', 'stroke-width': 1 }, svg);
  const pts = [];
  for (let i = 0; i <= app.game.moves.length; i++) {
    const v = app.evals[i];
    if (typeof v !== 'number') continue;
    const y = 50 - 48 * Math.tanh(v / 3);
    pts.push((i / n * 400).toFixed(1) + ',' + y.toFixed(1));
  }
  if (pts.length) el('polyline', { points: pts.join(' '), fill: 'none', stroke: '#2b7a4b', 'stroke-width': 2, 'vector-effect': 'non-scaling-stroke' }, svg);
  pts.forEach((pt) => {
    const [px, py] = pt.split(',');
    el('line', { x1: px, y1: py, x2: px, y2: py, stroke: '#2b7a4b', 'stroke-width': 5, 'stroke-linecap': 'round', 'vector-effect': 'non-scaling-stroke' }, svg);
  });
  const x = app.cursor / n * 400;
  el('line', { x1: x, y1: 0, x2: x, y2: 100, stroke: '#c33', 'stroke-width': 1, 'vector-effect': 'non-scaling-stroke' }, svg);
}

// ---------- entering moves ----------

// candidates are the legal moves from the selected piece that agree with
// the squares clicked since: each clicked square is one of the move's
// landing squares or one of the pieces it takes.
function candidates() {
  if (!app.sel || !app.state) return [];
  return app.state.legal.filter((m) => m.from === app.sel.from && app.sel.clicks.every((c) => onMove(m, c)));
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
  const clicks = app.sel.clicks;
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
  return app.state && app.state.legal.some((m) => m.from === sq);
}

function clickSquare(sq) {
  if (app.setup) { setupClick(sq); return; }
  if (!app.state || app.thinking || app.game.result && app.cursor === app.game.moves.length) return;
  if (app.settings.rio === app.state.side && app.cursor === app.game.moves.length) return;
  if (!app.sel) {
    if (movable(sq)) { app.sel = { from: sq, clicks: [] }; renderBoard(); }
    return;
  }
  if (sq === app.sel.from && !app.sel.clicks.length) { app.sel = null; renderBoard(); return; }
  const clicks = app.sel.clicks.concat([sq]);
  const cands = app.state.legal.filter((m) => m.from === app.sel.from && clicks.every((c) => onMove(m, c)));
  if (!cands.length) {
    // Not a square of any move: another piece of the side to move is
    // chosen instead; anything else is not accepted.
    if (movable(sq)) app.sel = { from: sq, clicks: [] };
    renderBoard();
    return;
  }
  const distinct = new Set(cands.map((m) => m.move));
  if (distinct.size === 1) { play(cands[0]); return; }
  app.sel.clicks = clicks;
  if (cands.every((m) => m.to === sq)) message('Several captures end here: click a square along the one you mean.', 'info');
  renderBoard();
}

function squareFromEvent(ev) {
  const t = document.elementFromPoint(ev.clientX, ev.clientY);
  const g = t && t.closest ? t.closest('[data-sq]') : null;
  return g ? Number(g.dataset.sq) : null;
}

function svgPoint(ev) {
  const svg = $('board');
  const r = svg.getBoundingClientRect();
  return { x: (ev.clientX - r.left) / r.width * 800, y: (ev.clientY - r.top) / r.height * 800 };
}

function onPointerDown(ev) {
  const sq = squareFromEvent(ev);
  if (sq === null) return;
  ev.preventDefault();
  if (!app.setup && !app.sel && movable(sq) && !app.thinking &&
      !(app.settings.rio === app.state.side && app.cursor === app.game.moves.length)) {
    const p = svgPoint(ev);
    app.drag = { from: sq, start: p, x: p.x, y: p.y, moved: false };
    $('board').setPointerCapture(ev.pointerId);
  }
  clickSquare(sq);
}

function onPointerMove(ev) {
  if (!app.drag) return;
  const p = svgPoint(ev);
  app.drag.x = p.x; app.drag.y = p.y;
  if (!app.drag.moved && Math.hypot(p.x - app.drag.start.x, p.y - app.drag.start.y) > 12) app.drag.moved = true;
  if (app.drag.moved) renderBoard();
}

function onPointerUp(ev) {
  const d = app.drag;
  if (!d) return;
  app.drag = null;
  if (d.moved) {
    const sq = squareFromEvent(ev);
    if (sq !== null && sq !== d.from && app.sel && app.sel.from === d.from) clickSquare(sq);
    else renderBoard();
  }
}

function goTo(ply) {
  ply = Math.max(0, Math.min(ply, app.game.moves.length));
  if (ply === app.cursor) return;
  app.cursor = ply;
  refresh();
}

// ---------- setting up positions ----------

function startSetup() {
  stopThinking();
  stopAnalysis();
  const pieces = new Map();
  (app.state ? app.state.board : []).forEach((p) => pieces.set(p.sq, p.color + (p.king ? '-king' : '-man')));
  app.setup = { pieces, put: 'white-man' };
  $('setup-side').value = app.state && app.state.side === 'black' ? 'B' : 'W';
  $('setup-box').hidden = false;
  document.querySelectorAll('#palette button').forEach((b) => b.classList.toggle('active', b.dataset.put === 'white-man'));
  render();
}

function setupClick(sq) {
  const s = app.setup;
  if (s.put === 'empty' || s.pieces.get(sq) === s.put) s.pieces.delete(sq);
  else s.pieces.set(sq, s.put);
  renderBoard();
}

function setupFEN() {
  const v = variant();
  const num = new Map(v.squares.map((s) => [s.id, s.num]));
  const list = { white: [], black: [] };
  [...app.setup.pieces.entries()].sort((a, b) => num.get(a[0]) - num.get(b[0])).forEach(([sq, p]) => {
    const [color, kind] = p.split('-');
    list[color].push((kind === 'king' ? 'K' : '') + num.get(sq));
  });
  return $('setup-side').value + ':W' + list.white.join(',') + ':B' + list.black.join(',');
}

async function endSetup(apply) {
  if (apply) {
    const fen = setupFEN();
    if (!(await loadFEN(fen))) return; // the message says what is wrong; stay in set-up
    app.settings.rio = 'none'; // a position to study; choose "Rio plays" to play it out
  }
  app.setup = null;
  $('setup-box').hidden = true;
  refresh();
}

// loadFEN starts a game from fen if the server takes it.
async function loadFEN(fen) {
  try {
    await api('/api/game', { variant: app.game.variant, fen, moves: [] });
  } catch (e) {
    message(e.message, 'error');
    return false;
  }
  app.game = { variant: app.game.variant, fen, moves: [], tags: {}, result: '', reason: '' };
  app.cursor = 0;
  app.evals = [];
  message('');
  return true;
}

// ---------- PDN ----------

function clearImported() {
  app.imported = [];
  $('pdn-games').textContent = '';
  $('pdn-choose').hidden = true;
}

async function importPDN() {
  clearImported(); // a game of an earlier import is not loaded by mistake
  let text = $('pdn-text').value;
  const file = $('pdn-file').files[0];
  if (file) {
    if (file.size > 4 << 20) { message('The file is larger than 4 MiB.', 'error'); return; }
    text = await file.text();
  }
  if (!text.trim()) { message('Paste a PDN or choose a file first.', 'error'); return; }
  try {
    const r = await transport.fetch('/api/pdn/import?variant=' + encodeURIComponent(app.game.variant), {
      method: 'POST', headers: { 'Content-Type': 'text/plain; charset=utf-8' }, body: text,
    });
    const j = await r.json();
    if (!r.ok) throw new Error(j.error || r.statusText);
    app.imported = j.games;
    const sel = $('pdn-games');
    sel.textContent = '';
    j.games.forEach((g, i) => {
      const o = document.createElement('option');
      o.value = String(i);
      const t = g.tags;
      o.textContent = g.number + '. ' + (t.White || '?') + ' – ' + (t.Black || '?') + ' ' + g.result +
        (t.Event ? ' · ' + t.Event : '') + (g.error ? ' (error)' : '');
      sel.appendChild(o);
    });
    $('pdn-choose').hidden = false;
    $('pdn-file').value = ''; // the next import reads the box unless a file is chosen again
    if (j.games.length === 1) loadImported(0);
    else message(j.games.length + ' games' + (j.more ? ' (and ' + j.more + ' more not listed)' : '') + ': choose one.', 'info');
  } catch (e) { message(e.message, 'error'); }
}

function loadImported(i) {
  const g = app.imported[i];
  if (!g || !g.variant) { message('This game cannot be loaded: ' + (g ? g.error : 'none chosen'), 'error'); return; }
  app.game = { variant: g.variant, fen: g.fen, moves: g.moves, tags: g.tags || {}, result: '', reason: '' };
  if (g.error) message('Loaded up to the problem: ' + g.error, 'error');
  else message('Game ' + g.number + ' loaded.', 'info');
  const declared = g.result;
  app.cursor = g.moves.length;
  app.evals = [];
  app.settings.rio = 'none'; // a game to look at, not to play against
  refresh().then((ok) => {
    if (ok && app.state.final === '*' && declared !== '*' && !g.error) {
      app.game.result = declared;
      app.game.reason = 'result of the record';
      save(); render();
    }
  });
}

async function exportPDN() {
  const tags = Object.assign({}, app.game.tags);
  if (!tags.Event) tags.Event = 'Rio board';
  if (!tags.Date) tags.Date = new Date().toISOString().slice(0, 10).replace(/-/g, '.');
  if (!tags.White) tags.White = app.settings.rio === 'white' ? 'Rio' : (app.settings.rio === 'black' ? 'Player' : '?');
  if (!tags.Black) tags.Black = app.settings.rio === 'black' ? 'Rio' : (app.settings.rio === 'white' ? 'Player' : '?');
  try {
    const ans = await api('/api/pdn/export', { game: gameReq(), tags, result: app.game.result || '*' });
    $('pdn-text').value = ans.pdn;
    const a = $('pdn-download');
    if (a.href) URL.revokeObjectURL(a.href);
    a.href = URL.createObjectURL(new Blob([ans.pdn], { type: 'text/plain' }));
    a.hidden = false;
    message('The game is in the PDN box.', 'info');
  } catch (e) { message(e.message, 'error'); }
}

// ---------- wiring ----------

function wire() {
  const board = $('board');
  board.addEventListener('pointerdown', onPointerDown);
  board.addEventListener('pointermove', onPointerMove);
  board.addEventListener('pointerup', onPointerUp);
  board.addEventListener('pointercancel', () => { app.drag = null; renderBoard(); });

  $('variant').addEventListener('change', (e) => {
    app.game = { variant: e.target.value, fen: '', moves: [], tags: {}, result: '', reason: '' };
    app.cursor = 0; app.evals = []; app.settings.labels = '';
    clearImported();
    if (app.setup) { app.setup = null; $('setup-box').hidden = true; }
    refresh();
  });
  $('flip').addEventListener('click', () => { app.settings.flip = !app.settings.flip; save(); renderBoard(); });
  $('labels').addEventListener('click', () => {
    app.settings.labels = labelsMode() === 'numbers' ? 'coords' : 'numbers';
    save(); render();
  });
  $('first').addEventListener('click', () => goTo(0));
  $('prev').addEventListener('click', () => goTo(app.cursor - 1));
  $('next').addEventListener('click', () => goTo(app.cursor + 1));
  $('last').addEventListener('click', () => goTo(app.game.moves.length));
  document.addEventListener('keydown', (e) => {
    if (e.target.closest && e.target.closest('input, textarea, select')) return;
    if (e.key === 'ArrowLeft') { goTo(app.cursor - 1); e.preventDefault(); }
    else if (e.key === 'ArrowRight') { goTo(app.cursor + 1); e.preventDefault(); }
    else if (e.key === 'Home') { goTo(0); e.preventDefault(); }
    else if (e.key === 'End') { goTo(app.game.moves.length); e.preventDefault(); }
    else if (e.key === 'f' || e.key === 'F') { app.settings.flip = !app.settings.flip; save(); renderBoard(); }
  });

  const level = $('level');
  const full = document.createElement('option');
  full.value = '0'; full.textContent = 'full (time per move)';
  level.appendChild(full);
  for (let i = 1; i <= app.config.levels; i++) {
    const o = document.createElement('option');
    o.value = String(i); o.textContent = 'level ' + i;
    level.appendChild(o);
  }
  level.addEventListener('change', () => { app.settings.level = Number(level.value); save(); render(); });
  $('movetime').addEventListener('change', (e) => {
    const t = Number(e.target.value);
    if (t >= 0.1 && t <= 600) app.settings.movetime = t;
    else message('Seconds per move: 0.1 to 600.', 'error');
    save(); render();
  });
  $('rio-side').addEventListener('change', (e) => { app.settings.rio = e.target.value; save(); refresh(); });
  $('new-game').addEventListener('click', newGame);
  $('takeback').addEventListener('click', takeBack);
  $('resign').addEventListener('click', resign);
  $('draw').addEventListener('click', offerDraw);

  $('analyse').addEventListener('change', (e) => {
    app.settings.analyse = e.target.checked;
    save();
    if (app.settings.analyse) startAnalysis();
    else { stopAnalysis(); api('/api/stop', { tab: app.tab }).catch(() => {}); renderAnalysis(null); }
  });
  $('lines').addEventListener('change', (e) => {
    app.settings.lines = Number(e.target.value); save();
    if (app.settings.analyse) startAnalysis();
  });
  $('score-game').addEventListener('click', scoreGame);
  $('graph').addEventListener('click', (e) => {
    const r = e.currentTarget.getBoundingClientRect();
    goTo(Math.round((e.clientX - r.left) / r.width * Math.max(app.game.moves.length, 1)));
  });

  $('fen-load').addEventListener('click', async () => {
    const fen = $('fen-in').value.trim();
    if (!fen) { message('Type a FEN first.', 'error'); return; }
    if (await loadFEN(fen)) { app.settings.rio = 'none'; refresh(); }
  });
  $('fen-copy').addEventListener('click', () => {
    const f = $('fen-out');
    f.select();
    if (navigator.clipboard) navigator.clipboard.writeText(f.value).catch(() => {});
  });
  $('setup').addEventListener('click', startSetup);
  document.querySelectorAll('#palette button').forEach((b) => b.addEventListener('click', () => {
    app.setup.put = b.dataset.put;
    document.querySelectorAll('#palette button').forEach((o) => o.classList.toggle('active', o === b));
  }));
  $('setup-clear').addEventListener('click', () => { app.setup.pieces.clear(); renderBoard(); });
  $('setup-start').addEventListener('click', () => {
    app.setup.pieces.clear();
    const v = variant();
    const byNum = new Map(v.squares.map((s) => [s.num, s.id]));
    const [side, w, b] = v.start.split(':');
    $('setup-side').value = side;
    [[w, 'white'], [b, 'black']].forEach(([list, color]) => list.slice(1).split(',').forEach((n) => {
      const king = n.startsWith('K');
      app.setup.pieces.set(byNum.get(Number(king ? n.slice(1) : n)), color + (king ? '-king' : '-man'));
    }));
    renderBoard();
  });
  $('setup-done').addEventListener('click', () => endSetup(true));
  $('setup-cancel').addEventListener('click', () => endSetup(false));

  $('pdn-import').addEventListener('click', importPDN);
  $('pdn-load').addEventListener('click', () => loadImported(Number($('pdn-games').value)));
  $('pdn-export').addEventListener('click', exportPDN);
  window.addEventListener('pagehide', () => {
    stopAnalysis();
    transport.beacon('/api/stop', JSON.stringify({ tab: app.tab }));
  });
}

async function main() {
  try {
    const r = await transport.fetch('/api/config');
    app.config = await r.json();
  } catch (e) {
    message('Rio is not answering: ' + e.message, 'error');
    return;
  }
  const sel = $('variant');
  app.config.variants.forEach((v) => {
    app.variants[v.name] = v;
    const o = document.createElement('option');
    o.value = v.name; o.textContent = v.title;
    sel.appendChild(o);
  });
  app.game.variant = app.config.variant;
  wire();
  const restored = restore();
  if (!(await refresh()) && restored) {
    message('The saved game could not be restored; a new game starts.', 'error');
    app.game = { variant: app.config.variant, fen: '', moves: [], tags: {}, result: '', reason: '' };
    app.cursor = 0; app.evals = [];
    refresh();
  }
}

main();
