// game-saukopf.js: the Saukopf record screen (ledger/games/saukopf).
import { h, field, select } from './ui.js';
import { toggles, numberInput, playerOptions, perPlayer, dealerSelect } from './games.js';

/** @typedef {import('./games.js').FormContext} FormContext */

const contracts = [['sauerei', 'Sauspiel (Sauerei)'], ['mastschwein', 'Mastschwein'], ['keiler', 'Keiler'], ['eber', 'Eber'], ['wutz', 'Wutz'],
  ['ferkelparade', 'Ferkelparade'], ['knorpel', 'Knorpel'], ['schwarte', 'Schwarte']];
const sauSuits = [['eichel', 'Eichel'], ['gras', 'Gras'], ['herz', 'Herz'], ['schellen', 'Schellen']];
const sauRanks = [['sau', 'Sau'], ['10', '10'], ['koenig', 'König'], ['ober', 'Ober'], ['unter', 'Unter'], ['9', '9'], ['8', '8'], ['7', '7']];

// saukopf: a Vierer (four play) or a Dreihaxer (three play, mit or ohne
// Trog); with more seated "Wer spielt?" picks them. "Wilde Sauerei" (a
// Vierer nobody bid in) asks every player's Augen and tricks instead.
/** @param {FormContext} ctx */
export function form(ctx) {
  const f = ctx.initial || {};
  const [ks, kr] = (f.knorpel_card || 'gras_ober').split('_');
  const s = { variant: f.variant || (ctx.seating.length === 3 ? 'dreihaxer' : 'vierer'), dealer: f.dealer || ctx.next.next_dealer || ctx.seating[ctx.seating.length - 1],
    spieler: f.spieler, contract: f.per_player ? 'wild' : f.contract || 'sauerei', called_sau: f.called_sau || 'eichel', mitspieler: f.mitspieler,
    trump_suit: f.trump_suit || 'herz', knorpel_suit: ks, knorpel_rank: kr, knorpel_holder: f.knorpel_holder, trog: f.trog || 'mit', open_augen: f.open_augen,
    augen: f.augen, tricks: f.tricks, bid: f.bid === 'schwarz' ? undefined : f.bid ?? undefined, schwarz: f.bid === 'schwarz', holder: f.laufende?.holder, laufende: f.laufende?.count ?? 1,
    unrein: !!f.unrein, am_spiess: !!f.am_spiess, stallgeruch: !!f.stallgeruch, huftritte: f.huftritte, hauer: f.hauer ?? '',
    trumped_by: f.saukopf?.trumped_by ?? '', herz_sau_of: f.saukopf?.herz_sau_of ?? '' };
  // With more seated than play, the seats after the dealer play.
  const after = (n) => {
    const d = ctx.seating.indexOf(s.dealer);
    if (ctx.seating.length <= n || d < 0) return ctx.seating.slice(0, n);
    return ctx.seating.map((_, i) => ctx.seating[(d + 1 + i) % ctx.seating.length]).slice(0, n)
      .sort((a, b) => ctx.seating.indexOf(a) - ctx.seating.indexOf(b));
  };
  // Who plays: as the server sent it (next_hand, ahead); the seats after
  // the dealer only when the scorer switches the variant.
  const sent = ctx.next.next_players;
  let players = f.players ? [...f.players] : sent?.length === (s.variant === 'dreihaxer' ? 3 : 4) ? [...sent] : after(s.variant === 'dreihaxer' ? 3 : 4);
  const perRows = Object.fromEntries((f.per_player || []).map((p) => [p.player, { augen: p.augen, tricks: p.tricks }]));
  const el = h('div', { oninput: ctx.onChange, onchange: ctx.onChange });
  const changed = () => draw();
  const who = (label, key, fieldName, only = players) => field(label, select(playerOptions(only, ctx.names), s[key], (v) => { s[key] = Number(v); }), { 'data-field': fieldName });
  const check = (text, key, fieldName, redraw) => h('div', { 'data-field': fieldName }, h('label', { class: 'check' },
    h('input', { type: 'checkbox', checked: s[key], onchange: (e) => { s[key] = e.target.checked; if (redraw) draw(); } }), ' ' + text));
  const maybe = (label, key, fieldName, only = players) => field(label, select(playerOptions(only, ctx.names, 'niemand'), s[key], (v) => { s[key] = v === '' ? '' : Number(v); draw(); }), { 'data-field': fieldName });
  const num = (label, key, fieldName, attrs) => field(label, numberInput(s[key], (v) => { s[key] = v; }, attrs), { 'data-field': fieldName });

  function whoPlays() {
    const n = s.variant === 'dreihaxer' ? 3 : 4;
    const box = h('fieldset', { 'data-field': 'facts.players' }, h('legend', {}, `Wer spielt? (${n === 3 ? 'drei' : 'vier'} antippen)`));
    const row = h('div', { class: 'row' });
    for (const id of ctx.seating) {
      const on = players.includes(id);
      row.append(h('button', { type: 'button', 'aria-pressed': String(on), 'data-player': id, disabled: !on && players.length >= n, onclick: () => {
        players = on ? players.filter((p) => p !== id) : [...players, id].sort((a, b) => ctx.seating.indexOf(a) - ctx.seating.indexOf(b));
        draw();
      } }, ctx.names(id)));
    }
    box.append(row);
    return box;
  }

  function draw() {
    const three = s.variant === 'dreihaxer';
    const wild = s.contract === 'wild';
    const first = players[0];
    for (const k of ['spieler', 'holder']) if (!players.includes(s[k])) s[k] = first;
    if (!players.includes(s.mitspieler) || s.mitspieler === s.spieler) s.mitspieler = players.find((p) => p !== s.spieler);
    if (!players.includes(s.knorpel_holder) || s.knorpel_holder === s.spieler) s.knorpel_holder = players.find((p) => p !== s.spieler);
    for (const k of ['trumped_by', 'herz_sau_of', 'hauer']) if (s[k] !== '' && !players.includes(s[k])) s[k] = '';
    if (s.herz_sau_of === s.trumped_by) s.herz_sau_of = '';
    const opts = three ? contracts.filter(([v]) => v !== 'sauerei') : [...contracts, ['wild', 'Wilde Sauerei (niemand hat gereizt)']];
    el.replaceChildren(
      ctx.seating.length > 3 && field('Variante', select([['vierer', 'Vierer (4 Spieler)'], ['dreihaxer', 'Dreihaxer (3 Spieler)']], s.variant, (v) => {
        s.variant = v;
        players = after(v === 'dreihaxer' ? 3 : 4);
        if (v === 'dreihaxer' && (s.contract === 'sauerei' || s.contract === 'wild')) s.contract = 'keiler';
        changed();
      }), { 'data-field': 'facts.variant' }),
      ctx.seating.length > (three ? 3 : 4) ? whoPlays() : h('p', { class: 'muted' }, 'Es spielen: ' + players.map(ctx.names).join(', ')),
      dealerSelect(ctx.seating, ctx.names, s),
      field('Spiel', select(opts, s.contract, (v) => { s.contract = v; changed(); }), { 'data-field': 'facts.contract' }));
    if (wild) {
      const rows = players.map((id) => (perRows[id] ||= {}));
      el.append(perPlayer('Augen und Stiche (Wilde Sauerei)', players, ctx.names, [['augen', 'Augen'], ['tricks', 'Stiche']], rows, 'facts.per_player'));
    } else {
      el.append(
        who('Spieler', 'spieler', 'facts.spieler'),
        s.contract === 'sauerei' && h('div', { class: 'row' },
          field('Gerufene Sau', select([['eichel', 'Eichel'], ['gras', 'Gras'], ['schellen', 'Schellen']], s.called_sau, (v) => { s.called_sau = v; }), { 'data-field': 'facts.called_sau' }),
          !s.unrein && who('Mitspieler', 'mitspieler', 'facts.mitspieler')),
        s.contract === 'sauerei' && check('Unrein (Spieler hat die Sau selbst)', 'unrein', 'facts.unrein', true),
        s.contract === 'keiler' && field('Trumpffarbe', select(sauSuits, s.trump_suit, (v) => { s.trump_suit = v; }), { 'data-field': 'facts.trump_suit' }),
        s.contract === 'knorpel' && h('div', { class: 'row', 'data-field': 'facts.knorpel_card' },
          field('Knorpel-Farbe', select(sauSuits, s.knorpel_suit, (v) => { s.knorpel_suit = v; })),
          field('Knorpel-Karte', select(sauRanks, s.knorpel_rank, (v) => { s.knorpel_rank = v; }))),
        s.contract === 'knorpel' && who('Knorpel hält', 'knorpel_holder', 'facts.knorpel_holder', players.filter((p) => p !== s.spieler)),
        three && field('Trog', select([['mit', 'mit Trog'], ['ohne', 'ohne Trog']], s.trog, (v) => { s.trog = v; changed(); }), { 'data-field': 'facts.trog' }),
        three && s.trog === 'ohne' && num('Augen der offenen Karten', 'open_augen', 'facts.open_augen', { max: 22 }),
        h('div', { class: 'row' }, !s.schwarz && num('Reizwert', 'bid', 'facts.bid', { min: 61, max: 120 }), check('schwarz gereizt', 'schwarz', 'facts.bid', true)),
        num('Augen der Spieler-Partei', 'augen', 'facts.augen'),
        num('Stiche der Spieler-Partei', 'tricks', 'facts.tricks'),
        h('div', { class: 'row' }, check('am Spieß', 'am_spiess', 'facts.am_spiess'), num('Huftritte', 'huftritte', 'facts.huftritte', { max: 10 })),
        s.contract === 'sauerei' && !s.unrein && check('Stallgeruch (Mitspieler, ab 75 oder schwarz)', 'stallgeruch', 'facts.stallgeruch'));
    }
    if (!['schwarte', 'knorpel', 'mastschwein'].includes(s.contract)) {
      el.append(h('div', { class: 'row' }, who('Höchster Trumpf bei', 'holder', 'facts.laufende.holder'), num('Laufende', 'laufende', 'facts.laufende.count', { min: 1 })));
    }
    if (s.contract === 'sauerei' || wild) {
      el.append(h('fieldset', { 'data-field': 'facts.saukopf' }, h('legend', {}, 'Sauerei: Saukopf und Hauer'),
        h('div', { class: 'row' }, maybe('Herz-Sau gestochen von', 'trumped_by', 'facts.saukopf.trumped_by'),
          s.trumped_by !== '' && maybe('Herz-Sau von', 'herz_sau_of', 'facts.saukopf.herz_sau_of', players.filter((p) => p !== s.trumped_by))),
        maybe('Hauer (letzter Stich mit dem Eichel-Unter)', 'hauer', 'facts.hauer')));
    }
    ctx.onChange();
  }
  draw();
  return { el, facts: () => {
    const out = { variant: s.variant, players: [...players], dealer: s.dealer };
    if (s.contract === 'wild') {
      out.per_player = players.map((id) => ({ player: id, augen: perRows[id]?.augen ?? 0, tricks: perRows[id]?.tricks ?? 0 }));
    } else {
      Object.assign(out, { spieler: s.spieler, contract: s.contract, augen: s.augen ?? 0, tricks: s.tricks ?? 0 });
      if (s.schwarz) out.bid = 'schwarz';
      else if (s.bid !== undefined) out.bid = s.bid;
      if (s.contract === 'sauerei') {
        out.called_sau = s.called_sau;
        if (s.unrein) out.unrein = true;
        else out.mitspieler = s.mitspieler;
        if (s.stallgeruch && !s.unrein) out.stallgeruch = true;
      }
      if (s.am_spiess) out.am_spiess = true;
      if (s.huftritte) out.huftritte = s.huftritte;
      if (s.contract === 'keiler') out.trump_suit = s.trump_suit;
      if (s.contract === 'knorpel') { out.knorpel_card = `${s.knorpel_suit}_${s.knorpel_rank}`; out.knorpel_holder = s.knorpel_holder; }
      if (s.variant === 'dreihaxer') out.trog = s.trog;
      if (s.variant === 'dreihaxer' && s.trog === 'ohne') out.open_augen = s.open_augen ?? 0;
    }
    if (!['schwarte', 'knorpel', 'mastschwein'].includes(s.contract)) out.laufende = { holder: s.holder, count: s.laufende ?? 0 };
    if (s.contract === 'sauerei' || s.contract === 'wild') {
      if (s.trumped_by !== '' && s.herz_sau_of !== '') out.saukopf = { trumped_by: s.trumped_by, herz_sau_of: s.herz_sau_of };
      if (s.hauer !== '') out.hauer = s.hauer;
    }
    return out;
  } };
}

