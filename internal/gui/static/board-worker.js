// board-worker.js runs Rio's board API in the browser, for the static
// board that engine gui --export writes: it loads Go's wasm_exec.js and
// board.wasm (built by bash cmd/wasm/build.sh) from its own directory and
// answers the page's requests, posted as {id, method, path, body, type},
// with {id, status, type, chunk[, end]} messages (cmd/wasm/board). The
// served board (engine gui) does not use it.
'use strict';

const here = (name) => new URL(name, self.location.href).href;
const fail = (why) => self.postMessage({ id: -1, fatal: 'Rio could not start: ' + why });

let loaded = true;
try {
  importScripts(here('wasm_exec.js'));
} catch (err) {
  loaded = false;
  fail('wasm_exec.js: ' + ((err && err.message) || err));
}

const early = [];
let deliver = null;
let exited = false;
self.onmessage = (e) => {
  if (exited) return;
  if (deliver) deliver(e.data);
  else early.push(e.data);
};

// Called by board.wasm once it reads: queued requests go first, in order.
self.rioBoardReady = (receive) => {
  deliver = receive;
  for (const m of early.splice(0)) receive(m);
};

// A search gives the event loop a turn every few tens of milliseconds so
// that the page's next request (a stop, a new position) is seen: a
// MessageChannel turn queues behind the page's messages already waiting.
const turn = new MessageChannel();
const waiting = [];
turn.port1.onmessage = () => {
  const f = waiting.shift();
  if (f) f();
};
self.rioYield = (f) => {
  waiting.push(f);
  turn.port2.postMessage(0);
};

if (loaded) {
  const go = new Go();
  go.argv = ['board', new URLSearchParams(self.location.search).get('variant') || ''];
  fetch(here('board.wasm'))
    .then((r) => {
      if (!r.ok) throw new Error('board.wasm: HTTP ' + r.status);
      return r.arrayBuffer();
    })
    .then((bytes) => WebAssembly.instantiate(bytes, go.importObject))
    .then((m) => go.run(m.instance))
    .then(() => { exited = true; self.postMessage({ id: -1, fatal: 'Rio stopped (exit code ' + go.exitCode + ')' }); })
    .catch((err) => { exited = true; fail(String((err && err.message) || err)); });
}
