// live.js: follows a table's event stream. EventSource cannot send the
// bearer token the API requires, so the stream is read with fetch() and a
// ReadableStream reader; after sleep, a lost connection or a final event
// it reconnects with Last-Event-ID, so nothing is missed.
import { key } from './api.js';

export function follow(tableID, onEvent, onState) {
  let last = '', stopped = false, ctrl = null, timer = null, backoff = 500;

  async function run() {
    if (stopped) return;
    ctrl = new AbortController();
    const headers = { Accept: 'text/event-stream', Authorization: 'Bearer ' + key.get() };
    if (last) headers['Last-Event-ID'] = last;
    try {
      const res = await fetch(`/v1/tables/${tableID}/events`, { headers, signal: ctrl.signal, cache: 'no-store' });
      if (!res.ok || !res.body) throw new Error('HTTP ' + res.status);
      onState(true);
      backoff = 500;
      const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
      let buf = '';
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buf += value.replace(/\r\n?/g, '\n');
        let i;
        while ((i = buf.indexOf('\n\n')) >= 0) {
          const block = buf.slice(0, i);
          buf = buf.slice(i + 2);
          const ev = { event: 'message', data: '' };
          for (const line of block.split('\n')) {
            const c = line.indexOf(':');
            if (c <= 0) continue;
            const f = line.slice(0, c), v = line.slice(c + 1).replace(/^ /, '');
            if (f === 'id') ev.id = v;
            else if (f === 'event') ev.event = v;
            else if (f === 'data') ev.data += (ev.data ? '\n' : '') + v;
            else if (f === 'retry') backoff = Number(v) || backoff;
          }
          if (ev.id) last = ev.id;
          if (ev.data) onEvent(ev);
        }
      }
    } catch (e) {
      if (stopped) return;
    }
    onState(false);
    schedule();
  }

  function schedule() {
    if (stopped) return;
    clearTimeout(timer);
    timer = setTimeout(run, backoff);
    backoff = Math.min(backoff * 2, 10000);
  }

  // A phone that slept or came back online reconnects at once.
  function wake() {
    if (document.visibilityState !== 'visible' || stopped) return;
    if (ctrl) ctrl.abort();
    backoff = 100;
    schedule();
  }
  document.addEventListener('visibilitychange', wake);
  window.addEventListener('online', wake);
  run();
  return () => {
    stopped = true;
    clearTimeout(timer);
    if (ctrl) ctrl.abort();
    document.removeEventListener('visibilitychange', wake);
    window.removeEventListener('online', wake);
  };
}
