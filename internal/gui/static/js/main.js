// main.js: Rio's board page. Every rule decision comes from Rio (the
// server of engine gui, or board.wasm in a worker for the static board:
// transport.js); the modules draw, take clicks, drags and keys, and keep
// the game in localStorage so that it survives a reload. Each module owns
// its state: game.js the game, board.js the selection and focus,
// analysis.js the analysis stream, clock.js the clock, setup.js the
// set-up, pdn.js the imported games, store.js the settings.

import { $, message } from './dom.js';
import { transport, apiGet } from './transport.js';
import { settings, save, load } from './store.js';
import * as game from './game.js';
import * as board from './board.js';
import * as analysis from './analysis.js';
import * as clock from './clock.js';
import * as setup from './setup.js';
import { renderMoves } from './moves.js';
import { wirePDN, clearImported } from './pdn.js';

const { rec } = game;

// renderControls shows the game's state in the panel's controls.
function renderControls() {
  const st = rec.state;
  const status = $('status');
  status.textContent = game.statusText();
  if (st) status.dataset.result = st.result;
  $('fen-out').value = st ? st.fen : '';
  $('rules').textContent = game.variant().rules;
  $('variant').value = rec.game.variant;
  const numbers = game.labelsMode() === 'numbers';
  $('labels').setAttribute('aria-pressed', String(numbers));
  $('flip').setAttribute('aria-pressed', String(settings.flip));
  $('rio-side').value = settings.rio;
  $('level').value = String(settings.level);
  $('movetime').value = settings.movetime;
  $('movetime-box').hidden = settings.level !== 0 || clock.timed();
  $('lines').value = String(settings.lines);
  $('analyse').checked = settings.analyse;
  clock.showSetting();
  const done = game.over();
  $('resign').disabled = done || setup.active();
  $('draw').disabled = done || setup.active() || game.isThinking();
  $('takeback').disabled = !rec.game.moves.length || clock.timed();
  // A timed game in progress is played out: no set-up, no scoring search
  // while Rio thinks (the tab's one search is its move).
  $('setup').disabled = clock.timed() && !done;
  $('score-game').disabled = game.isThinking();
  if (!settings.analyse) analysis.render(null);
  clock.render();
}

function renderAll() {
  board.renderBoard();
  renderMoves();
  renderControls();
  analysis.renderGraph();
}

// shortcut keys work anywhere but in fields and on the board (which has
// its own keys), and never with Ctrl, Cmd or Alt (Ctrl+F finds in the
// page).
function onKey(e) {
  if (e.ctrlKey || e.metaKey || e.altKey || e.defaultPrevented) return;
  if (e.target.closest && e.target.closest('input, textarea, select')) return;
  if (e.key === 'ArrowLeft') game.goTo(rec.cursor - 1);
  else if (e.key === 'ArrowRight') game.goTo(rec.cursor + 1);
  else if (e.key === 'Home') game.goTo(0);
  else if (e.key === 'End') game.goTo(rec.game.moves.length);
  else if (e.key === 'f' || e.key === 'F') { board.flip(); renderControls(); }
  else return;
  e.preventDefault();
}

function wire() {
  board.wireBoard();
  analysis.wireAnalysis();
  wirePDN();
  setup.wireSetup(() => board.renderBoard());
  clock.wireClock(() => {
    save();
    renderControls();
    message(settings.clock ? 'The clock (' + settings.clock + ') starts with the next new game.' : 'The next new game is untimed.', 'info');
  });

  $('variant').addEventListener('change', (e) => {
    settings.labels = '';
    clearImported();
    setup.cancel();
    game.newGame(e.target.value);
  });
  $('flip').addEventListener('click', () => { board.flip(); renderControls(); });
  $('labels').addEventListener('click', () => {
    settings.labels = game.labelsMode() === 'numbers' ? 'coords' : 'numbers';
    save();
    renderAll();
  });
  $('first').addEventListener('click', () => game.goTo(0));
  $('prev').addEventListener('click', () => game.goTo(rec.cursor - 1));
  $('next').addEventListener('click', () => game.goTo(rec.cursor + 1));
  $('last').addEventListener('click', () => game.goTo(rec.game.moves.length));
  document.addEventListener('keydown', onKey);

  const level = $('level');
  const full = document.createElement('option');
  full.value = '0'; full.textContent = 'full (time per move)';
  level.appendChild(full);
  for (let i = 1; i <= rec.config.levels; i++) {
    const o = document.createElement('option');
    o.value = String(i); o.textContent = 'level ' + i;
    level.appendChild(o);
  }
  level.addEventListener('change', () => { settings.level = Number(level.value); save(); renderControls(); });
  $('movetime').addEventListener('change', (e) => {
    const t = Number(e.target.value);
    if (t >= 0.1 && t <= 600) settings.movetime = t;
    else message('Seconds per move: 0.1 to 600.', 'error');
    save();
    renderControls();
  });
  $('rio-side').addEventListener('change', (e) => game.setRio(e.target.value));
  $('new-game').addEventListener('click', () => game.newGame());
  $('takeback').addEventListener('click', game.takeBack);
  $('resign').addEventListener('click', game.resign);
  $('draw').addEventListener('click', game.offerDraw);

  $('fen-load').addEventListener('click', async () => {
    const fen = $('fen-in').value.trim();
    if (!fen) { message('Type a FEN first.', 'error'); return; }
    if (await game.loadFEN(fen)) { settings.rio = 'none'; game.refresh(); }
  });
  $('fen-copy').addEventListener('click', () => {
    const f = $('fen-out');
    f.select();
    if (navigator.clipboard) navigator.clipboard.writeText(f.value).catch(() => {});
  });

  // An untimed game's analysis pauses while the tab is hidden (a timed
  // game's clocks keep running, as on every site).
  document.addEventListener('visibilitychange', () => {
    if (clock.timed() || !settings.analyse) return;
    if (document.hidden) analysis.stop();
    else if (!game.rioTurn() && !setup.active()) analysis.start();
  });
  window.addEventListener('pagehide', () => {
    analysis.stop();
    transport.beacon('/api/stop', JSON.stringify({ tab: rec.tab }));
  });
}

async function main() {
  let config;
  try {
    config = await apiGet('/api/config');
  } catch (e) {
    message('Rio is not answering: ' + e.message, 'error');
    return;
  }
  game.init(config);
  const sel = $('variant');
  rec.config.variants.forEach((v) => {
    const o = document.createElement('option');
    o.value = v.name; o.textContent = v.title;
    sel.appendChild(o);
  });
  game.onRender(renderAll);
  wire();
  const restored = game.restore(load());
  if (!restored) clock.reset();
  if (!(await game.refresh()) && restored) {
    message('The saved game could not be restored; a new game starts.', 'error');
    game.newGame(rec.config.variant);
  }
}

// For the console and the tests: the transport and whether an analysis
// stream is open.
window.rio = { transport, analysing: analysis.running };

main();
