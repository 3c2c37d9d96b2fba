// driver.mjs starts rio-worker.js the way a page does (a dedicated worker,
// through worker-shim.cjs under Node) and plays a script read as JSON from
// stdin: a list of steps
//   {"send": "hub"}                      post one message
//   {"wait": "done", "timeout": 5000}    wait for a line starting so
//   {"sleep": 300}                       wait that many milliseconds
// It prints one JSON object per line on stdout: {"t": ms, "sent": cmd},
// {"t": ms, "line": text, "lidraughts": true|false} for every message
// from the worker (lidraughts: whether an info line with depth matches the
// expression lidraughts' ui/ceval/src/scanProtocol.ts reads it with), and
// {"t": ms, "closed": true} when the worker closes itself. Exit 1 on a
// timeout or a worker error.
//   node driver.mjs DIR < script.json     (DIR holds rio-worker.js)
import { Worker } from 'node:worker_threads';
import { readFileSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

// lidraughts' EVAL_REGEX (ui/ceval/src/scanProtocol.ts), the reader Rio
// must satisfy.
const EVAL_REGEX = new RegExp(''
  + /^info depth=(\d+) mean-depth=\S+ /.source
  + /score=(\S+) nodes=(\d+) /.source
  + /(?:time=(\S+) )?(?:nps=\S+ )?/.source
  + /pv=\"?([0-9\-xX\s]+)\"?/.source);

const dir = process.argv[2];
const steps = JSON.parse(readFileSync(0, 'utf8'));
const here = dirname(fileURLToPath(import.meta.url));
const t0 = performance.now();
const now = () => Math.round((performance.now() - t0) * 1000) / 1000;
const emit = (o) => process.stdout.write(JSON.stringify({ t: now(), ...o }) + '\n');

const worker = new Worker(join(here, 'worker-shim.cjs'), { workerData: { script: join(dir, 'rio-worker.js') } });
const lines = [];
let waiter = null;
let closed = false;
worker.on('message', (m) => {
  if (m && m.closed) {
    closed = true;
    emit({ closed: true });
    if (waiter) waiter();
    return;
  }
  const line = String(m);
  const o = { line };
  if (line.startsWith('info depth=')) o.lidraughts = EVAL_REGEX.test(line);
  emit(o);
  lines.push(line);
  if (waiter) waiter();
});
worker.on('error', (e) => {
  emit({ error: String(e && e.stack || e) });
  process.exit(1);
});

function waitFor(prefix, timeout) {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no line starting "${prefix}" within ${timeout} ms`)), timeout);
    const check = () => {
      const i = lines.findIndex((l) => l.startsWith(prefix));
      if (i >= 0 || (prefix === '<closed>' && closed)) {
        lines.splice(0, i + 1);
        clearTimeout(timer);
        waiter = null;
        resolve();
        return true;
      }
      return false;
    };
    if (!check()) waiter = check;
  });
}

try {
  for (const s of steps) {
    if (s.send !== undefined) {
      emit({ sent: s.send });
      worker.postMessage(s.send);
    } else if (s.wait !== undefined) {
      await waitFor(s.wait, s.timeout || 10000);
    } else if (s.sleep !== undefined) {
      await new Promise((r) => setTimeout(r, s.sleep));
    }
  }
} catch (e) {
  emit({ error: e.message });
  await worker.terminate();
  process.exit(1);
}
await worker.terminate();
