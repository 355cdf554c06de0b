// The main walk on a phone (390 × 844) and a tablet (820 × 1180), by touch: the page never
// scrolls sideways, the run controls stay in reach while the machine pane scrolls, a tap
// selects a lane or sets a breakpoint, and a swipe along the timeline moves through time.
import { test, expect } from './fixtures.mjs';

// The walk is about layout and touch; the lesson's question would stop its steps.
test.use({ questions: 'off' });

const stepCount = (page) => page.getByText(/^step \d+$/);
const lane = (page, n) => page.getByRole('group', { name: 'Lanes' }).getByRole('button', { name: new RegExp(`^Lane ${n}:`) });

// Nothing on the page is wider than the window (the editor and the tables scroll inside).
async function expectNoSidewaysScroll(page) {
  const [scrollWidth, width] = await page.evaluate(() => [document.documentElement.scrollWidth, innerWidth]);
  expect(scrollWidth, 'the page does not scroll sideways').toBeLessThanOrEqual(width);
}

for (const { name, viewport, columns } of [
  { name: 'phone', viewport: { width: 390, height: 844 }, columns: 1 },
  { name: 'tablet', viewport: { width: 820, height: 1180 }, columns: 2 },
]) {
  test.describe(`${name} ${viewport.width} × ${viewport.height}`, () => {
    test.use({ viewport, hasTouch: true, isMobile: name === 'phone' });

    test(`the main walk by touch on a ${name}`, async ({ page }) => {
      await page.goto('/');
      await page.getByRole('combobox', { name: 'Examples' }).selectOption('break-in-if');
      await expect(page.getByRole('status')).toHaveText('ready');
      await expectNoSidewaysScroll(page);
      // The panes: kernel and machine side by side on a tablet, one above the other on a phone.
      const kernel = await page.getByRole('region', { name: 'Kernel' }).boundingBox();
      const machine = await page.getByRole('region', { name: 'Machine' }).boundingBox();
      expect(machine.x > kernel.x, 'machine right of kernel').toBe(columns === 2);
      expect(machine.y > kernel.y + kernel.height - 1, 'machine below kernel').toBe(columns === 1);

      const step = page.getByRole('button', { name: 'Step', exact: true });
      await step.scrollIntoViewIfNeeded();
      for (let i = 0; i < 9; i++) {
        const before = await stepCount(page).textContent();
        await step.tap();
        await expect(stepCount(page)).not.toHaveText(before);
      }
      // Down to the lanes: the run controls stay on screen, and a tap selects a lane.
      await lane(page, 3).scrollIntoViewIfNeeded();
      await expect(step).toBeInViewport();
      await lane(page, 3).tap();
      await expect(lane(page, 3)).toHaveAttribute('tabindex', '0');
      await expect(page.getByRole('status')).toHaveText(/^paused at line \d+$/);

      // A tap on a line number sets a breakpoint there.
      const gutter = page.getByRole('button', { name: 'Toggle breakpoint on line 15' });
      await gutter.scrollIntoViewIfNeeded();
      await gutter.tap();
      await expect(gutter).toHaveAttribute('aria-pressed', 'true');

      // A swipe along the timeline, right to left, goes back to an earlier step.
      const track = page.getByRole('slider', { name: 'Timeline' });
      await track.scrollIntoViewIfNeeded();
      const box = await track.boundingBox();
      const at = Number(await track.getAttribute('aria-valuenow'));
      const y = box.y + box.height / 2;
      const touch = { pointerType: 'touch', pointerId: 7, isPrimary: true, bubbles: true, buttons: 1 };
      await track.dispatchEvent('pointerdown', { ...touch, clientX: box.x + box.width * 0.6, clientY: y });
      for (const f of [0.45, 0.3, 0.15, 0.02]) {
        await track.dispatchEvent('pointermove', { ...touch, clientX: box.x + box.width * f, clientY: y });
      }
      await track.dispatchEvent('pointerup', { ...touch, buttons: 0, clientX: box.x + box.width * 0.02, clientY: y });
      await expect.poll(async () => Number(await track.getAttribute('aria-valuenow'))).toBeLessThan(at);
      await expectNoSidewaysScroll(page);
    });
  });
}

// The lanes are drawn on a canvas at the screen's pixel ratio, not scaled up blurred on a dense
// screen.
test.describe('a screen of two device pixels to a CSS pixel', () => {
  test.use({ deviceScaleFactor: 2, viewport: { width: 1400, height: 900 } });

  test('the lanes are drawn at the screen\'s pixel ratio', async ({ page }) => {
    await page.goto('/');
    await expect(page.getByRole('status')).toHaveText('ready');
    const canvas = page.getByRole('group', { name: 'Lanes' }).locator('canvas');
    const ratio = () => canvas.evaluate((c) => [c.width / c.getBoundingClientRect().width, c.height / c.getBoundingClientRect().height]);
    await expect.poll(async () => (await ratio()).map((r) => Math.round(r * 10) / 10)).toEqual([2, 2]);
  });
});

// In forced-colours mode (Windows' contrast themes) the page's colours give way to the system's,
// and a canvas keeps its own: the lanes' canvas goes, and the buttons show each lane's state.
test('in forced colours the lanes show their state on the buttons themselves', async ({ page }) => {
  await page.emulateMedia({ forcedColors: 'active' });
  await page.goto('/');
  await page.getByRole('combobox', { name: 'Examples' }).selectOption('if-else');
  await expect(page.getByRole('status')).toHaveText('ready');
  const group = page.getByRole('group', { name: 'Lanes' });
  await expect(group.locator('canvas')).toBeHidden();
  // Step until the if splits the wave.
  const inactive = group.getByRole('button', { name: /^Lane \d+: inactive/ });
  for (let i = 0; i < 12 && await inactive.count() === 0; i++) {
    await page.getByRole('button', { name: 'Step', exact: true }).click();
  }
  const on = group.getByRole('button', { name: /^Lane \d+: active/ }).first();
  const off = inactive.first();
  const look = (lane) => lane.evaluate((button) => {
    const dot = button.querySelector('.lane-glyph');
    const style = getComputedStyle(dot);
    return { dot: style.backgroundColor, visible: style.visibility, border: getComputedStyle(button).borderTopColor };
  });
  const [a, b] = [await look(on), await look(off)];
  expect(a.visible).toBe('visible');
  expect(b.visible).toBe('visible');
  expect(a.dot).not.toBe('rgba(0, 0, 0, 0)');
  expect(a.dot).not.toBe(b.dot);
  expect(a.border).not.toBe(b.border);
});
