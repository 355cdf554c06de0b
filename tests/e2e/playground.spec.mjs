import { test, expect, editorText, expectEditorText, autosaved } from './fixtures.mjs';

// These walks step the lessons for other things than their questions.
test.use({ questions: 'off' });

const lanes = (page) => page.getByRole('group', { name: 'Lanes' }).getByRole('button');
const activeLanes = (page) =>
  page.getByRole('group', { name: 'Lanes' }).getByRole('button', { name: /: active$/ });
const frames = (page) => page.getByRole('list', { name: 'Divergence stack' }).getByRole('listitem');
const step = (page) => page.getByRole('button', { name: 'Step', exact: true }).click();

// The break-in-if lesson in one 64-lane wave (workgroup 64, wave width 64), ready to step.
async function openLessonWith64Lanes(page) {
  await page.goto('/');
  await pickExample(page, 'break-in-if');
  await page.getByRole('tab', { name: 'Launch configuration' }).click();
  await page.getByRole('textbox', { name: 'Workgroup size' }).fill('64,1,1');
  await page.getByRole('textbox', { name: 'Wave width' }).fill('64');
  await expect(page.getByRole('status')).toHaveText('ready');
}

async function pickExample(page, id) {
  await page.getByRole('combobox', { name: 'Examples' }).selectOption(id);
}

// The kernel source in the page's autosave (null if none): the text the page has compiled,
// which a reload or a new tab would restore.
const autosavedSource = async (page) => (await autosaved(page))?.source ?? null;

test('the if/else lesson splits the wave 3 / 5 and reconverges', async ({ page }) => {
  await page.goto('/');
  await pickExample(page, 'if-else');
  await expect(lanes(page)).toHaveCount(8);
  await expect(activeLanes(page)).toHaveCount(8);
  await expect(frames(page)).toHaveCount(0);
  const seen = [];
  for (let i = 0; i < 12 && seen.join(',') !== '3,5,8'; i++) {
    await step(page);
    const active = await activeLanes(page).count();
    const depth = await frames(page).count();
    if (active === 3 && !seen.includes(3)) {
      seen.push(3);
      await expect(frames(page)).toHaveCount(1);
      await expect(frames(page).first()).toHaveText(/^if/);
      await expect(page.getByRole('button', { name: 'Lane 5: inactive: else side of the if at line 8' })).toBeVisible();
    } else if (active === 5 && seen.includes(3) && !seen.includes(5)) {
      seen.push(5);
      await expect(frames(page)).toHaveCount(1);
      await expect(frames(page).first()).toHaveText(/^else/);
    } else if (active === 8 && seen.includes(5)) {
      seen.push(8);
      expect(depth).toBe(0);
    }
  }
  expect(seen).toEqual([3, 5, 8]);
});

test('break vs continue: lanes say they broke out or continued', async ({ page }) => {
  await page.goto('/');
  await pickExample(page, 'break-continue');
  const parked = page.getByRole('group', { name: 'Lanes' }).getByRole('button', { name: /continued|broke out/ });
  let found = 0;
  for (let i = 0; i < 200 && found === 0; i++) {
    await step(page);
    found = await parked.count();
  }
  expect(found).toBeGreaterThan(0);
  await expect(frames(page).first()).toHaveText(/^loop/);
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await expect(page.getByRole('status')).toHaveText(/^finished after \d+ wave-instructions/);
});

test('the GEMM example runs and its check reports max error 0', async ({ page }) => {
  test.setTimeout(60_000);
  await page.goto('/');
  await pickExample(page, 'gemm');
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await expect(page.getByText(/GEMM check: max error 0 over \d+ values/)).toBeVisible({ timeout: 45_000 });
  await expect(page.getByRole('status')).toHaveText(/^finished after/);
  await page.getByRole('tab', { name: 'Statistics' }).click();
  await expect(page.getByRole('tabpanel')).toContainText('Run time');
});

test('Copy link round trip restores the same source and moment', async ({ page }) => {
  await page.goto('/');
  await pickExample(page, 'nested-if');
  for (let i = 0; i < 9; i++) await step(page);
  const status = await page.getByRole('status').textContent();
  expect(status).toMatch(/^paused at line/);
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.getByRole('button', { name: 'Copy link' }).click();
  await expect(page.getByText('Link copied')).toBeVisible();
  const hash = await page.evaluate(() => location.hash);
  expect(hash).toMatch(/^#v1\./);
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(page.url());
  const source = await editorText(page);

  const other = await page.context().newPage();
  const errors = [];
  other.on('pageerror', (e) => errors.push(e.message));
  await other.goto('/' + hash);
  await expectEditorText(other, source);
  await expect(other.getByRole('status')).toHaveText(status);
  await expect(other.getByRole('alert')).toHaveCount(0);
  expect(errors).toEqual([]);
});

test('a malformed link explains itself and keeps the autosaved work', async ({ page }) => {
  await page.goto('/');
  const mine = '.kernel mine\n    halt\n.end';
  await page.getByRole('textbox', { name: 'Kernel source' }).fill(mine);
  await expect.poll(() => autosavedSource(page), 'the recompile autosaves the text').toBe(mine);
  await expect(page.getByRole('status')).toHaveText('ready');
  const other = await page.context().newPage();
  await other.goto('/#v1.%%%');
  await expect(other.getByRole('alert')).toContainText('Could not open the link');
  await expectEditorText(other, mine);
});

test('a diagnostic appears and clears as you type', async ({ page }) => {
  await page.goto('/');
  const editor = page.getByRole('textbox', { name: 'Kernel source' });
  const items = page.getByRole('list', { name: 'Diagnostics' }).getByRole('listitem');
  await expect(items).toHaveCount(0);
  await editor.fill('.kernel k\n    frobnicate r1\n    halt\n.end');
  await expect(items.first()).toHaveText(/^Line 2: error:/);
  await expect(page.getByRole('status')).toHaveText(/^cannot run/);
  await editor.fill('.kernel k\n    halt\n.end');
  await expect(items).toHaveCount(0);
  await expect(page.getByRole('status')).toHaveText('ready');
});

test('keyboard only: F10 steps, F5 runs, Shift+F5 resets', async ({ page }) => {
  await page.goto('/');
  const status = page.getByRole('status');
  await expect(status).toHaveText('ready');
  await page.keyboard.press('F10');
  await expect(status).toHaveText(/^paused at line/);
  await page.keyboard.press('F5');
  await expect(status).toHaveText(/^finished after/);
  await page.keyboard.press('Shift+F5');
  await expect(status).toHaveText('ready');
  await page.getByRole('textbox', { name: 'Kernel source' }).focus();
  await page.keyboard.press('Control+Enter');
  await expect(status).toHaveText(/^finished after/);
});

test('Tab indents in the editor instead of leaving it', async ({ page }) => {
  await page.goto('/');
  const editor = page.getByRole('textbox', { name: 'Kernel source' });
  await editor.fill('halt');
  await editor.press('Home');
  await editor.press('Tab');
  await expectEditorText(page, '    halt');
  await expect(editor).toBeFocused();
  await editor.press('Shift+Tab');
  await expectEditorText(page, 'halt');
  // Ctrl+M gives Tab back to the page: a keyboard user can leave the editor.
  await editor.press('Control+m');
  await editor.press('Tab');
  await expect(editor).not.toBeFocused();
  await expectEditorText(page, 'halt');
});

test('reload restores the autosaved work', async ({ page }) => {
  await page.goto('/');
  const mine = '.kernel saved\n    halt\n.end';
  await page.getByRole('textbox', { name: 'Kernel source' }).fill(mine);
  await expect.poll(() => autosavedSource(page), 'the recompile autosaves the text').toBe(mine);
  await expect(page.getByRole('status')).toHaveText('ready');
  await page.reload();
  await expectEditorText(page, mine);
});

// Leaving the page always saves; it skips the encoding and the write when this page has saved the
// same work already and storage still holds that save.
test('leaving the page writes the autosave only when storage lacks this work', async ({ page }) => {
  await page.goto('/');
  const key = 'wave-playground.autosave';
  // The work as opened is saved once the page is idle after its first frame.
  await expect.poll(() => autosavedSource(page), 'the opened work is saved').not.toBeNull();
  // Counts the page's writes of its autosave from here on.
  await page.evaluate((k) => {
    window.autosaveWrites = 0;
    const setItem = Storage.prototype.setItem;
    Storage.prototype.setItem = function (name, value) {
      if (name === k) window.autosaveWrites += 1;
      return setItem.call(this, name, value);
    };
  }, key);
  const leave = () => page.evaluate((k) => {
    window.autosaveWrites = 0;
    dispatchEvent(new PageTransitionEvent('pagehide'));
    return { writes: window.autosaveWrites, stored: localStorage.getItem(k) };
  }, key);
  const opened = await page.evaluate((k) => localStorage.getItem(k), key);
  expect(await leave(), 'a page left as it opened').toEqual({ writes: 0, stored: opened });
  const mine = '.kernel kept\n    halt\n.end';
  await page.getByRole('textbox', { name: 'Kernel source' }).fill(mine);
  await expect.poll(() => autosavedSource(page), 'the recompile autosaves the text').toBe(mine);
  await expect(page.getByRole('status')).toHaveText('ready');
  const saved = await page.evaluate((k) => localStorage.getItem(k), key);
  expect(await leave(), 'nothing changed since the last save').toEqual({ writes: 0, stored: saved });
  // Another tab saved its work since: this page, left last, puts its own back (as it always did).
  await page.evaluate((k) => localStorage.setItem(k, 'a1.another-tab'), key);
  expect(await leave()).toEqual({ writes: 1, stored: saved });
  expect(await leave(), 'and once it is back, nothing more').toEqual({ writes: 0, stored: saved });
  // New work (a step) with the last save still in storage: leaving saves it. The step and the
  // leaving come in one task, before the save a step schedules could run.
  const stepButton = await page.getByRole('button', { name: 'Step', exact: true }).elementHandle();
  const stepThenLeave = await page.evaluate(([k, button]) => {
    window.autosaveWrites = 0;
    button.click();
    dispatchEvent(new PageTransitionEvent('pagehide'));
    return { writes: window.autosaveWrites, stored: localStorage.getItem(k) };
  }, [key, stepButton]);
  expect(stepThenLeave.writes).toBe(1);
  expect(stepThenLeave.stored).not.toBe(saved);
  expect((await autosaved(page)).moment?.steps).toBe(1);
});

// The list's items are written again when the current lesson changes: the focus stays on the
// entry a keyboard user chose.
test('a lesson chosen from the list by keyboard opens and keeps the focus', async ({ page }) => {
  await page.goto('/');
  await pickExample(page, 'if-else');
  const list = page.getByRole('navigation', { name: 'Lessons' });
  await expect(list.getByRole('button', { name: /If \/ else divergence/ })).toHaveAttribute('aria-current', 'step');
  const nested = list.getByRole('button', { name: /Nested if/ });
  await nested.focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('combobox', { name: 'Examples' })).toHaveValue('nested-if');
  await expect(nested).toHaveAttribute('aria-current', 'step');
  await expect(list.locator('[aria-current]')).toHaveCount(1);
  await expect(nested).toBeFocused();
  // And by Space, back to the first lesson.
  await page.keyboard.press('Shift+Tab');
  const ifElse = list.getByRole('button', { name: /If \/ else divergence/ });
  await expect(ifElse).toBeFocused();
  await page.keyboard.press('Space');
  await expect(page.getByRole('combobox', { name: 'Examples' })).toHaveValue('if-else');
  await expect(ifElse).toBeFocused();
});

test('the launch configuration rejects a bad wave width and nothing runs', async ({ page }) => {
  await page.goto('/');
  await page.getByRole('tab', { name: 'Launch configuration' }).click();
  const width = page.getByRole('textbox', { name: 'Wave width' });
  await width.fill('65');
  await expect(page.getByText(/wave width must be 1 to 64/)).toBeVisible();
  await expect(page.getByRole('status')).toHaveText(/^cannot run/);
  await expect(page.getByRole('button', { name: 'Step', exact: true })).toBeDisabled();
  await width.fill('4');
  await expect(page.getByRole('status')).toHaveText('ready');
  await expect(lanes(page)).toHaveCount(4);
});

test('Run to cursor stops at the caret line; Autoplay steps on its own', async ({ page }) => {
  await page.goto('/');
  const editor = page.getByRole('textbox', { name: 'Kernel source' });
  await editor.click();
  await page.keyboard.press('Control+Home');
  for (let i = 1; i < 17; i++) await page.keyboard.press('ArrowDown');
  await page.getByRole('button', { name: 'Run to cursor' }).click();
  await expect(page.getByRole('status')).toHaveText('paused at line 17');

  await page.keyboard.press('Shift+F5');
  await expect(page.getByRole('status')).toHaveText('ready');
  await page.getByRole('slider', { name: 'Autoplay speed' }).fill('60');
  await page.getByRole('button', { name: 'Autoplay' }).click();
  await expect(page.getByRole('status')).toHaveText(/^finished after/);
  await expect(page.getByRole('button', { name: 'Autoplay' })).toHaveAttribute('aria-pressed', 'false');
});

test('the theme toggle overrides the system colour scheme and is remembered', async ({ page }) => {
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.goto('/');
  const html = page.locator('html');
  await expect(html).not.toHaveAttribute('data-theme', /./);
  const toggle = page.getByRole('button', { name: /^Theme/ });
  await toggle.click();
  await expect(html).toHaveAttribute('data-theme', 'light');
  const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  expect(background).toBe('rgb(238, 241, 245)');
  await toggle.click();
  await expect(html).toHaveAttribute('data-theme', 'dark');
  await page.reload();
  await expect(html).toHaveAttribute('data-theme', 'dark');
});

test('typing in the middle of the text keeps the caret where it is', async ({ page }) => {
  await page.goto('/');
  const editor = page.getByRole('textbox', { name: 'Kernel source' });
  await editor.fill('ab\ncd');
  await editor.press('Control+Home');
  await page.keyboard.type('X');
  // The debounced recompile refreshes every view: it has happened once the bad token is
  // underlined as "Xab" (the underlines wait for the page to have compiled the editor's text).
  await expect(page.locator('.cm-lintRange-error').first()).toHaveText('Xab');
  await page.keyboard.type('Y');
  await expectEditorText(page, 'XYab\ncd');
});

test('a literal memory region shows up in the Memory tab', async ({ page }) => {
  await page.goto('/');
  await page.getByRole('tab', { name: 'Launch configuration' }).click();
  await page.getByRole('button', { name: 'Add region' }).click();
  await page.getByRole('combobox', { name: 'Kind' }).selectOption('literal');
  await page.getByRole('textbox', { name: 'Values' }).fill('7 8 9');
  await expect(page.getByRole('status')).toHaveText('ready');
  await page.getByRole('tab', { name: 'Memory' }).click();
  const row = page.getByRole('row').filter({ hasText: '0x00000000' });
  await expect(row.getByRole('cell').nth(0)).toHaveText('7');
  await expect(row.getByRole('cell').nth(2)).toHaveText('9');
  const jump = page.getByRole('textbox', { name: 'Jump to address' });
  await jump.fill('0x100000');
  await jump.press('Enter');
  await expect(page.getByText(/past the end of memory/)).toBeVisible();
  await page.getByRole('tab', { name: 'Launch configuration' }).click();
  await page.getByRole('button', { name: 'Remove region 1' }).click();
  await expect(page.getByRole('textbox', { name: 'Values' })).toHaveCount(0);
});

test('lanes: one tab stop, arrows move the selected lane and its detail', async ({ page }) => {
  await page.goto('/');
  const first = page.getByRole('button', { name: /^Lane 0:/ });
  await first.focus();
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  await expect(page.getByRole('button', { name: /^Lane 2:/ })).toBeFocused();
  await expect(page.getByLabel('Selected lane')).toContainText('Lane 2');
  await page.getByRole('button', { name: /^Lane 5:/ }).click();
  await expect(page.getByLabel('Selected lane')).toContainText('Lane 5');
});

test('the page publishes its own step and run timings (User Timing)', async ({ page }) => {
  await page.goto('/');
  await pickExample(page, 'loop-exit');
  await step(page);
  await page.waitForFunction(() => performance.getEntriesByName('wave:step-render').length === 1);
  const [stepped] = await page.evaluate(() => performance.getEntriesByName('wave:step').map((e) => e.duration));
  expect(stepped).toBeGreaterThanOrEqual(0);
  expect(stepped).toBeLessThan(5_000);
  // One of each per step; the step ends (the DOM is updated) at the latest when the frame that
  // shows it begins, and that frame's rendering is measured from there.
  const [stepSpan, renderSpan] = await page.evaluate(() => ['wave:step', 'wave:step-render'].map((n) => {
    const all = performance.getEntriesByName(n);
    return { count: all.length, start: all[0].startTime, end: all[0].startTime + all[0].duration };
  }));
  expect(stepSpan.count).toBe(1);
  expect(renderSpan.count).toBe(1);
  expect(stepSpan.end).toBeLessThanOrEqual(renderSpan.start + 0.01);
  expect(renderSpan.start).toBeGreaterThanOrEqual(stepSpan.start);
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await expect(page.getByRole('status')).toHaveText(/^finished after (\d+) wave-instructions/);
  await page.waitForFunction(() => performance.getEntriesByName('wave:run-engine').length === 1);
  const total = Number((await page.getByRole('status').textContent()).match(/after (\d+)/)[1]);
  const [run, engine] = await page.evaluate(() =>
    ['wave:run', 'wave:run-engine'].map((n) => {
      const e = performance.getEntriesByName(n)[0];
      return { start: e.startTime, duration: e.duration, detail: e.detail };
    }));
  expect(run.detail.outcome).toBe('finished');
  // The run started after the one step, so it executed all the others.
  expect(run.detail.steps).toBe(total - 1);
  expect(run.detail.slices).toBeGreaterThanOrEqual(1);
  expect(engine.start).toBe(run.start);
  expect(engine.duration).toBeCloseTo(run.detail.engineMs, 6);
  expect(engine.duration).toBeLessThanOrEqual(run.duration);
});

test('while a long run is in progress the heavy views say they are held, and Pause answers', async ({ page }) => {
  await page.goto('/');
  // A loop with no end and no instruction budget: it runs until paused.
  await page.getByRole('textbox', { name: 'Kernel source' }).fill(
    '.kernel spin\n.registers 2\n    mov_imm r1, 1\n    loop\n        nop\n    endloop\n    halt\n.end');
  await page.getByRole('tab', { name: 'Launch configuration' }).click();
  await page.getByRole('textbox', { name: 'Instruction budget' }).fill('0');
  await expect(page.getByRole('status')).toHaveText('ready');
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await expect(page.getByRole('status')).toHaveText('running…');
  const registers = page.getByRole('region', { name: /^Registers/ });
  await expect(registers).toHaveAttribute('aria-busy', 'true');
  await expect(registers.getByText('held while running')).toBeVisible();
  await page.getByRole('button', { name: 'Pause', exact: true }).click();
  await expect(page.getByRole('status')).toHaveText(/^paused/);
  await expect(registers).not.toHaveAttribute('aria-busy', /./);
  await expect(registers.getByText('held while running')).toBeHidden();
  await page.waitForFunction(() => performance.getEntriesByName('wave:run').length === 1);
  expect(await page.evaluate(() => performance.getEntriesByName('wave:run')[0].detail.outcome)).toBe('paused');
});

// Steps once and waits until the page has updated its views for that step (its `wave:step`
// measure ends when the DOM has caught up). Returns the divergence stack as the page showed it
// then, read in the page in the same frame: what a step shows only for a moment (a popped
// frame's leaving item, LEAVE_MS in src/components/stack.rs) would be gone after a few more
// round trips on a loaded machine. `at`: the page's clock then.
async function stepAndSettle(page) {
  const count = await page.evaluate(() => performance.getEntriesByName('wave:step').length);
  await step(page);
  const shown = await page.waitForFunction((c) => performance.getEntriesByName('wave:step').length > c && {
    at: performance.now(),
    depth: Number(document.querySelector('#stack-heading .view-note').textContent.match(/depth (\d+)/)[1]),
    items: [...document.querySelectorAll('ol.stack > li')].map((li) => ({
      className: li.className,
      role: li.getAttribute('role'),
      ariaHidden: li.getAttribute('aria-hidden'),
      text: li.textContent,
    })),
  }, count);
  return shown.jsonValue();
}

const stackDepth = async (page) =>
  Number((await page.locator('#stack-heading .view-note').first().textContent()).match(/depth (\d+)/)[1]);

// How long the divergence stack's frame animations last: ANIMATION_MS in src/components/stack.rs,
// the 200ms of `.frame.entering` and `.frame.leaving` in style/main.css. The page animates a
// stack change only when it has been still this long since its last command and its last stack
// change: that is its measure of a student stepping at teaching speed.
const ANIMATION_MS = 200;

// The page's clock (performance.now()), read after its last command has been handled.
const pageNow = (page) => page.evaluate(() => performance.now());

// Waits as a student stepping at teaching speed does before the next step: until nothing on the
// page is animating any more, and the page has been still for ANIMATION_MS since `since` (its
// clock after the last command). Waiting for the animations alone would not do: a step that
// changed no frame plays none, yet the page would not animate a stack change right after it.
// That second condition is the page's own rule for teaching speed, on its own clock.
async function waitAsAStudent(page, since) {
  await page.waitForFunction(([since, still]) =>
    document.getAnimations().every((a) => a.playState === 'finished')
      && performance.now() - since >= still, [since, ANIMATION_MS]);
}

// Steps until the divergence stack gets shallower; returns the stack as shown right after the
// pop (`stepAndSettle`). With `teaching`, steps at teaching speed (`waitAsAStudent`), so that
// stack changes animate.
async function stepUntilPop(page, { teaching = false } = {}) {
  let depth = 0;
  let since = await pageNow(page);
  for (let i = 0; i < 30; i++) {
    if (teaching) await waitAsAStudent(page, since);
    const shown = await stepAndSettle(page);
    since = shown.at;
    if (shown.depth < depth) return shown;
    depth = shown.depth;
  }
  throw new Error('no divergence-stack frame was popped in 30 steps');
}

test('a popped frame leaves in place and is no list item while it animates', async ({ page }) => {
  await page.goto('/');
  await pickExample(page, 'nested-if');
  const stack = page.getByRole('list', { name: 'Divergence stack' });
  const leaving = stack.locator('li.leaving');
  const { depth, items } = await stepUntilPop(page, { teaching: true });
  // Right after the pop: the list items are exactly the live frames, and the popped frame is
  // still there, on top where it was, hidden from assistive technology.
  expect(items.filter((li) => li.role === 'listitem')).toHaveLength(depth);
  const popped = items.filter((li) => /\bleaving\b/.test(li.className));
  expect(popped, JSON.stringify(items)).toHaveLength(1);
  expect(items[0]).toBe(popped[0]);
  expect(popped[0].ariaHidden).toBe('true');
  expect(popped[0].role).toBe('none');
  expect(popped[0].text).toMatch(/^(if|else) line \d+ · reconverges at line \d+/);
  // Then it goes.
  await expect(leaving).toHaveCount(0);
  await expect(stack.locator('li')).toHaveCount(depth);
});

test('with reduced motion a popped frame goes at once', async ({ page }) => {
  await page.emulateMedia({ reducedMotion: 'reduce' });
  await page.goto('/');
  await pickExample(page, 'if-else');
  // At teaching speed, where the pop would otherwise animate (the test above).
  const { items } = await stepUntilPop(page, { teaching: true });
  // As shown once the step had settled (`wave:step` ends once the DOM has caught up with it):
  // a leaving item is added in that same update, so none then means none at all.
  expect(items.filter((li) => /\bleaving\b/.test(li.className))).toHaveLength(0);
  await expect(page.locator('ol.stack > li')).toHaveCount(0);
});

test('a link copied from an example shows its explanation in a fresh browser', async ({ page, browser }) => {
  await page.goto('/');
  await pickExample(page, 'break-in-if');
  const notes = page.locator('details.example-notes');
  await expect(notes.locator('summary')).toHaveText(/^Break inside if/);
  await page.getByRole('button', { name: 'Copy link' }).click();
  const hash = await page.evaluate(() => location.hash);
  expect(hash).toMatch(/^#v1\./);

  const fresh = await browser.newContext();
  try {
    const other = await fresh.newPage();
    const errors = [];
    other.on('pageerror', (e) => errors.push(e.message));
    await other.goto('/' + hash);
    const otherNotes = other.locator('details.example-notes');
    await expect(otherNotes.locator('summary')).toHaveText(/^Break inside if/);
    await expect(otherNotes).toContainText('A lane that breaks inside an if leaves the loop');
    await expect(other.getByRole('combobox', { name: 'Examples' })).toHaveValue('break-in-if');
    await expect(otherNotes.getByText('edited')).toBeHidden();
    expect(errors).toEqual([]);
  } finally {
    await fresh.close();
  }
});

test('an edited example says so, travels in links and autosave, and can be restored', async ({ page, browser }) => {
  await page.goto('/');
  await pickExample(page, 'if-else');
  const editor = page.getByRole('textbox', { name: 'Kernel source' });
  const original = await editorText(page);
  const edited = original.replace('mov_imm  r1, 3', 'mov_imm  r1, 5');
  expect(edited).not.toBe(original);
  await editor.fill(edited);
  const notes = page.locator('details.example-notes');
  await expect(notes.getByText('edited')).toBeVisible();
  await expect(notes.locator('summary')).toContainText('If / else divergence');
  // The autosave keeps the origin: a reload shows the same explanation, still edited.
  await expect.poll(() => autosavedSource(page), 'the recompile autosaves the edit').toBe(edited);
  await page.reload();
  await expect(notes.locator('summary')).toContainText('If / else divergence');
  await expect(notes.getByText('edited')).toBeVisible();
  // So does a link, opened in a fresh browser.
  await page.getByRole('button', { name: 'Copy link' }).click();
  const hash = await page.evaluate(() => location.hash);
  const fresh = await browser.newContext();
  try {
    const other = await fresh.newPage();
    await other.goto('/' + hash);
    await expect(other.locator('details.example-notes').getByText('edited')).toBeVisible();
  } finally {
    await fresh.close();
  }
  await notes.getByRole('button', { name: 'Restore the original example' }).click();
  await expectEditorText(page, original);
  await expect(notes.getByText('edited')).toBeHidden();
  // Another kernel altogether: the explanation goes.
  await editor.fill('.kernel mine\n    halt\n.end');
  await expect(notes).toHaveCount(0);
  await expect(page.getByRole('combobox', { name: 'Examples' })).toHaveValue('');
});

test('the register table shows only the lanes in view and scrolls to the others', async ({ page }) => {
  await openLessonWith64Lanes(page);
  await expect(lanes(page)).toHaveCount(64);
  const registers = page.getByRole('region', { name: /^Registers/ });
  const table = registers.getByRole('table');
  await expect(table).toHaveAttribute('aria-colcount', '65');
  const header = table.getByRole('row').first();
  await expect(header.getByRole('columnheader', { name: '0', exact: true })).toBeVisible();
  // Far lanes are not in the page until scrolled to.
  await expect(header.getByRole('columnheader', { name: '63', exact: true })).toHaveCount(0);
  const r0 = table.getByRole('row').filter({ has: page.getByRole('rowheader', { name: 'r0', exact: true }) });
  // 6 registers and 4 predicates, but not 64 cells a row.
  expect(await r0.getByRole('cell').count()).toBeLessThan(64);
  expect(await table.getByRole('cell').count()).toBeLessThan(64 * 10);
  await step(page); // mov_sr r0, sr_lane_id: every lane but 0 changes
  await registers.locator('.registers-scroll').evaluate((el) => { el.scrollLeft = el.scrollWidth; });
  await expect(header.getByRole('columnheader', { name: '63', exact: true })).toBeVisible();
  await expect(header.getByRole('columnheader', { name: '0', exact: true })).toHaveCount(0);
  const last = r0.locator('td[aria-colindex="65"]');
  await expect(last).toHaveText('63');
  await expect(last).toHaveClass(/changed/);
  await page.getByRole('button', { name: /^Lane 62:/ }).click();
  await expect(page.getByLabel('Selected lane')).toContainText('Lane 62');
  await expect(header.getByRole('columnheader', { name: '62', exact: true })).toHaveClass(/selected/);
});

// The break-in-if lesson stepped until its loop frame is on the divergence stack; that frame.
async function stepToLoopFrame(page) {
  await page.goto('/');
  await pickExample(page, 'break-in-if');
  await expect(page.getByRole('status')).toHaveText('ready');
  const loop = frames(page).filter({ hasText: /^loop/ });
  for (let i = 0; i < 20 && (await loop.count()) === 0; i++) await step(page);
  await expect(loop).toHaveCount(1);
  return loop;
}

test('a step updates the mask rows of a frame that stays in place', async ({ page }) => {
  // Until the loop frame is on the stack, then until its break mask changes.
  const loop = await stepToLoopFrame(page);
  const strip = loop.locator('.mask-break .strip');
  const text = loop.locator('.mask-break .mask-text');
  // Tag the frame's element: a step that built the frame again (and so slid it in again at
  // teaching speed) would lose the tag.
  await loop.evaluate((el) => { el.dataset.kept = 'yes'; });
  const before = await text.textContent();
  const image = await strip.evaluate((el) => el.style.backgroundImage);
  expect(image).not.toBe('');
  for (let i = 0; i < 30 && (await text.textContent()) === before; i++) await step(page);
  expect(await text.textContent()).not.toBe(before);
  await expect(loop).toHaveAttribute('data-kept', 'yes');
  // The strip follows its mask (a lane that broke is drawn on), its tiles one per lane.
  const after = await strip.evaluate((el) => el.style.backgroundImage);
  expect(after).not.toBe(image);
  expect(after).toContain('var(--active)');
  expect(await strip.evaluate((el) => el.style.getPropertyValue('--lanes').trim())).toBe('8');
});

test('a step that leaves a frame as it was does not write its content again', async ({ page }) => {
  const loop = await stepToLoopFrame(page);
  // Over the steps inside the loop, those that leave the loop frame's text as it was (the if
  // frame pushed and popped above it, registers changing) must leave its content's elements.
  let unchanged = 0;
  for (let i = 0; i < 12; i++) {
    const before = await loop.textContent();
    await loop.locator('.frame-kind').evaluate((el) => { el.dataset.kept = 'yes'; });
    await step(page);
    if ((await loop.count()) === 0) break;
    if ((await loop.textContent()) !== before) continue;
    unchanged += 1;
    await expect(loop.locator('.frame-kind')).toHaveAttribute('data-kept', 'yes');
  }
  expect(unchanged).toBeGreaterThan(2);
});

// A mask's lane list wraps between ranges, never inside one ("0-" over "63"), so a frame keeps
// its height while its lanes change (a frame that grew moved the registers below it).
test('a mask lane list never breaks inside a range', async ({ page }) => {
  await openLessonWith64Lanes(page);
  let checked = 0;
  for (let i = 0; i < 14; i++) {
    await step(page);
    const lines = await page.locator('.mask-text').evaluateAll((elements) => elements
      .filter((el) => !el.textContent.includes(','))
      .map((el) => {
        const range = document.createRange();
        range.selectNodeContents(el);
        const tops = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
        return `${el.textContent}: ${tops.size}`;
      }));
    checked += lines.length;
    for (const line of lines) expect(line, `step ${i + 1}`).toMatch(/: 1$/);
  }
  expect(checked).toBeGreaterThan(0);
});

// The list items of the divergence stack, innermost first, as text.
const frameTexts = (page) => frames(page).allTextContents();

test('stepping fast shows each new stack at once, with the same frames as stepping slowly', async ({ page }) => {
  await page.goto('/');
  await pickExample(page, 'nested-if');
  await expect(page.getByRole('status')).toHaveText('ready');
  const stack = page.locator('ol.stack');
  // F10 as fast as it comes, until a frame is popped: no frame slides in or out, and the
  // list items are the live frames right away.
  await page.getByRole('button', { name: 'Step', exact: true }).focus();
  // The stack once the page has measured the step after the first `count` (its `wave:step`
  // ends when the DOM has caught up), read in the page in one round trip: "fast" means within
  // ANIMATION_MS of the step before, which a few round trips per step on a loaded machine were
  // not. `gapMs`: from the end of the step before to the start of this one.
  const afterStep = (count) => page.evaluate((c) => new Promise((resolve) => {
    const look = () => {
      const measured = performance.getEntriesByName('wave:step');
      if (measured.length <= c) return requestAnimationFrame(look);
      const [before, last] = measured.slice(-2);
      const note = document.querySelector('#stack-heading .view-note').textContent;
      resolve({
        count: measured.length,
        gapMs: last ? Math.round(last.startTime - before.startTime - before.duration) : null,
        depth: Number(note.match(/depth (\d+)/)[1]),
        leaving: document.querySelectorAll('ol.stack > li.leaving').length,
        entering: document.querySelectorAll('ol.stack > li.entering').length,
        items: document.querySelectorAll('ol.stack > li[role=listitem]').length,
      });
    };
    look();
  }), count);
  let depth = 0;
  let steps = 0;
  let pushes = 0;
  let count = await page.evaluate(() => performance.getEntriesByName('wave:step').length);
  for (; steps < 30; ) {
    await page.keyboard.press('F10');
    const seen = await afterStep(count);
    count = seen.count;
    steps++;
    const now = seen.depth;
    if (steps > 1) {
      const which = `step ${steps}, ${seen.gapMs} ms after the one before`;
      expect(seen.leaving, `${which}: nothing leaves`).toBe(0);
      expect(seen.entering, `${which}: nothing slides in`).toBe(0);
    }
    expect(seen.items).toBe(now);
    if (now > depth) pushes++;
    if (now < depth) break;
    depth = now;
  }
  expect(pushes, 'frames were pushed on the way').toBeGreaterThan(0);
  const fast = await frameTexts(page);
  expect(fast.length).toBe(await stackDepth(page));

  // The same steps at teaching speed: a pushed frame slides in, and once the animations are
  // over the stack shows the same frames.
  await page.getByRole('button', { name: 'Reset', exact: true }).click();
  await expect(page.getByRole('status')).toHaveText('ready');
  let slid = false;
  let since = await pageNow(page);
  let before = await stackDepth(page);
  for (let i = 0; i < steps; i++) {
    await waitAsAStudent(page, since);
    const shown = await stepAndSettle(page);
    since = shown.at;
    const entering = shown.items.filter((li) => /\bentering\b/.test(li.className));
    if (shown.depth > before && entering.length === 1) slid = true;
    before = shown.depth;
  }
  expect(slid, 'a frame pushed at teaching speed slides in').toBe(true);
  await expect(stack.locator('li.leaving')).toHaveCount(0);
  expect(await frameTexts(page)).toEqual(fast);
});

test('selecting a lane scrolls the register table to its column', async ({ page }) => {
  await openLessonWith64Lanes(page);
  await step(page); // mov_sr r0, sr_lane_id: r0 holds each lane's number
  const table = page.getByRole('region', { name: /^Registers/ }).getByRole('table');
  const header = table.getByRole('row').first();
  const r0 = table.getByRole('row').filter({ has: page.getByRole('rowheader', { name: 'r0', exact: true }) });
  // Whether lane `lane`'s column header lies whole inside the table's scroll container,
  // right of the sticky register column.
  const columnShown = (lane) => header.getByRole('columnheader', { name: String(lane), exact: true })
    .evaluate((th) => {
      const scroller = th.closest('.registers-scroll').getBoundingClientRect();
      const head = th.parentElement.querySelector('.head-cell').getBoundingClientRect();
      const cell = th.getBoundingClientRect();
      return cell.left >= head.right - 0.5 && cell.right <= scroller.right + 0.5;
    });
  await expect(header.getByRole('columnheader', { name: '50', exact: true })).toHaveCount(0);
  await page.getByRole('button', { name: /^Lane 50:/ }).click();
  await expect(header.getByRole('columnheader', { name: '50', exact: true })).toHaveClass(/selected/);
  await expect.poll(() => columnShown(50)).toBe(true);
  await expect(r0.locator('td[aria-colindex="52"]')).toHaveText('50');
  // The arrow keys move the selection and the table follows, to the last lane and back.
  await page.keyboard.press('End');
  await expect(page.getByLabel('Selected lane')).toContainText('Lane 63');
  await expect.poll(() => columnShown(63)).toBe(true);
  await page.getByRole('button', { name: /^Lane 0:/ }).click();
  await expect.poll(() => columnShown(0)).toBe(true);
  await expect(header.getByRole('columnheader', { name: '63', exact: true })).toHaveCount(0);
});
