#!/usr/bin/env node
// Writes scripts/start-functions.txt: the names of the wasm functions a visit runs before the page
// has settled, which scripts/build-split.mjs keeps in the first module (scripts/lib/cold-split.mjs
// moves every other function to the cold module, fetched once the app is running).
//
// It needs a release build made without the cold split, whose main module it maps back to names:
//   WAVE_COLD_SPLIT=0 trunk build --release --offline && node scripts/profile-start.mjs
// (scripts/build-split.mjs keeps that module with its names in target/wasm-split/main-names.wasm).
// Each visit is traced in headless Chromium, which compiles a wasm function when it is first called
// and reports it (`wasm.CompileBaseline`, with the function's index): the functions compiled from
// navigation until the page is interactive, its editor open, and a quiet second after are the
// start's. Visits: the default page, a built-in lesson opened from its share link, the same link in
// compare mode and embedded, each at the window size of the load budget and of a phone.
//
// The names are in the order the start first calls them (the earliest among the visits), which the
// warm-up follows (scripts/lib/warm-up.mjs).
//
// A function the list lacks still works, only later: it is in the cold module, and calling it before
// that module has arrived fetches it at once. So the list need not be exact, but a stale one makes
// the start wait for the cold module; tests/e2e/cold-module.spec.mjs checks, in Chromium, that each
// of these visits starts with the cold module's requests dropped.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import binaryen from 'binaryen';
import { chromium } from '@playwright/test';
import { serveDist } from './lib/serve-dist.mjs';
import { chromiumLaunchOptions } from './lib/chromium.mjs';
import { startVisits, startFunctions } from './lib/start-visits.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const namesWasm = path.join(root, 'target', 'wasm-split', 'main-names.wasm');
const output = path.join(root, 'scripts', 'start-functions.txt');

// The functions' numbers are those of the whole module: a cut build's first module numbers them
// otherwise.
if (readdirSync(path.join(root, 'dist')).some((name) => /^cold-.*\.wasm$/.test(name))) {
  console.error('profile-start: dist/ is a cut build; build it whole first: WAVE_COLD_SPLIT=0 trunk build --release --offline');
  process.exit(1);
}
const module = binaryen.readBinary(readFileSync(namesWasm));
// Names of the module's own functions; an import (which a trace may name too) is no function of
// the first module's to keep.
const nameOf = (index) => {
  const info = binaryen.getFunctionInfo(module.getFunctionByIndex(index));
  return info.module ? null : info.name;
};

const { server, url } = await serveDist(path.join(root, 'dist'));
const browser = await chromium.launch(chromiumLaunchOptions());
try {
  // Each name's earliest place among the visits' first calls, as a fraction of that visit's.
  const earliest = new Map();
  for (const visit of await startVisits(browser, url)) {
    const indices = [...await startFunctions(browser, visit)];
    indices.forEach((index, at) => {
      const name = nameOf(index);
      const place = at / indices.length;
      if (name !== null && !(earliest.get(name) <= place)) earliest.set(name, place);
    });
    console.log(`${visit.name}: ${indices.length} functions`);
  }
  if (earliest.has(undefined)) throw new Error('a compiled function has no name: is dist/ the build of main-names.wasm?');
  const names = [...earliest.keys()].sort((a, b) => earliest.get(a) - earliest.get(b) || (a < b ? -1 : 1));
  writeFileSync(output, names.join('\n') + '\n');
  console.log(`${names.length} functions written to ${path.relative(root, output)}`);
} finally {
  await browser.close();
  server.close();
}
