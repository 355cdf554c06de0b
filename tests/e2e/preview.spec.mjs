// The page before its wasm has arrived: index.html's preview shows the kernel the app is about to
// open and its lesson's explanation where the app will show them, the machine pane says it is
// loading, and when the app starts it takes the preview's place.
import { deflateRawSync } from 'node:zlib';
import { test as plain, expect as plainExpect } from '@playwright/test';
import {
  test, expect, autosaved, editorText, expectEditorText, holdEditor, holdWasm, kernelEditor,
} from './fixtures.mjs';

// The wasm is held back by routing its request, which a service worker's cache would bypass.
test.use({ questions: 'off', serviceWorkers: 'block' });

// The preview's parts, by what they are called.
const previewKernel = (page) => page.getByLabel('Kernel source, shown while the playground loads');
const kernelPane = (page) => page.getByRole('region', { name: 'Kernel' });
const machinePane = (page) => page.getByRole('region', { name: 'Machine' });
const loadingNote = (page) => page.getByRole('status');
// The preview script marks the page once it has shown the preview, or decided not to.
const previewDecided = (page, how) => expect(page.locator('html')).toHaveAttribute('data-preview', how);
// And once it has opened the editor, before the app has started.
const editorOpened = (page) => expect(page.locator('html')).toHaveAttribute('data-preview-editor', 'open');

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
  await editorOpened(other);
  expect(await editorText(other)).toBe(kernel);
  await expect(kernelPane(other).getByText(IF_ELSE_PROSE)).toBeVisible();
  // The lesson's title, over its explanation and in the list of lessons.
  await expect(kernelPane(other).getByText('If / else divergence', { exact: true })).toHaveCount(2);
  await expect(kernelPane(other).getByRole('list').getByText('Nested if', { exact: true })).toBeVisible();
  await expect(machinePane(other).getByRole('status')).toHaveText('Loading WAVE Playground…');
  // The editor is the one thing in the preview that takes the focus.
  await other.keyboard.press('Tab');
  await expect(kernelEditor(other)).toBeFocused();
  // The app takes this very editor over rather than making another.
  await other.evaluate(() => { document.querySelector('.cm-editor').dataset.openedEarly = 'yes'; });

  release();
  await expect(other.getByText('Loading WAVE Playground…')).toHaveCount(0);
  await expect(other.getByRole('button', { name: 'Run', exact: true })).toBeEnabled();
  await expect(kernelEditor(other)).toHaveCount(1);
  await expect(other.locator('.cm-editor')).toHaveAttribute('data-opened-early', 'yes');
  await expect(kernelEditor(other)).toBeFocused();
  await expect(kernelPane(other)).toHaveCount(1);
  await expect(other.getByText(IF_ELSE_PROSE)).toHaveCount(1);
  expect(await editorText(other)).toBe(kernel);
  expect(errors).toEqual([]);
  await visitor.close();
});

test('what is done in the editor before the app starts is the app\'s when it does', async ({ page }) => {
  const release = await holdWasm(page);
  await page.goto('/');
  await editorOpened(page);
  const before = await editorText(page);
  await kernelEditor(page).click();
  await page.keyboard.press('Control+End');
  await page.keyboard.type('\n; written while the app was loading');
  // A breakpoint shows at once; toggled twice, a line is as it was.
  await page.getByRole('button', { name: 'Toggle breakpoint on line 6', exact: true }).click();
  await expect(page.getByRole('button', { name: 'Toggle breakpoint on line 6', exact: true }))
    .toHaveAttribute('aria-pressed', 'true');
  await page.getByRole('button', { name: 'Toggle breakpoint on line 7', exact: true }).click();
  await page.getByRole('button', { name: 'Toggle breakpoint on line 7', exact: true }).click();
  await expect(page.getByRole('button', { name: 'Toggle breakpoint on line 7', exact: true }))
    .toHaveAttribute('aria-pressed', 'false');
  await expect(loadingNote(page)).toHaveText('Loading WAVE Playground…');
  const typed = (await kernelEditor(page).locator('.cm-line').allTextContents()).join('\n');
  expect(typed).toMatch(/\n\s*; written while the app was loading$/);
  expect(typed.startsWith(before)).toBe(true);
  // The preview's footer counts the lines as they are edited.
  await expect(page.getByText(/^\d+ lines?$/)).toHaveText(`${typed.split('\n').length} lines`);

  release();
  await expect(page.getByText('Loading WAVE Playground…')).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Run', exact: true })).toBeEnabled();
  await expect(page.getByText(/^\d+ lines?$/)).toHaveText(`${typed.split('\n').length} lines`);
  expect(await editorText(page)).toBe(typed);
  await expect(kernelEditor(page)).toBeFocused();
  // The app took the edit as an edit (it recompiles and autosaves it) and the breakpoint as set.
  await expect.poll(async () => (await autosaved(page))?.source).toBe(typed);
  await expect(page.getByRole('button', { name: 'Toggle breakpoint on line 6', exact: true }))
    .toHaveAttribute('aria-pressed', 'true');
  await expect(page.getByRole('button', { name: 'Toggle breakpoint on line 7', exact: true }))
    .toHaveAttribute('aria-pressed', 'false');
});

test('a kernel scrolled before the app starts stays where it was scrolled to', async ({ page, browser }) => {
  // A kernel longer than the editor: the GEMM example's, from its share link.
  await page.goto('/');
  await page.getByRole('combobox', { name: 'Examples' }).selectOption('gemm');
  await page.getByRole('button', { name: 'Copy link' }).click();
  await expect(page).toHaveURL(/#v1\./);
  const link = page.url();

  const visitor = await browser.newContext({ serviceWorkers: 'block' });
  const other = await visitor.newPage();
  const release = await holdWasm(other);
  await other.goto(link);
  await editorOpened(other);
  const scroller = other.locator('.cm-scroller');
  await kernelEditor(other).hover();
  await other.mouse.wheel(0, 400);
  await expect.poll(() => scroller.evaluate((el) => el.scrollTop)).toBeGreaterThan(100);
  const scrolled = await scroller.evaluate((el) => el.scrollTop);
  // The first line on show, as the reader sees it.
  const firstShown = await scroller.evaluate((el) => {
    const top = el.getBoundingClientRect().top;
    return [...el.querySelectorAll('.cm-line')].find((line) => line.getBoundingClientRect().bottom > top + 1)?.textContent;
  });

  release();
  await expect(other.getByRole('button', { name: 'Run', exact: true })).toBeEnabled();
  await expect.poll(() => scroller.evaluate((el) => el.scrollTop)).toBe(scrolled);
  expect(await scroller.evaluate((el) => {
    const top = el.getBoundingClientRect().top;
    return [...el.querySelectorAll('.cm-line')].find((line) => line.getBoundingClientRect().bottom > top + 1)?.textContent;
  })).toBe(firstShown);
  await visitor.close();
});

test('when the app opens other work than the preview showed, edits made before are one undo away', async ({ page }) => {
  // A link the preview reads (its kernel text is all it needs) but the app refuses, lacking the
  // rest of a link's fields: the app opens the default kernel instead and says why.
  const link = `/#v1.${deflateRawSync(Buffer.from(JSON.stringify({ source: '; only a kernel\n.kernel k\n    halt\n.end' })))
    .toString('base64url')}`;
  const release = await holdWasm(page);
  await page.goto(link);
  await editorOpened(page);
  await expect(kernelEditor(page)).toContainText('; only a kernel');
  await kernelEditor(page).click();
  await page.keyboard.press('Control+End');
  await page.keyboard.type('\n; edited before the app');
  release();
  await expect(page.getByRole('alert')).toContainText('Could not open the link');
  await expect(page.getByRole('button', { name: 'Run', exact: true })).toBeEnabled();
  await expect(kernelEditor(page)).toContainText('; One wave of eight lanes: even lanes take the `if` side,');
  await expect(kernelEditor(page)).not.toContainText('; edited before the app');
  await kernelEditor(page).focus();
  await page.keyboard.press('Control+z');
  await expect(kernelEditor(page)).toContainText('; edited before the app');
  await expect(kernelEditor(page)).toContainText('; only a kernel');
});

test('until the editor\'s module arrives the kernel shows as a listing that takes no focus', async ({ page }) => {
  const releaseEditor = await holdEditor(page);
  const releaseWasm = await holdWasm(page);
  // The page's load event waits for the editor's module, which is held.
  await page.goto('/', { waitUntil: 'commit' });
  await previewDecided(page, 'shown');
  await expect(previewKernel(page)).toContainText('; One wave of eight lanes: even lanes take the `if` side,');
  await page.keyboard.press('Tab');
  expect(await page.evaluate(() => document.activeElement === document.body)).toBe(true);
  await previewKernel(page).click({ force: true });
  await expect(kernelEditor(page)).toHaveCount(0);

  releaseEditor();
  await editorOpened(page);
  await expect(previewKernel(page)).toHaveCount(0);
  await expect(kernelEditor(page)).toContainText('; One wave of eight lanes: even lanes take the `if` side,');
  await expect(loadingNote(page)).toHaveText('Loading WAVE Playground…');
  releaseWasm();
  await expect(page.getByText('Loading WAVE Playground…')).toHaveCount(0);
  await expect(kernelEditor(page)).toHaveCount(1);
});

test('with no link the preview shows the autosaved work, else the default kernel', async ({ page }) => {
  // The first visit: the default kernel, which no lesson explains.
  let release = await holdWasm(page);
  await page.goto('/');
  await editorOpened(page);
  await expect(kernelEditor(page)).toContainText('; One wave of eight lanes: even lanes take the `if` side,');
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
  await editorOpened(page);
  await expectEditorText(page, kernel);
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
  await editorOpened(page);
  await expect(kernelEditor(page)).toContainText('; One wave of eight lanes: even lanes take the `if` side,');
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
plain('a download that fails before the editor opens takes the preview away with the loading note', async ({ page }) => {
  const releaseEditor = await holdEditor(page);
  await page.route('**/*_bg.wasm', (route) => route.abort('connectionreset'));
  await page.goto('/', { waitUntil: 'commit' });
  await plainExpect(page.getByRole('alert')).toContainText('WAVE Playground did not load');
  await plainExpect(previewKernel(page)).toHaveCount(0);
  await plainExpect(page.getByRole('region', { name: 'Kernel' })).toHaveCount(0);
  // The editor's module, arriving after that, opens nothing: once it has been evaluated (an
  // import of it resolves after the preview's, which was asked for first) and a frame has passed.
  releaseEditor();
  await page.evaluate(async () => {
    await import(document.querySelector('link[rel="modulepreload"][href$="/target/editor/wave-editor.js"]').href);
    await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
  });
  await plainExpect(page.locator('.cm-editor')).toHaveCount(0);
  await plainExpect(page.getByRole('alert').getByRole('button', { name: 'Reload' })).toBeVisible();
});

plain('a download that fails after the editor opened keeps the kernel and its edits, with Reload', async ({ page }) => {
  let fail;
  const failing = new Promise((resolve) => { fail = resolve; });
  await page.route('**/*_bg.wasm', async (route) => {
    await failing;
    await route.abort('connectionreset');
  });
  await page.goto('/');
  await editorOpened(page);
  const editor = page.getByRole('textbox', { name: 'Kernel source' });
  await editor.click();
  await page.keyboard.press('Control+End');
  await page.keyboard.type('\n; an edit to keep');
  fail();
  const alert = machinePane(page).getByRole('alert');
  await plainExpect(alert).toContainText('WAVE Playground did not load');
  await plainExpect(alert).toContainText('The kernel stays in the editor');
  await plainExpect(page.getByText('Loading WAVE Playground…')).toHaveCount(0);
  await plainExpect(editor.locator('.cm-line').last()).toContainText('; an edit to keep');
  await page.unroute('**/*_bg.wasm');
  await alert.getByRole('button', { name: 'Reload' }).click();
  await plainExpect(page.getByRole('button', { name: 'Run', exact: true })).toBeEnabled();
  await plainExpect(page.getByRole('alert')).toHaveCount(0);
});
