// screen.js: the screen on show. Each route begins a screen; a screen
// renders, and acts on answers it awaited, only while it is the current
// one, so an answer that lands after the user moved on never repaints the
// screen he is on. Also the club's players by name and how a refusal is
// shown at the input it names.
import { h } from './ui.js';
import { Problem, Offline, cachedAll } from './api.js';

const view = /** @type {HTMLElement} */ (document.getElementById('view'));

/** @typedef {{alive: () => boolean, leave: (fn: () => void) => void}} Screen */

let seq = 0;
/** @type {Array<() => void>} */
let leaving = [];

/**
 * begin ends the current screen (its live streams, its timers) and starts
 * the next one.
 * @returns {Screen}
 */
export function begin() {
  for (const fn of leaving.splice(0)) fn();
  const id = ++seq;
  return {
    alive: () => id === seq,
    leave: (fn) => { if (id === seq) leaving.push(fn); else fn(); },
  };
}

/**
 * show puts kids on screen if scr is still the current screen.
 * @param {Screen} scr
 * @param {...any} kids
 */
export function show(scr, ...kids) {
  if (!scr.alive()) return false;
  view.replaceChildren(...kids.flat().filter((k) => k !== null && k !== undefined && k !== false));
  return true;
}

export const role = {
  get: () => localStorage.getItem('stichbuch.role') || '',
  set: (/** @type {string} */ r) => localStorage.setItem('stichbuch.role', r),
  clear: () => localStorage.removeItem('stichbuch.role'),
};

/** @type {Map<number, {name: string, guest?: boolean}>} */
export const players = new Map();

/** @param {number} id */
export const name = (id) => players.get(id)?.name || `Spieler ${id}`;

export async function loadPlayers() {
  const data = await cachedAll('/v1/players', 'players');
  players.clear();
  for (const p of data.players) players.set(p.id, { name: p.name, guest: p.guest });
  return data.players;
}

/**
 * problemText is what a player reads of a failure: the server's German
 * hint, else its title or detail.
 * @param {any} e
 */
export function problemText(e) {
  if (e instanceof Problem) return e.problem.hint || e.problem.detail || e.problem.title;
  if (e instanceof Offline) return 'Keine Verbindung zum Server.';
  return String(e.message || e);
}

/**
 * showProblem marks the inputs a problem names (problem.field and each of
 * problem.errors) and writes the server's German hint next to them; what
 * no input claims goes to the fallback element.
 * @param {HTMLElement} root
 * @param {any} problem
 * @param {HTMLElement} fallback
 */
export function showProblem(root, problem, fallback) {
  root.querySelectorAll('.has-problem').forEach((x) => x.classList.remove('has-problem'));
  root.querySelectorAll('.problem[data-for]').forEach((x) => x.remove());
  fallback.textContent = '';
  if (!problem) return;
  const items = problem.errors?.length ? problem.errors : [{ field: problem.field || '', hint: problem.hint, rule: problem.detail || problem.title }];
  for (const item of items) {
    const f = item.field || '';
    const text = item.hint || problem.hint || german(item.rule || item.detail || problem.detail);
    /** @type {HTMLElement | null} */
    let best = null;
    for (const el of /** @type {NodeListOf<HTMLElement>} */ (root.querySelectorAll('[data-field]'))) {
      const d = el.dataset.field || '';
      if (f && (f === d || f.startsWith(d + '.') || f.startsWith(d + '[')) && (!best || d.length > (best.dataset.field || '').length)) best = el;
    }
    if (!best) { fallback.textContent = text; continue; }
    best.classList.add('has-problem');
    best.append(h('p', { class: 'problem', role: 'alert', 'data-for': best.dataset.field }, text));
  }
}

/**
 * german says the contract's usual rules in German until the server sends
 * its hint.
 * @param {string} rule
 */
function german(rule) {
  return String(rule || '')
    .replace(/^number must be at most (\S+)$/, 'höchstens $1')
    .replace(/^number must be at least (\S+)$/, 'mindestens $1')
    .replace(/^maximum string length is (\d+)$/, 'höchstens $1 Zeichen')
    .replace(/^minimum string length is (\d+)$/, 'mindestens $1 Zeichen')
    .replace(/.*(value is required but missing|^is required).*/, 'fehlt');
}

/** @type {null | (() => boolean)} */
let guard = null;

/**
 * guardLeave asks ok() before the user leaves scr by a link or Back; ok
 * returns false to stay.
 * @param {Screen} scr
 * @param {() => boolean} ok
 */
export function guardLeave(scr, ok) {
  if (!scr.alive()) return;
  guard = ok;
  scr.leave(() => { if (guard === ok) guard = null; });
}

/** unguard lets the current screen go without asking (after saving). */
export function unguard() { guard = null; }

/** mayLeave asks the current screen's guard. */
export function mayLeave() { return !guard || guard(); }

/**
 * rerender shows the current route again if scr is still on show.
 * @param {Screen} scr
 */
export function rerender(scr) {
  if (scr.alive()) window.dispatchEvent(new Event('route'));
}
