#!/usr/bin/env node
// Trunk post-build hook: makes the build work offline, and ready for hosts that serve
// precompressed files. Lists every file of the build in precache.json and writes the service
// worker (src/offline/sw.js) beside it with VERSION set to a hash of those files' names and
// contents, so that each build is a new worker and the old caches go. Paths are relative, so the
// site works under any sub-path. Then writes a Brotli (quality 11) and a gzip (level 9) copy
// beside each hashed wasm, JavaScript and CSS file (`FILE.br`, `FILE.gz`), for a host that sends
// them by the request's Accept-Encoding instead of compressing on the fly; the worker caches
// the originals only (the browser fetches it the encoding it accepts under the original's name).
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const dist = process.env.TRUNK_STAGING_DIR || process.argv[2];
if (!dist) {
  console.error('build-offline: no TRUNK_STAGING_DIR (run by trunk) and no directory given');
  process.exit(1);
}
const skip = new Set(['sw.js', 'precache.json']);

function files(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : [path];
  });
}

// A precompressed copy left by an earlier run of this hook is not a file of the build.
const all = files(dist).map((path) => relative(dist, path).split(sep).join('/'));
const present = new Set(all);
const isCopy = (path) => /\.(br|gz)$/.test(path) && present.has(path.slice(0, -3));
const listed = all.filter((path) => !skip.has(path) && !isCopy(path)).sort();
const hash = createHash('sha256');
for (const path of listed) {
  hash.update(path);
  hash.update(readFileSync(join(dist, path)));
}
const version = hash.digest('hex').slice(0, 16);
writeFileSync(join(dist, 'precache.json'), JSON.stringify({ version, files: listed }, null, 1));
const worker = readFileSync(new URL('../src/offline/sw.js', import.meta.url), 'utf8')
  .replace('__WAVE_PLAYGROUND_VERSION__', version);
writeFileSync(join(dist, 'sw.js'), worker);
console.log(`build-offline: ${listed.length} files, version ${version}`);

// Trunk's hashed names (`name-<hash>.ext`, `_bg.wasm`: a 64-bit hash in hex, leading zeros
// dropped) and the `snippets/<crate>-<hash>/` directory: files that never change under their
// name, the ones worth compressing once.
const HASHED = /(?:-[0-9a-f]{8,16}(?:_bg)?\.(?:wasm|js|css)$)|(?:^snippets\/[^/]+-[0-9a-f]{8,16}\/.*\.js$)/;
let originalBytes = 0;
let brotliBytes = 0;
let gzipBytes = 0;
let compressed = 0;
for (const path of listed.filter((p) => HASHED.test(p))) {
  const bytes = readFileSync(join(dist, path));
  const brotli = brotliCompressSync(bytes, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
      [constants.BROTLI_PARAM_LGWIN]: constants.BROTLI_MAX_WINDOW_BITS,
      [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
      [constants.BROTLI_PARAM_MODE]: path.endsWith('.wasm') ? constants.BROTLI_MODE_GENERIC : constants.BROTLI_MODE_TEXT,
    },
  });
  const gzip = gzipSync(bytes, { level: 9 });
  writeFileSync(join(dist, `${path}.br`), brotli);
  writeFileSync(join(dist, `${path}.gz`), gzip);
  originalBytes += bytes.length;
  brotliBytes += brotli.length;
  gzipBytes += gzip.length;
  compressed += 1;
}
const kb = (n) => `${(n / 1024).toFixed(1)} KiB`;
console.log(`build-offline: ${compressed} files precompressed, ${kb(originalBytes)} → ${kb(brotliBytes)} brotli, ${kb(gzipBytes)} gzip`);
