// transport.js: how the page reaches Rio. The served board (engine gui)
// talks HTTP. The static board that engine gui --export writes (its
// index.html names the worker in a <meta name="rio-worker"> tag) talks to
// board.wasm in a Web Worker (board-worker.js): the same API and handlers,
// each request a message, each answer one or more messages (a stream's
// events as they come).

function httpTransport() {
  return {
    fetch: (path, init) => fetch(path, init),
    events: (path) => new EventSource(path),
    beacon: (path, body) => navigator.sendBeacon && navigator.sendBeacon(path, new Blob([body], { type: 'application/json' })),
  };
}

function workerTransport(url) {
  const worker = new Worker(url);
  const pending = new Map(); // id -> function(message)
  let next = 1;
  let fatal = null;
  const failAll = () => {
    for (const f of pending.values()) f({ status: 503, type: 'application/json', chunk: JSON.stringify({ error: fatal }), end: true });
    pending.clear();
  };
  worker.onmessage = (e) => {
    const m = e.data;
    if (m && m.fatal) { fatal = m.fatal; failAll(); return; }
    const f = pending.get(m.id);
    if (f) f(m);
    if (m.end) pending.delete(m.id);
  };
  worker.onerror = (e) => { fatal = 'Rio could not start: ' + (e.message || 'the worker failed'); failAll(); };
  const send = (path, init, onMessage) => {
    const id = next++;
    pending.set(id, onMessage);
    worker.postMessage({
      id, path, method: (init && init.method) || 'GET',
      body: init && typeof init.body === 'string' ? init.body : '',
      type: (init && init.headers && init.headers['Content-Type']) || '',
    });
    return id;
  };
  const cancel = (id) => { pending.delete(id); worker.postMessage({ id, cancel: true }); };
  return {
    fetch(path, init) {
      if (fatal) return Promise.reject(new Error(fatal));
      const signal = init && init.signal;
      if (signal && signal.aborted) return Promise.reject(new DOMException('aborted', 'AbortError'));
      return new Promise((resolve, reject) => {
        let text = '';
        const onAbort = () => { cancel(id); reject(new DOMException('aborted', 'AbortError')); };
        const id = send(path, init, (m) => {
          text += m.chunk || '';
          if (!m.end) return;
          if (signal) signal.removeEventListener('abort', onAbort);
          resolve(new Response(text, { status: m.status, headers: { 'Content-Type': m.type || 'text/plain' } }));
        });
        if (signal) signal.addEventListener('abort', onAbort, { once: true });
      });
    },
    // A Server-Sent Events reader over the worker: named events with
    // addEventListener, onerror when the stream ends unasked, close.
    events(path) {
      const listeners = {};
      let buf = '';
      const src = {
        onerror: null,
        addEventListener(type, f) { (listeners[type] = listeners[type] || []).push(f); },
        close() { if (id) { cancel(id); id = 0; } },
      };
      let id = 0;
      if (fatal) {
        setTimeout(() => { if (src.onerror) src.onerror(new Event('error')); }, 0);
        return src;
      }
      id = send(path, { method: 'GET' }, (m) => {
        buf += m.chunk || '';
        let i;
        while ((i = buf.indexOf('\n\n')) >= 0) {
          const block = buf.slice(0, i);
          buf = buf.slice(i + 2);
          let type = 'message';
          const data = [];
          for (const line of block.split('\n')) {
            if (line.startsWith('event:')) type = line.slice(6).trim();
            else if (line.startsWith('data:')) data.push(line.slice(5).replace(/^ /, ''));
          }
          if (data.length) for (const f of listeners[type] || []) f({ type, data: data.join('\n') });
        }
        if (m.end && id) { id = 0; if (src.onerror) src.onerror(new Event('error')); }
      });
      return src;
    },
    beacon(path, body) {
      if (!fatal) send(path, { method: 'POST', body, headers: { 'Content-Type': 'application/json' } }, () => {});
    },
  };
}

const meta = document.querySelector('meta[name="rio-worker"]');
export const transport = meta ? workerTransport(meta.content) : httpTransport();

// api posts body as JSON to path and returns the JSON answer; an answer
// that is not 2xx throws its error message.
export async function api(path, body, signal) {
  return answer(await transport.fetch(path, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
    signal,
  }));
}

// apiText posts text (a PDN file) to path, as api does.
export async function apiText(path, text) {
  return answer(await transport.fetch(path, {
    method: 'POST', headers: { 'Content-Type': 'text/plain; charset=utf-8' }, body: text,
  }));
}

// apiGet reads path's JSON answer, as api does.
export async function apiGet(path) {
  return answer(await transport.fetch(path));
}

async function answer(r) {
  let j = null;
  try { j = await r.json(); } catch (e) { j = null; }
  if (!r.ok) throw new Error((j && j.error) || (r.status + ' ' + r.statusText));
  return j;
}
