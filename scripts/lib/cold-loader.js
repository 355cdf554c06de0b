
// The cold module's loader (scripts/lib/cold-split.mjs), appended by scripts/build-split.mjs to
// wasm-bindgen's JavaScript for the first module, whose `wasm` (the first module's exports) it
// shares. The cold module is fetched as soon as the first module is instantiated, and compiled and
// instantiated once the app has started. A cold function called before then (its stub in the first
// module calls `cold.load`) cannot wait for a promise: the module is then compiled and instantiated
// synchronously, from the bytes if they have arrived, else from a synchronous request. If that
// fails too, the page says so (`wave-part-missing`, index.html) and offers to reload: the call
// cannot go on.
const COLD_URL = new URL(__COLD_FILE__, import.meta.url);
let coldInstance;
let coldModule;
let coldBytes;

// Drops of collected closures waiting for the cold module (`coldFinalize`).
let coldFinalizations = [];

// `how`: "background" or "at once"; a user-timing mark says which, for the tests.
function coldInstantiate(module, how) {
    coldInstance = new WebAssembly.Instance(module, { primary: wasm });
    wasm.cold_ready.value = 1;
    performance.mark('wave:cold-ready', { detail: how });
    // In a task of their own, as the collector's would be: this may run inside a cold call.
    const waiting = coldFinalizations;
    coldFinalizations = [];
    if (waiting.length > 0) setTimeout(() => { for (const drop of waiting) drop(); }, 0);
}

// Runs a collected closure's drop (wasm-bindgen's finalizer, which scripts/build-split.mjs routes
// here), or keeps it until the cold module has arrived: the drop is often cold code, and the
// collector may run at any moment of the start. Loading the cold module at once for it would
// block the page for a download, or fail the page offline; memory freed a little later costs
// nothing.
function coldFinalize(drop) {
    if (coldInstance) drop();
    else coldFinalizations.push(drop);
}

// Asked for as the app starts (when the network carries only the editor's module); compiled (off
// the main thread, but on cores the start's own compiling uses) once the page has drawn the app
// and the browser is idle, and instantiated at once when compiled, so that a cold function called
// meanwhile cannot make a second instance.
function coldPrefetch() {
    const bytes = fetch(COLD_URL).then((response) => {
        if (!response.ok) throw new Error(`${response.status} fetching ${COLD_URL}`);
        return response.arrayBuffer();
    }).then((buffer) => (coldBytes = buffer));
    // Handled below, once the app has drawn; not an unhandled rejection meanwhile.
    bytes.catch(() => {});
    afterStart()
        .then(() => bytes)
        .then((buffer) => coldModule ?? WebAssembly.compile(buffer))
        .then((module) => {
            coldModule = module;
            if (!coldInstance) coldInstantiate(module, 'background');
        })
        .catch((error) => {
            // Tried again, synchronously, when a cold function is first called.
            console.warn('the cold module did not arrive in the background:', error);
        });
}

// Resolves once a frame has been drawn after the app's start and the browser is then idle.
function afterStart() {
    return new Promise((resolve) => {
        requestAnimationFrame(() => setTimeout(() => {
            if (typeof requestIdleCallback === 'function') requestIdleCallback(resolve, { timeout: 1000 });
            else resolve();
        }, 0));
    });
}

// The first module's `cold.load`: the cold module, at once.
function coldLoadSync() {
    if (coldInstance) return;
    try {
        coldModule ??= new WebAssembly.Module(coldBytes ?? coldFetchSync());
        coldInstantiate(coldModule, 'at once');
    } catch (error) {
        dispatchEvent(new CustomEvent('wave-part-missing', { detail: String(error) }));
        throw error;
    }
}

// The cold module's bytes by a synchronous request, which in a page cannot ask for an
// ArrayBuffer: they come as text, one character each.
function coldFetchSync() {
    const request = new XMLHttpRequest();
    request.open('GET', COLD_URL, false);
    request.overrideMimeType('text/plain; charset=x-user-defined');
    request.send();
    if (request.status !== 200) throw new Error(`${request.status} fetching ${COLD_URL}`);
    const text = request.responseText;
    const bytes = new Uint8Array(text.length);
    for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i) & 0xff;
    return bytes;
}

// Hands the first module to the worker that warms up its start functions (warm-up-worker.js, made
// by the page's head), just before the start, and stops the worker when the frame after the start
// begins: that frame's style, layout and raster need the cores more (on two cores, a worker still
// compiling then made the page interactive later at an unslowed CPU).
function warmUp(module) {
    const worker = self.waveWarmUpWorker;
    delete self.waveWarmUpWorker;
    if (!worker) return;
    try {
        worker.postMessage(module);
    } catch (error) {
        console.warn('the start functions are not warmed up:', error);
    }
    requestAnimationFrame(() => worker.terminate());
}
