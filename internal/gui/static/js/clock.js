// clock.js: the game clock. It owns both sides' time left, whose clock
// runs and since when, and each side's time left after its moves (the
// PDN's [%clk] comments). A timed game is played at its end: Rio thinks
// on its own clock through the engine's time management (its time left
// and the increment, as Hub's level time= inc= gives them, never a fixed
// time per move). A flag fall ends the game: a loss, or a draw when the
// other side has only a lone king left against a king (material no rule
// lets win). Time runs from timestamps, so a hidden tab (whose timers the
// browser slows) keeps exact time; timed games do not pause.

import { $, message } from './dom.js';
import { settings } from './store.js';
import { rec, over, setResult, sideName, sideAt } from './game.js';

// presets are the controls offered besides a custom one: minutes +
// seconds of increment.
export const presets = ['1+0', '3+2', '5+3', '15+10'];

let c = null; // {base, inc (ms), left: {white, black}, running: side|null, since (Date.now), after: [ms left of the mover after ply i+1]}

// parse reads 'minutes+seconds' (minutes 0.1-180, seconds 0-60).
export function parse(text) {
  const m = /^\s*(\d+(?:\.\d+)?)\s*\+\s*(\d+(?:\.\d+)?)\s*$/.exec(text || '');
  if (!m) return null;
  const min = Number(m[1]), inc = Number(m[2]);
  if (!(min >= 0.1 && min <= 180 && inc >= 0 && inc <= 60)) return null;
  return { base: Math.round(min * 60000), inc: Math.round(inc * 1000) };
}

export function timed() { return !!c; }

// clear makes the game untimed (a position set up or a game loaded).
export function clear() {
  c = null;
  render();
}

// reset starts the clock of a new game from the setting (none: untimed).
export function reset() {
  const tc = parse(settings.clock);
  c = tc ? { base: tc.base, inc: tc.inc, left: { white: tc.base, black: tc.base }, running: null, since: 0, after: [] } : null;
  render();
}

export function snapshot() { return c; }

// restore takes the stored clock back for a game of plies moves.
export function restore(s, plies) {
  c = null;
  if (s && typeof s === 'object' && s.left && Array.isArray(s.after) && s.after.length <= plies) c = s;
  render();
}

function left(side) {
  if (!c) return 0;
  let ms = c.left[side];
  if (c.running === side) ms -= Date.now() - c.since;
  return ms;
}

// sync runs the clock of the side to move at the game's end while the
// game goes on, whatever position is shown, and stops it otherwise.
export function sync() {
  if (!c) return;
  const side = rec.state && !over() ? sideAt(rec.game.moves.length) : null;
  if (side !== c.running) {
    if (c.running) c.left[c.running] = left(c.running);
    c.running = side;
    c.since = Date.now();
  }
  render();
}

// moved charges side for its move (ply the game's length before it) and
// credits the increment; false when side's time was already up (its flag
// falls instead).
export function moved(side, ply) {
  if (!c || c.running !== side) return true;
  if (left(side) <= 0) {
    flag(side);
    return false;
  }
  c.left[side] = left(side) + c.inc;
  c.after[ply] = c.left[side];
  c.after.length = ply + 1;
  c.running = null;
  return true;
}

export function stop() {
  if (c && c.running) {
    c.left[c.running] = left(c.running);
    c.running = null;
  }
  render();
}

// forRio is what Rio's search gets: its time left and the increment, in
// seconds (null in an untimed game).
export function forRio() {
  if (!c) return null;
  return { time: Math.max(left(settings.rio), 0) / 1000, inc: c.inc / 1000 };
}

// pdn is what the PDN export records: the TimeControl tag (seconds +
// seconds) and each move's clock in seconds (null where none was kept).
export function pdn() {
  if (!c) return null;
  const clocks = [];
  for (let i = 0; i < rec.game.moves.length; i++) clocks.push(typeof c.after[i] === 'number' ? Math.max(c.after[i], 0) / 1000 : null);
  return { control: (c.base / 1000) + '+' + (c.inc / 1000), clocks };
}

function format(ms) {
  ms = Math.max(ms, 0);
  const s = ms / 1000;
  const m = Math.floor(s / 60);
  if (s < 10) return m + ':0' + s.toFixed(1);
  const ss = Math.floor(s % 60);
  return m + ':' + (ss < 10 ? '0' : '') + ss;
}

// cannotWin: side has a single piece, a king, and the other side a king:
// material no rule lets win.
function cannotWin(side) {
  const st = rec.state;
  if (!st) return false;
  const own = st.board.filter((p) => p.color === side);
  const other = st.board.filter((p) => p.color !== side);
  return own.length === 1 && own[0].king && other.some((p) => p.king);
}

function flag(side) {
  const other = side === 'white' ? 'black' : 'white';
  c.running = null;
  c.left[side] = 0;
  if (cannotWin(other)) setResult('1-1', sideName(side) + ' ran out of time; ' + sideName(other) + ' cannot win');
  else setResult(side === 'white' ? '0-2' : '2-0', sideName(side) + ' ran out of time');
}

export function render() {
  const box = $('clocks');
  if (!box) return;
  box.hidden = !c;
  if (!c) return;
  for (const side of ['white', 'black']) {
    const e = $('clock-' + side);
    e.textContent = sideName(side) + ' ' + format(left(side));
    e.classList.toggle('running', c.running === side);
  }
}

function tick() {
  if (!c || !c.running) return;
  render();
  if (left(c.running) <= 0 && !over()) flag(c.running);
}

// customPending: "custom…" is chosen and its field not yet read.
let customPending = false;

export function wireClock(onChange) {
  const sel = $('clock');
  const custom = $('clock-custom');
  const apply = () => {
    const v = sel.value === 'custom' ? custom.value : sel.value;
    if (v && !parse(v)) return false;
    customPending = false;
    settings.clock = v;
    onChange();
    return true;
  };
  sel.addEventListener('change', () => {
    $('clock-custom-box').hidden = sel.value !== 'custom';
    customPending = sel.value === 'custom' && !parse(custom.value);
    if (!customPending) apply();
  });
  custom.addEventListener('change', () => {
    if (!apply()) message('Clock: minutes+seconds, e.g. 10+5 (0.1 to 180 minutes, 0 to 60 seconds).', 'error');
  });
  setInterval(tick, 100);
}

// showSetting puts the clock setting into its controls.
export function showSetting() {
  if (customPending) return; // the player is typing one
  const sel = $('clock');
  const known = settings.clock === '' || presets.includes(settings.clock);
  sel.value = known ? settings.clock : 'custom';
  $('clock-custom-box').hidden = known;
  if (!known) $('clock-custom').value = settings.clock;
}

