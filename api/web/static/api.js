// api.js: the app's one way to talk to /v1 – the stored key as a bearer
// token, JSON in and out, RFC 9457 problems as thrown Problem errors.

const KEY = 'stichbuch.key';

export const key = {
  get: () => localStorage.getItem(KEY) || '',
  set: (/** @type {string} */ k) => localStorage.setItem(KEY, k),
  clear: () => localStorage.removeItem(KEY),
};

// Problem is a refusal of the API; problem is the problem document.
export class Problem extends Error {
  /**
   * @param {Record<string, any>} problem
   * @param {number} status
   */
  constructor(problem, status) {
    super(problem.detail || problem.title || `HTTP ${status}`);
    this.problem = problem;
    this.status = status;
  }
}

// Offline is thrown when the request did not reach the service.
export class Offline extends Error {}

/**
 * @param {string} method
 * @param {string} path
 * @param {any} [body]
 * @param {Record<string, string>} [headers]
 * @returns {Promise<{data: any, res: Response}>}
 */
export async function api(method, path, body, headers = {}) {
  /** @type {Record<string, string>} */
  const h = { Accept: 'application/json', ...headers };
  const k = key.get();
  if (k) h.Authorization = 'Bearer ' + k;
  if (body !== undefined) h['Content-Type'] = 'application/json';
  let res;
  try {
    res = await fetch(path, { method, headers: h, body: body === undefined ? undefined : JSON.stringify(body), cache: 'no-store' });
  } catch (e) {
    throw new Offline(String(e));
  }
  const text = await res.text();
  let data = null;
  try { data = text ? JSON.parse(text) : null; } catch { data = null; }
  if (!res.ok) throw new Problem(data && typeof data === 'object' ? data : { title: res.statusText }, res.status);
  return { data, res };
}

/** @param {string} path */
export const get = async (path) => (await api('GET', path)).data;
/**
 * @param {string} path
 * @param {any} [body]
 * @param {Record<string, string>} [headers]
 */
export const post = async (path, body, headers) => (await api('POST', path, body, headers)).data;

// uuid is a random RFC 4122 version 4 id (crypto.randomUUID needs a
// secure context, which a phone on the club's LAN may not have).
export function uuid() {
  const b = crypto.getRandomValues(new Uint8Array(16));
  b[6] = (b[6] & 0x0f) | 0x40;
  b[8] = (b[8] & 0x3f) | 0x80;
  const h = [...b].map((x) => x.toString(16).padStart(2, '0')).join('');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

/**
 * cached is a GET whose last answer stays in localStorage, so an offline
 * phone still shows its table.
 * @param {string} path
 * @returns {Promise<any>}
 */
export async function cached(path) {
  try {
    const data = await get(path);
    try { localStorage.setItem('stichbuch.cache.' + path, JSON.stringify(data)); } catch { /* full */ }
    return data;
  } catch (e) {
    const old = localStorage.getItem('stichbuch.cache.' + path);
    if (e instanceof Offline && old) return JSON.parse(old);
    throw e;
  }
}

/**
 * cachedAll reads every page of a list (its items under field), following
 * next_after, each page cached as cached does.
 * @param {string} path
 * @param {string} field
 */
export async function cachedAll(path, field) {
  /** @type {any[]} */
  const items = [];
  for (let after = 0; ;) {
    const page = await cached(`${path}?limit=500${after ? `&after=${after}` : ''}`);
    items.push(...page[field]);
    if (!page.next_after) return { [field]: items };
    after = page.next_after;
  }
}
