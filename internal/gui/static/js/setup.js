// setup.js: the set-up mode. It owns the pieces being placed and the
// piece the palette puts; Rio checks the position before it is taken.

import { $ } from './dom.js';
import { settings } from './store.js';
import { rec, variant, loadFEN, refresh, render, stopThinking } from './game.js';
import * as analysis from './analysis.js';

let mode = null; // {pieces: Map(square -> 'white-man'...), put: 'white-man'}

export function active() { return !!mode; }

export function pieces() { return new Map(mode.pieces); }

export function start() {
  stopThinking();
  analysis.stop();
  const pieces = new Map();
  (rec.state ? rec.state.board : []).forEach((p) => pieces.set(p.sq, p.color + (p.king ? '-king' : '-man')));
  mode = { pieces, put: 'white-man' };
  $('setup-side').value = rec.state && rec.state.side === 'black' ? 'B' : 'W';
  $('setup-box').hidden = false;
  choose('white-man');
  render();
}

// choose selects the palette's piece (its button pressed).
function choose(put) {
  mode.put = put;
  document.querySelectorAll('#palette button').forEach((b) => {
    const on = b.dataset.put === put;
    b.classList.toggle('active', on);
    b.setAttribute('aria-pressed', String(on));
  });
}

// put is a click on square sq: the palette's piece, or empty.
export function put(sq) {
  if (mode.put === 'empty' || mode.pieces.get(sq) === mode.put) mode.pieces.delete(sq);
  else mode.pieces.set(sq, mode.put);
}

function fen() {
  const v = variant();
  const num = new Map(v.squares.map((s) => [s.id, s.num]));
  const list = { white: [], black: [] };
  [...mode.pieces.entries()].sort((a, b) => num.get(a[0]) - num.get(b[0])).forEach(([sq, p]) => {
    const [color, kind] = p.split('-');
    list[color].push((kind === 'king' ? 'K' : '') + num.get(sq));
  });
  return $('setup-side').value + ':W' + list.white.join(',') + ':B' + list.black.join(',');
}

async function end(apply) {
  if (apply) {
    if (!(await loadFEN(fen()))) return; // the message says what is wrong; stay in set-up
    settings.rio = 'none'; // a position to study; choose "Rio plays" to play it out
  }
  cancel();
  refresh();
}

// cancel leaves set-up without taking its position.
export function cancel() {
  mode = null;
  $('setup-box').hidden = true;
}

export function wireSetup(redraw) {
  $('setup').addEventListener('click', start);
  document.querySelectorAll('#palette button').forEach((b) => b.addEventListener('click', () => choose(b.dataset.put)));
  $('setup-clear').addEventListener('click', () => { mode.pieces.clear(); redraw(); });
  $('setup-start').addEventListener('click', () => {
    mode.pieces.clear();
    const v = variant();
    const byNum = new Map(v.squares.map((s) => [s.num, s.id]));
    const [side, w, b] = v.start.split(':');
    $('setup-side').value = side;
    [[w, 'white'], [b, 'black']].forEach(([list, color]) => list.slice(1).split(',').forEach((n) => {
      const king = n.startsWith('K');
      mode.pieces.set(byNum.get(Number(king ? n.slice(1) : n)), color + (king ? '-king' : '-man'));
    }));
    redraw();
  });
  $('setup-done').addEventListener('click', () => end(true));
  $('setup-cancel').addEventListener('click', () => { cancel(); refresh(); });
}
