import { test, expect } from './fixtures.mjs';

test('the built page loads the shell', async ({ page }) => {
  await page.goto('/');
  await expect(page).toHaveTitle(/WAVE Playground/);
  await expect(page.getByRole('main')).toBeVisible();
  await expect(page.getByRole('banner')).toContainText('WAVE Playground');
  const editor = page.getByRole('textbox', { name: 'Kernel source' });
  await expect(editor).toBeVisible();
  await expect(editor).toHaveValue(/\.kernel parity/);
  await expect(page.getByRole('heading', { name: 'Machine' })).toBeVisible();
});

test('typing in the editor is kept and reflected', async ({ page }) => {
  await page.goto('/');
  const editor = page.getByRole('textbox', { name: 'Kernel source' });
  await editor.fill('.kernel tiny\n    halt\n.end');
  await expect(page.getByText('3 lines')).toBeVisible();
  await expect(editor).toHaveValue('.kernel tiny\n    halt\n.end');
});
