// ui.js: small DOM helpers and formats shared by the screens. Formats
// only: every figure and text about the game comes from the server.

/**
 * h builds an element: h('button', {onclick, 'aria-pressed': 'true'}, 'Text', child).
 * @param {string} tag
 * @param {Record<string, any> | null} [attrs]
 * @param {...any} kids
 * @returns {HTMLElement & Record<string, any>}
 */
export function h(tag, attrs = {}, ...kids) {
  const el = /** @type {HTMLElement & Record<string, any>} */ (document.createElement(tag));
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith('on')) el.addEventListener(k.slice(2), v);
    else if (k === 'class') el.className = v;
    else if (k === 'html') el.innerHTML = v;
    else el.setAttribute(k, v === true ? '' : v);
  }
  for (const kid of kids.flat(Infinity)) {
    if (kid === undefined || kid === null || kid === false) continue;
    el.append(kid instanceof Node ? kid : document.createTextNode(String(kid)));
  }
  return el;
}

let fieldIDs = 0;
/**
 * field is a labelled control: field('Augen Re', h('input')).
 * @param {string} label
 * @param {HTMLElement} control
 * @param {Record<string, any>} [extra]
 */
export function field(label, control, extra = {}) {
  control.id ||= 'f' + ++fieldIDs;
  return h('div', extra, h('label', { for: control.id }, label), control);
}

/**
 * select is a <select> of [value, text] pairs.
 * @param {any[][]} options
 * @param {any} value
 * @param {(v: string) => void} onchange
 * @param {Record<string, any>} [attrs]
 */
export function select(options, value, onchange, attrs = {}) {
  return h('select', { onchange: (/** @type {Event} */ e) => onchange(/** @type {HTMLSelectElement} */ (e.target).value), ...attrs },
    options.map(([v, t]) => h('option', { value: v, selected: String(v) === String(value) }, t)));
}

/**
 * minus writes a figure as the server gave it with a true minus sign.
 * @param {string | number} p
 */
export const minus = (p) => String(p).replace('-', '−');

/**
 * signed writes a figure with its sign: "+3", "−7/2", "0".
 * @param {string | number} p
 */
export function signed(p) {
  const s = String(p);
  return s.startsWith('-') ? '−' + s.slice(1) : s === '0' ? '0' : '+' + s;
}

/** @param {number} cents */
export function euro(cents) {
  return minus((cents / 100).toLocaleString('de-DE', { style: 'currency', currency: 'EUR' }));
}

export function today() {
  const d = new Date();
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
}

/**
 * date turns 2026-11-19 into 19.11.2026.
 * @param {string} iso
 */
export const date = (iso) => iso.split('-').reverse().join('.');
