// game-schwarzesau.js: the Schwarze Sau record screen (ledger/games/schwarzesau).
import { h, field, select } from './ui.js';
import { toggles, numberInput, playerOptions, perPlayer, dealerSelect } from './games.js';

/** @typedef {import('./games.js').FormContext} FormContext */

// schwarzeSau: the players' Augen and tricks, the blind Stock with three
// players, the doublings in their order (each shown once the one before
// is said) and a Verstoß.
const calls = ['Kontra', 'Re', 'Sub', 'Hirsch'];
/** @param {FormContext} ctx */
export function form(ctx) {
  const f = ctx.initial || {};
  const players = f.players ? f.players.map((p) => p.player) : ctx.seating.slice(0, 4);
  const s = { dealer: f.dealer || ctx.next.next_dealer || players[players.length - 1], verstoss: f.verstoss_by ?? '' };
  const rows = players.map((id) => ({ ...(f.players || []).find((p) => p.player === id) }));
  const stock = [{ ...(f.stock || {}) }];
  const said = (f.doublings || []).map((d) => d.player);
  const doublings = h('fieldset', { 'data-field': 'facts.doublings' });
  const drawDoublings = () => {
    doublings.replaceChildren(h('legend', {}, 'Doppelungen'));
    const row = h('div', { class: 'row' });
    for (let i = 0; i <= Math.min(said.length, calls.length - 1); i++) {
      row.append(field(`${calls[i]} von`, select(playerOptions(players, ctx.names, 'niemand'), said[i] ?? '', (v) => {
        if (v === '') said.splice(i); else said[i] = Number(v);
        drawDoublings();
      }), { 'data-field': `facts.doublings[${i}].player` }));
    }
    doublings.append(row);
  };
  drawDoublings();
  const el = h('div', { oninput: ctx.onChange, onchange: ctx.onChange },
    dealerSelect(players, ctx.names, s),
    perPlayer('Augen und Stiche', players, ctx.names, [['card_points', 'Augen'], ['tricks', 'Stiche'], ['pik_dame', 'Pik-Dame', 'check']], rows, 'facts.players'),
    players.length === 3 && perPlayerStock(stock),
    doublings,
    field('Verstoß von', select(playerOptions(players, ctx.names, 'niemand'), s.verstoss, (v) => { s.verstoss = v === '' ? '' : Number(v); }), { 'data-field': 'facts.verstoss_by' }));
  return { el, facts: () => {
    const out = { dealer: s.dealer, players: players.map((id, i) => {
      const p = { player: id, card_points: rows[i].card_points ?? 0, tricks: rows[i].tricks ?? 0 };
      if (rows[i].pik_dame) p.pik_dame = true;
      return p;
    }) };
    if (players.length === 3) {
      out.stock = { card_points: stock[0].card_points ?? 0, tricks: stock[0].tricks ?? 0 };
      if (stock[0].pik_dame) out.stock.pik_dame = true;
    }
    if (said.length) out.doublings = said.map((player, i) => ({ call: calls[i], player }));
    if (s.verstoss !== '') out.verstoss_by = s.verstoss;
    return out;
  } };
}

// perPlayerStock is the blind Stock's row of a three-player Schwarze Sau.
function perPlayerStock(stock) {
  const box = perPlayer('Blinder Stock', [0], () => 'Stock', [['card_points', 'Augen'], ['tricks', 'Stiche'], ['pik_dame', 'Pik-Dame', 'check']], stock, 'facts.stock');
  for (const el of /** @type {NodeListOf<HTMLElement>} */ (box.querySelectorAll('[data-field]'))) el.dataset.field = el.dataset.field.replace('facts.stock[0]', 'facts.stock');
  return box;
}

