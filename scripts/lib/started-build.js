// Whether this load starts from compiled code, decided once for the page's other scripts.
// scripts/build-split.mjs inlines this in the page's head, after the build's name (the
// `wave-build` meta element) and before the warm-up worker's script; lines that begin with `//`
// are dropped as it does.
//
// Chromium keeps a wasm module's compiled code by the module's address. A load that the service
// worker serves, of a build that has started in this browser from the same address before, has
// its wasm at once with its code compiled: it marks the page `data-compiled-start`, and then
// neither the preview (src/preview/preview.js) nor the warm-up worker (warm-up-worker.js) is
// made, as each would only hold the start back (on a repeat visit on slow 4G with the CPU 4x
// slower, about 0.1 s and 70 ms). The build is recorded when the app has started; a reload within
// moments of that may come before the cache has the code, and then compiles without the worker:
// slower once, never wrong. Anything missing or refused (no meta, no service worker, storage
// blocked) leaves the page as a first visit.
(function () {
  try {
    var name = document.querySelector('meta[name="wave-build"]');
    if (!name) return;
    var build = name.content + ' ' + new URL('.', location.href).pathname;
    var key = 'wave-playground.started-build';
    var serviceWorker = navigator.serviceWorker;
    if (serviceWorker && serviceWorker.controller && localStorage.getItem(key) === build) {
      document.documentElement.setAttribute('data-compiled-start', '');
    }
    addEventListener('TrunkApplicationStarted', function () {
      try {
        localStorage.setItem(key, build);
      } catch (error) {}
    });
  } catch (error) {}
})();
