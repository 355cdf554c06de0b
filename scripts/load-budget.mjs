#!/usr/bin/env node
// How long a visitor waits for the built playground (dist/) to load, on throttled networks and
// CPUs, against the load budget (docs/performance.md, "First visit").
//
// dist/ is served as a static host serves it (gzip or a precompressed .br/.gz, caching headers:
// see scripts/lib/serve-dist.mjs) and opened in Debian's headless Chromium, with the network and
// the CPU slowed through the DevTools protocol (`Network.emulateNetworkConditions`,
// `Emulation.setCPUThrottlingRate`). Profiles:
//   slow-4g   1.6 Mbit/s down, 750 kbit/s up, 150 ms latency, CPU 4× slower; a first visit
//   fast      10 Mbit/s down and up, 40 ms latency, CPU as it is; a first visit
//   repeat    the slow-4g network and CPU, on a visit after the first, from the service worker
//   localhost nothing slowed (the same static server on this machine, nothing throttled); a
//             first visit
// A first visit gets a fresh browser context (an empty cache). A repeat visit first loads the
// page unthrottled in its context until the service worker is active and controls it, then slows
// the network and CPU and reloads: that reload is measured. The worker's own requests are slowed
// too (should it ask the network for anything); Chromium refuses to slow a worker's CPU, which
// matters little, as the worker only answers from its cache. Each measured load begins once the
// whole browser is quiet (scripts/lib/browser-idle.mjs): a context's new window loads pages of
// Chromium's own for about 1.5 s, which a visitor's long-open window has done before they follow
// a link, and which took most of a core from the page on this machine.
//
// Every visit opens the `if-else` lesson from a share link (its `#` hash, taken once from an
// unthrottled page: the lesson picked in Examples, then "Copy link"), so that there is a lesson
// explanation to read. Times are from navigation start (the page's `performance.timeOrigin`), taken
// in the page by a MutationObserver that an init script installs before the page's own scripts
// run; when a condition first holds in the DOM, the time is read in the first task after the next
// frame has been drawn (the compositor shows that frame a little later, and FCP, a presentation
// time, includes that wait). Nothing outside the page polls it. Measured:
//   readable     the kernel's first line and the lesson's explanation (with text) are shown, by
//                the editor or as a listing until its module has arrived (index.html's preview
//                before the app has started, then the app's)
//   interactive  the Run button is enabled and the lanes are drawn (the Lanes group has a button)
//   FCP          First Contentful Paint (the `paint` performance entry)
//   editor open  the editor (its textbox) is in the page, after its module arrived: reported with
//                the stages, as it comes after the app has started
// and, for the report of where the time goes, when the page's files arrived (Resource Timing), when
// Trunk's loader had the wasm instantiated and the app mounted (`TrunkApplicationStarted`), and
// the page's long tasks. The bytes of a first visit are counted from the DevTools protocol's
// `Network.loadingFinished` (bytes on the wire, headers included) by kind: wasm, JS, CSS, HTML,
// other.
//
// It is a measurement, not a test: it exits 0 whatever the numbers, unless it fails itself (2);
// `--check` makes it exit 1 when a median misses its budget.
//
// Usage (from the repository root, after `trunk build --release`):
//   node scripts/load-budget.mjs                       # dist/, three visits per profile
//   node scripts/load-budget.mjs --dist DIR --runs 5 --only slow-4g,repeat
//   node scripts/load-budget.mjs --json                # machine-readable output only
//   node scripts/load-budget.mjs --check               # exit 1 when a budget is missed
//   node scripts/load-budget.mjs --trace FILE          # and where the main thread's time goes
//   node scripts/load-budget.mjs --against DIR --only fast,slow-4g --runs 8   # two builds, taking turns
//
// `--trace FILE`: one more visit of the first profile, not counted with the others, traced with
// the DevTools protocol's `Tracing` (written to FILE: open it in DevTools' Performance panel) and
// summarised: the renderer main thread's time from navigation start to interactive, by kind
// (compiling wasm, running script and wasm, parsing HTML, style, layout, paint, GC), and the wasm
// compiled on other threads. Tracing slows the page a little.
import { stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from '@playwright/test';
import { serveDist } from './lib/serve-dist.mjs';
import { chromiumLaunchOptions } from './lib/chromium.mjs';
import { median, ms } from './lib/stats.mjs';
import { startTrace } from './lib/trace.mjs';
import { GIVE_UP_MS, untilBrowserIdle } from './lib/browser-idle.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

// Throughputs in the protocol's unit, bytes per second.
const kbit = (k) => (k * 1000) / 8;
const SLOW_4G = { latency: 150, downloadThroughput: kbit(1600), uploadThroughput: kbit(750), cpu: 4 };
const FAST = { latency: 40, downloadThroughput: kbit(10_000), uploadThroughput: kbit(10_000), cpu: 1 };
// -1 leaves a direction unthrottled.
const LOCAL = { latency: 0, downloadThroughput: -1, uploadThroughput: -1, cpu: 1 };

const PROFILES = {
  'slow-4g': {
    ...SLOW_4G, repeat: false,
    label: 'slow 4G (1.6 Mbit/s down, 750 kbit/s up, 150 ms), CPU 4× slower, first visit',
    budget: { readable: 1500, interactive: 3000 },
  },
  fast: {
    ...FAST, repeat: false,
    label: '10 Mbit/s, 40 ms, CPU 1×, first visit',
    budget: { interactive: 800 },
  },
  repeat: {
    ...SLOW_4G, repeat: true,
    label: 'slow 4G, CPU 4× slower, repeat visit from the service worker',
    budget: { interactive: 1000 },
  },
  localhost: {
    ...LOCAL, repeat: false,
    label: 'localhost, nothing slowed, first visit',
    budget: { interactive: 1000 },
  },
};

const LESSON = 'if-else';
const VISIT_TIMEOUT_MS = 120_000;
const VIEWPORT = { width: 1400, height: 900 };

function parseArgs(argv) {
  const options = { dist: 'dist', runs: 3, json: false, check: false, only: Object.keys(PROFILES), trace: null, against: null };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const value = () => {
      const v = argv[++i];
      if (v === undefined) throw new Error(`${arg} needs a value`);
      return v;
    };
    switch (arg) {
      case '--dist': options.dist = value(); break;
      case '--runs': options.runs = Number(value()); break;
      case '--json': options.json = true; break;
      case '--check': options.check = true; break;
      case '--trace': options.trace = value(); break;
      case '--against': options.against = value(); break;
      case '--only': options.only = value().split(',').map((p) => p.trim()).filter(Boolean); break;
      case '-h': case '--help':
        console.log(`usage: node scripts/load-budget.mjs [--dist DIR] [--runs N] [--only ${Object.keys(PROFILES).join(',')}] [--json] [--check] [--trace FILE] [--against DIR]`);
        process.exit(0);
        break;
      default: throw new Error(`unknown option ${arg}`);
    }
  }
  if (!Number.isInteger(options.runs) || options.runs < 1) throw new Error('--runs must be a positive integer');
  if (options.against !== null && (options.json || options.check || options.trace)) {
    throw new Error('--against reports the two builds side by side: it takes no --json, --check or --trace');
  }
  const unknown = options.only.filter((p) => !(p in PROFILES));
  if (unknown.length > 0 || options.only.length === 0) {
    throw new Error(`--only takes profiles from ${Object.keys(PROFILES).join(', ')}, separated by commas`);
  }
  return options;
}

// Installed in the page before its own scripts: records when "readable" and "interactive" first
// hold. The checks run in the MutationObserver's callback, after the DOM changes that could make
// them true, and stop once both held; a condition's time is taken in the first task after the
// frame that follows it (a requestAnimationFrame callback, then a message to the page itself),
// which is when the browser has painted it. `window.__load.done` resolves then.
function instrument(firstLine) {
  if (window !== window.top) return;
  const load = {
    readableDom: null, readable: null, interactiveDom: null, interactive: null,
    editorDom: null, editor: null, started: null, longtasks: [], onScreen: null,
  };
  window.__load = load;
  let finish;
  load.done = new Promise((resolve) => { finish = resolve; });
  const afterFrame = (record) => requestAnimationFrame(() => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => record(performance.now());
    channel.port2.postMessage(null);
  });
  const settle = () => {
    if (load.readable === null || load.interactive === null || load.editor === null) return;
    // Checked once, at the end, because it needs layout: are the measured parts in the window?
    const inView = (selector) => {
      const box = document.querySelector(selector)?.getBoundingClientRect();
      return !!box && box.bottom > 0 && box.top < innerHeight && box.width > 0 && box.height > 0;
    };
    load.onScreen = {
      editor: inView('[role="textbox"][aria-label="Kernel source"]'),
      notes: inView('details.example-notes p'),
      run: inView('button.run'),
      lanes: inView('[role="group"][aria-label="Lanes"]'),
    };
    finish();
  };
  // The editor and the notes, or the kernel as a listing until the editor's module has arrived
  // (index.html's preview before the app has started, then the app's).
  const readable = () => {
    const editor = document.querySelector('[role="textbox"][aria-label="Kernel source"], .kernel-listing, [data-preview="kernel"]');
    if (!editor || !editor.textContent.includes(firstLine)) return false;
    const notes = document.querySelector('details.example-notes p, [data-preview="notes"] p');
    return !!notes && notes.textContent.trim() !== '';
  };
  const interactive = () => {
    const run = document.querySelector('button.run');
    if (!run || run.disabled || !/\bRun\b/.test(run.textContent)) return false;
    return !!document.querySelector('[role="group"][aria-label="Lanes"] button');
  };
  const observer = new MutationObserver(() => {
    const now = performance.now();
    if (load.readableDom === null && readable()) {
      load.readableDom = now;
      afterFrame((t) => { load.readable = t; settle(); });
    }
    if (load.interactiveDom === null && interactive()) {
      load.interactiveDom = now;
      afterFrame((t) => { load.interactive = t; settle(); });
    }
    if (load.editorDom === null && document.querySelector('[role="textbox"][aria-label="Kernel source"]')) {
      load.editorDom = now;
      afterFrame((t) => { load.editor = t; settle(); });
    }
    if (load.readableDom !== null && load.interactiveDom !== null && load.editorDom !== null) observer.disconnect();
  });
  observer.observe(document, {
    childList: true, subtree: true, characterData: true, attributes: true, attributeFilter: ['disabled'],
  });
  addEventListener('TrunkApplicationStarted', () => { load.started = performance.now(); }, { once: true });
  try {
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) load.longtasks.push({ start: e.startTime, duration: e.duration });
    }).observe({ type: 'longtask', buffered: true });
  } catch {
    load.longtasks = null;
  }
}

// What a file is, for the bytes by kind: by its URL first (the wasm is fetched, not a script),
// then by the type DevTools gives the request.
function kindOf(url, type) {
  const { pathname } = new URL(url);
  if (pathname.endsWith('.wasm')) return 'wasm';
  if (/\.m?js$/.test(pathname) || type === 'Script') return 'JS';
  if (pathname.endsWith('.css') || type === 'Stylesheet') return 'CSS';
  if (type === 'Document' || pathname.endsWith('/') || pathname.endsWith('.html')) return 'HTML';
  return 'other';
}

// Slows a target's network and CPU through `session` (anything with the DevTools protocol's
// `send(method, params)` and `on(event, listener)`); its requests are recorded in `requests` from
// then on. Resolves to whether the CPU throttling took (a service worker may refuse it).
async function throttle(session, profile, requests, origin) {
  session.on('Network.requestWillBeSent', ({ requestId, request, type }) => {
    requests.set(`${origin}:${requestId}`, { url: request.url, type, origin, bytes: null, fromServiceWorker: false, failed: false });
  });
  session.on('Network.responseReceived', ({ requestId, type, response }) => {
    const r = requests.get(`${origin}:${requestId}`);
    if (!r) return;
    r.type = type ?? r.type;
    r.status = response.status;
    r.fromServiceWorker = !!response.fromServiceWorker;
  });
  session.on('Network.loadingFinished', ({ requestId, encodedDataLength }) => {
    const r = requests.get(`${origin}:${requestId}`);
    if (r) r.bytes = encodedDataLength;
  });
  session.on('Network.loadingFailed', ({ requestId }) => {
    const r = requests.get(`${origin}:${requestId}`);
    if (r) r.failed = true;
  });
  await session.send('Network.enable');
  await session.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: profile.latency,
    downloadThroughput: profile.downloadThroughput,
    uploadThroughput: profile.uploadThroughput,
  });
  try {
    await session.send('Emulation.setCPUThrottlingRate', { rate: profile.cpu });
    return true;
  } catch {
    return false;
  }
}

// The service worker of the page's context, as a protocol session. The worker's own requests
// (on a repeat visit, whatever it does not hold) are not the
// page's, so the page's throttling does not slow them: the worker's target must be throttled too.
// Playwright opens protocol sessions on pages only, so the worker is reached from a browser-level
// session, its messages wrapped in `Target.sendMessageToTarget`.
async function serviceWorkerSession(browser, pageUrl) {
  const browserSession = await browser.newBrowserCDPSession();
  const { targetInfos } = await browserSession.send('Target.getTargets');
  const page = targetInfos.find((t) => t.type === 'page' && t.url.startsWith(pageUrl));
  const worker = targetInfos.find((t) => t.type === 'service_worker' && t.browserContextId === page?.browserContextId);
  if (!worker) throw new Error('no service worker to throttle');
  const { sessionId } = await browserSession.send('Target.attachToTarget', { targetId: worker.targetId, flatten: false });
  const pending = new Map();
  const listeners = new Map();
  let nextId = 1;
  browserSession.on('Target.receivedMessageFromTarget', ({ sessionId: from, message }) => {
    if (from !== sessionId) return;
    const m = JSON.parse(message);
    if (m.id !== undefined) {
      const waiting = pending.get(m.id);
      pending.delete(m.id);
      if (m.error) waiting?.reject(new Error(m.error.message));
      else waiting?.resolve(m.result);
    } else {
      for (const listener of listeners.get(m.method) ?? []) listener(m.params);
    }
  });
  return {
    send: (method, params = {}) => new Promise((resolve, reject) => {
      const id = nextId++;
      pending.set(id, { resolve, reject });
      browserSession.send('Target.sendMessageToTarget', { sessionId, message: JSON.stringify({ id, method, params }) })
        .catch(reject);
    }),
    on: (method, listener) => listeners.set(method, [...(listeners.get(method) ?? []), listener]),
    detach: () => browserSession.detach(),
  };
}

// The page's own record of the visit, once both conditions held.
async function readVisit(page) {
  const done = page.evaluate(() => window.__load.done);
  let timer;
  const timedOut = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`the page was not readable, interactive and with its editor open within ${VISIT_TIMEOUT_MS / 1000} s`)), VISIT_TIMEOUT_MS);
  });
  try {
    await Promise.race([done, timedOut]);
  } finally {
    clearTimeout(timer);
  }
  return page.evaluate(async () => {
    const load = window.__load;
    // The paint entry comes when the frame has been presented, which can be a little after the
    // conditions' frames were drawn; the measurement is over, so waiting for it changes nothing.
    const fcp = await new Promise((resolve) => {
      const timer = setTimeout(() => resolve(null), 10_000);
      new PerformanceObserver((list, observer) => {
        const entry = list.getEntries().find((e) => e.name === 'first-contentful-paint');
        if (!entry) return;
        observer.disconnect();
        clearTimeout(timer);
        resolve(entry);
      }).observe({ type: 'paint', buffered: true });
    });
    const nav = performance.getEntriesByType('navigation')[0];
    const files = performance.getEntriesByType('resource').map((e) => ({
      name: e.name, start: e.startTime, responseStart: e.responseStart, responseEnd: e.responseEnd,
    }));
    return {
      readable: load.readable,
      interactive: load.interactive,
      editor: load.editor,
      readableDom: load.readableDom,
      interactiveDom: load.interactiveDom,
      fcp: fcp ? fcp.startTime : null,
      started: load.started,
      onScreen: load.onScreen,
      longtasks: load.longtasks,
      html: nav ? { responseStart: nav.responseStart, responseEnd: nav.responseEnd, workerStart: nav.workerStart } : null,
      files,
    };
  });
}

const TRACE_CATEGORIES = ['toplevel', 'devtools.timeline', 'disabled-by-default-devtools.timeline', 'v8',
  'v8.execute', 'v8.wasm', 'disabled-by-default-v8.wasm.detailed', 'loading', 'blink.user_timing', '__metadata'];

// Which kind of main-thread work a trace event's self time is.
function workKind(name) {
  if (name === 'wasm.CompileLazy') return 'compiling wasm functions on their first call (lazy)';
  if (name.startsWith('wasm.') || name.startsWith('v8.wasm.')) return 'wasm: streaming compile, instantiation';
  if (/GC|^V8\.GC|BlinkGC/.test(name)) return 'garbage collection';
  if (name === 'ParseHTML' || name.startsWith('HTMLDocumentParser')) return 'parsing HTML';
  if (['UpdateLayoutTree', 'RecalculateStyles', 'ParseAuthorStyleSheet'].includes(name)) return 'style';
  if (['Layout', 'UpdateLayout'].includes(name)) return 'layout';
  if (['PrePaint', 'Paint', 'Layerize', 'UpdateLayer', 'UpdateLayerTree', 'Commit', 'CompositeLayers'].includes(name)) return 'paint';
  if (['FunctionCall', 'EvaluateScript', 'EventDispatch', 'RunMicrotasks', 'FireAnimationFrame', 'TimerFire',
    'v8.evaluateModule', 'v8.callFunction', 'v8.run', 'v8.compile', 'v8.compileModule'].includes(name) ||
    name.startsWith('v8.') || name.startsWith('V8.')) return 'script: JS and wasm running';
  return OTHER_WORK;
}

const OTHER_WORK = 'other: task bookkeeping, messages, loading (not split further)';

// The renderer main thread's busy time from navigation start to `interactiveMs` after it, split by
// the kind of its innermost trace events (self time), and the wasm compiled on other threads.
function summariseTrace(events, interactiveMs) {
  const navigation = events.filter((e) => e.name === 'navigationStart' && e.args?.data?.documentLoaderURL?.startsWith('http'))
    .sort((a, b) => a.ts - b.ts).at(-1);
  if (!navigation) return null;
  const main = `${navigation.pid}:${navigation.tid}`;
  const start = navigation.ts;
  const end = start + interactiveMs * 1000;
  const complete = events.filter((e) => e.ph === 'X' && e.dur !== undefined && e.ts < end && e.ts + e.dur > start);
  const onMain = complete.filter((e) => `${e.pid}:${e.tid}` === main).sort((a, b) => a.ts - b.ts || b.dur - a.dur);
  // Self time: each event's span within the window less its children's, found with a stack;
  // busy time: the spans of the outermost events (the tasks).
  const clip = (e) => Math.min(e.ts + e.dur, end) - Math.max(e.ts, start);
  const stack = [];
  const self = new Map();
  // Everything inside a lazy compile (its baseline compile, publishing the code) counts as it.
  const inLazyCompile = new Set();
  let busy = 0;
  for (const e of onMain) {
    while (stack.length && stack.at(-1).ts + stack.at(-1).dur <= e.ts) stack.pop();
    const parent = stack.at(-1);
    if (parent && (parent.name === 'wasm.CompileLazy' || inLazyCompile.has(parent))) inLazyCompile.add(e);
    self.set(e, clip(e));
    if (parent) self.set(parent, self.get(parent) - clip(e));
    else busy += clip(e);
    stack.push(e);
  }
  const kinds = {};
  for (const e of onMain) {
    // A task's own time, outside every event inside it, is "other".
    const kind = inLazyCompile.has(e) ? workKind('wasm.CompileLazy') : workKind(e.name);
    kinds[kind] = (kinds[kind] ?? 0) + self.get(e);
  }
  const lazy = onMain.filter((e) => e.name === 'wasm.CompileLazy');
  const offMain = complete.filter((e) => `${e.pid}:${e.tid}` !== main && e.pid === navigation.pid && e.name === 'wasm.CompileBaseline');
  const toMs = (us) => us / 1000;
  return {
    windowMs: interactiveMs,
    busyMs: toMs(busy),
    byKindMs: Object.fromEntries(Object.entries(kinds).map(([k, v]) => [k, toMs(v)]).sort((a, b) => b[1] - a[1])),
    lazyCompile: lazy.length ? { functions: lazy.length, firstMs: toMs(lazy[0].ts - start), lastEndMs: toMs(Math.max(...lazy.map((e) => e.ts + e.dur)) - start) } : null,
    wasmCompiledOffMainMs: toMs(offMain.reduce((a, e) => a + clip(e), 0)),
  };
}

// One measured visit under `profile`; a first visit in a fresh context, a repeat visit after a
// first one in the same context has installed the service worker.
async function visit(browser, url, firstLine, profile, traced = false) {
  const context = await browser.newContext({ viewport: VIEWPORT });
  let worker = null;
  let browserSession = null;
  try {
    await context.addInitScript(instrument, firstLine);
    const page = await context.newPage();
    const problems = [];
    page.on('pageerror', (e) => problems.push(e.message));
    const cdp = await context.newCDPSession(page);
    const requests = new Map();
    let workerCpu = null;
    let stopTrace = null;
    browserSession = await browser.newBrowserCDPSession();
    let quietWait = await untilBrowserIdle(browserSession);
    if (profile.repeat) {
      await page.goto(url);
      await readVisit(page);
      await page.evaluate(() => navigator.serviceWorker.ready);
      // The worker claims open pages when it activates; a page that it does not control yet is
      // reloaded, so that the measured reload is the second one it serves.
      if (!await page.evaluate(() => navigator.serviceWorker.controller !== null)) {
        await page.reload();
        await readVisit(page);
      }
      if (!await page.evaluate(() => navigator.serviceWorker.controller !== null)) {
        throw new Error('the service worker did not take control of the page');
      }
      worker = await serviceWorkerSession(browser, url);
      quietWait = await untilBrowserIdle(browserSession);
      workerCpu = await throttle(worker, profile, requests, 'service worker');
      await throttle(cdp, profile, requests, 'page');
      if (traced) stopTrace = await startTrace(cdp, TRACE_CATEGORIES);
      await page.reload({ waitUntil: 'commit' });
    } else {
      await throttle(cdp, profile, requests, 'page');
      if (traced) stopTrace = await startTrace(cdp, TRACE_CATEGORIES);
      await page.goto(url, { waitUntil: 'commit' });
    }
    const measured = await readVisit(page);
    if (problems.length) throw new Error(`page errors: ${problems.join('; ')}`);
    const trace = stopTrace ? await stopTrace() : null;
    return { ...measured, workerCpuThrottled: workerCpu, requests: [...requests.values()], quietWait, trace };
  } finally {
    // The browser's session ends with the context anyway; a failure here must not hide the visit's.
    await browserSession?.detach().catch(() => {});
    await worker?.detach();
    await context.close();
  }
}

// The share link of the lesson, and the kernel's first line, from an unthrottled page.
async function lessonLink(browser, url) {
  const context = await browser.newContext({ viewport: VIEWPORT });
  try {
    const page = await context.newPage();
    await page.goto(url);
    await page.getByRole('combobox', { name: 'Examples' }).selectOption(LESSON);
    // "Copy link" puts the state in the address bar's hash, and then on the clipboard (which may
    // refuse: the hash is what is needed).
    await page.getByRole('button', { name: 'Copy link', exact: true }).click();
    await page.waitForFunction(() => location.hash.length > 1);
    const hash = await page.evaluate(() => location.hash);
    const firstLine = await page.evaluate(() => [...document.querySelectorAll('[role="textbox"][aria-label="Kernel source"] .cm-line')]
      .map((line) => line.textContent.trim()).find((text) => text !== ''));
    if (!firstLine) throw new Error(`the ${LESSON} lesson shows no kernel text`);
    return { hash, firstLine };
  } finally {
    await context.close();
  }
}

function bytesByKind(requests) {
  const kinds = { wasm: 0, JS: 0, CSS: 0, HTML: 0, other: 0 };
  const files = { wasm: 0, JS: 0, CSS: 0, HTML: 0, other: 0 };
  for (const r of requests) {
    if (r.bytes === null || r.failed || r.url.startsWith('data:')) continue;
    const kind = kindOf(r.url, r.type);
    kinds[kind] += r.bytes;
    files[kind] += 1;
  }
  const total = Object.values(kinds).reduce((a, b) => a + b, 0);
  return { kinds, files, total };
}

// Milestones of a visit for "where the time goes", in ms from navigation start.
function milestones(v) {
  const file = (test) => v.files.find((f) => test(new URL(f.name).pathname));
  const css = file((p) => p.endsWith('.css'));
  const glue = file((p) => /^\/wave-playground-[0-9a-f]+\.js$/.test(p));
  const editor = file((p) => p.endsWith('/wave-editor.js'));
  const wasm = file((p) => p.endsWith('_bg.wasm'));
  const beforeInteractive = (v.longtasks ?? []).filter((t) => t.start < v.interactive);
  const afterWasm = wasm ? beforeInteractive.filter((t) => t.start + t.duration > wasm.responseEnd) : [];
  return {
    'HTML received': v.html?.responseEnd ?? null,
    'CSS received': css?.responseEnd ?? null,
    "app's JS glue received": glue?.responseEnd ?? null,
    "editor's JS received": editor?.responseEnd ?? null,
    'wasm: first byte': wasm?.responseStart ?? null,
    'wasm received': wasm?.responseEnd ?? null,
    'wasm instantiated, app mounted (`TrunkApplicationStarted`)': v.started,
    'First Contentful Paint': v.fcp,
    readable: v.readable,
    interactive: v.interactive,
    'editor open (typing possible)': v.editor,
    'long tasks before interactive (sum)': beforeInteractive.reduce((a, t) => a + t.duration, 0),
    'long tasks after the wasm arrived, before interactive (sum)': afterWasm.reduce((a, t) => a + t.duration, 0),
    'longest task before interactive': beforeInteractive.length ? Math.max(...beforeInteractive.map((t) => t.duration)) : 0,
  };
}

const plural = (n, word) => `${n} ${word}${n === 1 ? '' : 's'}`;

function summarise(name, visits) {
  const profile = PROFILES[name];
  const metrics = {};
  for (const key of ['readable', 'interactive', 'fcp']) {
    const xs = visits.map((v) => v[key]).filter((x) => x !== null);
    const budget = profile.budget[key] ?? null;
    const med = xs.length ? median(xs) : null;
    metrics[key] = {
      median: med, min: xs.length ? Math.min(...xs) : null, max: xs.length ? Math.max(...xs) : null,
      budget, met: budget === null || med === null ? null : med <= budget,
    };
  }
  const stages = {};
  for (const key of Object.keys(milestones(visits[0]))) {
    const xs = visits.map((v) => milestones(v)[key]).filter((x) => x !== null && x !== undefined);
    stages[key] = xs.length ? { median: median(xs), min: Math.min(...xs), max: Math.max(...xs) } : null;
  }
  const waits = visits.map((v) => v.quietWait.waitedMs);
  const quietWait = {
    median: median(waits), min: Math.min(...waits), max: Math.max(...waits),
    notQuiet: visits.filter((v) => !v.quietWait.quiet).length,
  };
  return { metrics, stages, quietWait, bytes: visits.map((v) => bytesByKind(v.requests)) };
}

function reportProfile(lines, name, summary, visits) {
  const profile = PROFILES[name];
  lines.push(`### ${name}: ${profile.label}`);
  lines.push('');
  lines.push(`| ${plural(visits.length, 'visit')} | median | min–max | budget | met |`);
  lines.push('|---|---:|---:|---:|:---:|');
  const labels = { readable: 'readable (kernel text and lesson explanation)', interactive: 'interactive (Run enabled, lanes drawn)', fcp: 'First Contentful Paint' };
  for (const [key, m] of Object.entries(summary.metrics)) {
    if (m.median === null) {
      lines.push(`| ${labels[key]} | – | – | ${m.budget === null ? '–' : `≤ ${ms(m.budget)}`} | – |`);
      continue;
    }
    const met = m.met === null ? '' : m.met ? '✓' : '✗';
    lines.push(`| ${labels[key]} | ${ms(m.median)} | ${ms(m.min)}–${ms(m.max)} | ${m.budget === null ? '–' : `≤ ${ms(m.budget)}`} | ${met} |`);
  }
  lines.push('');
  const offScreen = visits.filter((v) => v.onScreen && Object.values(v.onScreen).some((x) => !x));
  if (offScreen.length > 0) {
    lines.push(`In ${offScreen.length} of ${visits.length} visits a measured part was outside the window: ${JSON.stringify(offScreen[0].onScreen)}.`);
    lines.push('');
  }
  const w = summary.quietWait;
  const notQuiet = w.notQuiet === 0 ? '' : ` In ${w.notQuiet} of ${visits.length} visits it was not quiet within ${GIVE_UP_MS / 1000} s, and the visit was measured then.`;
  lines.push(`Before each visit the browser was left until it was quiet (its new window's own pages loaded, see scripts/lib/browser-idle.mjs): ${ms(w.median)} by the median (${ms(w.min)}–${ms(w.max)}).${notQuiet}`);
  lines.push('');
  const slowed = profile.cpu > 1 ? `, on the CPU ${profile.cpu}× slower` : '';
  lines.push(`Where the time goes (medians, from navigation start; the long tasks are the main thread's tasks over 50 ms${slowed}):`);
  lines.push('');
  lines.push('| stage | median | min–max |');
  lines.push('|---|---:|---:|');
  for (const [label, s] of Object.entries(summary.stages)) {
    lines.push(s ? `| ${label} | ${ms(s.median)} | ${ms(s.min)}–${ms(s.max)} |` : `| ${label} | – | – |`);
  }
  lines.push('');
  if (profile.repeat) {
    const b = summary.bytes[0];
    lines.push(`Bytes over the network in the first measured visit (the service worker answers from its cache; the browser asks the network whether its script has changed): ${b.total.toLocaleString('en-US')}.`);
    lines.push('');
  }
}

function reportTrace(lines, traced) {
  const t = traced.summary;
  lines.push(`### Where the main thread's time goes: one traced ${traced.profile} visit`);
  lines.push('');
  if (!t) {
    lines.push(`The trace (${traced.file}) has no navigation to summarise.`);
    lines.push('');
    return;
  }
  lines.push(`Written to ${traced.file}; tracing slows the page, so this visit is not among the measured ones. Interactive after ${ms(traced.visit.interactive)}; the renderer's main thread was busy ${ms(t.busyMs)} of that. Its self time by kind:`);
  lines.push('');
  lines.push('| main-thread work, navigation start to interactive | time |');
  lines.push('|---|---:|');
  for (const [kind, time] of Object.entries(t.byKindMs)) lines.push(`| ${kind} | ${ms(time)} |`);
  lines.push(`| idle (waiting for the network) | ${ms(t.windowMs - t.busyMs)} |`);
  lines.push('');
  if (t.lazyCompile) {
    lines.push(`${t.lazyCompile.functions} wasm functions were compiled on the main thread on their first call, from ${ms(t.lazyCompile.firstMs)} to ${ms(t.lazyCompile.lastEndMs)}.`);
  }
  lines.push(`Other threads of the page's renderer compiled wasm (baseline) for ${ms(t.wasmCompiledOffMainMs)}.`);
  lines.push('');
}

function report(options, chromiumVersion, results, traced) {
  const lines = [];
  const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
  lines.push(`Headless Chromium ${chromiumVersion}, ${os.cpus().length} cores (${cpu}); ${plural(options.runs, 'visit')} per profile, the profiles taking turns; dist/ served as a static host serves it (gzip at level 9 or precompressed files, caching headers).`);
  lines.push('');
  const first = Object.entries(results).find(([name]) => !PROFILES[name].repeat);
  if (first) {
    const all = first[1].summary.bytes;
    lines.push(`First visit (${first[0]}), bytes over the network (headers included), median of ${plural(all.length, 'visit')}:`);
    lines.push('');
    lines.push('| kind | bytes | files |');
    lines.push('|---|---:|---:|');
    for (const kind of ['wasm', 'JS', 'CSS', 'HTML', 'other']) {
      lines.push(`| ${kind} | ${median(all.map((b) => b.kinds[kind])).toLocaleString('en-US')} | ${median(all.map((b) => b.files[kind]))} |`);
    }
    lines.push(`| total | ${median(all.map((b) => b.total)).toLocaleString('en-US')} | ${median(all.map((b) => Object.values(b.files).reduce((x, y) => x + y, 0)))} |`);
    lines.push('');
  }
  for (const [name, { summary, visits }] of Object.entries(results)) reportProfile(lines, name, summary, visits);
  if (traced) reportTrace(lines, traced);
  const missed = missedBudgets(results);
  lines.push(missed.length === 0 ? 'Every budget is met by the medians.' : `Missed by the medians: ${missed.join('; ')}.`);
  return lines.join('\n');
}

function missedBudgets(results) {
  const missed = [];
  for (const [name, { summary }] of Object.entries(results)) {
    for (const [key, m] of Object.entries(summary.metrics)) {
      if (m.met === false) missed.push(`${name} ${key} ${ms(m.median)} > ${ms(m.budget)}`);
      if (m.budget !== null && m.median === null) missed.push(`${name} ${key} not measured`);
    }
  }
  return missed;
}

async function builtDist(dir) {
  const dist = path.resolve(root, dir);
  try {
    await stat(path.join(dist, 'index.html'));
  } catch {
    throw new Error(`${dist}/index.html not found: run \`trunk build --release --offline\` first`);
  }
  return dist;
}

// `--against DIR`: the build in --dist and the build in DIR, visit by visit. Each run visits both
// with each profile, in turns (which build goes first alternates from run to run: an even
// --runs gives each build the first visit as often), so that a slow spell of the shared machine
// falls on both; a change is judged by the median of the runs' differences as well as by the
// medians. Both open the lesson link made by the first build: links made by any version keep
// opening.
async function compareBuilds(options) {
  const dirs = [options.dist, options.against];
  const served = await Promise.all(dirs.map(async (dir) => serveDist(await builtDist(dir), { staticHost: true })));
  const browser = await chromium.launch(chromiumLaunchOptions());
  try {
    const { hash, firstLine } = await lessonLink(browser, served[0].url);
    const times = Object.fromEntries(options.only.map((name) => [name, dirs.map(() => ({ readable: [], interactive: [] }))]));
    let notQuiet = 0;
    for (let run = 0; run < options.runs; run++) {
      for (const name of options.only) {
        const order = run % 2 === 0 ? [0, 1] : [1, 0];
        for (const b of order) {
          process.stderr.write(`visit ${run + 1} of ${options.runs}: ${name}, ${dirs[b]}\n`);
          const v = await visit(browser, `${served[b].url}${hash}`, firstLine, PROFILES[name]);
          times[name][b].readable.push(v.readable);
          times[name][b].interactive.push(v.interactive);
          if (!v.quietWait.quiet) notQuiet++;
        }
      }
    }
    const lines = [`Headless Chromium ${browser.version()}, ${os.cpus().length} cores; ${plural(options.runs, 'visit')} per build and profile, the builds taking turns. A: ${dirs[0]}, B: ${dirs[1]}.`, ''];
    lines.push('| profile | measure | A: median | B: median | B − A, median of the runs | A, each run | B, each run |');
    lines.push('|---|---|---:|---:|---:|---|---|');
    const each = (xs) => xs.map((x) => (x / 1000).toFixed(2)).join(', ');
    for (const name of options.only) {
      for (const key of ['readable', 'interactive']) {
        const [a, b] = times[name].map((t) => t[key]);
        lines.push(`| ${name} | ${key} | ${ms(median(a))} | ${ms(median(b))} | ${ms(median(a.map((x, i) => b[i] - x)))} | ${each(a)} s | ${each(b)} s |`);
      }
    }
    if (notQuiet > 0) {
      lines.push('', `In ${notQuiet} visits the browser was not quiet within ${GIVE_UP_MS / 1000} s before the visit began (scripts/lib/browser-idle.mjs).`);
    }
    console.log(lines.join('\n'));
  } finally {
    await browser.close();
    for (const { server } of served) server.close();
  }
}

async function main() {
  const options = parseArgs(process.argv.slice(2));
  if (options.against !== null) return compareBuilds(options);
  const dist = await builtDist(options.dist);
  const { server, url } = await serveDist(dist, { staticHost: true });
  const browser = await chromium.launch(chromiumLaunchOptions());
  try {
    const { hash, firstLine } = await lessonLink(browser, url);
    const visits = Object.fromEntries(options.only.map((name) => [name, []]));
    // The profiles take turns, so that a slow spell of the shared machine falls on all of them.
    for (let run = 0; run < options.runs; run++) {
      for (const name of options.only) {
        if (!options.json) process.stderr.write(`visit ${run + 1} of ${options.runs}: ${name}\n`);
        visits[name].push(await visit(browser, `${url}${hash}`, firstLine, PROFILES[name]));
      }
    }
    let traced = null;
    if (options.trace) {
      const name = options.only[0];
      if (!options.json) process.stderr.write(`traced visit: ${name}\n`);
      const { trace, ...tracedVisit } = await visit(browser, `${url}${hash}`, firstLine, PROFILES[name], true);
      await writeFile(options.trace, JSON.stringify({ traceEvents: trace }));
      traced = { profile: name, file: options.trace, visit: tracedVisit, summary: summariseTrace(trace, tracedVisit.interactive) };
    }
    const results = Object.fromEntries(Object.entries(visits)
      .map(([name, vs]) => [name, { summary: summarise(name, vs), visits: vs.map(({ trace, ...v }) => v) }]));
    if (options.json) {
      console.log(JSON.stringify({
        chromium: browser.version(), options, lesson: LESSON, hash,
        profiles: Object.fromEntries(Object.entries(results).map(([name, r]) => [name, {
          ...PROFILES[name], summary: r.summary, visits: r.visits,
        }])),
        traced,
      }, null, 2));
    } else {
      console.log(report(options, browser.version(), results, traced));
    }
    if (options.check && missedBudgets(results).length > 0) process.exitCode = 1;
  } finally {
    await browser.close();
    server.close();
  }
}

main().catch((error) => {
  console.error(`load-budget: ${error.message}`);
  process.exit(2);
});
