// screen-start.js: getting a key – the first club of a fresh service, a
// join code from another phone's invitation, or the club's key pasted.
import { get, post, key, Problem } from './api.js';
import { h, field } from './ui.js';
import { show, problemText, role, rerender } from './screen.js';

/** @typedef {import('./screen.js').Screen} Screen */

/**
 * setupScreen creates the first club of a fresh service with the one-time
 * token serve printed, and shows its admin key once.
 * @param {Screen} scr
 * @param {string} token
 */
export function setupScreen(scr, token) {
  const input = h('input', { maxlength: 100, required: true, autocomplete: 'organization' });
  const err = h('p', { class: 'problem', role: 'alert' });
  show(scr, h('form', { onsubmit: async (/** @type {Event} */ e) => {
    e.preventDefault();
    try {
      const res = await post('/v1/setup', { token, name: input.value.trim() });
      key.set(res.key);
      role.set('admin');
      show(scr, h('h1', {}, res.club.name),
        h('p', {}, 'Der Club ist angelegt. Das ist sein Admin-Schlüssel; er wird nur jetzt gezeigt. Bewahre ihn gut auf: mit ihm meldest du dich an, und weitere Handys lädst du am Tisch mit „Handy einladen“ ein.'),
        h('p', {}, h('code', { id: 'admin-key' }, res.key)),
        h('p', {}, h('a', { class: 'btn primary', href: '#/', onclick: () => setTimeout(() => rerender(scr)) }, 'Weiter zu den Tischen')));
    } catch (x) { err.textContent = problemText(x); }
  } }, h('h1', {}, 'Club anlegen'),
  h('p', {}, 'Dieser Server hat noch keinen Club. Gib ihm einen Namen; du wirst sein Admin.'),
  field('Name des Clubs', input), err,
  h('p', {}, h('button', { class: 'primary', type: 'submit' }, 'Club anlegen'))));
}

/**
 * join redeems an invitation's code and goes to its table; it reports
 * whether the app goes on to route.
 * @param {Screen} scr
 * @param {string} code
 */
export async function join(scr, code) {
  try {
    const k = await post(`/v1/joins/${encodeURIComponent(code)}`);
    key.set(k.key);
    role.set(k.role);
    history.replaceState(null, '', `/#/t/${k.table_id}`);
    return true;
  } catch (e) {
    show(scr, h('h1', {}, 'Einladung'), h('p', { class: 'problem', role: 'alert' }, 'Die Einladung gilt nicht (mehr). ' +
      (e instanceof Problem ? e.problem.hint || 'Bitte lass dir am Tisch einen neuen Link geben.' : problemText(e))));
    if (!key.get()) { document.getElementById('view')?.append(login(scr)); return false; }
    return true;
  }
}

/**
 * login takes the club's key (or a scorer's) and learns its role.
 * @param {Screen} scr
 */
export function login(scr) {
  const input = h('input', { type: 'password', autocomplete: 'off', spellcheck: 'false' });
  const err = h('p', { class: 'problem', role: 'alert' });
  return h('form', { onsubmit: async (/** @type {Event} */ e) => {
    e.preventDefault();
    key.set(input.value.trim());
    try {
      await get('/v1/club');
      role.set(await get('/v1/keys').then(() => 'admin', () => 'scorer'));
      rerender(scr);
    } catch (x) {
      key.clear();
      err.textContent = x instanceof Problem && x.status === 401 && !x.problem.hint
        ? 'Dieser Schlüssel gilt nicht. Prüfe ihn oder lass dich am Tisch mit „Handy einladen“ einladen.' : problemText(x);
    }
  } },
  h('h1', {}, 'Anmelden'),
  h('p', {}, 'Füge den Schlüssel des Clubs ein (stichbuch club create gibt ihn aus) oder öffne den Einladungslink eines anderen Handys.'),
  field('Schlüssel', input), err,
  h('p', {}, h('button', { class: 'primary', type: 'submit' }, 'Anmelden')));
}
