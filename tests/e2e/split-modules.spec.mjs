// The parts of the page that arrive on first use (Help, the Export menu's downloads, opening a
// file, the lesson pack reader, Be the warp, the Memory, Statistics and Launch configuration
// tabs): when one does not arrive (a dropped network, or a page left open across a new
// deployment whose files are gone), the page says what could not be done and goes on working,
// and the next try fetches the part again.
//
// Without the fixture's `page`: the failed fetch is written to the console by design here. The
// service worker is kept out, so that the routes below see every request the page makes.
import { readFile } from 'node:fs/promises';
import { test, expect } from '@playwright/test';

test.use({ serviceWorkers: 'block' });

/** Makes every request for the split module `name` fail until the returned function is called. */
async function dropModule(page, name) {
  const files = `**/split_${name}-*.wasm`;
  let asked = 0;
  await page.route(files, (route) => {
    asked += 1;
    return route.abort('internetdisconnected');
  });
  return {
    asked: () => asked,
    restore: () => page.unroute(files),
  };
}

/** Opens the playground with its questions off; gives the list the page's errors go to. */
async function openPlayground(page) {
  await page.addInitScript(() => localStorage.setItem('wave-playground.questions', 'off'));
  const errors = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await page.goto('/');
  await expect(page.getByRole('textbox', { name: 'Kernel source' })).toBeVisible();
  return errors;
}

/** Step still moves the run on, and the count shows it. */
async function expectStepWorks(page) {
  const count = page.locator('.step-count');
  const before = parseInt((await count.textContent()).replace(/\D/g, '') || '0', 10);
  await page.getByRole('button', { name: 'Step', exact: true }).click();
  await expect(count).toHaveText(`step ${before + 1}`);
}

test('Help that does not arrive is reported, the page goes on, and Help opens on the next try', async ({ page }) => {
  const errors = await openPlayground(page);
  const help = await dropModule(page, 'help');

  await page.getByRole('button', { name: 'Help' }).click();
  const alert = page.getByRole('alert');
  await expect(alert).toContainText('Help could not be loaded');
  await expect(alert).toContainText('reload the page');
  await expect(page.getByRole('dialog', { name: 'Keyboard shortcuts' })).toHaveCount(0);
  expect(help.asked()).toBeGreaterThan(0);
  await expectStepWorks(page);

  await help.restore();
  await page.getByRole('button', { name: 'Help' }).click();
  const dialog = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
  await expect(dialog).toBeVisible();
  // The alert that said Help had not arrived goes with it.
  await expect(page.getByRole('alert')).toHaveCount(0);
  await dialog.getByRole('button', { name: 'Close' }).click();
  await expect(dialog).toBeHidden();
  await expectStepWorks(page);
  // A failed module is an alert, never a panic that stops the page's wasm.
  expect(errors).toEqual([]);
});

test('a download whose part does not arrive is reported, and the next try downloads', async ({ page }) => {
  const errors = await openPlayground(page);
  await expectStepWorks(page);
  const exports = await dropModule(page, 'export');

  const menu = page.getByRole('button', { name: 'Export', exact: true });
  await menu.click();
  await page.getByRole('button', { name: 'Download SVG' }).click();
  await expect(page.getByRole('alert')).toContainText('The SVG picture could not be downloaded');
  expect(exports.asked()).toBeGreaterThan(0);
  await expectStepWorks(page);

  await exports.restore();
  await menu.click();
  const [file] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Download SVG' }).click(),
  ]);
  expect(file.suggestedFilename()).toMatch(/^wave-.+-step-2\.svg$/);
  await expect(page.getByRole('alert')).toHaveCount(0);
  expect(errors).toEqual([]);
});

test('a timeline picture whose part does not arrive is reported, and the next try saves it', async ({ page }) => {
  const errors = await openPlayground(page);
  await expectStepWorks(page);
  await expectStepWorks(page);
  const exports = await dropModule(page, 'export');

  await page.getByRole('button', { name: 'Timeline picture…' }).click();
  const form = page.getByRole('form', { name: 'Timeline picture' });
  const save = form.getByRole('button', { name: 'Download timeline SVG' });
  await save.click();
  await expect(page.getByRole('alert').filter({ hasText: 'could not be downloaded' }))
    .toContainText('The timeline picture could not be downloaded');
  expect(exports.asked()).toBeGreaterThan(0);
  await expectStepWorks(page);

  await exports.restore();
  const [file] = await Promise.all([page.waitForEvent('download'), save.click()]);
  expect(file.suggestedFilename()).toMatch(/^wave-.+-timeline-\d+-\d+\.svg$/);
  await expect(page.getByRole('alert')).toHaveCount(0);
  expect(errors).toEqual([]);
});

test('Be the warp whose part does not arrive is reported and switched off, and comes on the next try', async ({ page }) => {
  const errors = await openPlayground(page);
  const warp = await dropModule(page, 'warp');
  const toggle = page.getByRole('switch', { name: 'Be the warp' });
  const panel = page.getByRole('region', { name: 'Be the warp' });

  await toggle.click();
  await expect(page.getByRole('alert')).toContainText('Be the warp could not be loaded');
  // Off again: no run stops for answers that no panel can take.
  await expect(toggle).toHaveAttribute('aria-checked', 'false');
  await expect(panel).toHaveCount(0);
  expect(warp.asked()).toBeGreaterThan(0);
  await expectStepWorks(page);

  await warp.restore();
  await toggle.click();
  await expect(toggle).toHaveAttribute('aria-checked', 'true');
  await expect(panel).toBeVisible();
  await expect(page.getByRole('alert')).toHaveCount(0);
  expect(errors).toEqual([]);
});

test('a file opened while its part does not arrive is reported, and opens on the next try', async ({ page }) => {
  const errors = await openPlayground(page);
  const source = page.getByRole('textbox', { name: 'Kernel source' });
  const before = await source.textContent();
  const opening = await dropModule(page, 'open_file');
  const file = { name: 'mine.wave', mimeType: 'text/plain', buffer: Buffer.from('.kernel mine\n  halt\n') };
  const open = async () => {
    const [chooser] = await Promise.all([
      page.waitForEvent('filechooser'),
      page.getByRole('button', { name: 'Open file…' }).click(),
    ]);
    await chooser.setFiles(file);
  };

  await open();
  await expect(page.getByRole('alert')).toContainText('mine.wave could not be opened');
  expect(opening.asked()).toBeGreaterThan(0);
  // The work on show stays as it was.
  await expect(source).toHaveText(before);
  await expectStepWorks(page);

  await opening.restore();
  await open();
  await expect(source).toContainText('.kernel mine');
  await expect(page.getByRole('alert')).toHaveCount(0);
  expect(errors).toEqual([]);
});

/** Counts the page's requests for the split module `name` from now on. */
function countRequests(page, name) {
  let count = 0;
  const file = new RegExp(`/split_${name}-[0-9a-f]+\\.wasm$`);
  page.on('request', (request) => {
    if (file.test(new URL(request.url()).pathname)) count += 1;
  });
  return () => count;
}

const PANELS_NOT_LOADED = 'The Memory, Statistics and Launch configuration tabs could not be loaded';

test('a details tab whose part does not arrive says so, and "Try again" opens it', async ({ page }) => {
  const errors = await openPlayground(page);
  const details = await dropModule(page, 'details');
  const tab = page.getByRole('tab', { name: 'Memory' });
  const panel = page.getByRole('tabpanel', { name: 'Memory' });

  await tab.click();
  await expect(page.getByRole('alert')).toContainText(PANELS_NOT_LOADED);
  await expect(panel).toContainText(`${PANELS_NOT_LOADED}.`);
  await expect(panel.getByRole('textbox', { name: 'Jump to address' })).toHaveCount(0);
  expect(details.asked()).toBeGreaterThan(0);
  await expectStepWorks(page);

  await details.restore();
  const fetched = countRequests(page, 'details');
  await panel.getByRole('button', { name: 'Try again' }).click();
  await expect(panel.getByRole('textbox', { name: 'Jump to address' })).toBeVisible();
  await expect(panel.getByText(PANELS_NOT_LOADED)).toBeHidden();
  await expect(page.getByRole('alert')).toHaveCount(0);
  // The button went with the failure: the keyboard is on the panel's tab, not lost.
  await expect(tab).toBeFocused();
  // The other tabs' panels came with the same part: nothing more is fetched for them.
  await page.getByRole('tab', { name: 'Launch configuration' }).click();
  await expect(page.getByRole('tabpanel', { name: 'Launch configuration' }).getByRole('textbox', { name: 'Wave width' }))
    .toBeVisible();
  expect(fetched()).toBe(1);
  await expectStepWorks(page);
  expect(errors).toEqual([]);
});

test('a details tab that could not be loaded opens by itself once another tab has loaded', async ({ page }) => {
  const errors = await openPlayground(page);
  const details = await dropModule(page, 'details');
  const memory = page.getByRole('tabpanel', { name: 'Memory' });

  await page.getByRole('tab', { name: 'Memory' }).click();
  await expect(memory).toContainText(`${PANELS_NOT_LOADED}.`);

  await details.restore();
  await page.getByRole('tab', { name: 'Statistics' }).click();
  await expect(page.getByRole('tabpanel', { name: 'Statistics' }).getByText('Run time is the time spent executing'))
    .toBeVisible();
  await expect(page.getByRole('alert')).toHaveCount(0);
  await page.getByRole('tab', { name: 'Memory' }).click();
  await expect(memory.getByRole('textbox', { name: 'Jump to address' })).toBeVisible();
  await expect(memory.getByText(PANELS_NOT_LOADED)).toBeHidden();
  expect(errors).toEqual([]);
});

test('a details tab says it is loading while its part is on its way', async ({ page }) => {
  const errors = await openPlayground(page);
  let release;
  const held = new Promise((resolve) => { release = resolve; });
  let asked = 0;
  await page.route('**/split_details-*.wasm', async (route) => {
    asked += 1;
    await held;
    await route.continue();
  });
  const panel = page.getByRole('tabpanel', { name: 'Statistics' });

  try {
    await page.getByRole('tab', { name: 'Statistics' }).click();
    await expect(panel.getByRole('status').filter({ hasText: 'Loading…' })).toBeVisible();
    expect(asked).toBe(1);
  } finally {
    release();
  }
  await expect(panel.getByText('Run time is the time spent executing')).toBeVisible();
  await expect(panel.getByText('Loading…')).toBeHidden();
  expect(errors).toEqual([]);
});

const tiny = new URL('./packs/tiny.md', import.meta.url);

test('the first screen and the built-in lessons fetch no pack reader', async ({ page }) => {
  await page.addInitScript(() => localStorage.setItem('wave-playground.questions', 'off'));
  const fetched = [];
  page.on('request', (request) => fetched.push(new URL(request.url()).pathname));
  await page.goto('/');
  await expect(page.getByRole('textbox', { name: 'Kernel source' })).toBeVisible();
  // A built-in lesson, its explanation and its launch form: read at development time.
  await page.getByRole('combobox', { name: 'Examples' }).selectOption('nested-if');
  await expect(page.locator('.lesson-prose')).toContainText('The inner if splits only the lanes');
  await expect(page.getByRole('navigation', { name: 'Lessons' }).getByRole('button', { name: /Nested if/ }))
    .toHaveAttribute('aria-current', 'step');
  await expectStepWorks(page);
  expect(fetched.some((path) => /split_[a-z_]+-[0-9a-f]+\.wasm$/.test(path)), fetched.join('\n')).toBe(false);
});

test('a lesson pack opened while its reader does not arrive is reported, and opens on the next try', async ({ page }) => {
  const errors = await openPlayground(page);
  const source = page.getByRole('textbox', { name: 'Kernel source' });
  const before = await source.textContent();
  const reader = await dropModule(page, 'pack');
  const file = { name: 'tiny.md', mimeType: 'text/markdown', buffer: await readFile(tiny) };
  const open = async () => {
    const [chooser] = await Promise.all([
      page.waitForEvent('filechooser'),
      page.getByRole('button', { name: 'Open file…' }).click(),
    ]);
    await chooser.setFiles(file);
  };
  const lessons = page.getByRole('navigation', { name: 'Lessons' });

  await open();
  await expect(page.getByRole('alert')).toContainText('tiny.md could not be opened');
  expect(reader.asked()).toBeGreaterThan(0);
  // The work on show stays as it was, and no pack is open.
  await expect(source).toHaveText(before);
  await expect(lessons.getByRole('heading', { name: 'Tiny course' })).toHaveCount(0);
  await expectStepWorks(page);

  await reader.restore();
  await open();
  await expect(page.getByText('Opened the lesson pack “Tiny course” (2 lessons)')).toBeVisible();
  await expect(lessons.getByRole('heading', { name: 'Tiny course' })).toBeVisible();
  await expect(source).toContainText('.kernel every_lane');
  await expect(page.getByRole('alert')).toHaveCount(0);
  await expectStepWorks(page);
  expect(errors).toEqual([]);
});

// scripts/test.sh serves tests/e2e/packs/ at e2e-packs/ beside the page.
test('a #pack= link whose reader does not arrive keeps the work, and opens the pack on a reload', async ({ page }) => {
  await page.addInitScript(() => localStorage.setItem('wave-playground.questions', 'off'));
  const errors = [];
  page.on('pageerror', (error) => errors.push(error.message));
  const reader = await dropModule(page, 'pack');
  await page.goto('/#pack=e2e-packs/tiny.md');
  await expect(page.getByRole('alert')).toContainText('The lesson pack at e2e-packs/tiny.md could not be opened');
  expect(reader.asked()).toBeGreaterThan(0);
  const lessons = page.getByRole('navigation', { name: 'Lessons' });
  await expect(lessons).toHaveCount(0);
  await expectStepWorks(page);

  await reader.restore();
  await page.reload();
  await expect(lessons.getByRole('heading', { name: 'Tiny course' })).toBeVisible();
  await expect(page.getByRole('textbox', { name: 'Kernel source' })).toContainText('.kernel every_lane');
  await expect(page.getByRole('alert')).toHaveCount(0);
  expect(errors).toEqual([]);
});
