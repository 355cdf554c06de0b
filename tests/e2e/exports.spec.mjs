// The exports, as a teacher preparing slides and a student handing in a run use them: a picture
// of the moment (SVG, PNG), the timeline of a range of steps (SVG) and the run's events (JSON).
// Each file is read back and parsed as what it claims to be.
import { readFile } from 'node:fs/promises';
import { test, expect } from './fixtures.mjs';

// The lessons' questions would stop the stepping and runs here.
test.use({ questions: 'off' });

/** Clicks `button` and returns the download it starts: its file name and its text. */
async function download(page, button) {
  const [file] = await Promise.all([page.waitForEvent('download'), button.click()]);
  return { name: file.suggestedFilename(), path: await file.path() };
}

/** Opens the header's Export menu and downloads its entry `name`. */
async function exportFile(page, name) {
  await page.getByRole('button', { name: 'Export', exact: true }).click();
  return download(page, page.getByRole('button', { name }));
}

/** The browser decodes `svg` as an image: its natural size. */
async function imageSize(page, svg) {
  return page.evaluate(async (text) => {
    const image = new Image();
    image.src = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(text)}`;
    await image.decode();
    return [image.naturalWidth, image.naturalHeight];
  }, svg);
}

test('Download SVG saves a picture of the moment with its caption, in the page\'s theme', async ({ page }) => {
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.goto('/');
  await page.getByRole('combobox', { name: 'Examples' }).selectOption('if-else');
  for (let i = 1; i <= 4; i++) {
    await page.keyboard.press('F10');
    await expect(page.getByText(/^step \d+$/)).toHaveText(`step ${i}`);
  }
  const file = await exportFile(page, 'Download SVG');
  expect(file.name).toBe('wave-if_else-step-4.svg');
  const svg = await readFile(file.path, 'utf8');
  expect(svg.length).toBeLessThan(200_000);
  expect(svg).toContain('>`if p1` at line 8: lanes 0-2 take the if side;');
  expect(svg).toContain('fill="#0d1016"');
  // The browser reads it as an image of the stated size.
  const size = await imageSize(page, svg);
  expect(size[0]).toBe(960);
  expect(size[1]).toBeGreaterThan(400);
});

test('Download PNG saves the same picture as an image twice its size', async ({ page }) => {
  await page.goto('/');
  await page.getByRole('combobox', { name: 'Examples' }).selectOption('if-else');
  await page.keyboard.press('F10');
  await expect(page.getByText(/^step \d+$/)).toHaveText('step 1');
  const file = await exportFile(page, 'Download PNG');
  expect(file.name).toBe('wave-if_else-step-1.png');
  const png = await readFile(file.path);
  expect(png.subarray(1, 4).toString()).toBe('PNG');
  expect(png.length).toBeLessThan(200_000);
  // The IHDR chunk: width and height, big-endian, after the signature and the chunk header.
  expect(png.readUInt32BE(16)).toBe(1920);
  expect(png.readUInt32BE(20)).toBeGreaterThan(800);
});

test('the Export menu opens, closes on Escape with focus back, and closes after a choice', async ({ page }) => {
  await page.goto('/');
  const menu = page.getByRole('button', { name: 'Export', exact: true });
  const svg = page.getByRole('button', { name: 'Download SVG' });
  await expect(menu).toHaveAttribute('aria-expanded', 'false');
  await expect(svg).toBeHidden();
  await menu.click();
  await expect(menu).toHaveAttribute('aria-expanded', 'true');
  await expect(svg).toBeVisible();
  await page.keyboard.press('Tab');
  await expect(svg).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(svg).toBeHidden();
  await expect(menu).toBeFocused();
  // Escape closed the menu only: the page is still the whole page.
  await expect(page.getByRole('banner')).toBeVisible();
  await menu.click();
  await download(page, page.getByRole('button', { name: 'Download trace' }));
  await expect(menu).toHaveAttribute('aria-expanded', 'false');
  // Focus moving elsewhere closes it too.
  await menu.click();
  await page.getByRole('button', { name: 'Copy link' }).focus();
  await expect(svg).toBeHidden();
});

test('Download trace saves the run\'s events as a versioned JSON document', async ({ page }) => {
  await page.goto('/');
  await page.getByRole('combobox', { name: 'Examples' }).selectOption('if-else');
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  const status = page.getByRole('status');
  await expect(status).toHaveText(/^finished after \d+ wave-instructions/);
  const steps = Number((await status.textContent()).match(/after (\d+)/)[1]);
  const file = await exportFile(page, 'Download trace');
  expect(file.name).toBe(`wave-if_else-trace-step-${steps}.json`);
  const text = await readFile(file.path, 'utf8');
  expect(text.length).toBeLessThan(200_000);
  const trace = JSON.parse(text);
  expect(trace).toMatchObject({ format: 'wave-trace', version: 1, kernel: 'if_else', first_step: 0, last_step: steps });
  expect(trace.end).toEqual({ state: 'finished' });
  const diverge = trace.events.find((e) => e.kind === 'diverge');
  expect(diverge).toMatchObject({ line: 8, instruction: 'if p1', lanes: '0x07', else_lanes: '0xf8' });
  expect(trace.events.at(-1).kind).toBe('wave-done');
  expect(trace.events.every((e, i) => i === 0 || e.step >= trace.events[i - 1].step)).toBe(true);

  // In the middle of stepping, the trace ends where the machine stands, paused.
  await page.getByRole('button', { name: 'Reset' }).click();
  for (let i = 1; i <= 7; i++) {
    await page.keyboard.press('F10');
    await expect(page.getByText(/^step \d+$/)).toHaveText(`step ${i}`);
  }
  const partial = JSON.parse(await readFile(
    (await exportFile(page, 'Download trace')).path, 'utf8'));
  expect(partial).toMatchObject({ last_step: 7, end: { state: 'paused' } });
  expect(partial.events.map((e) => e.kind)).toContain('diverge');
  await expect(page.getByText(/^step \d+$/)).toHaveText('step 7');
});

test('Timeline picture saves the lanes over a chosen range of steps as SVG', async ({ page }) => {
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.goto('/');
  await page.getByRole('combobox', { name: 'Examples' }).selectOption('break-continue');
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  const status = page.getByRole('status');
  await expect(status).toHaveText(/^finished after \d+ wave-instructions/);
  const steps = Number((await status.textContent()).match(/after (\d+)/)[1]);

  const opener = page.getByRole('button', { name: 'Timeline picture…' });
  await opener.click();
  await expect(opener).toHaveAttribute('aria-expanded', 'true');
  const form = page.getByRole('form', { name: 'Timeline picture' });
  // It opens on the timeline's window: the whole run here.
  await expect(form.getByRole('spinbutton', { name: 'From step' })).toHaveValue('0');
  await expect(form.getByRole('spinbutton', { name: 'to step' })).toHaveValue(String(steps));

  // A range past the run's end is refused with the reason, and nothing is saved.
  await form.getByRole('spinbutton', { name: 'to step' }).fill(String(steps + 50));
  await form.getByRole('button', { name: 'Download timeline SVG' }).click();
  await expect(form.getByRole('alert')).toHaveText(`The run is known up to step ${steps}: choose steps up to it`);

  await form.getByRole('spinbutton', { name: 'From step' }).fill('10');
  await form.getByRole('spinbutton', { name: 'to step' }).fill('60');
  const file = await download(page, form.getByRole('button', { name: 'Download timeline SVG' }));
  await expect(form.getByRole('alert')).toBeHidden();
  expect(file.name).toBe('wave-break_continue-timeline-10-60.svg');
  const svg = await readFile(file.path, 'utf8');
  expect(svg.length).toBeLessThan(200_000);
  expect(svg).toContain('timeline of steps 10–60');
  expect(svg).toContain('fill="#0d1016"');
  expect(svg).toMatch(/<title>(break|continue) at step \d+, line \d+<\/title>/);
  const [width, height] = await imageSize(page, svg);
  expect(width).toBeGreaterThanOrEqual(720);
  expect(height).toBeGreaterThan(150);
});
