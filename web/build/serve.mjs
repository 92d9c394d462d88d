#!/usr/bin/env node
// A tiny static server for the built lesson: 127.0.0.1 only, the page's strict CSP as a header,
// correct MIME types (application/wasm, text/javascript for .mjs), gzip as static hosts send it,
// no directory listings, and no path outside the root.  node web/build/serve.mjs --root dist --port 8000
import { createServer } from 'node:http';
import { createReadStream, readFileSync, realpathSync, statSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { extname, join, resolve, sep } from 'node:path';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';

/** The Content-Security-Policy every response carries. */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self' 'wasm-unsafe-eval'",
  "style-src 'self'",
  "img-src 'self' data: blob:",
  "object-src 'none'",
  "base-uri 'none'",
  "require-trusted-types-for 'script'",
  'frame-ancestors *',
].join('; ');

const MIME = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.wasm': 'application/wasm',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.ttf': 'font/ttf',
  '.txt': 'text/plain; charset=utf-8',
  '.ico': 'image/x-icon',
};

// Text, JSON and wasm shrink 3–7× under gzip (fonts are compressed already).
const COMPRESSIBLE = /^(text\/|application\/(json|wasm)|image\/svg)/;
const gzipCache = new Map();

/** The gzip bytes of `path`, computed once per version of the file (size and mtime). */
function gzipped(path, stat) {
  const key = `${path}\0${stat.size}\0${stat.mtimeMs}`;
  let bytes = gzipCache.get(key);
  if (!bytes) {
    bytes = gzipSync(readFileSync(path), { level: 6 });
    gzipCache.set(key, bytes);
  }
  return bytes;
}

function send(res, status, text) {
  res.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8', 'Content-Security-Policy': CONTENT_SECURITY_POLICY });
  res.end(text);
}

/** Resolves a URL path inside `root`, or returns null when it would leave it. */
function resolveInside(root, urlPath) {
  let decoded;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return null;
  }
  if (decoded.includes('\0')) return null;
  const candidate = resolve(root, `.${decoded.startsWith('/') ? decoded : `/${decoded}`}`);
  if (candidate !== root && !candidate.startsWith(root + sep)) return null;
  return candidate;
}

function handler(root) {
  return (req, res) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return send(res, 405, 'Method not allowed\n');
    const url = new URL(req.url, 'http://127.0.0.1');
    let path = resolveInside(root, url.pathname);
    if (!path) return send(res, 403, 'Forbidden\n');
    let stat;
    try {
      stat = statSync(path);
      if (stat.isDirectory()) {
        path = join(path, 'index.html');
        stat = statSync(path);
      }
      // A symbolic link must not lead outside the root either.
      const real = realpathSync(path);
      if (real !== root && !real.startsWith(root + sep)) return send(res, 403, 'Forbidden\n');
    } catch {
      return send(res, 404, 'Not found\n');
    }
    if (!stat.isFile()) return send(res, 404, 'Not found\n');
    const type = MIME[extname(path).toLowerCase()] ?? 'application/octet-stream';
    const headers = {
      'Content-Type': type,
      'Content-Security-Policy': CONTENT_SECURITY_POLICY,
      'X-Content-Type-Options': 'nosniff',
      'Cache-Control': 'no-cache',
      Vary: 'Accept-Encoding',
    };
    const gzip = COMPRESSIBLE.test(type) && /\bgzip\b/.test(req.headers['accept-encoding'] ?? '') ? gzipped(path, stat) : null;
    if (gzip) {
      res.writeHead(200, { ...headers, 'Content-Encoding': 'gzip', 'Content-Length': gzip.length });
      return res.end(req.method === 'HEAD' ? undefined : gzip);
    }
    res.writeHead(200, { ...headers, 'Content-Length': stat.size });
    if (req.method === 'HEAD') return res.end();
    createReadStream(path).pipe(res);
  };
}

/**
 * Serves `root` on 127.0.0.1:`port` (0 picks a free port). Resolves to { url, port, close() },
 * where close() resolves once the server has stopped.
 */
export function startServer({ root, port = 8000 }) {
  const absoluteRoot = realpathSync(resolve(root));
  const server = createServer(handler(absoluteRoot));
  return new Promise((resolvePromise, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      const actual = server.address().port;
      resolvePromise({
        url: `http://127.0.0.1:${actual}/`,
        port: actual,
        close: () =>
          new Promise((done) => {
            server.closeAllConnections?.();
            server.close(() => done());
          }),
      });
    });
  });
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({ options: { root: { type: 'string', default: 'dist' }, port: { type: 'string', default: '8000' } } });
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    console.error(`serve: --port must be an integer from 0 to 65535, got ${values.port}`);
    process.exit(1);
  }
  startServer({ root: values.root, port }).then(
    ({ url }) => console.log(`Serving the lesson at ${url}`),
    (error) => {
      console.error(`serve: ${error.message}`);
      process.exit(1);
    },
  );
}
