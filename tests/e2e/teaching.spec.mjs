// Teaching as a learner meets it: step captions, predict-then-reveal questions answered by
// keyboard, the Questions switch, the data-movement picture, and the lesson path. Everything
// is found by role and accessible name.
import { test, expect } from './fixtures.mjs';


const caption = (page) => page.getByRole('region', { name: 'Step caption' });
const question = (page) => page.getByRole('region', { name: 'Question' });
const stepCount = (page) => page.getByText(/^step \d+$/);
const lane = (page, n) => page.getByRole('group', { name: 'Lanes' }).getByRole('button', { name: new RegExp(`^Lane ${n}:`) });

async function openLesson(page, id) {
  await page.goto('/');
  await page.getByRole('combobox', { name: 'Examples' }).selectOption(id);
  await expect(page.getByRole('status')).toHaveText('ready');
}

// Presses F10 until a question opens (each press waits for the step to show).
async function stepToQuestion(page) {
  for (let i = 0; i < 40; i++) {
    if (await page.getByRole('button', { name: 'Check answer' }).isVisible()) return;
    const before = await stepCount(page).textContent();
    await page.keyboard.press('F10');
    await expect.poll(async () => (await stepCount(page).textContent()) !== before
      || page.getByRole('button', { name: 'Check answer' }).isVisible()).toBe(true);
  }
  throw new Error('no question opened');
}

// Presses F10 until the caption begins with `start` (questions off).
async function stepToCaption(page, start) {
  for (let i = 0; i < 60; i++) {
    if ((await caption(page).textContent()).startsWith(start)) return;
    const before = await stepCount(page).textContent();
    await page.keyboard.press('F10');
    await expect(stepCount(page)).not.toHaveText(before);
  }
  throw new Error(`no caption began with ${start}`);
}

test('a ?mask question answered wrong by keyboard alone, then right by click and keys', async ({ page }) => {
  await openLesson(page, 'if-else');
  await stepToQuestion(page);
  await expect(page.getByRole('status')).toHaveText('paused at line 8 for a question');
  await expect(question(page)).toContainText('Which lanes will be active after line 8 runs?');
  // Nothing runs while the question is open.
  const before = await stepCount(page).textContent();
  await page.keyboard.press('F10');
  await expect(stepCount(page)).toHaveText(before);

  // The answer starts as the lanes active now (all eight); turn lanes 3-6 off with the keys.
  await expect(lane(page, 3)).toHaveAttribute('aria-pressed', 'true');
  await lane(page, 0).focus();
  for (let n = 1; n <= 3; n++) await page.keyboard.press('ArrowRight');
  for (let n = 3; n <= 6; n++) {
    await expect(lane(page, n)).toBeFocused();
    await page.keyboard.press('Space');
    await expect(lane(page, n)).toHaveAttribute('aria-pressed', 'false');
    await page.keyboard.press('ArrowRight');
  }
  await expect(lane(page, 3)).toHaveAccessibleName(/your answer: inactive$/);
  await page.getByRole('button', { name: 'Check answer' }).focus();
  await page.keyboard.press('Enter');
  await expect(question(page)).toContainText(
    'Not quite: you said lanes 0-2, 7, but lanes 0-2 are active. Why: lanes 0-2 take the if side');
  await expect(lane(page, 7)).toHaveAccessibleName(/you said active: wrong$/);
  await expect(lane(page, 1)).toHaveAccessibleName(/you said active: right$/);
  await expect(caption(page)).toHaveText(
    'if p1 at line 8: lanes 0-2 take the if side; lanes 3-7 wait at else (line 10); stack depth 1');

  // Again from the start, right this time.
  await page.keyboard.press('Shift+F5');
  await expect(page.getByRole('status')).toHaveText('ready');
  await stepToQuestion(page);
  // A click toggles lane 3 and leaves the focus there; the keys go on from it.
  await lane(page, 3).click();
  await expect(lane(page, 3)).toHaveAttribute('aria-pressed', 'false');
  await page.keyboard.press('ArrowRight');
  for (let n = 4; n <= 7; n++) {
    await expect(lane(page, n)).toBeFocused();
    await page.keyboard.press('Space');
    await page.keyboard.press('ArrowRight');
  }
  await page.getByRole('button', { name: 'Check answer' }).press('Enter');
  await expect(question(page)).toContainText('Right: lanes 0-2 are active.');
  await expect(question(page)).toContainText('This kernel: 1 right, 1 wrong, 0 skipped');
});

test('a ?next question by the line list and by the gutter, and a skipped ?stack', async ({ page }) => {
  await openLesson(page, 'if-else');
  await stepToQuestion(page);
  await page.getByRole('button', { name: 'Skip question' }).press('Enter');
  await expect(question(page)).toContainText('Skipped: lanes 0-2 are active.');
  await stepToQuestion(page);
  await expect(question(page)).toContainText('Which line runs next after line 10?');
  // Clicking a line number picks it while the question is open (and sets no breakpoint).
  const gutter11 = page.getByRole('button', { name: 'Toggle breakpoint on line 11' });
  await gutter11.click();
  await expect(page.getByRole('combobox', { name: 'Line that runs next' })).toHaveValue('11');
  await expect(gutter11).toHaveAttribute('aria-pressed', 'false');
  await page.getByRole('combobox', { name: 'Line that runs next' }).selectOption({ label: 'line 12: endif' });
  await page.getByRole('button', { name: 'Check answer' }).click();
  await expect(question(page)).toContainText('Not quite: you said line 12, but line 11 runs next.');
  await stepToQuestion(page);
  await expect(question(page)).toContainText('How deep will the divergence stack be after line 12 runs?');
  await page.getByRole('textbox', { name: 'Stack depth' }).fill('0');
  await page.keyboard.press('Enter');
  await expect(question(page)).toContainText('Right: the stack is 0 deep.');
  await expect(question(page)).toContainText('This kernel: 1 right, 1 wrong, 1 skipped');
  // The menu keeps the score.
  await expect(page.getByRole('combobox', { name: 'Examples' }).locator('option:checked'))
    .toHaveText('If / else divergence (1 of 3 right)');
});

test('a ?value question takes what a learner types', async ({ page }) => {
  await openLesson(page, 'butterfly');
  await stepToQuestion(page);
  await expect(question(page)).toContainText('What will lane 0 hold in r3 after line 11 runs?');
  const field = page.getByRole('textbox', { name: 'Value of r3 in lane 0' });
  await field.fill('sixteen');
  await field.press('Enter');
  await expect(page.getByText('“sixteen” is not a number')).toBeVisible();
  await field.fill('0x10');
  await field.press('Enter');
  await expect(question(page)).toContainText('Right: lane 0 holds 16 in r3.');
});

test('with the Questions switch off, Run goes straight to the end', async ({ page }) => {
  await openLesson(page, 'if-else');
  const questions = page.getByRole('switch', { name: 'Questions' });
  await expect(questions).toHaveAttribute('aria-checked', 'true');
  await page.keyboard.press('F5');
  await expect(page.getByRole('status')).toHaveText('paused at line 8 for a question');
  await questions.click();
  await expect(questions).toHaveAttribute('aria-checked', 'false');
  await expect(question(page)).toHaveCount(0);
  await page.keyboard.press('F5');
  await expect(page.getByRole('status')).toHaveText(/^finished after \d+ wave-instructions$/);
  // The choice is remembered.
  await page.reload();
  await expect(page.getByRole('switch', { name: 'Questions' })).toHaveAttribute('aria-checked', 'false');
});

test('captions for if, else, endif, break, continue and a shuffle', async ({ page }) => {
  await page.addInitScript(() => localStorage.setItem('wave-playground.questions', 'off'));
  await openLesson(page, 'if-else');
  await expect(caption(page)).toHaveText('Nothing has run yet: wave 0 starts at line 5 with lanes 0-7 active.');
  await stepToCaption(page, 'if p1');
  await expect(caption(page)).toHaveText(
    'if p1 at line 8: lanes 0-2 take the if side; lanes 3-7 wait at else (line 10); stack depth 1');
  await stepToCaption(page, 'else');
  await expect(caption(page)).toHaveText(
    'else at line 10: lanes 3-7 run the else side; lanes 0-2 wait at endif (line 12); stack depth 1');
  await stepToCaption(page, 'endif');
  await expect(caption(page)).toHaveText('endif at line 12: lanes 0-7 reconverge and go on together; stack depth 0');
  // Time travel shows the same words.
  await page.keyboard.press('Shift+F10');
  await expect(caption(page)).toHaveText(/^mov_imm r2, 222 at line 11: ran on lanes 3-7/);
  await page.keyboard.press('F10');
  await expect(caption(page)).toHaveText('endif at line 12: lanes 0-7 reconverge and go on together; stack depth 0');

  await openLesson(page, 'break-continue');
  await stepToCaption(page, 'continue p2');
  await expect(caption(page)).toHaveText('continue p2 at line 17: lanes 0-7 skip the rest of this iteration '
    + 'and wait at endloop (line 19); no lane is left on this path, so the wave jumps to line 19');
  await stepToCaption(page, 'break p1 at line 14: lane 0');
  await expect(caption(page)).toHaveText('break p1 at line 14: lane 0 leaves the loop and waits for it to end '
    + '(endloop at line 19); 7 lanes go on');

  await openLesson(page, 'butterfly');
  await stepToCaption(page, 'wave_shuffle_xor r5');
  await expect(caption(page)).toHaveText('wave_shuffle_xor r5, r0, r4 at line 22: lane 0 read inactive lane 4, '
    + 'lane 1 read inactive lane 5, lane 2 read inactive lane 6, lane 3 read inactive lane 7');
  const picture = page.getByRole('img', { name: /^Data movement of wave_shuffle_xor r5, r0, r4 at line 22/ });
  await expect(picture).toHaveAccessibleName(
    'Data movement of wave_shuffle_xor r5, r0, r4 at line 22: 4 lanes written, 4 read from inactive lanes');
  await page.getByText('Lane by lane').click();
  await expect(page.getByRole('list', { name: 'Data movement, lane by lane' }).getByRole('listitem'))
    .toHaveText(['lane 0 read inactive lane 4 and got 4', 'lane 1 read inactive lane 5 and got 5',
      'lane 2 read inactive lane 6 and got 6', 'lane 3 read inactive lane 7 and got 7',
      'lane 4: inactive, unchanged', 'lane 5: inactive, unchanged', 'lane 6: inactive, unchanged',
      'lane 7: inactive, unchanged']);
  await page.keyboard.press('F10');
  await expect(picture).toHaveCount(0);
});

test('the lesson path: a finished lesson is marked done and Next lesson goes on', async ({ page }) => {
  await page.addInitScript(() => localStorage.setItem('wave-playground.questions', 'off'));
  await openLesson(page, 'predicates');
  await expect(page.getByText(/^0 of \d+ lessons done$/)).toBeVisible();
  await page.keyboard.press('F5');
  await expect(page.getByRole('status')).toHaveText(/^finished/);
  await expect(page.getByText(/^1 of \d+ lessons done$/)).toBeVisible();
  await expect(page.getByRole('combobox', { name: 'Examples' }).locator('option:checked'))
    .toHaveText('✓ Predicates and compares');
  await page.getByRole('button', { name: 'Next lesson' }).click();
  await expect(page.getByRole('combobox', { name: 'Examples' })).toHaveValue('uniform-if');
  // It all stays in this browser.
  await page.reload();
  await expect(page.getByRole('combobox', { name: 'Examples' }).locator('option[value="predicates"]'))
    .toHaveText('✓ Predicates and compares');
});
