#!/usr/bin/env node
// Trunk post-build hook: makes the build work offline. Lists every file of the build in
// precache.json and writes the service worker (src/offline/sw.js) beside it with VERSION set to
// a hash of those files' names and contents, so that each build is a new worker and the old
// caches go. Paths are relative, so the site works under any sub-path.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';

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

const listed = files(dist)
  .map((path) => relative(dist, path).split(sep).join('/'))
  .filter((path) => !skip.has(path))
  .sort();
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
