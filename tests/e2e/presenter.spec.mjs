// Presenter mode, as a teacher in front of a projector uses it: one button or Alt+P in, Escape
// out; the header and the details go, the code and the lanes grow, stepping goes on as before.
import { test, expect } from './fixtures.mjs';

// Stepping here is about presenting; the lesson's question would stop it.
test.use({ questions: 'off' });

test('presenter mode: in by its button, larger lanes and code, no chrome; Escape leaves', async ({ page }) => {
  await page.goto('/');
  await page.getByRole('combobox', { name: 'Examples' }).selectOption('if-else');
  const lane = page.getByRole('group', { name: 'Lanes' }).getByRole('button').first();
  const laneWidth = async () => (await lane.boundingBox()).width;
  const codeSize = () => page.getByRole('textbox', { name: 'Kernel source' })
    .evaluate((el) => parseFloat(getComputedStyle(el).fontSize));
  const [laneBefore, codeBefore] = [await laneWidth(), await codeSize()];

  await page.getByRole('button', { name: 'Presenter mode' }).click();
  await expect(page.getByRole('banner')).toBeHidden();
  await expect(page.getByRole('region', { name: 'Details' })).toBeHidden();
  await expect(page.getByRole('slider', { name: 'Timeline' })).toBeHidden();
  await expect(page.getByRole('button', { name: 'Leave presenter mode' })).toBeVisible();
  expect(await laneWidth()).toBeGreaterThan(laneBefore * 1.4);
  expect(await codeSize()).toBeGreaterThan(codeBefore * 1.4);
  // Stepping and the caption go on as before.
  await page.keyboard.press('F10');
  await expect(page.getByRole('region', { name: 'Step caption' })).toHaveText(/^mov_sr r0, sr_lane_id at line 5/);

  await page.keyboard.press('Escape');
  await expect(page.getByRole('banner')).toBeVisible();
  await expect(page.getByRole('region', { name: 'Details' })).toBeVisible();
  expect(await laneWidth()).toBeCloseTo(laneBefore, 0);

  // Alt+P goes in and out as well; the exit button leaves too.
  await page.keyboard.press('Alt+KeyP');
  await expect(page.getByRole('banner')).toBeHidden();
  await page.getByRole('button', { name: 'Leave presenter mode' }).click();
  await expect(page.getByRole('banner')).toBeVisible();
});

test('the timeline, hidden in presenter mode while the steps went on, is drawn in full when it shows again', async ({ page }) => {
  await page.goto('/');
  await page.getByRole('combobox', { name: 'Examples' }).selectOption('if-else');
  const timeline = page.locator('section.timeline');
  const bitmapWidth = () => timeline.locator('canvas').evaluate((c) => c.width);
  await expect.poll(bitmapWidth).toBeGreaterThan(100);

  await page.getByRole('button', { name: 'Presenter mode' }).click();
  await expect(page.getByRole('slider', { name: 'Timeline' })).toBeHidden();
  for (let i = 1; i <= 3; i++) {
    await page.keyboard.press('F10');
    await expect(page.locator('.step-count')).toHaveText(`step ${i}`);
  }
  // Hidden, it catches up once the steps pause; a picture drawn then would have no width.
  await expect(timeline).not.toHaveAttribute('aria-busy', 'true');

  await page.keyboard.press('Escape');
  await expect(page.getByRole('slider', { name: 'Timeline' })).toBeVisible();
  await expect(page.getByRole('slider', { name: 'Timeline' })).toHaveAttribute('aria-valuenow', '3');
  await expect.poll(bitmapWidth).toBeGreaterThan(100);
});
