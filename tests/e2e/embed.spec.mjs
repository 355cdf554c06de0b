// Embedding: "Copy embed code" gives an <iframe> whose page is compact, steps, leaves the
// visitor's autosave alone, and opens the full page at the same moment; `&readonly` keeps the
// kernel as it is.
import { test, expect, editorText, kernelEditor } from './fixtures.mjs';

const stepCount = (page) => page.getByText(/^step \d+$/);

// The src of the iframe that "Copy embed code" put on the clipboard, after three steps of the
// if/else lesson.
async function embedSource(page, context) {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.goto('/');
  await page.getByRole('combobox', { name: 'Examples' }).selectOption('if-else');
  for (let i = 1; i <= 3; i++) {
    await page.keyboard.press('F10');
    await expect(stepCount(page)).toHaveText(`step ${i}`);
  }
  await page.getByRole('button', { name: 'Copy embed code' }).click();
  await expect(page.getByText('Embed code copied')).toBeVisible();
  const code = await page.evaluate(() => navigator.clipboard.readText());
  expect(code).toMatch(/^<iframe src="[^"]+" title="WAVE Playground: If \/ else divergence"[^>]*><\/iframe>$/);
  return page.evaluate((html) => new DOMParser().parseFromString(html, 'text/html')
    .querySelector('iframe').getAttribute('src'), code);
}

test('an embedded page is compact, steps and opens the full page at its moment', async ({ page, context, browser }) => {
  const src = await embedSource(page, context);
  expect(src).toMatch(/#v1\.[^&]+&embed$/);

  // A visitor who has never been to the playground.
  const visitor = await browser.newContext();
  const embedded = await visitor.newPage();
  await embedded.goto(src);
  await expect(stepCount(embedded)).toHaveText('step 3');
  await expect(embedded.getByRole('link', { name: 'Open in WAVE Playground' })).toBeVisible();
  await expect(embedded.getByRole('combobox', { name: 'Examples' })).toHaveCount(0);
  await expect(embedded.getByRole('region', { name: 'Details' })).toHaveCount(0);
  await expect(embedded.getByRole('group', { name: 'Lanes' })).toBeVisible();
  // The lesson's first question is asked in the embed too.
  await embedded.keyboard.press('F10');
  await expect(embedded.getByRole('region', { name: 'Question' })).toContainText('Which lanes will be active');
  await embedded.getByRole('button', { name: 'Skip question' }).click();
  await expect(stepCount(embedded)).toHaveText('step 4');

  // The full page opens in a new tab at the same moment, without the embed flag.
  const [full] = await Promise.all([
    embedded.waitForEvent('popup'),
    embedded.getByRole('link', { name: 'Open in WAVE Playground' }).click(),
  ]);
  await expect(stepCount(full)).toHaveText('step 4');
  expect(new URL(full.url()).hash).toMatch(/^#v1\.[^&]+$/);
  await expect(full.getByRole('combobox', { name: 'Examples' })).toHaveValue('if-else');
  await visitor.close();
});

test('an embedded page keeps no autosave, not even when its page goes away', async ({ page, context, browser }) => {
  const src = await embedSource(page, context);
  // A visitor who has never been to the playground steps the embed on, then leaves it. (The
  // full page is not opened here: it autosaves, as it should, in the same browser.)
  const visitor = await browser.newContext();
  const embedded = await visitor.newPage();
  await embedded.goto(src);
  await expect(stepCount(embedded)).toHaveText('step 3');
  await embedded.keyboard.press('F10');
  await embedded.getByRole('button', { name: 'Skip question' }).click();
  await expect(stepCount(embedded)).toHaveText('step 4');

  // The visitor's own playground (no link) shows the default kernel: the embed saved nothing.
  await embedded.goto(new URL('/', src).href);
  await expect(kernelEditor(embedded)).toContainText('.kernel parity');
  await expect(stepCount(embedded)).toHaveText('step 0');
  await visitor.close();
});

test('a read-only embed keeps its kernel as it is', async ({ page, context }) => {
  const src = await embedSource(page, context);
  // A new page: the same document would take the new hash without loading again.
  page = await context.newPage();
  await page.goto(`${src}&readonly`);
  await expect(stepCount(page)).toHaveText('step 3');
  const editor = kernelEditor(page);
  await expect(editor).toHaveAttribute('aria-readonly', 'true');
  const before = await editorText(page);
  await editor.click();
  await page.keyboard.type('garbage ');
  expect(await editorText(page)).toBe(before);
  // Running still works (with the lesson's questions turned off).
  await page.getByRole('switch', { name: 'Questions' }).click();
  await expect(page.getByRole('switch', { name: 'Questions' })).toHaveAttribute('aria-checked', 'false');
  await page.keyboard.press('F5');
  await expect(page.getByRole('status')).toHaveText(/^finished/);
});

test('an embed link that cannot be opened says so and shows the default kernel', async ({ page }) => {
  await page.goto('/#v1.not-a-real-link&embed');
  await expect(page.getByRole('alert')).toContainText('Could not open the embedded kernel');
  await expect(kernelEditor(page)).toContainText('.kernel parity');
});
