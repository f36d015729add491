// The service worker: with the network gone, a page opens on a page that says so (not the
// browser's error page). Every move is the server's, so nothing else is kept: pages and
// their files always come from the network (the server's ETags keep that cheap).
const CACHE = "gridgames-offline-2";
const OFFLINE = "/static/offline.html";
const KEPT = [OFFLINE, "/static/css/offline.css", "/static/js/offline.js", "/static/icons/icon-192.png",
  "/static/icons/icon.svg"];

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(KEPT)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(caches.keys()
    .then((names) => Promise.all(names.filter((name) => name !== CACHE).map((name) => caches.delete(name))))
    .then(() => self.clients.claim()));
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  if (request.mode === "navigate") {
    event.respondWith(fetch(request).catch(() => caches.match(OFFLINE)));
  } else if (KEPT.includes(new URL(request.url).pathname)) {
    event.respondWith(fetch(request).catch(() => caches.match(request)));
  }
});
