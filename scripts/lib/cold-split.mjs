// Splits the page's main wasm module by what its start uses: a first module that keeps the
// functions a visit runs until the page is interactive (the names in scripts/start-functions.txt),
// and a second, "cold" module with every other function, fetched once the app is running.
//
// Chromium, Firefox and WebKit need the whole of a module before any of it runs, so every function
// in the first module is on a first visit's critical path, however rarely it is called. The cold
// module holds the rest: the engine's instruction loops, the compare views, the checks, the
// question panel, the link reader's rarer paths. In the first module each cold function that the
// kept code, the function tables or the exports still reach becomes a stub of a few bytes: it
// makes sure the cold module is there (`cold.load`, see cold-loader.js: at once if it has already
// arrived, else fetched and compiled synchronously) and calls the real function through a table
// of the cold functions (`cold_table`), which the cold module fills when it is instantiated.
//
// The cold module shares the first module's memory, globals and tables (imports of the first
// module's exports), so a cold function sees the very state the first module does; it calls kept
// functions through imports of them and other cold functions directly. Both come from the same
// module as binaryen reads it, so every function keeps its name and no instruction is rewritten by
// hand.
import binaryen from 'binaryen';
import { addWarmUp } from './warm-up.mjs';

const PRIMARY = 'primary';

// `bytes`: the optimised main module with its name section (wasm-opt -g). `hot`: the set of names
// to keep in the first module. Returns both modules without names, and what went where
// (`missing`: the names in `hot` that no function of the module has).
export function coldSplit(bytes, hot) {
  const first = binaryen.readBinary(bytes);
  // A start function would run again as the cold module is instantiated.
  if (first.getStart()) throw new Error('cold-split: the module has a start function');
  const cold = [];
  let keptFunctions = 0;
  for (const info of functions(first)) {
    if (info.module) continue;
    if (hot.has(info.name)) keptFunctions++;
    else cold.push(info);
  }
  if (cold.length === 0) throw new Error('cold-split: every function is in the start profile');
  const missing = hot.size - keptFunctions;
  // The memory's name in binaryen, which its typings do not give but its export does.
  const memoryExport = exports(first).find((info) => info.kind === binaryen.ExternalMemory);
  const memoryName = memoryExport?.value ?? '0';

  // Exported names for what the cold module imports, short to keep the export section small.
  const exportName = new Map();
  const nameFor = (prefix, internal) => {
    if (!exportName.has(internal)) exportName.set(internal, `${prefix}${exportName.size.toString(36)}`);
    return exportName.get(internal);
  };

  // The cold module: the same module with the kept functions, the imports, the memory, the
  // globals and the tables turned into imports of the first module, its data and element
  // segments and exports removed, and one element segment putting the cold functions in the
  // shared cold table.
  const second = binaryen.readBinary(bytes);
  const coldNames = new Set(cold.map((info) => info.name));
  for (const info of functions(second)) {
    if (coldNames.has(info.name)) continue;
    second.removeFunction(info.name);
    second.addFunctionImport(info.name, PRIMARY, nameFor('f', `f:${info.name}`), info.params, info.results);
  }
  for (const info of globals(second)) {
    second.removeGlobal(info.name);
    second.addGlobalImport(info.name, PRIMARY, nameFor('g', `g:${info.name}`), info.type, info.mutable);
  }
  for (const segment of elementSegments(second)) second.removeElementSegment(segment);
  for (const info of tables(second)) second.addTableImport(info.name, PRIMARY, nameFor('t', `t:${info.name}`));
  if (second.hasMemory()) {
    second.addMemoryImport(memoryName, PRIMARY, nameFor('m', `m:${memoryName}`));
  }
  for (const name of exports(second).map((info) => info.name)) second.removeExport(name);
  second.runPasses(['remove-memory-init']);
  second.addTable('cold_table', cold.length, cold.length);
  second.addTableImport('cold_table', PRIMARY, 'cold_table');
  second.addActiveElementSegment('cold_table', 'cold_functions', cold.map((info) => info.name), second.i32.const(0));
  second.runPasses(['remove-unused-module-elements']);

  // What the cold module still imports, which the first module must export.
  const needed = { functions: [], globals: [], tables: [], memory: null };
  for (const info of functions(second)) if (info.module === PRIMARY) needed.functions.push(info);
  for (const info of globals(second)) if (info.module === PRIMARY) needed.globals.push(info);
  for (const info of tables(second)) if (info.module === PRIMARY && info.name !== 'cold_table') needed.tables.push(info);
  if (second.hasMemory()) needed.memory = second.getMemoryInfo();

  // The first module: each cold function a stub that loads the cold module if need be and calls
  // the real function through the cold table; the stubs nothing reaches go with the rest.
  first.addFunctionImport('cold_load', 'cold', 'load', binaryen.none, binaryen.none);
  first.addGlobal('cold_ready', binaryen.i32, true, first.i32.const(0));
  first.addGlobalExport('cold_ready', 'cold_ready');
  first.addTable('cold_table', cold.length, cold.length);
  first.addTableExport('cold_table', 'cold_table');
  cold.forEach((info, slot) => {
    const params = binaryen.expandType(info.params);
    const body = first.block(null, [
      first.if(first.i32.eqz(first.global.get('cold_ready', binaryen.i32)), first.call('cold_load', [], binaryen.none)),
      first.call_indirect('cold_table', first.i32.const(slot), params.map((type, index) => first.local.get(index, type)), info.params, info.results),
    ], info.results);
    first.removeFunction(info.name);
    first.addFunction(info.name, info.params, info.results, [], body);
  });
  for (const info of needed.functions) first.addFunctionExport(info.name, info.base);
  for (const info of needed.globals) first.addGlobalExport(info.name, info.base);
  for (const info of needed.tables) first.addTableExport(info.name, info.base);
  if (needed.memory) first.addMemoryExport(memoryName, needed.memory.base);
  const warmed = addWarmUp(first, hot);
  first.runPasses(['remove-unused-module-elements']);

  for (const [module, name] of [[first, 'first'], [second, 'cold']]) {
    if (!module.validate()) throw new Error(`cold-split: the ${name} module does not validate`);
  }
  binaryen.setDebugInfo(false);
  const result = {
    first: first.emitBinary(),
    cold: second.emitBinary(),
    keptFunctions,
    missing,
    coldFunctions: cold.length,
    stubs: functions(first).filter((info) => !info.module && coldNames.has(info.name)).length,
    imports: needed.functions.length,
    warmed,
  };
  first.dispose();
  second.dispose();
  return result;
}

// A module's functions, globals, tables, element segments and exports, as binaryen describes them.
const each = (count, at, info) => Array.from({ length: count }, (_, i) => info(at(i)));
const functions = (m) => each(m.getNumFunctions(), (i) => m.getFunctionByIndex(i), binaryen.getFunctionInfo);
const globals = (m) => each(m.getNumGlobals(), (i) => m.getGlobalByIndex(i), binaryen.getGlobalInfo);
const tables = (m) => each(m.getNumTables(), (i) => m.getTableByIndex(i), binaryen.getTableInfo);
const exports = (m) => each(m.getNumExports(), (i) => m.getExportByIndex(i), binaryen.getExportInfo);
const elementSegments = (m) => each(m.getNumElementSegments(), (i) => m.getElementSegmentByIndex(i),
  (segment) => binaryen.getElementSegmentInfo(segment).name);
