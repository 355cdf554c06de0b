// The reference emulator behaviour as a teacher shows it: with the Launch tab's switch on, a
// step that does what wave-emu does and the spec would not says so in the events, the status
// and the step caption, and says it again after going back and forth; a link keeps the switch.
import { test, expect, expectEditorText } from './fixtures.mjs';

// A lane breaks inside an `if` in a loop (line 10); wave-emu brings it back at the `endif`
// (line 11), where the spec keeps it waiting until the loop ends.
const KERNEL = [
  '.kernel leave_early',
  '.registers 8',
  '    mov_sr   r0, sr_lane_id',
  '    mov_imm  r1, 0',
  '    mov_imm  r2, 1',
  '    loop',
  '        iadd    r1, r1, r2',
  '        icmp_gt p1, r1, r0',
  '        if p1',
  '            break p1',
  '        endif',
  '        iadd    r3, r3, r2',
  '    endloop',
  '    halt',
  '.end',
].join('\n');

const ENDIF_LINE = 11;
const NOTE = ' · departs from the spec (wave-emu behaviour)';
const REVIVED = 'wave-emu brings lanes that broke out of the loop back at this point';

const stepButton = (page) => page.getByRole('button', { name: 'Step', exact: true });
const stepCount = (page) => page.getByText(/^step \d+$/);
const events = (page) => page.getByRole('list', { name: 'What the last step did' });
const departures = (page) => events(page).getByRole('listitem').filter({ hasText: 'differs from spec' });
const caption = (page) => page.getByRole('region', { name: 'Step caption' });
const behaviourSwitch = (page) => page.getByRole('switch', { name: 'Reference emulator behaviour' });

// Presses Step and waits until the step count has moved on.
async function step(page) {
  const before = await stepCount(page).textContent();
  await stepButton(page).click();
  await expect(stepCount(page)).not.toHaveText(before);
}

// The kernel above in one wave of 8 lanes, with the reference behaviour `on` or off.
async function openKernel(page, on) {
  await page.goto('/');
  await page.getByRole('tab', { name: 'Launch configuration' }).click();
  if (on) {
    await behaviourSwitch(page).click();
    await expect(behaviourSwitch(page)).toHaveAttribute('aria-checked', 'true');
  } else {
    await expect(behaviourSwitch(page)).toHaveAttribute('aria-checked', 'false');
  }
  await page.getByRole('textbox', { name: 'Workgroup size' }).fill('8,1,1');
  await page.getByRole('textbox', { name: 'Wave width' }).fill('8');
  await page.getByRole('textbox', { name: 'Kernel source' }).fill(KERNEL);
  await expectEditorText(page, KERNEL);
  await expect(page.getByRole('status')).toHaveText('ready');
}

// Steps until the wave stands on `line`.
async function stepToLine(page, line) {
  const status = page.getByRole('status');
  for (let i = 0; i < 20 && !(await status.textContent()).startsWith(`paused at line ${line}`); i++) {
    await step(page);
  }
  await expect(status).toHaveText(new RegExp(`^paused at line ${line}\\b`));
}

// What a person reads after the endif: its departure entry, the status and the caption.
async function expectDepartureAtEndif(page) {
  await expect(page.getByRole('status')).toHaveText(`paused at line ${ENDIF_LINE + 1}${NOTE}`);
  await expect(departures(page)).toHaveCount(1);
  await expect(departures(page)).toHaveText(`differs from spec at line ${ENDIF_LINE}, lane 0: ${REVIVED}; the spec keeps them waiting until the loop ends`);
  // At its place among the events: after the reconvergence that brought the lane back.
  await expect(events(page).getByRole('listitem')).toHaveText([/^if reconverged at line 11/, /^differs from spec/]);
  await expect(caption(page)).toContainText(`endif at line ${ENDIF_LINE}:`);
  await expect(caption(page)).toContainText(`this departs from the spec for lane 0: ${REVIVED}`);
}

test('with the reference behaviour on, the endif that revives a break says it departs from the spec', async ({ page }) => {
  await openKernel(page, true);
  await stepToLine(page, ENDIF_LINE);
  await expect(departures(page)).toHaveCount(0);
  await expect(page.getByRole('status')).not.toContainText('departs');
  await step(page);
  await expectDepartureAtEndif(page);
  const atEndif = await stepCount(page).textContent();

  // The next step runs as the spec would: the note goes.
  await step(page);
  await expect(departures(page)).toHaveCount(0);
  await expect(page.getByRole('status')).not.toContainText('departs');

  // Back to the endif's step, and forward onto it again from the step before: the same words.
  await page.getByRole('button', { name: 'Step back', exact: true }).click();
  await expect(stepCount(page)).toHaveText(atEndif);
  await expectDepartureAtEndif(page);
  await page.getByRole('button', { name: 'Step back', exact: true }).click();
  await expect(page.getByRole('status')).toHaveText(`paused at line ${ENDIF_LINE}`);
  await step(page);
  await expect(stepCount(page)).toHaveText(atEndif);
  await expectDepartureAtEndif(page);

  // A link made now reopens with the switch on, at the same moment, saying the same.
  await page.getByRole('button', { name: 'Copy link' }).click();
  await expect.poll(() => page.evaluate(() => location.hash)).toMatch(/^#v1\./);
  const hash = await page.evaluate(() => location.hash);
  const other = await page.context().newPage();
  const problems = [];
  other.on('pageerror', (error) => problems.push(error.message));
  await other.goto('/' + hash);
  await expectEditorText(other, KERNEL);
  await expect(stepCount(other)).toHaveText(atEndif);
  await expectDepartureAtEndif(other);
  await other.getByRole('tab', { name: 'Launch configuration' }).click();
  await expect(behaviourSwitch(other)).toHaveAttribute('aria-checked', 'true');
  expect(problems).toEqual([]);
});

test('with the switch off the same endif keeps the spec and nothing is said', async ({ page }) => {
  await openKernel(page, false);
  await stepToLine(page, ENDIF_LINE);
  await step(page);
  await expect(events(page).getByRole('listitem')).toHaveText([/^if reconverged at line 11/]);
  await expect(departures(page)).toHaveCount(0);
  await expect(page.getByRole('status')).not.toContainText('departs');
  await expect(caption(page)).not.toContainText('departs');
});
