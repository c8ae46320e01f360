// app.js: "Der Tisch", the club's score sheet on a phone. It starts the
// app and routes; each screen is a module loaded when first shown.
// Hash routes:
//   #/              tables (and the admin's new table)
//   #/t/ID          the table: open the evening, next hand, the list, live
//   #/t/ID/neu      record a hand      #/t/ID/k/N  correct hand N
//   #/s/SID         the evening's settlement, payments, report
//   #/mitglieder    leaderboard        #/mitglieder/PID  a player's statistics
// The app formats and lays out what the server says; it computes no game
// rule of its own (README, "Der Tisch").
import { key, Problem } from './api.js';
import { h } from './ui.js';
import { begin, show, loadPlayers, problemText, mayLeave, role } from './screen.js';

const net = /** @type {HTMLElement} */ (document.getElementById('net'));
const view = /** @type {HTMLElement} */ (document.getElementById('view'));

function setNet() {
  net.textContent = navigator.onLine ? '' : 'offline';
}

const flushAll = () => import('./sync.js').then((m) => m.flushAll());

async function start() {
  setNet();
  window.addEventListener('online', () => { setNet(); flushAll(); });
  window.addEventListener('offline', setNet);
  window.addEventListener('hashchange', onHash);
  window.addEventListener('route', () => route());
  if ('serviceWorker' in navigator) navigator.serviceWorker.register('/sw.js').catch(() => {});
  const params = new URLSearchParams(location.search);
  if (params.get('setup') || params.get('join')) {
    history.replaceState(null, '', '/' + location.hash);
    const m = await import('./screen-start.js');
    if (params.get('setup')) { m.setupScreen(begin(), String(params.get('setup'))); return; }
    if (!(await m.join(begin(), String(params.get('join'))))) return;
  }
  lastHash = location.hash;
  route();
  setInterval(() => { if (navigator.onLine) flushAll(); }, 30000);
  flushAll();
}

// lastHash is the route on show: Back from a half-filled form that the
// user chooses to stay on puts it back without repainting.
let lastHash = '';
function onHash() {
  if (location.hash === lastHash) return;
  if (!mayLeave()) { history.pushState(null, '', lastHash || '#/'); return; }
  lastHash = location.hash;
  route();
}

async function route() {
  const scr = begin();
  lastHash = location.hash;
  if (!key.get()) {
    const m = await import('./screen-start.js');
    show(scr, m.login(scr));
    return;
  }
  const parts = location.hash.replace(/^#\/?/, '').split('/').filter(Boolean);
  try {
    const playersReady = loadPlayers();
    if (parts[0] !== 't' || parts[2]) await playersReady;
    if (parts[0] === 't' && ['neu', 'k', 'o'].includes(parts[2])) {
      await (await import('./screen-record.js')).recordScreen(scr, Number(parts[1]), parts[2] === 'k' ? Number(parts[3]) : null, parts[2] === 'o' ? parts[3] : undefined);
    } else if (parts[0] === 't') await (await import('./screen-table.js')).tableScreen(scr, Number(parts[1]), playersReady);
    else if (parts[0] === 's') await (await import('./screen-settlement.js')).settlementScreen(scr, Number(parts[1]));
    else if (parts[0] === 'mitglieder' && parts[1]) await (await import('./screen-members.js')).playerScreen(scr, Number(parts[1]));
    else if (parts[0] === 'mitglieder') await (await import('./screen-members.js')).membersScreen(scr);
    else await (await import('./screen-tables.js')).tablesScreen(scr);
  } catch (e) {
    if (e instanceof Problem && e.status === 401) {
      key.clear();
      role.clear();
      const m = await import('./screen-start.js');
      show(scr, h('p', { class: 'problem' }, problemText(e)), m.login(scr));
      return;
    }
    show(scr, h('p', { class: 'problem', role: 'alert' }, problemText(e)), h('p', {}, h('a', { href: '#/' }, 'Zu den Tischen')));
  }
  if (scr.alive()) view.focus({ preventScroll: true });
}

start();
