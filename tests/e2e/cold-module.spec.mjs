// The app's wasm comes in two modules (scripts/lib/cold-split.mjs): a first one with what the start
// runs, named in scripts/start-functions.txt, and a cold one with the rest, fetched as the app
// starts and compiled once it has drawn. The page must start without the cold module, load it at
// once when a cold function is called before it has arrived, and say plainly when it cannot.
//
// Without the fixture's `page`: the requests these tests drop are written to the console by
// design. The service worker is kept out, so that the routes below see every request.
import { test, expect } from '@playwright/test';
import { settle, startVisits } from '../../scripts/lib/start-visits.mjs';

test.use({ serviceWorkers: 'block' });

const COLD = '**/cold-*.wasm';
const isCold = (url) => /\/cold-[0-9a-f]+\.wasm$/.test(url);
const REGENERATE = 'the start called a function outside scripts/start-functions.txt; make the list '
  + 'again: WAVE_COLD_SPLIT=0 trunk build --release --offline && node scripts/profile-start.mjs, '
  + 'then build again';

/** Records the page's errors and warnings, and whether it reported a missing part. */
function watch(page) {
  const errors = [];
  const warnings = [];
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('console', (message) => { if (message.type() === 'warning') warnings.push(message.text()); });
  return {
    errors,
    warnings,
    partMissing: () => page.evaluate(() => document.body.hasAttribute('data-part-missing')),
  };
}

/** How the cold module was instantiated, by the loader's marks: "background", "at once". */
const coldReady = (page) => page.evaluate(() => performance.getEntriesByName('wave:cold-ready').map((mark) => mark.detail));

async function stepOnce(page, expected) {
  await page.getByRole('button', { name: 'Step', exact: true }).click();
  await expect(page.locator('.step-count')).toHaveText(`step ${expected}`);
}

test('every start the first module is made for runs without the cold module', async ({ browser, baseURL }) => {
  test.setTimeout(180_000);
  for (const visit of await startVisits(browser, baseURL)) {
    const context = await browser.newContext({ viewport: visit.viewport, serviceWorkers: 'block' });
    try {
      const page = await context.newPage();
      let asked = 0;
      await page.route(COLD, (route) => {
        asked += 1;
        return route.abort('internetdisconnected');
      });
      const seen = watch(page);
      await page.goto(visit.url);
      await settle(page);
      expect(seen.errors, `${visit.name}: ${REGENERATE}`).toEqual([]);
      expect(await seen.partMissing(), `${visit.name}: ${REGENERATE}`).toBe(false);
      expect(asked, `${visit.name}: the cold module is asked for as the app starts`).toBe(1);
    } finally {
      await context.close();
    }
  }
});

test('the cold module arrives in the background, and a Step then asks the network for nothing', async ({ page }) => {
  const seen = watch(page);
  let asked = 0;
  page.on('request', (request) => { if (isCold(request.url())) asked += 1; });
  await page.goto('/');
  await settle(page);
  await expect.poll(() => coldReady(page)).toEqual(['background']);
  await stepOnce(page, 1);
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await expect(page.getByRole('status').filter({ hasText: /finished/ }).first()).toBeVisible();
  expect(asked, 'one request for the cold module, the loader\'s').toBe(1);
  expect(await coldReady(page)).toEqual(['background']);
  expect(seen.errors).toEqual([]);
  expect(seen.warnings.filter((text) => text.includes('cold module'))).toEqual([]);
});

test('a cold function called before the cold module has arrived loads it at once', async ({ page }) => {
  const seen = watch(page);
  // The first request (the loader's, in the background) waits until released; the next one (the
  // synchronous request of a cold function called meanwhile) goes through.
  let release;
  const released = new Promise((resolve) => { release = resolve; });
  let asked = 0;
  let answered = 0;
  await page.route(COLD, async (route) => {
    asked += 1;
    if (asked === 1) await released;
    await route.continue();
    answered += 1;
  });
  await page.goto('/');
  await expect(page.getByRole('button', { name: 'Run', exact: true })).toBeEnabled();
  await stepOnce(page, 1);
  expect(asked, 'Step needed the cold module and asked for it again').toBe(2);
  expect(await coldReady(page)).toEqual(['at once']);
  const backgroundDone = page.waitForEvent('requestfinished', (request) => isCold(request.url()));
  release();
  // The background load, arriving after, makes no second instance: the page goes on with the
  // module it has.
  await backgroundDone;
  expect(answered).toBe(2);
  // The loader's promises settle in the tasks after the response's last bytes.
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0))));
  await stepOnce(page, 2);
  expect(await coldReady(page)).toEqual(['at once']);
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await expect(page.getByRole('status').filter({ hasText: /finished/ }).first()).toBeVisible();
  expect(seen.errors).toEqual([]);
  expect(await seen.partMissing()).toBe(false);
});

test('a cold module that does not arrive is reported, and Reload brings the page back', async ({ page }) => {
  const seen = watch(page);
  await page.route(COLD, (route) => route.abort('internetdisconnected'));
  await page.goto('/');
  await expect(page.getByRole('button', { name: 'Run', exact: true })).toBeEnabled();
  await page.getByRole('button', { name: 'Step', exact: true }).click();
  const alert = page.getByRole('alert').filter({ hasText: 'Part of WAVE Playground did not arrive' });
  await expect(alert).toBeVisible();
  await expect(alert).toContainText('Reload to go on');
  expect(seen.errors.length, 'the call that needed the module stopped').toBeGreaterThan(0);

  await page.unroute(COLD);
  await alert.getByRole('button', { name: 'Reload' }).click();
  await expect(page.getByRole('button', { name: 'Run', exact: true })).toBeEnabled();
  await stepOnce(page, 1);
});
