#!/usr/bin/env node
// Serves the built lesson on 127.0.0.1: each request's file is opened once, checked to lie inside the
// root, and streamed from that descriptor with the page's CSP and headers; a .br/.gz copy the build
// wrote is sent only while it decodes to the file's bytes.
//   node web/site-builder/serve.mjs --root dist --port 8000 [--dotfiles] [--csp-report-uri URL]
import { createHash } from 'node:crypto';
import fs, { constants, readFileSync, realpathSync, statSync } from 'node:fs';
import { lstat, open, readlink, realpath } from 'node:fs/promises';
import { createServer } from 'node:http';
import { extname, join, relative, resolve, sep } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { createBrotliDecompress, createGunzip } from 'node:zlib';

/**
 * The one script the lesson's pages carry inline, at the top of <head>: it sets the theme and the
 * level before the first paint, which a script fetched from the site would hold back by a round trip.
 * The build inlines this file's text unchanged, so the policy allows it by its hash.
 */
export const THEME_INIT_SCRIPT = readFileSync(new URL('../js/page/theme-init.js', import.meta.url), 'utf8');

/** A CSP hash source for an inline element's text: 'sha256-<base64>'. */
export function cspHash(text) {
  return `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;
}

/** The Content-Security-Policy every response carries. */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  `script-src 'self' ${cspHash(THEME_INIT_SCRIPT)} 'wasm-unsafe-eval'`,
  "style-src 'self'",
  "img-src 'self' data: blob:",
  "object-src 'none'",
  "base-uri 'none'",
  "require-trusted-types-for 'script'",
  'frame-ancestors *',
].join('; ');

// A source a page's own policy may name for the server to send it as the page's header: nothing that
// lets in code the page does not carry by hash, and no other origin.
const STRICT_SOURCE =
  /^(?:'none'|'self'|'wasm-unsafe-eval'|'script'|'sha(?:256|384|512)-[A-Za-z0-9+/]+={0,2}'|data:|blob:)$/;

/**
 * The policy a page carries in its own <meta http-equiv="Content-Security-Policy"> when it is built
 * to run on it alone (the single file: `default-src 'none'`, its inline script and style allowed by
 * hash, nothing from any origin), or null: then the page gets the site's policy. `head` is the start
 * of the page's text. The site's policy allows only the pages' one inline script, so the single file,
 * all inline, could not run under it; its own policy is as strict for that file.
 */
export function ownPagePolicy(head) {
  const tag = /<meta\s+http-equiv="Content-Security-Policy"\s+content="([^"]*)"\s*\/?>/i.exec(head);
  if (!tag) return null;
  const policy = tag[1]
    .replace(/&lt;/g, '<')
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&');
  const directives = policy.split(';').map((directive) => directive.trim().split(/\s+/));
  const strict = directives.every(
    ([name, ...sources]) => /^[a-z-]+$/.test(name) && sources.every((source) => STRICT_SOURCE.test(source)),
  );
  const named = new Map(directives.map(([name, ...sources]) => [name, sources]));
  if (!strict || named.get('default-src')?.join(' ') !== "'none'") return null;
  return policy;
}

/** The name the policy's report-to directive and the Reporting-Endpoints header give the report address. */
export const REPORT_ENDPOINT = 'csp-endpoint';

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

// Precompressed variants, most preferred first at equal weight.
const VARIANTS = [
  { coding: 'br', suffix: '.br', decoder: createBrotliDecompress },
  { coding: 'gzip', suffix: '.gz', decoder: createGunzip },
];

// A file whose status last changed this recently may change again within the same clock tick without
// its times showing it, so its digest is worked out again on the next request (git's "racily clean" rule).
const RACY_MS = 2_000;
// Digests remembered, most recent last; the oldest is forgotten beyond this many.
const MAX_REMEMBERED_DIGESTS = 4096;

const REPORT_URI_RULE = 'an http(s) URL or a path starting with /, without spaces, quotes, commas or semicolons';

class HttpError extends Error {
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}

function sendText(res, status, text, extraHeaders = {}) {
  if (res.headersSent) return res.destroy();
  const kept = ['content-security-policy', 'reporting-endpoints', 'x-content-type-options', 'connection'];
  for (const name of res.getHeaderNames()) if (!kept.includes(name)) res.removeHeader(name);
  const body = Buffer.from(`${text}\n`);
  res.writeHead(status, {
    'Content-Type': 'text/plain; charset=utf-8',
    'Content-Length': body.length,
    'Cache-Control': 'no-store',
    ...extraHeaders,
  });
  res.end(body);
}

/**
 * The report address for the policy's report-uri and report-to (`name` is how the caller spelled the
 * option), or an Error naming the option and the rule: the value goes into two headers as it is, so
 * nothing in it may end a directive (;), a list (,) or a quoted string.
 */
export function checkedReportUri(value, name = 'cspReportUri') {
  const printable = typeof value === 'string' && /^[\x21-\x7e]+$/.test(value) && !/[;,"'\\]/.test(value);
  let shaped = printable && value.startsWith('/') && !value.startsWith('//');
  if (printable && !shaped) {
    try {
      shaped = ['http:', 'https:'].includes(new URL(value).protocol) && /^https?:\/\//i.test(value);
    } catch {
      shaped = false;
    }
  }
  if (!shaped) throw new Error(`${name} must be ${REPORT_URI_RULE}, got ${JSON.stringify(value)}`);
  return value;
}

/**
 * The policy with, when `reportUri` is given, violation reports sent there (report-uri and report-to).
 * `pagePolicy` (a page's own, see ownPagePolicy) replaces the site's, framed from anywhere as the site is.
 */
export function contentSecurityPolicy({ reportUri, pagePolicy } = {}) {
  const policy = pagePolicy ? `${pagePolicy}; frame-ancestors *` : CONTENT_SECURITY_POLICY;
  if (!reportUri) return policy;
  return `${policy}; report-uri ${reportUri}; report-to ${REPORT_ENDPOINT}`;
}

// How much of an HTML page is read for its own policy: the meta tag sits at the top of <head>.
const POLICY_HEAD_BYTES = 4096;

// RFC 9110 §12.4.2: a weight is 0 to 1 with at most three decimals.
const QVALUE = /^(?:0(?:\.\d{0,3})?|1(?:\.0{0,3})?)$/;

/**
 * The weight (q) a client gives each content coding; codings it does not name get the weight of `*`,
 * or 0. An element whose q is not a valid weight (q=abc, q=-1, q=1.5) is left out, as if not sent.
 */
function acceptedCodings(header) {
  const weights = new Map();
  for (const part of String(header ?? '').split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    if (!name) continue;
    let q = 1;
    for (const param of params) {
      const [key, ...rest] = param.split('=');
      if (key.trim() !== 'q') continue;
      const value = rest.join('=').trim();
      q = QVALUE.test(value) ? Number(value) : NaN;
    }
    if (!Number.isNaN(q)) weights.set(name.trim(), q);
  }
  return (coding) => weights.get(coding) ?? weights.get('*') ?? 0;
}

// Errors from the file system mapped to what the client is told.
function fileError(error) {
  if (['ENOENT', 'ENOTDIR', 'ENAMETOOLONG', 'ELOOP'].includes(error.code)) return new HttpError(404, 'Not found');
  if (error.code === 'EACCES' || error.code === 'EPERM')
    return new HttpError(403, 'Forbidden: the file cannot be read');
  return new HttpError(500, `Internal error reading the file (${error.code ?? 'unknown'})`);
}

const inside = (root, path) => path === root || path.startsWith(root + sep);
const hasDotSegment = (root, path) =>
  relative(root, path)
    .split(sep)
    .some((segment) => segment.startsWith('.'));

// Where the kernel says an open descriptor's file lives (Linux): the link /proc/self/fd/N names the
// file the descriptor holds, however the path that opened it changes afterwards.
const FD_PATHS = process.platform === 'linux' && fs.existsSync('/proc/self/fd');

/**
 * The real path of the file `handle` holds. On Linux the descriptor's own path, which no change of
 * links after the open can alter; elsewhere realpath(`path`) checked against the descriptor by lstat
 * (which does not follow a last link), so a path that was a link to another file at the open, or
 * became one since, does not match.
 */
async function openedPath(handle, path, info) {
  if (FD_PATHS) {
    const named = await readlink(`/proc/self/fd/${handle.fd}`);
    // A file removed after the open (no links left) is named "<path> (deleted)": it can no longer
    // be told where it was, so the path is opened again.
    if (info.nlink === 0n) return null;
    return named;
  }
  const real = await realpath(path);
  const named = await lstat(real, { bigint: true });
  return named.isFile() && named.dev === info.dev && named.ino === info.ino ? real : null;
}

/**
 * Opens `path` once and returns { handle, path, stat } for the regular file it names, or throws an
 * HttpError. The descriptor is what gets served: after opening, the place of the file it holds (see
 * openedPath) must be inside `root`, so a symbolic link or folder changed between the check and the
 * read cannot lead outside. Opening is non-blocking (a FIFO answers 404 at once). With `index`, a
 * directory stands for its index.html.
 */
async function openFile(root, path, { dotfiles, index = true }) {
  for (let attempt = 0; ; attempt += 1) {
    let handle;
    try {
      handle = await open(path, constants.O_RDONLY | constants.O_NONBLOCK);
      let info = await handle.stat({ bigint: true });
      if (info.isDirectory() && index) {
        await handle.close();
        handle = undefined;
        return await openFile(root, join(path, 'index.html'), { dotfiles, index: false });
      }
      if (!info.isFile()) throw new HttpError(404, 'Not found');
      const real = await openedPath(handle, path, info);
      if (real === null) {
        // The path moved to another file while it was opened: look again, a few times at most.
        await handle.close();
        handle = undefined;
        if (attempt < 2) continue;
        throw new HttpError(403, 'Forbidden: the file changed while it was opened');
      }
      if (!inside(root, real)) throw new HttpError(403, 'Forbidden');
      if (!dotfiles && hasDotSegment(root, real)) throw new HttpError(404, 'Not found');
      info = {
        dev: info.dev,
        ino: info.ino,
        size: Number(info.size),
        mtimeNs: info.mtimeNs,
        ctimeNs: info.ctimeNs,
      };
      return { handle, path, stat: info };
    } catch (error) {
      await handle?.close();
      throw error instanceof HttpError ? error : fileError(error);
    }
  }
}

/** The path a request-target names inside `root`, or an HttpError saying why there is none. */
function requestedPath(root, target, dotfiles) {
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
  if (!inside(root, candidate)) throw new HttpError(403, 'Forbidden');
  if (!dotfiles && hasDotSegment(root, candidate)) throw new HttpError(404, 'Not found');
  return candidate;
}

/** The bytes of an open file from its start, a chunk at a time (reads by position: the handle is shared). */
async function* chunksOf(handle) {
  for (let position = 0; ;) {
    const buffer = Buffer.allocUnsafe(64 * 1024);
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, position);
    if (bytesRead === 0) return;
    position += bytesRead;
    yield buffer.subarray(0, bytesRead);
  }
}

/**
 * SHA-256 (hex) of what an open file holds, or, for a compressed copy (`decoder`), of what it decodes
 * to; a copy that decodes to more than `limit` bytes is refused without decoding the rest.
 */
async function contentDigest(handle, decoder, limit) {
  const hash = createHash('sha256');
  if (!decoder) {
    for await (const chunk of chunksOf(handle)) hash.update(chunk);
    return hash.digest('hex');
  }
  let decoded = 0;
  await pipeline(Readable.from(chunksOf(handle)), decoder(), async (source) => {
    for await (const chunk of source) {
      decoded += chunk.length;
      if (decoded > limit) throw new Error('the copy decodes to more bytes than its file');
      hash.update(chunk);
    }
  });
  return hash.digest('hex');
}

/**
 * Content digests of files, remembered by what identifies a file's bytes without reading them: its
 * device, inode, size, modification time and status-change time. The status-change time moves on
 * every write and every change of times (utimes, cp -p, tar x, rsync -t set only the modification
 * time), and no program can set it back, so a remembered digest is used only for the bytes it was
 * worked out from.
 */
class DigestCache {
  #known = new Map();

  /** The digest of `file` (decoded with `variant.decoder` when given, at most `limit` bytes). */
  of({ handle, stat: info }, variant = null, limit = Infinity) {
    const key = `${info.dev}:${info.ino}:${info.size}:${info.mtimeNs}:${info.ctimeNs}:${variant?.coding ?? ''}`;
    let digest = this.#known.get(key);
    if (digest) return digest;
    const started = Date.now();
    digest = contentDigest(handle, variant?.decoder, limit);
    this.#known.set(key, digest);
    if (this.#known.size > MAX_REMEMBERED_DIGESTS) this.#known.delete(this.#known.keys().next().value);
    digest.then(
      () => {
        if (started - Number(info.ctimeNs / 1_000_000n) < RACY_MS) this.#known.delete(key);
      },
      () => this.#known.delete(key),
    );
    return digest;
  }
}

/**
 * The best precompressed copy of `file` the client accepts, opened: a regular file inside the root
 * that decodes to exactly the file's bytes (`digest`). Returns { handle, path, stat, coding } or null.
 */
async function chooseVariant(root, file, digest, acceptEncoding, { dotfiles, digests }) {
  if (!COMPRESSIBLE_EXTENSIONS.includes(extname(file.path).toLowerCase())) return null;
  const weight = acceptedCodings(acceptEncoding);
  const wanted = VARIANTS.filter(({ coding }) => weight(coding) > 0).sort(
    (a, b) => weight(b.coding) - weight(a.coding),
  );
  for (const variant of wanted) {
    let copy;
    try {
      copy = await openFile(root, file.path + variant.suffix, { dotfiles, index: false });
    } catch {
      continue; // no usable copy in this coding: try the next one
    }
    try {
      if ((await digests.of(copy, variant, file.stat.size)) === digest) return { ...copy, coding: variant.coding };
    } catch {
      // The copy does not decode (or decodes to more than the file): it is not this file's copy.
    }
    await copy.handle.close();
  }
  return null;
}

/**
 * The byte range a Range header asks of a file of `size` bytes (RFC 9110 §14): { start, end }, the
 * string 'unsatisfiable' (answered 416), or undefined for the whole file (a header that is absent,
 * malformed, or asks for several ranges, which this server does not send). Positions are digits
 * only; one beyond the safe integers is past the end of any file.
 */
function byteRange(header, size) {
  if (header === undefined || size === 0) return undefined;
  const match = /^bytes=(\d*)-(\d*)$/i.exec(String(header).trim());
  if (!match || (match[1] === '' && match[2] === '')) return undefined;
  const number = (digits) => {
    const value = Number(digits);
    return Number.isSafeInteger(value) ? value : Infinity;
  };
  if (match[1] === '') {
    const suffix = number(match[2]);
    if (suffix === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = number(match[1]);
  const last = match[2] === '' ? Infinity : number(match[2]);
  if (last < start) return undefined; // not a range (9-2): the header is ignored
  if (start >= size) return 'unsatisfiable';
  return { start, end: Math.min(last, size - 1) };
}

/** Whether an If-None-Match header matches `etag` (weak comparison, RFC 9110 §13.1.2); * matches any file. */
function noneMatch(header, etag) {
  if (header === undefined) return false;
  const value = String(header).trim();
  if (value === '*') return true;
  const opaque = (tag) => tag.trim().replace(/^W\//, '');
  return value.split(',').some((tag) => opaque(tag) === opaque(etag));
}

function handler(root, { dotfiles, reportUri }) {
  const policy = contentSecurityPolicy({ reportUri });
  const digests = new DigestCache();

  async function respond(req, res) {
    const file = await openFile(root, requestedPath(root, req.url, dotfiles), { dotfiles });
    let variant = null;
    let streaming = false;
    try {
      const digest = await digests.of(file);
      variant = await chooseVariant(root, file, digest, req.headers['accept-encoding'], { dotfiles, digests });
      const sent = variant ?? file;
      if (extname(file.path).toLowerCase() === '.html') {
        const head = Buffer.alloc(Math.min(POLICY_HEAD_BYTES, file.stat.size));
        const { bytesRead } = await file.handle.read(head, 0, head.length, 0);
        const pagePolicy = ownPagePolicy(head.subarray(0, bytesRead).toString('utf8'));
        if (pagePolicy) res.setHeader('Content-Security-Policy', contentSecurityPolicy({ reportUri, pagePolicy }));
      }
      // The ETag names the bytes: the file's digest, and the coding of the copy sent.
      const etag = `"${digest.slice(0, 32)}${variant ? `-${variant.coding}` : ''}"`;
      res.setHeader('Content-Type', MIME_TYPES[extname(file.path).toLowerCase()] ?? 'application/octet-stream');
      res.setHeader('Cache-Control', 'no-cache');
      res.setHeader('Vary', 'Accept-Encoding');
      res.setHeader('ETag', etag);
      if (variant) res.setHeader('Content-Encoding', variant.coding);
      else res.setHeader('Accept-Ranges', 'bytes');
      if (noneMatch(req.headers['if-none-match'], etag)) {
        res.writeHead(304);
        res.end();
        return;
      }
      const size = sent.stat.size;
      // A copy is always sent whole; If-Range asks for the range only of the version it names.
      const ifRange = req.headers['if-range'];
      const range =
        variant || (ifRange !== undefined && ifRange !== etag) ? undefined : byteRange(req.headers.range, size);
      if (range === 'unsatisfiable') {
        res.removeHeader('Content-Type');
        res.writeHead(416, { 'Content-Range': `bytes */${size}`, 'Content-Length': 0 });
        res.end();
        return;
      }
      const { start, end } = range ?? { start: 0, end: size - 1 };
      if (range) res.setHeader('Content-Range', `bytes ${start}-${end}/${size}`);
      res.setHeader('Content-Length', end - start + 1);
      res.writeHead(range ? 206 : 200);
      if (req.method === 'HEAD' || end < start) {
        res.end();
        return;
      }
      streaming = true;
      const body = fs.createReadStream(null, { fd: sent.handle, start, end, autoClose: true });
      // A read that fails after the headers are out (a disk error, a file cut short) ends this
      // response; a client that leaves early ends it too, without a message.
      pipeline(body, res).catch((error) => {
        sent.handle.close().catch(() => {});
        if (error.code === 'ERR_STREAM_PREMATURE_CLOSE') return;
        console.error(`serve: reading ${sent.path} failed: ${error.message}`);
        res.destroy();
      });
    } finally {
      if (!streaming || variant) await file.handle.close();
      if (variant && !streaming) await variant.handle.close();
    }
  }

  return (req, res) => {
    res.setHeader('Content-Security-Policy', policy);
    if (reportUri) res.setHeader('Reporting-Endpoints', `${REPORT_ENDPOINT}="${reportUri}"`);
    res.setHeader('X-Content-Type-Options', 'nosniff');
    // GET and HEAD carry no body: a client that sends one (or trickles one) is answered and the
    // connection closed, rather than kept open while Node reads and discards the body.
    const hasBody = (req.headers['content-length'] ?? '0') !== '0' || req.headers['transfer-encoding'] !== undefined;
    if (hasBody) res.setHeader('Connection', 'close');
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      return sendText(res, 405, 'Method not allowed', { Allow: 'GET, HEAD', Connection: 'close' });
    }
    respond(req, res).catch((error) => {
      if (!(error instanceof HttpError))
        console.error(`serve: ${req.method} ${JSON.stringify(req.url)}: ${error.message}`);
      sendText(res, error.status ?? 500, error instanceof HttpError ? error.message : 'Internal error');
    });
  };
}

function checkedRoot(root) {
  if (typeof root !== 'string' || root === '') {
    throw new Error(`--root must name a directory, got ${root === '' ? 'an empty string' : String(root)}`);
  }
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
 * Keeps at most `max` connections open without letting idle ones lock clients out: when a new
 * connection would go over, the connection idle longest (one that has sent nothing, part of a
 * request's headers, or nothing since its last response) is closed to make room; only when every
 * other connection is busy with a request is the new one refused.
 */
function shareConnections(server, max) {
  const idleSince = new Map(); // socket → when it last became idle; oldest first
  let open = 0;
  const idle = (socket) => {
    idleSince.delete(socket);
    if (!socket.destroyed) idleSince.set(socket, Date.now());
  };
  server.on('connection', (socket) => {
    open += 1;
    socket.once('close', () => {
      open -= 1;
      idleSince.delete(socket);
    });
    idle(socket);
    if (open <= max) return;
    const [oldest] = [...idleSince.keys()].filter((other) => other !== socket);
    (oldest ?? socket).destroy();
  });
  server.on('request', (req, res) => {
    idleSince.delete(req.socket);
    res.once('finish', () => idle(req.socket));
  });
  // Node's own cap, one above: room for the newcomer while an idle connection is closed for it.
  server.maxConnections = max + 1;
}

/**
 * Serves `root` on 127.0.0.1:`port` (0 picks a free port). Resolves to { url, port, server,
 * maxConnections, close() }, where close() resolves once the server has stopped; rejects with a
 * one-line Error when `root` is empty or not a directory, `cspReportUri` is not a report address,
 * or the port cannot be bound. Files and folders whose names start with a dot are served only with
 * `dotfiles: true`; `cspReportUri` adds report-uri and report-to to the policy. The limits (see
 * SERVER_LIMITS) may be overridden, e.g. shortened for tests.
 */
export async function startServer({ root, port = 8000, dotfiles = false, cspReportUri, ...overrides }) {
  const limits = { ...SERVER_LIMITS, ...overrides };
  const absoluteRoot = checkedRoot(root);
  const reportUri = cspReportUri === undefined ? undefined : checkedReportUri(cspReportUri);
  const server = createServer(
    {
      headersTimeout: limits.headersTimeout,
      requestTimeout: limits.requestTimeout,
      keepAliveTimeout: limits.keepAliveTimeout,
      // Node checks the two timeouts above only this often (30 s by default).
      connectionsCheckingInterval: Math.max(20, Math.min(1000, Math.floor(limits.headersTimeout / 4))),
    },
    handler(absoluteRoot, { dotfiles: dotfiles === true, reportUri }),
  );
  shareConnections(server, limits.maxConnections);
  // A socket that neither sends nor reads for this long is closed (e.g. a client that stops reading a response).
  server.setTimeout(limits.socketTimeout);
  await new Promise((resolvePromise, reject) => {
    server.once('error', (error) =>
      reject(new Error(error.code === 'EADDRINUSE' ? `port ${port} is already in use` : error.message)),
    );
    server.listen(port, '127.0.0.1', resolvePromise);
  });
  server.on('error', (error) => console.error(`serve: ${error.message}`));
  const actual = server.address().port;
  return {
    url: `http://127.0.0.1:${actual}/`,
    port: actual,
    server,
    maxConnections: limits.maxConnections,
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
  const usage = 'usage: serve.mjs [--root DIR] [--port N] [--dotfiles] [--csp-report-uri URL]';
  let values;
  try {
    ({ values } = parseArgs({
      options: {
        root: { type: 'string', default: 'dist' },
        port: { type: 'string', default: '8000' },
        dotfiles: { type: 'boolean', default: false },
        'csp-report-uri': { type: 'string' },
      },
    }));
  } catch (error) {
    fail(`${error.message} (${usage})`);
  }
  const port = Number(values.port);
  if (!/^\d+$/.test(values.port) || port > 65535) fail(`--port must be an integer from 0 to 65535, got ${values.port}`);
  const reportUri = values['csp-report-uri'];
  if (reportUri !== undefined) {
    try {
      checkedReportUri(reportUri, '--csp-report-uri');
    } catch (error) {
      fail(error.message);
    }
  }
  startServer({ root: values.root, port, dotfiles: values.dotfiles, cspReportUri: reportUri }).then(
    ({ url }) => console.log(`Serving the lesson at ${url}`),
    (error) => fail(error.message),
  );
}
