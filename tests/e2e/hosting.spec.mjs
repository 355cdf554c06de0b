// Hosting anywhere: the built dist/ served under a course site's sub-path works, asks for
// nothing outside it, and its share links and embed codes point back under it. scripts/test.sh
// serves the same files at the root and at WAVE_PLAYGROUND_SUBPATH_URL.
import { test, expect } from './fixtures.mjs';

const subpath = process.env.WAVE_PLAYGROUND_SUBPATH_URL;

test('served under /courses/gpu/wave/ the page works and its links stay there', async ({ page, context }) => {
  expect(subpath, 'WAVE_PLAYGROUND_SUBPATH_URL: run through scripts/test.sh, which serves dist/ under a sub-path too').toBeTruthy();
  const requested = [];
  page.on('request', (request) => requested.push(request.url()));
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.goto(subpath);
  await page.getByRole('combobox', { name: 'Examples' }).selectOption('if-else');
  await page.keyboard.press('F10');
  await expect(page.getByText(/^step \d+$/)).toHaveText('step 1');
  const outside = requested.filter((url) => url.startsWith('http') && !url.startsWith(subpath));
  expect(outside, 'every request stays under the sub-path').toEqual([]);

  await page.getByRole('button', { name: 'Copy link' }).click();
  await expect(page.getByText('Link copied')).toBeVisible();
  const link = await page.evaluate(() => navigator.clipboard.readText());
  expect(link.startsWith(`${subpath}#v1.`), link).toBe(true);

  await page.getByRole('button', { name: 'Copy embed code' }).click();
  await expect(page.getByText('Embed code copied')).toBeVisible();
  const code = await page.evaluate(() => navigator.clipboard.readText());
  expect(code).toContain(`src="${subpath}#v1.`);

  // The link opens under the sub-path, at the same step.
  const other = await context.newPage();
  await other.goto(link);
  await expect(other.getByText(/^step \d+$/)).toHaveText('step 1');
});
