// A static server for the built page (dist/) on a free loopback port, for the scripts that drive
// it in headless Chromium (benchmarks, the README screenshot, the offline test's second build).
//
// By default it reads each file when it is asked for and sends it as it is, with no caching
// headers: the tests and benchmarks of the running page want exactly the files on disk, even when
// a test rewrites one of them while the server runs.
//
// With `{ staticHost: true }` it answers as a typical static host does, for the scripts that
// measure what a visitor waits for (scripts/load-budget.mjs):
//   - compression: a precompressed `FILE.br` or `FILE.gz` beside a file is sent when the request's
//     Accept-Encoding allows it (brotli preferred, as hosts prefer it); otherwise text and wasm are
//     sent gzipped at zlib level 9, compressed once when the server starts. Images that are
//     compressed already (PNG) go as they are. `Vary: Accept-Encoding` says the body depends on it.
//   - caching: files whose names carry a content hash (Trunk's `name-<hash>.ext`, and the
//     `snippets/<crate>-<hash>/` directory) never change under their name, so they may be kept a
//     year without asking (`max-age=31536000, immutable`); everything else (index.html, sw.js,
//     precache.json, the manifest and the icons) gets `no-cache`, so the browser asks every time
//     and a new build is seen at once, which also lets the service worker's updates through. Each
//     response carries a strong ETag, and a request whose If-None-Match matches gets a 304, so that
//     asking again costs a round trip, not the file.
// The directory is read once, when the server starts; later changes to it are not seen.
import { createHash } from 'node:crypto';
import { readdir, readFile, stat } from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

const MIME = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.wasm': 'application/wasm',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.json': 'application/json',
  '.webmanifest': 'application/manifest+json',
};

// Kinds whose bytes are compressed already: compressing them again gains nothing.
const PRECOMPRESSED_KINDS = new Set(['.png']);

const HASHED_NAME = /-[0-9a-f]{8,16}(?:_bg)?\.[a-z]+$/;
const HASHED_DIRECTORY = /^snippets\/[^/]+-[0-9a-f]{8,16}\//;

const mimeOf = (file) => MIME[path.extname(file)] ?? 'application/octet-stream';

// Serves `dir`; resolves to the server (close it when done) and its URL. `options.staticHost`:
// answer as a static host does (see the top of this file). `options.onResponse`, with
// `staticHost`: called with `{ path, encoding, bytes, status }` for each response, the body's
// bytes as sent.
export async function serveDist(dir, options = {}) {
  const root = path.resolve(dir);
  const handler = options.staticHost ? await staticHostHandler(root, options.onResponse) : plainHandler(root);
  const server = http.createServer(handler);
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  return { server, url: `http://127.0.0.1:${server.address().port}/` };
}

function plainHandler(root) {
  return async (request, response) => {
    try {
      const url = new URL(request.url, 'http://localhost');
      let file = path.join(root, decodeURIComponent(url.pathname));
      if (!file.startsWith(root)) throw new Error('outside dist');
      if ((await stat(file)).isDirectory()) file = path.join(file, 'index.html');
      const body = await readFile(file);
      response.writeHead(200, { 'content-type': mimeOf(file) });
      response.end(body);
    } catch {
      response.writeHead(404);
      response.end('not found');
    }
  };
}

async function filesUnder(root) {
  const found = [];
  for (const entry of await readdir(root, { recursive: true, withFileTypes: true })) {
    if (entry.isFile()) found.push(path.relative(root, path.join(entry.parentPath ?? entry.path, entry.name)));
  }
  return found.map((name) => name.split(path.sep).join('/'));
}

// Every file of `root` with its encodings, read and compressed up front.
async function staticHostHandler(root, onResponse = () => {}) {
  const names = await filesUnder(root);
  const present = new Set(names);
  const files = new Map();
  for (const name of names) {
    // A precompressed copy is served in place of its original, not as a file of its own.
    if ((name.endsWith('.br') || name.endsWith('.gz')) && present.has(name.slice(0, -3))) continue;
    const identity = await readFile(path.join(root, name));
    const encodings = { identity };
    if (present.has(`${name}.br`)) encodings.br = await readFile(path.join(root, `${name}.br`));
    if (present.has(`${name}.gz`)) {
      encodings.gzip = await readFile(path.join(root, `${name}.gz`));
    } else if (!PRECOMPRESSED_KINDS.has(path.extname(name))) {
      const gzipped = gzipSync(identity, { level: 9 });
      if (gzipped.length < identity.length) encodings.gzip = gzipped;
    }
    const hashed = HASHED_NAME.test(name) || HASHED_DIRECTORY.test(name);
    files.set(name, {
      type: mimeOf(name),
      encodings,
      cacheControl: hashed ? 'public, max-age=31536000, immutable' : 'no-cache',
      etag: `"${createHash('sha256').update(identity).digest('hex').slice(0, 32)}"`,
    });
  }
  return (request, response) => {
    const url = new URL(request.url, 'http://localhost');
    let name;
    try {
      name = decodeURIComponent(url.pathname).replace(/^\/+/, '');
    } catch {
      name = null;
    }
    if (name === '' || name?.endsWith('/')) name = `${name}index.html`;
    const file = name === null ? undefined : files.get(name);
    if (!file) {
      response.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' });
      response.end('not found');
      onResponse({ path: url.pathname, encoding: 'identity', bytes: 9, status: 404 });
      return;
    }
    const encoding = chooseEncoding(request.headers['accept-encoding'] ?? '', file.encodings);
    const headers = {
      'content-type': file.type,
      'cache-control': file.cacheControl,
      etag: file.etag,
      vary: 'Accept-Encoding',
    };
    if (request.headers['if-none-match'] === file.etag) {
      response.writeHead(304, headers);
      response.end();
      onResponse({ path: url.pathname, encoding, bytes: 0, status: 304 });
      return;
    }
    const body = file.encodings[encoding];
    if (encoding !== 'identity') headers['content-encoding'] = encoding;
    headers['content-length'] = body.length;
    response.writeHead(200, headers);
    response.end(request.method === 'HEAD' ? undefined : body);
    onResponse({ path: url.pathname, encoding, bytes: body.length, status: 200 });
  };
}

// The encoding to send: brotli, then gzip, when the request accepts it (a `q=0` refuses one) and
// the file has it; else the file as it is.
function chooseEncoding(acceptEncoding, encodings) {
  const accepted = new Map();
  for (const part of acceptEncoding.split(',')) {
    const [token, ...params] = part.trim().toLowerCase().split(';');
    if (!token) continue;
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    accepted.set(token, q ? Number(q.slice(2)) : 1);
  }
  const allows = (name) => (accepted.get(name) ?? accepted.get('*') ?? 0) > 0;
  for (const name of ['br', 'gzip']) {
    if (encodings[name] && allows(name)) return name;
  }
  return 'identity';
}
