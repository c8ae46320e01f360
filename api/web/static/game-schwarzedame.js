// game-schwarzedame.js: the Schwarze Dame record screen (ledger/games/schwarzedame).
import { h, field, select } from './ui.js';
import { toggles, numberInput, playerOptions, perPlayer, dealerSelect } from './games.js';

/** @typedef {import('./games.js').FormContext} FormContext */

/** @param {FormContext} ctx */
export function form(ctx) {
  const f = ctx.initial || {};
  const players = (f.players || []).map((p) => p.player).length ? f.players.map((p) => p.player) : ctx.seating.slice(0, 4);
  const s = { dealer: f.dealer || ctx.next.next_dealer || ctx.next.dealer || players[0] };
  const rows = players.map((id) => ({ ...(f.players || []).find((p) => p.player === id) }));
  const el = h('div', { oninput: ctx.onChange, onchange: ctx.onChange },
    dealerSelect(players, ctx.names, s),
    perPlayer('Stiche und Strafpunkte', players, ctx.names, [['tricks', 'Stiche'], ['penalty', 'Strafpunkte']], rows, 'facts.players'));
  return { el, facts: () => ({ dealer: s.dealer, players: players.map((id, i) => ({ player: id, tricks: rows[i].tricks ?? 0, penalty: rows[i].penalty ?? 0 })) }) };
}

