// The kernel editor as a person uses it: typing, pasting a long kernel, reading diagnostics,
// setting breakpoints by pointer and keyboard, folding, search and replace, undo, completion.
import { test, expect, kernelEditor, expectEditorText } from './fixtures.mjs';
import { longKernel } from '../../scripts/lib/long-kernel.mjs';

const status = (page) => page.getByRole('status');
const breakpoint = (page, line) => page.getByRole('button', { name: `Toggle breakpoint on line ${line}` });
const caretLine = (page) => page.getByRole('heading', { name: /^Kernel/ });

// Moves the caret to the start of 1-based line `line` by keyboard.
async function caretTo(page, line) {
  await kernelEditor(page).focus();
  await page.keyboard.press('Control+Home');
  for (let i = 1; i < line; i++) await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Home');
  await expect(caretLine(page)).toContainText(`Ln ${line}`);
}

test('typing indents inside blocks and lines a closing keyword up with its opener', async ({ page }) => {
  await page.goto('/');
  const editor = kernelEditor(page);
  await editor.fill('');
  await editor.focus();
  await page.keyboard.type('.kernel typed\n.registers 4\nmov_imm r1, 1\nif p0\nmov_imm r2, 2\nelse\nmov_imm r2, 3\nendif\nhalt\n.end');
  await expectEditorText(page, [
    '.kernel typed', '.registers 4', '    mov_imm r1, 1', '    if p0', '        mov_imm r2, 2', '    else',
    '        mov_imm r2, 3', '    endif', '    halt', '.end',
  ].join('\n'));
  await expect(page.getByText('10 lines')).toBeVisible();
  await expect(status(page)).toHaveText('ready');
});

test('a 5,000-line kernel pasted from the clipboard is shown, compiled and drawn only where visible', async ({ page }) => {
  await page.goto('/');
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
  const kernel = longKernel(5000);
  await page.evaluate((text) => navigator.clipboard.writeText(text), kernel);
  const editor = kernelEditor(page);
  await editor.focus();
  await page.keyboard.press('Control+A');
  await page.keyboard.press('Control+V');
  await expect(page.getByText('5000 lines')).toBeVisible();
  // A step at once, before the pause in typing is over, runs the pasted kernel: the command
  // finishes its recompile first.
  await page.keyboard.press('F10');
  await expect(status(page)).toHaveText('paused at line 4');
  await expect(page.getByText('No problems', { exact: true })).toBeVisible();
  await page.keyboard.press('Shift+F5');
  await expect(status(page)).toHaveText('ready');
  // Only the lines on screen (and a margin) are in the page.
  expect(await editor.locator('.cm-line').count()).toBeLessThan(200);
  await page.keyboard.press('Control+End');
  await expect(caretLine(page)).toContainText('Ln 5000');
  await expect(editor.locator('.cm-line').last()).toHaveText('.end');
  // Ctrl+Z takes the paste back as one change.
  await page.keyboard.press('Control+z');
  await expect(page.getByText('20 lines')).toBeVisible();
  await expect(editor).toContainText('.kernel parity');
});

test('a diagnostic is underlined, marked in the gutter, and read on hover and at the caret', async ({ page }) => {
  await page.goto('/');
  const editor = kernelEditor(page);
  await editor.fill('.kernel k\n    frobnicate r1\n    halt\n.end');
  const underline = page.locator('.cm-lintRange-error');
  await expect(underline).toHaveText('frobnicate');
  await expect(page.locator('.cm-gutter-lint .cm-lint-marker-error')).toHaveCount(1);
  await expect(page.getByText('1 error, 0 warnings')).toBeVisible();
  await underline.hover();
  await expect(page.locator('.cm-tooltip-hover')).toContainText('unknown instruction `frobnicate`');
  await page.mouse.move(0, 0);
  // Keyboard: the caret on the bad word shows the same message.
  await caretTo(page, 2);
  await page.keyboard.press('End');
  await page.keyboard.press('Home');
  await expect(page.locator('.cm-caret-diagnostic')).toContainText('error: unknown instruction `frobnicate`');
  await page.keyboard.type('iadd r1, r1, r1 ; ');
  await expect(underline).toHaveCount(0);
  await expect(page.getByText('No problems', { exact: true })).toBeVisible();
});

test('a diagnostic whose word is deleted and retyped goes from the gutter with the recompile', async ({ page }) => {
  await page.goto('/');
  const editor = kernelEditor(page);
  await editor.fill('.kernel k\n    iad r1, r1, r1\n    halt\n.end');
  const marker = page.locator('.cm-gutter-lint .cm-lint-marker-error');
  await expect(marker).toHaveCount(1);
  // The word deleted, then the right one typed before the recompile: the diagnostic's range
  // went with the word, its gutter marker stays until the recompile sends the empty list.
  await page.locator('.cm-lintRange-error').dblclick();
  await page.keyboard.press('Delete');
  await expect(page.locator('.cm-lintRange-error')).toHaveCount(0);
  await page.keyboard.insertText('iadd');
  await expect(page.getByText('No problems', { exact: true })).toBeVisible();
  await expect(marker).toHaveCount(0);
});

test('breakpoints toggle from the gutter and from the keyboard, and Run stops at them', async ({ page }) => {
  await page.goto('/');
  await breakpoint(page, 13).click();
  await expect(breakpoint(page, 13)).toHaveAttribute('aria-pressed', 'true');
  await caretTo(page, 11);
  await page.keyboard.press('Control+F9');
  await expect(breakpoint(page, 11)).toHaveAttribute('aria-pressed', 'true');
  // Ctrl+F9 is the editor's: it did not step over anything.
  await expect(status(page)).toHaveText('ready');
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await expect(status(page)).toHaveText(/^paused at line 11/);
  await kernelEditor(page).focus();
  await page.keyboard.press('Control+F9');
  await expect(breakpoint(page, 11)).toHaveAttribute('aria-pressed', 'false');
  await page.getByRole('button', { name: /^Continue|^Run$/ }).click();
  await expect(status(page)).toHaveText(/^paused at line 13/);
});

test('if, else and loop blocks fold from the gutter and the keyboard', async ({ page }) => {
  await page.goto('/');
  const editor = kernelEditor(page);
  await expect(editor.locator('.cm-line')).toHaveCount(20);
  // Line 10 is `if p1`: folding it hides the `if` side (line 11) and keeps `else` in view.
  await page.getByTitle('Fold line', { exact: true }).nth(1).click();
  await expect(editor.locator('.cm-foldPlaceholder')).toHaveCount(1);
  await expect(editor.locator('.cm-line')).toHaveCount(19);
  await expect(editor).not.toContainText('mov_imm r4, 100');
  await expect(editor).toContainText('odd lanes');
  await page.locator('.cm-foldPlaceholder').click();
  await expect(editor.locator('.cm-line')).toHaveCount(20);
  // Ctrl+Shift+[ folds where the caret is (the kernel, from `.kernel` to `.end`).
  await caretTo(page, 3);
  await page.keyboard.press('Control+Shift+BracketLeft');
  await expect(editor.locator('.cm-line')).toHaveCount(5);
  await page.keyboard.press('Control+Shift+BracketRight');
  await expect(editor.locator('.cm-line')).toHaveCount(20);
});

test('search and replace, and several selections typed at once', async ({ page }) => {
  await page.goto('/');
  const editor = kernelEditor(page);
  await editor.focus();
  await page.keyboard.press('Control+f');
  const find = page.getByRole('textbox', { name: 'Find' });
  await expect(find).toBeFocused();
  await find.fill('r4');
  await page.getByRole('textbox', { name: 'Replace' }).fill('r7');
  await page.getByRole('button', { name: 'replace all' }).click();
  await expect(editor).toContainText('mov_imm r7, 100');
  await expect(editor).not.toContainText('r4');
  await page.keyboard.press('Escape');
  await expect(find).toHaveCount(0);
  // Ctrl+D adds the next occurrence of the word to the selection; typing replaces both.
  await caretTo(page, 11);
  await page.keyboard.press('End');
  await page.keyboard.press('Home');
  await page.keyboard.press('Control+ArrowRight');
  await page.keyboard.press('Control+ArrowRight');
  await page.keyboard.press('Control+d');
  await page.keyboard.press('Control+d');
  await page.keyboard.type('r5');
  await expect(editor).toContainText('mov_imm r5, 100');
  await expect(editor).toContainText('mov_imm r5, 200');
});

test('undo and redo cover typing, Tab indents and an example loaded by the page', async ({ page }) => {
  await page.goto('/');
  const editor = kernelEditor(page);
  await editor.fill('halt');
  await editor.press('Home');
  await editor.press('Tab');
  await expectEditorText(page, '    halt');
  await page.keyboard.press('Control+z');
  await expectEditorText(page, 'halt');
  await page.keyboard.press('Control+y');
  await expectEditorText(page, '    halt');
  // An example replaces the text; undo in the editor brings the work back and recompiles it.
  await page.getByRole('combobox', { name: 'Examples' }).selectOption('if-else');
  await expect(editor).toContainText('.kernel');
  await expect(page.getByText('1 line', { exact: true })).toHaveCount(0);
  await editor.focus();
  await page.keyboard.press('Control+z');
  await expectEditorText(page, '    halt');
  await expect(page.getByText('1 line', { exact: true })).toBeVisible();
  await expect(status(page)).toHaveText(/^cannot run/);
});

test('comments toggle, block keywords match, labels complete and lead to their definition', async ({ page }) => {
  await page.goto('/');
  const editor = kernelEditor(page);
  // The caret on `endif` marks its `if` and `else` too.
  await caretTo(page, 14);
  await page.keyboard.press('End');
  await expect(editor.locator('.cm-block-match')).toHaveText(['if', 'else', 'endif']);
  await page.keyboard.press('Control+/');
  await expect(editor.locator('.cm-line').nth(13)).toHaveText(/^\s*; endif$/);
  await expect(editor.locator('.cm-block-unmatched')).toHaveCount(0);
  await page.keyboard.press('Control+/');
  await expect(editor.locator('.cm-line').nth(13)).toHaveText(/^\s*endif$/);

  await editor.fill('.kernel k\n.registers 4\n    call helper\n    halt ; ?next\nhelper:\n    mov_imm r1, 1\n    ret\n.end');
  // A teaching question's comment stands out from an ordinary one.
  await expect(editor.locator('.tok-question')).toHaveText('; ?next');
  await expect(editor.locator('.tok-label')).toHaveText(['k', 'helper', 'helper:']);
  await caretTo(page, 3);
  await page.keyboard.press('End');
  await page.keyboard.press('F12');
  await expect(caretLine(page)).toContainText('Ln 5');
  // Completion: a mnemonic with its operands from the engine's table, filled in as a snippet.
  await page.keyboard.press('End');
  await page.keyboard.press('Enter');
  await page.keyboard.type('icmp_e');
  const option = page.getByRole('option', { name: /icmp_eq/ });
  await expect(option).toContainText('pd, rs1, rs2');
  await option.click();
  await expect(editor.locator('.cm-line').nth(5)).toHaveText('    icmp_eq pd, rs1, rs2');
  await page.keyboard.type('p2');
  await expect(editor.locator('.cm-line').nth(5)).toHaveText('    icmp_eq p2, rs1, rs2');
});

test('the editor takes the page theme, and a touch tap places the caret', async ({ browser }) => {
  const context = await browser.newContext({ hasTouch: true, colorScheme: 'dark' });
  const page = await context.newPage();
  try {
    await page.goto('/');
    const editor = kernelEditor(page);
    const background = () => page.locator('.cm-editor').evaluate((e) => getComputedStyle(e).backgroundColor);
    const codeBackground = () => page.evaluate(() => getComputedStyle(document.documentElement).getPropertyValue('--code-bg').trim());
    expect(await background()).toBe('rgb(17, 21, 28)');
    expect(await codeBackground()).toBe('#11151c');
    await page.getByRole('button', { name: /^Theme/ }).click();
    await expect(page.locator('html')).toHaveAttribute('data-theme', 'light');
    await expect.poll(background).not.toBe('rgb(17, 21, 28)');
    await editor.locator('.cm-line').nth(9).tap();
    await expect(caretLine(page)).toContainText('Ln 10');
  } finally {
    await context.close();
  }
});

// Where run `region`'s editor marks the selected wave's line: whether the band behind the text
// and the band across the gutters both lie on `line`, the line is in sight in the scroller, and
// the scroller's position.
const lineMarks = (region, line) => region.locator('.cm-editor').evaluate((editor, line) => {
  const box = (element) => (element && element.offsetParent !== null ? element.getBoundingClientRect() : null);
  const shown = box(editor.querySelectorAll('.cm-content .cm-line')[line - 1]);
  const text = box(editor.querySelector('.cm-exec-line'));
  const gutter = box(editor.querySelector('.cm-exec-gutter-line'));
  const gutters = box(editor.querySelector('.cm-gutters'));
  const content = box(editor.querySelector('.cm-content'));
  const scroller = editor.querySelector('.cm-scroller');
  const view = scroller.getBoundingClientRect();
  const onLine = (band) => band !== null && shown !== null && Math.abs(band.top - shown.top) < 1
    && Math.abs(band.height - shown.height) < 1;
  return {
    text: onLine(text) && Math.abs(text.left - content.left) < 1,
    // Across the gutters, inside their right border.
    gutters: onLine(gutter) && Math.abs(gutter.left - gutters.left) < 1 && Math.abs(gutter.right - gutters.right) <= 2,
    inSight: shown !== null && shown.top >= view.top - 1 && shown.bottom <= view.bottom + 1,
    scrollTop: Math.round(scroller.scrollTop),
  };
}, line);

// The executions each heat bar of run `region`'s editor stands for, from their hover text.
const heatCounts = (region) => region.locator('.cm-editor .heat.shown').evaluateAll((bars) =>
  bars.map((bar) => Number(/^(\d+) wave-instructions/.exec(bar.title)?.[1])));

test.describe('the machine in the editor', () => {
  // Tall enough for each editor of two runs to show a few lines beside the lesson's notes.
  test.use({ questions: 'off', viewport: { width: 1400, height: 900 } });

  test('the selected wave\'s line is marked across gutters and text, kept in sight step by step, and each line\'s heat bar counts its wave-instructions', async ({ page }) => {
    await page.goto('/');
    await page.getByRole('combobox', { name: 'Examples' }).selectOption('break-in-if');
    await expect(status(page)).toHaveText('ready');
    // Two runs side by side: each editor shows a few lines, so following the line scrolls.
    await page.getByRole('button', { name: 'Compare runs' }).click();
    const run = page.getByRole('region', { name: 'Run A', exact: true });
    await expect(run.getByRole('status')).toHaveText('ready');
    const scrolls = new Set();
    const stepTo = async (count) => {
      await run.getByRole('button', { name: 'Step', exact: true }).click();
      await expect(run.locator('.step-count')).toHaveText(`step ${count}`);
      const line = Number(/line (\d+)/.exec(await run.getByRole('status').textContent())[1]);
      await expect.poll(async () => {
        const { text, gutters, inSight } = await lineMarks(run, line);
        return { text, gutters, inSight };
      }, { message: `step ${count}, line ${line}` }).toEqual({ text: true, gutters: true, inSight: true });
      scrolls.add((await lineMarks(run, line)).scrollTop);
      // One wave: every step is one wave-instruction of a line run so far.
      await expect.poll(() => heatCounts(run).then((c) => c.reduce((sum, n) => sum + n, 0))).toBe(count);
    };
    // Through the loop's first iteration and back to its top (line 10 again).
    for (let count = 1; count <= 13; count++) await stepTo(count);
    expect(scrolls.size, 'the editor scrolled to follow the line').toBeGreaterThan(2);
    const twice = await heatCounts(run);
    expect(twice.filter((n) => n === 2)).toHaveLength(1);

    // Scrolled away by hand, the editor brings the line back at the next step.
    await kernelEditor(run).hover();
    await page.mouse.wheel(0, -2000);
    await expect.poll(async () => (await lineMarks(run, 10)).scrollTop).toBe(0);
    await stepTo(14);
  });
});
