// The page before its wasm has arrived: index.html's preview shows the kernel the app is about to
// open and its lesson's explanation where the app will show them, the machine pane says it is
// loading, and when the app starts it takes the preview's place.
import { test as plain, expect as plainExpect } from '@playwright/test';
import { test, expect, autosaved, editorText, holdWasm, kernelEditor } from './fixtures.mjs';

// The wasm is held back by routing its request, which a service worker's cache would bypass.
test.use({ questions: 'off', serviceWorkers: 'block' });

// The preview's parts, by what they are called.
const previewKernel = (page) => page.getByLabel('Kernel source, shown while the playground loads');
const kernelPane = (page) => page.getByRole('region', { name: 'Kernel' });
const machinePane = (page) => page.getByRole('region', { name: 'Machine' });
const loadingNote = (page) => page.getByRole('status');
// The preview script marks the page once it has shown the preview, or decided not to.
const previewDecided = (page, how) => expect(page.locator('html')).toHaveAttribute('data-preview', how);

// The lesson's first sentence, as its pack (assets/lessons/control-flow.md) writes it.
const IF_ELSE_PROSE = 'An if splits the wave: lanes 0-2 run the then side while lanes 3-7 wait';

// The if-else lesson's share link and its kernel, made by the app itself.
async function ifElseLink(page) {
  await page.goto('/');
  await page.getByRole('combobox', { name: 'Examples' }).selectOption('if-else');
  const kernel = await editorText(page);
  await page.getByRole('button', { name: 'Copy link' }).click();
  await expect(page).toHaveURL(/#v1\./);
  return { link: page.url(), kernel };
}

test('a share link shows its kernel and its lesson before the wasm arrives, then the app takes over', async ({ page, browser }) => {
  const { link, kernel } = await ifElseLink(page);

  const visitor = await browser.newContext({ serviceWorkers: 'block' });
  const other = await visitor.newPage();
  const errors = [];
  other.on('pageerror', (e) => errors.push(e.message));
  other.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  const release = await holdWasm(other);
  await other.goto(link);
  await previewDecided(other, 'shown');
  await expect(previewKernel(other)).toHaveText(kernel);
  await expect(kernelPane(other).getByText(IF_ELSE_PROSE)).toBeVisible();
  // The lesson's title, over its explanation and in the list of lessons.
  await expect(kernelPane(other).getByText('If / else divergence', { exact: true })).toHaveCount(2);
  await expect(kernelPane(other).getByRole('list').getByText('Nested if', { exact: true })).toBeVisible();
  await expect(machinePane(other).getByRole('status')).toHaveText('Loading WAVE Playground…');
  // Nothing in the preview takes the focus or a click.
  await other.keyboard.press('Tab');
  expect(await other.evaluate(() => document.activeElement === document.body)).toBe(true);
  await previewKernel(other).click({ force: true });
  await kernelPane(other).getByText(IF_ELSE_PROSE).click({ force: true });
  await expect(kernelEditor(other)).toHaveCount(0);

  release();
  await expect(kernelEditor(other)).toBeVisible();
  await expect(previewKernel(other)).toHaveCount(0);
  await expect(other.getByText('Loading WAVE Playground…')).toHaveCount(0);
  await expect(kernelEditor(other)).toHaveCount(1);
  await expect(kernelPane(other)).toHaveCount(1);
  await expect(other.getByText(IF_ELSE_PROSE)).toHaveCount(1);
  expect(await editorText(other)).toBe(kernel);
  expect(errors).toEqual([]);
  await visitor.close();
});

test('with no link the preview shows the autosaved work, else the default kernel', async ({ page }) => {
  // The first visit: the default kernel, which no lesson explains.
  let release = await holdWasm(page);
  await page.goto('/');
  await expect(previewKernel(page)).toContainText('; One wave of eight lanes: even lanes take the `if` side,');
  await expect(kernelPane(page).locator('[data-preview="notes"]')).toHaveCount(0);
  release();
  await expect(kernelEditor(page)).toBeVisible();
  await expect(previewKernel(page)).toHaveCount(0);

  // Work saved in this browser: the lesson picked, then the page opened again.
  await page.getByRole('combobox', { name: 'Examples' }).selectOption('if-else');
  const kernel = await editorText(page);
  await expect.poll(async () => (await autosaved(page))?.example).toBe('if-else');
  await page.unrouteAll();
  release = await holdWasm(page);
  await page.reload();
  await expect(previewKernel(page)).toHaveText(kernel);
  await expect(kernelPane(page).getByText(IF_ELSE_PROSE)).toBeVisible();
  release();
  await expect(kernelEditor(page)).toBeVisible();
  await expect(previewKernel(page)).toHaveCount(0);
});

test('a link the preview cannot read leaves the page to the app, with no error', async ({ page }) => {
  const hashes = ['#v1.not-a-link', '#v1.AAAA', '#v9.AAAA', '#nothing-here'];
  for (const [i, hash] of hashes.entries()) {
    await page.unrouteAll();
    const release = await holdWasm(page);
    // A new document each time (a move to another hash alone would keep the page).
    await page.goto(`/?visit=${i}${hash}`);
    await previewDecided(page, 'none');
    await expect(loadingNote(page)).toHaveText('Loading WAVE Playground…');
    await expect(previewKernel(page)).toHaveCount(0);
    release();
    await expect(page.getByRole('alert')).toContainText('Could not open the link');
    await expect(kernelEditor(page)).toBeVisible();
  }
});

test('a browser without raw-deflate decompression shows the default kernel, and no link', async ({ page }) => {
  await page.addInitScript(() => { delete window.DecompressionStream; });
  let release = await holdWasm(page);
  await page.goto('/');
  await previewDecided(page, 'shown');
  await expect(previewKernel(page)).toContainText('; One wave of eight lanes: even lanes take the `if` side,');
  release();
  await expect(kernelEditor(page)).toBeVisible();
  await page.getByRole('combobox', { name: 'Examples' }).selectOption('nested-if');
  await page.getByRole('button', { name: 'Copy link' }).click();
  await expect(page).toHaveURL(/#v1\./);

  await page.unrouteAll();
  release = await holdWasm(page);
  await page.reload();
  await previewDecided(page, 'none');
  await expect(loadingNote(page)).toHaveText('Loading WAVE Playground…');
  await expect(kernelPane(page)).toHaveCount(0);
  release();
  await expect(kernelEditor(page)).toBeVisible();
  await expect(page.locator('details.example-notes summary')).toContainText('Nested if');
});

// Without the fixture: a failed download is a page error by design here.
plain('a download that fails takes the preview away with the loading note', async ({ page }) => {
  await page.route('**/*_bg.wasm', (route) => route.abort('connectionreset'));
  await page.goto('/');
  await plainExpect(page.getByRole('alert')).toContainText('WAVE Playground did not load');
  await plainExpect(previewKernel(page)).toHaveCount(0);
  await plainExpect(page.getByRole('region', { name: 'Kernel' })).toHaveCount(0);
});
