// A `page` fixture that records every page error and console error, and fails the test on any.
import { test as base, expect } from '@playwright/test';

export const test = base.extend({
  // The page as a visitor gets it: the "Questions" switch on. The lessons' questions stop Step
  // and Run where they are asked, so a spec that walks lessons for something else says
  // `test.use({ questions: 'off' })`.
  questions: ['on', { option: true }],
  page: async ({ page, questions }, use) => {
    if (questions === 'off') {
      await page.addInitScript(() => {
        if (localStorage.getItem('wave-playground.questions') === null) {
          localStorage.setItem('wave-playground.questions', 'off');
        }
      });
    }
    const problems = [];
    page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(`console error: ${message.text()}`);
    });
    await use(page);
    expect(problems, 'no page error or console error').toEqual([]);
  },
});

export { expect };

// The kernel editor (CodeMirror: a contenteditable with role textbox, not a <textarea>).
export const kernelEditor = (page) => page.getByRole('textbox', { name: 'Kernel source' });

// The register table is built once the browser is idle after the page's first frame
// (src/components/first_frame.rs); a page showing one run in the full layout has it then.
// Compare mode and an embedded page have none.
export async function registersBuilt(page) {
  await page.waitForFunction(() => document.querySelector('.registers-view')
    || document.querySelector('.workspace.comparing')
    || document.documentElement.hasAttribute('data-embed'));
}

// The editor's text as shown on screen, line by line. Every line must be on screen (the editor
// draws only what is visible): the footer's line count says how many there are.
export async function editorText(page) {
  // The editor's module comes after the app has started: wait for the editor, not the listing.
  await kernelEditor(page).first().waitFor();
  const lines = await kernelEditor(page).locator('.cm-line').allTextContents();
  const footer = await page.getByText(/^\d+ lines?$/).textContent();
  expect(lines.length, 'every line of the kernel is drawn').toBe(parseInt(footer, 10));
  return lines.join('\n');
}

// Waits until the editor shows `text`.
export async function expectEditorText(page, text) {
  await expect.poll(() => kernelEditor(page).locator('.cm-line').allTextContents()
    .then((lines) => lines.join('\n'))).toBe(text);
}

// The page's autosave as its JSON (null if none). The page autosaves when its debounced
// recompile takes the editor's text (`Ctx::finish_recompile` in src/components/mod.rs) and
// after changes pause. The format is crates/wave-session/src/share.rs's:
// "a1." + base64url(raw deflate(JSON)).
export const autosaved = (page) => page.evaluate(async () => {
  const saved = localStorage.getItem('wave-playground.autosave');
  if (!saved) return null;
  const body = saved.slice(saved.indexOf('.') + 1).replace(/-/g, '+').replace(/_/g, '/');
  const bytes = Uint8Array.from(atob(body.padEnd(Math.ceil(body.length / 4) * 4, '=')), (c) => c.charCodeAt(0));
  const json = new Blob([bytes]).stream().pipeThrough(new DecompressionStream('deflate-raw'));
  return JSON.parse(await new Response(json).text());
});

// Holds the page's wasm back until the returned function is called: the page as a visitor sees it
// while the module is still on its way.
export const holdWasm = (page) => hold(page, '**/*_bg.wasm');

// Holds the editor's JavaScript module back the same way: the app, which fetches it as it starts,
// shows the kernel as a listing until it comes.
export const holdEditor = (page) => hold(page, '**/target/editor/wave-editor.js');

async function hold(page, files) {
  let release;
  const released = new Promise((resolve) => { release = resolve; });
  await page.route(files, async (route) => {
    await released;
    await route.continue();
  });
  return release;
}
