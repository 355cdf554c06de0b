#!/usr/bin/env node
// Browser benchmark of the built playground (dist/) in headless Chromium.
//
// It reads the timings the app publishes itself with the User Timing API (see
// src/components/timing.rs), so the numbers are the app's own measurements:
//   wave:run          a whole Run, command to the views showing its end (wall-clock)
//   wave:run-engine   the same run's engine slices summed
//   wave:step         a Step command until every view's DOM is updated
//   wave:step-render  style + layout + paint of the frame that shows the step
//   wave:step-back, wave:step-back-render    the same for "Step back"
//   wave:go-to, wave:go-to-render            the same for a move to a step ("Go to step")
// plus, from the page, long tasks (PerformanceObserver 'longtask', tasks over 50 ms) and the
// longest gap between two animation frames during each run.
//
// A step's work (what must fit in a 16 ms frame) is reported two ways:
//   - without tracing: the Event Timing API's processing time of the F10 keydown (the handler and
//     the microtasks in which Leptos updates the DOM) plus `wave:step-render` of the frame after it
//     ("work" row). Event Timing only reports keys whose frame came 16 ms or more after them; the
//     report says how many keys that left out, and the work row counts them among the steps as
//     under 16 ms (a median or p95 that falls among them shows as "< 16 ms").
//   - with --trace FILE: a Chromium trace (CDP `Tracing`) of the measured steps. Per step, the
//     renderer main thread's CPU time (thread time, which other processes on the machine inflate
//     much less than wall-clock time) from the key's task to the end of the first frame committed after it, split into
//     script, style, layout, paint (pre-paint, paint, layerize, commit) and GC; and the wall-clock
//     span. Tracing itself costs time, so these numbers are a little high.
//
// Usage (from the repository root, once scripts/setup.sh has installed the tools):
//   node scripts/bench-browser.mjs --build            # trunk build --release, then measure
//   node scripts/bench-browser.mjs                    # measure the dist/ already built
//   node scripts/bench-browser.mjs --only steps --trace /tmp/steps.json   # where a step's time goes
//   node scripts/bench-browser.mjs --runs 9 --steps 100 --json
//   node scripts/bench-browser.mjs --only steps --pause 300   # steps at teaching speed
//   node scripts/bench-browser.mjs --compare   # "Step both" and "Run both" in compare mode (not travel: one run)
// Options: --gemm ID (the GEMM example to run: gemm, 256 × 256, the default, gemm-512, or
//          gemm-512-tiled, the benchmark's kernel that wave-emu runs too),
//          --wave-emu (with gemm-512-tiled: before each page run, time wave-emu 0.1.2 natively
//          on the same kernel through `wave-bench`, taking turns, and report the ratio),
//          --runs N (GEMM runs, default 7), --steps N (measured steps, default 50),
//          --width N (wave width for the steps, default 64), --lesson ID (default break-in-if),
//          --dist DIR (default dist), --build, --json (machine-readable output only),
//          --only gemm|steps|travel|frame (one part only; travel: the GEMM example run, then
//          --goes moves to seeded random steps by "Go to step" and a drag along the timeline;
//          frame: what a frame costs with one text changed, on the page the steps are measured
//          on, --steps frames for each text, see scripts/lib/frame-cost.mjs; not run without
//          --only), --trace FILE (trace the steps, see above; open FILE
//          in DevTools' Performance panel), --pause MS (wait MS before each step, default 0: as
//          fast as the page answers, like F10 held; the divergence stack animates its frames
//          only when steps come at least 200 ms apart, so --pause 300 measures the steps that
//          animate), --height PX (the window's height, default 900; at 700 the register table
//          is below the machine pane's view on most steps), --input-deferral (see below),
//          --compare (compare mode, run B a copy of run A: the steps are "Step both" by F10 and
//          "Step back both" by Shift+F10, each publishing one `wave:step` per run, and the GEMM
//          part times "Run both" from the click to the later run's end, taking turns with one
//          run of the same kernel in a page of its own),
//          --against DIR (with --only steps: the build in DIR against the one in --dist, their
//          pages taking turns key by key in one browser, each key's main-thread CPU time from a
//          trace; see benchAgainst), --css FILE (with --against: a stylesheet added to the
//          --dist page, to measure a style change without building; --against the same
//          directory then compares the page with and without it).
//
// Chromium's input deferral: after a key press, Chromium holds back the page's ordinary tasks
// until a frame has been drawn ("DeferRendererTasksAfterInput"). The task that ends
// `wave:step-render` is one of them, so on some steps it waits for the frame after the step's
// own: the rendering is long done, the main thread sits idle until the next frame lets the task
// through, and that idle time would be counted as the step's work. So this script starts
// Chromium with that feature off, which changes only when the measuring task runs;
// `--input-deferral` keeps Chromium's default, for comparison.
import { spawnSync } from 'node:child_process';
import { readFile, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from '@playwright/test';
import { serveDist } from './lib/serve-dist.mjs';
import { benchFrame, reportFrame } from './lib/frame-cost.mjs';
import { chromiumLaunchOptions } from './lib/chromium.mjs';
import { median, ms, percentile, percentileOf } from './lib/stats.mjs';
import { startTrace as startCdpTrace } from './lib/trace.mjs';

// Event Timing's smallest threshold: it reports the keys presented this long or more after them.
const EVENT_TIMING_THRESHOLD_MS = 16;

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

// No service worker: the page registers its worker 1.5 s after it has started, and the worker's
// install (it fetches every file of the build) would then share the CPU with the measured work.
const NO_WORKER = 'block';

function parseArgs(argv) {
  const options = { gemm: 'gemm', goes: 30, runs: 7, steps: 50, width: 64, lesson: 'break-in-if', dist: 'dist', build: false, json: false, only: null, trace: null, pause: 0, height: 900, inputDeferral: false, waveEmu: false, compare: false, against: null, css: null };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const value = () => {
      const v = argv[++i];
      if (v === undefined) throw new Error(`${arg} needs a value`);
      return v;
    };
    switch (arg) {
      case '--gemm': options.gemm = value(); break;
      case '--runs': options.runs = Number(value()); break;
      case '--steps': options.steps = Number(value()); break;
      case '--goes': options.goes = Number(value()); break;
      case '--width': options.width = Number(value()); break;
      case '--lesson': options.lesson = value(); break;
      case '--dist': options.dist = value(); break;
      case '--build': options.build = true; break;
      case '--json': options.json = true; break;
      case '--only': options.only = value(); break;
      case '--compare': options.compare = true; break;
      case '--against': options.against = value(); break;
      case '--css': options.css = value(); break;
      case '--trace': options.trace = value(); break;
      case '--pause': options.pause = Number(value()); break;
      case '--height': options.height = Number(value()); break;
      case '--input-deferral': options.inputDeferral = true; break;
      case '--wave-emu': options.waveEmu = true; break;
      case '-h': case '--help':
        console.log('usage: node scripts/bench-browser.mjs [--build] [--gemm gemm|gemm-512|gemm-512-tiled] [--wave-emu] [--runs N] [--steps N] [--goes N] [--width N] [--lesson ID] [--dist DIR] [--json] [--only gemm|steps|travel|frame] [--trace FILE] [--pause MS] [--height PX] [--input-deferral] [--compare] [--against DIR [--css FILE]]');
        process.exit(0);
        break;
      default: throw new Error(`unknown option ${arg}`);
    }
  }
  if (!['gemm', 'gemm-512', 'gemm-512-tiled'].includes(options.gemm)) throw new Error('--gemm takes gemm, gemm-512 or gemm-512-tiled');
  if (options.waveEmu && options.gemm !== 'gemm-512-tiled') throw new Error('--wave-emu needs --gemm gemm-512-tiled (the kernel wave-emu can run)');
  if (options.only !== null && !['gemm', 'steps', 'travel', 'frame'].includes(options.only)) throw new Error('--only takes gemm, steps, travel or frame');
  for (const key of ['goes', 'runs', 'steps', 'width', 'height']) {
    if (!Number.isInteger(options[key]) || options[key] < 1) throw new Error(`--${key} must be a positive integer`);
  }
  if (!Number.isInteger(options.pause) || options.pause < 0) throw new Error('--pause must be a whole number of ms');
  if (options.against !== null && options.only !== 'steps') throw new Error('--against needs --only steps');
  if (options.against !== null && options.pause > 0) throw new Error('--against steps as fast as the pages answer: no --pause');
  if (options.css !== null && options.against === null) throw new Error('--css needs --against');
  if (options.only === 'travel' && options.compare) throw new Error('--only travel measures one run: it takes no --compare');
  if (options.only === 'frame' && (options.trace !== null || options.pause > 0)) throw new Error('--only frame takes neither --trace nor --pause');
  return options;
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

// With --pause: waits until `pause` ms have passed since the page drew the last command (the
// end of the newest `render` measure), the pace of a learner stepping at teaching speed.
async function pace(page, render, pause) {
  if (pause <= 0) return;
  await page.waitForFunction(([name, wait]) => {
    const drawn = performance.getEntriesByName(name).at(-1);
    return !drawn || performance.now() >= drawn.startTime + drawn.duration + wait;
  }, [render, pause], { polling: 'raf' });
}

// wave-emu 0.1.2 natively on the benchmark's tiled GEMM at N = 512 (the page's gemm-512-tiled
// kernel), the run alone as `wave-bench` times it; in ms.
function timeWaveEmu() {
  const args = ['run', '--release', '--offline', '--quiet', '-p', 'wave-bench', '--',
    '--only', 'blocked', '--sizes', '512', '--reps', '1', '--emu-reps', '1', '--no-history'];
  const ran = spawnSync('cargo', args, { cwd: root, encoding: 'utf8' });
  if (ran.status !== 0) throw new Error(`wave-bench failed: ${ran.stderr}`);
  // | case | ours | wave-emu's wave-instructions | wave-emu time | ours time | speed-up | same |
  const row = ran.stdout.split('\n').find((line) => line.startsWith('| blocked 4x4 GEMM N=512 |'));
  const time = row?.split('|')[4]?.trim().match(/^([\d.]+) (s|ms)$/);
  if (!time) throw new Error(`no wave-emu time in wave-bench's output:\n${ran.stdout}`);
  return Number(time[1]) * (time[2] === 's' ? 1000 : 1);
}

async function benchGemm(page, baseUrl, runs, example, waveEmu) {
  await page.goto(baseUrl);
  await page.getByRole('combobox', { name: 'Examples' }).selectOption(example);
  await page.getByRole('status').filter({ hasText: /^ready$/ }).waitFor();
  const results = [];
  const waveEmuMs = [];
  for (let i = 0; i < runs; i++) {
    // Taking turns, so a slow spell of the machine falls on both.
    if (waveEmu) waveEmuMs.push(timeWaveEmu());
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
  return { runs: results, waveEmuMs, pauses: await benchPause(page, runs) };
}

// "Run both" in compare mode (run B a copy of run A's GEMM) against one run of the same kernel,
// taking turns: `single` is a page showing one run, `compared` one comparing two. A "Run both"
// lasts from the earlier run's start to the later run's end.
async function benchRunBoth(single, compared, baseUrl, runs, example) {
  for (const page of [single, compared]) {
    await page.goto(baseUrl);
    await page.getByRole('combobox', { name: 'Examples' }).selectOption(example);
    await page.getByRole('status').filter({ hasText: /^ready$/ }).waitFor();
  }
  await compared.getByRole('button', { name: 'Compare runs' }).click();
  const regionB = compared.getByRole('region', { name: 'Run B', exact: true });
  await regionB.getByRole('status').filter({ hasText: /^ready$/ }).waitFor();
  const toolbar = compared.getByRole('toolbar', { name: 'Both runs' });
  const one = [];
  const both = [];
  for (let i = 0; i < runs; i++) {
    let before = (await entries(single, 'wave:run')).length;
    await single.getByRole('button', { name: 'Run', exact: true }).click();
    await waitForCount(single, 'wave:run', before + 1, 120_000);
    const run = (await entries(single, 'wave:run'))[before];
    if (run.detail.outcome !== 'finished') throw new Error(`GEMM run ${i + 1} ended ${run.detail.outcome}`);
    one.push({ wallMs: run.duration, engineMs: run.detail.engineMs });
    await single.getByRole('button', { name: 'Reset', exact: true }).click();

    before = (await entries(compared, 'wave:run')).length;
    await toolbar.getByRole('button', { name: 'Run both', exact: true }).click();
    await waitForCount(compared, 'wave:run', before + 2, 240_000);
    const pair = (await entries(compared, 'wave:run')).slice(before, before + 2);
    if (pair.some((r) => r.detail.outcome !== 'finished')) throw new Error(`Run both ${i + 1} did not finish both`);
    const start = Math.min(...pair.map((r) => r.start));
    const end = Math.max(...pair.map((r) => r.start + r.duration));
    both.push({ wallMs: end - start, engineMs: pair[0].detail.engineMs + pair[1].detail.engineMs });
    await toolbar.getByRole('button', { name: 'Reset both', exact: true }).click();
    await single.getByRole('status').filter({ hasText: /^ready$/ }).waitFor();
  }
  return { one, both };
}

function reportRunBoth(lines, { one, both }, example) {
  const wall = (xs) => xs.map((r) => r.wallMs);
  const engine = (xs) => xs.map((r) => r.engineMs);
  lines.push(`"Run both" in compare mode, example \`${example}\` in both runs, ${both.length} turns with one run of it in a page of its own:`);
  lines.push('');
  lines.push('| | wall median | wall min–max | engine median |');
  lines.push('|---|---:|---:|---:|');
  lines.push(`| one run (Run) | ${ms(median(wall(one)))} | ${ms(Math.min(...wall(one)))}–${ms(Math.max(...wall(one)))} | ${ms(median(engine(one)))} |`);
  lines.push(`| both runs (Run both) | ${ms(median(wall(both)))} | ${ms(Math.min(...wall(both)))}–${ms(Math.max(...wall(both)))} | ${ms(median(engine(both)))} |`);
  lines.push('');
  lines.push(`By the medians, "Run both" takes ${(median(wall(both)) / median(wall(one))).toFixed(2)}× one run's time.`);
  lines.push('');
}

// Pause while the GEMM runs: from the click (its event time, taken in the page) to the paused
// state shown (the end of the run's `wave:run` measure), beside that run's longest engine slice.
// Run and Pause are one button; both clicks land at its place as a person's would, with no
// waiting for the busy page to be idle first (the busy page is the point). A run that finishes
// before the second click is not counted (if that click started another run, it is let finish).
async function benchPause(page, tries) {
  const button = page.getByRole('button', { name: 'Run', exact: true });
  const pauses = [];
  for (let i = 0; i < tries; i++) {
    const before = (await entries(page, 'wave:run')).length;
    const box = await button.boundingBox();
    if (!box) throw new Error('no Run button to click');
    const [x, y] = [box.x + box.width / 2, box.y + box.height / 2];
    await page.evaluate(() => {
      document.addEventListener('click', (event) => {
        window.__lastClick = { arrived: event.timeStamp, handled: performance.now() };
      }, { capture: true });
    });
    await page.mouse.click(x, y);
    // A short run may end before its running state is seen: then there is nothing to pause.
    const running = page.getByRole('status').filter({ hasText: /^running/ }).waitFor()
      .then(() => true, () => false);
    const ended = waitForCount(page, 'wave:run', before + 1, 120_000).then(() => false);
    const paused = await Promise.race([running, ended]);
    if (paused) await page.mouse.click(x, y);
    await waitForCount(page, 'wave:run', before + 1, 120_000);
    const run = (await entries(page, 'wave:run'))[before];
    if (run.detail.outcome === 'paused') {
      const clicked = await page.evaluate(() => window.__lastClick);
      pauses.push({
        answerMs: run.start + run.duration - clicked.arrived,
        waitedMs: clicked.handled - clicked.arrived,
        longestSliceMs: run.detail.longestSliceMs,
      });
    } else if (await page.getByRole('status').textContent() === 'running…') {
      // The click came after the end and started another run: let it finish.
      await waitForCount(page, 'wave:run', before + 2, 120_000);
    }
    await page.getByRole('button', { name: 'Reset', exact: true }).click();
    await page.getByRole('status').filter({ hasText: /^ready$/ }).waitFor();
  }
  return pauses;
}

// Chromium tracing (CDP `Tracing` domain) of the measured steps, for `--trace FILE`: the raw trace
// goes to FILE (open it in DevTools' Performance panel), and each step's main-thread work is split
// by kind from the trace events' self times.
const TRACE_CATEGORIES = ['toplevel', 'devtools.timeline', 'disabled-by-default-devtools.timeline',
  'v8.execute', 'blink.user_timing', 'v8'];

async function startTrace(page) {
  const cdp = await page.context().newCDPSession(page);
  const stop = await startCdpTrace(cdp, TRACE_CATEGORIES);
  return async () => {
    const events = await stop();
    await cdp.detach();
    return events;
  };
}

// Which kind of work a trace event's self time is.
function kindOf(name) {
  if (/GC|^V8\.GC|BlinkGC/.test(name)) return 'gc';
  if (['UpdateLayoutTree', 'RecalculateStyles', 'ParseAuthorStyleSheet'].includes(name)) return 'style';
  if (['Layout', 'UpdateLayout', 'IntersectionObserverController::computeIntersections'].includes(name)) return 'layout';
  if (['PrePaint', 'Paint', 'PaintImage', 'Layerize', 'UpdateLayer', 'UpdateLayerTree', 'Commit',
    'CompositeLayers', 'RasterTask', 'Decode Image'].includes(name)) return 'paint';
  if (['FunctionCall', 'EvaluateScript', 'EventDispatch', 'RunMicrotasks', 'FireAnimationFrame',
    'TimerFire', 'v8.execute', 'V8.Execute', 'v8.callFunction', 'v8.run', 'V8.ScriptCompiler',
    'v8.compile', 'ProfileCall', 'UserTiming'].includes(name) || name.startsWith('v8.') || name.startsWith('V8.')) return 'script';
  return 'other';
}

// Complete events of one renderer main thread (begin/end pairs joined), in order, each with its
// self time (CPU: its own time less its children's) and its depth (0: a task).
function threadSpans(raw, thread) {
  const open = [];
  const spans = [];
  for (const e of raw) {
    if (`${e.pid}:${e.tid}` !== thread) continue;
    // `tdur`/`tts`: the thread's CPU time, which other processes on the machine inflate far less.
    if (e.ph === 'X' && e.dur !== undefined) spans.push({ name: e.name, ts: e.ts, end: e.ts + e.dur, cpu: e.tdur ?? e.dur });
    else if (e.ph === 'B') open.push(e);
    else if (e.ph === 'E') {
      const b = open.pop();
      if (b) spans.push({ name: b.name, ts: b.ts, end: e.ts, cpu: b.tts !== undefined && e.tts !== undefined ? e.tts - b.tts : e.ts - b.ts });
    }
  }
  spans.sort((a, b) => a.ts - b.ts || b.end - a.end);
  const stack = [];
  for (const s of spans) {
    s.self = s.cpu;
    while (stack.length && stack[stack.length - 1].end <= s.ts) stack.pop();
    if (stack.length) stack[stack.length - 1].self -= s.cpu;
    s.depth = stack.length;
    stack.push(s);
  }
  return spans;
}

// Per measured key (all keydowns after the first `warmup`, in time order): the work of the main
// thread that handled it, from the key's task to the end of the first frame that thread committed
// after it ("frame"), split by kind, and everything that thread did until the next key ("all":
// also later timers, such as the divergence stack removing a frame after its exit animation, and
// the frames those cause). Keys of several pages (`--against`) are each measured on their own
// page's thread.
function analyseTrace(raw, warmup) {
  const threadNames = new Map();
  for (const e of raw) {
    if (e.ph === 'M' && e.name === 'thread_name') threadNames.set(`${e.pid}:${e.tid}`, e.args.name);
  }
  const keydowns = raw.filter((e) => e.name === 'EventDispatch' && e.args?.data?.type === 'keydown')
    .sort((a, b) => a.ts - b.ts);
  if (keydowns.length === 0) throw new Error('the trace has no keydown events');
  const spansOf = new Map();
  const steps = [];
  for (let i = warmup; i < keydowns.length; i++) {
    const main = `${keydowns[i].pid}:${keydowns[i].tid}`;
    if (threadNames.get(main) !== 'CrRendererMain') throw new Error(`keydowns on thread ${threadNames.get(main)}`);
    if (!spansOf.has(main)) spansOf.set(main, threadSpans(raw, main));
    const spans = spansOf.get(main);
    const tasks = spans.filter((s) => s.depth === 0);
    const key = keydowns[i].ts;
    const next = i + 1 < keydowns.length ? keydowns[i + 1].ts : Infinity;
    const keyTask = tasks.find((t) => t.ts <= key && t.end >= key);
    const from = keyTask ? keyTask.ts : key;
    const commit = spans.find((s) => s.name === 'Commit' && s.ts > key && s.ts < next);
    const frameEnd = commit ? commit.end : null;
    const sum = (until) => {
      const kinds = { script: 0, gc: 0, style: 0, layout: 0, paint: 0, other: 0 };
      let busy = 0;
      let cpu = 0;
      for (const t of tasks) {
        if (t.ts >= from && t.ts < until) {
          busy += t.end - t.ts;
          cpu += t.cpu;
        }
      }
      for (const s of spans) {
        if (s.ts >= from && s.ts < until) kinds[kindOf(s.name)] += Math.max(0, s.self);
      }
      const ms = {};
      for (const [k, v] of Object.entries(kinds)) ms[k] = v / 1000;
      return { busy: busy / 1000, cpu: cpu / 1000, ...ms };
    };
    steps.push({
      thread: main,
      frame: frameEnd === null ? null : { span: (frameEnd - from) / 1000, ...sum(frameEnd) },
      all: sum(Math.min(next, spans.length ? spans[spans.length - 1].end + 1 : next)),
    });
  }
  return steps;
}

// Opens the page on the lesson with `width` lanes and the Memory tab open; in compare mode with
// run B a copy of run A (lesson, launch) and its Memory tab open too, so that the keys move both.
// Returns how many `wave:step` measures a key makes.
async function openSteps(page, baseUrl, { width, lesson, compare }) {
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
  // Compare mode: run B starts as a copy of run A (lesson, launch), and the keys move both.
  const perKey = compare ? 2 : 1;
  if (compare) {
    await page.getByRole('button', { name: 'Compare runs' }).click();
    const b = page.getByRole('region', { name: 'Run B', exact: true });
    await b.getByRole('status').filter({ hasText: /^ready$/ }).waitFor();
    await b.getByRole('tab', { name: 'Memory' }).click();
    const lanesB = await b.getByRole('group', { name: 'Lanes' }).getByRole('button').count();
    if (lanesB !== width) throw new Error(`expected ${width} lanes in run B, the page shows ${lanesB}`);
  }
  return perKey;
}

// The page the steps are measured on, as they leave it (the Step button focused, which scrolls
// the page back to the runs), and what one frame costs there with one text changed.
async function benchFramePage(page, baseUrl, options) {
  await openSteps(page, baseUrl, options);
  await page.getByRole('button', { name: 'Step', exact: true }).first().focus();
  return benchFrame(page, options.steps);
}

async function benchSteps(page, baseUrl, { steps, width, lesson, trace, pause, compare }) {
  const perKey = await openSteps(page, baseUrl, { width, lesson, compare });
  // The Event Timing API times each F10 keydown: `processingEnd - processingStart` is the key
  // handler plus the microtasks it queued (the command and Leptos updating the DOM), and
  // `duration` runs from the key to the next frame presented (8 ms granularity; entries under
  // 16 ms are not reported, so a missing entry means a fast one).
  await page.evaluate((threshold) => {
    window.__stepKeys = [];
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) {
        if (e.name === 'keydown') window.__stepKeys.push({ start: e.startTime, processing: e.processingEnd - e.processingStart, duration: e.duration });
      }
    }).observe({ type: 'event', durationThreshold: threshold });
  }, EVENT_TIMING_THRESHOLD_MS);
  // Steps come from the keyboard (F10), like a user's, and nothing polls the page meanwhile.
  await page.getByRole('button', { name: 'Step', exact: true }).first().focus();
  const warmup = 5;
  const stopTrace = trace ? await startTrace(page) : null;
  let maxDepth = 0;
  for (let i = 0; i < warmup + steps; i++) {
    await pace(page, 'wave:step-render', pause);
    await page.keyboard.press('F10');
    await waitForCount(page, 'wave:step', (i + 1) * perKey, 10_000);
    await waitForCount(page, 'wave:step-render', (i + 1) * perKey, 10_000);
    maxDepth = Math.max(maxDepth, await page.evaluate(() =>
      document.querySelectorAll('[aria-label="Divergence stack"] > [role=listitem]').length));
  }
  // Then "Step back" as many times, from the keyboard (Shift+F10).
  const back = [];
  for (let i = 0; i < steps; i++) {
    await pace(page, i === 0 ? 'wave:step-render' : 'wave:step-back-render', pause);
    await page.keyboard.press('Shift+F10');
    await waitForCount(page, 'wave:step-back', (i + 1) * perKey, 10_000);
    await waitForCount(page, 'wave:step-back-render', (i + 1) * perKey, 10_000);
  }
  const backEntries = await entries(page, 'wave:step-back');
  const backRenderEntries = await entries(page, 'wave:step-back-render');
  const backDom = backEntries.map((e) => e.duration);
  const backRender = backRenderEntries.map((e) => e.duration);
  back.push(...backDom.map((d, i) => d + backRender[i]));
  let traced = null;
  if (stopTrace) {
    const raw = await stopTrace();
    await writeFile(trace, JSON.stringify({ traceEvents: raw }));
    traced = analyseTrace(raw, warmup);
  }
  const stepEntries = (await entries(page, 'wave:step')).slice(warmup * perKey);
  const dom = stepEntries.map((e) => e.duration);
  const renderEntries = (await entries(page, 'wave:step-render')).slice(warmup * perKey);
  const render = renderEntries.map((e) => e.duration);
  const status = await page.getByRole('status').first().textContent();
  const allKeys = await page.evaluate(() => window.__stepKeys);
  const keys = reportedKeys(stepEntries, allKeys, -Infinity);
  const { work, workSteps } = keyWork(keys, renderEntries, steps);
  // The same for the Shift+F10 keys of "Step back".
  const backKeys = reportedKeys(backEntries, allKeys, stepEntries.at(-1)?.start ?? -Infinity);
  const { work: backWork, workSteps: backWorkSteps } = keyWork(backKeys, backRenderEntries, steps);
  return {
    pressed: steps, backDom, backRender, back, backWork, backWorkSteps, backKeys: backKeys.length,
    dom, render, total: dom.map((d, i) => d + render[i]), maxDepth, status,
    handler: keys.map((k) => k.processing), presented: keys.map((k) => k.duration), work, workSteps, traced,
  };
}

// Each measured step's key: the last keydown Event Timing reported at or before the step began,
// when it came after the step before (which began after `after`). A key it left out, being fast,
// leaves its step without one; in compare mode a key's second step (run B's) finds the key
// already taken by the first.
function reportedKeys(stepEntries, allKeys, after) {
  return stepEntries.flatMap((step, i) => {
    const key = allKeys.filter((k) => k.start <= step.start + 0.5).at(-1);
    const before = i > 0 ? stepEntries[i - 1].start : after;
    return key && key.start > before ? [key] : [];
  });
}

// The work each key causes: its handler and DOM update, then style, layout and paint of the first
// frame after it. `workSteps`: how many of the `pressed` keys that work is a percentile over,
// every key but those reported whose frame was not found (the others, left out by Event Timing,
// count as fast).
function keyWork(keys, renderEntries, pressed) {
  const work = keys.flatMap((k) => {
    const frame = renderEntries.find((r) => r.start >= k.start);
    return frame ? [k.processing + frame.duration] : [];
  });
  return { work, workSteps: pressed - (keys.length - work.length) };
}

// `--against DIR`: the steps of two builds, key by key in one browser. The page of `--dist` (with
// `--css FILE` added to it, to try a style change without a build) and the page of DIR take
// turns, each key going to one page and waiting until that page has drawn it, the order
// alternating each round; one Chromium trace covers every key and gives each key's main-thread
// CPU time, split by kind, on its own page's thread. Taking turns key by key lets a busy spell of
// a shared machine fall on both builds alike, and the same step of the same kernel is compared
// with itself (key i of one page with key i of the other).
async function benchAgainst(browser, options) {
  const builds = [
    { label: options.css ? `${options.dist} + ${options.css}` : options.dist, dir: options.dist, css: options.css },
    { label: options.against, dir: options.against, css: null },
  ];
  const errors = [];
  try {
    for (const build of builds) {
      const served = await serveDist(path.resolve(root, build.dir));
      build.server = served.server;
      const context = await browser.newContext({ viewport: { width: 1400, height: options.height }, serviceWorkers: NO_WORKER });
      await context.addInitScript(() => localStorage.setItem('wave-playground.questions', 'off'));
      build.page = await context.newPage();
      build.page.on('pageerror', (e) => errors.push(`${build.label}: ${e.message}`));
      build.perKey = await openSteps(build.page, served.url, options);
      if (build.css) await build.page.addStyleTag({ content: await readFile(build.css, 'utf8') });
      await build.page.getByRole('button', { name: 'Step', exact: true }).first().focus();
      build.keys = 0;
    }
    const press = async (build) => {
      build.keys += 1;
      await build.page.keyboard.press('F10');
      await waitForCount(build.page, 'wave:step-render', build.keys * build.perKey, 10_000);
      build.order?.push(builds.indexOf(build));
    };
    const warmup = 5;
    for (const build of builds) {
      for (let i = 0; i < warmup; i++) await press(build);
    }
    const order = [];
    for (const build of builds) build.order = order;
    const stopTrace = await startTrace(builds[0].page);
    for (let i = 0; i < options.steps; i++) {
      for (const build of i % 2 === 0 ? builds : [...builds].reverse()) await press(build);
    }
    const raw = await stopTrace();
    if (options.trace) await writeFile(options.trace, JSON.stringify({ traceEvents: raw }));
    const keys = analyseTrace(raw, 0);
    if (errors.length) throw new Error(`page errors: ${errors.join('; ')}`);
    if (keys.length !== order.length) throw new Error(`the trace has ${keys.length} keys, ${order.length} were pressed`);
    return builds.map((build, b) => ({
      label: build.label,
      keys: keys.filter((_, i) => order[i] === b).map((k) => k.frame),
    }));
  } finally {
    for (const build of builds) build.server?.close();
  }
}

function reportAgainst(lines, options, [dist, against]) {
  const mode = options.compare ? '"Step both"' : 'Step';
  lines.push(`${mode} with ${options.width} lanes (lesson \`${options.lesson}\`, Memory tab open, window height ${options.height}), ${options.steps} keys per build after 5 warm-up keys, the builds taking turns key by key; main-thread CPU time per key from the key's task to the end of the first frame committed after it (Chromium trace; tracing itself slows the page):`);
  lines.push('');
  lines.push(`A: ${dist.label}  `);
  lines.push(`B: ${against.label}`);
  lines.push('');
  lines.push('| per key | A median | A p95 | B median | B p95 | A − B, same step: median |');
  lines.push('|---|---:|---:|---:|---:|---:|');
  const fields = [['cpu', 'main thread CPU time'], ['script', '  script'], ['style', '  style'], ['layout', '  layout'],
    ['paint', '  pre-paint, paint, layerize, commit'], ['gc', '  garbage collection'], ['other', '  other']];
  const pairs = dist.keys.map((k, i) => [k, against.keys[i]]).filter(([a, b]) => a && b);
  for (const [key, label] of fields) {
    const a = dist.keys.filter(Boolean).map((k) => k[key]);
    const b = against.keys.filter(Boolean).map((k) => k[key]);
    const diff = pairs.map(([x, y]) => x[key] - y[key]);
    lines.push(`| ${label} | ${ms(median(a))} | ${ms(percentile(a, 95))} | ${ms(median(b))} | ${ms(percentile(b, 95))} | ${ms(median(diff))} |`);
  }
  lines.push('');
  lines.push(`Keys with a committed frame: A ${dist.keys.filter(Boolean).length}, B ${against.keys.filter(Boolean).length} of ${options.steps}; the load average when done: ${os.loadavg().map((l) => l.toFixed(1)).join(', ')}.`);
  lines.push('');
}

// A seeded generator (the same steps on every run of the script).
function seeded(seed) {
  let x = BigInt(seed);
  return () => {
    x = (x + 0x9e3779b97f4a7c15n) & 0xffffffffffffffffn;
    let z = x;
    z = ((z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n) & 0xffffffffffffffffn;
    z = ((z ^ (z >> 27n)) * 0x94d049bb133111ebn) & 0xffffffffffffffffn;
    return Number((z ^ (z >> 31n)) >> 11n) / 2 ** 53;
  };
}

// The GEMM example run to its end, then `goes` moves to random steps typed into "Go to step"
// (each timed by `wave:go-to` + `wave:go-to-render`), then a drag along the whole timeline: how
// many frames the page paints while it follows the pointer.
async function benchTravel(page, baseUrl, { goes }) {
  await page.goto(baseUrl);
  await page.getByRole('combobox', { name: 'Examples' }).selectOption('gemm');
  await page.getByRole('status').filter({ hasText: /^ready$/ }).waitFor();
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await waitForCount(page, 'wave:run', 1, 120_000);
  const end = Number((await page.getByText(/^step \d+$/).textContent()).replace('step ', ''));
  const input = page.getByRole('spinbutton', { name: 'Go to step' });
  const random = seeded(0x7157);
  const targets = Array.from({ length: goes }, () => Math.floor(random() * (end + 1)));
  for (let i = 0; i < targets.length; i++) {
    await input.fill(String(targets[i]));
    await input.press('Enter');
    await waitForCount(page, 'wave:go-to', i + 1, 10_000);
    await waitForCount(page, 'wave:go-to-render', i + 1, 10_000);
    const shown = await page.getByText(/^step \d+$/).textContent();
    if (shown !== `step ${targets[i]}`) throw new Error(`went to ${targets[i]}, the page shows ${shown}`);
  }
  const dom = (await entries(page, 'wave:go-to')).map((e) => e.duration);
  const render = (await entries(page, 'wave:go-to-render')).map((e) => e.duration);
  // Drag from one end of the timeline to the other in 120 pointer moves, each sent once the page
  // has painted the frame after the last one (a hand on a mouse sends one a frame).
  const track = page.getByRole('slider', { name: 'Timeline' });
  const box = await track.boundingBox();
  const y = box.y + box.height / 2;
  await page.mouse.move(box.x + 1, y);
  await page.mouse.down();
  const started = await page.evaluate(() => performance.now());
  const moves = 120;
  for (let i = 1; i <= moves; i++) {
    await page.mouse.move(box.x + 1 + ((box.width - 2) * i) / moves, y);
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
  }
  await page.mouse.up();
  const ended = await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => resolve(performance.now()))));
  const frames = await page.evaluate(([a, b]) => window.__bench.frames.filter((t) => t >= a && t <= b).length, [started, ended]);
  const goTos = (await entries(page, 'wave:go-to')).length - targets.length;
  return {
    end, dom, render, total: dom.map((d, i) => d + render[i]),
    scrub: { ms: ended - started, frames, fps: (frames * 1000) / (ended - started), goTos },
  };
}

function reportTravel(lines, travel) {
  lines.push(`Moving through the GEMM example's run (${travel.end} steps) after it finished:`);
  lines.push('');
  lines.push('| per move to a random step ("Go to step") | median | p95 | max |');
  lines.push('|---|---:|---:|---:|');
  const row = (label, xs) => lines.push(`| ${label} | ${ms(median(xs))} | ${ms(percentile(xs, 95))} | ${ms(Math.max(...xs))} |`);
  row('command → DOM updated (`wave:go-to`)', travel.dom);
  row('style + layout + paint (`wave:go-to-render`)', travel.render);
  row('both', travel.total);
  lines.push('');
  const s = travel.scrub;
  lines.push(`Dragging along the whole timeline (120 pointer moves, one a frame): ${s.goTos} moves to a step in ${s.ms.toFixed(0)} ms (${((s.goTos * 1000) / s.ms).toFixed(1)} per second), ${s.frames} frames painted (${s.fps.toFixed(1)} frames per second).`);
  lines.push('');
}

function reportGemm(lines, { runs: gemm, waveEmuMs, pauses }, example) {
  const cold = gemm[0];
  const warm = gemm.length > 1 ? gemm.slice(1) : gemm;
  const size = example === 'gemm' ? '256×256' : '512×512';
  lines.push(`GEMM example \`${example}\` (${size}, ${cold.steps} wave-instructions), ${gemm.length} runs (the first is cold; best and median over the others):`);
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
  if (waveEmuMs.length > 0) {
    const emu = waveEmuMs.length > 1 ? waveEmuMs.slice(1) : waveEmuMs;
    const engine = median(warm.map((r) => r.engineMs));
    lines.push(`wave-emu 0.1.2 natively on the same kernel (\`wave-bench --only blocked --sizes 512\`, the run alone), timed before each page run: median ${ms(median(emu))} (${ms(Math.min(...emu))}–${ms(Math.max(...emu))}) over the same ${emu.length} turns as the warm runs; by the medians the page is ${(median(emu) / engine).toFixed(1)}× faster.`);
    lines.push('');
  }
  lines.push(`Slices per run: ${median(gemm.map((r) => r.slices))} (median); frames painted during a run: ${median(gemm.map((r) => r.framesDuringRun))} (median).`);
  lines.push('');
  if (pauses.length > 0) {
    const answers = pauses.map((p) => p.answerMs);
    const waits = pauses.map((p) => p.waitedMs);
    lines.push(`Pause during a run, ${pauses.length} times: from the click to the page handling it (the engine stops there) median ${ms(median(waits))}, longest ${ms(Math.max(...waits))}; to the paused views shown median ${ms(median(answers))}, longest ${ms(Math.max(...answers))}. Those runs' longest engine slices: ${pauses.map((p) => ms(p.longestSliceMs)).join(', ')}.`);
  } else {
    lines.push('Pause: every run finished before the click reached it.');
  }
  lines.push('');
}

function reportSteps(lines, options, step) {
  const pace = options.pause > 0 ? `a step every ${options.pause} ms or more` : 'each step as soon as the last is drawn';
  const deferral = options.inputDeferral ? "Chromium's input deferral on" : "Chromium's input deferral off";
  const what = options.compare ? `"Step both" in compare mode (run B a copy of run A; the per-step rows count each run's update)` : 'Step';
  lines.push(`${what} with ${options.width} lanes (lesson \`${options.lesson}\`, workgroup ${options.width}, Memory tab open, window height ${options.height}, ${deferral}), ${step.pressed} keys after 5 warm-up keys (${pace}), deepest stack ${step.maxDepth}:`);
  lines.push('');
  lines.push('| per step | median | p95 | max |');
  lines.push('|---|---:|---:|---:|');
  const stepRow = (label, xs) => {
    if (xs.length > 0) lines.push(`| ${label} | ${ms(median(xs))} | ${ms(percentile(xs, 95))} | ${ms(Math.max(...xs))} |`);
  };
  // Over every step: a key Event Timing left out was presented within 16 ms, so its work was
  // shorter; a percentile that falls among those keys is only known to be under 16 ms.
  const workRow = (label, xs, total) => {
    const at = (p) => {
      const value = percentileOf(xs, total, p, EVENT_TIMING_THRESHOLD_MS);
      return value === null ? `< ${EVENT_TIMING_THRESHOLD_MS} ms` : ms(value);
    };
    lines.push(`| ${label} | ${at(50)} | ${at(95)} | ${ms(Math.max(...xs))} |`);
  };
  stepRow('command → DOM updated (`wave:step`)', step.dom);
  stepRow('style + layout + paint (`wave:step-render`)', step.render);
  stepRow('both', step.total);
  if (step.handler.length > 0) {
    stepRow('key handler + DOM update (Event Timing processing)', step.handler);
    if (step.work.length > 0) workRow('work: handler + DOM update + style, layout, paint', step.work, step.workSteps);
    stepRow('key → frame presented (Event Timing duration, 8 ms steps)', step.presented);
  }
  stepRow('Step back: command → DOM updated (`wave:step-back`)', step.backDom);
  stepRow('Step back: style + layout + paint (`wave:step-back-render`)', step.backRender);
  stepRow('Step back: both', step.back);
  if (step.backWork.length > 0) workRow('Step back: work (handler + DOM update + style, layout, paint)', step.backWork, step.backWorkSteps);
  lines.push('');
  lines.push(`Event Timing reported ${step.backKeys} of ${step.pressed} Step back keys (it leaves out keys presented within ${EVENT_TIMING_THRESHOLD_MS} ms).`);
  lines.push('');
  lines.push('`wave:step` ends at the first task or frame after the DOM update, so it includes waiting for');
  lines.push('one; the "work" row is what must fit in a frame.');
  if (step.handler.length < step.pressed) {
    lines.push(`Event Timing reported ${step.handler.length} of ${step.pressed} keys (it leaves out keys presented within ${EVENT_TIMING_THRESHOLD_MS} ms).`);
  }
  if (step.traced) {
    const frames = step.traced.filter((s) => s.frame);
    lines.push('');
    lines.push(`From the Chromium trace (${options.trace}; tracing itself slows the page), main-thread time per step, from the key's task to the end of the first frame committed after it (${frames.length} of ${step.traced.length} steps had such a frame), and everything until the next key. Wall-clock rows grow a lot when other processes take the CPU, the CPU-time rows (the thread's own time, split by kind) much less:`);
    lines.push('');
    lines.push('| per step (trace) | median | p95 | max |');
    lines.push('|---|---:|---:|---:|');
    const fields = [['span', 'key task start → frame committed (wall)'], ['busy', 'main thread busy until then (wall)'],
      ['cpu', 'main thread CPU time until then'], ['script', '  script (handler, Leptos, wasm)'], ['gc', '  garbage collection'], ['style', '  style'],
      ['layout', '  layout'], ['paint', '  pre-paint, paint, layerize, commit'], ['other', '  other']];
    for (const [key, label] of fields) stepRow(label, frames.map((s) => s.frame[key]));
    stepRow('main thread CPU time until the next key (all)', step.traced.map((s) => s.all.cpu));
  }
}

function report(options, chromiumVersion, gemm, step, travel, runBoth, against, frame) {
  const lines = [];
  const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
  lines.push(`Headless Chromium ${chromiumVersion}, ${os.cpus().length} cores (${cpu}), ${new Date().toISOString().slice(0, 10)}`);
  lines.push('');
  if (gemm) reportGemm(lines, gemm, options.gemm);
  if (runBoth) reportRunBoth(lines, runBoth, options.gemm);
  if (step) reportSteps(lines, options, step);
  if (against) reportAgainst(lines, options, against);
  if (travel) reportTravel(lines, travel);
  if (frame) reportFrame(lines, options, frame);
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
  const { server, url } = await serveDist(dist);
  const browser = await chromium.launch(chromiumLaunchOptions(
    // See "Chromium's input deferral" at the top.
    options.inputDeferral ? [] : ['--disable-features=DeferRendererTasksAfterInput']));
  try {
    const context = await browser.newContext({ viewport: { width: 1400, height: options.height }, serviceWorkers: NO_WORKER });
    await context.addInitScript(instrument);
    // The lessons' questions would stop the measured steps: the "Questions" switch starts off.
    // (The step's caption and data-movement picture are built either way.)
    await context.addInitScript(() => localStorage.setItem('wave-playground.questions', 'off'));
    const problems = [];
    const watchedPage = async () => {
      const opened = await context.newPage();
      opened.on('pageerror', (e) => problems.push(e.message));
      return opened;
    };
    const page = await watchedPage();
    const part = (name) => options.only === null || options.only === name;
    const gemm = part('gemm') && !options.compare ? await benchGemm(page, url, options.runs, options.gemm, options.waveEmu) : null;
    const runBoth = part('gemm') && options.compare
      ? await benchRunBoth(page, await watchedPage(), url, options.runs, options.gemm)
      : null;
    const against = options.against ? await benchAgainst(browser, options) : null;
    const step = part('steps') && !against ? await benchSteps(page, url, options) : null;
    // Travel measures one run; with --compare the session the other parts leave is comparing.
    const travel = part('travel') && !options.compare ? await benchTravel(page, url, options) : null;
    const frame = options.only === 'frame' ? await benchFramePage(page, url, options) : null;
    if (problems.length) throw new Error(`page errors: ${problems.join('; ')}`);
    if (options.json) {
      console.log(JSON.stringify({ chromium: browser.version(), options, gemm, step, travel, runBoth, against, frame }, null, 2));
    } else {
      console.log(report(options, browser.version(), gemm, step, travel, runBoth, against, frame));
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
