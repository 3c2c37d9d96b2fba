// pdn.js: PDN import and export. It owns the games of the last import.

import { $, message } from './dom.js';
import { api, apiText } from './transport.js';
import { settings } from './store.js';
import { rec, gameReq, loadGame } from './game.js';
import * as clock from './clock.js';

let imported = [];

export function clearImported() {
  imported = [];
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
    const j = await apiText('/api/pdn/import?variant=' + encodeURIComponent(rec.game.variant), text);
    imported = j.games;
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
    if (j.games.length === 1) load(0);
    else message(j.games.length + ' games' + (j.more ? ' (and ' + j.more + ' more not listed)' : '') + ': choose one.', 'info');
  } catch (e) { message(e.message, 'error'); }
}

function load(i) {
  const g = imported[i];
  if (!g || !g.variant) { message('This game cannot be loaded: ' + (g ? g.error : 'none chosen'), 'error'); return; }
  if (g.error) message('Loaded up to the problem: ' + g.error, 'error');
  else message('Game ' + g.number + ' loaded.', 'info');
  loadGame(g);
}

async function exportPDN() {
  const tags = Object.assign({}, rec.game.tags);
  if (!tags.Event) tags.Event = 'Rio board';
  if (!tags.Date) tags.Date = new Date().toISOString().slice(0, 10).replace(/-/g, '.');
  if (!tags.White) tags.White = settings.rio === 'white' ? 'Rio' : (settings.rio === 'black' ? 'Player' : '?');
  if (!tags.Black) tags.Black = settings.rio === 'black' ? 'Rio' : (settings.rio === 'white' ? 'Player' : '?');
  const body = { game: gameReq(), tags, result: rec.game.result || '*' };
  const tc = clock.pdn();
  if (tc) {
    if (!tags.TimeControl) tags.TimeControl = tc.control;
    body.clocks = tc.clocks;
  }
  try {
    const ans = await api('/api/pdn/export', body);
    $('pdn-text').value = ans.pdn;
    const a = $('pdn-download');
    if (a.href) URL.revokeObjectURL(a.href);
    a.href = URL.createObjectURL(new Blob([ans.pdn], { type: 'text/plain' }));
    a.hidden = false;
    message('The game is in the PDN box.', 'info');
  } catch (e) { message(e.message, 'error'); }
}

export function wirePDN() {
  $('pdn-import').addEventListener('click', importPDN);
  $('pdn-load').addEventListener('click', () => load(Number($('pdn-games').value)));
  $('pdn-export').addEventListener('click', exportPDN);
}
