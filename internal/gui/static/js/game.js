// game.js: the game and its API calls. It owns the game record (start
// position, moves, tags, a result the rules did not give), the ply shown,
// the position's answer from Rio (/api/game: the board, the legal moves
// with their landing squares, the notation, the result), the scores of
// the graph, and Rio's move in progress. Every rule decision is Rio's:
// this module sends the game and takes the answer.

import { message, announce } from './dom.js';
import { api } from './transport.js';
import { settings, save, keep, tabId } from './store.js';
import * as analysis from './analysis.js';
import * as clock from './clock.js';
import * as board from './board.js';
import * as setup from './setup.js';

export const rec = {
  config: null,          // /api/config
  variants: {},          // name -> variant view (squares, start, rules)
  game: emptyGame('brazilian'),
  cursor: 0,             // ply shown
  state: null,           // the last /api/game answer
  evals: [],             // per ply, White's view, in men
  gen: 0,                // bumped by every new position shown: late answers are dropped
  version: 0,            // bumped by every change of the game record: Rio's late moves and draw answers are dropped
  tab: tabId(),
};

let thinking = null;     // AbortController of Rio's move
let said = '';           // what to announce with the next position

const views = [];

// onRender registers a view redrawn after every change.
export function onRender(f) { views.push(f); }

export function render() { views.forEach((f) => f()); }

// emptyGame is a game of variant from fen (the start when empty): the one
// place a new record is made.
export function emptyGame(variant, fen = '') {
  return { variant, fen, moves: [], tags: {}, result: '', reason: '' };
}

export function variant() { return rec.variants[rec.game.variant]; }

// init takes the engine's configuration: its variants, and the one a new
// page starts with.
export function init(config) {
  rec.config = config;
  config.variants.forEach((v) => { rec.variants[v.name] = v; });
  rec.game = emptyGame(config.variant);
}

// setEval records White's score of ply (the graph's), or all of them.
export function setEval(ply, white) { rec.evals[ply] = white; }
export function setEvals(list) { rec.evals = list; }

// changed marks a change of the game record: answers about the game as
// it was are dropped.
function changed() {
  rec.version++;
  stopThinking();
}

export function gameReq(at) {
  const g = { variant: rec.game.variant, fen: rec.game.fen, moves: rec.game.moves };
  if (at !== undefined) g.at = at;
  return g;
}

export function isThinking() { return !!thinking; }

export function atEnd() { return rec.cursor === rec.game.moves.length; }

export function over() { return !!rec.game.result || (!!rec.state && rec.state.final !== '*'); }

// rioTurn: Rio is to move in the game, whose last position is shown.
export function rioTurn() {
  const st = rec.state;
  return !!st && settings.rio === st.side && atEnd() && st.result === '*' && !rec.game.result;
}

// canEnter: the player may enter a move on the position shown.
export function canEnter() {
  if (!rec.state || thinking || setup.active()) return false;
  if (rec.game.result && atEnd()) return false;
  if (clock.timed() && !atEnd()) return false; // a timed game is played at its end
  return !rioTurn();
}

export function sideName(side) { return side === 'white' ? 'White' : 'Black'; }

// moveText is a move as the page writes it: algebraic or numbers.
export function moveText(m) {
  return labelsMode() === 'numbers' ? m.num : m.text;
}

export function labelsMode() {
  return settings.labels || (variant().algebraic ? 'coords' : 'numbers');
}

keep(() => ({ game: rec.game, cursor: rec.cursor, evals: rec.evals, clock: clock.snapshot() }));

// restore takes the stored game back if its variant is known.
export function restore(s) {
  if (!s || !s.game || !rec.variants[s.game.variant] || !Array.isArray(s.game.moves)) return false;
  rec.game = Object.assign(emptyGame(s.game.variant), s.game);
  rec.cursor = Math.min(s.cursor | 0, rec.game.moves.length);
  rec.evals = Array.isArray(s.evals) ? s.evals : [];
  clock.restore(s.clock, rec.game.moves.length);
  return true;
}

// refresh asks Rio for the position shown and redraws; it then starts
// Rio's move or the analysis where they are due.
export async function refresh() {
  const gen = ++rec.gen;
  const text0 = said;
  said = '';
  analysis.stop();
  let st;
  try {
    st = await api('/api/game', gameReq(rec.cursor));
  } catch (e) {
    message(e.message, 'error');
    return false;
  }
  if (gen !== rec.gen) return false;
  const prev = rec.state;
  rec.state = st;
  board.positionChanged(prev, st);
  clock.sync();
  save();
  render();
  const text = statusText();
  announce(text0 ? text0 + '. ' + text : text);
  if (!setup.active()) {
    if (rioTurn()) { if (!thinking) rioMove(); }
    else if (settings.analyse && !thinking) analysis.start();
  }
  return true;
}

// statusText says whose turn it is, or how the game ended.
export function statusText() {
  const st = rec.state;
  if (!st) return '';
  let text;
  if (setup.active()) {
    text = 'Set up a position: choose a piece, then squares.';
  } else if (rec.game.result && atEnd()) {
    text = rec.game.result + ' — ' + rec.game.reason;
  } else if (st.result !== '*') {
    text = st.result + ' — ' + st.reason;
  } else {
    text = sideName(st.side) + ' to move';
    if (thinking) text += ' · Rio is thinking…';
    if (st.rule) text += ' · ' + st.rule;
    if (st.table) text += ' · tables: ' + st.table;
  }
  if (!atEnd()) text += ' (move ' + rec.cursor + ' of ' + rec.game.moves.length + ')';
  return text;
}

// play adds move (a legal move of the position shown) to the game; a move
// played back in the game starts a new line from there.
export function play(move, by) {
  if (rec.game.result) return;
  const mover = by || sideName(rec.state.side);
  if (atEnd() && !clock.moved(rec.state.side, rec.cursor)) return; // the flag fell first
  changed();
  rec.game.moves = rec.game.moves.slice(0, rec.cursor);
  rec.evals = rec.evals.slice(0, rec.cursor + 1);
  rec.game.moves.push(move.move);
  rec.cursor = rec.game.moves.length;
  message('');
  said = mover + ' played ' + moveText(move);
  refresh();
}

// playLine plays the moves of an analysis line from the position shown.
export function playLine(pv) {
  if (rec.game.result || clock.timed()) return;
  changed();
  rec.game.moves = rec.game.moves.slice(0, rec.cursor).concat(pv.map((m) => m.move));
  rec.evals = rec.evals.slice(0, rec.cursor + 1);
  rec.cursor = rec.game.moves.length;
  refresh();
}

// rioMove asks Rio for its move at the game's end. It goes on while the
// player looks back through the game; a change of the game drops it.
async function rioMove() {
  const version = rec.version;
  const ctl = new AbortController();
  thinking = ctl;
  render();
  try {
    const body = { tab: rec.tab, game: gameReq(), level: settings.level, book: true };
    const c = clock.forRio();
    if (c) body.clock = c;
    else if (!settings.level) body.movetime = settings.movetime;
    const ans = await api('/api/search', body, ctl.signal);
    if (version !== rec.version) return;
    thinking = null;
    rec.cursor = rec.game.moves.length; // Rio's move is played at the end, where the player may not be looking
    rec.evals[rec.cursor] = ans.score.white;
    play(ans.move, 'Rio');
  } catch (e) {
    if (e.name === 'AbortError') return;
    if (version === rec.version) { thinking = null; message(e.message, 'error'); render(); }
  }
}

export function stopThinking() {
  if (thinking) { thinking.abort(); thinking = null; }
}

// setResult ends the game with a result the rules did not give (a
// resignation, an agreed draw, a flag fall).
export function setResult(result, reason) {
  changed();
  analysis.stop();
  rec.game.result = result;
  rec.game.reason = reason;
  clock.stop();
  save();
  render();
  announce('Game over: ' + result + ' — ' + reason);
}

export function newGame(variantName, fen) {
  changed();
  rec.game = emptyGame(variantName || rec.game.variant, fen || '');
  rec.cursor = 0;
  rec.evals = [];
  clock.reset();
  message('');
  return refresh();
}

export function takeBack() {
  if (!rec.game.moves.length || clock.timed()) return;
  changed();
  let n = rec.game.moves.length - 1;
  // Against Rio, back to the last position where the player was to move.
  if (settings.rio !== 'none') while (n > 0 && sideAt(n) === settings.rio) n--;
  rec.game.moves = rec.game.moves.slice(0, n);
  rec.game.result = ''; rec.game.reason = '';
  rec.evals = rec.evals.slice(0, n + 1);
  rec.cursor = n;
  refresh();
}

// sideAt is the side to move at ply n (moves alternate from the start).
export function sideAt(n) {
  const first = rec.state && rec.state.start[0] === 'B' ? 'black' : 'white';
  return (n % 2 === 0) === (first === 'white') ? 'white' : 'black';
}

// playerSide is the side the person plays: the side to move in a game of
// two players.
export function playerSide() {
  if (settings.rio === 'none') return rec.state.side;
  return settings.rio === 'white' ? 'black' : 'white';
}

export function resign() {
  if (over()) return;
  const side = playerSide();
  setResult(side === 'white' ? '0-2' : '2-0', sideName(side) + ' resigned');
}

export async function offerDraw() {
  if (over()) return;
  if (settings.rio === 'none') { setResult('1-1', 'draw agreed'); return; }
  analysis.stop();
  const version = rec.version;
  try {
    const ans = await api('/api/draw', { tab: rec.tab, game: gameReq(), rio: settings.rio });
    // A take back, a move, a resignation, a flag or a new game since: the
    // answer was about a game that has moved on.
    if (version !== rec.version || over()) return;
    if (ans.accept) {
      message('Rio accepts the draw.', 'info');
      setResult('1-1', 'draw agreed');
    } else {
      message('Rio declines the draw.', 'info');
      if (settings.analyse) analysis.start();
    }
  } catch (e) {
    if (version === rec.version) message(e.message, 'error');
  }
}

export function goTo(ply) {
  ply = Math.max(0, Math.min(ply, rec.game.moves.length));
  if (ply === rec.cursor) return;
  rec.cursor = ply;
  refresh();
}

// loadFEN starts a game from fen if Rio takes it.
export async function loadFEN(fen) {
  try {
    await api('/api/game', { variant: rec.game.variant, fen, moves: [] });
  } catch (e) {
    message(e.message, 'error');
    return false;
  }
  changed();
  rec.game = emptyGame(rec.game.variant, fen);
  rec.cursor = 0;
  rec.evals = [];
  clock.clear(); // a position to study: untimed
  message('');
  return true;
}

// loadGame shows an imported game at its end, a result the record
// declares kept when the rules give none.
export async function loadGame(g) {
  changed();
  rec.game = Object.assign(emptyGame(g.variant, g.fen), { moves: g.moves, tags: g.tags || {} });
  rec.cursor = g.moves.length;
  rec.evals = [];
  clock.clear(); // a game to look at: untimed
  settings.rio = 'none'; // ... and not to play against
  const ok = await refresh();
  if (ok && rec.state.final === '*' && g.result !== '*' && !g.error) setResult(g.result, 'result of the record');
}

// setRio changes the side Rio plays; Rio's move in progress is dropped.
export function setRio(side) {
  changed();
  settings.rio = side;
  save();
  refresh();
}
