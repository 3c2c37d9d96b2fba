// analysis.js: Rio's live analysis of the position shown and the graph
// of the game's scores. It owns the analysis stream. Scores are shown
// from White's side, as lidraughts shows them (the side to move's view in
// the tooltip); a forced win is counted in moves.

import { $, svgEl, message } from './dom.js';
import { transport, api } from './transport.js';
import { settings, save } from './store.js';
import { rec, gameReq, moveText, playLine, goTo, sideName, isThinking, setEval, setEvals } from './game.js';

let source = null; // the analysis stream (an EventSource or the worker's)

export function running() { return source !== null; }

// start analyses the position shown. Not while Rio thinks: the tab has one
// search, and Rio's move comes first.
export function start() {
  stop();
  if (isThinking()) return;
  const st = rec.state;
  if (!st || st.result !== '*') {
    render(null);
    return;
  }
  const q = new URLSearchParams({
    tab: rec.tab, variant: rec.game.variant, fen: rec.game.fen || '',
    moves: rec.game.moves.join(' '), at: String(rec.cursor), lines: String(settings.lines),
  });
  const src = transport.events('/api/analyse?' + q.toString());
  const gen = rec.gen;
  source = src;
  src.addEventListener('analysis', (ev) => {
    if (gen !== rec.gen || source !== src) return;
    const a = JSON.parse(ev.data);
    if (a.lines.length) {
      render(a);
      if (a.depth >= 6) { setEval(rec.cursor, a.lines[0].score.white); renderGraph(); }
    }
    if (a.done) { src.close(); if (source === src) source = null; }
  });
  // No automatic reconnection: a stream that ends (another search of this
  // tab, the server gone) is started again only by the page.
  src.onerror = () => { src.close(); if (source === src) source = null; };
}

export function stop() {
  if (source) {
    source.close();
    source = null;
  }
}

// stopAll stops the analysis and tells Rio to stop the tab's search.
export function stopAll() {
  stop();
  if (!isThinking()) api('/api/stop', { tab: rec.tab }).catch(() => {});
  render(null);
}

// whiteText writes a score from White's side: "+0.35" in men, or "White
// wins in 4 moves".
export function whiteText(sc, side) {
  if (sc.win) {
    const moves = Math.ceil(Math.abs(sc.win) / 2);
    const winner = (sc.win > 0) === (side === 'white') ? 'White' : 'Black';
    return winner + ' wins in ' + moves + (moves === 1 ? ' move' : ' moves');
  }
  return (sc.white >= 0 ? '+' : '') + sc.white.toFixed(2);
}

function sideTip(sc, side) {
  return 'for ' + sideName(side) + ', to move: ' + sc.text;
}

export function render(a) {
  const lines = $('an-lines');
  // A line's move that has the focus keeps it in the redrawn lines.
  const f = document.activeElement;
  let keep = null;
  if (f && f.classList && f.classList.contains('pv-move') && lines.contains(f)) keep = [f.dataset.line, f.dataset.k];
  lines.textContent = '';
  const st = rec.state;
  if (!a || !st) {
    $('an-score').textContent = '';
    $('an-score').removeAttribute('title');
    $('an-info').textContent = '';
    $('an-table').textContent = tableText();
    return;
  }
  const top = a.lines[0].score;
  $('an-score').textContent = whiteText(top, st.side);
  $('an-score').title = sideTip(top, st.side);
  $('an-info').textContent = 'depth ' + a.depth + ' · ' + formatNPS(a.nps) + ' · ' + a.time.toFixed(1) + ' s';
  $('an-table').textContent = a.table ? 'tables: ' + a.table : tableText();
  a.lines.forEach((l, n) => {
    const li = document.createElement('li');
    const sc = document.createElement('span');
    sc.className = 'score';
    sc.textContent = whiteText(l.score, st.side);
    sc.title = sideTip(l.score, st.side);
    li.appendChild(sc);
    li.appendChild(document.createTextNode(' '));
    l.pv.forEach((m, k) => {
      const b = document.createElement('button');
      b.type = 'button';
      b.className = 'pv-move';
      b.textContent = moveText(m);
      b.title = 'play up to here';
      b.dataset.line = String(n);
      b.dataset.k = String(k);
      b.addEventListener('click', () => playLine(l.pv.slice(0, k + 1)));
      li.appendChild(b);
      li.appendChild(document.createTextNode(' '));
    });
    lines.appendChild(li);
  });
  if (keep) {
    const b = lines.querySelector(`.pv-move[data-line="${keep[0]}"][data-k="${keep[1]}"]`);
    if (b) b.focus();
  }
}

function tableText() {
  return rec.state && rec.state.table ? 'tables: ' + rec.state.table : '';
}

function formatNPS(n) {
  if (n >= 1e6) return (n / 1e6).toFixed(2) + ' M nodes/s';
  return (n / 1e3).toFixed(0) + ' k nodes/s';
}

export async function scoreGame() {
  if (isThinking()) return; // the tab's one search is Rio's move
  message('Scoring the game…', 'info');
  stop();
  const gen = rec.gen;
  try {
    const ans = await api('/api/graph', { tab: rec.tab, game: gameReq() });
    if (gen !== rec.gen) return;
    setEvals(ans.scores);
    save();
    renderGraph();
    message('The game is scored.', 'info');
    if (settings.analyse) start();
  } catch (e) {
    if (gen === rec.gen) message(e.message, 'error');
  }
}

// renderGraph draws the scores of the game from White's side (above the
// line: White is better).
export function renderGraph() {
  const svg = $('graph');
  svg.textContent = '';
  const n = Math.max(rec.game.moves.length, 1);
  svgEl('line', { x1: 0, y1: 50, x2: 400, y2: 50, stroke: '#767676', 'stroke-width': 1 }, svg);
  const pts = [];
  for (let i = 0; i <= rec.game.moves.length; i++) {
    const v = rec.evals[i];
    if (typeof v !== 'number') continue;
    const y = 50 - 48 * Math.tanh(v / 3);
    pts.push((i / n * 400).toFixed(1) + ',' + y.toFixed(1));
  }
  if (pts.length) svgEl('polyline', { points: pts.join(' '), fill: 'none', stroke: '#2b7a4b', 'stroke-width': 2, 'vector-effect': 'non-scaling-stroke' }, svg);
  pts.forEach((pt) => {
    const [px, py] = pt.split(',');
    svgEl('line', { x1: px, y1: py, x2: px, y2: py, stroke: '#2b7a4b', 'stroke-width': 5, 'stroke-linecap': 'round', 'vector-effect': 'non-scaling-stroke' }, svg);
  });
  const x = rec.cursor / n * 400;
  svgEl('line', { x1: x, y1: 0, x2: x, y2: 100, stroke: '#c33', 'stroke-width': 1, 'vector-effect': 'non-scaling-stroke' }, svg);
}

export function wireAnalysis() {
  $('analyse').addEventListener('change', (e) => {
    settings.analyse = e.target.checked;
    save();
    if (settings.analyse) start();
    else stopAll();
  });
  $('lines').addEventListener('change', (e) => {
    settings.lines = Number(e.target.value);
    save();
    if (settings.analyse) start();
  });
  $('score-game').addEventListener('click', scoreGame);
  $('graph').addEventListener('click', (e) => {
    const r = e.currentTarget.getBoundingClientRect();
    goTo(Math.round((e.clientX - r.left) / r.width * Math.max(rec.game.moves.length, 1)));
  });
}
