// sw.js: keeps the app's shell for offline use. The API (/v1) is never
// cached here: the app keeps its last answers itself and queues hands in
// IndexedDB, so a phone without a connection still opens and records.
const CACHE = 'der-tisch-v1';
// SHELL is every file of the app (TestWebShellListsEveryFile holds it to
// the embedded files): each screen's and game's module is loaded lazily,
// and offline it must be here already.
const SHELL = [
  '/', '/manifest.webmanifest', '/app/api.js', '/app/app.css', '/app/app.js', '/app/game-doppelkopf.js',
  '/app/game-klaberjass.js', '/app/game-saukopf.js', '/app/game-schwarzedame.js', '/app/game-schwarzesau.js',
  '/app/games.js', '/app/icon.svg', '/app/live.js', '/app/outbox.js', '/app/screen-members.js',
  '/app/screen-record.js', '/app/screen-settlement.js', '/app/screen-start.js', '/app/screen-table.js',
  '/app/screen-tables.js', '/app/screen.js', '/app/sheet.js', '/app/sync.js', '/app/tabledata.js', '/app/ui.js',
];

self.addEventListener('install', (e) => {
  e.waitUntil(caches.open(CACHE).then((c) => c.addAll(SHELL)).then(() => self.skipWaiting()));
});

self.addEventListener('activate', (e) => {
  e.waitUntil(caches.keys().then((keys) => Promise.all(keys.filter((k) => k !== CACHE).map((k) => caches.delete(k))))
    .then(() => self.clients.claim()));
});

// Network first for the shell (a new build shows at once), the cache when
// offline; everything else goes to the network untouched.
self.addEventListener('fetch', (e) => {
  const url = new URL(e.request.url);
  if (e.request.method !== 'GET' || url.origin !== location.origin) return;
  const path = url.pathname === '/' || url.pathname === '/index.html' ? '/' : url.pathname;
  if (!SHELL.includes(path)) return;
  e.respondWith(fetch(e.request).then((res) => {
    if (res.ok) { const copy = res.clone(); caches.open(CACHE).then((c) => c.put(path, copy)); }
    return res;
  }).catch(() => caches.match(path)));
});
