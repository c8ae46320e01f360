// game-doppelkopf.js: the Doppelkopf record screen (ledger/games/doppelkopf).
import { h, field, select } from './ui.js';
import { toggles, numberInput, playerOptions, perPlayer, dealerSelect } from './games.js';

/** @typedef {import('./games.js').FormContext} FormContext */

const dokoGames = [
  ['normal', 'Normalspiel'], ['hochzeit', 'Hochzeit'], ['stille_hochzeit', 'Stille Hochzeit'], ['armut', 'Armut'],
  ['farbsolo', 'Farbsolo'], ['damensolo', 'Damensolo'], ['bubensolo', 'Bubensolo'], ['fleischloser', 'Fleischloser'],
  ['koehler', 'Köhler'], ['schmeissen', 'Schmeißen'], ['armut_nicht_genommen', 'Armut nicht genommen'],
];
// AUGEN_MAX is the contract's maximum of facts.re.augen.
const AUGEN_MAX = 240;
const solos = new Set(['farbsolo', 'damensolo', 'bubensolo', 'koenigssolo', 'fleischloser', 'koehler', 'stille_hochzeit']);
const redeals = new Set(['schmeissen', 'armut_nicht_genommen']);

/** @param {FormContext} ctx */
export function form(ctx) {
  const f = ctx.initial || {};
  // With five to seven seated the four who play default to the table's
  // next players; "Wer spielt?" changes them (then the facts name them).
  // Offline beyond what the server sent ahead, with more than four
  // seated, nobody is chosen: the scorer taps the four.
  const usual = f.players || ctx.hand?.player_ids || (ctx.next.next_players?.length ? ctx.next.next_players : ctx.seating.length === 4 ? ctx.seating : []);
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
    // A Königssolo only where the table's rules allow it (option koenigssolo).
    const offered = ctx.rules?.koenigssolo || ctx.options?.koenigssolo || s.game === 'koenigssolo'
      ? [...dokoGames.slice(0, 7), ['koenigssolo', 'Königssolo'], ...dokoGames.slice(7)] : dokoGames;
    for (const [v, t] of offered) {
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
    const box = h('fieldset', { 'data-field': 'facts.re.augen' }, h('legend', {}, 'Augen'));
    box.append(h('p', { class: 'augen', 'aria-live': 'polite', id: 'augen' }, `Re: ${s.augen ?? '–'}`));
    const grid = h('div', { class: 'pad', role: 'group', 'aria-label': 'Augen der Re-Partei eingeben' });
    /** @param {string} k */
    const press = (k) => {
      let v = s.augen === null ? '' : String(s.augen);
      if (k === 'C') v = '';
      else if (k === '⌫') v = v.slice(0, -1);
      else v = (v === '0' ? '' : v) + k;
      // The pad takes no more than the contract's most Augen (the deck's 240).
      if (v !== '' && Number(v) > AUGEN_MAX) return;
      s.augen = v === '' ? null : Number(v);
      changed();
    };
    for (const k of ['1', '2', '3', '4', '5', '6', '7', '8', '9', 'C', '0', '⌫']) {
      const label = k === 'C' ? 'Augen löschen' : k === '⌫' ? 'Letzte Ziffer löschen' : `Ziffer ${k}`;
      const next = s.augen === null || s.augen === 0 ? Number(k) : Number(String(s.augen) + k);
      const refused = /\d/.test(k) && next > AUGEN_MAX;
      grid.append(h('button', { type: 'button', 'aria-label': label, 'aria-disabled': refused ? 'true' : null, onclick: () => press(k) }, k));
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
  // ready: the hand is complete enough to be checked – the Re party
  // chosen and Augen typed (or a redeal); before that no problem shows.
  const ready = () => redeals.has(s.game) || s.augen !== null && s.re.length === (solos.has(s.game) ? 1 : 2);
  return { el, facts, ready };
}

