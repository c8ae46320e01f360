// outbox.js: hands recorded without a connection, kept in IndexedDB until
// the batch endpoint has applied them. An entry is {id (the hand's client
// uuid), table_id, session_id, number, facts, at, problem?}; a refused
// entry keeps its problem and stays until the player discards it.

const DB = 'stichbuch', STORE = 'outbox';

/** @returns {Promise<IDBDatabase>} */
function open() {
  return new Promise((resolve, reject) => {
    const req = indexedDB.open(DB, 1);
    req.onupgradeneeded = () => req.result.createObjectStore(STORE, { keyPath: 'id' });
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });
}

/**
 * @param {IDBTransactionMode} mode
 * @param {(s: IDBObjectStore) => IDBRequest | void} fn
 * @returns {Promise<any>}
 */
async function tx(mode, fn) {
  const db = await open();
  return new Promise((resolve, reject) => {
    const t = db.transaction(STORE, mode);
    const out = fn(t.objectStore(STORE));
    t.oncomplete = () => { db.close(); resolve(out && 'result' in out ? out.result : undefined); };
    t.onerror = () => { db.close(); reject(t.error); };
  });
}

/**
 * @typedef {{id: string, table_id: number, session_id: number, number: number, facts: any, at: number, problem?: any}} Entry
 */

/** @param {Entry} entry */
export const put = (entry) => tx('readwrite', (s) => s.put(entry));
/** @param {string} id */
export const remove = (id) => tx('readwrite', (s) => s.delete(id));

/**
 * list gives a table's entries in the order they were recorded.
 * @param {number} tableID
 * @returns {Promise<Entry[]>}
 */
export async function list(tableID) {
  const all = (await tx('readonly', (s) => s.getAll())) || [];
  return all.filter((/** @type {Entry} */ e) => e.table_id === tableID).sort((/** @type {Entry} */ a, /** @type {Entry} */ b) => a.number - b.number || a.at - b.at);
}

export async function tables() {
  const all = (await tx('readonly', (s) => s.getAll())) || [];
  return [...new Set(all.map((/** @type {Entry} */ e) => e.table_id))];
}
