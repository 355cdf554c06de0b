// Presenter mode and the picture export, as a teacher preparing a lecture uses them. Presenter
// mode: one button or Alt+P in, Escape out; the header and the details go, the code and the lanes
// grow, stepping goes on as before. Download SVG: a picture of the moment for slides.
import { test, expect } from './fixtures.mjs';

// Stepping here is about presenting and exporting; the lesson's question would stop it.
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

test('Download SVG saves a picture of the moment with its caption, in the page\'s theme', async ({ page }) => {
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.goto('/');
  await page.getByRole('combobox', { name: 'Examples' }).selectOption('if-else');
  for (let i = 1; i <= 4; i++) {
    await page.keyboard.press('F10');
    await expect(page.getByText(/^step \d+$/)).toHaveText(`step ${i}`);
  }
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Download SVG' }).click(),
  ]);
  expect(download.suggestedFilename()).toBe('wave-if_else-step-4.svg');
  const { readFile } = await import('node:fs/promises');
  const svg = await readFile(await download.path(), 'utf8');
  expect(svg.length).toBeLessThan(200_000);
  expect(svg).toContain('>`if p1` at line 8: lanes 0-2 take the if side;');
  expect(svg).toContain('fill="#0d1016"');
  // The browser reads it as an image of the stated size.
  const size = await page.evaluate(async (text) => {
    const image = new Image();
    image.src = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(text)}`;
    await image.decode();
    return [image.naturalWidth, image.naturalHeight];
  }, svg);
  expect(size[0]).toBe(960);
  expect(size[1]).toBeGreaterThan(400);
});

test('Download PNG saves the same picture as an image twice its size', async ({ page }) => {
  await page.goto('/');
  await page.getByRole('combobox', { name: 'Examples' }).selectOption('if-else');
  await page.keyboard.press('F10');
  await expect(page.getByText(/^step \d+$/)).toHaveText('step 1');
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Download PNG' }).click(),
  ]);
  expect(download.suggestedFilename()).toBe('wave-if_else-step-1.png');
  const { readFile } = await import('node:fs/promises');
  const png = await readFile(await download.path());
  expect(png.subarray(1, 4).toString()).toBe('PNG');
  expect(png.length).toBeLessThan(200_000);
  // The IHDR chunk: width and height, big-endian, after the signature and the chunk header.
  expect(png.readUInt32BE(16)).toBe(1920);
  expect(png.readUInt32BE(20)).toBeGreaterThan(800);
});
