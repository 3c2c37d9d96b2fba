// worker-shim.cjs runs a browser Web Worker script inside a Node
// worker_threads Worker: it provides what a dedicated worker's global has
// and Node lacks (self, location, importScripts, onmessage/postMessage,
// close, and fetch for file: URLs). workerData.script is the worker's
// path. Used by tests/wasm/driver.mjs only.
'use strict';
const { parentPort, workerData } = require('node:worker_threads');
const fs = require('node:fs');
const vm = require('node:vm');
const { pathToFileURL, fileURLToPath } = require('node:url');

const g = globalThis;
g.self = g;
g.location = { href: pathToFileURL(workerData.script).href };
g.importScripts = (...urls) => {
  for (const u of urls) {
    const file = fileURLToPath(new URL(u, g.location.href));
    vm.runInThisContext(fs.readFileSync(file, 'utf8'), { filename: file });
  }
};
g.fetch = async (u) => {
  const file = fileURLToPath(new URL(u, g.location.href));
  const bytes = fs.readFileSync(file);
  return { ok: true, status: 200, arrayBuffer: async () => bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) };
};
g.postMessage = (m) => parentPort.postMessage(m);
g.close = () => {
  parentPort.postMessage({ closed: true });
  setImmediate(() => process.exit(0));
};
parentPort.on('message', (m) => {
  if (typeof g.onmessage === 'function') g.onmessage({ data: m });
});
g.importScripts(g.location.href);
