// A browser without WebAssembly SIMD cannot compile the playground's module: instead of a blank
// page it gets a message saying why and which browsers have it. The probe in index.html is made to
// fail here (the test browser has SIMD), and the page must show the message and not start.
import { test, expect } from './fixtures.mjs';

test('a browser without wasm SIMD is told why the playground cannot run', async ({ page }) => {
  await page.addInitScript(() => {
    const validate = WebAssembly.validate.bind(WebAssembly);
    // Refuse any module that uses a SIMD instruction (prefix byte 0xfd), as such a browser does.
    WebAssembly.validate = (bytes) => !new Uint8Array(bytes).includes(0xfd) && validate(bytes);
  });
  await page.goto('/');

  const message = page.getByRole('alert');
  await expect(message).toContainText('WAVE Playground cannot run in this browser');
  await expect(message).toContainText('WebAssembly with SIMD');
  await expect(message).toContainText('Firefox 89');
  await expect(page.locator('html')).toHaveAttribute('data-unsupported', 'wasm-simd');
  // The module loaded (this browser has SIMD) and its entry point saw the mark: no playground.
  await page.waitForFunction(() => window.wasmBindings !== undefined);
  await expect(page.getByRole('textbox', { name: 'Kernel source' })).toHaveCount(0);
  // (The fixture fails the test on any page or console error.)
});

test('a browser with wasm SIMD gets the playground and no message', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByRole('textbox', { name: 'Kernel source' })).toBeVisible();
  await expect(page.locator('html')).not.toHaveAttribute('data-unsupported');
  await expect(page.getByText('cannot run in this browser')).toHaveCount(0);
});
