// screen-members.js: the club's leaderboard per game and one player's
// statistics, as the server counts them.
import { get } from './api.js';
import { h, field, select, euro, minus, date } from './ui.js';
import { show, name } from './screen.js';
import { gameNames } from './games.js';

/** @typedef {import('./screen.js').Screen} Screen */

/** @param {Screen} scr */
export async function membersScreen(scr) {
  const s = { game: 'doppelkopf' };
  const out = h('div', { 'aria-live': 'polite' });
  const load = async () => {
    const lb = await get(`/v1/stats/leaderboard?game=${s.game}&limit=50`);
    out.replaceChildren(lb.entries.length ? h('table', { class: 'plain', id: 'leaderboard' },
      h('thead', {}, h('tr', {}, ['Platz', 'Spieler', 'Spiele', 'Punkte', 'Geld'].map((t) => h('th', { scope: 'col' }, t)))),
      h('tbody', {}, lb.entries.map((/** @type {any} */ e) => h('tr', {}, h('td', {}, e.rank), h('td', {}, h('a', { href: `#/mitglieder/${e.player_id}` }, e.name)),
        h('td', { class: 'num' }, e.hands), h('td', { class: 'num' }, minus(e.points)), h('td', { class: 'num' }, euro(e.net_cents)))))) : h('p', {}, 'Noch keine Spiele.'));
  };
  show(scr, h('h1', {}, 'Mitglieder'), field('Spiel', select(Object.entries(gameNames), s.game, (v) => { s.game = v; load(); })), out);
  await load();
}

/**
 * points writes a figure the server gave as a fraction ("49/10") as a
 * German decimal where it is one ("4,9"); a format, not a rule.
 * @param {string} p
 */
function decimal(p) {
  const m = String(p).match(/^(-?)(\d+)\/(\d+)$/);
  if (!m) return minus(p);
  const d = Number(m[3]);
  if (!/^(2|4|5|8|10|20|25|50|100|1000)$/.test(m[3])) return minus(p);
  return minus(m[1] + (Number(m[2]) / d).toLocaleString('de-DE', { maximumFractionDigits: 3 }));
}

/**
 * @param {Screen} scr
 * @param {number} id
 */
export async function playerScreen(scr, id) {
  const st = await get(`/v1/stats/players/${id}`);
  /** @param {number} permille */
  const pct = (permille) => `${(permille / 10).toLocaleString('de-DE')} %`;
  /** @param {any} e */
  const evening = (e) => e ? `${date(e.date)}, ${gameNames[e.game] || e.game}: ${minus(e.points)} Punkte${e.net_cents == null ? '' : ', ' + euro(e.net_cents)}` : '–';
  const rows = [
    ['Abende', st.sessions], ['Spiele', st.hands], ['gewonnen', st.hands_won], ['verloren', st.hands_lost],
    ['ausgesetzt', st.hands_sat_out], ['Gewinnquote', pct(st.win_rate_permille)], ['Punkte', minus(st.points)],
    ['Punkte je Spiel', decimal(st.points_per_hand)], ['Geld', euro(st.money.net_cents)],
    ['bester Abend', evening(st.best_evening)], ['schlechtester Abend', evening(st.worst_evening)],
    ['längste Siegesserie', st.longest_winning_streak], ['längste Pechsträhne', st.longest_losing_streak],
  ];
  const games = (st.games || []).map((/** @type {any} */ g) => h('tr', {}, h('td', {}, gameNames[g.game] || g.game), h('td', { class: 'num' }, g.hands),
    h('td', { class: 'num' }, pct(g.win_rate_permille)), h('td', { class: 'num' }, minus(g.points))));
  show(scr, h('h1', {}, name(id)),
    h('table', { class: 'plain', id: 'player-stats' }, h('tbody', {}, rows.map(([k, v]) => h('tr', {}, h('th', { scope: 'row' }, k), h('td', { class: 'num' }, String(v)))))),
    games.length ? [h('h2', {}, 'Nach Spiel'), h('table', { class: 'plain' },
      h('thead', {}, h('tr', {}, ['Spiel', 'Spiele', 'Quote', 'Punkte'].map((t) => h('th', { scope: 'col' }, t)))), h('tbody', {}, games))] : null,
    h('p', {}, h('a', { href: '#/mitglieder' }, 'Zur Rangliste')));
}
