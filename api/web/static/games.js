// games.js: one recording screen per game. form(game, ctx) builds the
// screen and returns {el, facts()}: el carries data-field attributes named
// like the JSON paths the API's problems name ("facts.re.augen"), so a
// refusal is shown next to the input it names. ctx carries the seating,
// names(id), the table's preset and options, next (the table's next_hand),
// initial and hand (when correcting) and onChange (runs the preview).
import { h, field, select } from './ui.js';

export const gameNames = {
  doppelkopf: 'Doppelkopf', saukopf: 'Saukopf', schwarze_sau: 'Schwarze Sau',
  klaberjass: 'Klaberjass', schwarze_dame: 'Schwarze Dame',
};

export function form(game, ctx) {
  const make = { doppelkopf, saukopf, schwarze_sau: schwarzeSau, klaberjass, schwarze_dame: schwarzeDame }[game];
  return make(ctx);
}

// toggles is a group of name buttons; pick(id) toggles, up to max chosen.
function toggles(legend, fieldName, players, names, chosen, max, changed) {
  const box = h('fieldset', { 'data-field': fieldName }, h('legend', {}, legend));
  const row = h('div', { class: 'row' });
  for (const id of players) {
    const b = h('button', { type: 'button', 'aria-pressed': String(chosen.includes(id)), 'data-player': id,
      onclick: () => {
        const i = chosen.indexOf(id);
        if (i >= 0) chosen.splice(i, 1);
        else { chosen.push(id); while (chosen.length > max) chosen.shift(); }
        for (const x of row.children) x.setAttribute('aria-pressed', String(chosen.includes(Number(x.dataset.player))));
        changed();
      } }, names(id));
    row.append(b);
  }
  box.append(row);
  return box;
}

function numberInput(value, onchange, attrs = {}) {
  return h('input', { type: 'number', inputmode: 'numeric', value: value ?? '', min: 0,
    oninput: (e) => onchange(e.target.value === '' ? undefined : Number(e.target.value)), ...attrs });
}

function playerOptions(players, names, none) {
  const opts = players.map((id) => [id, names(id)]);
  return none ? [['', none], ...opts] : opts;
}

const dokoGames = [
  ['normal', 'Normalspiel'], ['hochzeit', 'Hochzeit'], ['stille_hochzeit', 'Stille Hochzeit'], ['armut', 'Armut'],
  ['farbsolo', 'Farbsolo'], ['damensolo', 'Damensolo'], ['bubensolo', 'Bubensolo'], ['fleischloser', 'Fleischloser'],
  ['koehler', 'Köhler'], ['schmeissen', 'Schmeißen'], ['armut_nicht_genommen', 'Armut nicht genommen'],
];
const solos = new Set(['farbsolo', 'damensolo', 'bubensolo', 'fleischloser', 'koehler', 'stille_hochzeit']);
const redeals = new Set(['schmeissen', 'armut_nicht_genommen']);

function doppelkopf(ctx) {
  const f = ctx.initial || {};
  // With five to seven seated the four who play default to the table's
  // next players; "Wer spielt?" changes them (then the facts name them).
  const usual = f.players || ctx.hand?.player_ids || ctx.next.next_players || ctx.seating.slice(0, 4);
  const players = [...usual];
  const s = {
    game: f.game || 'normal', suit: f.suit || 'kreuz',
    re: [...(f.re?.players || [])], augen: f.re?.augen ?? null,
    reAnn: f.re?.announced || 'none', koAnn: f.kontra?.announced || 'none',
    re2: { doppelkopf: f.re?.doppelkopf || 0, fuchs: f.re?.fuchs_gefangen || 0, karlchen: !!f.re?.karlchen },
    ko2: { doppelkopf: f.kontra?.doppelkopf || 0, fuchs: f.kontra?.fuchs_gefangen || 0, karlchen: !!f.kontra?.karlchen },
    herzstich: !!f.herzstich, verworfen: f.verworfen_by ?? '', schweinchen: f.schweinchen ?? '',
  };
  const schweinchenOn = ctx.options?.schweinchen ?? ctx.preset !== 'ddv';
  const el = h('div');
  const changed = () => { draw(); ctx.onChange(); };

  function gameButtons() {
    const box = h('fieldset', { 'data-field': 'facts.game' }, h('legend', {}, 'Spiel'));
    const row = h('div', { class: 'row' });
    for (const [v, t] of dokoGames) {
      row.append(h('button', { type: 'button', 'aria-pressed': String(s.game === v), onclick: () => {
        s.game = v;
        if (solos.has(v)) s.re.splice(1);
        changed();
      } }, t));
    }
    box.append(row);
    if (s.game === 'farbsolo') {
      box.append(field('Farbe', select([['kreuz', 'Kreuz'], ['pik', 'Pik'], ['herz', 'Herz'], ['karo', 'Karo (Trumpfsolo)']], s.suit, (v) => { s.suit = v; changed(); }), { 'data-field': 'facts.suit' }));
    }
    return box;
  }

  function pad() {
    const kontra = s.augen === null ? '–' : 240 - s.augen;
    const box = h('fieldset', { 'data-field': 'facts.re.augen' }, h('legend', {}, 'Augen'));
    box.append(h('p', { class: 'augen', 'aria-live': 'polite', id: 'augen' }, `Re: ${s.augen ?? '–'} · Kontra: ${kontra}`));
    const grid = h('div', { class: 'pad', role: 'group', 'aria-label': 'Augen der Re-Partei eingeben' });
    const press = (k) => {
      let v = s.augen === null ? '' : String(s.augen);
      if (k === 'C') v = '';
      else if (k === '⌫') v = v.slice(0, -1);
      else if (v.length < 3) v = (v === '0' ? '' : v) + k;
      s.augen = v === '' ? null : Number(v);
      changed();
    };
    for (const k of ['1', '2', '3', '4', '5', '6', '7', '8', '9', 'C', '0', '⌫']) {
      const label = k === 'C' ? 'Augen löschen' : k === '⌫' ? 'Letzte Ziffer löschen' : `Ziffer ${k}`;
      grid.append(h('button', { type: 'button', 'aria-label': label, onclick: () => press(k) }, k));
    }
    box.append(grid);
    return box;
  }

  const ann = (party, v, set) => {
    const opts = [['none', 'keine Ansage'], [party === 're' ? 're' : 'kontra', party === 're' ? 'Re' : 'Kontra'],
      ['keine90', 'keine 90'], ['keine60', 'keine 60'], ['keine30', 'keine 30'], ['schwarz', 'schwarz']];
    return field(`Ansage ${party === 're' ? 'Re' : 'Kontra'}`, select(opts, v, (x) => { set(x); changed(); }), { 'data-field': `facts.${party}.announced` });
  };
  const specials = (party, o) => h('fieldset', { 'data-field': `facts.${party}` }, h('legend', {}, `Sonderpunkte ${party === 're' ? 'Re' : 'Kontra'}`),
    h('div', { class: 'row' },
      field('Doppelköpfe', select([0, 1, 2, 3, 4].map((n) => [n, n]), o.doppelkopf, (v) => { o.doppelkopf = Number(v); changed(); }), { 'data-field': `facts.${party}.doppelkopf` }),
      field('Füchse gefangen', select([0, 1, 2].map((n) => [n, n]), o.fuchs, (v) => { o.fuchs = Number(v); changed(); }), { 'data-field': `facts.${party}.fuchs_gefangen` }),
      h('div', { 'data-field': `facts.${party}.karlchen` }, h('label', { class: 'check' },
        h('input', { type: 'checkbox', checked: o.karlchen, onchange: (e) => { o.karlchen = e.target.checked; changed(); } }), ' Karlchen'))));

  function whoPlays() {
    const box = h('fieldset', { 'data-field': 'facts.players' }, h('legend', {}, 'Wer spielt? (vier antippen)'));
    const row = h('div', { class: 'row' });
    for (const id of ctx.seating) {
      const on = players.includes(id);
      row.append(h('button', { type: 'button', 'aria-pressed': String(on), 'data-player': id, disabled: !on && players.length >= 4, onclick: () => {
        if (on) players.splice(players.indexOf(id), 1);
        else players.push(id);
        players.sort((a, b) => ctx.seating.indexOf(a) - ctx.seating.indexOf(b));
        for (const x of [s.re]) x.splice(0, x.length, ...x.filter((p) => players.includes(p)));
        if (!players.includes(s.verworfen)) s.verworfen = '';
        if (!players.includes(s.schweinchen)) s.schweinchen = '';
        changed();
      } }, ctx.names(id)));
    }
    box.append(row);
    return box;
  }
  const pick = (label, fieldName, key) => field(label, select(playerOptions(players, ctx.names, 'niemand'), s[key], (v) => { s[key] = v === '' ? '' : Number(v); changed(); }), { 'data-field': fieldName });

  function draw() {
    el.replaceChildren(
      ctx.seating.length > 4 ? whoPlays() : h('p', { class: 'muted' }, 'Es spielen: ' + players.map(ctx.names).join(', ')),
      gameButtons());
    if (redeals.has(s.game)) return;
    el.append(
      toggles(solos.has(s.game) ? 'Re: wer spielt das Solo?' : 'Re: die zwei Namen antippen', 'facts.re.players', players, ctx.names, s.re, solos.has(s.game) ? 1 : 2, changed),
      pad(),
      h('div', { class: 'row' }, ann('re', s.reAnn, (v) => { s.reAnn = v; }), ann('kontra', s.koAnn, (v) => { s.koAnn = v; })),
      specials('re', s.re2), specials('kontra', s.ko2),
      h('div', { 'data-field': 'facts.herzstich' }, h('label', { class: 'check' },
        h('input', { type: 'checkbox', checked: s.herzstich, onchange: (e) => { s.herzstich = e.target.checked; changed(); } }), ' Herzstich (löst Bock aus)')),
      h('div', { class: 'row' }, pick('Verworfen (falsch bedient)', 'facts.verworfen_by', 'verworfen'),
        (schweinchenOn || s.schweinchen !== '') && pick('Schweinchen angesagt', 'facts.schweinchen', 'schweinchen')));
  }
  draw();

  function facts() {
    const out = { game: s.game };
    if (ctx.hand) { out.players = [...players]; out.dealer = ctx.hand.dealer_id; }
    else if (players.length !== usual.length || players.some((p) => !usual.includes(p))) out.players = [...players];
    if (redeals.has(s.game)) return out;
    if (s.game === 'farbsolo') out.suit = s.suit;
    const party = (o, a) => {
      const p = { announced: a };
      if (o.doppelkopf) p.doppelkopf = o.doppelkopf;
      if (o.fuchs) p.fuchs_gefangen = o.fuchs;
      if (o.karlchen) p.karlchen = true;
      return p;
    };
    out.re = { players: [...s.re], augen: s.augen ?? -1, ...party(s.re2, s.reAnn) };
    out.kontra = party(s.ko2, s.koAnn);
    if (s.herzstich) out.herzstich = true;
    if (s.verworfen !== '') out.verworfen_by = s.verworfen;
    if (s.schweinchen !== '') out.schweinchen = s.schweinchen;
    return out;
  }
  return { el, facts };
}

// perPlayer is a grid of one row per player with the given inputs.
function perPlayer(legend, players, names, cols, rows, prefix) {
  const box = h('fieldset', { 'data-field': prefix }, h('legend', {}, legend));
  players.forEach((id, i) => {
    const row = rows[i];
    const line = h('div', { class: 'row', 'data-field': `${prefix}[${i}]` }, h('strong', { class: 'grow' }, names(id)));
    for (const [key, label, kind] of cols) {
      const attrs = { 'aria-label': `${label} ${names(id)}`, 'data-field': `${prefix}[${i}].${key}` };
      if (kind === 'check') {
        line.append(h('label', { class: 'check' }, h('input', { type: 'checkbox', checked: !!row[key], ...attrs, onchange: (e) => { row[key] = e.target.checked; } }), ' ' + label));
      } else {
        line.append(h('span', {}, label + ' ', numberInput(row[key], (v) => { row[key] = v; }, { ...attrs, style: 'width:5.5rem' })));
      }
    }
    box.append(line);
  });
  return box;
}

function dealerSelect(players, names, s) {
  return field('Geber', select(playerOptions(players, names), s.dealer, (v) => { s.dealer = Number(v); }), { 'data-field': 'facts.dealer' });
}

function schwarzeDame(ctx) {
  const f = ctx.initial || {};
  const players = (f.players || []).map((p) => p.player).length ? f.players.map((p) => p.player) : ctx.seating.slice(0, 4);
  const s = { dealer: f.dealer || ctx.next.next_dealer || ctx.next.dealer || players[0] };
  const rows = players.map((id) => ({ ...(f.players || []).find((p) => p.player === id) }));
  const el = h('div', { oninput: ctx.onChange, onchange: ctx.onChange },
    dealerSelect(players, ctx.names, s),
    perPlayer('Stiche und Strafpunkte', players, ctx.names, [['tricks', 'Stiche'], ['penalty', 'Strafpunkte']], rows, 'facts.players'));
  return { el, facts: () => ({ dealer: s.dealer, players: players.map((id, i) => ({ player: id, tricks: rows[i].tricks ?? 0, penalty: rows[i].penalty ?? 0 })) }) };
}

// schwarzeSau: the players' Augen and tricks, the blind Stock with three
// players, the doublings in their order (each shown once the one before
// is said) and a Verstoß.
const calls = ['Kontra', 'Re', 'Sub', 'Hirsch'];
function schwarzeSau(ctx) {
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
  for (const el of box.querySelectorAll('[data-field]')) el.dataset.field = el.dataset.field.replace('facts.stock[0]', 'facts.stock');
  return box;
}

const suits = [['kreuz', 'Kreuz'], ['pik', 'Pik'], ['herz', 'Herz'], ['karo', 'Karo']];

// klaberjass: with four players the Augen are counted per side (the
// first and third, the second and fourth seat), with two or three per player.
// Melds are a list: "Meldung hinzufügen" adds a row of four selects.
const kinds = [['terz', 'Terz (20)'], ['halber', 'Halber (50)']];
const tops = [['7', '7'], ['8', '8'], ['9', '9'], ['10', '10'], ['bube', 'Bube'], ['dame', 'Dame'], ['koenig', 'König'], ['ass', 'Ass']];
function klaberjass(ctx) {
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

const contracts = [['sauerei', 'Sauspiel (Sauerei)'], ['mastschwein', 'Mastschwein'], ['keiler', 'Keiler'], ['eber', 'Eber'], ['wutz', 'Wutz'],
  ['ferkelparade', 'Ferkelparade'], ['knorpel', 'Knorpel'], ['schwarte', 'Schwarte']];
const sauSuits = [['eichel', 'Eichel'], ['gras', 'Gras'], ['herz', 'Herz'], ['schellen', 'Schellen']];
const sauRanks = [['sau', 'Sau'], ['10', '10'], ['koenig', 'König'], ['ober', 'Ober'], ['unter', 'Unter'], ['9', '9'], ['8', '8'], ['7', '7']];

// saukopf: a Vierer (four play) or a Dreihaxer (three play, mit or ohne
// Trog); with more seated "Wer spielt?" picks them. "Wilde Sauerei" (a
// Vierer nobody bid in) asks every player's Augen and tricks instead.
function saukopf(ctx) {
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
  let players = f.players ? [...f.players] : after(s.variant === 'dreihaxer' ? 3 : 4);
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
