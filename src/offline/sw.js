// WAVE Playground's service worker: after the first visit the playground loads and works with
// no network. scripts/build-offline.mjs writes this file into dist/ with VERSION set to a hash
// of the build's files, so each build is a new worker, and writes precache.json beside it.
//
// Installing caches every file of the build (what precache.json lists) under this version's
// name; activating removes other versions' caches and takes over open pages, which then say
// that the new version runs from the next load. Everything is answered from this version's cache
// first, the page too: the page and the hashed files it names are one build, and a newer build
// comes with a newer worker (VERSION hashes every file, index.html included, and the browser
// checks this script at each visit), which installs beside the page and serves from the next
// load. So a repeat visit waits for no round trip, and a network that neither answers nor fails
// cannot hold the page back.
const VERSION = "__WAVE_PLAYGROUND_VERSION__";
const CACHE = `wave-playground-${VERSION}`;

self.addEventListener("install", (event) => {
  event.waitUntil((async () => {
    const listed = await fetch("precache.json", { cache: "no-store" }).then((r) => r.json());
    // From the network, past the HTTP cache: a host may let browsers keep the page a while.
    const requests = ["./", ...listed.files].map((path) => new Request(path, { cache: "reload" }));
    const responses = await Promise.all(requests.map(async (request) => {
      const response = await fetch(request);
      if (!response.ok) throw new Error(`${request.url}: HTTP ${response.status}`);
      return response;
    }));
    // The page must be this build's: an older one still served (an upload half done) names
    // files this cache will not hold, and would be served from it at every visit. Refused, the
    // installation is tried again at a later visit, and the current version stays.
    const script = listed.files.find((path) => /^wave-playground-[0-9a-f]{1,16}\.js$/.test(path));
    if (script && !(await responses[0].clone().text()).includes(script)) {
      throw new Error("the page is not this build's");
    }
    const cache = await caches.open(CACHE);
    // A page reached by a redirect cannot answer a navigation as it is.
    await Promise.all(requests.map((request, i) => cache.put(request,
      responses[i].redirected ? new Response(responses[i].body, responses[i]) : responses[i])));
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

// The playground's page, by either of its names; any other address is a file of its own.
const SCOPE = new URL(self.registration.scope).pathname;
const PAGE_PATHS = new Set([SCOPE, `${SCOPE}index.html`]);

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== self.location.origin) return;
  const isPage = PAGE_PATHS.has(url.pathname);
  event.respondWith((async () => {
    const cache = await caches.open(CACHE);
    const cached = isPage
      ? await cache.match("./")
      : await cache.match(request, { ignoreSearch: true });
    if (cached) return cached;
    try {
      const response = await fetch(request);
      if (response.ok && !isPage && request.mode !== "navigate") cache.put(request, response.clone());
      return response;
    } catch (error) {
      // Offline, at an address this version does not hold: its page if one was asked for.
      if (request.mode === "navigate") return (await cache.match("./")) ?? Response.error();
      throw error;
    }
  })());
});
