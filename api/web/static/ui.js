// ui.js: small DOM and number helpers shared by the screens.

// h builds an element: h('button', {onclick, 'aria-pressed': 'true'}, 'Text', child).
export function h(tag, attrs = {}, ...kids) {
  const el = document.createElement(tag);
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
// field is a labelled control: field('Augen Re', h('input')).
export function field(label, control, extra = {}) {
  control.id ||= 'f' + ++fieldIDs;
  return h('div', extra, h('label', { for: control.id }, label), control);
}

// select is a <select> of [value, text] pairs.
export function select(options, value, onchange, attrs = {}) {
  return h('select', { onchange: (e) => onchange(e.target.value), ...attrs },
    options.map(([v, t]) => h('option', { value: v, selected: String(v) === String(value) }, t)));
}

// Exact points: strings "7", "-7/2" added as rationals with BigInt.
function parse(p) {
  const [n, d = '1'] = String(p || '0').split('/');
  return [BigInt(n), BigInt(d)];
}
function gcd(a, b) { a = a < 0n ? -a : a; while (b) [a, b] = [b, a % b]; return a || 1n; }
export function add(a, b) {
  const [an, ad] = parse(a), [bn, bd] = parse(b);
  let n = an * bd + bn * ad, d = ad * bd;
  const g = gcd(n, d);
  n /= g; d /= g;
  return d === 1n ? String(n) : `${n}/${d}`;
}
export function signed(p) {
  const s = String(p);
  return s.startsWith('-') ? '−' + s.slice(1) : s === '0' ? '0' : '+' + s;
}
export function euro(cents) {
  return (cents / 100).toLocaleString('de-DE', { style: 'currency', currency: 'EUR' });
}
export function today() {
  const d = new Date();
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
}
