import { test, expect, expectEditorText } from './fixtures.mjs';

test('the built page loads the shell', async ({ page }) => {
  await page.goto('/');
  await expect(page).toHaveTitle(/WAVE Playground/);
  await expect(page.getByRole('main')).toBeVisible();
  await expect(page.getByRole('banner')).toContainText('WAVE Playground');
  const editor = page.getByRole('textbox', { name: 'Kernel source' });
  await expect(editor).toBeVisible();
  await expect(editor).toContainText('.kernel parity');
  await expect(page.getByRole('heading', { name: 'Machine' })).toBeVisible();
  await expect(page.getByRole('combobox', { name: 'Examples' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Copy link' })).toBeVisible();
  await expect(page.getByRole('status')).toHaveText('ready');
  await expect(page.getByRole('group', { name: 'Lanes' }).getByRole('button')).toHaveCount(8);
});

test('typing in the editor is kept and reflected', async ({ page }) => {
  await page.goto('/');
  const editor = page.getByRole('textbox', { name: 'Kernel source' });
  await editor.fill('.kernel tiny\n    halt\n.end');
  await expect(page.getByText('3 lines')).toBeVisible();
  await expectEditorText(page, '.kernel tiny\n    halt\n.end');
});

test('the help overlay lists the keys and closes with Escape', async ({ page }) => {
  await page.goto('/');
  const help = page.getByRole('button', { name: 'Help' });
  await help.click();
  const dialog = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
  await expect(dialog).toContainText('F10');
  await expect(dialog).toContainText('Shift+F5');
  const close = dialog.getByRole('button', { name: 'Close' });
  await expect(close).toBeFocused();
  // Focus stays inside the modal dialog.
  await page.keyboard.press('Tab');
  await expect(close).toBeFocused();
  await page.keyboard.press('Shift+Tab');
  await expect(close).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
  await expect(help).toBeFocused();
});
