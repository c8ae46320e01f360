// sw.js: keeps the app's shell for offline use. The API (/v1) is never
// cached here: the app keeps its last answers itself and queues hands in
// IndexedDB, so a phone without a connection still opens and records.
const CACHE = 'der-tisch-v1';
const SHELL = ['/', '/app/app.js', '/app/api.js', '/app/ui.js', '/app/games.js', '/app/outbox.js', '/app/live.js', '/app/app.css', '/app/icon.svg', '/manifest.webmanifest'];

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
