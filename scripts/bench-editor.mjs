#!/usr/bin/env node
// Benchmark of the kernel editor in the built page (dist/), in headless Chromium, with real
// clipboard pastes and real key presses:
//   paste     a kernel of 5,000 and of 20,000 lines pasted over the text (Ctrl+A, Ctrl+V): from
//             the key press to the end of the frame that shows it, the longest main-thread task
//             from the key press until the page has recompiled it, and the page's own
//             `wave:recompile` / `wave:recompile-views` measures (src/components/timing.rs)
//   keys      single characters typed in the middle of a 5,000-line kernel, one at a time, each
//             after the previous recompile: the key's work (its events' processing time from the
//             Event Timing API, microtasks included, plus the style, layout and paint of the
//             frame that shows it, from that frame's animation-frame callback to the first task
//             after it; Chromium runs without input deferral, as in bench-browser.mjs), when
//             that frame was done after the key press, the longest task until its recompile has
//             finished, and that recompile
//   size      the editor's JavaScript and the page's wasm, gzipped (-9)
// Usage (after `trunk build --release`): node scripts/bench-editor.mjs [--runs N] [--keys N]
//        [--key-lines N (the kernel typed in, default 5000)] [--only paste|keys] [--dist DIR] [--json]
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium } from '@playwright/test';
import { serveDist } from './lib/serve-dist.mjs';
import { longKernel } from './lib/long-kernel.mjs';
import { median, ms, percentile } from './lib/stats.mjs';

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const at = args.indexOf(name);
  return at >= 0 && args[at + 1] ? args[at + 1] : fallback;
};
const runs = Number(option('--runs', 5));
const keyCount = Number(option('--keys', 30));
const dist = option('--dist', 'dist');
const json = args.includes('--json');
const keyLines = Number(option('--key-lines', 5000));
const only = option('--only', null);

// Installed before the page loads: long tasks, and the timing of the next key press and of the
// frame after it (see the header).
function instrument() {
  const bench = (window.__bench = { longtasks: [], keys: [], events: [] });
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) bench.longtasks.push({ start: e.startTime, duration: e.duration });
  }).observe({ type: 'longtask', buffered: true });
  // Events whose frame came 16 ms or more after them (the API reports no shorter ones).
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      bench.events.push({ name: e.name, start: e.startTime, processing: e.processingEnd - e.processingStart, duration: e.duration });
    }
  }).observe({ type: 'event', durationThreshold: 16, buffered: true });
  const channel = new MessageChannel();
  let afterTask = [];
  channel.port1.onmessage = () => {
    const now = performance.now();
    const due = afterTask;
    afterTask = [];
    for (const f of due) f(now);
  };
  const nextTask = (f) => {
    afterTask.push(f);
    channel.port2.postMessage(null);
  };
  document.addEventListener('keydown', (event) => {
    const key = { pressed: event.timeStamp, start: performance.now() };
    bench.keys.push(key);
    requestAnimationFrame(() => {
      key.frame = performance.now();
      nextTask((t) => { key.painted = t; });
    });
  }, { capture: true });
}

const max = (xs) => (xs.length ? Math.max(...xs) : 0);

// The page's measures named `name` that started at or after `since`.
const measures = (page, name, since) => page.evaluate(([n, s]) =>
  performance.getEntriesByName(n).filter((e) => e.startTime >= s)
    .map((e) => ({ start: e.startTime, duration: e.duration, detail: e.detail })), [name, since]);

async function waitForMeasure(page, name, since) {
  await page.waitForFunction(([n, s]) => performance.getEntriesByName(n).some((e) => e.startTime >= s), [name, since]);
  return (await measures(page, name, since))[0];
}

// The longest task in [from, to] (0 when none reached the 50 ms that makes a long task).
const longestTask = (page, from, to) => page.evaluate(([f, t]) =>
  Math.max(0, ...window.__bench.longtasks.filter((e) => e.start + e.duration >= f && e.start <= t).map((e) => e.duration)), [from, to]);

async function openPage(browser, url) {
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const page = await context.newPage();
  const problems = [];
  page.on('pageerror', (e) => problems.push(e.message));
  await page.addInitScript(instrument);
  await page.goto(url);
  await page.getByRole('textbox', { name: 'Kernel source' }).waitFor();
  return { context, page, problems };
}

// Pastes `text` over the editor's text; returns the paste's timings once it is recompiled.
async function paste(page, text, lines) {
  await page.evaluate((t) => navigator.clipboard.writeText(t), text);
  const editor = page.getByRole('textbox', { name: 'Kernel source' });
  await editor.focus();
  await page.keyboard.press('Control+A');
  const before = await page.evaluate(() => window.__bench.keys.length);
  await page.keyboard.press('Control+V');
  await page.getByText(`${lines} lines`, { exact: true }).waitFor();
  await page.waitForFunction((n) => window.__bench.keys[n]?.painted !== undefined, before);
  const key = await page.evaluate((n) => window.__bench.keys[n], before);
  const compile = await waitForMeasure(page, 'wave:recompile', key.start);
  const views = await waitForMeasure(page, 'wave:recompile-views', key.start);
  const end = views.start + views.duration;
  return {
    shown: key.painted - key.pressed,
    longestTask: await longestTask(page, key.pressed, end),
    compile: compile.detail.longestSliceMs,
    slices: compile.detail.slices,
    views: views.duration,
    visibleLines: await editor.locator('.cm-line').count(),
  };
}

async function benchPaste(browser, url, lines) {
  const text = longKernel(lines);
  const results = [];
  for (let run = 0; run < runs; run++) {
    const { context, page, problems } = await openPage(browser, url);
    results.push(await paste(page, text, lines));
    if (problems.length) throw new Error(`page errors: ${problems.join('; ')}`);
    await context.close();
  }
  return results;
}

async function benchKeys(browser, url) {
  const lines = keyLines;
  const { context, page, problems } = await openPage(browser, url);
  await paste(page, longKernel(lines), lines);
  const editor = page.getByRole('textbox', { name: 'Kernel source' });
  // The caret in the middle of the kernel, at the end of a comment (typing there keeps it valid).
  await page.keyboard.press('Control+Home');
  for (let i = 0; i < Math.floor(lines / 80); i++) await page.keyboard.press('PageDown');
  await page.keyboard.press('End');
  const results = [];
  for (let i = 0; i < keyCount; i++) {
    const before = await page.evaluate(() => window.__bench.keys.length);
    await page.keyboard.press('x');
    await page.waitForFunction((n) => window.__bench.keys[n]?.painted !== undefined, before);
    const key = await page.evaluate((n) => window.__bench.keys[n], before);
    const compile = await waitForMeasure(page, 'wave:recompile', key.start);
    const views = await waitForMeasure(page, 'wave:recompile-views', key.start);
    // keydown, keypress, beforeinput, input and keyup all carry the key's time stamp.
    const processing = await page.evaluate((pressed) => window.__bench.events
      .filter((e) => Math.abs(e.start - pressed) < 1).reduce((sum, e) => sum + e.processing, 0), key.pressed);
    results.push({
      work: processing + (key.painted - key.frame),
      script: processing,
      render: key.painted - key.frame,
      shown: key.painted - key.pressed,
      longestTask: await longestTask(page, key.pressed, views.start + views.duration),
      compile: compile.detail.longestSliceMs,
      slices: compile.detail.slices,
      views: views.duration,
    });
  }
  const line = await editor.locator('.cm-line').count();
  if (problems.length) throw new Error(`page errors: ${problems.join('; ')}`);
  await context.close();
  return { results, drawnLines: line };
}

async function sizes() {
  const files = await readdir(dist, { recursive: true });
  const gz = async (name) => gzipSync(await readFile(path.join(dist, name)), { level: 9 }).length;
  const editor = files.find((f) => f.endsWith('wave-editor.js'));
  // The first module: the split modules loaded on first use are not part of the start.
  const wasm = files.find((f) => f.endsWith('_bg.wasm'));
  if (!editor || !wasm) throw new Error(`no editor bundle or wasm in ${dist}: build the page first`);
  return { editorJs: await gz(editor), wasm: await gz(wasm) };
}

const { server, url } = await serveDist(dist);
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
  // Without input deferral, as in bench-browser.mjs: Chromium would otherwise hold the task that
  // ends a key's render measure until the frame after the key's own.
  args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-features=DeferRendererTasksAfterInput'],
});
try {
  const part = (name) => only === null || only === name;
  const report = {
    paste5k: part('paste') ? await benchPaste(browser, url, 5000) : [],
    paste20k: part('paste') ? await benchPaste(browser, url, 20000) : [],
    keys: part('keys') ? await benchKeys(browser, url) : { results: [] },
    size: await sizes(),
  };
  if (json) {
    console.log(JSON.stringify(report, null, 2));
  } else {
    const summary = (name, rows, fields) => {
      console.log(`\n${name} (${rows.length} runs): median / p95 / max`);
      for (const f of fields) {
        const xs = rows.map((r) => r[f]);
        const show = f === 'slices' ? (x) => String(x) : ms;
        console.log(`  ${f.padEnd(12)} ${show(median(xs)).padStart(9)} ${show(percentile(xs, 95)).padStart(9)} ${show(max(xs)).padStart(9)}`);
      }
    };
    const fields = ['shown', 'longestTask', 'compile', 'slices', 'views'];
    if (part('paste')) {
      summary('paste 5,000 lines', report.paste5k, fields);
      summary('paste 20,000 lines', report.paste20k, fields);
      console.log(`  lines drawn after a paste: ${max(report.paste20k.map((r) => r.visibleLines))}`);
    }
    if (part('keys')) {
      summary(`keystroke in ${keyLines} lines`, report.keys.results, ['work', 'script', 'render', 'shown', 'longestTask', 'compile', 'slices', 'views']);
    }
    console.log('  longest task 0 ms: no task reached 50 ms (the long-task threshold); script 0 ms: the key was');
    console.log('  drawn less than 16 ms after it was pressed, so Event Timing did not report it');
    console.log(`\nsize, gzipped: editor JS ${report.size.editorJs} B, wasm ${report.size.wasm} B`);
  }
} finally {
  await browser.close();
  server.close();
}
