// tabledata.js: a table as its screens need it – the table with its next
// hand, the open evening, the evening's score sheet (the session report)
// and the hands waiting in the outbox – each read through the cache, so
// an offline phone shows what it last saw.
import { cached } from './api.js';
import * as outbox from './outbox.js';
import { name } from './screen.js';

/**
 * @typedef {{table: any, session: any, report: import('./sheet.js').Report | null, pending: import('./sheet.js').Pending[]}} TableData
 */

/**
 * @param {number} tableID
 * @returns {Promise<TableData>}
 */
export async function loadTable(tableID) {
  const [table, pending] = await Promise.all([cached(`/v1/tables/${tableID}`), outbox.list(tableID)]);
  let session = null, report = null;
  if (table.open_session_id) {
    [session, report] = await Promise.all([cached(`/v1/sessions/${table.open_session_id}`), cached(`/v1/sessions/${table.open_session_id}/report`)]);
  }
  return { table, session, report, pending };
}

/**
 * upcoming is who deals and plays the hand after the k hands waiting in
 * the outbox, as the server sent it ahead (next_hand.ahead, the next hand
 * first), in the shape of next_hand; null when the server sent nothing
 * that far.
 * @param {any} table
 * @param {number} k
 */
export function upcoming(table, k) {
  const next = table.next_hand || table.state || {};
  const a = next.ahead?.[k];
  if (k === 0) {
    return a ? { ...next, next_dealer: next.next_dealer ?? a.dealer_id, next_players: next.next_players ?? a.player_ids, next_sitting_out: next.next_sitting_out ?? a.sitting_out_ids } : next;
  }
  if (!a) return null;
  return { ...a, next_dealer: a.dealer_id, next_players: a.player_ids, next_sitting_out: a.sitting_out_ids };
}

/**
 * nextLine says who deals and sits out the next hand: the server's
 * summary, or for a hand after offline ones the names it sent ahead.
 * @param {any} table
 * @param {number} k the hands waiting in the outbox
 */
export function nextLine(table, k) {
  const n = upcoming(table, k);
  if (!n) return 'Wer gibt, sagt das Handy wieder, sobald es online ist.';
  if (k === 0) return n.summary || '';
  const out = n.next_sitting_out || [];
  const others = out.filter((/** @type {number} */ p) => p !== n.next_dealer).map(name);
  const dealerOut = out.includes(n.next_dealer);
  return `${name(n.next_dealer)} gibt` + (dealerOut ? ' und setzt aus' : '') +
    (others.length ? `${dealerOut ? ', ebenso' : ','} ${others.join(', ')}${dealerOut ? '' : others.length > 1 ? ' setzen aus' : ' setzt aus'}` : '');
}
