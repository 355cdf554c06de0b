// The main walk in Firefox (Debian's firefox-esr through geckodriver, driven by
// selenium-webdriver): Playwright drives only its own patched Firefox, which this project never
// downloads, so Firefox gets a WebDriver walk of its own. Elements are found by their accessible
// names (WebDriver's computed label), through the helpers tests/webdriver/helpers.mjs shares.
// Run by scripts/test.sh with WAVE_PLAYGROUND_URL set: node --test tests/firefox/
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { By, Key, until } from 'selenium-webdriver';
import { startFirefox } from '../webdriver/firefox.mjs';
import { helpers, WAIT_MS } from '../webdriver/helpers.mjs';

const url = process.env.WAVE_PLAYGROUND_URL;
let driver;
let named, press, text, waitForText, body, settled;

before(async () => {
  assert.ok(url, 'WAVE_PLAYGROUND_URL is not set: run through scripts/test.sh');
  driver = await startFirefox();
  ({ named, press, text, waitForText, body, settled } = helpers(driver));
});

after(async () => {
  await driver?.quit();
});

test('pick a lesson, step, read the lanes, the status and the caption, answer a question', async () => {
  await driver.get(url);
  await driver.executeScript("localStorage.clear(); localStorage.setItem('wave-playground.questions', 'on');");
  await driver.navigate().refresh();
  const examples = await named('select', 'Examples');
  await examples.findElement(By.css('option[value="if-else"]')).click();
  await waitForText('[role="status"]', 'ready');

  // F10 three times: the third lands on the if's ?mask question.
  for (let i = 1; i <= 3; i++) {
    await body().sendKeys(Key.F10);
    await waitForText('.step-count', `step ${i}`);
  }
  await waitForText('[role="status"]', 'paused at line 8 for a question');
  assert.match(await text('.caption'), /^icmp_lt p1, r0, r1 at line 7: ran on lanes 0-7/);

  // Answer by toggling lanes 3-7 off, then Check answer.
  for (let lane = 3; lane <= 7; lane++) {
    await press(await named('[role="group"] button', new RegExp(`^Lane ${lane}: active`)));
  }
  await press(await named('button', 'Check answer'));
  await waitForText('.reveal', /^Right: lanes 0-2 are active\. Why: lanes 0-2 take the if side/);
  assert.match(await text('.caption'), /^if p1 at line 8: lanes 0-2 take the if side; lanes 3-7 wait at else/);
  const lane4 = await named('[role="group"] button', /^Lane 4:/);
  assert.match(await lane4.getAccessibleName(), /^Lane 4: inactive: else side of the if at line 8; you said inactive: right$/);
});

test('run to the end, step back, and presenter mode in and out', async () => {
  await press(await named('[role="switch"]', 'Questions'));
  await body().sendKeys(Key.F5);
  await waitForText('[role="status"]', /^finished after \d+ wave-instructions$/);
  await press(await named('button', 'Step back'));
  await waitForText('[role="status"]', /^paused at line \d+$/);

  await press(await named('button', 'Presenter mode'));
  await driver.wait(until.elementIsNotVisible(driver.findElement(By.css('.app-header'))), WAIT_MS);
  await body().sendKeys(Key.ESCAPE);
  await driver.wait(until.elementIsVisible(driver.findElement(By.css('.app-header'))), WAIT_MS);
});

test('the editor takes typing and the diagnostics follow', async () => {
  const editor = await named('[role="textbox"]', 'Kernel source');
  await press(editor);
  const typed = '\n    bogus_op r1';
  await driver.actions().keyDown(Key.CONTROL).sendKeys(Key.END).keyUp(Key.CONTROL).sendKeys(typed).perform();
  await waitForText('[role="status"]', /^cannot run: \d+ errors? in the kernel$/);
  assert.match(await editor.getText(), /\.end\n\n {4}bogus_op r1$/);
  // Made a comment, the line is no error any more.
  await driver.actions().sendKeys(Key.HOME, '; ').perform();
  await waitForText('[role="status"]', 'ready');
  assert.match(await editor.getText(), /\.end\n\n {4}; bogus_op r1$/);
});

test('compare two runs: Step both, the table and the results', async () => {
  // The kernel on show (the page keeps it across the reload), without its questions.
  await driver.executeScript("localStorage.setItem('wave-playground.questions', 'off')");
  await driver.navigate().refresh();
  await waitForText('p.status', 'ready');
  const compare = await named('button', 'Compare runs');
  await press(compare);
  await driver.wait(async () => (await compare.getAttribute('aria-pressed')) === 'true', WAIT_MS);
  const regionA = await named('section', 'Run A');
  const regionB = await named('section', 'Run B');
  await waitForText('.run-b p.status', 'ready');
  // Each run has its own editor, named as the single run's is (run B's opens as its region does,
  // once the editor's module has given it one).
  for (const region of [regionA, regionB]) {
    const editorNames = async () => {
      const editors = await region.findElements(By.css('[role="textbox"]'));
      const names = await Promise.all(editors.map((e) => e.getAccessibleName()));
      return names.filter((n) => n === 'Kernel source');
    };
    await driver.wait(async () => (await editorNames()).length > 0, WAIT_MS, 'no editor in the run');
    assert.deepEqual(await editorNames(), ['Kernel source']);
  }

  await press(await named('button', 'Step both'));
  await waitForText('.run-a .step-count', 'step 1');
  await waitForText('.run-b .step-count', 'step 1');
  await press(await named('button', 'Run both'));
  await waitForText('.run-a p.status', /^finished after \d+ wave-instructions$/);
  await waitForText('.run-b p.status', /^finished after \d+ wave-instructions$/);
  await waitForText('.memory-verdict', /^Results equal/);
  const table = await named('table', 'Comparison');
  await settled(table);
  const cells = await table.findElements(By.css('tbody tr:first-child td'));
  const [a, b] = await Promise.all(cells.slice(0, 2).map((cell) => cell.getText()));
  assert.match(a, /^\d/);
  assert.equal(a, b);

  // Copy link carries both runs and their moment: the link opens compared, at the same step.
  await press(await named('button', 'Reset both'));
  await waitForText('.run-b .step-count', 'step 0');
  for (let i = 1; i <= 3; i++) {
    await press(await named('button', 'Step both'));
    await waitForText('.run-b .step-count', `step ${i}`);
  }
  await press(await named('button', 'Copy link'));
  await driver.wait(async () => /#v1\./.test(await driver.getCurrentUrl()), WAIT_MS);
  const link = await driver.getCurrentUrl();
  await driver.get('about:blank');
  await driver.get(link);
  await waitForText('.run-a .step-count', 'step 3');
  await waitForText('.run-b .step-count', 'step 3');
  assert.equal(await (await named('button', 'Compare runs')).getAttribute('aria-pressed'), 'true');

  // On a phone's width, run A, the comparison and run B stack, nothing wider than the screen.
  const size = await driver.manage().window().getRect();
  await driver.manage().window().setRect({ width: 390, height: 844 });
  await driver.wait(async () => driver.executeScript(() => {
    const top = (css) => document.querySelector(css).getBoundingClientRect().top;
    return top('.run-a') < top('table.comparison') && top('table.comparison') < top('.run-b')
      && document.documentElement.scrollWidth <= document.documentElement.clientWidth;
  }), WAIT_MS, 'the phone layout stacks A, the comparison and B without sideways scrolling');
  await driver.manage().window().setRect({ width: size.width, height: size.height });

  await press(await named('button', 'Compare runs'));
  await driver.wait(async () => (await driver.findElements(By.css('.run-b'))).length === 0, WAIT_MS);
});
