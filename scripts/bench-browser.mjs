#!/usr/bin/env node
// Browser benchmark of the built playground (dist/) in headless Chromium.
//
// It reads the timings the app publishes itself with the User Timing API (see
// src/components/timing.rs), so the numbers are the app's own measurements:
//   wave:run          a whole Run, command to the views showing its end (wall-clock)
//   wave:run-engine   the same run's engine slices summed
//   wave:step         a Step command until every view's DOM is updated
//   wave:step-render  style + layout + paint of the frame that shows the step
// plus, from the page, long tasks (PerformanceObserver 'longtask', tasks over 50 ms) and the
// longest gap between two animation frames during each run.
//
// Usage (from the repository root, once scripts/setup.sh has installed the tools):
//   node scripts/bench-browser.mjs --build            # trunk build --release, then measure
//   node scripts/bench-browser.mjs                    # measure the dist/ already built
//   node scripts/bench-browser.mjs --runs 9 --steps 100 --json
// Options: --runs N (GEMM runs, default 7), --steps N (measured steps, default 50),
//          --width N (wave width for the steps, default 64), --lesson ID (default break-in-if),
//          --dist DIR (default dist), --build, --json (machine-readable output only).
import { spawnSync } from 'node:child_process';
import { readFile, stat } from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from '@playwright/test';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

function parseArgs(argv) {
  const options = { runs: 7, steps: 50, width: 64, lesson: 'break-in-if', dist: 'dist', build: false, json: false };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const value = () => {
      const v = argv[++i];
      if (v === undefined) throw new Error(`${arg} needs a value`);
      return v;
    };
    switch (arg) {
      case '--runs': options.runs = Number(value()); break;
      case '--steps': options.steps = Number(value()); break;
      case '--width': options.width = Number(value()); break;
      case '--lesson': options.lesson = value(); break;
      case '--dist': options.dist = value(); break;
      case '--build': options.build = true; break;
      case '--json': options.json = true; break;
      case '-h': case '--help':
        console.log('usage: node scripts/bench-browser.mjs [--build] [--runs N] [--steps N] [--width N] [--lesson ID] [--dist DIR] [--json]');
        process.exit(0);
        break;
      default: throw new Error(`unknown option ${arg}`);
    }
  }
  for (const key of ['runs', 'steps', 'width']) {
    if (!Number.isInteger(options[key]) || options[key] < 1) throw new Error(`--${key} must be a positive integer`);
  }
  return options;
}

const MIME = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.wasm': 'application/wasm',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.json': 'application/json',
};

// A static server for dist/ on a free loopback port (the OS picks it).
async function serve(dir) {
  const server = http.createServer(async (request, response) => {
    try {
      const url = new URL(request.url, 'http://localhost');
      let file = path.join(dir, decodeURIComponent(url.pathname));
      if (!file.startsWith(dir)) throw new Error('outside dist');
      if ((await stat(file)).isDirectory()) file = path.join(file, 'index.html');
      const body = await readFile(file);
      response.writeHead(200, { 'content-type': MIME[path.extname(file)] ?? 'application/octet-stream' });
      response.end(body);
    } catch {
      response.writeHead(404);
      response.end('not found');
    }
  });
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  return { server, url: `http://127.0.0.1:${server.address().port}/` };
}

// Installed before the app loads: long tasks and animation-frame times, kept in the page.
function instrument() {
  window.__bench = { longtasks: [], frames: [] };
  try {
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) window.__bench.longtasks.push({ start: e.startTime, duration: e.duration });
    }).observe({ type: 'longtask', buffered: true });
  } catch {
    window.__bench.longtasksUnsupported = true;
  }
  const frame = (t) => {
    const frames = window.__bench.frames;
    frames.push(t);
    if (frames.length > 20000) frames.splice(0, 10000);
    requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
}

const entries = (page, name) =>
  page.evaluate((n) => performance.getEntriesByName(n).map((e) => ({
    start: e.startTime, duration: e.duration, detail: e.detail,
  })), name);

// Resolves once `count` measures named `name` exist; waits with a PerformanceObserver (no polling
// in the page while it is being measured).
async function waitForCount(page, name, count, timeout) {
  const waiting = page.evaluate(([n, c]) => new Promise((resolve) => {
    const done = () => performance.getEntriesByName(n).length >= c;
    if (done()) return resolve();
    const observer = new PerformanceObserver(() => {
      if (done()) {
        observer.disconnect();
        resolve();
      }
    });
    observer.observe({ type: 'measure' });
  }), [name, count]);
  let timer;
  const timedOut = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no measure ${name} #${count} within ${timeout} ms`)), timeout);
  });
  try {
    await Promise.race([waiting, timedOut]);
  } finally {
    clearTimeout(timer);
  }
}

const sorted = (xs) => [...xs].sort((a, b) => a - b);
const median = (xs) => {
  const s = sorted(xs);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
// Nearest-rank percentile.
const percentile = (xs, p) => sorted(xs)[Math.max(0, Math.ceil((p / 100) * xs.length) - 1)];
const ms = (x) => (x === undefined || x === null ? '–' : `${x.toFixed(1)} ms`);

async function benchGemm(page, baseUrl, runs) {
  await page.goto(baseUrl);
  await page.getByRole('combobox', { name: 'Examples' }).selectOption('gemm');
  await page.getByRole('status').filter({ hasText: /^ready$/ }).waitFor();
  const results = [];
  for (let i = 0; i < runs; i++) {
    const before = (await entries(page, 'wave:run')).length;
    await page.getByRole('button', { name: 'Run', exact: true }).click();
    await waitForCount(page, 'wave:run', before + 1, 120_000);
    const run = (await entries(page, 'wave:run'))[before];
    if (run.detail.outcome !== 'finished') throw new Error(`GEMM run ${i + 1} ended ${run.detail.outcome}`);
    const check = await page.getByText(/GEMM check: max error/).textContent();
    if (!/max error 0 /.test(check)) throw new Error(`GEMM run ${i + 1}: ${check}`);
    const { longtasks, frames } = await page.evaluate(() => window.__bench);
    const end = run.start + run.duration;
    const during = longtasks.filter((t) => t.start < end && t.start + t.duration > run.start);
    const inRun = frames.filter((t) => t >= run.start && t <= end);
    const edges = [run.start, ...inRun, end];
    let gap = 0;
    for (let k = 1; k < edges.length; k++) gap = Math.max(gap, edges[k] - edges[k - 1]);
    results.push({
      wallMs: run.duration,
      engineMs: run.detail.engineMs,
      slices: run.detail.slices,
      longestSliceMs: run.detail.longestSliceMs,
      steps: run.detail.steps,
      longestTaskMs: during.length ? Math.max(...during.map((t) => t.duration)) : null,
      framesDuringRun: inRun.length,
      longestFrameGapMs: gap,
    });
    await page.getByRole('button', { name: 'Reset', exact: true }).click();
    await page.getByRole('status').filter({ hasText: /^ready$/ }).waitFor();
  }
  return results;
}

async function benchSteps(page, baseUrl, { steps, width, lesson }) {
  await page.goto(baseUrl);
  await page.getByRole('combobox', { name: 'Examples' }).selectOption(lesson);
  await page.getByRole('tab', { name: 'Launch configuration' }).click();
  await page.getByRole('textbox', { name: 'Workgroup size' }).fill(`${width},1,1`);
  await page.getByRole('textbox', { name: 'Wave width' }).fill(String(width));
  await page.getByRole('status').filter({ hasText: /^ready$/ }).waitFor();
  const lanes = await page.getByRole('group', { name: 'Lanes' }).getByRole('button').count();
  if (lanes !== width) throw new Error(`expected ${width} lanes, the page shows ${lanes}`);
  // The Memory tab: one more view that changes while stepping.
  await page.getByRole('tab', { name: 'Memory' }).click();
  // The Event Timing API times each F10 keydown: `processingEnd - processingStart` is the key
  // handler plus the microtasks it queued (the command and Leptos updating the DOM), and
  // `duration` runs from the key to the next frame presented (8 ms granularity; entries under
  // 16 ms are not reported, so a missing entry means a fast one).
  await page.evaluate(() => {
    window.__stepKeys = [];
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) {
        if (e.name === 'keydown') window.__stepKeys.push({ start: e.startTime, processing: e.processingEnd - e.processingStart, duration: e.duration });
      }
    }).observe({ type: 'event', durationThreshold: 16 });
  });
  // Steps come from the keyboard (F10), like a user's, and nothing polls the page meanwhile.
  await page.getByRole('button', { name: 'Step', exact: true }).focus();
  const warmup = 5;
  let maxDepth = 0;
  for (let i = 0; i < warmup + steps; i++) {
    await page.keyboard.press('F10');
    await waitForCount(page, 'wave:step', i + 1, 10_000);
    await waitForCount(page, 'wave:step-render', i + 1, 10_000);
    maxDepth = Math.max(maxDepth, await page.evaluate(() =>
      document.querySelectorAll('[aria-label="Divergence stack"] > [role=listitem]').length));
  }
  const dom = (await entries(page, 'wave:step')).slice(warmup).map((e) => e.duration);
  const render = (await entries(page, 'wave:step-render')).slice(warmup).map((e) => e.duration);
  const status = await page.getByRole('status').textContent();
  const renderEntries = (await entries(page, 'wave:step-render')).slice(warmup);
  const firstKey = renderEntries.length > 0 ? renderEntries[0].start - 1000 : 0;
  const keys = (await page.evaluate(() => window.__stepKeys)).filter((k) => k.start >= firstKey);
  // The work a step causes: its handler and DOM update, then style, layout and paint of the first
  // frame after the key.
  const work = keys.flatMap((k) => {
    const frame = renderEntries.find((r) => r.start >= k.start);
    return frame ? [k.processing + frame.duration] : [];
  });
  return {
    dom, render, total: dom.map((d, i) => d + render[i]), maxDepth, status,
    handler: keys.map((k) => k.processing), presented: keys.map((k) => k.duration), work,
  };
}

function report(options, chromiumVersion, gemm, step) {
  const cold = gemm[0];
  const warm = gemm.length > 1 ? gemm.slice(1) : gemm;
  const lines = [];
  const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
  lines.push(`Headless Chromium ${chromiumVersion}, ${os.cpus().length} cores (${cpu}), ${new Date().toISOString().slice(0, 10)}`);
  lines.push('');
  lines.push(`GEMM example (256×256, ${cold.steps} wave-instructions), ${gemm.length} runs (the first is cold; best and median over the others):`);
  lines.push('');
  lines.push('| GEMM run | cold | best | median |');
  lines.push('|---|---:|---:|---:|');
  const row = (label, key) =>
    lines.push(`| ${label} | ${ms(cold[key])} | ${ms(Math.min(...warm.map((r) => r[key])))} | ${ms(median(warm.map((r) => r[key])))} |`);
  row('engine (slices summed, `wave:run-engine`)', 'engineMs');
  row('wall-clock, Run to finish shown (`wave:run`)', 'wallMs');
  row('longest engine slice', 'longestSliceMs');
  row('longest gap between two frames', 'longestFrameGapMs');
  // Long tasks are only reported over 50 ms: a run without any counts as 0 here.
  const longest = (r) => r.longestTaskMs ?? 0;
  const task = (x) => (x > 0 ? ms(x) : 'none over 50 ms');
  lines.push(`| longest main-thread task (\`longtask\`) | ${task(longest(cold))} | ${task(Math.min(...warm.map(longest)))} | ${task(median(warm.map(longest)))} |`);
  lines.push('');
  lines.push(`Slices per run: ${median(gemm.map((r) => r.slices))} (median); frames painted during a run: ${median(gemm.map((r) => r.framesDuringRun))} (median).`);
  lines.push('');
  lines.push(`Step with ${options.width} lanes (lesson \`${options.lesson}\`, workgroup ${options.width}, Memory tab open), ${step.dom.length} steps after 5 warm-up steps, deepest stack ${step.maxDepth}:`);
  lines.push('');
  lines.push('| per step | median | p95 | max |');
  lines.push('|---|---:|---:|---:|');
  const stepRow = (label, xs) => lines.push(`| ${label} | ${ms(median(xs))} | ${ms(percentile(xs, 95))} | ${ms(Math.max(...xs))} |`);
  stepRow('command → DOM updated (`wave:step`)', step.dom);
  stepRow('style + layout + paint (`wave:step-render`)', step.render);
  stepRow('both', step.total);
  if (step.handler.length > 0) {
    stepRow('key handler + DOM update (Event Timing processing)', step.handler);
    if (step.work.length > 0) stepRow('work: handler + DOM update + style, layout, paint', step.work);
    stepRow('key → frame presented (Event Timing duration, 8 ms steps)', step.presented);
  }
  lines.push('');
  lines.push('`wave:step` ends at the first task or frame after the DOM update, so it includes waiting for');
  lines.push('one; the "work" row is what must fit in a frame.');
  return lines.join('\n');
}

async function main() {
  const options = parseArgs(process.argv.slice(2));
  if (options.build) {
    // wasm-opt 132 comes from node_modules (see scripts/setup.sh).
    const env = { ...process.env, PATH: `${path.join(root, 'node_modules', '.bin')}${path.delimiter}${process.env.PATH}` };
    const built = spawnSync('trunk', ['build', '--release', '--offline'], { cwd: root, stdio: 'inherit', env });
    if (built.status !== 0) throw new Error('trunk build --release failed');
  }
  const dist = path.resolve(root, options.dist);
  try {
    await stat(path.join(dist, 'index.html'));
  } catch {
    throw new Error(`${dist}/index.html not found: run \`trunk build --release --offline\` first (or pass --build)`);
  }
  const { server, url } = await serve(dist);
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-background-networking',
           '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'],
  });
  try {
    const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
    await context.addInitScript(instrument);
    const page = await context.newPage();
    const problems = [];
    page.on('pageerror', (e) => problems.push(e.message));
    const gemm = await benchGemm(page, url, options.runs);
    const step = await benchSteps(page, url, options);
    if (problems.length) throw new Error(`page errors: ${problems.join('; ')}`);
    if (options.json) {
      console.log(JSON.stringify({ chromium: browser.version(), options, gemm, step }, null, 2));
    } else {
      console.log(report(options, browser.version(), gemm, step));
    }
  } finally {
    await browser.close();
    server.close();
  }
}

main().catch((error) => {
  console.error(`bench-browser: ${error.message}`);
  process.exit(1);
});
