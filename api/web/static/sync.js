// sync.js: sends the hands waiting in the outbox through the batch
// endpoint, in order; applied ones leave the outbox, a refused one stays
// with its problem (and the ones after it wait) until fixed or discarded.
import { post, Problem } from './api.js';
import * as outbox from './outbox.js';

/** @type {Map<number, Promise<void>>} */
const flushing = new Map();

/** @param {number} tableID */
export function flush(tableID) {
  const running = flushing.get(tableID);
  if (running) return running;
  const p = (async () => {
    const all = await outbox.list(tableID);
    const firstRefused = all.findIndex((e) => e.problem);
    const entries = firstRefused < 0 ? all : all.slice(0, firstRefused);
    if (!entries.length || !navigator.onLine) return;
    try {
      const { results } = await post(`/v1/tables/${tableID}/hands/batch`, { hands: entries.map((e) => ({ id: e.id, session_id: e.session_id, number: e.number, facts: e.facts })) });
      for (const r of results) {
        const e = entries.find((x) => x.id === r.id);
        if (r.status === 'applied' || r.status === 'already_applied') await outbox.remove(r.id);
        else if (r.status === 'refused' && e) await outbox.put({ ...e, problem: r.problem });
      }
    } catch (x) {
      if (x instanceof Problem) {
        for (const e of entries) await outbox.put({ ...e, problem: x.problem });
      }
    }
    window.dispatchEvent(new Event('outbox'));
  })().finally(() => flushing.delete(tableID));
  flushing.set(tableID, p);
  return p;
}

export async function flushAll() {
  for (const t of await outbox.tables()) flush(t);
}
