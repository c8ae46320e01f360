// game-klaberjass.js: the Klaberjass record screen (ledger/games/klaberjass).
import { h, field, select } from './ui.js';
import { toggles, numberInput, playerOptions, perPlayer, dealerSelect } from './games.js';

/** @typedef {import('./games.js').FormContext} FormContext */

const suits = [['kreuz', 'Kreuz'], ['pik', 'Pik'], ['herz', 'Herz'], ['karo', 'Karo']];

// klaberjass: with four players the Augen are counted per side (the
// first and third, the second and fourth seat), with two or three per player.
// Melds are a list: "Meldung hinzufügen" adds a row of four selects.
const kinds = [['terz', 'Terz (20)'], ['halber', 'Halber (50)']];
const tops = [['7', '7'], ['8', '8'], ['9', '9'], ['10', '10'], ['bube', 'Bube'], ['dame', 'Dame'], ['koenig', 'König'], ['ass', 'Ass']];
/** @param {FormContext} ctx */
export function form(ctx) {
  const f = ctx.initial || {};
  const players = f.players || ctx.seating.slice(0, Math.min(4, ctx.seating.length));
  const s = { dealer: f.dealer || ctx.next.next_dealer || players[players.length - 1], trump_player: f.trump_player || players[0], trump_suit: f.trump_suit || 'herz', last_trick: f.last_trick || players[0],
    bella: f.bella ?? '', kontra: !!f.kontra, re: !!f.re, orgi: !!f.orgi };
  const melds = (f.melds || []).map((m) => ({ ...m }));
  const counted = players.length === 4 ? players.slice(0, 2) : players;
  const label = (id) => players.length === 4 ? `${ctx.names(id)}/${ctx.names(players[(players.indexOf(id) + 2) % 4])}` : ctx.names(id);
  const rows = counted.map((id) => ({ points: (f.card_points || []).find((p) => p.player === id)?.points }));
  const changed = () => { draw(); ctx.onChange(); };
  const check = (fieldName, text, on, set) => h('div', { 'data-field': fieldName }, h('label', { class: 'check' },
    h('input', { type: 'checkbox', checked: on, onchange: (e) => { set(e.target.checked); changed(); } }), ' ' + text));
  const meldBox = h('fieldset', { 'data-field': 'facts.melds' });
  const doubling = h('div');
  function draw() {
    meldBox.replaceChildren(h('legend', {}, 'Meldungen'));
    melds.forEach((m, i) => {
      const n = `Meldung ${i + 1}`, at = `facts.melds[${i}]`;
      const sel = (key, text, opts, num) => field(text, select(opts, m[key], (v) => { m[key] = num ? Number(v) : v; changed(); }, { 'aria-label': `${n}: ${text}` }), { 'data-field': `${at}.${key}` });
      const allowed = tops.slice(m.kind === 'halber' ? 3 : 2);
      if (!allowed.some(([v]) => v === m.top)) m.top = allowed[allowed.length - 1][0];
      meldBox.append(h('div', { class: 'meld', 'data-field': at },
        sel('player', 'Spieler', playerOptions(players, ctx.names), true), sel('kind', 'Art', kinds), sel('suit', 'Farbe', suits), sel('top', 'bis', allowed),
        h('button', { type: 'button', class: 'remove', 'aria-label': `${n} entfernen`, onclick: () => { melds.splice(i, 1); changed(); } }, '✕')));
    });
    meldBox.append(h('p', { class: 'row' }, h('button', { type: 'button', id: 'add-meld', onclick: () => {
      melds.push({ player: s.trump_player, kind: 'terz', suit: s.trump_suit, top: 'ass' }); changed();
    } }, 'Meldung hinzufügen')));
    doubling.replaceChildren(h('div', { class: 'row' },
      check('facts.kontra', 'Kontra', s.kontra, (v) => { s.kontra = v; if (!v) s.re = false; }),
      s.kontra && check('facts.re', 'Re', s.re, (v) => { s.re = v; }),
      (ctx.options?.orgi || s.orgi) && check('facts.orgi', 'Orgi (Trumpf vom Stapel)', s.orgi, (v) => { s.orgi = v; })));
  }
  draw();
  const el = h('div', { oninput: ctx.onChange, onchange: ctx.onChange },
    dealerSelect(players, ctx.names, s),
    field('Spieler (wählt Trumpf)', select(playerOptions(players, ctx.names), s.trump_player, (v) => { s.trump_player = Number(v); }), { 'data-field': 'facts.trump_player' }),
    field('Trumpf', select(suits, s.trump_suit, (v) => { s.trump_suit = v; }), { 'data-field': 'facts.trump_suit' }),
    meldBox,
    field('Bella (König und Dame Trumpf)', select(playerOptions(players, ctx.names, 'niemand'), s.bella, (v) => { s.bella = v === '' ? '' : Number(v); }), { 'data-field': 'facts.bella' }),
    perPlayer('Augen', counted, label, [['points', 'Augen']], rows, 'facts.card_points'),
    field('Letzter Stich', select(playerOptions(players, ctx.names), s.last_trick, (v) => { s.last_trick = Number(v); }), { 'data-field': 'facts.last_trick' }),
    doubling);
  return { el, facts: () => {
    const out = { players, dealer: s.dealer, trump_player: s.trump_player, trump_suit: s.trump_suit, last_trick: s.last_trick,
      card_points: counted.map((id, i) => ({ player: id, points: rows[i].points ?? 0 })) };
    if (melds.length) out.melds = melds.map((m) => ({ player: m.player, kind: m.kind, suit: m.suit, top: m.top }));
    if (s.bella !== '') out.bella = s.bella;
    if (s.kontra) out.kontra = true;
    if (s.kontra && s.re) out.re = true;
    if (s.orgi) out.orgi = true;
    return out;
  } };
}

