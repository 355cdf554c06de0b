// The worker that compiles the first module's start functions while the main thread runs the start
// (scripts/lib/warm-up.mjs). scripts/build-split.mjs inlines this script at the top of the page's
// head, so that the worker is made as the page begins to load: Chromium hands a message to a new
// worker only once the page's main thread has been idle for a moment after the worker started, and
// the main thread is busy from the moment the wasm arrives. The app's JavaScript posts it the
// first module (cold-loader.js, `warmUp`). Should it call every function before it is stopped, or
// fail, it says so (the user-timing mark `wave:warmed-up`, for the tests). Where no worker can be
// made (a host's policy), the start compiles its functions itself, as it would anyway. A load that
// starts from compiled code (started-build.js) makes none: a traced repeat visit compiled 22
// functions, so a worker would only take CPU from the start.
// build-split drops the lines that begin with `//` as it inlines this: none of the code may.
(function () {
  if (document.documentElement.hasAttribute('data-compiled-start')) return;
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
