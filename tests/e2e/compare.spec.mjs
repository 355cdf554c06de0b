// Compare mode as a teacher uses it: two runs side by side, moved together, their numbers and
// results compared, shared by a link, and stacked on a phone.
import { test, expect, kernelEditor, autosaved } from './fixtures.mjs';

test.use({ questions: 'off' });

const runA = (page) => page.getByRole('region', { name: 'Run A', exact: true });
const runB = (page) => page.getByRole('region', { name: 'Run B', exact: true });
const toggle = (page) => page.getByRole('button', { name: 'Compare runs' });
const table = (page) => page.getByRole('table', { name: 'Comparison' });
const both = (page, name) =>
  page.getByRole('toolbar', { name: 'Both runs' }).getByRole('button', { name, exact: true });
const stepCount = (region) => region.locator('.step-count');
const editorLines = (region) =>
  kernelEditor(region).locator('.cm-line').allTextContents().then((lines) => lines.join('\n'));

// The cells of the table's row for `measure`: [A, B, difference], once the table is current (off
// screen it catches up when the runs pause, and says it is busy until then).
async function row(page, measure) {
  await expect(table(page)).not.toHaveAttribute('aria-busy', 'true');
  const cells = table(page).getByRole('row', { name: new RegExp(`^${measure}`) }).getByRole('cell');
  return cells.allTextContents();
}

// The value a run's Statistics tab shows for `label`.
async function statistic(region, label) {
  await region.getByRole('tab', { name: 'Statistics' }).click();
  const term = region.getByRole('tabpanel').locator('dt', { hasText: new RegExp(`^${label}$`) });
  return term.locator('xpath=following-sibling::dd[1]').textContent();
}

// Replaces run B's kernel text (CodeMirror takes a fill like typing) and waits until run B has
// compiled it (the autosave of both runs follows each recompile).
async function typeIntoB(page, text) {
  await kernelEditor(runB(page)).fill(text);
  await expect.poll(async () => (await autosaved(page))?.b?.source).toBe(text);
}

async function startComparing(page) {
  await page.goto('/');
  await expect(page.getByRole('status')).toHaveText('ready');
  await toggle(page).click();
  await expect(toggle(page)).toHaveAttribute('aria-pressed', 'true');
  await expect(runB(page).getByRole('status')).toHaveText(/ready|paused/);
}

test('Compare runs splits the machine into Run A and Run B, B a copy of A; leaving keeps A', async ({ page }) => {
  await page.goto('/');
  await expect(toggle(page)).toHaveAttribute('aria-pressed', 'false');
  await expect(page.getByRole('region', { name: 'Run A', exact: true })).toHaveCount(0);
  await toggle(page).click();
  await expect(toggle(page)).toHaveAttribute('aria-pressed', 'true');
  await expect(kernelEditor(runA(page))).toBeVisible();
  await expect(kernelEditor(runB(page))).toBeVisible();
  const a = await editorLines(runA(page));
  expect(a).toContain('.kernel parity');
  await expect.poll(() => editorLines(runB(page))).toBe(a);

  // B gets its own kernel; A keeps its own.
  await typeIntoB(page, a.replace('mov_imm r4, 200', 'mov_imm r4, 300'));
  expect(await editorLines(runA(page))).toBe(a);

  // Leaving compare mode keeps run A as the single run.
  await toggle(page).click();
  await expect(runB(page)).toHaveCount(0);
  await expect(page.getByRole('region', { name: 'Run A', exact: true })).toHaveCount(0);
  await expect.poll(() => kernelEditor(page).locator('.cm-line').allTextContents().then((l) => l.join('\n'))).toBe(a);
});

test('Step both moves each selected wave; Run both finishes both; the table and the verdict follow', async ({ page }) => {
  await startComparing(page);
  await both(page, 'Step both').click();
  await expect(stepCount(runA(page))).toHaveText('step 1');
  await expect(stepCount(runB(page))).toHaveText('step 1');
  await both(page, 'Step both').click();
  await expect(stepCount(runA(page))).toHaveText('step 2');
  await expect(stepCount(runB(page))).toHaveText('step 2');
  await both(page, 'Step back both').click();
  await expect(stepCount(runA(page))).toHaveText('step 1');
  await expect(stepCount(runB(page))).toHaveText('step 1');

  await both(page, 'Run both').click();
  await expect(runA(page).getByRole('status').first()).toHaveText(/^finished/);
  await expect(runB(page).getByRole('status').first()).toHaveText(/^finished/);
  await expect(page.locator('.memory-verdict')).toHaveText(/^Results equal/);

  // The table's numbers are the runs' own statistics.
  const [a, b, difference] = await row(page, 'Wave-instructions issued');
  expect(a).toBe(await statistic(runA(page), 'Wave-instructions'));
  expect(b).toBe(await statistic(runB(page), 'Wave-instructions'));
  expect(a).toBe(b);
  expect(difference).not.toMatch(/[1-9]/);
  const [efficiencyA] = await row(page, 'SIMD efficiency');
  expect(efficiencyA.replace(/\s/g, '')).toBe((await statistic(runA(page), 'SIMD efficiency')).replace(/\s/g, ''));

  await both(page, 'Reset both').click();
  await expect(stepCount(runA(page))).toHaveText('step 0');
  await expect(stepCount(runB(page))).toHaveText('step 0');
});

test('off screen, the table and the timelines wait for the steps to pause, say they are busy meanwhile, then show the runs', async ({ page }) => {
  await page.setViewportSize({ width: 1400, height: 900 });
  await startComparing(page);
  await both(page, 'Step both').focus();
  await page.evaluate(() => window.scrollTo(0, 0));
  // Below the screen by more than the 200 px at which they count as near.
  const pane = page.locator('.compare-pane');
  const top = await pane.locator('.timeline').first().evaluate((el) => el.getBoundingClientRect().top);
  expect(top).toBeGreaterThan(900 + 200);
  await page.evaluate(() => {
    const seen = { keys: [], changes: [], busy: [] };
    window.__seen = seen;
    document.addEventListener('keydown', () => seen.keys.push(performance.now()), true);
    new MutationObserver((list) => {
      for (const m of list) {
        if (m.attributeName === 'aria-busy') seen.busy.push(`${m.target.tagName} ${m.target.getAttribute('aria-busy')}`);
        else seen.changes.push(performance.now());
      }
    }).observe(document.querySelector('.compare-pane'), {
      subtree: true, childList: true, characterData: true, attributes: true,
      attributeFilter: ['aria-busy', 'aria-valuenow', 'aria-valuetext'],
    });
  });
  for (let i = 1; i <= 3; i++) {
    await page.keyboard.press('F10');
    await expect(stepCount(runB(page))).toHaveText(`step ${i}`);
  }
  await expect(table(page)).not.toHaveAttribute('aria-busy', 'true');
  const tracks = page.getByRole('slider', { name: /^Timeline, run/ });
  await expect(tracks).toHaveCount(2);
  for (const track of await tracks.all()) await expect(track).toHaveAttribute('aria-valuenow', '3');
  await expect(pane.locator('.timeline[aria-busy]')).toHaveCount(0);
  const seen = await page.evaluate(() => window.__seen);
  expect(seen.busy).toEqual(expect.arrayContaining(['TABLE true', 'SECTION true']));
  expect(seen.changes.length).toBeGreaterThan(0);
  // Nothing changed right after a step: each change came once the steps had paused.
  for (const at of seen.changes) {
    const lastKey = Math.max(...seen.keys.filter((key) => key <= at));
    expect(at - lastKey).toBeGreaterThanOrEqual(200);
  }
  const [a] = await row(page, 'Wave-instructions issued');
  expect(a).toBe(await statistic(runA(page), 'Wave-instructions'));
});

test('a rewrite that computes something else is caught: the results differ at the first address', async ({ page }) => {
  await startComparing(page);
  const source = await editorLines(runA(page));
  // Odd lanes store 300 instead of 200: lane 1's word at address 0x4 is the first to differ.
  await typeIntoB(page, source.replace('mov_imm r4, 200', 'mov_imm r4, 300'));
  await both(page, 'Run both').click();
  const verdict = page.locator('.memory-verdict');
  await expect(verdict).toHaveText(/^Results differ/);
  await expect(verdict).toContainText('0x');
  await expect(verdict).toContainText('200');
  await expect(verdict).toContainText('300');
  await expect(verdict).toHaveClass(/differ/);
});

test('one run goes on alone when the other has finished, and the page says so', async ({ page }) => {
  await startComparing(page);
  const source = await editorLines(runA(page));
  // B halts at once.
  await typeIntoB(page, '.kernel quick\n.registers 1\n    halt\n.end');
  await both(page, 'Step both').click();
  await both(page, 'Step both').click();
  await expect(runB(page).getByRole('status').first()).toHaveText(/^finished/);
  await expect(page.locator('.compare-alone')).toHaveText(/Run B has finished; Run A goes on alone/);
  await both(page, 'Step both').click();
  await expect(stepCount(runA(page))).toHaveText('step 3');
  expect(source).toContain('parity');
});

test('Copy link carries both runs and their moment; the link opens in compare mode', async ({ page }) => {
  await startComparing(page);
  const source = await editorLines(runA(page));
  await typeIntoB(page, source.replace('mov_imm r4, 200', 'mov_imm r4, 300'));
  for (let i = 0; i < 4; i++) await both(page, 'Step both').click();
  await expect(stepCount(runB(page))).toHaveText('step 4');
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.getByRole('button', { name: 'Copy link' }).click();
  await expect(page.getByText('Link copied')).toBeVisible();
  const url = page.url();
  expect(url).toMatch(/#v1\./);

  const other = await page.context().newPage();
  await other.goto(url);
  await expect(other.getByRole('button', { name: 'Compare runs' })).toHaveAttribute('aria-pressed', 'true');
  await expect(stepCount(runA(other))).toHaveText('step 4');
  await expect(stepCount(runB(other))).toHaveText('step 4');
  await expect.poll(() => editorLines(runA(other))).toBe(source);
  await expect.poll(() => editorLines(runB(other))).toContain('mov_imm r4, 300');
  await other.close();
});

test('the autosave keeps both runs across a reload', async ({ page }) => {
  await startComparing(page);
  const source = await editorLines(runA(page));
  await typeIntoB(page, source.replace('mov_imm r4, 200', 'mov_imm r4, 300'));
  // Saved once the typing pauses: both runs, B with its edit.
  await expect.poll(async () => (await autosaved(page))?.b?.source ?? '').toContain('mov_imm r4, 300');
  expect((await autosaved(page)).source).toBe(source);
  await page.reload();
  await expect(toggle(page)).toHaveAttribute('aria-pressed', 'true');
  await expect.poll(() => editorLines(runB(page))).toContain('mov_imm r4, 300');
  await expect.poll(() => editorLines(runA(page))).toBe(source);
});

test('an example opens in the run whose editor had focus', async ({ page }) => {
  await startComparing(page);
  const a = await editorLines(runA(page));
  await kernelEditor(runB(page)).click();
  await page.getByRole('combobox', { name: 'Examples' }).selectOption('if-else');
  await expect.poll(() => editorLines(runB(page))).not.toBe(a);
  expect(await editorLines(runA(page))).toBe(a);
});

test('on a phone, A and B stack with the comparison between them, nothing wider than the screen', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await startComparing(page);
  const top = async (locator) => (await locator.boundingBox()).y;
  const a = await top(runA(page));
  const comparison = await top(table(page));
  const b = await top(runB(page));
  expect(a).toBeLessThan(comparison);
  expect(comparison).toBeLessThan(b);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow).toBeLessThanOrEqual(0);
});

test('a lesson pair opens straight in compare mode; its table and verdict teach the lesson', async ({ page }) => {
  await page.goto('/');
  await page.getByRole('combobox', { name: 'Examples' }).selectOption('pair-branch-vs-select');
  await expect(toggle(page)).toHaveAttribute('aria-pressed', 'true');
  await expect(page.getByText('Both runs take one Collatz step')).toBeVisible();
  await expect.poll(() => editorLines(runA(page))).toContain('if ');
  await expect.poll(() => editorLines(runB(page))).toContain('select');
  await both(page, 'Run both').click();
  await expect(page.locator('.memory-verdict')).toHaveText(/^Results equal/);
  const [issuedA, issuedB] = (await row(page, 'Wave-instructions issued')).map((n) => Number(n.replace(/\D/g, '')));
  expect(issuedB).toBeLessThan(issuedA);
  expect(issuedA).toBe(Number((await statistic(runA(page), 'Wave-instructions')).replace(/\D/g, '')));
  expect(issuedB).toBe(Number((await statistic(runB(page), 'Wave-instructions')).replace(/\D/g, '')));
  const [efficiencyA, efficiencyB] = (await row(page, 'SIMD efficiency')).map(parseFloat);
  expect(efficiencyB).toBeGreaterThan(efficiencyA);
  await expect(table(page).locator('tr.differs')).not.toHaveCount(0);
  await expect(page.locator('.compare-headline')).toHaveText(/^B issues \d+ ?% fewer wave-instructions/);
});

test('the wave-width pair differs only in its launch', async ({ page }) => {
  await page.goto('/');
  await page.getByRole('combobox', { name: 'Examples' }).selectOption('pair-wave-width');
  await expect.poll(async () => (await editorLines(runB(page))) === (await editorLines(runA(page)))).toBe(true);
  for (const [region, width] of [[runA(page), '8'], [runB(page), '32']]) {
    await region.getByRole('tab', { name: 'Launch configuration' }).click();
    await expect(region.getByRole('textbox', { name: 'Wave width' })).toHaveValue(width);
  }
  await both(page, 'Run both').click();
  await expect(page.locator('.memory-verdict')).toHaveText(/^Results equal/);
});

test('leaving the page while an edit of B waits for its recompile keeps the edit', async ({ page }) => {
  await startComparing(page);
  const source = await editorLines(runA(page));
  await kernelEditor(runB(page)).fill(source.replace('mov_imm r4, 200', 'mov_imm r4, 400'));
  await page.evaluate(() => window.dispatchEvent(new Event('pagehide')));
  expect((await autosaved(page))?.b?.source ?? '').toContain('mov_imm r4, 400');
});

test('an embed of a comparison opens in compare mode', async ({ page }) => {
  await page.goto('/');
  await page.getByRole('combobox', { name: 'Examples' }).selectOption('pair-reduction-addressing');
  await expect(toggle(page)).toHaveAttribute('aria-pressed', 'true');
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.getByRole('button', { name: 'Copy embed code' }).click();
  await expect(page.getByText(/^Embed code copied/)).toBeVisible();
  const code = await page.evaluate(() => navigator.clipboard.readText());
  const src = code.match(/src="([^"]+)"/)[1].replace(/&amp;/g, '&');
  expect(src).toMatch(/&embed$/);

  const embed = await page.context().newPage();
  await embed.goto(src);
  await expect(embed.getByRole('link', { name: /Open in WAVE Playground/ })).toBeVisible();
  await expect(kernelEditor(runA(embed))).toBeVisible();
  await expect(kernelEditor(runB(embed))).toBeVisible();
  await embed.getByRole('toolbar', { name: 'Both runs' }).getByRole('button', { name: 'Run both' }).click();
  await expect(embed.locator('.memory-verdict')).toHaveText(/^Results equal/);
  await expect(table(embed)).toBeVisible();
  await embed.close();
});

test('presenter mode shows the lanes of both runs and the table, large', async ({ page }) => {
  await page.goto('/');
  await page.getByRole('combobox', { name: 'Examples' }).selectOption('pair-branch-vs-select');
  await both(page, 'Step both').click();
  const tableFont = async () => parseFloat(await table(page).evaluate((t) => getComputedStyle(t).fontSize));
  const before = await tableFont();
  await page.getByRole('button', { name: 'Presenter mode' }).click();
  await expect(page.getByRole('button', { name: 'Leave presenter mode' })).toBeVisible();
  for (const region of [runA(page), runB(page)]) {
    await expect(region.getByRole('group', { name: 'Lanes' })).toBeVisible();
    await expect(kernelEditor(region)).toBeHidden();
  }
  await expect(table(page)).toBeVisible();
  expect(await tableFont()).toBeGreaterThan(before);
  await expect(both(page, 'Step both')).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(kernelEditor(runA(page))).toBeVisible();
});
