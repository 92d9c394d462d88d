#!/usr/bin/env node
// The page's budgets, measured (a benchmark, not a test): time from navigation to every live
// number filled (median of N cold loads) and the bytes fetched before first interaction, gzip-
// compressed as a static host would send them, fonts included. Writes tests/bench/results/page-budget.json.
//   node tests/bench/page-budget.mjs [--dist dist] [--loads 15]
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { join } from 'node:path';
import { serveAndLaunch } from './browse.mjs';
import { measuringOptions, median } from './measuring.mjs';

const options = measuringOptions('page-budget.json', { loads: { default: 15, least: 10 } });
const { loads } = options;

const TARGET_MS = 300;
const TARGET_BYTES = 400 * 1024;

const { server, browser, close } = await serveAndLaunch(options.dist);
const times = [];
let requests = [];
try {
  for (let i = 0; i < loads; i++) {
    // A fresh context per load: an empty cache, like a first visit.
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    const seen = [];
    page.on('requestfinished', (r) => seen.push(new URL(r.url()).pathname));
    await page.goto(server.url);
    await page.waitForFunction(() => document.documentElement.dataset.liveState === 'ready', null, { timeout: 20000 });
    await page.evaluate(() => document.fonts.ready);
    const filledAt = await page.evaluate(
      () => performance.getEntriesByName('positional-lesson:live-filled')[0].startTime,
    );
    times.push(filledAt);
    if (i === 0) requests = seen;
    await context.close();
  }
} finally {
  await close();
}

// Bytes before first interaction: every file the first load fetched (its path as served now), gzip -9
// as a host would serve it, and the brotli copy the lesson's own server sends (serve.mjs).
const files = [...new Set(requests)].map((path) => {
  const file = join(options.dist, path.endsWith('/') ? `${path}index.html` : path);
  const bytes = readFileSync(file);
  // What web/site-builder/serve.mjs sends a browser that accepts brotli: the build's .br copy when it has one.
  const br = existsSync(`${file}.br`) ? readFileSync(`${file}.br`).length : null;
  return { path, bytes: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length, brotli: br ?? bytes.length };
});
const gzipTotal = files.reduce((s, f) => s + f.gzip, 0);
const result = {
  measuredAt: new Date().toISOString(),
  loads,
  liveNumbersFilledMs: {
    median: Math.round(median(times) * 10) / 10,
    min: Math.round(Math.min(...times) * 10) / 10,
    max: Math.round(Math.max(...times) * 10) / 10,
    targetMs: TARGET_MS,
  },
  bytesBeforeInteraction: {
    gzip: gzipTotal,
    raw: files.reduce((s, f) => s + f.bytes, 0),
    brotliAsServed: files.reduce((s, f) => s + f.brotli, 0),
    targetGzip: TARGET_BYTES,
    fonts: files.filter((f) => f.path.endsWith('.woff2')).reduce((s, f) => s + f.gzip, 0),
    files: files.sort((a, b) => b.gzip - a.gzip),
  },
  note: 'Served from 127.0.0.1 on a shared 2-core machine: times are medians of cold loads and vary between runs.',
};
mkdirSync(join(options.out, '..'), { recursive: true });
writeFileSync(options.out, `${JSON.stringify(result, null, 2)}\n`);
console.log(
  `live numbers filled: median ${result.liveNumbersFilledMs.median} ms over ${loads} cold loads (target ≤ ${TARGET_MS} ms)`,
);
console.log(
  `bytes before first interaction: ${(gzipTotal / 1024).toFixed(1)} KiB gzip, ${files.length} files (target ≤ ${TARGET_BYTES / 1024} KiB)`,
);
console.log(`written to ${options.out}`);
