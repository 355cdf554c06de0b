// The page before the app has started: it says it is loading, a link opened then lands at its
// moment, and a download that fails is explained with a way to try again, never a blank page.
import { test as plain, expect as plainExpect } from '@playwright/test';
import { test, expect, holdWasm } from './fixtures.mjs';

test.use({ questions: 'off' });

test('while the app arrives the page says it is loading, then the playground takes its place', async ({ page }) => {
  const release = await holdWasm(page);
  await page.goto('/');
  await expect(page.getByRole('status')).toHaveText('Loading WAVE Playground…');
  release();
  await expect(page.getByRole('textbox', { name: 'Kernel source' })).toBeVisible();
  await expect(page.getByText('Loading WAVE Playground…')).toHaveCount(0);
});

test('a share link opened while the app arrives lands at its moment', async ({ page, browser }) => {
  await page.goto('/');
  await page.getByRole('combobox', { name: 'Examples' }).selectOption('nested-if');
  for (let i = 0; i < 5; i++) await page.getByRole('button', { name: 'Step', exact: true }).click();
  await expect(page.locator('.step-count')).toHaveText('step 5');
  await page.getByRole('button', { name: 'Copy link' }).click();
  await expect(page).toHaveURL(/#v1\./);
  const link = page.url();

  // A visitor new to the page: nothing cached yet.
  const visitor = await browser.newContext();
  const other = await visitor.newPage();
  const release = await holdWasm(other);
  await other.goto(link);
  await expect(other.getByRole('status')).toHaveText('Loading WAVE Playground…');
  release();
  await expect(other.locator('.step-count')).toHaveText('step 5');
  await expect(other.getByRole('status')).toHaveText(/^paused at line \d+$/);
  await visitor.close();
});

// Without the fixture: a failed download is a page error by design here.
plain('a download that fails says so, with a Reload button that tries again', async ({ page }) => {
  await page.route('**/*_bg.wasm', (route) => route.abort('connectionreset'));
  await page.goto('/');
  const alert = page.getByRole('alert');
  await plainExpect(alert).toContainText('WAVE Playground did not load');
  await plainExpect(page.getByText('Loading WAVE Playground…')).toHaveCount(0);
  await page.unroute('**/*_bg.wasm');
  await alert.getByRole('button', { name: 'Reload' }).click();
  await plainExpect(page.getByRole('textbox', { name: 'Kernel source' })).toBeVisible();
  await plainExpect(page.getByRole('alert')).toHaveCount(0);
});
