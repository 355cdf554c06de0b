// Opening a kernel from a file, as a student with a kernel on disk or a .wbin from wave-asm does:
// "Open file…" or a drop on the page; a binary opens as its disassembly and runs; bytes that are
// neither are refused with the place, and the work on show stays. "Download .wbin" writes the
// binary the reference tools read.
import { readFile } from 'node:fs/promises';
import { test, expect } from './fixtures.mjs';

test.use({ questions: 'off' });

const source = (page) => page.getByRole('textbox', { name: 'Kernel source' });
const status = (page) => page.getByRole('status');

async function runToEnd(page) {
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await expect(status(page)).toHaveText(/^finished after \d+ wave-instructions/);
  return (await status(page).textContent()).match(/after (\d+)/)[1];
}

async function openWithChooser(page, file) {
  const [chooser] = await Promise.all([
    page.waitForEvent('filechooser'),
    page.getByRole('button', { name: 'Open file…' }).click(),
  ]);
  await chooser.setFiles(file);
}

test('a kernel saved as .wbin opens again as its disassembly and runs the same', async ({ page }) => {
  await page.goto('/');
  await page.getByRole('combobox', { name: 'Examples' }).selectOption('if-else');
  const steps = await runToEnd(page);

  await page.getByRole('button', { name: 'Export', exact: true }).click();
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Download .wbin' }).click(),
  ]);
  expect(download.suggestedFilename()).toBe('if_else.wbin');
  const bytes = await readFile(await download.path());
  expect(bytes.subarray(0, 4).toString()).toBe('WAVE');

  await openWithChooser(page, { name: 'if_else.wbin', mimeType: 'application/octet-stream', buffer: bytes });
  await expect(source(page)).toContainText('; Disassembled from if_else.wbin');
  await expect(source(page)).toContainText('.kernel if_else');
  // It runs at once, the same number of steps as its source.
  await expect(status(page)).toHaveText(`finished after ${steps} wave-instructions`, { exact: false });
  await expect(page.getByText('Opened if_else.wbin, a .wbin binary, as its disassembly')).toBeVisible();
});

test('a source dropped on the page opens; bytes that are neither are refused and the work stays', async ({ page }) => {
  await page.goto('/');
  const kernel = '.kernel dropped\n    mov_sr r0, sr_lane_id\n    halt\n.end\n';
  const drop = async (name, content) => {
    const transfer = await page.evaluateHandle(({ name, content }) => {
      const data = new DataTransfer();
      data.items.add(new File([new Uint8Array(content)], name));
      return data;
    }, { name, content });
    const main = page.getByRole('main');
    await main.dispatchEvent('dragover', { dataTransfer: transfer });
    await main.dispatchEvent('drop', { dataTransfer: transfer });
  };
  await drop('dropped.wave', [...Buffer.from(kernel)]);
  await expect(source(page)).toContainText('.kernel dropped');
  await expect(page.getByText('Opened dropped.wave')).toBeVisible();

  await drop('photo.png', [0x89, 0x50, 0x4e, 0x47, 0xff, 0xfe]);
  await expect(page.getByRole('alert')).toContainText(
    'photo.png is neither WAVE source nor a .wbin binary: byte 0x89 at offset 0');
  await expect(source(page)).toContainText('.kernel dropped');

  // A damaged binary names the byte at fault.
  await openWithChooser(page, { name: 'cut.wbin', mimeType: 'application/octet-stream', buffer: Buffer.from('WAVE\x01\x00') });
  await expect(page.getByRole('alert')).toContainText('cut.wbin is not a valid .wbin binary: at byte 0x');
  await expect(source(page)).toContainText('.kernel dropped');
});
