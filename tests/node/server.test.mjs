// Fault suite for web/site-builder/serve.mjs: malformed request-targets, traversal, unreadable files, slow
// clients, compression choices, load and memory; after every fault the server must still serve index.html.
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import fs, {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { request, Agent } from 'node:http';
import { syncBuiltinESMExports } from 'node:module';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { after, before, describe, test } from 'node:test';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { seededGenerator } from '../../web/js/lms/record.js';
import { writePrecompressed } from '../../web/site-builder/build-site.mjs';
import { CONTENT_SECURITY_POLICY, SERVER_LIMITS, startServer } from '../../web/site-builder/serve.mjs';
import { distDir as dist } from './engine-loader.mjs';

const SERVE = new URL('../../web/site-builder/serve.mjs', import.meta.url).pathname;
// Requests the server must refuse, shared as a corpus: tests/fixtures/hostile-requests.json says what each list holds.
const HOSTILE_REQUESTS = JSON.parse(
  readFileSync(new URL('../fixtures/hostile-requests.json', import.meta.url), 'utf8'),
);

// Short limits so the slow-client cases finish in a second or two each; the defaults are checked
// apart. Not shorter: with 400 ms, a well-formed request on a loaded 2-core machine was once cut off
// with 408 before its headers were read.
const TEST_LIMITS = { headersTimeout: 1000, requestTimeout: 2000, keepAliveTimeout: 600, socketTimeout: 3000 };
// A client that is not answered or cut off within this long counts as a hang.
const HANG_MS = 5000;

const INDEX = `<!doctype html><title>fixture</title><p>${'positional information '.repeat(200)}</p>\n`;
const SECRET = 'the secret outside the root\n';
let requestsTried = 0;

// The site under test: text, wasm and binary files with their .br/.gz copies, and every kind of
// file that must not be served: outside the root, behind symbolic links, a FIFO, a broken link.
const base = mkdtempSync(join(tmpdir(), 'serve-test-'));
chmodSync(base, 0o755);
const root = join(base, 'root');
const files = {
  '/index.html': INDEX,
  '/app.mjs': `export const answer = 42;\n${'// padding so compression pays\n'.repeat(40)}`,
  '/style.css': `body { color: black; }\n${'p { margin: 0; }\n'.repeat(60)}`,
  '/data.json': JSON.stringify({ values: Array.from({ length: 200 }, (_, i) => i) }),
  '/engine.wasm': Buffer.concat([Buffer.from([0, 0x61, 0x73, 0x6d, 1, 0, 0, 0]), Buffer.alloc(4000, 7)]),
  '/picture.png': Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex'),
  '/notes.unknownext': 'plain bytes\n',
  '/sub/index.html': '<!doctype html><title>sub</title>\n',
  '/with space.txt': 'a file name with a space\n',
  '/percent%41.txt': 'a file name with a percent sign\n',
};
for (const [path, body] of Object.entries(files)) {
  mkdirSync(join(root, path, '..'), { recursive: true });
  writeFileSync(join(root, path), body);
}
mkdirSync(join(base, 'outside'));
writeFileSync(join(base, 'outside', 'secret.txt'), SECRET);
writeFileSync(join(base, 'secret.txt'), SECRET);
mkdirSync(join(base, 'root-sibling'));
writeFileSync(join(base, 'root-sibling', 'secret.txt'), SECRET);
symlinkSync(join(base, 'outside', 'secret.txt'), join(root, 'escape-link.txt'));
symlinkSync(join(base, 'outside'), join(root, 'escape-dir'));
symlinkSync(join(base, 'does-not-exist.txt'), join(root, 'broken-link.txt'));
execFileSync('mkfifo', [join(root, 'pipe.txt')]);
mkdirSync(join(root, 'folder.js'));
// Dotfiles: never served unless the server is asked to (startServer({ dotfiles: true })).
writeFileSync(join(root, '.env'), SECRET);
mkdirSync(join(root, '.git'));
writeFileSync(join(root, '.git', 'config'), SECRET);
writeFileSync(join(root, 'sub', '.hidden.txt'), SECRET);
symlinkSync('.env', join(root, 'dot-link.txt'));
writeFileSync(join(root, 'unreadable.txt'), 'nobody may read this\n'.repeat(50));
writePrecompressed(root);
chmodSync(join(root, 'unreadable.txt'), 0o000);

let server;
before(async () => {
  server = await startServer({ root, port: 0, ...TEST_LIMITS });
});
after(async () => {
  await server?.close();
  rmSync(base, { recursive: true, force: true });
});

/** One HTTP request through node:http; resolves to { status, headers, body (Buffer) }. */
function get(path, { method = 'GET', headers = {}, agent, port = server.port } = {}) {
  requestsTried += 1;
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, method, headers, agent }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.setTimeout(HANG_MS, () => req.destroy(new Error(`${method} ${path}: no answer within ${HANG_MS} ms`)));
    req.on('error', reject);
    req.end();
  });
}

/**
 * Writes `parts` to a raw socket (strings, or numbers meaning "wait this many ms") and reads until the
 * server closes. Resolves to { text, status, ms } where ms is the time from connecting to the close.
 */
function raw(parts, { port = server.port } = {}) {
  requestsTried += 1;
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const socket = connect(port, '127.0.0.1');
    const chunks = [];
    let closed = false;
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`the server neither answered nor closed within ${HANG_MS} ms`));
    }, HANG_MS);
    socket.on('data', (c) => chunks.push(c));
    socket.on('error', () => {}); // a reset after the server gives up on a slow client is expected
    socket.on('close', () => {
      closed = true;
      clearTimeout(timer);
      const text = Buffer.concat(chunks).toString('latin1');
      const status = /^HTTP\/1\.1 (\d{3})/.exec(text)?.[1];
      resolve({ text, status: status ? Number(status) : null, ms: Date.now() - started });
    });
    socket.on('connect', async () => {
      for (const part of parts) {
        if (closed) return;
        if (typeof part === 'number') await new Promise((r) => setTimeout(r, part));
        else socket.write(part);
      }
    });
  });
}

const requestLine = (target, method = 'GET') =>
  `${method} ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`;
const bodyOf = (text) => text.slice(text.indexOf('\r\n\r\n') + 4);

/** raw() parts that send `piece` a hundred times, 50 ms apart: a client trickling its request. */
const trickled = (piece) => Array.from({ length: 100 }, () => [piece, 50]).flat();

/**
 * Sends a request's `head`, then a body that never ends (`piece` trickled); the server must close the
 * connection long before the request timeout. Resolves to raw()'s answer.
 */
async function sendUnendingBody(head, piece) {
  const res = await raw([head, ...trickled(piece)]);
  assert.ok(res.ms < TEST_LIMITS.requestTimeout, `closed after ${res.ms} ms`);
  return res;
}

async function assertStillServing() {
  const res = await get('/index.html');
  assert.equal(res.status, 200);
  assert.equal(res.body.toString(), INDEX);
}

describe('headers and content types', () => {
  test('every file is sent with the CSP, nosniff, no-cache and its content type', async () => {
    const expected = {
      '/': 'text/html; charset=utf-8',
      '/index.html': 'text/html; charset=utf-8',
      '/app.mjs': 'text/javascript; charset=utf-8',
      '/style.css': 'text/css; charset=utf-8',
      '/data.json': 'application/json; charset=utf-8',
      '/engine.wasm': 'application/wasm',
      '/picture.png': 'image/png',
      '/notes.unknownext': 'application/octet-stream',
      '/sub/': 'text/html; charset=utf-8',
      '/with%20space.txt': 'text/plain; charset=utf-8',
      '/percent%2541.txt': 'text/plain; charset=utf-8',
    };
    for (const [path, type] of Object.entries(expected)) {
      const res = await get(path);
      assert.equal(res.status, 200, path);
      assert.equal(res.headers['content-type'], type, path);
      assert.equal(res.headers['content-security-policy'], CONTENT_SECURITY_POLICY, path);
      assert.equal(res.headers['x-content-type-options'], 'nosniff', path);
      assert.equal(res.headers['cache-control'], 'no-cache', path);
      assert.equal(res.headers['content-encoding'], undefined, path);
      const file = path.endsWith('/') ? `${path}index.html` : decodeURIComponent(path);
      assert.deepEqual(res.body, Buffer.from(files[file]), path);
    }
  });

  test("an HTML page with its own strict policy gets it as its header; one with a lax policy gets the site's", async () => {
    const strict =
      "default-src 'none'; script-src 'sha256-AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=' 'wasm-unsafe-eval'; img-src data: blob:";
    const pages = {
      'own-policy.html': [strict, `${strict}; frame-ancestors *`],
      'lax-inline.html': ["default-src 'none'; script-src 'unsafe-inline'", CONTENT_SECURITY_POLICY],
      'lax-origin.html': ["default-src 'none'; script-src https://example.org", CONTENT_SECURITY_POLICY],
      'lax-default.html': ["default-src 'self'; script-src 'sha256-AAAA'", CONTENT_SECURITY_POLICY],
    };
    for (const [name, [meta, expected]] of Object.entries(pages)) {
      writeFileSync(
        join(root, name),
        `<!doctype html><meta charset="utf-8"><meta http-equiv="Content-Security-Policy" content="${meta}"><p>x</p>\n`,
      );
      const res = await get(`/${name}`);
      assert.equal(res.status, 200, name);
      assert.equal(res.headers['content-security-policy'], expected, name);
    }
  });

  test('HEAD sends the headers of GET and no body', async () => {
    const res = await get('/engine.wasm', { method: 'HEAD' });
    assert.equal(res.status, 200);
    assert.equal(res.headers['content-type'], 'application/wasm');
    assert.equal(Number(res.headers['content-length']), files['/engine.wasm'].length);
    assert.equal(res.body.length, 0);
  });

  test('errors carry the CSP and a one-line plain-text message', async () => {
    const res = await get('/missing.html');
    assert.equal(res.status, 404);
    assert.equal(res.headers['content-security-policy'], CONTENT_SECURITY_POLICY);
    assert.equal(res.headers['content-type'], 'text/plain; charset=utf-8');
    assert.match(res.body.toString(), /^[^\n]+\n$/);
  });

  test('a valid ETag gets 304 Not Modified', async () => {
    const first = await get('/style.css');
    const again = await get('/style.css', { headers: { 'If-None-Match': first.headers.etag } });
    assert.equal(again.status, 304);
  });

  test('byte ranges: one range is honoured, malformed ones get the whole file, past the end gets 416', async () => {
    const body = Buffer.from(files['/index.html']);
    const size = body.length;
    const huge = '9'.repeat(400);
    const cases = [
      ['bytes=0-9', 206, body.subarray(0, 10)],
      ['bytes=10-', 206, body.subarray(10)],
      ['bytes=-20', 206, body.subarray(size - 20)],
      ['bytes=0-0', 206, body.subarray(0, 1)],
      ['bytes=0001-0002', 206, body.subarray(1, 3)],
      [`bytes=0-${huge}`, 206, body],
      [`bytes=-${huge}`, 206, body],
      ['bytes=9-2', 200, body],
      ['bytes=abc', 200, body],
      ['bytes=1e3-', 200, body],
      ['bytes=0x10-', 200, body],
      ['bytes=+5-', 200, body],
      ['bytes=1.5-', 200, body],
      ['bytes=1-2,5-6', 200, body],
      ['items=0-9', 200, body],
      [`bytes=${size + 10}-`, 416, Buffer.alloc(0)],
      // String(1e21) is "1e+21": a start read through it became byte 1.
      ['bytes=1000000000000000000000-', 416, Buffer.alloc(0)],
      [`bytes=${huge}-`, 416, Buffer.alloc(0)],
      [`bytes=${huge}-${huge}`, 416, Buffer.alloc(0)],
      ['bytes=-0', 416, Buffer.alloc(0)],
    ];
    for (const [range, status, expected] of cases) {
      const res = await get('/index.html', { headers: { Range: range } });
      assert.equal(res.status, status, range);
      assert.deepEqual(res.body, expected, range);
      if (status === 206) {
        const start = body.indexOf(expected);
        assert.equal(res.headers['content-range'], `bytes ${start}-${start + expected.length - 1}/${size}`, range);
      }
      if (status === 416) assert.equal(res.headers['content-range'], `bytes */${size}`, range);
    }
    await assertStillServing();
  });

  test('If-Range: a range of the current file only, otherwise the whole file', async () => {
    const body = Buffer.from(files['/index.html']);
    const { etag } = (await get('/index.html')).headers;
    const same = await get('/index.html', { headers: { Range: 'bytes=0-9', 'If-Range': etag } });
    assert.equal(same.status, 206);
    assert.deepEqual(same.body, body.subarray(0, 10));
    for (const validator of ['"another-version"', `W/${etag}`, new Date().toUTCString()]) {
      const other = await get('/index.html', { headers: { Range: 'bytes=0-9', 'If-Range': validator } });
      assert.equal(other.status, 200, validator);
      assert.deepEqual(other.body, body, validator);
    }
  });

  test('If-None-Match: *, a list and a weak form of the ETag all get 304', async () => {
    const { etag } = (await get('/style.css')).headers;
    for (const header of ['*', `"nope", ${etag}`, `W/${etag}`]) {
      const res = await get('/style.css', { headers: { 'If-None-Match': header } });
      assert.equal(res.status, 304, header);
      assert.equal(res.body.length, 0, header);
      assert.equal(res.headers.etag, etag, header);
    }
    const other = await get('/style.css', { headers: { 'If-None-Match': '"nope"' } });
    assert.equal(other.status, 200);
    // A missing file has no current representation: * does not match it.
    assert.equal((await get('/missing.css', { headers: { 'If-None-Match': '*' } })).status, 404);
  });
});

describe('random conditional, range and coding headers', () => {
  test('3,000 requests with random Range, If-Range, If-None-Match and Accept-Encoding: every answer is right', async (t) => {
    const next = seededGenerator(12); // every run sends the same headers
    const pick = (list) => list[Math.floor(next() * list.length)];
    const paths = ['/index.html', '/app.mjs', '/engine.wasm', '/data.json', '/picture.png', '/style.css'];
    const etags = {};
    for (const path of paths) etags[path] = (await get(path)).headers.etag;
    const number = () =>
      pick([
        '0',
        '1',
        '9',
        '10',
        '4000',
        '4095',
        '99999',
        '9'.repeat(17),
        '9'.repeat(400),
        '1e3',
        '-1',
        '0x10',
        ' 5',
        '',
      ]);
    const ranges = () =>
      pick([
        () => `bytes=${number()}-${number()}`,
        () => `bytes=-${number()}`,
        () => `bytes=${number()}-`,
        () => `bytes=${number()}-${number()},${number()}-${number()}`,
        () => pick(['bytes=', 'bytes=-', 'bits=0-1', 'bytes 0-1', '', 'bytes=0-1;x', 'BYTES=0-9']),
      ])();
    const codings = () =>
      Array.from({ length: Math.floor(next() * 3) }, () => {
        const q = pick(['', ';q=0', ';q=1', ';q=0.5', ';q=abc', ';q=-1', ';q=1.5', ';q=', ';q=0.001', ';Q=0.2']);
        return pick(['br', 'gzip', '*', 'identity', 'x-gzip', 'deflate', 'BR']) + q;
      }).join(', ');
    const decode = { br: brotliDecompressSync, gzip: gunzipSync };
    const failures = [];
    let count = 0;
    for (let i = 0; i < 3000; i += 1) {
      const path = pick(paths);
      const body = Buffer.from(files[path]);
      const headers = {};
      if (next() < 0.7) headers.Range = ranges();
      if (next() < 0.2)
        headers['If-Range'] = pick([etags[path], '"other"', `W/${etags[path]}`, 'Tue, 01 Jan 2030 00:00:00 GMT']);
      if (next() < 0.2)
        headers['If-None-Match'] = pick([etags[path], '*', '"other"', `"other", ${etags[path]}`, `W/${etags[path]}`]);
      if (next() < 0.7) headers['Accept-Encoding'] = codings();
      const method = next() < 0.1 ? 'HEAD' : 'GET';
      const res = await get(path, { headers, method });
      count += 1;
      const where = `${method} ${path} ${JSON.stringify(headers)} → ${res.status}`;
      const coding = res.headers['content-encoding'];
      if (res.status === 304) {
        if (!headers['If-None-Match'] || res.body.length) failures.push(where);
        continue;
      }
      if (method === 'HEAD') {
        if (res.body.length || ![200, 206, 416].includes(res.status)) failures.push(where);
        continue;
      }
      if (res.status === 200) {
        const sent = coding ? decode[coding](res.body) : res.body;
        if (!sent.equals(body)) failures.push(`${where}: wrong bytes`);
      } else if (res.status === 206) {
        const match = /^bytes (\d+)-(\d+)\/(\d+)$/.exec(res.headers['content-range'] ?? '');
        if (coding || !match || Number(match[3]) !== body.length)
          failures.push(`${where}: ${res.headers['content-range']}`);
        else if (!res.body.equals(body.subarray(Number(match[1]), Number(match[2]) + 1)))
          failures.push(`${where}: wrong bytes`);
      } else if (res.status === 416) {
        if (res.headers['content-range'] !== `bytes */${body.length}` || res.body.length) failures.push(where);
      } else failures.push(where);
    }
    t.diagnostic(`${count} requests with random headers, ${failures.length} wrong answers`);
    assert.deepEqual(failures.slice(0, 10), []);
    await assertStillServing();
  });
});

describe('malformed request-targets', () => {
  // The first seven once killed the process (the URL parser threw outside any try); the rest are
  // paths that are not valid percent-encoded UTF-8 (overlong forms of "." and "/" among them).
  const targets = HOSTILE_REQUESTS.malformedTargets;
  for (const target of targets) {
    test(`${JSON.stringify(target)} gets 400 and a one-line message`, async () => {
      const res = await raw([requestLine(target)]);
      assert.equal(res.status, 400, res.text);
      assert.match(bodyOf(res.text), /^Bad request: [^\n]+\n$/);
      await assertStillServing();
    });
  }

  test('a request line Node cannot parse gets 400 from Node itself', async () => {
    const res = await raw(['GET /a b c HTTP/1.1\r\nHost: x\r\n\r\n']);
    assert.equal(res.status, 400);
    await assertStillServing();
  });
});

describe('traversal', () => {
  // 45 ways out of the root (dot segments, percent- and double-encoded, overlong UTF-8, backslashes,
  // symbolic links, a sibling directory sharing the root's name as prefix): each 403 or 404.
  const paths = HOSTILE_REQUESTS.traversalPaths;
  test(`${paths.length} paths out of the root get 403 or 404, never the file`, async () => {
    assert.equal(new Set(paths).size, 45);
    for (const path of paths) {
      const res = await raw([requestLine(path)]);
      assert.ok(res.status === 403 || res.status === 404, `${path}: ${res.status}`);
      assert.ok(!res.text.includes('secret outside') && !res.text.includes('root:'), `${path} leaked a file`);
      await assertStillServing();
    }
  });
});

describe('files that cannot be served', () => {
  test('a FIFO, a broken link and a directory without index.html get 404 at once', async () => {
    for (const path of ['/pipe.txt', '/broken-link.txt', '/folder.js', '/folder.js/']) {
      const res = await get(path);
      assert.equal(res.status, 404, path);
      assert.equal(res.body.toString(), 'Not found\n');
      await assertStillServing();
    }
  });

  test('a file without read permission gets 403 (server run as an unprivileged user when tests run as root)', async () => {
    // Root reads any file, so as root the server is started as uid/gid 65534 (nobody), for whom the
    // file's mode 000 means EACCES, exactly as for a hosting user.
    const asNobody = process.getuid?.() === 0 ? { uid: 65534, gid: 65534 } : {};
    const child = spawn(process.execPath, [SERVE, '--root', root, '--port', '0'], {
      ...asNobody,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      const port = await listeningPort(child);
      const res = await get('/unreadable.txt', { port });
      assert.equal(res.status, 403);
      assert.equal(res.body.toString(), 'Forbidden: the file cannot be read\n');
      // Its precompressed copies are readable, but the file itself decides.
      assert.ok(existsSync(join(root, 'unreadable.txt.gz')) && existsSync(join(root, 'unreadable.txt.br')));
      const compressed = await get('/unreadable.txt', { port, headers: { 'Accept-Encoding': 'gzip, br' } });
      assert.equal(compressed.status, 403);
      const index = await get('/index.html', { port });
      assert.equal(index.status, 200);
      assert.equal(index.body.toString(), INDEX);
      assert.equal(child.exitCode, null, 'the server is still running');
    } finally {
      child.kill();
    }
  });

  test('a read that fails after the headers are sent ends that response only', async () => {
    // Stands in for a disk error or a file removed mid-response: every read stream fails at once.
    const original = fs.createReadStream;
    fs.createReadStream = () =>
      new Readable({
        read() {
          this.destroy(Object.assign(new Error('EIO: i/o error, read'), { code: 'EIO' }));
        },
      });
    syncBuiltinESMExports();
    const errors = [];
    const consoleError = console.error;
    console.error = (line) => errors.push(line);
    try {
      await assert.rejects(get('/app.mjs'), /socket hang up|aborted|ECONNRESET/);
    } finally {
      fs.createReadStream = original;
      syncBuiltinESMExports();
      console.error = consoleError;
    }
    assert.equal(errors.length, 1);
    assert.match(errors[0], /^serve: reading .*app\.mjs failed: EIO/);
    await assertStillServing();
  });
});

describe('dotfiles', () => {
  test('files and folders whose name starts with a dot get 404, however the path is spelled', async () => {
    for (const path of HOSTILE_REQUESTS.dotfilePaths) {
      const res = await raw([requestLine(path)]);
      assert.equal(res.status, 404, `${path}: ${res.status}`);
      assert.ok(!res.text.includes('secret outside'), `${path} leaked a dotfile`);
    }
    await assertStillServing();
  });

  test('startServer({ dotfiles: true }) serves them', async () => {
    const open = await startServer({ root, port: 0, dotfiles: true });
    try {
      const res = await get('/.env', { port: open.port });
      assert.equal(res.status, 200);
      assert.equal(res.body.toString(), SECRET);
    } finally {
      await open.close();
    }
  });
});

describe('symbolic links', () => {
  test('a link flipped between a file inside and one outside the root never serves the outside file', async (t) => {
    // Another process swaps the link's target as fast as it can while 3,000 requests read it; a
    // server that checks the path and then opens it again serves the outside file now and then.
    const link = join(root, 'flip.txt');
    const inside = join(root, 'flip-inside.txt');
    writeFileSync(inside, 'the file inside the root\n');
    symlinkSync(inside, link);
    const flipper = spawn(
      process.execPath,
      [
        '-e',
        `const fs = require('node:fs');
         const [link, a, b] = process.argv.slice(1);
         for (let i = 0; ; i += 1) {
           try { fs.symlinkSync(i % 2 ? b : a, link + '.next'); fs.renameSync(link + '.next', link); } catch {}
         }`,
        link,
        inside,
        join(base, 'outside', 'secret.txt'),
      ],
      { stdio: 'ignore' },
    );
    const seen = { 200: 0, other: 0 };
    const leaks = [];
    try {
      let next = 0;
      const worker = async () => {
        while (next < 3000) {
          next += 1;
          const res = await get('/flip.txt');
          const body = res.body.toString();
          if (body.includes('secret outside')) leaks.push(res.status);
          else if (res.status === 200) {
            assert.equal(body, 'the file inside the root\n');
            seen[200] += 1;
          } else {
            assert.ok([403, 404].includes(res.status), `status ${res.status}`);
            seen.other += 1;
          }
        }
      };
      await Promise.all(Array.from({ length: 10 }, worker));
    } finally {
      flipper.kill();
    }
    t.diagnostic(
      `${seen[200]} served the inside file, ${seen.other} refused (403 or 404), ${leaks.length} the outside file`,
    );
    assert.deepEqual(leaks, [], `${leaks.length} of 3,000 requests served the outside file`);
    assert.equal(seen[200] + seen.other, 3000);
    await assertStillServing();
  });

  test('a file and a folder swapped for links out of the root and back, 10,000 requests in all: no outside byte', async (t) => {
    // Another process renames a link to an outside file over a regular file and a regular file back
    // over the link, and swaps a folder for a link to an outside folder and back, as fast as it can.
    // A check that follows links after the open (stat of the path, realpath resolved a moment earlier)
    // sees the inside file while the descriptor holds the outside one now and then.
    const file = join(root, 'swap.txt');
    const folder = join(root, 'swapdir');
    const outsideFolder = join(base, 'outside-folder');
    const insideText = 'the file inside the root\n';
    writeFileSync(file, insideText);
    mkdirSync(folder);
    writeFileSync(join(folder, 'page.txt'), insideText);
    mkdirSync(outsideFolder);
    writeFileSync(join(outsideFolder, 'page.txt'), SECRET);
    const swapper = spawn(
      process.execPath,
      [
        '-e',
        `const fs = require('node:fs');
         const [file, folder, secret, outsideFolder, text] = process.argv.slice(1);
         const quiet = (step) => { try { step(); } catch {} };
         for (;;) {
           quiet(() => { fs.symlinkSync(secret, file + '.link'); fs.renameSync(file + '.link', file); });
           quiet(() => { fs.writeFileSync(file + '.file', text); fs.renameSync(file + '.file', file); });
           quiet(() => fs.renameSync(folder, folder + '.real'));
           quiet(() => { fs.symlinkSync(outsideFolder, folder + '.link'); fs.renameSync(folder + '.link', folder); });
           quiet(() => fs.unlinkSync(folder));
           quiet(() => fs.renameSync(folder + '.real', folder));
         }`,
        file,
        folder,
        join(base, 'outside', 'secret.txt'),
        outsideFolder,
        insideText,
      ],
      { stdio: 'ignore' },
    );
    const perTarget = 5_000;
    const targets = ['/swap.txt', '/swapdir/page.txt'];
    const seen = Object.fromEntries(targets.map((target) => [target, { inside: 0, refused: 0, outside: 0 }]));
    const started = Date.now();
    try {
      const agent = new Agent({ keepAlive: true, maxSockets: 8 });
      let next = 0;
      const worker = async () => {
        while (next < perTarget * targets.length) {
          const target = targets[next % targets.length];
          next += 1;
          const res = await get(target, { agent });
          const body = res.body.toString();
          if (body.includes('secret outside')) seen[target].outside += 1;
          else if (res.status === 200) {
            assert.equal(body, insideText);
            seen[target].inside += 1;
          } else {
            assert.ok([403, 404].includes(res.status), `${target}: status ${res.status}`);
            seen[target].refused += 1;
          }
        }
      };
      await Promise.all(Array.from({ length: 8 }, worker));
      agent.destroy();
    } finally {
      swapper.kill();
    }
    for (const target of targets) {
      const { inside, refused, outside } = seen[target];
      t.diagnostic(`${target}: ${inside} inside, ${refused} refused (403/404), ${outside} outside`);
    }
    t.diagnostic(`${perTarget * targets.length} requests in ${Date.now() - started} ms`);
    for (const target of targets) {
      assert.equal(
        seen[target].outside,
        0,
        `${seen[target].outside} of ${perTarget} requests for ${target} served the outside file`,
      );
      assert.equal(seen[target].inside + seen[target].refused, perTarget);
      // The swaps must have been seen (a refusal is a request that met a link or a moved file).
      assert.ok(seen[target].refused > 0, `${target} was never refused: the swaps did not run`);
    }
    // And the inside files were served: a server that refused everything would pass the rest.
    assert.ok(
      targets.some((target) => seen[target].inside > 0),
      'neither inside file was ever served',
    );
    await assertStillServing();
  });
});

describe('methods', () => {
  for (const method of ['POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'TRACE', 'PROPFIND']) {
    test(`${method} gets 405 with Allow: GET, HEAD`, async () => {
      const res = await raw([requestLine('/index.html', method)]);
      assert.equal(res.status, 405);
      assert.match(res.text, /\r\nAllow: GET, HEAD\r\n/);
      await assertStillServing();
    });
  }
});

describe('compression', () => {
  const decode = { br: brotliDecompressSync, gzip: gunzipSync, identity: (b) => b };
  const cases = [
    ['', 'identity'],
    ['gzip', 'gzip'],
    ['br', 'br'],
    ['gzip, deflate, br', 'br'],
    ['gzip;q=0', 'identity'],
    ['gzip; q=0', 'identity'],
    ['br;q=0, gzip', 'gzip'],
    ['br;q=0.5, gzip;q=0.9', 'gzip'],
    ['*', 'br'],
    ['*;q=0', 'identity'],
    ['*, br;q=0', 'gzip'],
    ['identity', 'identity'],
    ['GZIP', 'gzip'],
    ['x-gzip', 'identity'],
    // Invalid q-values (RFC 9110 §12.4.2: 0 to 1, at most three decimals) make the coding not accepted.
    ['br;q=abc, gzip', 'gzip'],
    ['br;q=-1, gzip;q=0.5', 'gzip'],
    ['br;q=, gzip', 'gzip'],
    ['br;q=1.5, gzip', 'gzip'],
    ['br;q=0.5.5, gzip', 'gzip'],
    ['br;q=0.0001, gzip', 'gzip'],
    ['gzip;q=abc', 'identity'],
  ];
  for (const [accept, coding] of cases) {
    test(`Accept-Encoding ${JSON.stringify(accept)} gets ${coding}`, async () => {
      for (const path of ['/index.html', '/app.mjs', '/engine.wasm']) {
        const res = await get(path, { headers: { 'Accept-Encoding': accept } });
        assert.equal(res.status, 200);
        assert.equal(res.headers['content-encoding'] ?? 'identity', coding, path);
        assert.equal(res.headers.vary, 'Accept-Encoding');
        assert.equal(
          res.headers['content-type'],
          path === '/engine.wasm'
            ? 'application/wasm'
            : path === '/app.mjs'
              ? 'text/javascript; charset=utf-8'
              : 'text/html; charset=utf-8',
        );
        assert.deepEqual(decode[coding](res.body), Buffer.from(files[path]), path);
      }
    });
  }

  test('a file whose bytes changed is sent as it is, whatever its time says', async () => {
    // A copy made by `cp -p`, `tar x` or `rsync -t` carries an older time than the .br/.gz it replaces.
    const path = join(root, 'stale.css');
    const before = `body { color: red; }\n${'p { margin: 1px; }\n'.repeat(60)}`;
    const after = `body { color: blue; }\n${'p { margin: 2px; }\n'.repeat(60)}`;
    writeFileSync(path, before);
    writeFileSync(`${path}.br`, brotliCompressSync(before));
    writeFileSync(`${path}.gz`, gzipSync(before));
    const earlier = new Date(Date.now() - 3_600_000);
    writeFileSync(path, after);
    utimesSync(path, earlier, earlier);
    for (const accept of ['br', 'gzip', 'br, gzip', '']) {
      const res = await get('/stale.css', { headers: { 'Accept-Encoding': accept } });
      assert.equal(res.status, 200, accept);
      assert.equal(res.headers['content-encoding'], undefined, accept);
      assert.equal(res.body.toString(), after, accept);
    }
  });

  test('a file only touched keeps its copies: they still hold its bytes', async () => {
    const path = join(root, 'style.css');
    const later = new Date(Date.now() + 60_000);
    utimesSync(path, later, later);
    const res = await get('/style.css', { headers: { 'Accept-Encoding': 'br, gzip' } });
    assert.equal(res.headers['content-encoding'], 'br');
    assert.equal(brotliDecompressSync(res.body).toString(), files['/style.css']);
  });

  test('a copy that does not decode to its file, or decodes to more, is never sent', async () => {
    const path = join(root, 'wrong-copy.js');
    const text = `export const x = 1;\n${'// more\n'.repeat(50)}`;
    writeFileSync(path, text);
    writeFileSync(`${path}.br`, Buffer.from('not brotli at all'));
    writeFileSync(`${path}.gz`, gzipSync(text + text)); // a longer text with the same start
    for (const accept of ['br', 'gzip']) {
      const res = await get('/wrong-copy.js', { headers: { 'Accept-Encoding': accept } });
      assert.equal(res.headers['content-encoding'], undefined, accept);
      assert.equal(res.body.toString(), text, accept);
    }
  });

  test('same size and time with other bytes: a new ETag, never a 304 for the old one', async () => {
    const path = join(root, 'same-size.txt');
    writeFileSync(path, 'version one of the file\n');
    const { mtime } = fs.statSync(path);
    const first = await get('/same-size.txt');
    writeFileSync(path, 'version two of the file\n');
    utimesSync(path, mtime, mtime);
    const again = await get('/same-size.txt', { headers: { 'If-None-Match': first.headers.etag } });
    assert.equal(again.status, 200);
    assert.equal(again.body.toString(), 'version two of the file\n');
    assert.notEqual(again.headers.etag, first.headers.etag);
  });

  test('images are never sent compressed', async () => {
    writeFileSync(join(root, 'picture.png.gz'), gzipSync(files['/picture.png']));
    const res = await get('/picture.png', { headers: { 'Accept-Encoding': 'gzip' } });
    assert.equal(res.headers['content-encoding'], undefined);
    assert.deepEqual(res.body, files['/picture.png']);
  });
});

describe('slow and idle clients', () => {
  test('the default limits are sane: headers within 10 s, a whole request within 15 s, 512 connections', async () => {
    assert.deepEqual(SERVER_LIMITS, {
      headersTimeout: 10_000,
      requestTimeout: 15_000,
      keepAliveTimeout: 5_000,
      socketTimeout: 30_000,
      maxConnections: 512,
    });
    const plain = await startServer({ root, port: 0 });
    try {
      assert.equal(plain.server.headersTimeout, SERVER_LIMITS.headersTimeout);
      assert.equal(plain.server.requestTimeout, SERVER_LIMITS.requestTimeout);
      assert.equal(plain.server.keepAliveTimeout, SERVER_LIMITS.keepAliveTimeout);
      assert.equal(plain.server.timeout, SERVER_LIMITS.socketTimeout);
      assert.equal(plain.maxConnections, SERVER_LIMITS.maxConnections);
    } finally {
      await plain.close();
    }
  });

  test('a client that connects and says nothing is dropped after the headers timeout', async () => {
    const res = await raw([HANG_MS]);
    assert.ok(res.ms < 3 * TEST_LIMITS.headersTimeout, `closed after ${res.ms} ms`);
    await assertStillServing();
  });

  test('headers sent one byte at a time get 408 after the headers timeout', async () => {
    const trickle = [...'GET /index.html HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: '].flatMap((ch) => [ch, 5]);
    const res = await raw([...trickle, ...trickled('a')]);
    assert.equal(res.status, 408, res.text);
    assert.ok(res.ms < 3 * TEST_LIMITS.headersTimeout + 500, `closed after ${res.ms} ms`);
    await assertStillServing();
  });

  // Bodies that never end, by length and chunked: a POST is refused, a GET answered in full; either
  // way the connection is closed at once rather than read to its end.
  const unendingBodies = [
    [
      'a POST trickling a large body gets 405 and the connection is closed at once',
      'POST',
      'Content-Length: 1000000',
      'x',
      405,
    ],
    [
      'a GET with a trickling body is answered and the connection closed at once',
      'GET',
      'Content-Length: 1000000',
      'x',
      200,
    ],
    [
      'a chunked GET body that never ends is answered and closed at once too',
      'GET',
      'Transfer-Encoding: chunked',
      '1\r\nx\r\n',
      200,
    ],
  ];
  for (const [name, method, framing, chunk, status] of unendingBodies) {
    test(name, async () => {
      const res = await sendUnendingBody(
        `${method} /index.html HTTP/1.1\r\nHost: 127.0.0.1\r\n${framing}\r\n\r\n`,
        chunk,
      );
      assert.equal(res.status, status);
      assert.match(res.text, /\r\nConnection: close\r\n/);
      if (status === 200) assert.equal(bodyOf(res.text), INDEX);
      await assertStillServing();
    });
  }

  test('connections that have not sent a whole request cannot keep a new client out', async () => {
    // Default timeouts (10 s for headers): only making room for the newcomer lets it in at once.
    const small = await startServer({ root, port: 0, maxConnections: 8 });
    const stalled = [];
    try {
      for (let i = 0; i < 8; i += 1) {
        const socket = connect(small.port, '127.0.0.1');
        socket.on('error', () => {});
        await new Promise((resolve) => socket.once('connect', resolve));
        // Half of them send part of a request's headers, half nothing at all.
        if (i % 2) socket.write('GET /index.html HTTP/1.1\r\nHost: 127.0.0.1\r\n');
        stalled.push(socket);
      }
      const count = () => new Promise((resolve) => small.server.getConnections((_, n) => resolve(n)));
      while ((await count()) < 8) await new Promise((resolve) => setTimeout(resolve, 10));
      const closedOne = Promise.race(stalled.map((socket) => new Promise((resolve) => socket.once('close', resolve))));
      const res = await get('/index.html', { port: small.port, agent: false });
      assert.equal(res.status, 200);
      assert.equal(res.body.toString(), INDEX);
      await closedOne; // the oldest stalled connection made room (within the get's HANG_MS, or the test times out)
      assert.ok((await count()) <= 8);
    } finally {
      for (const socket of stalled) socket.destroy();
      await small.close();
    }
  });

  test('an idle keep-alive connection is closed after the keep-alive timeout', async () => {
    const res = await raw(['GET /index.html HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n', HANG_MS]);
    assert.equal(res.status, 200);
    assert.ok(res.ms < 3 * TEST_LIMITS.keepAliveTimeout + 500, `closed after ${res.ms} ms`);
  });
});

describe('load and memory', () => {
  test('2,000 requests, 50 at a time, all answered correctly', async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 50 });
    const sha = (b) => createHash('sha256').update(b).digest('hex');
    const expected = [
      ['/index.html', {}, 200, sha(INDEX)],
      ['/', { 'Accept-Encoding': 'br' }, 200, sha(INDEX)],
      ['/app.mjs', { 'Accept-Encoding': 'gzip' }, 200, sha(files['/app.mjs'])],
      ['/engine.wasm', { 'Accept-Encoding': 'gzip;q=0' }, 200, sha(files['/engine.wasm'])],
      ['/data.json', {}, 200, sha(files['/data.json'])],
      ['/missing.js', {}, 404, sha('Not found\n')],
      ['/..%2fsecret.txt', {}, 403, sha('Forbidden\n')],
      ['/%zz', {}, 400, sha('Bad request: the path is not valid percent-encoding\n')],
    ];
    const decode = { br: brotliDecompressSync, gzip: gunzipSync };
    let next = 0;
    const failures = [];
    async function worker() {
      while (next < 2000) {
        const [path, headers, status, digest] = expected[next++ % expected.length];
        const res = await get(path, { headers, agent });
        const body = res.headers['content-encoding'] ? decode[res.headers['content-encoding']](res.body) : res.body;
        if (res.status !== status || sha(body) !== digest) failures.push(`${path}: ${res.status}`);
      }
    }
    await Promise.all(Array.from({ length: 50 }, worker));
    agent.destroy();
    assert.deepEqual(failures, []);
    await assertStillServing();
  });

  test('rewriting a 2 MB file 60 times serves each version and memory levels off', async (t) => {
    // RSS of a separate server process, read from /proc. The content is random base64, which gzip
    // shrinks only to about 75 %, so a cache of compressed versions (as the old server kept) would
    // add at least 30 × 1.5 MB = 45 MB between version 30 and 60. Streaming 2 MB per request lifts
    // RSS by some 40 MB until V8 and malloc settle (measured: flat from about version 30 on, to 150),
    // so growth is measured after that, with a 25 MB bound for allocator noise.
    const siteDir = join(base, 'growing');
    mkdirSync(siteDir);
    writeFileSync(join(siteDir, 'index.html'), INDEX);
    const child = spawn(process.execPath, [SERVE, '--root', siteDir, '--port', '0'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      const port = await listeningPort(child);
      const rss = () => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))[1]) / 1024;
      const big = join(siteDir, 'big.js');
      // Each version is a 32-byte header and the same 2 MB of noise; its .gz copy is the header's gzip
      // member followed by the noise's (gzip allows concatenated members), so the noise is compressed once.
      const noise = randomBytes(1536 * 1024)
        .toString('base64')
        .slice(0, 2 * 1024 * 1024 - 32);
      const noiseGzip = gzipSync(noise, { level: 1 });
      const samples = { start: rss() };
      for (let version = 0; version < 60; version += 1) {
        const header = `// version ${version}`.padEnd(31) + '\n';
        const text = header + noise;
        writeFileSync(big, text);
        // Every other version also gets its .gz copy, as a build would write it.
        if (version % 2 === 0) writeFileSync(`${big}.gz`, Buffer.concat([gzipSync(header), noiseGzip]));
        const res = await get('/big.js', { port, headers: { 'Accept-Encoding': 'gzip' } });
        assert.equal(res.status, 200);
        assert.equal(res.headers['content-encoding'], version % 2 === 0 ? 'gzip' : undefined, `version ${version}`);
        const body = res.headers['content-encoding'] === 'gzip' ? gunzipSync(res.body) : res.body;
        assert.equal(body.toString(), text, `version ${version}`);
        if (version === 29) samples.settled = rss();
      }
      samples.end = rss();
      t.diagnostic(
        `server RSS ${samples.start.toFixed(1)} MB at start, ${samples.settled.toFixed(1)} MB after 30 versions, ${samples.end.toFixed(1)} MB after 60`,
      );
      assert.ok(
        samples.end - samples.settled < 25,
        `RSS grew from ${samples.settled.toFixed(1)} to ${samples.end.toFixed(1)} MB`,
      );
    } finally {
      child.kill();
    }
  });
});

describe('violation reports', () => {
  test('a report address adds report-uri and report-to to the policy, and names the endpoint', async () => {
    for (const uri of ['https://reports.example/csp?site=lesson', '/csp-reports']) {
      const reporting = await startServer({ root, port: 0, cspReportUri: uri });
      try {
        for (const path of ['/index.html', '/missing.html']) {
          const res = await get(path, { port: reporting.port });
          assert.equal(
            res.headers['content-security-policy'],
            `${CONTENT_SECURITY_POLICY}; report-uri ${uri}; report-to csp-endpoint`,
            path,
          );
          assert.equal(res.headers['reporting-endpoints'], `csp-endpoint="${uri}"`, path);
        }
      } finally {
        await reporting.close();
      }
    }
    // Without one, neither appears.
    const res = await get('/index.html');
    assert.equal(res.headers['content-security-policy'], CONTENT_SECURITY_POLICY);
    assert.equal(res.headers['reporting-endpoints'], undefined);
  });

  test('startServer refuses a report address that is not one, naming the option and the rule', async () => {
    for (const uri of ['', 'reports', 'ftp://x.example/', 'https://x.example/\nX: y', 'https://x.example/;a']) {
      await assert.rejects(
        startServer({ root, port: 0, cspReportUri: uri }),
        /^Error: cspReportUri must be an http\(s\) URL or a path starting with \/, without spaces, quotes, commas or semicolons, got /,
        JSON.stringify(uri),
      );
    }
  });
});

describe('the command line', () => {
  /** Runs serve.mjs with `args`; resolves to { status, stderr } once it exits (or HANG_MS passes). */
  const run = (...args) => {
    requestsTried += 1;
    return new Promise((resolve) => {
      const child = spawn(process.execPath, [SERVE, ...args], {
        stdio: ['ignore', 'ignore', 'pipe'],
        timeout: HANG_MS,
      });
      let stderr = '';
      child.stderr.on('data', (c) => {
        stderr += c;
      });
      child.on('close', (status) => resolve({ status, stderr }));
    });
  };
  const oneLine = (result) => {
    assert.equal(result.status, 1, result.stderr);
    assert.match(result.stderr, /^serve: [^\n]+\n$/);
    assert.doesNotMatch(result.stderr, /\bat \S+:\d+/);
  };

  test('--root /nonexistent: one line and exit code 1', async () => {
    const result = await run('--root', join(base, 'nonexistent'), '--port', '0');
    oneLine(result);
    assert.match(result.stderr, /no such directory/);
  });

  test('--root with an empty name: one line and exit code 1, and startServer refuses it too', async () => {
    const result = await run('--root', '', '--port', '0');
    oneLine(result);
    assert.match(result.stderr, /--root must name a directory, got an empty string/);
    await assert.rejects(startServer({ root: '', port: 0 }), /root must name a directory, got an empty string/);
  });

  test('--csp-report-uri: a value that could change the policy is refused with one line', async () => {
    for (const value of HOSTILE_REQUESTS.policyBreakingReportUris) {
      const result = await run('--root', root, '--port', '0', '--csp-report-uri', value);
      oneLine(result);
      assert.match(result.stderr, /--csp-report-uri must be an http\(s\) URL or a path starting with \//, value);
    }
  });

  test('--root naming a file, a bad port, an unknown flag, a port in use: one line and exit code 1', async () => {
    const [file, word, big, flag, inUse] = await Promise.all([
      run('--root', join(root, 'index.html'), '--port', '0'),
      run('--root', root, '--port', 'eighty'),
      run('--root', root, '--port', '70000'),
      run('--root', root, '--bogus'),
      run('--root', root, '--port', String(server.port)),
    ]);
    for (const result of [file, word, big, flag, inUse]) oneLine(result);
    assert.match(file.stderr, /not a directory/);
    assert.match(word.stderr, /--port must be an integer/);
    assert.match(big.stderr, /--port must be an integer/);
    assert.match(flag.stderr, /bogus/);
    assert.match(inUse.stderr, /already in use/);
  });
});

describe('the built site', () => {
  test('dist/ is served with its precompressed copies, which decode to the files', async () => {
    const site = await startServer({ root: dist, port: 0 });
    try {
      for (const path of ['/index.html', '/engine.mjs', '/engine.wasm', '/css/site.css', '/js/main.js']) {
        const identity = await get(path, { port: site.port });
        assert.equal(identity.status, 200, path);
        assert.deepEqual(identity.body, readFileSync(join(dist, path)), path);
        for (const [coding, decode] of [
          ['br', brotliDecompressSync],
          ['gzip', gunzipSync],
        ]) {
          const res = await get(path, { port: site.port, headers: { 'Accept-Encoding': coding } });
          assert.equal(res.headers['content-encoding'], coding, `${path} (${coding})`);
          assert.deepEqual(decode(res.body), identity.body, `${path} (${coding})`);
        }
      }
      const wasm = await get('/engine.wasm', { port: site.port });
      assert.equal(wasm.headers['content-type'], 'application/wasm');
    } finally {
      await site.close();
    }
  });
});

test('summary', (t) => {
  t.diagnostic(`${requestsTried} requests and command lines tried`);
  assert.ok(requestsTried > 2000);
});

/** The port a spawned `serve.mjs --port 0` reports, or a rejection with what it printed instead. */
function listeningPort(child) {
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    const timer = setTimeout(() => reject(new Error(`the server did not start: ${err}`)), HANG_MS);
    child.stderr.on('data', (c) => {
      err += c;
    });
    child.stdout.on('data', (c) => {
      out += c;
      const match = /127\.0\.0\.1:(\d+)\//.exec(out);
      if (match) {
        clearTimeout(timer);
        resolve(Number(match[1]));
      }
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the server exited with ${code}: ${err}`));
    });
  });
}
