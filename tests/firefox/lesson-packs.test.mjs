// Lesson packs in Firefox (firefox-esr through geckodriver): a pack opened from a file is listed
// under "Lessons" and walked with "Next lesson", and Copy link carries it whole to a visitor who
// has never seen it; a pack fetched from a #pack= address keeps its progress over a reload; a
// hostile pack's prose runs nothing, opens no dialog and goes nowhere. Run by scripts/test.sh with
// WAVE_PLAYGROUND_URL set (it serves tests/e2e/packs/ at e2e-packs/): node --test tests/firefox/
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { By } from 'selenium-webdriver';
import { startFirefox } from '../webdriver/firefox.mjs';
import { helpers } from '../webdriver/helpers.mjs';

const url = process.env.WAVE_PLAYGROUND_URL;
const tiny = fileURLToPath(new URL('../e2e/packs/tiny.md', import.meta.url));
const hostile = fileURLToPath(new URL('../e2e/packs/hostile.md', import.meta.url));
let driver;
let named, press, text, waitForText;

before(async () => {
  assert.ok(url, 'WAVE_PLAYGROUND_URL is not set: run through scripts/test.sh');
  driver = await startFirefox();
  ({ named, press, text, waitForText } = helpers(driver));
});

after(async () => {
  await driver?.quit();
});

test('a pack opened from a file lists its lessons and Next lesson walks them', async () => {
  await driver.get(url);
  await driver.executeScript("localStorage.clear(); localStorage.setItem('wave-playground.questions', 'off');");
  await driver.navigate().refresh();
  await named('button', 'Open file…');
  // The file chooser's input takes the path, as a person picking the file would give it.
  await driver.findElement(By.css('input[type="file"]')).sendKeys(tiny);
  await waitForText('nav[aria-label="Lessons"] h3', 'Tiny course');
  // The list's items are written again whenever the current lesson or a tick changes: each
  // check finds the current entry afresh rather than holding an element.
  await named('nav[aria-label="Lessons"] button[aria-current="step"]', /^Every lane writes/);
  await press(await named('button', 'Next lesson'));
  await named('nav[aria-label="Lessons"] button[aria-current="step"]', /^Half the lanes/);
  await waitForText('.example-notes summary', 'Half the lanes');
});

test('Copy link carries the pack whole to a visitor without it', async () => {
  await press(await named('button', 'Copy link'));
  await driver.wait(async () => (await driver.getCurrentUrl()).includes('#v1.'), 20_000);
  const link = await driver.getCurrentUrl();
  await driver.get('about:blank');
  await driver.get(url);
  await driver.executeScript('localStorage.clear();');
  await driver.get('about:blank');
  await driver.get(link);
  await waitForText('nav[aria-label="Lessons"] h3', 'Tiny course');
  await named('nav[aria-label="Lessons"] button[aria-current="step"]', /^Half the lanes/);
});

test('#pack= fetches a pack; its progress survives a reload', async () => {
  await driver.get(url);
  await driver.executeScript("localStorage.clear(); localStorage.setItem('wave-playground.questions', 'off');");
  await driver.get('about:blank');
  await driver.get(`${url}#pack=e2e-packs/tiny.md`);
  await waitForText('nav[aria-label="Lessons"] h3', 'Tiny course');
  await named('nav[aria-label="Lessons"] button[aria-current="step"]', /^Every lane writes/);

  await press(await named('button', 'Run'));
  await waitForText('[role="status"]', /^finished after/);
  await named('nav[aria-label="Lessons"] button', /^Every lane writes.*\(done\)/);
  await press(await named('button', 'Next lesson'));
  await waitForText('.example-notes summary', 'Half the lanes');
  await waitForText('.lesson-path-note', '1 of 2 lessons done');

  // The same address again keeps the lesson reached and the tick earned.
  await driver.navigate().refresh();
  await waitForText('nav[aria-label="Lessons"] h3', 'Tiny course');
  await named('nav[aria-label="Lessons"] button', /^Every lane writes.*\(done\)/);
  await named('nav[aria-label="Lessons"] button[aria-current="step"]', /^Half the lanes/);
  await waitForText('.example-notes summary', 'Half the lanes');
});

test('a hostile pack runs no script, opens no dialog and goes nowhere', async () => {
  await driver.get(url);
  await driver.executeScript('localStorage.clear();');
  await driver.navigate().refresh();
  const start = await driver.getCurrentUrl();
  // Any dialog the pack opened is counted here as well as left open for WebDriver to see.
  await driver.executeScript(`
    window.__dialogs = 0;
    for (const name of ['alert', 'confirm', 'prompt']) {
      const own = window[name].bind(window);
      window[name] = (...args) => { window.__dialogs += 1; return own(...args); };
    }`);
  await named('button', 'Open file…');
  await driver.findElement(By.css('input[type="file"]')).sendKeys(hostile);
  await waitForText('nav[aria-label="Lessons"] h3', 'Hostile pack');
  await waitForText('.lesson-prose', /<script>/);
  assert.deepEqual(await driver.findElements(By.css('.lesson-prose :is(script, img, iframe, [onerror])')), []);
  // The refused links are words, not links: clicking them does nothing.
  assert.deepEqual(await driver.findElements(By.css('.lesson-prose a')), []);
  assert.match(await text('.lesson-prose'), /Click here or there/);
  for (const paragraph of await driver.findElements(By.css('.lesson-prose p'))) await press(paragraph);

  await assert.rejects(driver.switchTo().alert(), { name: 'NoSuchAlertError' });
  assert.equal(await driver.executeScript('return window.__ran'), null);
  assert.equal(await driver.executeScript('return window.__dialogs'), 0);
  assert.equal(await driver.getCurrentUrl(), start);
});
