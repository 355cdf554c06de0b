// The main walk in WebKit, the engine of Safari: Debian's WebKitGTK through its WebDriver
// (WebKitWebDriver, which starts WebKitGTK's MiniBrowser), driven by selenium-webdriver.
// MiniBrowser has no headless mode, so it needs an X display: scripts/test.sh runs this under
// `xvfb-run -a`. Elements are found by their accessible names (WebKitWebDriver computes them),
// through the helpers tests/webdriver/helpers.mjs shares with the Firefox walk.
// Run by scripts/test.sh with WAVE_PLAYGROUND_URL set: xvfb-run -a node --test tests/webkit/
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { Builder, By, Capabilities, Key, until } from 'selenium-webdriver';
import { helpers, WAIT_MS } from '../webdriver/helpers.mjs';

const url = process.env.WAVE_PLAYGROUND_URL;
let driver;
let service;
let named, press, text, waitForText, body, settled;

// WebKitGTK's MiniBrowser: Debian's libwebkit2gtk-4.1-0 puts it beside WebKit's helper processes.
const MINIBROWSER = process.env.WEBKIT_MINIBROWSER || '/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser';

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

// Starts WebKitWebDriver on a free port and waits until it answers /status.
async function startDriver() {
  const binary = process.env.WEBKIT_WEBDRIVER || execFileSync('sh', ['-c', 'command -v WebKitWebDriver']).toString().trim();
  const port = await freePort();
  const child = spawn(binary, [`--port=${port}`], { stdio: ['ignore', 'ignore', 'inherit'] });
  const address = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + WAIT_MS;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`WebKitWebDriver exited with ${child.exitCode}`);
    const ready = await fetch(`${address}/status`).then((r) => r.ok, () => false);
    if (ready) return { child, address };
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  child.kill();
  throw new Error(`WebKitWebDriver did not answer on ${address} within ${WAIT_MS} ms`);
}

before(async () => {
  assert.ok(url, 'WAVE_PLAYGROUND_URL is not set: run through scripts/test.sh');
  assert.ok(process.env.DISPLAY, 'no X display: MiniBrowser has no headless mode, run this under xvfb-run -a');
  assert.ok(existsSync(MINIBROWSER), `no MiniBrowser at ${MINIBROWSER} (Debian's libwebkit2gtk-4.1-0 ships it)`);
  service = await startDriver();
  const capabilities = new Capabilities({
    browserName: 'MiniBrowser',
    'webkitgtk:browserOptions': { binary: MINIBROWSER, args: ['--automation'] },
  });
  driver = await new Builder().usingServer(service.address).withCapabilities(capabilities).build();
  await driver.manage().window().setRect({ width: 1400, height: 1000 });
  ({ named, press, text, waitForText, body, settled } = helpers(driver));
});

after(async () => {
  await driver?.quit();
  service?.child.kill();
});

test('the page runs in WebKit, which has wasm SIMD; whether it has relaxed SIMD is noted', async (t) => {
  await driver.get(url);
  await driver.executeScript("localStorage.clear(); localStorage.setItem('wave-playground.questions', 'on');");
  await driver.navigate().refresh();
  await waitForText('[role="status"]', 'ready');
  assert.equal(await driver.executeScript("return document.documentElement.getAttribute('data-unsupported')"), null);
  // A module whose one function is f32x4.relaxed_madd on three zero vectors.
  const relaxed = await driver.executeScript(() => {
    const zeros = [0xfd, 0x0c, ...new Array(16).fill(0)];
    const code = [0x00, ...zeros, ...zeros, ...zeros, 0xfd, 0x85, 0x02, 0x0b];
    return WebAssembly.validate(new Uint8Array([
      0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00,
      0x01, 0x05, 0x01, 0x60, 0x00, 0x01, 0x7b,
      0x03, 0x02, 0x01, 0x00,
      0x0a, code.length + 2, 0x01, code.length, ...code,
    ]));
  });
  t.diagnostic(`WebKit ${relaxed ? 'has' : 'lacks'} relaxed SIMD`);
});

test('pick a lesson, step, step back, answer a question', async () => {
  const examples = await named('select', 'Examples');
  await examples.findElement(By.css('option[value="if-else"]')).click();
  await waitForText('[role="status"]', 'ready');

  // F10 steps; Step back undoes the last step; F10 twice more lands on the if's ?mask question.
  await body().sendKeys(Key.F10);
  await waitForText('.step-count', 'step 1');
  const caption = await text('.caption');
  await body().sendKeys(Key.F10);
  await waitForText('.step-count', 'step 2');
  await press(await named('button', 'Step back'));
  await waitForText('.step-count', 'step 1');
  assert.equal(await text('.caption'), caption);
  for (let i = 2; i <= 3; i++) {
    await press(await named('button', 'Step'));
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

test('a share link opens at the same moment', async () => {
  // Checking the answer took the step it asked about; three more, without questions.
  await press(await named('[role="switch"]', 'Questions'));
  const answered = Number((await text('.step-count')).replace('step ', ''));
  for (let i = answered + 1; i <= answered + 3; i++) {
    await body().sendKeys(Key.F10);
    await waitForText('.step-count', `step ${i}`);
  }
  const step = await text('.step-count');
  const status = await text('[role="status"]');
  const caption = await text('.caption');
  await press(await named('button', 'Copy link'));
  await driver.wait(async () => /#v1\./.test(await driver.getCurrentUrl()), WAIT_MS, 'Copy link never put the link in the address');
  // The page says where the link is, whether or not WebKit lets it write the clipboard.
  await waitForText('.notice', /^Link (copied|in the address bar)/);
  const link = await driver.getCurrentUrl();
  await driver.get('about:blank');
  await driver.get(link);
  await waitForText('.step-count', step);
  await waitForText('[role="status"]', status);
  assert.equal(await text('.caption'), caption);
});

test('run to the end, step back, and presenter mode in and out', async () => {
  await body().sendKeys(Key.F5);
  await waitForText('[role="status"]', /^finished after \d+ wave-instructions$/);
  await press(await named('button', 'Step back'));
  await waitForText('[role="status"]', /^paused at line \d+$/);

  await press(await named('button', 'Presenter mode'));
  await driver.wait(until.elementIsNotVisible(driver.findElement(By.css('.app-header'))), WAIT_MS);
  await body().sendKeys(Key.ESCAPE);
  await driver.wait(until.elementIsVisible(driver.findElement(By.css('.app-header'))), WAIT_MS);
});

// The editor's text as its lines show it: WebKitWebDriver's Get Element Text runs the editor's
// lines together (it puts no line break between CodeMirror's line elements), so read line by line.
async function lines(editor) {
  const shown = await Promise.all((await editor.findElements(By.css('.cm-line'))).map((line) => line.getText()));
  return shown.join('\n');
}

test('the editor takes typing and the diagnostics follow', async () => {
  const editor = await named('[role="textbox"]', 'Kernel source');
  await press(editor);
  // Enter as a key press: WebKitWebDriver types a "\n" in the text as no key at all.
  await driver.actions().keyDown(Key.CONTROL).sendKeys(Key.END).keyUp(Key.CONTROL).sendKeys(Key.ENTER, '    bogus_op r1').perform();
  await waitForText('[role="status"]', /^cannot run: \d+ errors? in the kernel$/);
  assert.match(await lines(editor), /\.end\n\n {4}bogus_op r1$/);
  // Made a comment, the line is no error any more.
  await driver.actions().sendKeys(Key.HOME, '; ').perform();
  await waitForText('[role="status"]', 'ready');
  assert.match(await lines(editor), /\.end\n\n {4}; bogus_op r1$/);
});

test('compare two runs: the regions, Step both, the table, and a phone width', async (t) => {
  const compare = await named('button', 'Compare runs');
  await press(compare);
  await driver.wait(async () => (await compare.getAttribute('aria-pressed')) === 'true', WAIT_MS);
  await named('section', 'Run A');
  await named('section', 'Run B');
  await waitForText('.run-b p.status', 'ready');
  for (let i = 1; i <= 2; i++) {
    await press(await named('button', 'Step both'));
    await waitForText('.run-a .step-count', `step ${i}`);
    await waitForText('.run-b .step-count', `step ${i}`);
  }
  const table = await named('table', 'Comparison');
  await settled(table);
  const cells = await table.findElements(By.css('tbody tr:first-child td'));
  const [a, b] = await Promise.all(cells.slice(0, 2).map((cell) => cell.getText()));
  assert.match(a, /^\d/);
  assert.equal(a, b);

  // On a phone's width, run A, the comparison and run B stack, nothing wider than the screen.
  const size = await driver.manage().window().getRect();
  await driver.manage().window().setRect({ width: 390, height: 844 });
  await driver.wait(async () => driver.executeScript(() => {
    const top = (css) => document.querySelector(css).getBoundingClientRect().top;
    return top('.run-a') < top('table.comparison') && top('table.comparison') < top('.run-b')
      && document.documentElement.scrollWidth <= document.documentElement.clientWidth;
  }), WAIT_MS, 'the phone layout stacks A, the comparison and B without sideways scrolling');
  // MiniBrowser's window has a least width of its own, somewhat above a phone's 390 pixels.
  t.diagnostic(`narrow width shown: ${await driver.executeScript('return innerWidth')} CSS pixels`);
  await driver.manage().window().setRect({ width: size.width, height: size.height });

  await press(await named('button', 'Compare runs'));
  await driver.wait(async () => (await driver.findElements(By.css('.run-b'))).length === 0, WAIT_MS);
});
