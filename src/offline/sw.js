// WAVE Playground's service worker: after the first visit the playground loads and works with
// no network. scripts/build-offline.mjs writes this file into dist/ with VERSION set to a hash
// of the build's files, so each build is a new worker, and writes precache.json beside it.
//
// Installing caches every file of the build (what precache.json lists) under this version's
// name; activating removes other versions' caches and takes over open pages, which then say
// that the new version runs from the next load. Pages are fetched from the network first (a new
// build shows as soon as it is there) and from the cache when offline; everything else (hashed
// files that never change) from the cache first.
const VERSION = "__WAVE_PLAYGROUND_VERSION__";
const CACHE = `wave-playground-${VERSION}`;

self.addEventListener("install", (event) => {
  event.waitUntil((async () => {
    const listed = await fetch("precache.json", { cache: "no-store" }).then((r) => r.json());
    const cache = await caches.open(CACHE);
    await cache.addAll(["./", ...listed.files]);
    await self.skipWaiting();
  })());
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) {
      if (name.startsWith("wave-playground-") && name !== CACHE) await caches.delete(name);
    }
    await self.clients.claim();
  })());
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET" || new URL(request.url).origin !== self.location.origin) return;
  if (request.mode === "navigate") {
    event.respondWith((async () => {
      try {
        return await fetch(request);
      } catch {
        const cache = await caches.open(CACHE);
        return (await cache.match("./")) ?? Response.error();
      }
    })());
    return;
  }
  event.respondWith((async () => {
    const cache = await caches.open(CACHE);
    const cached = await cache.match(request, { ignoreSearch: true });
    if (cached) return cached;
    const response = await fetch(request);
    if (response.ok) cache.put(request, response.clone());
    return response;
  })());
});
