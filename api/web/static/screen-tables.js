// screen-tables.js: the club's tables and the admin's form for a new one
// (game, rule set and its options with the catalogue's German lines, the
// stake as a German types it, Klaberjass's match-loss payout).
import { post, key, cached, cachedAll } from './api.js';
import { h, field, select } from './ui.js';
import { show, problemText, role, rerender, showProblem } from './screen.js';
import { gameNames } from './games.js';

/** @typedef {import('./screen.js').Screen} Screen */

/** @param {Screen} scr */
export async function tablesScreen(scr) {
  const admin = role.get() === 'admin';
  // The form is drawn whole, with the catalogue's rule sets: filled in
  // later, they would push the button down under a finger on its way.
  const [{ tables }, games] = await Promise.all([cachedAll('/v1/tables', 'tables'),
    admin ? cached('/v1/games').catch(() => null) : null]);
  const list = h('ul', { class: 'list' }, tables.map((/** @type {any} */ t) => h('li', {}, h('a', { href: `#/t/${t.id}` },
    h('strong', {}, t.name), ' · ', gameNames[t.game] || t.game, t.open_session_id ? ' · Abend läuft' : ''))));
  show(scr, h('h1', {}, 'Tische'), tables.length ? list : h('p', { class: 'muted' }, 'Noch kein Tisch.'),
    admin ? newTable(games) : null,
    h('p', { class: 'row' }, h('a', { class: 'btn', href: '#/mitglieder' }, 'Mitglieder & Statistik'),
      h('button', { type: 'button', onclick: () => { key.clear(); role.clear(); rerender(scr); } }, 'Abmelden')));
}

/**
 * stake reads money per point as a German types it – "0,5", "0.5", "½",
 * "1/2", "½ Cent", "2" – in the contract's exact form ("1/2", "2"); what
 * it cannot read it gives back as typed, for the server to refuse.
 * @param {string} typed
 */
export function stake(typed) {
  let s = typed.trim().replace(/\s*(cent|ct|¢)\.?$/i, '').replace(/\s+/g, '');
  const vulgar = /** @type {Record<string, string>} */ ({ '½': '1/2', '¼': '1/4', '¾': '3/4', '⅓': '1/3', '⅔': '2/3', '⅕': '1/5', '⅒': '1/10' });
  const m = s.match(/^(\d*)([½¼¾⅓⅔⅕⅒])$/);
  if (m) {
    const [n, d] = vulgar[m[2]].split('/').map(BigInt);
    s = `${BigInt(m[1] || '0') * d + n}/${d}`;
  }
  const dec = s.match(/^(\d+)?[.,](\d+)$/);
  if (dec) {
    const d = 10n ** BigInt(dec[2].length);
    s = `${BigInt(dec[1] || '0') * d + BigInt(dec[2])}/${d}`;
  }
  const frac = s.match(/^(\d+)\/(\d+)$/);
  if (!frac || frac[2] === '0') return s === '' ? '0' : s;
  let [n, d] = [BigInt(frac[1]), BigInt(frac[2])];
  let [a, b] = [n, d];
  while (b) [a, b] = [b, a % b];
  if (a > 1n) { n /= a; d /= a; }
  return d === 1n ? String(n) : `${n}/${d}`;
}

// The options the form offers beside the rule set, when the game's
// catalogue has them.
const offered = ['nines', 'koenigssolo'];

/** @param {any} games the catalogue (GET /v1/games), or null when it could not be read */
function newTable(games) {
  const nameIn = h('input', { required: true, maxlength: 100 });
  /** @type {{game: string, preset: string, options: Record<string, any>}} */
  const s = { game: 'doppelkopf', preset: '', options: {} };
  const stakeIn = h('input', { inputmode: 'decimal', value: '1', autocomplete: 'off' });
  const matchLoss = h('input', { type: 'number', inputmode: 'numeric', min: 0, max: 1000000, value: '0' });
  const err = h('p', { class: 'problem', role: 'alert' });
  const rules = h('div', { 'aria-live': 'polite' });
  /** @type {any[]} */
  let catalogue = [];
  const drawRules = () => {
    const g = catalogue.find((x) => x.name === s.game);
    if (!g) { rules.replaceChildren(); return; }
    s.preset ||= g.default_preset;
    const preset = g.presets.find((/** @type {any} */ p) => p.name === s.preset) || g.presets[0];
    rules.replaceChildren(...[
      g.presets.length > 1 ? field('Regeln', select(g.presets.map((/** @type {any} */ p) => [p.name, presetName(p.name)]), s.preset, (v) => { s.preset = v; s.options = {}; drawRules(); }), { 'data-field': 'preset' }) : null,
      g.presets.length > 1 && helpFor('preset') ? h('p', { class: 'muted help' }, helpFor('preset')) : null,
      preset ? h('p', { class: 'muted help' }, preset.description_de) : null,
      g.options.filter((/** @type {any} */ o) => offered.includes(o.name) && o.type === 'boolean').map((/** @type {any} */ o) => {
        const on = s.options[o.name] ?? o.defaults[s.preset] ?? false;
        return h('div', { 'data-field': `options.${o.name}` }, h('label', { class: 'check' },
          h('input', { type: 'checkbox', checked: on, 'data-option': o.name, onchange: (/** @type {Event} */ e) => { s.options[o.name] = /** @type {HTMLInputElement} */ (e.target).checked; } }),
          ' ' + optionName(o.name)), h('p', { class: 'muted help' }, o.description_de));
      }),
      s.game === 'klaberjass' ? field('Cent je verlorene Partie', matchLoss, { 'data-field': 'match_loss_cents' }) : null,
      s.game === 'klaberjass' && helpFor('match_loss_cents') ? h('p', { class: 'muted help' }, helpFor('match_loss_cents')) : null].flat().filter(Boolean));
  };
  /** @type {any[]} */
  let fieldHelp = [];
  const stakeHelp = h('p', { class: 'muted help' }, 'Auch als Bruch oder mit Komma: 0,5 oder ½ oder 1/2.');
  /** @param {string} n */
  const helpFor = (n) => fieldHelp.find((x) => x.name === n && (!x.games || x.games.includes(s.game)))?.description_de;
  if (games) {
    catalogue = games.games;
    fieldHelp = games.table_fields || [];
    const line = helpFor('stake_cents_per_point');
    if (line) stakeHelp.textContent = line;
    drawRules();
  }
  const form = h('form', { onsubmit: async (/** @type {Event} */ e) => {
    e.preventDefault();
    const g = catalogue.find((x) => x.name === s.game);
    /** @type {Record<string, any>} */
    const body = { name: nameIn.value.trim(), game: s.game, stake_cents_per_point: stake(stakeIn.value) };
    if (s.preset && g && s.preset !== g.default_preset) body.preset = s.preset;
    if (Object.keys(s.options).length) body.options = s.options;
    if (s.game === 'klaberjass' && matchLoss.value) body.match_loss_cents = Number(matchLoss.value);
    try {
      const t = await post('/v1/tables', body);
      location.hash = `#/t/${t.id}`;
    } catch (x) {
      if (x instanceof Error && 'problem' in x) showProblem(form, /** @type {any} */ (x).problem, err);
      else err.textContent = problemText(x);
    }
  } }, h('h2', {}, 'Neuer Tisch'), field('Name', nameIn, { 'data-field': 'name' }),
  field('Spiel', select(Object.entries(gameNames), s.game, (v) => { s.game = v; s.preset = ''; s.options = {}; drawRules(); }), { 'data-field': 'game' }),
  rules,
  field('Cent je Punkt', stakeIn, { 'data-field': 'stake_cents_per_point' }),
  stakeHelp,
  err, h('button', { class: 'primary', type: 'submit' }, 'Tisch anlegen'));
  return form;
}

/** @param {string} n */
function presetName(n) {
  return /** @type {Record<string, string>} */ ({ house: 'Hausregeln', ddv: 'DDV-Turnierregeln' })[n] || n;
}

/** @param {string} n */
function optionName(n) {
  return /** @type {Record<string, string>} */ ({ nines: 'mit Neunen', koenigssolo: 'Königssolo erlaubt' })[n] || n;
}
