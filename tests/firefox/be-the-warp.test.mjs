// Be the warp in Firefox (firefox-esr through geckodriver, as walk.test.mjs drives it): an `if`
// performed wrong, then right, and its `else` shown; a `break` under divergence performed wrong,
// tried again right, and the `endloop` after it shown. Elements are found by accessible name.
// Run by scripts/test.sh with WAVE_PLAYGROUND_URL set: node --test tests/firefox/
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { By, Key } from 'selenium-webdriver';
import { startFirefox } from '../webdriver/firefox.mjs';
import { helpers } from '../webdriver/helpers.mjs';

const url = process.env.WAVE_PLAYGROUND_URL;
let driver;
let named, press, text, waitForText, body;

before(async () => {
  assert.ok(url, 'WAVE_PLAYGROUND_URL is not set: run through scripts/test.sh');
  driver = await startFirefox();
  ({ named, press, text, waitForText, body } = helpers(driver));
});

after(async () => {
  await driver?.quit();
});

test('Be the warp: an if answered wrong, then right; its else shown', async () => {
  await driver.get(url);
  // The lesson's own questions off: only Be the warp asks.
  await driver.executeScript("localStorage.clear(); localStorage.setItem('wave-playground.questions', 'off');");
  await driver.navigate().refresh();
  const examples = await named('select', 'Examples');
  await examples.findElement(By.css('option[value="if-else"]')).click();
  await waitForText('[role="status"]', 'ready');
  const toggle = await named('[role="switch"]', 'Be the warp');
  await press(toggle);
  assert.equal(await toggle.getAttribute('aria-checked'), 'true');

  // Three instructions run; the third step stops before the if.
  for (let i = 1; i <= 3; i++) {
    await body().sendKeys(Key.F10);
    await waitForText('.step-count', `step ${i}`);
  }
  await waitForText('[role="status"]', 'paused at line 8 for a question');

  // Wrong: the lanes as they start (all active) and a push.
  await press(await named('input[type="radio"]', 'Push a frame'));
  await press(await named('button', 'Check'));
  await waitForText('.warp-panel .reveal', /^Not quite: look again at the active lanes\./);
  assert.equal(await text('.step-count'), 'step 3');

  // Right: lanes 3-7 turned off.
  for (let lane = 3; lane <= 7; lane++) {
    await press(await named('[role="group"] button', new RegExp(`^Lane ${lane}: active`)));
  }
  await press(await named('button', 'Check'));
  await waitForText('.warp-panel .reveal',
    /^Right: lanes 0-2 are active; the stack pushes a frame that saves lanes 0-7\. Why: lanes 0-2 take the if side/);

  // The else, shown.
  await body().sendKeys(Key.F10);
  await waitForText('[role="status"]', 'paused at line 10 for a question');
  await press(await named('button', 'Show me'));
  await waitForText('.warp-panel .reveal', /^Shown: lanes 3-7 are active; the stack's frames change\./);
  await waitForText('.warp-panel .score', 'Be the warp: 1 of 2 right, 1 shown');
});

test('Be the warp: a break under divergence answered wrong, retried right; its endloop shown', async () => {
  await driver.get(url);
  await driver.executeScript("localStorage.clear(); localStorage.setItem('wave-playground.questions', 'off');");
  await driver.navigate().refresh();
  const examples = await named('select', 'Examples');
  await examples.findElement(By.css('option[value="loop-exit"]')).click();
  await waitForText('[role="status"]', 'ready');
  const toggle = await named('[role="switch"]', 'Be the warp');
  await press(toggle);
  assert.equal(await toggle.getAttribute('aria-checked'), 'true');
  const run = await named('button', 'Run');

  // Run stops at the loop: a push saving all eight lanes, as they start, is right.
  await press(run);
  await waitForText('[role="status"]', 'paused at line 8 for a question');
  await waitForText('.warp-panel .prompt', /perform `loop` \(line 8\)/);
  await press(await named('input[type="radio"]', 'Push a frame'));
  await press(await named('button', 'Check'));
  await waitForText('.warp-panel .reveal',
    /^Right: lanes 0-7 are active; the stack pushes a frame that saves lanes 0-7/);

  // The break, with lane 0 leaving: wrong first (nothing happens to the stack, says the learner).
  await press(run);
  await waitForText('[role="status"]', 'paused at line 11 for a question');
  await waitForText('.warp-panel .prompt', /perform `break p1` \(line 11\)/);
  await press(await named('[role="group"] button', /^Lane 0: active/));
  await press(await named('input[type="radio"]', 'Nothing'));
  await press(await named('button', 'Check'));
  await waitForText('.warp-panel .reveal', /^Not quite: look again at the stack\./);
  assert.equal(await text('[role="status"]'), 'paused at line 11 for a question');

  // Tried again: the lane stays off and the top frame changes.
  await press(await named('input[type="radio"]', 'Change the top frame'));
  await press(await named('button', 'Check'));
  await waitForText('.warp-panel .reveal', /^Right: lanes 1-7 are active/);

  // The endloop, shown: lanes 1-7 go round again.
  await press(run);
  await waitForText('.warp-panel .prompt', /perform `endloop` \(line 12\)/);
  await press(await named('button', 'Show me'));
  await waitForText('.warp-panel .reveal', /^Shown: lanes 1-7 are active; the stack's frames change\./);
  await waitForText('.warp-panel .score', 'Be the warp: 2 of 3 right, 1 shown');
});
