// Lets another thread compile the first module's start functions while the page's main thread runs
// the start (the page's side: warm-up-worker.js makes the worker, cold-loader.js posts it the
// module).
//
// Chromium compiles a wasm function on the thread that first calls it, and a first visit's start
// calls about 3,000: with the CPU 4× slower that compiling is about two fifths of the start.
// Compiled code belongs to the module, not to an instance, and a module posted to a worker is the
// same module. So a worker instantiates the first module a second time, with its own memory and
// globals, and calls `wave_warm_up`, which calls each start function in the order the start first
// calls them; the main thread then finds most of them compiled. In the worker's instance the
// global `warming` is set, and each of those functions begins by returning at once when it is:
// the calls compile the functions and run nothing of them. In the page's instance `warming` is
// never set.
import binaryen from 'binaryen';

// The value types a warm-up call can give a zero of; a function with another type in its
// signature (a reference, several results) is left to be compiled on its first call.
const ZERO = new Map([
  [binaryen.i32, (module) => module.i32.const(0)],
  [binaryen.i64, (module) => module.i64.const(0n)],
  [binaryen.f32, (module) => module.f32.const(0)],
  [binaryen.f64, (module) => module.f64.const(0)],
  [binaryen.v128, (module) => module.v128.const(new Array(16).fill(0))],
]);

// The export the worker calls; the page's own instance never calls it.
export const WARM_UP_EXPORT = 'wave_warm_up';

// Adds the `warming` global, the guard at the start of each function named in `names` (in the
// order the start calls them) and the exported `wave_warm_up`, which returns how many functions
// it calls. Returns that number.
export function addWarmUp(module, names) {
  const zero = (type) => ZERO.get(type)(module);
  module.addGlobal('warming', binaryen.i32, true, module.i32.const(0));
  const calls = [];
  for (const name of names) {
    const fn = module.getFunction(name);
    if (!fn) continue;
    const info = binaryen.getFunctionInfo(fn);
    if (info.module) continue;
    const params = binaryen.expandType(info.params);
    const results = binaryen.expandType(info.results);
    if (results.length > 1 || ![...params, ...results].every((type) => ZERO.has(type))) continue;
    const returned = results.length === 0 ? null : zero(results[0]);
    const guard = module.if(module.global.get('warming', binaryen.i32), module.return(returned));
    binaryen.Function.setBody(fn, module.block(null, [guard, info.body], info.results));
    const call = module.call(name, params.map(zero), info.results);
    calls.push(results.length === 0 ? call : module.drop(call));
  }
  module.addFunction(WARM_UP_EXPORT, binaryen.none, binaryen.i32, [], module.block(null, [
    module.global.set('warming', module.i32.const(1)),
    ...calls,
    module.global.set('warming', module.i32.const(0)),
    module.i32.const(calls.length),
  ], binaryen.i32));
  module.addFunctionExport(WARM_UP_EXPORT, WARM_UP_EXPORT);
  return calls.length;
}
