// games.js: the games' names and the parts their record screens share.
// Each game's screen is a module of its own (game-<name>.js, as the
// engines in ledger/games), loaded when a table of that game records a
// hand: form(game, ctx) resolves to {el, facts(), ready?()}. el carries
// data-field attributes named like the JSON paths the API's problems name
// ("facts.re.augen"), so a refusal is shown next to the input it names.
// ctx carries the seating, names(id), the table's preset and options, next
// (who deals and plays this hand, as the server sent it), initial and hand
// (when correcting or from a draft) and onChange (runs the preview).
import { h, field, select } from './ui.js';

/** @type {Record<string, string>} */
export const gameNames = {
  doppelkopf: 'Doppelkopf', saukopf: 'Saukopf', schwarze_sau: 'Schwarze Sau',
  klaberjass: 'Klaberjass', schwarze_dame: 'Schwarze Dame',
};

/**
 * @typedef {{seating: number[], names: (id: number) => string, preset: string, options: Record<string, any>, rules?: Record<string, any>,
 *   next: Record<string, any>, initial?: any, hand?: any, onChange: () => void}} FormContext
 * @typedef {{el: HTMLElement, facts: () => any, ready?: () => boolean}} Form
 */

/**
 * form loads the game's screen module and builds its form.
 * @param {string} game
 * @param {FormContext} ctx
 * @returns {Promise<Form>}
 */
export async function form(game, ctx) {
  return (await load(game)).form(ctx);
}

/**
 * load imports a game's screen module; the table screen loads its game's
 * ahead, so a phone that goes offline can still record.
 * @param {string} game
 * @returns {Promise<any>}
 */
export function load(game) {
  const loaders = /** @type {Record<string, () => Promise<any>>} */ ({
    doppelkopf: () => import('./game-doppelkopf.js'),
    saukopf: () => import('./game-saukopf.js'),
    schwarze_sau: () => import('./game-schwarzesau.js'),
    klaberjass: () => import('./game-klaberjass.js'),
    schwarze_dame: () => import('./game-schwarzedame.js'),
  });
  return loaders[game]();
}

// toggles is a group of name buttons; pick(id) toggles, up to max chosen.
export function toggles(legend, fieldName, players, names, chosen, max, changed) {
  const box = h('fieldset', { 'data-field': fieldName }, h('legend', {}, legend));
  const row = h('div', { class: 'row' });
  for (const id of players) {
    const b = h('button', { type: 'button', 'aria-pressed': String(chosen.includes(id)), 'data-player': id,
      onclick: () => {
        const i = chosen.indexOf(id);
        if (i >= 0) chosen.splice(i, 1);
        else { chosen.push(id); while (chosen.length > max) chosen.shift(); }
        for (const x of /** @type {HTMLCollectionOf<HTMLElement>} */ (row.children)) x.setAttribute('aria-pressed', String(chosen.includes(Number(x.dataset.player))));
        changed();
      } }, names(id));
    row.append(b);
  }
  box.append(row);
  return box;
}

export function numberInput(value, onchange, attrs = {}) {
  return h('input', { type: 'number', inputmode: 'numeric', value: value ?? '', min: 0,
    oninput: (e) => onchange(e.target.value === '' ? undefined : Number(e.target.value)), ...attrs });
}

export function playerOptions(players, names, none) {
  const opts = players.map((id) => [id, names(id)]);
  return none ? [['', none], ...opts] : opts;
}

// perPlayer is a grid of one row per player with the given inputs.
export function perPlayer(legend, players, names, cols, rows, prefix) {
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

export function dealerSelect(players, names, s) {
  return field('Geber', select(playerOptions(players, names), s.dealer, (v) => { s.dealer = Number(v); }), { 'data-field': 'facts.dealer' });
}

