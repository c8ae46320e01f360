// screen-table.js: one table – open an evening (seating defaults to the
// last one), the next hand, the list live from the table's event stream,
// undo (confirmed) and redo, invite a phone, close the evening.
import { api, post, cached, Problem } from './api.js';
import { h, field, today, date } from './ui.js';
import { show, name, players, problemText, role, rerender } from './screen.js';
import { gameNames, load } from './games.js';
import { loadTable, nextLine } from './tabledata.js';
import { sheet } from './sheet.js';
import { follow } from './live.js';
import * as outbox from './outbox.js';

/** @typedef {import('./screen.js').Screen} Screen */
/** @typedef {import('./tabledata.js').TableData} TableData */

/**
 * @param {Screen} scr
 * @param {number} tableID
 * @param {Promise<any>} playersReady
 */
export async function tableScreen(scr, tableID, playersReady) {
  const [data] = await Promise.all([loadTable(tableID), playersReady]);
  if (!scr.alive()) return;
  const { table, session } = data;
  const head = h('h1', {}, table.name, h('span', { class: 'muted' }, ' · ' + (gameNames[table.game] || table.game)));
  if (!session) {
    const past = await pastEvenings(table);
    show(scr, head, openEvening(scr, table), role.get() === 'admin' ? invite(table) : null, past);
    return;
  }
  const root = h('div');
  /** @param {TableData} d */
  const draw = (d) => {
    if (!scr.alive() || !d.report) return;
    root.replaceChildren(...[
      h('p', { class: 'next', id: 'next', 'aria-live': 'polite' }, nextLine(d.table, d.pending.length) || ' '),
      h('p', { class: 'row' },
        h('a', { class: 'btn primary', href: `#/t/${tableID}/neu`, id: 'new-hand' }, 'Neues Spiel'),
        h('button', { type: 'button', onclick: () => closeEvening(scr, d) }, 'Abend beenden')),
      redo(scr, d),
      sheet({ tableID, report: d.report, pending: d.pending,
        undo: (row) => undo(scr, d, row),
        fix: (e) => { location.hash = `#/t/${tableID}/o/${e.id}`; },
        discard: async (e) => {
          if (!confirm('Dieses Spiel verwerfen? Es wird nicht gespeichert.')) return;
          await outbox.remove(e.id);
          refresh();
        } })].filter(Boolean));
  };
  draw(data);
  // The invitation stays as it is while the list is redrawn under it.
  show(scr, head, root, role.get() === 'admin' ? invite(table) : null);
  // What recording needs is loaded now, while there is a connection.
  Promise.all([import('./screen-record.js'), import('./sync.js'), load(table.game)]).catch(() => {});
  // refresh reloads the table while this screen is on show; a refresh
  // asked for while one runs runs once more after it (its answer may
  // predate what was asked about).
  /** @type {Promise<void> | null} */
  let busy = null;
  let again = false;
  const refresh = () => {
    if (!scr.alive()) return;
    if (busy) { again = true; return; }
    busy = (async () => {
      try {
        do {
          again = false;
          const d = await loadTable(tableID);
          if (!scr.alive()) return;
          if (!d.session) { rerender(scr); return; }
          draw(d);
        } while (again);
      } catch { /* no connection: the list stays as it is */ } finally { busy = null; }
    })();
  };
  // Each (re)connection of the stream reads the table once more: what
  // happened between the first read and the stream is not missed.
  const stop = follow(tableID, () => refresh(), (up) => { root.dataset.live = up ? 'on' : 'off'; if (up) refresh(); });
  window.addEventListener('outbox', refresh);
  scr.leave(() => { stop(); window.removeEventListener('outbox', refresh); });
}

/**
 * undo takes the last hand back once the scorer confirms.
 * @param {Screen} scr
 * @param {TableData} d
 * @param {import('./sheet.js').SheetRow} row
 */
async function undo(scr, d, row) {
  if (!confirm(`Spiel ${row.session_number ?? ''} (${row.title}) zurücknehmen?`.replace('Spiel  (', 'Spiel ('))) return;
  try {
    await post(`/v1/tables/${d.table.id}/hands/${row.number}/undo`);
    sessionStorage.setItem('stichbuch.undone.' + d.table.id, String(row.number));
  } catch (x) { if (scr.alive()) alert(problemText(x)); }
  rerender(scr);
}

/**
 * redo offers, within the evening, to restore the hand taken back last
 * while it is still the last one: its facts again, as a correction.
 * @param {Screen} scr
 * @param {TableData} d
 */
function redo(scr, d) {
  const n = Number(sessionStorage.getItem('stichbuch.undone.' + d.table.id));
  const hands = d.report?.hands || [];
  const last = hands[hands.length - 1];
  if (!n || !last || last.number !== n || !last.void) return null;
  return h('p', { class: 'row' }, h('button', { type: 'button', id: 'redo', onclick: async () => {
    try {
      const { data, res } = await api('GET', `/v1/tables/${d.table.id}/hands/${n}`);
      await post(`/v1/tables/${d.table.id}/hands/${n}/corrections`, { facts: data.facts, reason: 'wiederhergestellt' }, { 'If-Match': res.headers.get('ETag') || String(data.revision) });
      sessionStorage.removeItem('stichbuch.undone.' + d.table.id);
    } catch (x) { if (scr.alive()) alert(problemText(x)); }
    rerender(scr);
  } }, `Spiel ${last.session_number ?? hands.length} wiederherstellen`));
}

/**
 * @param {Screen} scr
 * @param {TableData} d
 */
async function closeEvening(scr, d) {
  if (!confirm('Den Abend beenden und abrechnen?')) return;
  try {
    await post(`/v1/sessions/${d.session.id}/close`);
    if (scr.alive()) location.hash = `#/s/${d.session.id}`;
  } catch (x) { if (scr.alive()) alert(problemText(x)); }
}

/** @param {any} table */
async function pastEvenings(table) {
  const { sessions } = await cached(`/v1/tables/${table.id}/sessions?limit=10`);
  if (!sessions?.length) return null;
  return h('section', {}, h('h2', {}, 'Frühere Abende'), h('ul', { class: 'list' },
    sessions.map((/** @type {any} */ s) => h('li', {}, h('a', { href: `#/s/${s.id}` }, date(s.date), ' · ', s.player_ids.map(name).join(', '))))));
}

/**
 * openEvening seats the players in order, from the last evening's seating
 * when the server sends it; a guest is added as one.
 * @param {Screen} scr
 * @param {any} table
 */
function openEvening(scr, table) {
  /** @type {number[]} */
  const seating = (table.last_seating_ids || []).filter((/** @type {number} */ id) => players.has(id));
  const err = h('p', { class: 'problem', role: 'alert' });
  const order = h('ol', { class: 'seat-order', id: 'seating', 'aria-live': 'polite' });
  const box = h('section', {}, h('h2', {}, 'Abend eröffnen'),
    h('p', {}, 'Namen in Sitzreihenfolge antippen, beim Geber des ersten Spiels beginnen.'));
  const buttons = h('div', { class: 'row', role: 'group', 'aria-label': 'Spieler' });
  const drawSeats = () => {
    order.replaceChildren(...seating.map((id) => h('li', {}, name(id), players.get(id)?.guest ? h('span', { class: 'tag guest' }, 'Gast') : null)));
    for (const b of /** @type {HTMLCollectionOf<HTMLElement>} */ (buttons.children)) b.setAttribute('aria-pressed', String(seating.includes(Number(b.dataset.player))));
  };
  /** @param {number} id */
  const addButton = (id) => buttons.append(h('button', { type: 'button', 'data-player': id, 'aria-pressed': 'false', onclick: () => {
    const i = seating.indexOf(id);
    if (i >= 0) seating.splice(i, 1); else seating.push(id);
    drawSeats();
  } }, name(id)));
  [...players.keys()].forEach(addButton);
  drawSeats();
  const guest = h('input', { maxlength: 100, autocomplete: 'off' });
  const asGuest = h('input', { type: 'checkbox', checked: true });
  const day = h('input', { type: 'date', value: today() });
  box.append(buttons, order,
    h('form', { onsubmit: async (/** @type {Event} */ e) => {
      e.preventDefault();
      if (!guest.value.trim()) return;
      try {
        /** @type {Record<string, any>} */
        const body = { name: guest.value.trim() };
        if (asGuest.checked) body.guest = true;
        let p;
        try {
          p = await post('/v1/players', body);
        } catch (x) {
          // A server without guests yet refuses the flag: add as a member.
          if (!(x instanceof Problem) || !body.guest || x.status !== 400 && x.status !== 422) throw x;
          p = await post('/v1/players', { name: body.name });
        }
        players.set(p.id, { name: p.name, guest: p.guest });
        addButton(p.id);
        seating.push(p.id);
        guest.value = '';
        drawSeats();
      } catch (x) { err.textContent = problemText(x); }
    } }, h('div', { class: 'row' }, field('Neuer Spieler oder Gast', guest, { class: 'grow' }), h('button', { type: 'submit' }, 'Hinzufügen')),
    h('label', { class: 'check' }, asGuest, ' als Gast (zählt nicht in der Rangliste)')),
    field('Datum', day), err,
    h('p', {}, h('button', { class: 'primary', type: 'button', id: 'open-evening', onclick: async () => {
      try {
        await post(`/v1/tables/${table.id}/sessions`, { player_ids: seating, date: day.value || undefined });
        rerender(scr);
      } catch (x) { err.textContent = problemText(x); }
    } }, 'Abend eröffnen')));
  return box;
}

/** @param {any} table */
function invite(table) {
  const out = h('div', { class: 'qr', 'aria-live': 'polite' });
  return h('section', {}, h('h2', {}, 'Handy einladen'),
    h('p', { class: 'row' },
      h('button', { type: 'button', id: 'invite', onclick: async () => {
        try {
          const j = await post(`/v1/tables/${table.id}/joins`, { role: 'scorer' });
          const link = new URL(j.link, location.origin).href;
          out.replaceChildren(h('div', { html: j.qr_svg, role: 'img', 'aria-label': 'QR-Code der Einladung' }),
            h('p', { class: 'link' }, h('a', { href: link, id: 'join-link' }, link)), h('p', { class: 'muted' }, 'Gilt einmal, bis ' + new Date(j.expires_at).toLocaleString('de-DE')));
        } catch (x) {
          out.replaceChildren(h('p', { class: 'problem' }, x instanceof Problem && x.status === 404 && !x.problem.type ? 'Dieser Server kann noch nicht einladen.' : problemText(x)));
        }
      } }, 'Handy einladen')), out);
}
