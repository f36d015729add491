// The service worker. It keeps the pages' shell (every page, style, script, icon and game
// renderer: web/shell.py) under one version, so that a second visit opens from this copy,
// and a new version replaces the whole copy at once. A page itself comes from the network
// (its answer says the shell's version); with no network, the offline page says so and
// lists the unfinished games. The API is never kept: every move is the server's.
const VERSION = "dev";
const SHELL = [];  // the server fills in these two lines when it serves this file
const CACHE = `gridgames-shell-${VERSION}`;
const OFFLINE = "/static/offline.html";
const KEPT = new Set(SHELL);
let behind = false;  // a page came from a newer server: its files from the network too

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(SHELL)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(caches.keys()
    .then((names) => Promise.all(names.filter((name) => name !== CACHE).map((name) => caches.delete(name))))
    .then(() => self.clients.claim()));
});

async function page(request) {
  try {
    const answer = await fetch(request);
    const version = answer.headers.get("X-Gridgames-Shell");
    behind = Boolean(version) && version !== VERSION;
    if (behind) self.registration.update();
    return answer;
  } catch {
    return (await caches.match(OFFLINE, { cacheName: CACHE })) || Response.error();
  }
}

async function shellFile(request) {
  if (!behind) {
    const kept = await caches.match(request, { cacheName: CACHE, ignoreSearch: true });
    if (kept) return kept;
  }
  return fetch(request);
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== self.location.origin) return;
  if (request.mode === "navigate") event.respondWith(page(request));
  else if (KEPT.has(url.pathname)) event.respondWith(shellFile(request));
});
