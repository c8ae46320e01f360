// app.js: "Der Tisch", the club's score sheet on a phone. Hash routes:
//   #/              tables (and the admin's new table)
//   #/t/ID          the table: open the evening, next hand, the list, live
//   #/t/ID/neu      record a hand      #/t/ID/k/N  correct hand N
//   #/s/SID         the evening's settlement, payments, report
//   #/mitglieder    leaderboard        #/mitglieder/PID  a player's statistics
import { api, get, post, key, Problem, Offline, uuid } from './api.js';
import { h, field, select, add, signed, euro, today } from './ui.js';
import { form, gameNames } from './games.js';
import * as outbox from './outbox.js';
import { follow } from './live.js';

const view = document.getElementById('view');
const net = document.getElementById('net');
let players = new Map(); // id → name
let role = localStorage.getItem('stichbuch.role') || '';
let stopLive = null;
let current = null; // the table screen's data, for the record screen
let playersReady = null; // the players' names, loading beside a screen's data

const minus = (p) => String(p).replace('-', '−');
const name = (id) => players.get(id) || `Spieler ${id}`;

// cached GETs: the last answer of each path stays in localStorage, so an
// offline phone still shows its table.
async function cached(path) {
  try {
    const data = await get(path);
    try { localStorage.setItem('stichbuch.cache.' + path, JSON.stringify(data)); } catch { /* full */ }
    return data;
  } catch (e) {
    const old = localStorage.getItem('stichbuch.cache.' + path);
    if (e instanceof Offline && old) return JSON.parse(old);
    throw e;
  }
}

// cachedAll reads every page of a list (its items under field), following
// next_after, each page cached as cached does.
async function cachedAll(path, field) {
  const items = [];
  for (let after = 0; ;) {
    const page = await cached(`${path}?limit=500${after ? `&after=${after}` : ''}`);
    items.push(...page[field]);
    if (!page.next_after) return { [field]: items };
    after = page.next_after;
  }
}

async function loadPlayers() {
  const data = await cachedAll('/v1/players', 'players');
  players = new Map(data.players.map((p) => [p.id, p.name]));
  return data.players;
}

function setNet() {
  net.textContent = navigator.onLine ? '' : 'offline';
}

function show(...kids) {
  view.replaceChildren(...kids.flat().filter((k) => k !== null && k !== undefined && k !== false));
}

// date turns 2026-11-19 into 19.11.2026.
const date = (iso) => iso.split('-').reverse().join('.');

function problemText(e) {
  if (e instanceof Problem) return e.problem.detail || e.problem.title;
  if (e instanceof Offline) return 'Keine Verbindung zum Server.';
  return String(e.message || e);
}

// showProblem marks the inputs a problem names (problem.field and each of
// problem.errors) and writes the rule next to them; what no input claims
// goes to the fallback element.
function showProblem(root, problem, fallback) {
  root.querySelectorAll('.has-problem').forEach((x) => x.classList.remove('has-problem'));
  root.querySelectorAll('.problem[data-for]').forEach((x) => x.remove());
  fallback.textContent = '';
  if (!problem) return;
  const items = problem.errors?.length ? problem.errors : [{ field: problem.field || '', rule: problem.detail || problem.title }];
  for (const { field: f, rule } of items) {
    let best = null;
    for (const el of root.querySelectorAll('[data-field]')) {
      const d = el.dataset.field;
      if (f && (f === d || f.startsWith(d + '.') || f.startsWith(d + '[')) && (!best || d.length > best.dataset.field.length)) best = el;
    }
    if (!best) { fallback.textContent = rule || problem.detail || problem.title; continue; }
    best.classList.add('has-problem');
    best.append(h('p', { class: 'problem', role: 'alert', 'data-for': best.dataset.field }, german(rule || problem.detail)));
  }
}

// german says the contract's usual rules in German; the games' own rules
// come as the service words them.
function german(rule) {
  return String(rule || '')
    .replace(/^number must be at most (\S+)$/, 'höchstens $1')
    .replace(/^number must be at least (\S+)$/, 'mindestens $1')
    .replace(/^maximum string length is (\d+)$/, 'höchstens $1 Zeichen')
    .replace(/^minimum string length is (\d+)$/, 'mindestens $1 Zeichen')
    .replace(/.*(value is required but missing|^is required).*/, 'fehlt');
}

// ---------- start: join code or key ----------

async function start() {
  setNet();
  window.addEventListener('online', () => { setNet(); flushAll(); });
  window.addEventListener('offline', setNet);
  window.addEventListener('hashchange', route);
  if ('serviceWorker' in navigator) navigator.serviceWorker.register('/sw.js').catch(() => {});
  const params = new URLSearchParams(location.search);
  const setup = params.get('setup');
  if (setup) {
    history.replaceState(null, '', '/');
    show(setupForm(setup));
    return;
  }
  const code = params.get('join');
  if (code) {
    history.replaceState(null, '', '/');
    try {
      const k = await post(`/v1/joins/${encodeURIComponent(code)}`);
      key.set(k.key);
      role = k.role;
      localStorage.setItem('stichbuch.role', role);
      location.hash = `#/t/${k.table_id}`;
    } catch (e) {
      show(h('h1', {}, 'Einladung'), h('p', { class: 'problem', role: 'alert' }, 'Die Einladung gilt nicht (mehr): ' + problemText(e)));
      if (!key.get()) { view.append(login()); return; }
    }
  }
  route();
  flushAll();
}

// setupForm creates the first club of a fresh service with the one-time
// token serve printed, and shows its admin key once.
function setupForm(token) {
  const input = h('input', { maxlength: 100, required: true, autocomplete: 'organization' });
  const err = h('p', { class: 'problem', role: 'alert' });
  return h('form', { onsubmit: async (e) => {
    e.preventDefault();
    try {
      const res = await post('/v1/setup', { token, name: input.value.trim() });
      key.set(res.key);
      role = 'admin';
      localStorage.setItem('stichbuch.role', role);
      show(h('h1', {}, res.club.name),
        h('p', {}, 'Der Club ist angelegt. Das ist sein Admin-Schlüssel; er wird nur jetzt gezeigt. Bewahre ihn gut auf: mit ihm meldest du dich an, und weitere Handys lädst du am Tisch mit „Handy einladen“ ein.'),
        h('p', {}, h('code', { id: 'admin-key' }, res.key)),
        h('p', {}, h('a', { class: 'btn primary', href: '#/', onclick: () => setTimeout(route) }, 'Weiter zu den Tischen')));
    } catch (x) { err.textContent = problemText(x); }
  } }, h('h1', {}, 'Club anlegen'),
  h('p', {}, 'Dieser Server hat noch keinen Club. Gib ihm einen Namen; du wirst sein Admin.'),
  field('Name des Clubs', input), err,
  h('p', {}, h('button', { class: 'primary', type: 'submit' }, 'Club anlegen')));
}

function login() {
  const input = h('input', { type: 'password', autocomplete: 'off', spellcheck: 'false' });
  const err = h('p', { class: 'problem', role: 'alert' });
  const box = h('form', { onsubmit: async (e) => {
    e.preventDefault();
    key.set(input.value.trim());
    try {
      await get('/v1/club');
      role = await get('/v1/keys').then(() => 'admin', () => 'scorer');
      localStorage.setItem('stichbuch.role', role);
      route();
    } catch (x) {
      key.clear();
      err.textContent = problemText(x);
    }
  } },
  h('h1', {}, 'Anmelden'),
  h('p', {}, 'Füge den Schlüssel des Clubs ein (stichbuch club create gibt ihn aus) oder öffne den Einladungslink eines anderen Handys.'),
  field('Schlüssel', input), err,
  h('p', {}, h('button', { class: 'primary', type: 'submit' }, 'Anmelden')));
  return box;
}

async function route() {
  if (stopLive) { stopLive(); stopLive = null; }
  if (!key.get()) { show(login()); return; }
  const parts = location.hash.replace(/^#\/?/, '').split('/').filter(Boolean);
  try {
    playersReady = loadPlayers();
    if (parts[0] !== 't' || parts[2]) await playersReady;
    if (parts[0] === 't' && parts[2] === 'neu') await recordScreen(Number(parts[1]), null);
    else if (parts[0] === 't' && parts[2] === 'k') await recordScreen(Number(parts[1]), Number(parts[3]));
    else if (parts[0] === 't') await tableScreen(Number(parts[1]));
    else if (parts[0] === 's') await settlementScreen(Number(parts[1]));
    else if (parts[0] === 'mitglieder' && parts[1]) await playerScreen(Number(parts[1]));
    else if (parts[0] === 'mitglieder') await membersScreen();
    else await tablesScreen();
  } catch (e) {
    if (e instanceof Problem && e.status === 401) { key.clear(); show(h('p', { class: 'problem' }, problemText(e)), login()); return; }
    show(h('p', { class: 'problem', role: 'alert' }, problemText(e)), h('p', {}, h('a', { href: '#/' }, 'Zu den Tischen')));
  }
  view.focus({ preventScroll: true });
}

// ---------- tables ----------

async function tablesScreen() {
  const { tables } = await cachedAll('/v1/tables', 'tables');
  const list = h('ul', { class: 'list' }, tables.map((t) => h('li', {}, h('a', { href: `#/t/${t.id}` },
    h('strong', {}, t.name), ' · ', gameNames[t.game] || t.game, t.open_session_id ? ' · Abend läuft' : ''))));
  show(h('h1', {}, 'Tische'), tables.length ? list : h('p', { class: 'muted' }, 'Noch kein Tisch.'),
    role === 'admin' ? newTable() : null,
    h('p', { class: 'row' }, h('a', { class: 'btn', href: '#/mitglieder' }, 'Mitglieder & Statistik'),
      h('button', { type: 'button', onclick: () => { key.clear(); localStorage.removeItem('stichbuch.role'); route(); } }, 'Abmelden')));
}

function newTable() {
  const nameIn = h('input', { required: true, maxlength: 100 });
  const s = { game: 'doppelkopf' };
  const stake = h('input', { inputmode: 'decimal', value: '1' });
  const err = h('p', { class: 'problem', role: 'alert' });
  return h('form', { onsubmit: async (e) => {
    e.preventDefault();
    try {
      const t = await post('/v1/tables', { name: nameIn.value.trim(), game: s.game, stake_cents_per_point: stake.value.trim() || '0' });
      location.hash = `#/t/${t.id}`;
    } catch (x) { err.textContent = problemText(x); }
  } }, h('h2', {}, 'Neuer Tisch'), field('Name', nameIn),
  field('Spiel', select(Object.entries(gameNames), s.game, (v) => { s.game = v; })),
  field('Cent je Punkt', stake), err, h('button', { class: 'primary', type: 'submit' }, 'Tisch anlegen'));
}

// ---------- the table ----------

// sessionHands are the hands of the table's open session: the list is
// read from its end backwards, 200 at a time, until a page starts before
// the session, so a table with years of history costs what its evening does.
async function sessionHands(table, sessionID) {
  let out = [], end = table.hands;
  while (end > 0) {
    const after = Math.max(0, end - 200);
    const page = await cached(`/v1/tables/${table.id}/hands?after=${after}&limit=${end - after}`);
    out = page.hands.concat(out);
    if (!page.hands.length || page.hands[0].session_id !== sessionID) break;
    end = after;
  }
  return out.filter((x) => x.session_id === sessionID);
}

async function loadTable(tableID) {
  const [table, pending] = await Promise.all([cached(`/v1/tables/${tableID}`), outbox.list(tableID)]);
  let session = null, hands = [];
  if (table.open_session_id) {
    [session, hands] = await Promise.all([cached(`/v1/sessions/${table.open_session_id}`), sessionHands(table, table.open_session_id)]);
  }
  return { table, session, hands, pending };
}

// nextLine says who deals and sits out, and the Bock games left.
function nextLine(table) {
  const n = table.next_hand || table.state || {};
  if (table.game !== 'doppelkopf' || !n.next_dealer) return n.summary || '';
  const parts = [`${name(n.next_dealer)} gibt`];
  const out = (n.next_sitting_out || []).filter((p) => p !== n.next_dealer);
  if ((n.next_sitting_out || []).includes(n.next_dealer)) parts[0] += ' und setzt aus';
  if (out.length) parts.push(`${out.map(name).join(' und ')} ${out.length > 1 ? 'setzen' : 'setzt'} aus`);
  if (n.bock_games_left) parts.push(`noch ${n.bock_games_left} ${n.bock_games_left === 1 ? 'Bockspiel' : 'Bockspiele'}`);
  if (n.bock_rounds_queued) parts.push(`${n.bock_rounds_queued} ${n.bock_rounds_queued === 1 ? 'Bockrunde wartet' : 'Bockrunden warten'}`);
  return parts.join(', ');
}

async function tableScreen(tableID) {
  const [data] = await Promise.all([loadTable(tableID), playersReady]);
  current = data;
  const { table, session } = data;
  const head = h('h1', {}, table.name, h('span', { class: 'muted' }, ' · ' + (gameNames[table.game] || table.game)));
  if (!session) {
    show(head, await openEvening(table), role === 'admin' ? invite(table) : null, await pastEvenings(table));
    return;
  }
  const root = h('div');
  const draw = (d) => {
    current = d;
    root.replaceChildren(
      h('p', { class: 'next', id: 'next', 'aria-live': 'polite' }, nextLine(d.table) || ' '),
      h('p', { class: 'row' },
        h('a', { class: 'btn primary', href: `#/t/${tableID}/neu`, id: 'new-hand' }, 'Neues Spiel'),
        h('button', { type: 'button', onclick: () => closeEvening(d) }, 'Abend beenden')),
      sheet(d),
      role === 'admin' ? invite(d.table) : null);
  };
  draw(data);
  show(head, root);
  // refresh reloads the table; a refresh asked for while one runs runs
  // once more after it (its answer may predate what was asked about).
  let busy = null, again = false;
  const refresh = () => {
    if (busy) { again = true; return busy; }
    busy = (async () => {
      try {
        do {
          again = false;
          const d = await loadTable(tableID);
          if (!d.session) { route(); return; }
          draw(d);
        } while (again);
      } catch { /* no connection: the list stays as it is */ } finally { busy = null; }
    })();
    return busy;
  };
  const stop = follow(tableID, () => refresh(), (up) => { root.dataset.live = up ? 'on' : 'off'; });
  window.addEventListener('outbox', refresh);
  stopLive = () => { stop(); window.removeEventListener('outbox', refresh); };
}

async function pastEvenings(table) {
  const { sessions } = await cached(`/v1/tables/${table.id}/sessions?limit=10`);
  if (!sessions?.length) return null;
  return h('section', {}, h('h2', {}, 'Frühere Abende'), h('ul', { class: 'list' },
    sessions.map((s) => h('li', {}, h('a', { href: `#/s/${s.id}` }, date(s.date), ' · ', s.player_ids.map(name).join(', '))))));
}

async function openEvening(table) {
  const seating = [];
  const all = [...players.entries()];
  const err = h('p', { class: 'problem', role: 'alert' });
  const order = h('ol', { class: 'seat-order', id: 'seating', 'aria-live': 'polite' });
  const box = h('section', {}, h('h2', {}, 'Abend eröffnen'),
    h('p', {}, 'Namen in Sitzreihenfolge antippen, beim Geber des ersten Spiels beginnen.'));
  const buttons = h('div', { class: 'row', role: 'group', 'aria-label': 'Spieler' });
  const drawSeats = () => {
    order.replaceChildren(...seating.map((id) => h('li', {}, name(id))));
    for (const b of buttons.children) b.setAttribute('aria-pressed', String(seating.includes(Number(b.dataset.player))));
  };
  const addButton = (id) => buttons.append(h('button', { type: 'button', 'data-player': id, 'aria-pressed': 'false', onclick: () => {
    const i = seating.indexOf(id);
    if (i >= 0) seating.splice(i, 1); else seating.push(id);
    drawSeats();
  } }, name(id)));
  all.forEach(([id]) => addButton(id));
  const guest = h('input', { maxlength: 100, autocomplete: 'off' });
  const date = h('input', { type: 'date', value: today() });
  box.append(buttons, order,
    h('form', { class: 'row', onsubmit: async (e) => {
      e.preventDefault();
      if (!guest.value.trim()) return;
      try {
        const p = await post('/v1/players', { name: guest.value.trim() });
        players.set(p.id, p.name);
        addButton(p.id);
        seating.push(p.id);
        guest.value = '';
        drawSeats();
      } catch (x) { err.textContent = problemText(x); }
    } }, field('Neuer Spieler oder Gast', guest, { class: 'grow' }), h('button', { type: 'submit' }, 'Hinzufügen')),
    field('Datum', date), err,
    h('p', {}, h('button', { class: 'primary', type: 'button', id: 'open-evening', onclick: async () => {
      try {
        await post(`/v1/tables/${table.id}/sessions`, { player_ids: seating, date: date.value || undefined });
        route();
      } catch (x) { err.textContent = problemText(x); }
    } }, 'Abend eröffnen')));
  return box;
}

function invite(table) {
  const out = h('div', { class: 'qr', 'aria-live': 'polite' });
  return h('section', {}, h('h2', {}, 'Handy einladen'),
    h('p', { class: 'row' },
      h('button', { type: 'button', id: 'invite', onclick: async () => {
        try {
          const j = await post(`/v1/tables/${table.id}/joins`, { role: 'scorer' });
          const link = new URL(j.link, location.origin).href;
          out.replaceChildren(h('div', { html: j.qr_svg, role: 'img', 'aria-label': 'QR-Code der Einladung' }),
            h('p', {}, h('a', { href: link, id: 'join-link' }, link)), h('p', { class: 'muted' }, 'Gilt einmal, bis ' + new Date(j.expires_at).toLocaleString('de-DE')));
        } catch (x) {
          out.replaceChildren(h('p', { class: 'problem' }, x instanceof Problem && x.status === 404 && !x.problem.type ? 'Dieser Server kann noch nicht einladen.' : problemText(x)));
        }
      } }, 'Handy einladen')), out);
}

// sheet is the list like the paper one: hand, dealer, game, each player's
// points of the hand and running total; Bock hands marked, pending hands
// of the outbox after them.
function sheet(d) {
  const seat = d.session.player_ids;
  const totals = new Map(seat.map((p) => [p, '0']));
  const rows = [];
  const last = [...d.hands].reverse().find((x) => !x.void);
  for (const hand of d.hands) {
    const pts = new Map((hand.result.points || []).map((p) => [p.player, p.points]));
    for (const [p, v] of pts) totals.set(p, add(totals.get(p) || '0', v));
    // Who sat the hand out shows "–", as on paper, even with an entry of 0.
    for (const p of pts.keys()) if (hand.player_ids && !hand.player_ids.includes(p)) pts.delete(p);
    const bock = (hand.result.lines || []).some((l) => l.label === 'Bock');
    const cls = [bock && 'bock', hand.void && 'void'].filter(Boolean).join(' ');
    rows.push(h('tr', { class: cls, 'data-hand': hand.number },
      h('td', {}, hand.number, h('small', {}, hand.dealer_id ? name(hand.dealer_id) : '')),
      h('td', {}, hand.void ? 'zurückgenommen' : hand.result.title || '',
        h('small', {}, h('a', { href: `#/t/${d.table.id}/k/${hand.number}`, 'aria-label': `Spiel ${hand.number} korrigieren` }, 'korrigieren'),
          last && hand.number === last.number ? [' · ', h('button', { type: 'button', class: 'undo', 'aria-label': `Spiel ${hand.number} zurücknehmen`, onclick: () => undo(d, hand) }, 'zurücknehmen')] : null)),
      seat.map((p) => pts.has(p)
        ? h('td', { 'data-player': p }, minus(totals.get(p)), h('small', {}, signed(pts.get(p))))
        : h('td', { 'data-player': p }, minus(totals.get(p)), h('small', {}, '–')))));
  }
  for (const e of d.pending) {
    rows.push(h('tr', { class: e.problem ? 'refused' : 'pending', 'data-pending': e.id },
      h('td', {}, e.number),
      h('td', { colspan: seat.length + 1 }, e.problem
        ? [h('span', { class: 'tag' }, 'abgelehnt'), ' ', e.problem.detail || e.problem.title, ' ', h('button', { type: 'button', onclick: async () => { await outbox.remove(e.id); view.firstElementChild && route(); } }, 'verwerfen')]
        : [h('span', { class: 'tag' }, 'wartet'), ' wird gesendet, sobald das Handy wieder online ist'])));
  }
  return h('div', { class: 'sheet-wrap' }, h('table', { class: 'sheet', id: 'sheet', style: `width:${8 + 2.9 * seat.length}rem` },
    h('caption', { class: 'sr' }, 'Spielliste des Abends'),
    h('colgroup', {}, h('col', { style: 'width:2.5rem' }), h('col', { style: 'width:5.5rem' }), seat.map(() => h('col', { style: 'width:2.9rem' }))),
    h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, 'Nr.', h('small', {}, 'Geber')), h('th', { scope: 'col' }, 'Spiel'),
      seat.map((p) => h('th', { scope: 'col' }, name(p))))),
    h('tbody', {}, rows),
    h('tfoot', {}, h('tr', {}, h('td', { colspan: 2 }, 'Stand'), seat.map((p) => h('td', { 'data-total': p, 'data-points': totals.get(p) }, minus(totals.get(p))))))));
}

async function undo(d, hand) {
  try {
    await post(`/v1/tables/${d.table.id}/hands/${hand.number}/undo`);
  } catch (x) { alert(problemText(x)); }
  route();
}

async function closeEvening(d) {
  if (!confirm('Den Abend beenden und abrechnen?')) return;
  try {
    await post(`/v1/sessions/${d.session.id}/close`);
    location.hash = `#/s/${d.session.id}`;
  } catch (x) { alert(problemText(x)); }
}

// ---------- recording and correcting a hand ----------

async function recordScreen(tableID, correcting) {
  const d = current?.table?.id === tableID && current.session ? current : await loadTable(tableID);
  if (!d.session) { location.hash = `#/t/${tableID}`; return; }
  let hand = null, etag = null;
  if (correcting) {
    const { data, res } = await api('GET', `/v1/tables/${tableID}/hands/${correcting}`);
    hand = data;
    etag = res.headers.get('ETag') || String(hand.revision);
  }
  const preview = h('div', { class: 'preview', id: 'preview', 'aria-live': 'polite' }, 'Vorschau erscheint beim Eintippen.');
  const general = h('p', { class: 'problem', role: 'alert', id: 'problem' });
  const reason = h('input', { maxlength: 500, value: '' });
  let timer = null, seq = 0;
  const ctx = { seating: d.session.player_ids, names: name, preset: d.table.preset, options: d.table.options || {}, next: hand ? {} : (d.table.next_hand || {}), initial: hand?.facts, hand,
    onChange: () => { clearTimeout(timer); timer = setTimeout(runPreview, 120); } };
  const f = form(d.table.game, ctx);
  const root = h('form', { onsubmit: (e) => { e.preventDefault(); save(); } },
    h('h1', {}, correcting ? `Spiel ${correcting} korrigieren` : `Spiel ${d.table.hands + 1 + d.pending.length}`, h('span', { class: 'muted' }, ' · ' + (gameNames[d.table.game] || d.table.game))),
    correcting ? null : h('p', { class: 'next' }, nextLine(d.table)),
    f.el,
    correcting ? field('Grund der Korrektur', reason, { 'data-field': 'reason' }) : null,
    h('div', { class: 'dock' }, preview, general,
      h('p', { class: 'row' }, h('button', { class: 'primary', type: 'submit', id: 'save' }, 'Speichern'), h('a', { class: 'btn', href: `#/t/${tableID}` }, 'Abbrechen'))));
  show(root);

  async function runPreview() {
    const mine = ++seq;
    try {
      const res = await post(`/v1/games/${d.table.game}/score`, { player_ids: d.session.player_ids, preset: d.table.preset, options: d.table.options,
        date: d.session.date, state: hand ? undefined : d.table.state, facts: f.facts() });
      if (mine !== seq) return;
      showProblem(root, null, general);
      preview.replaceChildren(describe(res));
    } catch (x) {
      if (mine !== seq) return;
      if (x instanceof Problem) { preview.textContent = 'So geht das Spiel nicht:'; showProblem(root, x.problem, general); }
      else preview.textContent = 'Vorschau braucht eine Verbindung.';
    }
  }

  async function save() {
    const btn = root.querySelector('#save');
    btn.disabled = true;
    try {
      if (correcting) {
        await post(`/v1/tables/${tableID}/hands/${correcting}/corrections`, { facts: f.facts(), reason: reason.value.trim() || 'korrigiert' }, { 'If-Match': etag });
      } else {
        const entry = { id: uuid(), table_id: tableID, session_id: d.session.id, number: d.table.hands + 1 + d.pending.length, facts: f.facts(), at: Date.now() };
        if (!navigator.onLine || d.pending.length) {
          await outbox.put(entry);
          flush(tableID);
        } else {
          try {
            await post(`/v1/tables/${tableID}/hands`, { id: entry.id, session_id: entry.session_id, number: entry.number, facts: entry.facts });
          } catch (x) {
            if (!(x instanceof Offline)) throw x;
            await outbox.put(entry);
          }
        }
      }
      location.hash = `#/t/${tableID}`;
    } catch (x) {
      btn.disabled = false;
      if (x instanceof Problem && x.status === 409 && x.problem.next_number) {
        general.textContent = `Ein anderes Handy hat Spiel ${x.problem.next_number - 1} schon eingetragen. Bitte abbrechen und in der Liste nachsehen.`;
      } else if (x instanceof Problem) showProblem(root, x.problem, general);
      else general.textContent = problemText(x);
    }
  }
}

// describe turns a score result into "Re gewinnt: je +3" and the points.
function describe(res) {
  const pts = res.points || [];
  const won = pts.filter((p) => !String(p.points).startsWith('-') && p.points !== '0');
  const same = won.length && won.every((p) => p.points === won[0].points);
  const each = won.length > 1 ? `: je ${signed(won[0].points)}` : won.length ? `: ${signed(won[0].points)}` : '';
  const head = res.title ? res.title + (same ? each : '') : '';
  return h('div', {}, h('strong', {}, head), h('div', {}, pts.map((p) => `${name(p.player)} ${signed(p.points)}`).join(' · ')),
    res.events?.length ? h('div', { class: 'muted' }, res.events.map((e) => e.text).join(' · ')) : null);
}

// ---------- the outbox ----------

const flushing = new Map();
// flush sends a table's waiting hands through the batch endpoint, in
// order; applied ones leave the outbox, a refused one stays with its
// problem (and the ones after it wait).
function flush(tableID) {
  if (flushing.has(tableID)) return flushing.get(tableID);
  const p = (async () => {
    const entries = (await outbox.list(tableID)).filter((e) => !e.problem);
    if (!entries.length || !navigator.onLine) return;
    try {
      const { results } = await post(`/v1/tables/${tableID}/hands/batch`, { hands: entries.map((e) => ({ id: e.id, session_id: e.session_id, number: e.number, facts: e.facts })) });
      for (const r of results) {
        const e = entries.find((x) => x.id === r.id);
        if (r.status === 'applied' || r.status === 'already_applied') await outbox.remove(r.id);
        else if (r.status === 'refused') await outbox.put({ ...e, problem: r.problem });
      }
    } catch (x) {
      if (x instanceof Problem) {
        for (const e of entries) await outbox.put({ ...e, problem: x.problem });
      }
    }
    window.dispatchEvent(new Event('outbox'));
  })().finally(() => flushing.delete(tableID));
  flushing.set(tableID, p);
  return p;
}

async function flushAll() {
  for (const t of await outbox.tables()) flush(t);
}
setInterval(() => { if (navigator.onLine) flushAll(); }, 30000);

// ---------- settlement ----------

async function settlementScreen(sessionID) {
  const s = await get(`/v1/sessions/${sessionID}/settlement`);
  const nameOf = (id) => (id == null ? 'Kasse' : name(id));
  const transfers = s.transfers.map((t) => h('li', { 'data-transfer': t.id },
    `${nameOf(t.from_player_id)} zahlt ${nameOf(t.to_player_id)} ${euro(t.cents)} `,
    t.paid ? h('span', { class: 'tag' }, 'bezahlt') : t.id && t.current !== false ? h('button', { type: 'button', 'aria-label': `${nameOf(t.from_player_id)} an ${nameOf(t.to_player_id)}: bezahlt`, onclick: async () => {
      try { await post(`/v1/transfers/${t.id}/paid`); } catch (x) { alert(problemText(x)); }
      route();
    } }, 'bezahlt') : null));
  show(h('h1', {}, `Abrechnung ${date(s.date)}`, s.final ? '' : h('span', { class: 'muted' }, ' (vorläufig)')),
    h('table', { class: 'plain', id: 'settlement' }, h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, 'Spieler'), h('th', { scope: 'col' }, 'Punkte'), h('th', { scope: 'col' }, 'Betrag'))),
      h('tbody', {}, s.players.map((p) => h('tr', { 'data-player': p.player_id }, h('td', {}, p.name), h('td', { class: 'num' }, minus(p.points)), h('td', { class: 'num', 'data-cents': p.net_cents }, euro(p.net_cents)))))),
    h('h2', {}, 'Wer zahlt wem'), transfers.length ? h('ul', { class: 'list', id: 'transfers' }, transfers) : h('p', {}, 'Niemand muss zahlen.'),
    h('p', {}, s.kitty_cents ? `In die Kasse: ${euro(s.kitty_cents)}` : 'Die Kasse bleibt, wie sie ist.'),
    h('p', { class: 'row' }, h('button', { type: 'button', id: 'report', onclick: () => openReport(sessionID) }, 'Bericht zum Drucken'),
      h('a', { class: 'btn', href: `#/t/${s.table_id}` }, 'Zum Tisch')));
}

async function openReport(sessionID) {
  const w = window.open('', '_blank');
  const res = await fetch(`/v1/sessions/${sessionID}/report?format=html`, { headers: { Authorization: 'Bearer ' + key.get() } });
  const blob = new Blob([await res.text()], { type: 'text/html' });
  const url = URL.createObjectURL(blob);
  if (w) w.location = url; else location.href = url;
}

// ---------- members ----------

async function membersScreen() {
  const s = { game: 'doppelkopf' };
  const out = h('div', { 'aria-live': 'polite' });
  const load = async () => {
    const lb = await get(`/v1/stats/leaderboard?game=${s.game}&limit=50`);
    out.replaceChildren(lb.entries.length ? h('table', { class: 'plain', id: 'leaderboard' },
      h('thead', {}, h('tr', {}, ['Platz', 'Spieler', 'Spiele', 'Punkte', 'Geld'].map((t) => h('th', { scope: 'col' }, t)))),
      h('tbody', {}, lb.entries.map((e) => h('tr', {}, h('td', {}, e.rank), h('td', {}, h('a', { href: `#/mitglieder/${e.player_id}` }, e.name)),
        h('td', { class: 'num' }, e.hands), h('td', { class: 'num' }, minus(e.points)), h('td', { class: 'num' }, euro(e.net_cents)))))) : h('p', {}, 'Noch keine Spiele.'));
  };
  show(h('h1', {}, 'Mitglieder'), field('Spiel', select(Object.entries(gameNames), s.game, (v) => { s.game = v; load(); })), out);
  await load();
}

async function playerScreen(id) {
  const st = await get(`/v1/stats/players/${id}`);
  const pct = (permille) => `${(permille / 10).toLocaleString('de-DE')} %`;
  const evening = (e) => e ? `${date(e.date)}, ${gameNames[e.game] || e.game}: ${minus(e.points)} Punkte${e.net_cents == null ? '' : ', ' + euro(e.net_cents)}` : '–';
  const rows = [
    ['Abende', st.sessions], ['Spiele', st.hands], ['gewonnen', st.hands_won], ['verloren', st.hands_lost],
    ['ausgesetzt', st.hands_sat_out], ['Gewinnquote', pct(st.win_rate_permille)], ['Punkte', minus(st.points)],
    ['Punkte je Spiel', minus(st.points_per_hand)], ['Geld', euro(st.money.net_cents)],
    ['bester Abend', evening(st.best_evening)], ['schlechtester Abend', evening(st.worst_evening)],
    ['längste Siegesserie', st.longest_winning_streak], ['längste Pechsträhne', st.longest_losing_streak],
  ];
  const games = (st.games || []).map((g) => h('tr', {}, h('td', {}, gameNames[g.game] || g.game), h('td', { class: 'num' }, g.hands),
    h('td', { class: 'num' }, pct(g.win_rate_permille)), h('td', { class: 'num' }, minus(g.points))));
  show(h('h1', {}, name(id)),
    h('table', { class: 'plain', id: 'player-stats' }, h('tbody', {}, rows.map(([k, v]) => h('tr', {}, h('th', { scope: 'row' }, k), h('td', { class: 'num' }, String(v)))))),
    games.length ? [h('h2', {}, 'Nach Spiel'), h('table', { class: 'plain' },
      h('thead', {}, h('tr', {}, ['Spiel', 'Spiele', 'Quote', 'Punkte'].map((t) => h('th', { scope: 'col' }, t)))), h('tbody', {}, games))] : null,
    h('p', {}, h('a', { href: '#/mitglieder' }, 'Zur Rangliste')));
}

start();
