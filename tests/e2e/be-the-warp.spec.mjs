// Be the warp, as a learner meets it: the switch on, each control-flow instruction of the
// selected wave performed by toggling lanes and choosing what happens to the stack, Check and
// Show me, Space and Enter, step back undoing an answer, Run stopping at the next question.
// Everything is found by role and accessible name.
import { test, expect } from './fixtures.mjs';

// The lessons' own `?mask` questions would be asked first; here only Be the warp asks.
test.use({ questions: 'off' });

const warp = (page) => page.getByRole('region', { name: 'Be the warp' });
const stepCount = (page) => page.getByText(/^step \d+$/);
const lane = (page, n) => page.getByRole('group', { name: 'Lanes' }).getByRole('button', { name: new RegExp(`^Lane ${n}:`) });
const check = (page) => page.getByRole('button', { name: 'Check', exact: true });
const stack = (page, choice) => page.getByRole('radiogroup', { name: 'Stack' }).getByRole('radio', { name: choice });

async function openWithWarp(page, id) {
  await page.goto('/');
  await page.getByRole('combobox', { name: 'Examples' }).selectOption(id);
  await expect(page.getByRole('status')).toHaveText('ready');
  const toggle = page.getByRole('switch', { name: 'Be the warp' });
  await toggle.click();
  await expect(toggle).toHaveAttribute('aria-checked', 'true');
}

// Presses F10 until Be the warp asks (each press waits for the step to show).
async function stepToQuestion(page) {
  for (let i = 0; i < 40; i++) {
    if (await check(page).isVisible()) return;
    const before = await stepCount(page).textContent();
    await page.keyboard.press('F10');
    await expect.poll(async () => (await stepCount(page).textContent()) !== before
      || check(page).isVisible()).toBe(true);
  }
  throw new Error('Be the warp did not ask');
}

test('an if and its else: wrong, tried again by keys, right; Show me; step back undoes it', async ({ page }) => {
  await openWithWarp(page, 'if-else');
  await stepToQuestion(page);
  await expect(page.getByRole('status')).toHaveText('paused at line 8 for a question');
  await expect(warp(page)).toContainText('perform `if p1` (line 8)');
  // Nothing runs while it asks.
  const asked = await stepCount(page).textContent();
  await page.keyboard.press('F10');
  await expect(stepCount(page)).toHaveText(asked);

  // Wrong: every lane still active (the answer starts as the lanes active now).
  await expect(lane(page, 5)).toHaveAttribute('aria-pressed', 'true');
  await stack(page, 'Push a frame').check();
  await check(page).click();
  await expect(warp(page)).toContainText(
    'Not quite: look again at the active lanes. Think of the rule: the lanes whose predicate holds take the if side');
  await expect(stepCount(page)).toHaveText(asked);
  await expect(page.getByRole('status')).toHaveText('paused at line 8 for a question');

  // Again by keys: Space turns lanes 3-7 off, Enter on a lane checks.
  await lane(page, 3).focus();
  for (let n = 3; n <= 7; n++) {
    await expect(lane(page, n)).toBeFocused();
    await page.keyboard.press('Space');
    await expect(lane(page, n)).toHaveAttribute('aria-pressed', 'false');
    if (n < 7) await page.keyboard.press('ArrowRight');
  }
  await page.keyboard.press('Enter');
  await expect(warp(page)).toContainText(
    'Right: lanes 0-2 are active; the stack pushes a frame that saves lanes 0-7. Why: lanes 0-2 take the if side; lanes 3-7 wait at else (line 10)');
  await expect(warp(page)).toContainText('Be the warp: 1 of 1 right, 0 shown');
  await expect(stepCount(page)).not.toHaveText(asked);

  // The else, shown.
  await stepToQuestion(page);
  await expect(warp(page)).toContainText('perform `else` (line 10)');
  await page.getByRole('button', { name: 'Show me' }).click();
  await expect(warp(page)).toContainText(
    "Shown: lanes 3-7 are active; the stack's frames change. Why: lanes 3-7 run the else side");
  await expect(warp(page)).toContainText('Be the warp: 1 of 2 right, 1 shown');
  await expect(page.getByText('Be the warp: 1 of 2 right, 1 shown', { exact: true })).toHaveCount(2);

  // Step back over the else undoes its answer; the next step asks it again.
  await page.getByRole('button', { name: 'Step back' }).click();
  await expect(warp(page)).toContainText('Be the warp: 1 of 1 right, 0 shown');
  await stepToQuestion(page);
  await expect(warp(page)).toContainText('perform `else` (line 10)');
  // Enter in the Stack group checks as well.
  await stack(page, 'Change the top frame').focus();
  await page.keyboard.press('Space');
  for (let n = 0; n <= 2; n++) await lane(page, n).click();
  for (let n = 3; n <= 7; n++) await lane(page, n).click();
  await stack(page, 'Change the top frame').press('Enter');
  await expect(warp(page)).toContainText('Right: lanes 3-7 are active');
  await expect(warp(page)).toContainText('Be the warp: 2 of 2 right, 0 shown');
});

test('a break under divergence: Run stops at each question; wrong, shown, then right', async ({ page }) => {
  await openWithWarp(page, 'loop-exit');
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await expect(page.getByRole('status')).toHaveText('paused at line 8 for a question');
  await expect(warp(page)).toContainText('perform `loop` (line 8)');
  await stack(page, 'Push a frame').check();
  // After a push the toggles can set the lanes the frame saves: all eight, as they start.
  await expect(page.getByRole('radiogroup', { name: 'The lanes set' })).toBeVisible();
  await check(page).click();
  await expect(warp(page)).toContainText('Right: lanes 0-7 are active; the stack pushes a frame that saves lanes 0-7');

  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await expect(page.getByRole('status')).toHaveText('paused at line 11 for a question');
  await expect(warp(page)).toContainText('perform `break p1` (line 11)');
  // Wrong: nothing happens to the stack, says the learner.
  await lane(page, 0).click();
  await stack(page, 'Nothing').check();
  await check(page).click();
  await expect(warp(page)).toContainText('Not quite: look again at the stack. Think of the rule: the lanes whose predicate holds leave the loop');
  await page.getByRole('button', { name: 'Show me' }).click();
  await expect(warp(page)).toContainText(
    "Shown: lanes 1-7 are active; the stack's frames change. Why: lane 0 leaves the loop and waits for it to end (endloop at line 12)");

  // The endloop, then the next break, right.
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await expect(warp(page)).toContainText('perform `endloop` (line 12)');
  // Lanes 1-7 go round again, as they were: the answer needs no toggle.
  await stack(page, 'Change the top frame').check();
  await check(page).click();
  await expect(warp(page)).toContainText('Right: lanes 1-7 are active');
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await expect(warp(page)).toContainText('perform `break p1` (line 11)');
  await lane(page, 1).click();
  await stack(page, 'Change the top frame').check();
  await check(page).click();
  await expect(warp(page)).toContainText('Right: lanes 2-7 are active');
  await expect(warp(page)).toContainText('Be the warp: 3 of 4 right, 1 shown');

  // Reset starts the score over; the switch stays on, and off lets Run go to the end.
  await page.keyboard.press('Shift+F5');
  await expect(page.getByRole('status')).toHaveText('ready');
  await expect(warp(page)).not.toContainText('right,');
  await page.getByRole('switch', { name: 'Be the warp' }).click();
  await expect(warp(page)).toBeHidden();
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await expect(page.getByRole('status')).toHaveText(/^finished/);
});

test('Autoplay stops at the next question', async ({ page }) => {
  await openWithWarp(page, 'if-else');
  const autoplay = page.getByRole('button', { name: 'Autoplay', exact: true });
  await autoplay.click();
  await expect(page.getByRole('status')).toHaveText('paused at line 8 for a question');
  await expect(autoplay).toHaveAttribute('aria-pressed', 'false');
  await expect(stepCount(page)).toHaveText('step 3');
  await expect(warp(page)).toContainText('perform `if p1` (line 8)');
});

test('presenter mode keeps the question and the score', async ({ page }) => {
  await openWithWarp(page, 'if-else');
  await stepToQuestion(page);
  await page.getByRole('button', { name: 'Show me' }).click();
  await page.getByRole('button', { name: 'Presenter mode' }).click();
  await expect(page.getByRole('banner')).toBeHidden();
  await expect(warp(page)).toContainText('Be the warp: 0 of 1 right, 1 shown');
  await page.keyboard.press('F10');
  await expect(check(page)).toBeVisible();
});

test('compare mode: Be the warp belongs to one run; Step both stops only the run it asks', async ({ page }) => {
  const runA = page.getByRole('region', { name: 'Run A', exact: true });
  const runB = page.getByRole('region', { name: 'Run B', exact: true });
  await page.goto('/');
  await page.getByRole('combobox', { name: 'Examples' }).selectOption('if-else');
  await expect(page.getByRole('status')).toHaveText('ready');
  await page.getByRole('button', { name: 'Compare runs' }).click();
  await expect(runB.getByRole('status')).toHaveText('ready');
  await runA.getByRole('switch', { name: 'Be the warp' }).click();
  await expect(runA.getByRole('switch', { name: 'Be the warp' })).toHaveAttribute('aria-checked', 'true');
  await expect(runB.getByRole('switch', { name: 'Be the warp' })).toHaveAttribute('aria-checked', 'false');
  const stepBoth = page.getByRole('toolbar', { name: 'Both runs' }).getByRole('button', { name: 'Step both', exact: true });
  for (let i = 1; i <= 3; i++) {
    await stepBoth.click();
    await expect(runB.locator('.step-count')).toHaveText(`step ${i}`);
  }
  await expect(runA.getByRole('status')).toHaveText('paused at line 8 for a question');
  await expect(runA.getByRole('region', { name: 'Be the warp' })).toContainText('perform `if p1` (line 8)');
  // Run A waits for its answer; run B goes on.
  await stepBoth.click();
  await expect(runB.locator('.step-count')).toHaveText('step 4');
  await expect(runA.locator('.step-count')).toHaveText('step 3');
  await runA.getByRole('button', { name: 'Show me' }).click();
  await expect(runA.locator('.step-count')).toHaveText('step 4');
  await expect(runB.getByRole('region', { name: 'Be the warp' })).toHaveCount(0);
});

test('a lesson run to its end keeps its Be the warp score in the Lessons list, over a reload', async ({ page }) => {
  await openWithWarp(page, 'if-else');
  const run = page.getByRole('button', { name: 'Run', exact: true });
  const status = page.getByRole('status');
  // Run stops at each question; Show me answers it (and takes its step), until the run ends.
  for (let asked = 0; ; asked++) {
    expect(asked, 'the run reaches its end').toBeLessThan(40);
    await run.click();
    await expect(status).toHaveText(/^(finished|paused at line \d+ for a question)/);
    if (/^finished/.test(await status.textContent())) break;
    await page.getByRole('button', { name: 'Show me' }).click();
    await expect(status).not.toHaveText(/for a question$/);
    if (/^finished/.test(await status.textContent())) break;
  }
  const score = (await warp(page).getByText(/^Be the warp: /).textContent()).match(/^Be the warp: 0 of (\d+) right, \1 shown$/);
  expect(score).not.toBeNull();
  const entry = page.getByRole('navigation', { name: 'Lessons' }).locator('[aria-current="step"]');
  await expect(entry).toContainText(`warp 0/${score[1]}`);
  await page.reload();
  await expect(entry).toContainText(`warp 0/${score[1]}`);
});
