// Offline: after the first visit the playground loads and works with no network; its web app
// manifest makes it installable; a new build takes over on the next load and the page says so.
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serveDist } from '../../scripts/lib/serve-dist.mjs';
import { test, expect } from './fixtures.mjs';

// The page registers its worker 1.5 s after the app has started (src/components/offline.rs), and
// the worker then fetches every file before it takes over.
const TAKE_OVER_MS = 15_000;
const controlled = (page) => page.evaluate(() => navigator.serviceWorker.controller !== null);

// Counts the workers each load of the page makes, from the page's first script on; gives a
// function that reads the count of the load now shown. A release build's first visit makes the
// warm-up worker, which compiles the start's functions; a load the service worker serves, of a
// build that has started here before, has their code cached and makes none.
async function countWorkers(page) {
  await page.addInitScript(() => {
    const Made = window.Worker;
    window.workersMade = 0;
    window.Worker = function Worker(...args) {
      window.workersMade += 1;
      return new Made(...args);
    };
  });
  return () => page.evaluate(() => window.workersMade);
}

test('after the first visit the page loads and works with no network', async ({ page, context }) => {
  await page.goto('/');
  await expect.poll(() => controlled(page), { message: 'the service worker took over', timeout: TAKE_OVER_MS }).toBe(true);
  await context.setOffline(true);
  await page.reload();
  await expect(page.getByRole('status')).toHaveText('ready');
  await page.getByRole('combobox', { name: 'Examples' }).selectOption('if-else');
  await page.keyboard.press('F10');
  await expect(page.getByText(/^step \d+$/)).toHaveText('step 1');
  await context.setOffline(false);
});

test('offline, a visit the service worker answers opens the editor from its cache', async ({ page, context }) => {
  const workersMade = await countWorkers(page);
  await page.goto('/');
  expect(await workersMade(), 'workers made by a first visit').toBe(1);
  await expect.poll(() => controlled(page), { message: 'the service worker took over', timeout: TAKE_OVER_MS }).toBe(true);
  await context.setOffline(true);
  await page.reload();
  // A page the worker serves has its wasm at once: no preview is drawn before the app, which
  // shows the kernel itself; the editor's module, which the app fetches as it starts, is among
  // the files the worker keeps.
  await expect(page.locator('html')).toHaveAttribute('data-preview', 'none');
  expect(await workersMade(), 'workers made by a load the service worker answers').toBe(0);
  await expect(page.getByRole('status')).toHaveText('ready');
  const editor = page.getByRole('textbox', { name: 'Kernel source' });
  await editor.click();
  await page.keyboard.press('Control+End');
  await page.keyboard.type('\n; typed after a repeat visit');
  await expect(editor).toContainText('; typed after a repeat visit');
  await context.setOffline(false);
});

test('the web app manifest names the app and its icons load', async ({ page }) => {
  await page.goto('/');
  const href = await page.locator('link[rel="manifest"]').getAttribute('href');
  const base = page.url();
  const manifest = await (await page.request.get(new URL(href, base).href)).json();
  expect(manifest.name).toBe('WAVE Playground');
  expect(manifest.start_url).toBe('.');
  expect(manifest.icons.map((icon) => icon.sizes)).toEqual(['192x192', '512x512']);
  for (const icon of manifest.icons) {
    const response = await page.request.get(new URL(icon.src, new URL(href, base)).href);
    expect(response.ok()).toBe(true);
    expect((await response.body()).subarray(1, 4).toString()).toBe('PNG');
  }
});

test('a new build takes over on the next load and the page says so', async ({ page }) => {
  // A copy of the build on a server of its own, so that the test can rebuild it in place.
  const site = mkdtempSync(join(tmpdir(), 'wave-offline-'));
  cpSync('dist', site, { recursive: true });
  const { server, url } = await serveDist(site);
  try {
    const workersMade = await countWorkers(page);
    await page.goto(url);
    await expect.poll(() => controlled(page), { timeout: TAKE_OVER_MS }).toBe(true);
    await expect.poll(() => page.evaluate(() => caches.keys())).toHaveLength(1);
    // The next build: the same worker with another version, as scripts/build-offline.mjs writes it.
    const worker = join(site, 'sw.js');
    writeFileSync(worker, readFileSync(worker, 'utf8')
      .replace(/const VERSION = "[^"]*"/, 'const VERSION = "a-later-build"'));
    const page2 = join(site, 'index.html');
    writeFileSync(page2, readFileSync(page2, 'utf8')
      .replace('<title>WAVE Playground</title>', '<title>WAVE Playground, a later build</title>')
      .replace(/<meta name="wave-build" content="[^"]*">/, '<meta name="wave-build" content="a-later-build">'));
    // The page comes from the cache of the version that served it; the new worker installs.
    await page.reload();
    await expect(page.getByText('A new version of WAVE Playground is installed')).toBeVisible();
    await expect(page).toHaveTitle('WAVE Playground');
    await expect.poll(() => page.evaluate(() => caches.keys())).toEqual(['wave-playground-a-later-build']);
    // The next load is the new build's, page and all. It has not started in this browser, so
    // its wasm may not be compiled yet: the load makes the warm-up worker (and may show the
    // preview). Once it has started, a load makes no worker and shows no preview.
    await page.reload();
    await expect(page).toHaveTitle('WAVE Playground, a later build');
    expect(await workersMade(), 'workers made by the new build\'s first load').toBe(1);
    await expect(page.getByRole('button', { name: 'Run', exact: true })).toBeEnabled();
    await page.reload();
    expect(await workersMade(), 'workers made once the new build has started').toBe(0);
    await expect(page.locator('html')).toHaveAttribute('data-preview', 'none');
    await expect(page.getByRole('button', { name: 'Run', exact: true })).toBeEnabled();
  } finally {
    server.close();
    rmSync(site, { recursive: true, force: true });
  }
});
