#!/usr/bin/env node
// Trunk post-build hook: splits the page's wasm into a first module and modules loaded on first
// use, and puts them where Trunk's page expects its one module.
//
// Trunk runs wasm-bindgen straight after cargo, with no step between them, and the splitter has to
// run on cargo's output, before wasm-bindgen rewrites the module. So Trunk builds the app as usual
// (with the `split` feature, index.html's `data-cargo-features`, and without optimising it), and
// this hook starts again from cargo's output:
//   1. wasm-split-cli (crates.io's wasm_split_cli_support, installed by scripts/setup.sh) cuts
//      the module at the split points (src/split.rs): a main module, one module per split point
//      (plus chunks that several of them share), and `__wasm_split.js`, which fetches them and
//      links them to the main module's memory, function table and functions;
//   2. wasm-bindgen makes the main module's JavaScript, as Trunk does;
//   3. wasm-opt optimises each module (in a release build), as Trunk does;
//   4. the results replace Trunk's JavaScript and wasm under Trunk's hashed names; the loaded
//      modules and `__wasm_split.js` get hashed names of their own (`NAME-<16 hex digits>`, a hash
//      of the contents), and the page's integrity attributes are written again for the new files;
//   5. in a release build, the main module is cut again by what the start runs
//      (scripts/lib/cold-split.mjs): a first module and a cold one, fetched as the app starts;
//      the first module and its JavaScript are then named by a hash of what they hold.
// Trunk's name for the main module is a hash of cargo's output, so it changes whenever the code
// does, as the names of the other files change with their contents.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import binaryen from 'binaryen';
import { coldSplit } from './lib/cold-split.mjs';

const staging = process.env.TRUNK_STAGING_DIR || process.argv[2];
if (!staging) {
  console.error('build-split: no TRUNK_STAGING_DIR (run by trunk) and no directory given');
  process.exit(1);
}
const release = (process.env.TRUNK_PROFILE || 'release') === 'release';
const root = new URL('..', import.meta.url).pathname;

function run(command, args) {
  try {
    execFileSync(command, args, { stdio: ['ignore', 'inherit', 'inherit'], cwd: root });
  } catch (error) {
    const hint = error.code === 'ENOENT' ? ' (not installed: scripts/setup.sh installs it)' : '';
    console.error(`build-split: ${command} failed${hint}: ${error.message}`);
    process.exit(1);
  }
}

const metadata = JSON.parse(execFileSync('cargo', ['metadata', '--format-version', '1', '--no-deps', '--offline'], { cwd: root, encoding: 'utf8', maxBuffer: 64 << 20 }));
const cargoWasm = join(metadata.target_directory, 'wasm32-unknown-unknown', release ? 'release' : 'debug', 'wave-playground.wasm');
if (!existsSync(cargoWasm)) {
  console.error(`build-split: cargo's output ${cargoWasm} is missing`);
  process.exit(1);
}

// Trunk's names: `wave-playground-<hash>.js` and `wave-playground-<hash>_bg.wasm`, the hash a
// 64-bit number in hex without leading zeros (so sometimes fewer than 16 digits).
const stem = readdirSync(staging).map((name) => /^(wave-playground-[0-9a-f]{1,16})\.js$/.exec(name)?.[1]).find(Boolean);
if (!stem) {
  console.error(`build-split: no wave-playground-<hash>.js in ${staging}`);
  process.exit(1);
}

const work = join(metadata.target_directory, 'wasm-split');
rmSync(work, { recursive: true, force: true });
const split = join(work, 'split');
const bound = join(work, 'bindgen');
mkdirSync(split, { recursive: true });

// 1. Split. `--out-name` makes `__wasm_split.js` import the main module's JavaScript under
// Trunk's name, the module the page has already loaded (a second copy would be a second app).
run('wasm-split-cli', ['--target', 'web', '--out-name', stem, cargoWasm, split]);

// The splitter gives the main module's function table a maximum equal to its size; the page
// grows it by one at start to lend the engine the browser's fused multiply-add (src/fma.rs, and
// the linker's `--growable-table` in .cargo/config.toml), so the maximum goes again.
writeFileSync(join(split, `${stem}.wasm`), growableTable(readFileSync(join(split, `${stem}.wasm`))));

// 2. The main module's JavaScript, with the flags Trunk gives wasm-bindgen, keeping the exports
// the linker made (the function table, the stack pointer, the functions the loaded modules call),
// which wasm-bindgen would otherwise remove.
run('wasm-bindgen', ['--target', 'web', '--no-typescript', '--keep-lld-exports', '--out-dir', bound, '--out-name', stem, join(split, `${stem}.wasm`)]);

// 3. Optimise for size (`-Oz`), inlining a function that has one caller only when its body is at
// most ONE_CALLER_INLINE bytes. Chromium compiles a wasm function on the main thread when it is
// first called, and for the many small functions the start calls that costs more in overhead
// than in compiling: inlining the small ones took the start's lazily compiled functions from
// 5,859 to 3,455 for 6.8 KB more Brotli, where inlining every one-caller function (wasm-opt's
// default) made 2,566 for 32.5 KB more, and none (`-ocimfs 0`) was the smallest wasm. No feature
// flags: wasm-opt takes the features each module's `target_features` section names, as it does
// for Trunk.
const ONE_CALLER_INLINE = '60';
function optimise(input, output) {
  if (release) run('wasm-opt', ['-Oz', '-ocimfs', ONE_CALLER_INLINE, input, '-o', output]);
  else copyFileSync(input, output);
}

function readLeb(bytes, at) {
  let value = 0;
  let shift = 0;
  for (;;) {
    const byte = bytes[at++];
    value += (byte & 0x7f) * 2 ** shift;
    shift += 7;
    if (byte < 0x80) return [value, at];
  }
}

function leb(value) {
  const out = [];
  do {
    let byte = value % 128;
    value = Math.floor(value / 128);
    if (value > 0) byte |= 0x80;
    out.push(byte);
  } while (value > 0);
  return out;
}

// The module with its one table's maximum removed (the table section, id 4, written again).
function growableTable(bytes) {
  let at = 8;
  while (at < bytes.length) {
    const id = bytes[at];
    const [size, body] = readLeb(bytes, at + 1);
    if (id === 4) {
      const [count, entry] = readLeb(bytes, body);
      const [type, flags] = [bytes[entry], bytes[entry + 1]];
      if (count !== 1 || type !== 0x70) throw new Error('build-split: expected one funcref table');
      if (flags !== 0x01) return bytes;
      const [min] = readLeb(bytes, entry + 2);
      const content = [1, 0x70, 0x00, ...leb(min)];
      return Buffer.concat([bytes.subarray(0, at), Buffer.from([4, ...leb(content.length), ...content]), bytes.subarray(body + size)]);
    }
    at = body + size;
  }
  throw new Error('build-split: the main module has no table section');
}

const hash16 = (bytes) => createHash('sha256').update(bytes).digest('hex').slice(0, 16);
const sri = (bytes) => `sha384-${createHash('sha384').update(bytes).digest('base64')}`;

// 4. The loaded modules under hashed names, then the loader that names them.
let loader = readFileSync(join(split, '__wasm_split.js'), 'utf8');
const loaded = [];
for (const name of readdirSync(split).filter((n) => n.endsWith('.wasm') && n !== `${stem}.wasm`).sort()) {
  const optimised = join(work, name);
  optimise(join(split, name), optimised);
  const bytes = readFileSync(optimised);
  const hashed = `${name.slice(0, -'.wasm'.length)}-${hash16(bytes)}.wasm`;
  writeFileSync(join(staging, hashed), bytes);
  const reference = `"./${name}"`;
  if (!loader.includes(reference)) {
    console.error(`build-split: __wasm_split.js does not name ${name}`);
    process.exit(1);
  }
  loader = loader.replaceAll(reference, `"./${hashed}"`);
  loaded.push(`${hashed} (${bytes.length} bytes)`);
}
// 5. The main module, optimised with its names kept (target/wasm-split/main-names.wasm, which
// scripts/profile-start.mjs maps back to names), then, in a release build, cut by what the start
// runs (scripts/lib/cold-split.mjs): a first module with the functions named in
// scripts/start-functions.txt and a cold module with the rest, which the loader appended to the
// main module's JavaScript (scripts/lib/cold-loader.js) fetches as the app starts.
// `WAVE_COLD_SPLIT=0` leaves the main module whole, for scripts/profile-start.mjs.
const namesWasm = join(work, 'main-names.wasm');
if (release) run('wasm-opt', ['-Oz', '-ocimfs', ONE_CALLER_INLINE, '-g', join(bound, `${stem}_bg.wasm`), '-o', namesWasm]);
else copyFileSync(join(bound, `${stem}_bg.wasm`), namesWasm);
const coldLoader = readFileSync(join(root, 'scripts', 'lib', 'cold-loader.js'), 'utf8');
let firstModule;
let coldName = null;
if (release && process.env.WAVE_COLD_SPLIT !== '0') {
  const hot = new Set(readFileSync(join(root, 'scripts', 'start-functions.txt'), 'utf8').split('\n').filter(Boolean));
  const parts = coldSplit(readFileSync(namesWasm), hot);
  firstModule = parts.first;
  coldName = `cold-${hash16(parts.cold)}.wasm`;
  writeFileSync(join(staging, coldName), parts.cold);
  loaded.push(`${coldName} (${parts.cold.length} bytes: ${parts.coldFunctions} functions, ${parts.stubs} stubs left in the first module, ${parts.warmed} start functions for the warm-up)`);
  if (parts.missing > 0) {
    console.warn(`build-split: ${parts.missing} of the names in scripts/start-functions.txt are not in the module; make the list again (docs/development.md, "The start profile")`);
  }
} else if (release) {
  firstModule = withoutNames(readFileSync(namesWasm));
} else {
  firstModule = readFileSync(namesWasm);
}
// Trunk names the main module's files by a hash of cargo's output, which the cut does not see: a
// new list of start functions, or a new loader, would change the files under the same names,
// which hosts let browsers keep for a year. So the cut build's files are named by what they hold.
const finalStem = coldName === null ? stem
  : `wave-playground-${hash16(Buffer.concat([Buffer.from(stem), firstModule, Buffer.from(coldName), Buffer.from(coldLoader)]))}`;
const stemReference = `"./${stem}.js"`;
if (!loader.includes(stemReference)) {
  console.error(`build-split: __wasm_split.js does not import ${stemReference}`);
  process.exit(1);
}
loader = loader.replaceAll(stemReference, `"./${finalStem}.js"`);

const loaderName = `wasm-split-${hash16(loader)}.js`;
writeFileSync(join(staging, loaderName), loader);

// The main module's JavaScript imports the loader by the name the splitter gave it; the import
// statements change, and the keys of the wasm's imports object, which name the wasm's own import
// module, stay.
const importLoader = /(\bfrom\s*)(['"])\.\/__wasm_split\.js\2/g;
let mainJs = readFileSync(join(bound, `${stem}.js`), 'utf8');
if (!importLoader.test(mainJs)) {
  console.error(`build-split: ${stem}.js does not import ./__wasm_split.js`);
  process.exit(1);
}
mainJs = mainJs.replace(importLoader, `$1$2./${loaderName}$2`);
if (coldName !== null) mainJs = withColdLoader(mainJs, coldName, coldLoader);
// The default address of the module, should the page not pass one.
mainJs = mainJs.replaceAll(`'${stem}_bg.wasm'`, `'${finalStem}_bg.wasm'`);
for (const file of [`${stem}.js`, `${stem}_bg.wasm`]) rmSync(join(staging, file), { force: true });
writeFileSync(join(staging, `${finalStem}_bg.wasm`), firstModule);
writeFileSync(join(staging, `${finalStem}.js`), mainJs);
// wasm-bindgen's snippets (the editor's loader, inline JavaScript) are the ones Trunk copied.
if (existsSync(join(bound, 'snippets'))) cpSync(join(bound, 'snippets'), join(staging, 'snippets'), { recursive: true });
// The editor's bundle sits beside its loader (src/editor/load.js), which imports it when the first
// editor is wanted (src/codemirror.rs declares it so that wasm-bindgen copies it there).
const snippets = existsSync(join(staging, 'snippets')) ? readdirSync(join(staging, 'snippets')) : [];
if (!snippets.some((dir) => existsSync(join(staging, 'snippets', dir, 'src', 'editor', 'load.js'))
    && existsSync(join(staging, 'snippets', dir, 'target', 'editor', 'wave-editor.js')))) {
  console.error('build-split: the editor\'s loader and bundle are not both in snippets/*/ (src/editor/load.js, target/editor/wave-editor.js)');
  process.exit(1);
}

// The page's integrity attributes for the two files that changed under their names.
const indexPath = join(staging, 'index.html');
let index = readFileSync(indexPath, 'utf8')
  .replaceAll(`./${stem}.js`, `./${finalStem}.js`)
  .replaceAll(`./${stem}_bg.wasm`, `./${finalStem}_bg.wasm`);
for (const file of [`${finalStem}.js`, `${finalStem}_bg.wasm`]) {
  const pattern = new RegExp(`(href="\\./${file.replaceAll('.', '\\.')}"[^>]*integrity=")[^"]*(")`);
  if (!pattern.test(index)) {
    console.error(`build-split: index.html has no integrity attribute for ${file}`);
    process.exit(1);
  }
  index = index.replace(pattern, `$1${sri(readFileSync(join(staging, file)))}$2`);
}
// No preload link for the editor's bundle, which Trunk writes for every snippet: it is fetched
// once the app has started (by src/editor/load.js), so as not to share the network with the wasm.
index = index.replace(/<link rel="modulepreload" href="[^"]*\/target\/editor\/wave-editor\.js"[^>]*>/g, '');
// The loader is imported by the main module's JavaScript, so without a preload link of its own
// it is asked for only once that file has arrived and been parsed: one more round trip before
// the app's module can run (on a repeat visit, the longest wait before the wasm is compiled).
const mainPreload = new RegExp(`<link rel="modulepreload" href="\\./${finalStem}\\.js"[^>]*>`);
if (!mainPreload.test(index)) {
  console.error(`build-split: index.html has no modulepreload link for ${finalStem}.js`);
  process.exit(1);
}
const loaderPreload = `<link rel="modulepreload" href="./${loaderName}" crossorigin="anonymous" integrity="${sri(Buffer.from(loader))}">`;
index = index.replace(mainPreload, (link) => link + loaderPreload);
// The worker that warms up the first module's start functions, made as the page begins to load
// (its script without its comment lines, which every first visit would download).
if (coldName !== null) {
  const warmUpWorker = inlineScript('warm-up-worker.js');
  if (!index.includes('</title>')) {
    console.error('build-split: index.html has no title to put the warm-up worker\'s script after');
    process.exit(1);
  }
  index = index.replace('</title>', () => `</title>\n    <script>\n${warmUpWorker}    </script>`);
}
// The build, named by its main module, and the script that decides from it whether this load
// starts from compiled code (scripts/lib/started-build.js), ahead of the page's other scripts,
// which read its decision. A build left whole keeps Trunk's name, a hash of cargo's output, which
// another wasm-opt would not change: the build's name is the first module's own hash there.
if (!index.includes('</title>')) {
  console.error('build-split: index.html has no title to put the build\'s name after');
  process.exit(1);
}
const buildName = coldName === null ? `wave-playground-${hash16(firstModule)}` : finalStem;
index = index.replace('</title>', () => `</title>\n    <meta name="wave-build" content="${buildName}">`
  + `\n    <script>\n${inlineScript('started-build.js')}    </script>`);
writeFileSync(indexPath, index);
console.log(`build-split: main module ${finalStem}_bg.wasm, ${firstModule.length} bytes; loaded on use: ${loaded.join(', ') || 'none'}; loader ${loaderName}`);

// The module as binaryen writes it without its name section.
function withoutNames(bytes) {
  const module = binaryen.readBinary(bytes);
  binaryen.setDebugInfo(false);
  const out = module.emitBinary();
  module.dispose();
  return out;
}

// wasm-bindgen's JavaScript for the first module with the cold module's loader: its `cold.load`
// among the first module's imports, the cold module asked for just before the app starts, and the
// loader itself appended, sharing the JavaScript's `wasm`.
function withColdLoader(js, coldName, coldLoader) {
  const importsObject = '\n    return {\n        __proto__: null,\n';
  const imports = js.indexOf(importsObject, js.indexOf('function __wbg_get_imports()'));
  const start = /(\n    )(wasm\.__wbindgen_start\(\);)/;
  if (!js.includes('function __wbg_get_imports()') || imports < 0 || !start.test(js) || !js.includes('\n    wasm = instance.exports;\n')) {
    console.error('build-split: wasm-bindgen\'s JavaScript has no imports object or no start to add the cold module\'s loader to');
    process.exit(1);
  }
  // A closure's JavaScript function, once collected, has its Rust side dropped by a finalizer,
  // whenever the collector runs: the drop often is cold code, which must not be loaded at once
  // for it (cold-loader.js, `coldFinalize`).
  const finalizer = 'new FinalizationRegistry(state => wasm.__wbindgen_destroy_closure(state.a, state.b))';
  if (!js.includes(finalizer)) {
    console.error('build-split: wasm-bindgen\'s JavaScript has no closure finalizer to defer to the cold module');
    process.exit(1);
  }
  const loader = coldLoader.replace('__COLD_FILE__', JSON.stringify(`./${coldName}`));
  const at = imports + importsObject.length;
  return (js.slice(0, at) + '        cold: { __proto__: null, load: coldLoadSync },\n' + js.slice(at))
    .replace(start, '$1warmUp(module);$1coldPrefetch();$1$2')
    .replace(finalizer, 'new FinalizationRegistry(state => coldFinalize(() => wasm.__wbindgen_destroy_closure(state.a, state.b)))')
    + loader;
}

// A script of scripts/lib/ to inline in the page, without its comment lines, which every visit
// would download.
function inlineScript(file) {
  return readFileSync(join(root, 'scripts', 'lib', file), 'utf8')
    .split('\n').filter((line) => !line.trim().startsWith('//')).join('\n');
}
