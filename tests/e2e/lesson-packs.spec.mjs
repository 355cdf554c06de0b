// Lesson packs, as a teacher hands them out: a Markdown file opened with "Open file…" or dropped
// on the page, a #pack=<url> link, or a link carrying a small pack whole. The pack's lessons are
// listed under "Lessons" with ticks and scores that survive a reload; a malformed pack names its
// line and keeps the work; a hostile pack's prose does nothing.
import { readFile } from 'node:fs/promises';
import { test, expect, kernelEditor } from './fixtures.mjs';

// Requests are routed here, not by the offline cache's service worker.
test.use({ questions: 'off', serviceWorkers: 'block' });

const tiny = new URL('./packs/tiny.md', import.meta.url);
const hostile = new URL('./packs/hostile.md', import.meta.url);
const lessons = (page) => page.getByRole('navigation', { name: 'Lessons' });
const status = (page) => page.getByRole('status');

async function openWithChooser(page, name, buffer) {
  const [chooser] = await Promise.all([
    page.waitForEvent('filechooser'),
    page.getByRole('button', { name: 'Open file…' }).click(),
  ]);
  await chooser.setFiles({ name, mimeType: 'text/markdown', buffer });
}

async function drop(page, name, buffer) {
  const transfer = await page.evaluateHandle(({ name, content }) => {
    const data = new DataTransfer();
    data.items.add(new File([new Uint8Array(content)], name));
    return data;
  }, { name, content: [...buffer] });
  const main = page.getByRole('main');
  await main.dispatchEvent('dragover', { dataTransfer: transfer });
  await main.dispatchEvent('drop', { dataTransfer: transfer });
}

test('a pack opened from a file lists its lessons; Next lesson walks them; progress survives a reload', async ({ page }) => {
  await page.goto('/');
  await openWithChooser(page, 'tiny.md', await readFile(tiny));
  await expect(page.getByText('Opened the lesson pack “Tiny course” (2 lessons)')).toBeVisible();
  await expect(lessons(page).getByRole('heading', { name: 'Tiny course' })).toBeVisible();
  const first = lessons(page).getByRole('button', { name: /Every lane writes/ });
  await expect(first).toHaveAttribute('aria-current', 'step');
  await expect(kernelEditor(page)).toContainText('.kernel every_lane');
  await expect(page.getByRole('link', { name: 'the WAVE guide' })).toHaveAttribute('href', 'https://example.org/wave');

  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await expect(status(page)).toHaveText(/^finished after/);
  await expect(first).toHaveAccessibleName(/Every lane writes \(done\)/);
  await expect(first).toContainText('✓');

  await page.getByRole('button', { name: 'Next lesson' }).click();
  await expect(kernelEditor(page)).toContainText('.kernel half');
  await expect(lessons(page).getByRole('button', { name: /Half the lanes/ })).toHaveAttribute('aria-current', 'step');
  await expect(page.getByText('1 of 2 lessons done')).toBeVisible();

  await page.reload();
  await expect(lessons(page).getByRole('heading', { name: 'Tiny course' })).toBeVisible();
  await expect(lessons(page).getByRole('button', { name: /Every lane writes \(done\)/ })).toBeVisible();
  await expect(lessons(page).getByRole('button', { name: /Half the lanes/ })).toHaveAttribute('aria-current', 'step');
  await expect(kernelEditor(page)).toContainText('.kernel half');
});

test('a dropped pack opens; a malformed one names its line and the work stays', async ({ page }) => {
  await page.goto('/');
  await drop(page, 'broken.md', Buffer.from('# Broken\n\n## No kernel\n\nJust words.\n'));
  await expect(page.getByRole('alert')).toContainText(
    'broken.md is not a lesson pack the playground can open: line 3: the lesson "No kernel" has no ```wave block');
  await expect(lessons(page)).toHaveCount(0);
  await drop(page, 'tiny.md', await readFile(tiny));
  await expect(lessons(page).getByRole('heading', { name: 'Tiny course' })).toBeVisible();
  await expect(kernelEditor(page)).toContainText('.kernel every_lane');
});

// scripts/test.sh serves tests/e2e/packs/ at e2e-packs/ beside the page.
test('#pack= fetches a pack; an address that fails says why', async ({ page }) => {
  const context = page.context();
  await page.goto('/#pack=e2e-packs/tiny.md');
  await expect(lessons(page).getByRole('heading', { name: 'Tiny course' })).toBeVisible();
  await expect(kernelEditor(page)).toContainText('.kernel every_lane');
  // A relative image is read from beside the pack, not from beside the page.
  await expect(page.getByRole('img', { name: 'Four lanes, each writing its id' }))
    .toHaveAttribute('src', new URL('/e2e-packs/lanes.png', page.url()).href);

  // Opening the same link again (a reload) keeps the lesson reached, not the pack's first one.
  await page.getByRole('button', { name: 'Next lesson' }).click();
  await expect(kernelEditor(page)).toContainText('.kernel half');
  await page.reload();
  await expect(lessons(page).getByRole('button', { name: /Half the lanes/ })).toHaveAttribute('aria-current', 'step');
  await expect(kernelEditor(page)).toContainText('.kernel half');

  // The browser logs the 404 itself, so this page is watched for page errors only.
  const other = await context.newPage();
  const problems = [];
  other.on('pageerror', (error) => problems.push(error.message));
  await other.goto('/#pack=e2e-packs/missing.md');
  await expect(other.getByRole('alert')).toContainText(
    'Could not fetch the lesson pack at e2e-packs/missing.md: the server answered HTTP 404');
  await expect(kernelEditor(other)).toContainText('.kernel half');
  expect(problems).toEqual([]);
  await other.close();
});

test('Copy link carries a small pack whole: the link opens it in a fresh browser', async ({ page, browser }) => {
  await page.goto('/');
  await openWithChooser(page, 'tiny.md', await readFile(tiny));
  await page.getByRole('button', { name: 'Next lesson' }).click();
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.getByRole('button', { name: 'Copy link' }).click();
  await expect(page.getByText('Link copied')).toBeVisible();
  const url = page.url();
  expect(url).toMatch(/#v1\./);

  const fresh = await browser.newContext();
  const other = await fresh.newPage();
  await other.goto(url);
  await expect(lessons(other).getByRole('heading', { name: 'Tiny course' })).toBeVisible();
  await expect(lessons(other).getByRole('button', { name: /Half the lanes/ })).toHaveAttribute('aria-current', 'step');
  await expect(kernelEditor(other)).toContainText('.kernel half');
  await fresh.close();
});

test('Download as lesson pack writes a file that opens again to the same lessons', async ({ page }) => {
  await page.goto('/');
  await openWithChooser(page, 'tiny.md', await readFile(tiny));
  await page.getByRole('button', { name: 'Export', exact: true }).click();
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Download as lesson pack' }).click(),
  ]);
  expect(download.suggestedFilename()).toBe('tiny-course.md');
  expect(await readFile(await download.path(), 'utf8')).toBe(await readFile(tiny, 'utf8'));

  // A built-in lesson downloads as its topic's pack, which opens to the same lessons.
  await page.getByRole('button', { name: 'Close pack' }).click();
  await page.getByRole('combobox', { name: 'Examples' }).selectOption('if-else');
  await page.getByRole('button', { name: 'Export', exact: true }).click();
  const [builtin] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Download as lesson pack' }).click(),
  ]);
  expect(builtin.suggestedFilename()).toBe('control-flow.md');
  await openWithChooser(page, 'control-flow.md', await readFile(await builtin.path()));
  await expect(lessons(page).getByRole('heading', { name: 'Control flow' })).toBeVisible();
  await expect(lessons(page).getByRole('listitem')).toHaveCount(9);
});

test('a kernel with input data downloads as a pack that opens with the same data', async ({ page }) => {
  await page.goto('/');
  await page.getByRole('combobox', { name: 'Examples' }).selectOption('gemm');
  await page.getByRole('button', { name: 'Export', exact: true }).click();
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Download as lesson pack' }).click(),
  ]);
  const text = await readFile(await download.path(), 'utf8');
  expect(text).toContain('memory: random f32 at 262144, count 65536, seed 2, low -1, high 1\n');

  // Opened over a lesson without data, the pack's lesson brings both input matrices back.
  await page.getByRole('combobox', { name: 'Examples' }).selectOption('if-else');
  await page.getByRole('tab', { name: 'Launch configuration' }).click();
  await expect(page.getByRole('button', { name: /^Remove region/ })).toHaveCount(0);
  await openWithChooser(page, download.suggestedFilename(), Buffer.from(text));
  await expect(lessons(page).getByRole('listitem')).toHaveCount(1);
  await expect(page.getByRole('button', { name: /^Remove region/ })).toHaveCount(2);
  const seeds = page.getByRole('textbox', { name: 'Seed' });
  await expect(seeds).toHaveCount(2);
  await expect(seeds.nth(0)).toHaveValue('1');
  await expect(seeds.nth(1)).toHaveValue('2');
  await expect(page.getByRole('textbox', { name: 'Count' }).nth(1)).toHaveValue('65536');
  await expect(status(page)).toHaveText('ready');
});

test('a hostile pack runs no script, opens no dialog and goes nowhere', async ({ page }) => {
  let dialogs = 0;
  page.on('dialog', (dialog) => { dialogs += 1; dialog.dismiss(); });
  const requests = [];
  page.on('request', (request) => requests.push(request.url()));
  await page.goto('/');
  const start = page.url();
  await openWithChooser(page, 'hostile.md', await readFile(hostile));
  await expect(lessons(page).getByRole('heading', { name: 'Hostile pack' })).toBeVisible();
  const prose = page.locator('.lesson-prose');
  await expect(prose).toContainText('<script>');
  await expect(prose.locator('script, img, iframe, [onerror]')).toHaveCount(0);
  // The refused links are words, not links.
  await expect(prose.getByRole('link')).toHaveCount(0);
  await prose.click();
  expect(await page.evaluate(() => window.__ran)).toBeUndefined();
  expect(dialogs).toBe(0);
  expect(page.url()).toBe(start);
  expect(requests.filter((url) => url.includes('tracker.invalid'))).toEqual([]);
});
