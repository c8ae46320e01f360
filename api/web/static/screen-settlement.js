// screen-settlement.js: the evening's settlement – each player's points
// and money, who pays whom (open or paid, and the action to change it),
// the kitty, and the report as CSV and as a page to print.
import { get, post, key, Problem } from './api.js';
import { h, euro, minus, date } from './ui.js';
import { show, name, problemText, rerender } from './screen.js';

/** @typedef {import('./screen.js').Screen} Screen */

/**
 * @param {Screen} scr
 * @param {number} sessionID
 */
export async function settlementScreen(scr, sessionID) {
  const s = await get(`/v1/sessions/${sessionID}/settlement`);
  /** @param {number | null} id */
  const nameOf = (id) => (id == null ? 'Kasse' : name(id));
  const msg = h('p', { class: 'problem', role: 'alert' });
  /**
   * @param {string} path
   * @param {string} failed
   */
  const act = async (path, failed) => {
    try { await post(path); rerender(scr); } catch (x) {
      msg.textContent = x instanceof Problem && (x.status === 404 || x.status === 405) && !x.problem.hint ? failed : problemText(x);
    }
  };
  const transfers = s.transfers.map((/** @type {any} */ t) => {
    const who = `${nameOf(t.from_player_id)} an ${nameOf(t.to_player_id)}`;
    return h('li', { 'data-transfer': t.id, class: t.paid ? 'paid' : 'open' },
      h('span', { class: 'what' }, `${nameOf(t.from_player_id)} zahlt ${nameOf(t.to_player_id)} `, h('span', { class: 'num' }, euro(t.cents))), ' ',
      t.paid ? h('span', { class: 'tag ok', 'data-state': 'paid' }, '✓ bezahlt') : h('span', { class: 'tag', 'data-state': 'open' }, 'offen'), ' ',
      t.id && t.paid
        ? h('button', { type: 'button', class: 'unpay', 'aria-label': `${who}: Zahlung zurücknehmen`, onclick: () => act(`/v1/transfers/${t.id}/unpaid`, 'Dieser Server kann eine Zahlung noch nicht zurücknehmen.') }, 'zurücknehmen')
        : t.id && t.current !== false
          ? h('button', { type: 'button', class: 'pay', 'aria-label': `${who}: als bezahlt markieren`, onclick: () => act(`/v1/transfers/${t.id}/paid`, 'Nicht gespeichert.') }, 'als bezahlt markieren')
          : null);
  });
  // The report's stable addresses, when the server gives them: a link a
  // treasurer keeps, prints and shares; else the report fetched with the key.
  /** @type {any} */
  const links = await get(`/v1/sessions/${sessionID}/report-link`).catch(() => null);
  if (!scr.alive()) return;
  const abs = (/** @type {string} */ u) => new URL(u, location.origin).href;
  const report = links
    ? [h('a', { class: 'btn', id: 'report', href: abs(links.html_url), target: '_blank', rel: 'noopener' }, 'Bericht zum Drucken'),
      h('a', { class: 'btn', id: 'report-csv', href: abs(links.csv_url), download: `abend-${sessionID}.csv` }, 'CSV laden')]
    : [h('button', { type: 'button', id: 'report', onclick: () => openReport(sessionID, 'html') }, 'Bericht zum Drucken'),
      h('button', { type: 'button', id: 'report-csv', onclick: () => openReport(sessionID, 'csv') }, 'CSV laden')];
  show(scr, h('h1', {}, `Abrechnung ${date(s.date)}`, s.final ? '' : h('span', { class: 'muted' }, ' (vorläufig)')),
    h('table', { class: 'plain', id: 'settlement' }, h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, 'Spieler'), h('th', { scope: 'col' }, 'Punkte'), h('th', { scope: 'col' }, 'Betrag'))),
      h('tbody', {}, s.players.map((/** @type {any} */ p) => h('tr', { 'data-player': p.player_id }, h('td', {}, p.name), h('td', { class: 'num' }, minus(p.points)), h('td', { class: 'num', 'data-cents': p.net_cents }, euro(p.net_cents)))))),
    h('h2', {}, 'Wer zahlt wem'), transfers.length ? h('ul', { class: 'list', id: 'transfers' }, transfers) : h('p', {}, 'Niemand muss zahlen.'), msg,
    h('p', {}, s.kitty_cents ? `In die Kasse: ${euro(s.kitty_cents)}` : 'Die Kasse bleibt, wie sie ist.'),
    h('h2', {}, 'Bericht'),
    h('p', { class: 'row' }, report, h('a', { class: 'btn', href: `#/t/${s.table_id}` }, 'Zum Tisch')),
    links ? h('p', { class: 'muted help link' }, 'Der Link bleibt gültig, solange dieses Handy angemeldet ist: ', h('a', { href: abs(links.html_url) }, abs(links.html_url))) : null);
}

/**
 * openReport fetches the report with the key and opens it (HTML) or saves
 * it (CSV).
 * @param {number} sessionID
 * @param {'html' | 'csv'} format
 */
async function openReport(sessionID, format) {
  const w = format === 'html' ? window.open('', '_blank') : null;
  const res = await fetch(`/v1/sessions/${sessionID}/report?format=${format}`, { headers: { Authorization: 'Bearer ' + key.get() } });
  const blob = new Blob([await res.text()], { type: format === 'html' ? 'text/html' : 'text/csv' });
  const url = URL.createObjectURL(blob);
  if (format === 'csv') {
    const a = h('a', { href: url, download: `abend-${sessionID}.csv` });
    document.body.append(a);
    a.click();
    a.remove();
    return;
  }
  if (w) w.location.href = url; else location.href = url;
}
