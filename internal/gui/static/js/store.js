// store.js: the settings (owned here) and what survives a reload: the
// game, the ply shown, the scores and the clock (owned by game.js and
// clock.js, handed over by save), in localStorage; the tab's id in
// sessionStorage.

export const STORE = 'rio-gui-v1';

export const settings = {
  flip: false,
  labels: '',        // '' (the variant's own), 'coords' or 'numbers'
  rio: 'black',      // the side Rio plays: black, white or none
  level: 0,          // 0 full strength (movetime), 1-10 weaker
  movetime: 1,       // seconds per move at full strength, untimed games
  lines: 3,
  analyse: false,
  clock: '',         // '' untimed, else 'minutes+seconds' (a preset or custom)
};

let snapshot = () => ({});

// keep registers what save writes beside the settings.
export function keep(f) { snapshot = f; }

export function save() {
  localStorage.setItem(STORE, JSON.stringify(Object.assign({}, snapshot(), { settings })));
}

// load returns the stored record (settings merged in here), or null.
export function load() {
  try {
    const s = JSON.parse(localStorage.getItem(STORE) || 'null');
    if (!s || typeof s !== 'object') return null;
    if (s.settings) Object.assign(settings, s.settings);
    return s;
  } catch (e) {
    return null; // a broken store starts afresh
  }
}

export function tabId() {
  let id = sessionStorage.getItem('rio-tab');
  if (!id) {
    const a = new Uint8Array(9);
    crypto.getRandomValues(a);
    id = Array.from(a, (b) => b.toString(16).padStart(2, '0')).join('');
    sessionStorage.setItem('rio-tab', id);
  }
  return id;
}
