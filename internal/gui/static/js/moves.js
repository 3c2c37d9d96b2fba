// moves.js: the move list, each move a button that shows its position.

import { $ } from './dom.js';
import { rec, moveText, goTo } from './game.js';

export function renderMoves() {
  const ol = $('movelist');
  const hadFocus = ol.contains(document.activeElement);
  ol.textContent = '';
  const st = rec.state;
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
    const b = document.createElement('button');
    b.type = 'button';
    b.className = 'mv';
    b.textContent = moveText(m);
    b.dataset.ply = String(i + 1);
    if (i + 1 === rec.cursor) {
      b.classList.add('current');
      b.setAttribute('aria-current', 'step');
    }
    b.addEventListener('click', () => goTo(i + 1));
    li.appendChild(b);
  });
  const cur = ol.querySelector('.current');
  if (cur) cur.scrollIntoView({ block: 'nearest' });
  if (hadFocus) (cur || ol.querySelector('button') || $('first')).focus();
}
