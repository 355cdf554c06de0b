// The accessibility audit: axe-core (from npm, injected into the page) over views of the page in
// both colour schemes. A finding of impact "serious" or "critical" fails the test; moderate and
// minor ones (such as a page without a level-one heading) do not.
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import { test, expect } from './fixtures.mjs';

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

// The serious and critical findings of an axe run over the whole document, one line each.
async function seriousFindings(page) {
  await page.addScriptTag({ content: axeSource });
  const result = await page.evaluate(() => window.axe.run(document, { resultTypes: ['violations'] }));
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .flatMap((v) => v.nodes.map((n) => `${v.impact} ${v.id}: ${n.target.join(' ')}: ${n.failureSummary}`));
}

// The page drawn: Run enabled and the lanes on show.
async function ready(page) {
  await expect(page.getByRole('button', { name: 'Run', exact: true })).toBeEnabled();
  await expect(page.getByRole('group', { name: 'Lanes' }).getByRole('button').first()).toBeVisible();
}

for (const colorScheme of ['light', 'dark']) {
  test.describe(`${colorScheme} theme`, () => {
    test.use({ colorScheme });

    test('the start page has no serious or critical accessibility finding', async ({ page }) => {
      await page.goto('/');
      await ready(page);
      expect(await seriousFindings(page)).toEqual([]);
    });

    test('a lesson stopped at a question has no serious or critical accessibility finding', async ({ page }) => {
      await page.goto('/');
      await page.getByRole('combobox', { name: 'Examples' }).selectOption('if-else');
      await ready(page);
      const checkAnswer = page.getByRole('button', { name: 'Check answer' });
      for (let i = 0; i < 40 && !(await checkAnswer.isVisible()); i++) {
        await page.getByRole('button', { name: 'Step', exact: true }).click();
      }
      await expect(checkAnswer).toBeVisible();
      expect(await seriousFindings(page)).toEqual([]);
    });

    test('presenter mode has no serious or critical accessibility finding', async ({ page }) => {
      await page.goto('/');
      await page.getByRole('combobox', { name: 'Examples' }).selectOption('if-else');
      await ready(page);
      await page.getByRole('button', { name: 'Presenter mode' }).click();
      await expect(page.getByRole('button', { name: 'Leave presenter mode' })).toBeVisible();
      expect(await seriousFindings(page)).toEqual([]);
    });

    test('the Help dialog has no serious or critical accessibility finding', async ({ page }) => {
      await page.goto('/');
      await ready(page);
      await page.getByRole('button', { name: 'Help' }).click();
      await expect(page.getByRole('dialog', { name: 'Keyboard shortcuts' })).toBeVisible();
      expect(await seriousFindings(page)).toEqual([]);
    });

    test('two runs compared, finished, have no serious or critical accessibility finding', async ({ page }) => {
      await page.goto('/');
      await page.getByRole('combobox', { name: 'Examples' }).selectOption('pair-branch-vs-select');
      await page.getByRole('button', { name: 'Run both' }).click();
      await expect(page.locator('.memory-verdict')).toHaveText(/^Results equal/);
      expect(await seriousFindings(page)).toEqual([]);
    });

    test('the phone layout has no serious or critical accessibility finding', async ({ page }) => {
      await page.setViewportSize({ width: 390, height: 844 });
      await page.goto('/');
      await ready(page);
      expect(await seriousFindings(page)).toEqual([]);
    });
  });
}
