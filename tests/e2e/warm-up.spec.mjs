// While the main thread runs the app's start, a worker compiles the first module's start functions
// (scripts/lib/warm-up.mjs, warm-up-worker.js, cold-loader.js): it instantiates the module a second
// time and calls them, each guarded to return at once in that instance. The guard must keep every
// body from running there, the page's own calls must run the bodies, and a page that cannot have
// the worker must start all the same.
import binaryen from 'binaryen';
import { test, expect } from './fixtures.mjs';
import { addWarmUp, WARM_UP_EXPORT } from '../../scripts/lib/warm-up.mjs';
import { startTrace } from '../../scripts/lib/trace.mjs';
import { settle } from '../../scripts/lib/start-visits.mjs';

test.use({ serviceWorkers: 'block' });

/** The marks the loader makes when the worker reports (`{ warmed }` or `{ failed }`). */
const warmedUp = (page) => page.evaluate(() => performance.getEntriesByName('wave:warmed-up').map((mark) => mark.detail));

test('a warmed-up function runs nothing in the warm-up and everything when the page calls it', () => {
  const module = new binaryen.Module();
  module.setMemory(1, 1, 'memory');
  module.addFunctionImport('host', 'env', 'host', binaryen.none, binaryen.none);
  // Calls the host, stores its first argument at address 8 and returns 7.
  module.addFunction('store', binaryen.createType([binaryen.i32, binaryen.i64]), binaryen.i32, [], module.block(null, [
    module.call('host', [], binaryen.none),
    module.i32.store(0, 4, module.i32.const(8), module.local.get(0, binaryen.i32)),
    module.i32.const(7),
  ], binaryen.i32));
  // A reference in its signature: no zero to call it with, so the warm-up leaves it alone.
  module.addFunction('takes_ref', binaryen.externref, binaryen.none, [], module.nop());
  module.addFunctionExport('store', 'store');
  module.addFunctionExport('takes_ref', 'takes_ref');
  module.setFeatures(binaryen.Features.ReferenceTypes);
  expect(addWarmUp(module, new Set(['store', 'takes_ref', 'not_a_function', 'host']))).toBe(1);
  expect(module.validate()).toBeTruthy();

  let hostCalls = 0;
  const { exports } = new WebAssembly.Instance(new WebAssembly.Module(module.emitBinary()), {
    env: { host: () => { hostCalls += 1; } },
  });
  module.dispose();
  const stored = () => new Uint32Array(exports.memory.buffer)[2];
  expect(Object.keys(exports), 'the guard\'s global stays inside').not.toContain('warming');
  expect(exports[WARM_UP_EXPORT](), 'functions called').toBe(1);
  expect(hostCalls, 'the warm-up ran no body').toBe(0);
  expect(stored()).toBe(0);
  expect(exports.store(42, 0n), 'after the warm-up, a call runs the body').toBe(7);
  expect(hostCalls).toBe(1);
  expect(stored()).toBe(42);
});

test('a worker compiles start functions while the page starts', async ({ page }) => {
  // The page stops the worker when the frame after the start begins, usually before it has called
  // every function; kept here, it goes through them all against the real module and reports.
  await page.addInitScript(() => { Worker.prototype.terminate = function terminate() {}; });
  const cdp = await page.context().newCDPSession(page);
  // A network as slow as a visitor's (10 Mbit/s, 40 ms): from a loopback server the page would
  // start before the worker could take a message.
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 40, downloadThroughput: 1.25e6, uploadThroughput: 1.25e6 });
  const stopTrace = await startTrace(cdp, ['v8.wasm', 'disabled-by-default-v8.wasm.detailed', '__metadata']);
  await page.goto('/');
  await settle(page);
  await expect.poll(() => warmedUp(page)).toHaveLength(1);
  const [report] = await warmedUp(page);
  expect(report.failed, 'the worker\'s warm-up').toBeUndefined();
  expect(report.warmed, 'start functions called by the warm-up').toBeGreaterThan(3000);
  const events = await stopTrace();
  const workers = new Set(events.filter((e) => e.name === 'thread_name' && e.args?.name === 'DedicatedWorker thread').map((e) => `${e.pid}:${e.tid}`));
  const compiledThere = events.filter((e) => e.name === 'wasm.CompileBaseline' && workers.has(`${e.pid}:${e.tid}`));
  // However far the page's start has got when the worker begins, the worker compiles what the
  // start has not called yet (the page's later work, the register table and the editor's, at
  // least), and the page's later calls find that code.
  expect(compiledThere.length, 'functions compiled by the worker').toBeGreaterThan(100);
  await page.getByRole('button', { name: 'Step', exact: true }).click();
  await expect(page.locator('.step-count')).toHaveText('step 1');
});

for (const [why, block] of [
  ['no worker can be made', () => { window.Worker = function Worker() { throw new Error('blocked by a policy'); }; }],
  ['the module cannot be posted to the worker', () => {
    Worker.prototype.postMessage = function postMessage() { throw new DOMException('cannot clone', 'DataCloneError'); };
  }],
]) {
  test(`the page starts when ${why}`, async ({ page }) => {
    await page.addInitScript(block);
    await page.goto('/');
    await expect(page.getByRole('button', { name: 'Run', exact: true })).toBeEnabled();
    await page.getByRole('button', { name: 'Step', exact: true }).click();
    await expect(page.locator('.step-count')).toHaveText('step 1');
    expect(await warmedUp(page)).toEqual([]);
  });
}
