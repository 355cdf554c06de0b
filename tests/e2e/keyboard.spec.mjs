// The page by keyboard alone: every control reached by Tab in order, its focus visible, no trap;
// the controls operated by Enter, Space and the arrows; and what a screen reader hears at a step,
// read from Chromium's accessibility tree.
import { test, expect, registersBuilt } from './fixtures.mjs';

test.use({ questions: 'off' });

async function ready(page) {
  await expect(page.getByRole('button', { name: 'Run', exact: true })).toBeEnabled();
  await expect(page.getByRole('group', { name: 'Lanes' }).getByRole('button').first()).toBeVisible();
  await registersBuilt(page);
}

// Marks every control a Tab can reach (visible, enabled, not taken out of the order) with
// `data-tab-stop` and returns how many there are.
const markTabStops = (page) => page.evaluate(() => {
  const candidates = document.querySelectorAll('a[href], button, input, select, textarea, [tabindex], [contenteditable="true"]');
  let count = 0;
  for (const element of candidates) {
    const shown = element.getClientRects().length > 0 && getComputedStyle(element).visibility !== 'hidden';
    if (element.tabIndex >= 0 && !element.disabled && shown && !element.closest('[inert], [hidden]')) {
      element.dataset.tabStop = String(count++);
    }
  }
  return count;
});

// The focused element: its tab stop, and whether its focus is drawn (an outline or a ring on it,
// or CodeMirror's on its editor).
const focused = (page) => page.evaluate(() => {
  const element = document.activeElement;
  if (!element || element === document.body) return { stop: null, body: true };
  const drawn = (el) => {
    const style = getComputedStyle(el);
    return (style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0) || style.boxShadow !== 'none';
  };
  const editor = element.closest('.cm-editor');
  return {
    stop: element.dataset.tabStop ?? null,
    editor: Boolean(editor),
    // CodeMirror draws the focus around the whole editor (`.cm-focused`).
    visible: editor ? editor.matches('.cm-focused') && drawn(editor) : element.matches(':focus-visible') && drawn(element),
    name: element.getAttribute('aria-label') || element.textContent.trim().slice(0, 40),
  };
});

test('Tab reaches every control in turn, each with its focus drawn, and leaves the page at the end', async ({ page }) => {
  await page.goto('/');
  await ready(page);
  const stops = await markTabStops(page);
  expect(stops).toBeGreaterThan(20);
  const reached = new Set();
  let left = false;
  for (let press = 0; press < stops + 20 && !left; press++) {
    await page.keyboard.press('Tab');
    let now = await focused(page);
    if (now.editor) {
      // CodeMirror marks itself focused once its focus handler has run.
      await page.waitForFunction(() => document.activeElement?.closest('.cm-editor')?.classList.contains('cm-focused'));
      now = await focused(page);
    }
    if (now.body) {
      left = reached.size > 0;
      continue;
    }
    expect(now.visible, `focus drawn on ${now.name}`).toBe(true);
    if (now.stop !== null) reached.add(now.stop);
    // The editor takes Tab to indent: Ctrl+M (README, Keys) lets Tab move on.
    if (now.editor) await page.keyboard.press('Control+m');
  }
  const missed = await page.evaluate((seen) => [...document.querySelectorAll('[data-tab-stop]')]
    .filter((e) => !seen.includes(e.dataset.tabStop))
    .map((e) => e.getAttribute('aria-label') || e.textContent.trim().slice(0, 40) || e.outerHTML.slice(0, 80)), [...reached]);
  expect(missed, 'controls Tab never reached').toEqual([]);
  expect(left, 'Tab moved on past the last control').toBe(true);

  // Shift+Tab goes back the same way.
  await page.getByRole('button', { name: 'Reset', exact: true }).focus();
  await page.keyboard.press('Shift+Tab');
  await expect(page.getByRole('button', { name: 'Step', exact: true })).toBeFocused();
});

test('the controls work from the keyboard: Enter, Space, arrows', async ({ page }) => {
  await page.goto('/');
  await page.getByRole('combobox', { name: 'Examples' }).selectOption('if-else');
  await ready(page);
  const steps = page.locator('.step-count');
  const stepButton = page.getByRole('button', { name: 'Step', exact: true });
  await stepButton.focus();
  await page.keyboard.press('Enter');
  await expect(steps).toHaveText('step 1');
  await page.keyboard.press('Space');
  await expect(steps).toHaveText('step 2');
  await page.keyboard.press('F10');
  await expect(steps).toHaveText('step 3');

  // The timeline: arrows move through time.
  const timeline = page.getByRole('slider', { name: 'Timeline' });
  await timeline.focus();
  await page.keyboard.press('ArrowLeft');
  await expect(steps).toHaveText('step 2');
  await page.keyboard.press('End');
  await expect(steps).toHaveText(/^step \d+$/);

  // The details tabs: arrows move between them.
  await page.getByRole('tab', { name: 'Diagnostics' }).focus();
  await page.keyboard.press('ArrowRight');
  await expect(page.getByRole('tab', { name: 'Memory' })).toHaveAttribute('aria-selected', 'true');

  // The lanes: arrows move the selected lane.
  const lanes = page.getByRole('group', { name: 'Lanes' }).getByRole('button');
  await lanes.first().focus();
  await page.keyboard.press('ArrowRight');
  await expect(lanes.nth(1)).toBeFocused();

  // The Help dialog opens from its button and closes with Escape.
  await page.getByRole('button', { name: 'Help' }).focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('dialog', { name: 'Keyboard shortcuts' })).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog', { name: 'Keyboard shortcuts' })).toBeHidden();

  // The Compare runs toggle, by Space.
  await page.getByRole('button', { name: 'Compare runs' }).focus();
  await page.keyboard.press('Space');
  await expect(page.getByRole('button', { name: 'Compare runs' })).toHaveAttribute('aria-pressed', 'true');
});

// The live regions in Chromium's accessibility tree: for each node that announces changes, its
// role and the text it holds.
async function liveRegions(page) {
  const session = await page.context().newCDPSession(page);
  const { nodes } = await session.send('Accessibility.getFullAXTree');
  const byId = new Map(nodes.map((n) => [n.nodeId, n]));
  const text = (node) => {
    if (node.role?.value === 'StaticText') return node.name?.value ?? '';
    return (node.childIds ?? []).map((id) => byId.get(id)).filter(Boolean).map(text).join('');
  };
  return nodes
    .filter((n) => !n.ignored && (n.properties ?? []).some((p) => p.name === 'live' && p.value.value !== 'off')
      && !(n.properties ?? []).some((p) => p.name === 'live' && byId.get(n.parentId)?.properties?.some((q) => q.name === 'live')))
    .map((n) => ({
      role: n.role?.value,
      live: n.properties.find((p) => p.name === 'live').value.value,
      text: text(n).replace(/\s+/g, ' ').trim(),
    }));
}

test('at a step a screen reader hears the status and the caption (the live regions docs/accessibility.md lists)', async ({ page }) => {
  await page.goto('/');
  await page.getByRole('combobox', { name: 'Examples' }).selectOption('if-else');
  await ready(page);
  for (let i = 0; i < 4; i++) await page.getByRole('button', { name: 'Step', exact: true }).click();
  await expect(page.locator('.step-count')).toHaveText('step 4');
  const regions = await liveRegions(page);
  const status = regions.find((r) => r.role === 'status');
  expect(status).toEqual({ role: 'status', live: 'polite', text: 'paused at line 9' });
  const caption = regions.find((r) => r.text.startsWith('if p1 at line 8'));
  expect(caption?.live).toBe('polite');
  expect(caption.text).toMatch(/^if p1 at line 8: lanes 0-2 take the if side; lanes 3-7 wait at else/);
  // Nothing else speaks at a step: the other live regions (notices, the question's verdict, the
  // editor's diagnostic at the caret) are empty.
  const speaking = regions.filter((r) => r.text !== '').map((r) => r.role);
  expect(speaking.sort()).toEqual([status.role, caption.role].sort());
});
