// The accessibility audit: axe-core (from npm, injected into the page) over views of the page in
// both colour schemes. A finding of impact "serious" or "critical" fails the test; one of lesser
// impact fails it unless docs/accessibility.md lists its rule, with the reason it stays.
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import { test, expect, holdEditor, kernelEditor, registersBuilt } from './fixtures.mjs';

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

// The findings of lesser impact that docs/accessibility.md lists, each with its reason: the
// rule ids in the first column of its "Findings left" table.
const listed = readFileSync(new URL('../../docs/accessibility.md', import.meta.url), 'utf8')
  .split('## Findings left')[1]?.split('\n## ')[0]
  .split('\n')
  .map((line) => line.match(/^\| `([a-z0-9-]+)` \|/)?.[1])
  .filter(Boolean) ?? [];

// The findings of an axe run over the whole document, one line each: every serious or critical
// one, and any other that docs/accessibility.md does not list.
async function seriousFindings(page) {
  await page.addScriptTag({ content: axeSource });
  const result = await page.evaluate(() => window.axe.run(document, { resultTypes: ['violations'] }));
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical' || !listed.includes(v.id))
    .flatMap((v) => v.nodes.map((n) => `${v.impact} ${v.id}: ${n.target.join(' ')}: ${n.failureSummary}`));
}

// The page drawn: Run enabled, the lanes on show and the editor open (its module comes after the
// app has started; the listing before it is audited on its own).
async function ready(page) {
  await expect(page.getByRole('button', { name: 'Run', exact: true })).toBeEnabled();
  await expect(page.getByRole('group', { name: 'Lanes' }).getByRole('button').first()).toBeVisible();
  await expect(kernelEditor(page).first()).toBeAttached();
  await registersBuilt(page);
}

for (const colorScheme of ['light', 'dark']) {
  test.describe(`${colorScheme} theme`, () => {
    test.use({ colorScheme });

    test('the start page has no serious or critical accessibility finding', async ({ page }) => {
      await page.goto('/');
      await ready(page);
      expect(await seriousFindings(page)).toEqual([]);
    });

    test('the kernel listed while the editor loads has no serious or critical accessibility finding', async ({ page }) => {
      await holdEditor(page);
      await page.goto('/');
      await expect(page.getByRole('button', { name: 'Run', exact: true })).toBeEnabled();
      await expect(page.getByRole('group', { name: 'Kernel source, shown while the editor loads' })).toBeVisible();
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

    test('an open lesson pack and its Lessons list have no serious or critical accessibility finding', async ({ page }) => {
      await page.goto('/');
      const [chooser] = await Promise.all([
        page.waitForEvent('filechooser'),
        page.getByRole('button', { name: 'Open file…' }).click(),
      ]);
      await chooser.setFiles(new URL('./packs/tiny.md', import.meta.url).pathname);
      await expect(page.getByRole('navigation', { name: 'Lessons' })).toBeVisible();
      await ready(page);
      expect(await seriousFindings(page)).toEqual([]);
    });

    test('Be the warp asking, after a wrong try, has no serious or critical accessibility finding', async ({ page }) => {
      await page.addInitScript(() => localStorage.setItem('wave-playground.questions', 'off'));
      await page.goto('/');
      await page.getByRole('combobox', { name: 'Examples' }).selectOption('if-else');
      await ready(page);
      await page.getByRole('switch', { name: 'Be the warp' }).click();
      const check = page.getByRole('button', { name: 'Check', exact: true });
      for (let i = 0; i < 40 && !(await check.isVisible()); i++) {
        await page.getByRole('button', { name: 'Step', exact: true }).click();
      }
      await page.getByRole('radiogroup', { name: 'Stack' }).getByRole('radio', { name: 'Push a frame' }).check();
      await check.click();
      await expect(page.getByRole('region', { name: 'Be the warp' })).toContainText('Not quite');
      await expect(page.getByRole('radiogroup', { name: 'The lanes set' })).toBeVisible();
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

    test('the timeline focused has no serious or critical accessibility finding', async ({ page }) => {
      await page.goto('/');
      await ready(page);
      await page.getByRole('button', { name: 'Step', exact: true }).click();
      await page.getByRole('slider', { name: 'Timeline' }).focus();
      await expect(page.getByRole('slider', { name: 'Timeline' })).toBeFocused();
      expect(await seriousFindings(page)).toEqual([]);
    });

    test('the Export menu open has no serious or critical accessibility finding', async ({ page }) => {
      await page.goto('/');
      await ready(page);
      await page.getByRole('button', { name: 'Export' }).click();
      await expect(page.getByRole('button', { name: 'Export' })).toHaveAttribute('aria-expanded', 'true');
      expect(await seriousFindings(page)).toEqual([]);
    });

    test('the file-drop overlay has no serious or critical accessibility finding', async ({ page }) => {
      await page.goto('/');
      await ready(page);
      await page.evaluate(() => {
        const transfer = new DataTransfer();
        transfer.items.add(new File(['halt'], 'kernel.wave'));
        document.querySelector('.app').dispatchEvent(new DragEvent('dragover', { dataTransfer: transfer, bubbles: true, cancelable: true }));
      });
      await expect(page.locator('.app.dropping')).toHaveCount(1);
      expect(await seriousFindings(page)).toEqual([]);
    });

    test('an error alert has no serious or critical accessibility finding', async ({ page }) => {
      await page.goto('/#v1.not-a-link');
      await expect(page.getByRole('alert')).toContainText('Could not open the link');
      await ready(page);
      expect(await seriousFindings(page)).toEqual([]);
    });

    test('embed mode has no serious or critical accessibility finding', async ({ page }) => {
      await page.goto('/');
      await page.getByRole('combobox', { name: 'Examples' }).selectOption('if-else');
      await ready(page);
      await page.getByRole('button', { name: 'Copy link' }).click();
      await expect(page).toHaveURL(/#v1\./);
      const hash = new URL(page.url()).hash;
      const embedded = await page.context().newPage();
      await embedded.goto(`/${hash}&embed`);
      await expect(embedded.getByRole('link', { name: /Open in WAVE Playground/ })).toBeVisible();
      await ready(embedded);
      expect(await seriousFindings(embedded)).toEqual([]);
      await embedded.close();
    });

    test('the phone layout has no serious or critical accessibility finding', async ({ page }) => {
      await page.setViewportSize({ width: 390, height: 844 });
      await page.goto('/');
      await ready(page);
      expect(await seriousFindings(page)).toEqual([]);
    });
  });
}
