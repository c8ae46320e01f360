// api.js: the app's one way to talk to /v1 – the stored key as a bearer
// token, JSON in and out, RFC 9457 problems as thrown Problem errors.

const KEY = 'stichbuch.key';

export const key = {
  get: () => localStorage.getItem(KEY) || '',
  set: (k) => localStorage.setItem(KEY, k),
  clear: () => localStorage.removeItem(KEY),
};

// Problem is a refusal of the API; problem is the problem document.
export class Problem extends Error {
  constructor(problem, status) {
    super(problem.detail || problem.title || `HTTP ${status}`);
    this.problem = problem;
    this.status = status;
  }
}

// Offline is thrown when the request did not reach the service.
export class Offline extends Error {}

export async function api(method, path, body, headers = {}) {
  const h = { Accept: 'application/json', ...headers };
  const k = key.get();
  if (k) h.Authorization = 'Bearer ' + k;
  if (body !== undefined) h['Content-Type'] = 'application/json';
  let res;
  try {
    res = await fetch(path, { method, headers: h, body: body === undefined ? undefined : JSON.stringify(body), cache: 'no-store' });
  } catch (e) {
    throw new Offline(e.message);
  }
  const text = await res.text();
  let data = null;
  try { data = text ? JSON.parse(text) : null; } catch { data = null; }
  if (!res.ok) throw new Problem(data && typeof data === 'object' ? data : { title: res.statusText }, res.status);
  return { data, res };
}

export const get = async (path) => (await api('GET', path)).data;
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
