// The page before its wasm has arrived: index.html's preview shows the kernel the app is about to
// open and its lesson's explanation where the app will show them, the machine pane says it is
// loading, and when the app starts it takes the preview's place. The editor's module comes after
// the app has started: until then the app shows the kernel as a listing, and runs.
import { test as plain, expect as plainExpect } from '@playwright/test';
import {
  test, expect, autosaved, editorText, expectEditorText, holdEditor, holdWasm, kernelEditor,
} from './fixtures.mjs';

// The wasm is held back by routing its request, which a service worker's cache would bypass.
test.use({ questions: 'off', serviceWorkers: 'block' });

// The preview's parts, by what they are called.
const previewKernel = (page) => page.getByLabel('Kernel source, shown while the playground loads');
// The app's listing of the kernel until the editor's module has arrived.
const appListing = (page) => page.getByLabel('Kernel source, shown while the editor loads');
// The listing's text, line by line.
const listingText = async (listing) => (await listing.locator('span').allTextContents()).join('');
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
  expect(await listingText(previewKernel(other))).toBe(kernel);
  await expect(kernelPane(other).getByText(IF_ELSE_PROSE)).toBeVisible();
  // The lesson's title, over its explanation and in the list of lessons.
  await expect(kernelPane(other).getByText('If / else divergence', { exact: true })).toHaveCount(2);
  await expect(kernelPane(other).getByRole('list').getByText('Nested if', { exact: true })).toBeVisible();
  await expect(machinePane(other).getByRole('status')).toHaveText('Loading WAVE Playground…');
  // Nothing in the preview takes the focus.
  await other.keyboard.press('Tab');
  expect(await other.evaluate(() => document.activeElement === document.body)).toBe(true);

  release();
  await expect(other.getByText('Loading WAVE Playground…')).toHaveCount(0);
  await expect(other.getByRole('button', { name: 'Run', exact: true })).toBeEnabled();
  await expect(kernelEditor(other)).toHaveCount(1);
  await expect(previewKernel(other)).toHaveCount(0);
  await expect(kernelPane(other)).toHaveCount(1);
  await expect(other.getByText(IF_ELSE_PROSE)).toHaveCount(1);
  expect(await editorText(other)).toBe(kernel);
  expect(errors).toEqual([]);
  await visitor.close();
});

test('until the editor\'s module arrives the app runs, showing the kernel as a listing; the editor then opens what was opened meanwhile', async ({ page }) => {
  const releaseEditor = await holdEditor(page);
  await page.goto('/', { waitUntil: 'commit' });
  // The app starts without the editor: Run is enabled and the lanes are drawn.
  await expect(page.getByRole('button', { name: 'Run', exact: true })).toBeEnabled();
  await expect(page.getByRole('group', { name: 'Lanes' }).getByRole('button')).toHaveCount(8);
  await expect(appListing(page)).toContainText('; One wave of eight lanes: even lanes take the `if` side,');
  await expect(kernelEditor(page)).toHaveCount(0);
  // The machine steps meanwhile, and another lesson opens into the listing.
  await page.getByRole('button', { name: 'Step', exact: true }).click();
  await expect(page.getByText(/^step \d+$/)).toHaveText('step 1');
  await page.getByRole('combobox', { name: 'Examples' }).selectOption('if-else');
  await expect(appListing(page)).not.toContainText('; One wave of eight lanes');
  const lesson = await listingText(appListing(page));
  // The listing is not a tab stop: Tab from the examples menu goes on to the lesson's controls.
  await page.getByRole('combobox', { name: 'Examples' }).focus();
  for (let i = 0; i < 30; i++) {
    await page.keyboard.press('Tab');
    expect(await appListing(page).evaluate((el) => el.contains(document.activeElement))).toBe(false);
  }
  await page.getByRole('button', { name: 'Step', exact: true }).click();
  await page.getByRole('button', { name: 'Step', exact: true }).click();

  releaseEditor();
  await expect(kernelEditor(page)).toHaveCount(1);
  await expect(appListing(page)).toHaveCount(0);
  expect(await editorText(page)).toBe(lesson);
  // It marks the machine's line, as a step would have: the band lies on that line of text.
  const line = Number((await page.getByRole('status').first().textContent()).match(/line (\d+)/)[1]);
  const top = (locator) => locator.evaluate((el) => Math.round(el.getBoundingClientRect().top));
  await expect.poll(async () => (await top(page.locator('.cm-exec-line'))) - (await top(kernelEditor(page).locator('.cm-line').nth(line - 1))))
    .toBe(0);
  await kernelEditor(page).click();
  await page.keyboard.press('Control+End');
  await page.keyboard.type('\n; typed once the editor came');
  await expect.poll(async () => (await autosaved(page))?.source).toMatch(/; typed once the editor came$/);
});

test('with no link the preview shows the autosaved work, else the default kernel', async ({ page }) => {
  // The first visit: the default kernel, which no lesson explains.
  let release = await holdWasm(page);
  await page.goto('/');
  await previewDecided(page, 'shown');
  await expect(previewKernel(page)).toContainText('; One wave of eight lanes: even lanes take the `if` side,');
  await expect(kernelPane(page).locator('[data-preview="notes"]')).toHaveCount(0);
  await expect(loadingNote(page)).toHaveText('Loading WAVE Playground…');
  release();
  await expect(page.getByText('Loading WAVE Playground…')).toHaveCount(0);

  // Work saved in this browser: the lesson picked, then the page opened again.
  await page.getByRole('combobox', { name: 'Examples' }).selectOption('if-else');
  const kernel = await editorText(page);
  await expect.poll(async () => (await autosaved(page))?.example).toBe('if-else');
  await page.unrouteAll();
  release = await holdWasm(page);
  await page.reload();
  await previewDecided(page, 'shown');
  expect(await listingText(previewKernel(page))).toBe(kernel);
  await expect(kernelPane(page).getByText(IF_ELSE_PROSE)).toBeVisible();
  await expect(loadingNote(page)).toHaveText('Loading WAVE Playground…');
  release();
  await expect(page.getByText('Loading WAVE Playground…')).toHaveCount(0);
  await expectEditorText(page, kernel);
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
  await expect(page.getByText('Loading WAVE Playground…')).toHaveCount(0);
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
plain('a wasm download that fails takes the preview away with the loading note, and offers Reload', async ({ page }) => {
  await page.route('**/*_bg.wasm', (route) => route.abort('connectionreset'));
  await page.goto('/', { waitUntil: 'commit' });
  await plainExpect(page.getByRole('alert')).toContainText('WAVE Playground did not load');
  await plainExpect(previewKernel(page)).toHaveCount(0);
  await plainExpect(page.getByRole('region', { name: 'Kernel' })).toHaveCount(0);
  await plainExpect(page.getByText('Loading WAVE Playground…')).toHaveCount(0);
  await page.unroute('**/*_bg.wasm');
  await page.getByRole('alert').getByRole('button', { name: 'Reload' }).click();
  await plainExpect(page.getByRole('button', { name: 'Run', exact: true })).toBeEnabled();
  await plainExpect(page.getByRole('alert')).toHaveCount(0);
});

plain('an editor module that fails to arrive leaves the kernel as a listing, says so, and the machine runs', async ({ page }) => {
  // Without the fixture: the failed download is a console error by design.
  await page.addInitScript(() => localStorage.setItem('wave-playground.questions', 'off'));
  await page.route('**/target/editor/wave-editor.js', (route) => route.abort('connectionreset'));
  await page.goto('/');
  await plainExpect(page.getByRole('alert')).toContainText('The editor could not start');
  await plainExpect(page.getByRole('alert')).toContainText('your work is autosaved');
  await plainExpect(appListing(page)).toContainText('; One wave of eight lanes: even lanes take the `if` side,');
  await plainExpect(page.getByRole('button', { name: 'Run', exact: true })).toBeEnabled();
  await page.getByRole('button', { name: 'Step', exact: true }).click();
  await plainExpect(page.getByText(/^step \d+$/)).toHaveText('step 1');
  // Loaded again, with the module reachable, the page has its editor.
  await page.unroute('**/target/editor/wave-editor.js');
  await page.reload();
  await plainExpect(kernelEditor(page)).toContainText('; One wave of eight lanes: even lanes take the `if` side,');
  await plainExpect(page.getByRole('alert')).toHaveCount(0);
});
