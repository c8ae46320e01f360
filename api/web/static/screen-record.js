// screen-record.js: recording a hand, correcting one, or fixing one the
// server refused on sync. The server previews the hand as it is typed
// (its title, breakdown lines, points and events, German with names);
// problems show at the input they name once the hand is complete enough
// to check, or on saving. What is typed is kept as a draft until saved or
// cancelled, so a reload or Back loses nothing; leaving asks first.
import { api, post, Problem, Offline, uuid } from './api.js';
import { h, field, signed, minus } from './ui.js';
import { show, name, showProblem, problemText, guardLeave, unguard } from './screen.js';
import { form, gameNames } from './games.js';
import { loadTable, upcoming, nextLine } from './tabledata.js';
import * as outbox from './outbox.js';
import { flush } from './sync.js';

/** @typedef {import('./screen.js').Screen} Screen */

/**
 * @param {Screen} scr
 * @param {number} tableID
 * @param {number | null} correcting the hand's number, when correcting
 * @param {string} [fixing] the outbox entry's id, when fixing a refused hand
 */
export async function recordScreen(scr, tableID, correcting, fixing) {
  const d = await loadTable(tableID);
  if (!scr.alive()) return;
  if (!d.session) { location.hash = `#/t/${tableID}`; return; }
  /** @type {any} */
  let hand = null;
  let etag = '';
  if (correcting) {
    const { data, res } = await api('GET', `/v1/tables/${tableID}/hands/${correcting}`);
    hand = data;
    etag = res.headers.get('ETag') || String(hand.revision);
  }
  const entry = fixing ? d.pending.find((e) => e.id === fixing) : undefined;
  if (fixing && !entry) { location.hash = `#/t/${tableID}`; return; }
  // k: the hands before this one still in the outbox.
  const k = entry ? d.pending.indexOf(entry) : d.pending.length;
  const draftKey = `stichbuch.draft.${tableID}.${correcting ? 'k' + correcting : entry ? 'o' + entry.id : 'neu'}`;
  /** @type {any} */
  let draft = null;
  try { draft = JSON.parse(localStorage.getItem(draftKey) || 'null'); } catch { /* none */ }
  if (draft && draft.session_id !== d.session.id) draft = null;

  const preview = h('div', { class: 'preview', id: 'preview', 'aria-live': 'polite' }, 'Vorschau erscheint beim Eintippen.');
  const general = h('p', { class: 'problem', role: 'alert', id: 'problem' });
  const reason = h('input', { maxlength: 500, value: draft?.reason || '' });
  /** @type {any} */
  let timer = null;
  let seq = 0, touched = false, tried = false;
  const next = correcting ? {} : upcoming(d.table, k) || { next_players: [] };
  const f = await form(d.table.game, {
    seating: d.session.player_ids, names: name, preset: d.table.preset, options: d.table.options || {}, rules: d.session.terms?.rules || d.table.rules, next,
    initial: draft?.facts || hand?.facts || entry?.facts, hand,
    onChange: () => { touched = true; keep(); clearTimeout(timer); timer = setTimeout(runPreview, 150); },
  });
  if (!scr.alive()) return;
  const no = (d.report?.hands.length || 0) + k + 1;
  const shownNo = correcting ? d.report?.hands.find((x) => x.number === correcting)?.session_number ?? correcting : no;
  const root = h('form', { onsubmit: (/** @type {Event} */ e) => { e.preventDefault(); save(); } },
    h('h1', {}, correcting ? `Spiel ${shownNo} korrigieren` : `Spiel ${no}`, h('span', { class: 'muted' }, ' · ' + (gameNames[d.table.game] || d.table.game))),
    correcting ? null : h('p', { class: 'next' }, nextLine(d.table, k)),
    f.el,
    correcting ? field('Grund der Korrektur', reason, { 'data-field': 'reason' }) : null,
    h('div', { class: 'dock' }, preview, general,
      h('p', { class: 'row' }, h('button', { class: 'primary', type: 'submit', id: 'save' }, 'Speichern'),
        h('button', { type: 'button', id: 'cancel', onclick: cancel }, 'Abbrechen'))));
  reason.addEventListener('input', () => { touched = true; keep(); });
  if (!show(scr, root)) return;
  if (draft || entry) { touched = !!draft; runPreview(); }
  if (entry?.problem) { tried = true; showProblem(root, entry.problem, general); }
  guardLeave(scr, () => !touched || confirm('Das Spiel ist noch nicht gespeichert. Trotzdem gehen? Es bleibt als Entwurf.'));

  // keep stores what is typed as the draft.
  function keep() {
    try { localStorage.setItem(draftKey, JSON.stringify({ session_id: d.session.id, facts: f.facts(), reason: reason.value })); } catch { /* full */ }
  }

  function cancel() {
    if (touched && !confirm('Eingabe verwerfen?')) return;
    localStorage.removeItem(draftKey);
    unguard();
    location.hash = `#/t/${tableID}`;
  }

  async function runPreview() {
    const mine = ++seq;
    // Complete: as the game's form says, else every number typed.
    const complete = f.ready ? f.ready() : [...f.el.querySelectorAll('input[type=number]')].every((i) => /** @type {HTMLInputElement} */ (i).value !== '');
    try {
      const res = await post(`/v1/games/${d.table.game}/score`, { player_ids: d.session.player_ids, preset: d.table.preset, options: d.table.options,
        date: d.session.date, state: hand ? undefined : d.table.state, facts: f.facts() });
      if (mine !== seq || !scr.alive()) return;
      showProblem(root, null, general);
      preview.replaceChildren(describe(res));
    } catch (x) {
      if (mine !== seq || !scr.alive()) return;
      if (x instanceof Problem) {
        // Half-typed hands are not judged: only a complete one, or one
        // the user tried to save, shows its problems.
        if (complete || tried) {
          preview.textContent = 'So geht das Spiel noch nicht – siehe Hinweis.';
          showProblem(root, x.problem, general);
        } else {
          preview.textContent = 'Vorschau erscheint, sobald das Spiel eingetragen ist.';
          showProblem(root, null, general);
        }
      } else preview.textContent = x instanceof Offline ? 'Ohne Verbindung keine Vorschau; das Spiel wird trotzdem gespeichert.' : problemText(x);
    }
  }

  async function save() {
    tried = true;
    const btn = /** @type {HTMLButtonElement} */ (root.querySelector('#save'));
    btn.disabled = true;
    try {
      if (correcting) {
        await post(`/v1/tables/${tableID}/hands/${correcting}/corrections`, { facts: f.facts(), reason: reason.value.trim() || 'korrigiert' }, { 'If-Match': etag });
      } else if (entry) {
        // A fixed hand goes again under a new id (the refused id stays
        // bound to what it carried), at its place in the outbox.
        await outbox.remove(entry.id);
        await outbox.put({ ...entry, id: uuid(), facts: f.facts(), problem: undefined, at: entry.at });
        await flush(tableID);
      } else {
        const e = { id: uuid(), table_id: tableID, session_id: d.session.id, number: d.table.hands + 1 + d.pending.length, facts: f.facts(), at: Date.now() };
        if (!navigator.onLine || d.pending.length) {
          await outbox.put(e);
          flush(tableID);
        } else {
          try {
            await post(`/v1/tables/${tableID}/hands`, { id: e.id, session_id: e.session_id, number: e.number, facts: e.facts });
          } catch (x) {
            if (!(x instanceof Offline)) throw x;
            await outbox.put(e);
          }
        }
      }
      localStorage.removeItem(draftKey);
      unguard();
      if (scr.alive()) location.hash = `#/t/${tableID}`;
    } catch (x) {
      btn.disabled = false;
      if (!scr.alive()) return;
      if (x instanceof Problem && x.status === 409 && x.problem.next_number) {
        general.textContent = x.problem.hint || 'Ein anderes Handy hat dieses Spiel schon eingetragen. Bitte abbrechen und in der Liste nachsehen.';
      } else if (x instanceof Problem) showProblem(root, x.problem, general);
      else general.textContent = problemText(x);
    }
  }
}

/**
 * describe shows the server's result: its title, the breakdown lines, each
 * player's points and the events, as the server worded them.
 * @param {any} res
 */
function describe(res) {
  const op = /** @type {Record<string, string>} */ ({ '+': '+', '-': '−', x: '×', '/': '÷', '=': '=' });
  return h('div', {}, h('strong', {}, res.title || ''),
    res.lines?.length ? h('ul', { class: 'lines' }, res.lines.map((/** @type {any} */ l) =>
      h('li', {}, l.player && !String(l.label).includes(name(l.player)) ? name(l.player) + ': ' : '', l.label, ' ', h('span', { class: 'num' }, `${op[l.op] || l.op} ${minus(l.value)}`)))) : null,
    h('div', {}, (res.points || []).map((/** @type {any} */ p) => `${name(p.player)} ${signed(p.points)}`).join(' · ')),
    res.events?.length ? h('div', { class: 'muted' }, res.events.map((/** @type {any} */ e) => e.text).join(' · ')) : null);
}
