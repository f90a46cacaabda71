// mjscan's service worker: keeps the page and its pictures for use offline.
// The API calls go to the network; the rule list falls back to its last copy when offline.
"use strict";

const CACHE = "mjscan-__VERSION__";
const CODES = [
  ...["m", "p", "s"].flatMap((s) => [0, 1, 2, 3, 4, 5, 6, 7, 8, 9].map((n) => `${n}${s}`)),
  ...[1, 2, 3, 4, 5, 6, 7].map((n) => `${n}z`),
  ...[1, 2, 3, 4, 5, 6, 7, 8].map((n) => `${n}f`),
  "back",
  "front",
];
const SHELL = [
  "/",
  "/static/app.js",
  "/static/app.css",
  "/static/icon.svg",
  "/static/manifest.json",
  ...CODES.map((c) => `/static/tiles/${c}.svg`),
];

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(SHELL)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((keys) => Promise.all(keys.filter((k) => k.startsWith("mjscan-") && k !== CACHE).map((k) => caches.delete(k))))
      .then(() => self.clients.claim()),
  );
});

async function networkFirst(request) {
  const cache = await caches.open(CACHE);
  try {
    const response = await fetch(request);
    if (response.ok) cache.put(request, response.clone());
    return response;
  } catch (err) {
    const cached = await cache.match(request);
    if (cached) return cached;
    throw err;
  }
}

async function cacheFirst(request) {
  const cached = await caches.match(request);
  if (cached) return cached;
  const response = await fetch(request);
  if (response.ok) {
    const cache = await caches.open(CACHE);
    cache.put(request, response.clone());
  }
  return response;
}

self.addEventListener("fetch", (event) => {
  const url = new URL(event.request.url);
  if (event.request.method !== "GET" || url.origin !== self.location.origin) return;
  if (url.pathname === "/" || url.pathname === "/v1/rules") event.respondWith(networkFirst(event.request));
  else if (url.pathname.startsWith("/static/")) event.respondWith(cacheFirst(event.request));
});
