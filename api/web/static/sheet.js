// sheet.js: the evening's list like the paper one, drawn from the
// server's score sheet (the session report): per hand its number in the
// evening, dealer, title, each player's points and running total, Bock
// and correction marks, the game's figures (Klaberjass's dice); under it
// the standings. Hands waiting in the outbox follow, a refused one with
// its German hint and the actions to fix or discard it. The app adds
// nothing up: every figure is the server's.
import { h, minus, signed } from './ui.js';
import { name } from './screen.js';

/**
 * @typedef {{number: number, session_number?: number, dealer_id?: number, title: string, points: string[], running: string[],
 *   sat_out_player_ids: number[], bock: boolean, events: any[], revision: number, void: boolean, corrected?: boolean,
 *   figures?: {player_id: number, value: string, text?: string}[], notes?: string[], progress?: string[]}} SheetRow
 * @typedef {{players: {id: number, name: string}[], hands: SheetRow[], standings: {player_id: number, points: string}[],
 *   sheet?: {heading: string, summary?: string, scored?: boolean}}} Report
 * @typedef {import('./outbox.js').Entry} Pending
 * @typedef {{tableID: number, report: Report, pending: Pending[], undo: (row: SheetRow) => void,
 *   fix: (e: Pending) => void, discard: (e: Pending) => void}} SheetData
 */

/** @param {SheetData} d */
export function sheet(d) {
  const seat = d.report.players.map((p) => p.id);
  const rows = [];
  const last = [...d.report.hands].reverse().find((x) => !x.void);
  let shown = 0;
  const scored = !!d.report.sheet?.scored;
  for (const [i, hand] of d.report.hands.entries()) {
    const no = hand.session_number ?? i + 1;
    shown = no;
    const corrected = hand.corrected ?? (hand.revision > 1 && !hand.void);
    const cls = [hand.bock && 'bock', hand.void && 'void', corrected && 'corrected'].filter(Boolean).join(' ');
    const figures = new Map((hand.figures || []).map((f) => [f.player_id, f.text || f.value]));
    rows.push(h('tr', { class: cls, 'data-hand': hand.number, 'data-no': no },
      h('td', {}, no, corrected ? h('span', { class: 'mark', title: 'korrigiert', 'aria-label': 'korrigiert' }, 'k') : null),
      h('td', {}, hand.void ? 'zurückgenommen' : hand.title || '',
        hand.dealer_id ? h('small', { class: 'dealer' }, 'Geber: ' + name(hand.dealer_id)) : null,
        h('small', {}, h('a', { href: `#/t/${d.tableID}/k/${hand.number}`, 'aria-label': `Spiel ${no} korrigieren` }, 'korrigieren'),
          last && hand.number === last.number ? h('button', { type: 'button', class: 'undo', 'aria-label': `Spiel ${no} zurücknehmen`, onclick: () => d.undo(hand) }, 'zurücknehmen') : null)),
      // A game that keeps no points (Klaberjass) shows each player's
      // progress and figure (the die) where others show points.
      seat.map((p, j) => h('td', { 'data-player': p }, minus((scored ? hand.progress?.[j] : hand.running[j]) ?? ''),
        h('small', {}, hand.sat_out_player_ids.includes(p) ? '–' : scored ? '' : signed(hand.points[j] ?? '0')),
        figures.has(p) ? h('small', { class: 'figure' }, `${d.report.sheet?.heading || ''} ${figures.get(p)}`.trim()) : null))));
  }
  for (const [i, e] of d.pending.entries()) {
    const no = shown + i + 1;
    rows.push(h('tr', { class: e.problem ? 'refused' : 'pending', 'data-pending': e.id, 'data-no': no },
      h('td', {}, no),
      h('td', { colspan: seat.length + 1 }, e.problem
        ? [h('span', { class: 'tag' }, 'abgelehnt'), ' ', h('span', { class: 'why' }, hint(e.problem)), ' ',
          h('span', { class: 'row' }, h('button', { type: 'button', class: 'fix', onclick: () => d.fix(e) }, 'ändern'),
            h('button', { type: 'button', onclick: () => d.discard(e) }, 'verwerfen'))]
        : [h('span', { class: 'tag' }, 'wartet'), ' wird gesendet, sobald das Handy wieder online ist'])));
  }
  const totals = new Map(d.report.standings.map((s) => [s.player_id, s.points]));
  return h('div', { class: 'sheet-wrap' }, h('table', { class: 'sheet', id: 'sheet' },
    h('caption', { class: 'sr' }, 'Spielliste des Abends'),
    h('colgroup', {}, h('col', { class: 'c-no' }), h('col', { class: 'c-game' }), seat.map(() => h('col', { class: 'c-p' }))),
    h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, 'Nr.'), h('th', { scope: 'col' }, 'Spiel', h('small', {}, 'Geber')),
      seat.map((p) => h('th', { scope: 'col' }, name(p))))),
    h('tbody', {}, rows),
    h('tfoot', {}, h('tr', {}, h('td', { colspan: 2 }, 'Stand'),
      seat.map((p) => h('td', { 'data-total': p, 'data-points': totals.get(p) ?? '0' }, minus(totals.get(p) ?? '0')))))),
  d.report.sheet?.summary ? h('p', { class: 'muted', id: 'sheet-summary' }, d.report.sheet.summary) : null);
}

/**
 * hint is what a player reads of a refusal: the server's German hint(s).
 * @param {any} problem
 */
export function hint(problem) {
  const items = (problem.errors || []).map((/** @type {any} */ x) => x.hint).filter(Boolean);
  return items.length ? items.join(' ') : problem.hint || 'Bitte ändern oder verwerfen.';
}
