#!/usr/bin/env node
// Makes README's screenshot (assets/screenshot.png) from the built page: serves dist/, opens the
// "Break inside if" lesson in headless Chromium, steps until the wave has diverged inside its
// loop, steps on and comes back there (so the timeline shows both sides), and captures the window.
// Usage (after `trunk build --release`): node scripts/screenshot.mjs [--out FILE] [--theme dark]
import { chromium } from '@playwright/test';
import { serveDist } from './lib/serve-dist.mjs';

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const at = args.indexOf(name);
  return at >= 0 && args[at + 1] ? args[at + 1] : fallback;
};
const out = option('--out', 'assets/screenshot.png');
const theme = option('--theme', 'light');
const { server, url } = await serveDist('dist');

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
});
try {
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 }, colorScheme: theme });
  // The lesson's question would stop the steps: the Questions switch starts off.
  await page.addInitScript(() => localStorage.setItem('wave-playground.questions', 'off'));
  await page.goto(url);
  await page.getByRole('combobox', { name: 'Examples' }).selectOption('break-in-if');
  const step = page.getByRole('button', { name: 'Step', exact: true });
  const frames = page.getByRole('list', { name: 'Divergence stack' }).getByRole('listitem');
  const inactive = page.getByRole('button', { name: /^Lane \d+: inactive/ });
  // Step until the wave is two frames deep (loop and if) with some lanes waiting.
  for (let i = 0; i < 60 && ((await frames.count()) < 2 || (await inactive.count()) === 0); i += 1) {
    const before = await page.locator('.machine-body').innerText();
    await step.click();
    await page.waitForFunction((text) => document.querySelector('.machine-body')?.innerText !== text, before);
  }
  // Run on past it and come back, so the timeline shows what comes next as well.
  const stepCount = page.getByText(/^step \d+$/);
  const here = (await stepCount.textContent()).replace('step ', '');
  for (let i = 0; i < 30; i += 1) {
    const before = await stepCount.textContent();
    await step.click();
    await page.waitForFunction((text) => document.querySelector('.step-count')?.textContent !== text, before);
  }
  const goTo = page.getByRole('spinbutton', { name: 'Go to step' });
  await goTo.fill(here);
  await goTo.press('Enter');
  await page.waitForFunction((text) => document.querySelector('.step-count')?.textContent === text, `step ${here}`);
  await goTo.fill('');
  await page.getByRole('slider', { name: 'Timeline' }).focus();
  // Let the stack's entry animation finish before the picture is taken.
  await page.waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running'));
  await page.screenshot({ path: out });
  console.log(`wrote ${out}`);
} finally {
  await browser.close();
  server.close();
}
