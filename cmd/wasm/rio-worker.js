// rio-worker.js: Rio, the 8x8 draughts engine, as a Web Worker that speaks
// Hub (Scan's protocol). Start it with new Worker(url); post one command
// string per message (hub, set-param, init, pos, level, go, stop, quit);
// every line Rio writes comes back as one message string. Messages sent
// before rio.wasm has loaded are queued. rio.wasm and wasm_exec.js (Go's
// loader) sit beside this file. One thread; no SharedArrayBuffer.
'use strict';

const base = (self.location && self.location.href) || '';
const here = (name) => (base ? new URL(name, base).href : name);

// fail says why Rio cannot answer, as a Hub error line (quotes and line
// ends kept out of the message).
const fail = (why) => self.postMessage('error message="' + String(why).replace(/["\r\n]/g, "'") + '"');

let loaded = true;
try {
  importScripts(here('wasm_exec.js'));
} catch (err) {
  loaded = false;
  fail('cannot start Rio: wasm_exec.js: ' + ((err && err.message) || err));
}

const early = [];
let deliver = null;
let exited = false; // Go has returned (quit, or a crash): messages are dropped
let quitting = false;
self.onmessage = (e) => {
  if (exited) return;
  const line = String(e.data);
  if (line.trim() === 'quit') quitting = true;
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

if (loaded) {
  const go = new Go();
  fetch(here('rio.wasm'))
    .then((r) => {
      if (!r.ok) throw new Error('rio.wasm: HTTP ' + r.status);
      return r.arrayBuffer();
    })
    .then((bytes) => WebAssembly.instantiate(bytes, go.importObject))
    .then((m) => go.run(m.instance))
    .then(() => {
      // Go returns on quit (and closes the worker); any other return is
      // a crash the page must hear of.
      exited = true;
      if (!quitting) fail('Rio stopped (exit code ' + go.exitCode + ')');
    })
    .catch((err) => {
      exited = true;
      fail('cannot start Rio: ' + ((err && err.message) || err));
    });
}
