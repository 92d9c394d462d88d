#!/usr/bin/env node
// Serves the built lesson on 127.0.0.1: sirv streams the files (and the .br/.gz copies the build
// writes); this wrapper adds the page's CSP and headers and checks every request before sirv sees it.
//   node web/build/serve.mjs --root dist --port 8000
import { createServer } from 'node:http';
import { closeSync, constants, openSync, realpathSync, statSync } from 'node:fs';
import { extname, join, relative, resolve, sep } from 'node:path';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import sirv from 'sirv';

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

/** Content types by extension; anything else is application/octet-stream. */
export const MIME_TYPES = {
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

/** Extensions whose files shrink 3–7× compressed (fonts and images are compressed already). */
export const COMPRESSIBLE_EXTENSIONS = ['.html', '.js', '.mjs', '.css', '.json', '.wasm', '.svg', '.txt'];

/** Defaults that bound how long one client can hold a connection (milliseconds) and how many it may open. */
export const SERVER_LIMITS = {
  headersTimeout: 10_000,
  requestTimeout: 15_000,
  keepAliveTimeout: 5_000,
  socketTimeout: 30_000,
  maxConnections: 512,
};

// Precompressed variants, most preferred first, as sirv looks them up.
const VARIANTS = [
  { coding: 'br', suffix: '.br' },
  { coding: 'gzip', suffix: '.gz' },
];

class HttpError extends Error {
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}

function sendText(res, status, text, extraHeaders = {}) {
  if (res.headersSent) return res.destroy();
  const kept = ['content-security-policy', 'x-content-type-options', 'connection'];
  for (const name of res.getHeaderNames()) if (!kept.includes(name)) res.removeHeader(name);
  const body = Buffer.from(`${text}\n`);
  res.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8', 'Content-Length': body.length, 'Cache-Control': 'no-store', ...extraHeaders });
  res.end(body);
}

/** The weight (q) a client gives each content coding; codings it does not name get the weight of `*`, or 0. */
function acceptedCodings(header) {
  const weights = new Map();
  for (const part of String(header ?? '').split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    if (!name) continue;
    let q = 1;
    for (const param of params) {
      const match = /^\s*q\s*=\s*([0-9.]+)\s*$/.exec(param);
      if (match) q = Number(match[1]);
    }
    weights.set(name, Number.isFinite(q) ? q : 0);
  }
  return (coding) => weights.get(coding) ?? weights.get('*') ?? 0;
}

// Errors from the file system mapped to what the client is told.
function fileError(error) {
  if (['ENOENT', 'ENOTDIR', 'ENAMETOOLONG', 'ELOOP'].includes(error.code)) return new HttpError(404, 'Not found');
  if (error.code === 'EACCES' || error.code === 'EPERM') return new HttpError(403, 'Forbidden: the file cannot be read');
  return new HttpError(500, `Internal error reading the file (${error.code ?? 'unknown'})`);
}

/**
 * The regular, readable file at `path` inside `root`, following a directory to its index.html.
 * Returns { path, stat } or throws HttpError. Opening it (non-blocking, then closing) proves it is
 * readable now, so sirv is never handed a file that would fail or block in the middle of a response.
 */
function readableFile(root, path) {
  try {
    let stat = statSync(path);
    if (stat.isDirectory()) {
      path = join(path, 'index.html');
      stat = statSync(path);
    }
    if (!stat.isFile()) throw new HttpError(404, 'Not found');
    // A symbolic link must not lead outside the root either.
    const real = realpathSync(path);
    if (real !== root && !real.startsWith(root + sep)) throw new HttpError(403, 'Forbidden');
    closeSync(openSync(path, constants.O_RDONLY | constants.O_NONBLOCK));
    return { path, stat };
  } catch (error) {
    throw error instanceof HttpError ? error : fileError(error);
  }
}

/** The file a request-target names inside `root`, or an HttpError saying why there is none. */
function requestedFile(root, target) {
  let url;
  try {
    url = new URL(target, 'http://127.0.0.1');
  } catch {
    throw new HttpError(400, 'Bad request: the request-target is not a valid URL');
  }
  let decoded;
  try {
    decoded = decodeURIComponent(url.pathname);
  } catch {
    throw new HttpError(400, 'Bad request: the path is not valid percent-encoding');
  }
  if (decoded.includes('\0')) throw new HttpError(400, 'Bad request: the path contains a NUL byte');
  const candidate = resolve(root, `.${decoded.startsWith('/') ? decoded : `/${decoded}`}`);
  if (candidate !== root && !candidate.startsWith(root + sep)) throw new HttpError(403, 'Forbidden');
  return readableFile(root, candidate);
}

/** The best precompressed copy of `file` the client accepts: present, readable and no older than it. */
function chooseCoding(root, file, acceptEncoding) {
  if (!COMPRESSIBLE_EXTENSIONS.includes(extname(file.path).toLowerCase())) return '';
  const weight = acceptedCodings(acceptEncoding);
  const wanted = VARIANTS.filter(({ coding }) => weight(coding) > 0).sort((a, b) => weight(b.coding) - weight(a.coding));
  for (const { coding, suffix } of wanted) {
    try {
      const variant = readableFile(root, file.path + suffix);
      if (variant.stat.mtimeMs >= file.stat.mtimeMs) return coding;
    } catch {
      // No usable copy in this coding: try the next one.
    }
  }
  return '';
}

/**
 * The Range header to hand sirv: one well-formed byte range of the identity file, written as
 * `bytes=start-end`, or none (the whole file, as RFC 9110 allows). sirv mishandles suffix ranges,
 * `0-0` and start > end, so those never reach it; compressed copies are always sent whole.
 */
function checkedRange(header, coding, size) {
  if (!header || coding) return undefined;
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match || (match[1] === '' && match[2] === '')) return undefined;
  let start;
  let end;
  if (match[1] === '') {
    start = Math.max(0, size - Number(match[2]));
    end = size - 1;
  } else {
    start = Number(match[1]);
    end = match[2] === '' ? size - 1 : Math.min(Number(match[2]), size - 1);
  }
  if (start >= size) return `bytes=${start}-`; // sirv answers 416 Range Not Satisfiable
  if (end < start || end === 0) return undefined;
  return `bytes=${start}-${end}`;
}

function handler(root) {
  const serveFile = sirv(root, {
    dev: true, // stat on every request, so a rebuilt file is served as it is now (and nothing is cached)
    etag: true,
    brotli: true,
    gzip: true,
    extensions: [],
    onNoMatch: (req, res) => sendText(res, 404, 'Not found'),
  });
  return (req, res) => {
    res.setHeader('Content-Security-Policy', CONTENT_SECURITY_POLICY);
    res.setHeader('X-Content-Type-Options', 'nosniff');
    // GET and HEAD carry no body: a client that sends one (or trickles one) is answered and the
    // connection closed, rather than kept open while Node reads and discards the body.
    const hasBody = (req.headers['content-length'] ?? '0') !== '0' || req.headers['transfer-encoding'] !== undefined;
    if (hasBody) res.setHeader('Connection', 'close');
    try {
      if (req.method !== 'GET' && req.method !== 'HEAD') return sendText(res, 405, 'Method not allowed', { Allow: 'GET, HEAD', Connection: 'close' });
      const file = requestedFile(root, req.url);
      const coding = chooseCoding(root, file, req.headers['accept-encoding']);
      res.setHeader('Content-Type', MIME_TYPES[extname(file.path).toLowerCase()] ?? 'application/octet-stream');
      res.setHeader('Cache-Control', 'no-cache');
      res.setHeader('Vary', 'Accept-Encoding');
      // sirv then finds exactly the copy chosen here. Its parsed-URL cache is given the checked path,
      // so it neither re-parses nor re-decodes the raw target.
      req.headers['accept-encoding'] = coding;
      const range = checkedRange(req.headers.range, coding, file.stat.size);
      if (range) req.headers.range = range;
      else delete req.headers.range;
      const pathname = `/${relative(root, file.path).split(sep).join('/')}`.replaceAll('%', '%25');
      req._parsedUrl = { pathname, search: '', query: undefined, hash: undefined, raw: req.url };
      // A read that fails after the headers are out (the file vanished, a disk error) ends this
      // response instead of throwing from an unhandled stream error.
      res.once('pipe', (source) => source.once('error', (error) => {
        console.error(`serve: reading ${file.path} failed: ${error.message}`);
        sendText(res, 500, 'Internal error reading the file');
      }));
      serveFile(req, res);
    } catch (error) {
      if (!(error instanceof HttpError)) console.error(`serve: ${req.method} ${JSON.stringify(req.url)}: ${error.message}`);
      sendText(res, error.status ?? 500, error instanceof HttpError ? error.message : 'Internal error');
    }
  };
}

function checkedRoot(root) {
  const absolute = resolve(root);
  let real;
  try {
    real = realpathSync(absolute);
  } catch {
    throw new Error(`--root ${root}: no such directory`);
  }
  if (!statSync(real).isDirectory()) throw new Error(`--root ${root}: not a directory`);
  return real;
}

/**
 * Serves `root` on 127.0.0.1:`port` (0 picks a free port). Resolves to { url, port, server, close() },
 * where close() resolves once the server has stopped; rejects with a one-line Error when `root` is
 * not a directory or the port cannot be bound. The limits (see SERVER_LIMITS) may be overridden,
 * e.g. shortened for tests.
 */
export async function startServer({ root, port = 8000, ...overrides }) {
  const limits = { ...SERVER_LIMITS, ...overrides };
  const absoluteRoot = checkedRoot(root);
  const server = createServer(
    {
      headersTimeout: limits.headersTimeout,
      requestTimeout: limits.requestTimeout,
      keepAliveTimeout: limits.keepAliveTimeout,
      // Node checks the two timeouts above only this often (30 s by default).
      connectionsCheckingInterval: Math.max(20, Math.min(1000, Math.floor(limits.headersTimeout / 4))),
    },
    handler(absoluteRoot),
  );
  server.maxConnections = limits.maxConnections;
  // A socket that neither sends nor reads for this long is closed (e.g. a client that stops reading a response).
  server.setTimeout(limits.socketTimeout);
  await new Promise((resolvePromise, reject) => {
    server.once('error', (error) => reject(new Error(error.code === 'EADDRINUSE' ? `port ${port} is already in use` : error.message)));
    server.listen(port, '127.0.0.1', resolvePromise);
  });
  server.on('error', (error) => console.error(`serve: ${error.message}`));
  const actual = server.address().port;
  return {
    url: `http://127.0.0.1:${actual}/`,
    port: actual,
    server,
    close: () =>
      new Promise((done) => {
        server.closeAllConnections?.();
        server.close(() => done());
      }),
  };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const fail = (message) => {
    console.error(`serve: ${message}`);
    process.exit(1);
  };
  let values;
  try {
    ({ values } = parseArgs({ options: { root: { type: 'string', default: 'dist' }, port: { type: 'string', default: '8000' } } }));
  } catch (error) {
    fail(`${error.message} (usage: serve.mjs [--root DIR] [--port N])`);
  }
  const port = Number(values.port);
  if (!/^\d+$/.test(values.port) || port > 65535) fail(`--port must be an integer from 0 to 65535, got ${values.port}`);
  startServer({ root: values.root, port }).then(
    ({ url }) => console.log(`Serving the lesson at ${url}`),
    (error) => fail(error.message),
  );
}
