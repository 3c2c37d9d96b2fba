// rio-worker.js: Rio, the 8x8 draughts engine, as a Web Worker that speaks
// Hub (Scan's protocol). Start it with new Worker(url); post one command
// string per message (hub, set-param, init, pos, level, go, stop, quit);
// every line Rio writes comes back as one message string. Messages sent
// before rio.wasm has loaded are queued. rio.wasm and wasm_exec.js (Go's
// loader) sit beside this file. One thread; no SharedArrayBuffer.
'use strict';

const base = (self.location && self.location.href) || '';
const here = (name) => (base ? new URL(name, base).href : name);

importScripts(here('wasm_exec.js'));

const early = [];
let deliver = null;
self.onmessage = (e) => {
  const line = String(e.data);
  if (deliver) deliver(line);
  else early.push(line);
};

// Called by rio.wasm once it reads: the queued messages go first, in order.
self.rioReady = (receive) => {
  deliver = receive;
  for (const line of early.splice(0)) receive(line);
};

// The search gives the event loop a turn every few tens of milliseconds
// so that "stop" is seen. In a browser a MessageChannel message is queued
// behind the page's messages already waiting (the same task source) and,
// unlike a nested timer, is not clamped to 4 ms. Node (tests) drains a
// port's messages in one go before other events, so there setImmediate
// gives the turn.
let giveTurn;
if (typeof setImmediate === 'function') {
  giveTurn = (f) => setImmediate(f);
} else {
  const turn = new MessageChannel();
  const waiting = [];
  turn.port1.onmessage = () => {
    const f = waiting.shift();
    if (f) f();
  };
  giveTurn = (f) => {
    waiting.push(f);
    turn.port2.postMessage(0);
  };
}
self.rioYield = giveTurn;

const go = new Go();
fetch(here('rio.wasm'))
  .then((r) => {
    if (!r.ok) throw new Error('rio.wasm: HTTP ' + r.status);
    return r.arrayBuffer();
  })
  .then((bytes) => WebAssembly.instantiate(bytes, go.importObject))
  .then((m) => go.run(m.instance))
  .catch((err) => {
    self.postMessage('error message="cannot start Rio: ' + String(err && err.message || err).replace(/"/g, "'") + '"');
  });
