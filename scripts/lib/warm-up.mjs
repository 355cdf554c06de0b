// Lets another thread compile the first module's start functions while the page's main thread runs
// the start (the loader's side is in cold-loader.js).
//
// Chromium compiles a wasm function on the thread that first calls it, and a first visit's start
// calls about 3,000: on a slow phone that compiling is about two fifths of the start. Compiled code
// belongs to the module, not to an instance, and a module posted to a worker is the same module.
// So a worker instantiates the first module a second time, with its own memory and globals, and
// calls `warm_up`, which calls each start function in the order the start first calls them; the
// main thread then finds most of them compiled. In the worker's instance the global `warming` is
// set, and each of those functions begins by returning at once when it is: the calls compile the
// functions and run nothing of them. In the page's instance `warming` is never set.
import binaryen from 'binaryen';

// The types a warm-up call can give a zero of; a function with another type in its signature is
// left to be compiled on its first call.
const NUMBERS = new Set([binaryen.i32, binaryen.i64, binaryen.f32, binaryen.f64]);

// Adds the `warming` global, the guard at the start of each function named in `names` (in the
// order the start calls them) and the exported `warm_up`. Returns how many functions it calls.
export function addWarmUp(module, names) {
  const zero = (type) => {
    if (type === binaryen.i32) return module.i32.const(0);
    if (type === binaryen.i64) return module.i64.const(0n);
    if (type === binaryen.f32) return module.f32.const(0);
    return module.f64.const(0);
  };
  module.addGlobal('warming', binaryen.i32, true, module.i32.const(0));
  const calls = [];
  for (const name of names) {
    const fn = module.getFunction(name);
    if (!fn) continue;
    const info = binaryen.getFunctionInfo(fn);
    if (info.module) continue;
    const params = binaryen.expandType(info.params);
    const results = binaryen.expandType(info.results);
    if (results.length > 1 || ![...params, ...results].every((type) => NUMBERS.has(type))) continue;
    const returned = results.length === 0 ? null : zero(results[0]);
    const guard = module.if(module.global.get('warming', binaryen.i32), module.return(returned));
    binaryen.Function.setBody(fn, module.block(null, [guard, info.body], info.results));
    const call = module.call(name, params.map(zero), info.results);
    calls.push(results.length === 0 ? call : module.drop(call));
  }
  // Returns how many functions it called.
  module.addFunction('warm_up', binaryen.none, binaryen.i32, [], module.block(null, [
    module.global.set('warming', module.i32.const(1)),
    ...calls,
    module.global.set('warming', module.i32.const(0)),
    module.i32.const(calls.length),
  ], binaryen.i32));
  module.addFunctionExport('warm_up', 'warm_up');
  return calls.length;
}
