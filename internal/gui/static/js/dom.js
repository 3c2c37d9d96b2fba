// dom.js: element lookup, SVG building, and the page's one polite live
// region (#announce) through which everything a screen reader should hear
// is said: moves, whose turn it is, results, Rio's move, messages.

export const SVGNS = 'http://www.w3.org/2000/svg';

export const $ = (id) => document.getElementById(id);

export function svgEl(name, attrs, parent) {
  const e = document.createElementNS(SVGNS, name);
  for (const k in attrs) e.setAttribute(k, attrs[k]);
  if (parent) parent.appendChild(e);
  return e;
}

// announce says text once: each announcement is a new paragraph of the
// live region (additions are what a polite region reads), the oldest
// dropped.
export function announce(text) {
  if (!text) return;
  const r = $('announce');
  const p = document.createElement('p');
  p.textContent = text;
  r.appendChild(p);
  while (r.childElementCount > 3) r.firstElementChild.remove();
}

// message shows text under the board (kind: 'error' or 'info') and says
// it.
export function message(text, kind) {
  const m = $('message');
  m.textContent = text || '';
  m.className = kind || '';
  announce(text);
}
