// Moving through time as a person would: by the buttons' names and the debugger keys, reading
// what the lanes, the divergence stack and the status say.
import { test, expect, editorText, autosaved } from './fixtures.mjs';

// These walks move through the lessons in time, not through their questions.
test.use({ questions: 'off' });

const laneGroup = (page) => page.getByRole('group', { name: 'Lanes' });
const frames = (page) => page.getByRole('list', { name: 'Divergence stack' }).getByRole('listitem');
const stepCount = (page) => page.getByText(/^step \d+$/);
const button = (page, name) => page.getByRole('button', { name, exact: true });

async function openLesson(page, id, workgroup, width) {
  await page.goto('/');
  await page.getByRole('combobox', { name: 'Examples' }).selectOption(id);
  await page.getByRole('tab', { name: 'Launch configuration' }).click();
  await page.getByRole('textbox', { name: 'Workgroup size' }).fill(workgroup);
  await page.getByRole('textbox', { name: 'Wave width' }).fill(String(width));
  await expect(page.getByRole('status')).toHaveText('ready');
}

// What a person reads after a step: every lane's accessible name, the stack's items, the status.
async function shown(page) {
  return {
    step: await stepCount(page).textContent(),
    lanes: await laneGroup(page).getByRole('button').evaluateAll((buttons) =>
      buttons.map((b) => b.getAttribute('aria-label') ?? b.textContent)),
    stack: await frames(page).allTextContents(),
    status: await page.getByRole('status').textContent(),
  };
}

test('Step back retraces every step: each lane, the stack and the status as they were', async ({ page }) => {
  await openLesson(page, 'break-in-if', '64,1,1', 64);
  const forward = [await shown(page)];
  for (let i = 0; i < 24; i++) {
    const before = await stepCount(page).textContent();
    await button(page, 'Step').click();
    await expect(stepCount(page)).not.toHaveText(before);
    // A popped frame animates out of the list; read once it has gone.
    await expect.poll(async () => (await frames(page).count()) === (await shown(page)).stack.length).toBe(true);
    forward.push(await shown(page));
  }
  expect(new Set(forward.map((s) => s.stack.length)).size, 'the walk goes in and out of frames').toBeGreaterThan(1);
  for (let i = forward.length - 2; i >= 0; i--) {
    await button(page, 'Step back').click();
    await expect(stepCount(page)).toHaveText(forward[i].step);
    await expect.poll(() => shown(page), { message: `back at view ${i}` }).toEqual(forward[i]);
  }
  await expect(button(page, 'Step back')).toBeDisabled();
});

test('keys move through time: Shift+F10 back, F9 over an if, Shift+F8 to the previous event', async ({ page }) => {
  await openLesson(page, 'if-else', '8,1,1', 8);
  const status = page.getByRole('status');
  // Step to the `if` (line 8 of the lesson).
  for (let i = 0; i < 10 && !/line 8\b/.test(await status.textContent()); i++) {
    const before = await stepCount(page).textContent();
    await page.keyboard.press('F10');
    await expect(stepCount(page)).not.toHaveText(before);
  }
  await expect(status).toHaveText(/line 8\b/);
  const atIf = await shown(page);
  await page.keyboard.press('F9');
  await expect(frames(page)).toHaveCount(0);
  await expect(status).not.toHaveText(atIf.status);
  await expect(laneGroup(page).getByRole('button', { name: /: active$/ })).toHaveCount(8);
  // The events of the whole `if` stay on show.
  await expect(page.getByRole('list', { name: 'What the last step did' })).toContainText('reconverged');
  await page.keyboard.press('Shift+F8');
  await expect(page.getByRole('list', { name: 'What the last step did' })).toContainText(/reconverged|else side/);
  await page.keyboard.press('Shift+F10');
  await expect(stepCount(page)).not.toHaveText('step 0');
  await button(page, 'Reset').click();
  await expect(status).toHaveText('ready');
});

test('Step over a loop and Step out of one land where the lanes reconverge', async ({ page }) => {
  await openLesson(page, 'loop-exit', '8,1,1', 8);
  const status = page.getByRole('status');
  for (let i = 0; i < 20 && (await frames(page).count()) === 0; i++) {
    const before = await stepCount(page).textContent();
    await button(page, 'Step').click();
    await expect(stepCount(page)).not.toHaveText(before);
  }
  await expect(frames(page)).toHaveCount(1);
  await expect(frames(page).first()).toHaveText(/^loop/);
  await button(page, 'Step out').click();
  await expect(frames(page)).toHaveCount(0);
  await expect(status).toHaveText(/^paused at line|^finished/);
  await button(page, 'Previous event').click();
  await expect(page.getByRole('list', { name: 'What the last step did' })).not.toBeEmpty();
});

test('Next event stops at each divergence or reconvergence, and Reverse continue finds the last breakpoint', async ({ page }) => {
  await openLesson(page, 'nested-if', '8,1,1', 8);
  const events = page.getByRole('list', { name: 'What the last step did' });
  await button(page, 'Next event').click();
  await expect(events.getByRole('listitem').first()).toBeVisible();
  const first = await stepCount(page).textContent();
  await button(page, 'Next event').click();
  await expect(stepCount(page)).not.toHaveText(first);
  await button(page, 'Previous event').click();
  await expect(stepCount(page)).toHaveText(first);
  await button(page, 'Reverse continue').click();
  await expect(page.getByText('No breakpoint is set.')).toBeVisible();
});

test('a link to a late step of the GEMM run opens at that step', async ({ page }) => {
  test.setTimeout(90_000);
  await page.goto('/');
  await page.getByRole('combobox', { name: 'Examples' }).selectOption('gemm');
  await button(page, 'Run').click();
  await expect(page.getByRole('status')).toHaveText(/^finished after/, { timeout: 60_000 });
  const end = await stepCount(page).textContent();
  await button(page, 'Step back').click();
  await expect(stepCount(page)).not.toHaveText(end);
  const late = await shown(page);
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
  await button(page, 'Copy link').click();
  const hash = await page.evaluate(() => location.hash);
  const other = await page.context().newPage();
  await other.goto('/' + hash);
  await expect(stepCount(other)).toHaveText(late.step, { timeout: 60_000 });
  await expect.poll(() => shown(other)).toEqual(late);
});

test('the timeline moves by keyboard and pointer, and a click on a cell selects its lane', async ({ page }) => {
  await openLesson(page, 'if-else', '8,1,1', 8);
  await button(page, 'Run').click();
  await expect(page.getByRole('status')).toHaveText(/^finished after/);
  const end = Number((await stepCount(page).textContent()).replace('step ', ''));
  const timeline = page.getByRole('slider', { name: 'Timeline' });
  await expect(timeline).toHaveAttribute('aria-valuemax', String(end));
  await expect(timeline).toHaveAttribute('aria-valuetext', new RegExp(`^step ${end} of ${end}`));
  await timeline.focus();
  await page.keyboard.press('Home');
  await expect(stepCount(page)).toHaveText('step 0');
  await expect(page.getByRole('status')).toHaveText('ready');
  for (const expected of [1, 2, 3]) {
    await page.keyboard.press('ArrowRight');
    await expect(timeline).toHaveAttribute('aria-valuenow', String(expected));
  }
  await page.keyboard.press('End');
  await expect(stepCount(page)).toHaveText(`step ${end}`);
  await page.keyboard.press('PageUp');
  await expect(timeline).toHaveAttribute('aria-valuenow', String(end - 10));
  // The fifth column (the `if`'s then side ran there), lane 5's row.
  const box = await timeline.boundingBox();
  const columnWidth = Math.min(box.width / end, 14);
  await page.mouse.click(box.x + 4.5 * columnWidth, box.y + 12 + 5.5 * 10);
  await expect(stepCount(page)).toHaveText('step 5');
  await expect(page.getByText(/^Lane 5: /)).toBeVisible();
  await expect(timeline).toHaveAttribute('aria-valuetext', /^step 5 of \d+, line \d+, 3 of 8 lanes active$/);
  await expect(page.locator('#timeline-description')).toHaveText(/lanes 3-7 waiting/);
  // Zooming keeps the current step in the window.
  await button(page, 'Zoom timeline in').click();
  await expect(page.getByText(/^steps \d+–\d+ of \d+/)).toBeVisible();
  await expect(timeline).toHaveAttribute('aria-valuenow', '5');
});

// The moment in the page's autosave, or null.
const autosavedMoment = async (page) => (await autosaved(page))?.moment ?? null;

test('a reload comes back to the step, wave and lane the work stood at', async ({ page }) => {
  await openLesson(page, 'nested-if', '8,1,1', 8);
  for (let i = 0; i < 6; i++) {
    const before = await stepCount(page).textContent();
    await button(page, 'Step').click();
    await expect(stepCount(page)).not.toHaveText(before);
  }
  await laneGroup(page).getByRole('button', { name: /^Lane 6:/ }).click();
  const here = await shown(page);
  await expect.poll(() => autosavedMoment(page)).toMatchObject({ steps: 6, lane: 6 });
  await page.reload();
  await expect(stepCount(page)).toHaveText('step 6');
  await expect(page.getByText(/^Lane 6: /)).toBeVisible();
  await expect.poll(() => shown(page)).toEqual({ ...here });
});

test('Back to cursor returns to the last time the caret line was about to run', async ({ page }) => {
  await page.goto('/');
  await page.getByRole('combobox', { name: 'Examples' }).selectOption('loop-exit');
  const editor = page.getByRole('textbox', { name: 'Kernel source' });
  const lines = (await editorText(page)).split('\n');
  const body = lines.findIndex((l) => l.includes('iadd    r1, r1, r2')) + 1;
  expect(body).toBeGreaterThan(0);
  await button(page, 'Run').click();
  await expect(page.getByRole('status')).toHaveText(/^finished after/);
  await editor.click();
  await page.keyboard.press('Control+Home');
  for (let i = 1; i < body; i++) await page.keyboard.press('ArrowDown');
  await button(page, 'Back to cursor').click();
  await expect(page.getByRole('status')).toHaveText(`paused at line ${body}`);
  const last = await stepCount(page).textContent();
  await button(page, 'Back to cursor').click();
  await expect(stepCount(page)).not.toHaveText(last);
  await expect(page.getByRole('status')).toHaveText(`paused at line ${body}`);
});

test('the timeline is drawn in the colours of the theme, and redrawn when it changes', async ({ page }) => {
  await openLesson(page, 'if-else', '8,1,1', 8);
  await button(page, 'Step').click();
  await expect(stepCount(page)).toHaveText('step 1');
  // The first column's first lane is active: its pixel should be the theme's accent.
  const drawn = () => page.evaluate(() => {
    const canvas = document.querySelector('[role=slider][aria-label=Timeline] canvas');
    const scale = canvas.width / canvas.clientWidth;
    return Array.from(canvas.getContext('2d').getImageData(3 * scale, 16 * scale, 1, 1).data.slice(0, 3));
  });
  const accent = () => page.evaluate(() => {
    const probe = document.createElement('div');
    probe.style.color = getComputedStyle(document.documentElement).getPropertyValue('--accent');
    document.body.append(probe);
    const rgb = getComputedStyle(probe).color.match(/\d+/g).slice(0, 3).map(Number);
    probe.remove();
    return rgb;
  });
  await expect.poll(async () => JSON.stringify(await drawn()) === JSON.stringify(await accent())).toBe(true);
  const light = await drawn();
  for (let i = 0; i < 3 && (await page.evaluate(() => document.documentElement.dataset.theme)) !== 'dark'; i++) {
    await page.getByRole('button', { name: /^Theme/ }).click();
  }
  await expect.poll(async () => JSON.stringify(await drawn()) === JSON.stringify(await accent())).toBe(true);
  expect(await drawn()).not.toEqual(light);
});
