// The worker that compiles the first module's start functions while the main thread runs the start
// (scripts/lib/warm-up.mjs). scripts/build-split.mjs inlines this script at the top of the page's
// head, so that the worker is made as the page begins to load: Chromium hands a message to a new
// worker only once the page's main thread has been idle for a moment after the worker started, and
// the main thread is busy from the moment the wasm arrives. The app's JavaScript posts it the
// first module (cold-loader.js, `warmUp`). Should it call every function before it is stopped, or
// fail, it says so (the user-timing mark `wave:warmed-up`, for the tests). Where no worker can be
// made (a host's policy), the start compiles its functions itself, as it would anyway. A page the
// service worker serves, of a build that has started in this browser from the same address
// before (index.html records it, under the name build-split puts in the page), makes none: its wasm comes with its code from
// Chromium's code cache (a traced repeat visit compiled 22 functions), so a worker would only take
// CPU from the start (a repeat visit on slow 4G with the CPU 4x slower was interactive about
// 70 ms sooner without it). The first load of a new build still compiles, with the worker.
// build-split drops the lines that begin with `//` as it inlines this: none of the code may.
(function () {
  try {
    var build = document.querySelector('meta[name="wave-build"]');
    if (build && navigator.serviceWorker && navigator.serviceWorker.controller &&
      localStorage.getItem('wave-playground.started-build') ===
        build.content + ' ' + new URL('.', location.href).pathname) return;
  } catch (error) {}
  var source = 'onmessage = async ({ data: module }) => {\n' +
    '  try {\n' +
    '    const imports = {};\n' +
    '    for (const { module: from, name, kind } of WebAssembly.Module.imports(module)) {\n' +
    '      if (kind !== "function") throw new Error("the module imports a " + kind);\n' +
    '      (imports[from] ??= {})[name] = () => { throw new Error("not called while warming up"); };\n' +
    '    }\n' +
    '    const { exports } = await WebAssembly.instantiate(module, imports);\n' +
    '    postMessage({ warmed: exports.wave_warm_up() });\n' +
    '  } catch (error) {\n' +
    '    postMessage({ failed: String(error) });\n' +
    '  } finally {\n' +
    '    close();\n' +
    '  }\n' +
    '};\n';
  try {
    var worker = new Worker(URL.createObjectURL(new Blob([source], { type: 'text/javascript' })));
    worker.onmessage = function (event) {
      performance.mark('wave:warmed-up', { detail: event.data });
    };
    self.waveWarmUpWorker = worker;
  } catch (error) {
    console.warn('no worker to warm up the start functions:', error);
  }
})();
