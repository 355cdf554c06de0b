// The visits whose start decides what the first wasm module keeps (scripts/profile-start.mjs) and
// that the test command checks run without the cold module (tests/e2e/cold-module.spec.mjs).
import { startTrace } from './trace.mjs';

const DESKTOP = { width: 1400, height: 900 };
const PHONE = { width: 390, height: 844 };
export const LESSON = 'if-else';

// The visits: the default page, a built-in lesson from its share link, the same in compare mode,
// and embedded; at a desktop's and a phone's window size.
export async function startVisits(browser, url) {
  const context = await browser.newContext({ viewport: DESKTOP, serviceWorkers: 'block' });
  try {
    const page = await context.newPage();
    await page.goto(url);
    await page.getByRole('combobox', { name: 'Examples' }).selectOption(LESSON);
    const lesson = await copyLink(page);
    await page.getByRole('button', { name: 'Compare runs' }).click();
    const compared = await copyLink(page);
    const visits = [];
    for (const [size, viewport] of [['desktop', DESKTOP], ['phone', PHONE]]) {
      visits.push(
        { name: `default page, ${size}`, url, viewport },
        { name: `lesson link, ${size}`, url: url + lesson, viewport },
        { name: `compare link, ${size}`, url: url + compared, viewport, compare: true },
        { name: `embedded lesson, ${size}`, url: `${url}${lesson}&embed`, viewport, embed: true },
      );
    }
    return visits;
  } finally {
    await context.close();
  }
}

async function copyLink(page) {
  const before = await page.evaluate(() => location.hash);
  await page.getByRole('button', { name: 'Copy link', exact: true }).click();
  await page.waitForFunction((old) => location.hash.length > 1 && location.hash !== old, before);
  return page.evaluate(() => location.hash);
}

// Waits until the page has settled after a visit: the machine interactive (Run enabled, lanes
// drawn), the editor open, then what the page defers past its first frame (the register table at
// idle, within 500 ms; the service worker's registration after 1.5 s, which runs the page's code
// even where registering is blocked), and the browser idle twice over.
export async function settle(page) {
  await page.waitForFunction(() => {
    const run = document.querySelector('button.run');
    return run && !run.disabled && document.querySelector('[role="group"][aria-label^="Lanes"] button');
  });
  await page.getByRole('textbox', { name: 'Kernel source' }).first().waitFor();
  await page.evaluate(async () => {
    await new Promise((resolve) => setTimeout(resolve, 2000));
    for (let i = 0; i < 2; i++) await new Promise((resolve) => requestIdleCallback(resolve, { timeout: 1000 }));
  });
}

// The indices of the wasm functions Chromium compiled during a visit, until it settled, in the
// order it compiled them (the order the start first called them).
export async function startFunctions(browser, visit) {
  const context = await browser.newContext({ viewport: visit.viewport, serviceWorkers: 'block' });
  try {
    const page = await context.newPage();
    const stopTrace = await startTrace(await context.newCDPSession(page), ['v8.wasm', 'disabled-by-default-v8.wasm.detailed']);
    await page.goto(visit.url);
    await settle(page);
    const events = await stopTrace();
    const compiled = events.filter((e) => e.name === 'wasm.CompileBaseline' && e.ph === 'X').sort((a, b) => a.ts - b.ts);
    return new Set(compiled.map((e) => e.args.funcIndex));
  } finally {
    await context.close();
  }
}
