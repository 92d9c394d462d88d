#!/usr/bin/env node
// Lighthouse on the served lesson (a benchmark, not a test): desktop and mobile presets, the four
// category scores, the key metrics and every audit that kept a category below 100, written to
// tests/bench/results/lighthouse.json. Uses Debian's Chromium (CHROME_PATH, default /usr/bin/chromium).
//   node tests/bench/lighthouse.mjs [--dist dist] [--runs 3] [--out tests/bench/results/lighthouse.json]
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadavg } from 'node:os';
import lighthouse from 'lighthouse';
import desktopConfig from 'lighthouse/core/config/desktop-config.js';
import * as chromeLauncher from 'chrome-launcher';
import { startServer } from '../../web/site-builder/serve.mjs';
import { LAUNCH } from '../browser/helpers.mjs';
import { measuringOptions, median } from './measuring.mjs';

const options = measuringOptions('lighthouse.json', { runs: { default: 3, least: 1 } });
const { runs } = options;

const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'];
const DIAGNOSTICS = ['dom-size', 'bootup-time', 'mainthread-work-breakdown', 'long-tasks'];
const METRICS = [
  'first-contentful-paint',
  'largest-contentful-paint',
  'total-blocking-time',
  'cumulative-layout-shift',
  'speed-index',
  'interactive',
  'server-response-time',
];
// The browser suites' Chromium and flags; chrome-launcher starts it headed unless told otherwise.
const CHROME_FLAGS = ['--headless=new', ...LAUNCH.args];
const PRESETS = { desktop: desktopConfig, mobile: undefined }; // undefined: Lighthouse's default (mobile) config

/** The audits that cost a category points: weight > 0 and score < 1 (or a failing binary audit). */
function shortfalls(lhr, category) {
  return lhr.categories[category].auditRefs
    .filter((ref) => ref.weight > 0)
    .map((ref) => lhr.audits[ref.id])
    .filter((a) => a.score !== null && a.score < 1)
    .map((a) => ({ id: a.id, score: a.score, displayValue: a.displayValue ?? null }));
}

const server = await startServer({ root: options.dist, port: 0 });
const chrome = await chromeLauncher.launch({ chromePath: LAUNCH.executablePath, chromeFlags: CHROME_FLAGS });
const results = {};
try {
  for (const [preset, config] of Object.entries(PRESETS)) {
    const samples = [];
    for (let i = 0; i < runs; i++) {
      const { lhr } = await lighthouse(
        server.url,
        { port: chrome.port, output: 'json', logLevel: 'error', onlyCategories: CATEGORIES },
        config,
      );
      if (lhr.runtimeError) throw new Error(`${preset}: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
      samples.push(lhr);
    }
    const scores = Object.fromEntries(
      CATEGORIES.map((c) => [c, median(samples.map((l) => Math.round(l.categories[c].score * 100)))]),
    );
    const metrics = Object.fromEntries(
      METRICS.map((m) => [
        m,
        {
          median: median(samples.map((l) => l.audits[m]?.numericValue ?? NaN)),
          unit: samples[0].audits[m]?.numericUnit ?? null,
        },
      ]),
    );
    const below = {};
    for (const c of CATEGORIES) {
      const seen = new Map();
      for (const l of samples) for (const s of shortfalls(l, c)) seen.set(s.id, s);
      if (seen.size) below[c] = [...seen.values()];
    }
    results[preset] = {
      scores,
      perRun: samples.map((l) =>
        Object.fromEntries(CATEGORIES.map((c) => [c, Math.round(l.categories[c].score * 100)])),
      ),
      metrics,
      shortfalls: below,
      // Diagnostics that carry no weight in a score but that Lighthouse flags (a failing dom-size).
      diagnostics: Object.fromEntries(
        DIAGNOSTICS.map((d) => [
          d,
          {
            median: median(samples.map((l) => l.audits[d]?.numericValue ?? NaN)),
            passed: samples.every((l) => (l.audits[d]?.score ?? 1) >= 0.9),
          },
        ]),
      ),
      lighthouseVersion: samples[0].lighthouseVersion,
    };
    console.log(
      `${preset}: ${CATEGORIES.map((c) => `${c} ${scores[c]}`).join(', ')}; LCP ${Math.round(metrics['largest-contentful-paint'].median)} ms, TBT ${Math.round(metrics['total-blocking-time'].median)} ms`,
    );
    for (const [c, list] of Object.entries(below))
      console.log(
        `  ${c} below 100: ${list.map((s) => `${s.id}${s.displayValue ? ` (${s.displayValue})` : ''}`).join(', ')}`,
      );
  }
} finally {
  await chrome.kill();
  await server.close();
}

const out = {
  measuredAt: new Date().toISOString(),
  runs,
  chrome: LAUNCH.executablePath,
  // The machine's 1-minute load average when the runs ended: above its 2 cores, the times are inflated.
  loadAverage: Math.round(loadavg()[0] * 10) / 10,
  note: "Served from 127.0.0.1 by web/site-builder/serve.mjs on a shared 2-core machine; scores are medians of the runs. Mobile uses Lighthouse's simulated slow-4G/4x-CPU throttling, desktop its desktop preset.",
  ...results,
};
mkdirSync(join(options.out, '..'), { recursive: true });
writeFileSync(options.out, `${JSON.stringify(out, null, 2)}\n`);
console.log(`written to ${options.out}`);
