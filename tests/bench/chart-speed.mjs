// Benchmark (not a test): recompute + redraw time of the sinusoidal heatmap while a slider is
// dragged, in headless Chromium, and WASM heap use over 10,000 slider moves. The chart does a
// frame's work at the next animation frame; chart.flush() runs it at once, so each move is timed
// from the input event to the finished redraw (a chart without flush() works synchronously). Writes
// tests/bench/results/chart-speed.json. Targets: p95 ≤ 8 ms at 1,024 × 128, ≤ 16 ms at 4,096 × 512.
//   node tests/bench/chart-speed.mjs [--dist dist]
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { serveAndLaunch } from './browse.mjs';

const { values } = parseArgs({ options: { dist: { type: 'string' } } });
const repo = new URL('../../', import.meta.url).pathname;
const dist = resolve(values.dist ?? process.env.POSITIONAL_DIST ?? join(repo, 'dist'));
const { server, browser, close } = await serveAndLaunch(dist);
const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
await page.goto(`${server.url}?charts=eager`);
await page.waitForFunction(() => window.positionalCharts?.mounted.has('sinusoidal-heatmap'), null, { timeout: 30000 });

// Drags the n slider back and forth around `n` (each move a different n: a full recompute) at
// width d; times each move's work (input event, engine call, ImageData paint, canvas draw).
const measure = (n, d, moves) =>
  page.evaluate(
    ([n0, d0, count]) => {
      const slot = document.querySelector('[data-chart="sinusoidal-heatmap"]');
      const chart = window.positionalCharts.mounted.get('sinusoidal-heatmap');
      chart.update({ n: n0, d: d0, base: 10000 });
      const slider = slot.querySelector('[data-control="n-slider"]');
      const times = [];
      for (let i = 0; i < count; i++) {
        slider.value = String(n0 - (i % 16));
        const t0 = performance.now();
        slider.dispatchEvent(new Event('input', { bubbles: true }));
        chart.flush?.();
        times.push(performance.now() - t0);
      }
      const engineTimes = [];
      for (let i = 0; i < Math.min(count, 60); i++) {
        const t0 = performance.now();
        window.positionalLesson.engine.sinusoidalEncoding(n0 - (i % 16), d0, 10000);
        engineTimes.push(performance.now() - t0);
      }
      // The engine call the chart now makes: only the displayed rows (absent in older builds).
      const shown = chart.values?.positions;
      const sampledTimes = [];
      if (shown && window.positionalLesson.engine.sinusoidalEncodingRows) {
        for (let i = 0; i < Math.min(count, 60); i++) {
          const t0 = performance.now();
          window.positionalLesson.engine.sinusoidalEncodingRows(shown, d0, 10000);
          sampledTimes.push(performance.now() - t0);
        }
      }
      const sorted = (xs) => xs.sort((a, b) => a - b);
      const q = (xs, p) => xs[Math.min(xs.length - 1, Math.floor(p * xs.length))];
      sorted(times);
      sorted(engineTimes);
      sorted(sampledTimes);
      return {
        moves: count,
        median_ms: q(times, 0.5),
        p95_ms: q(times, 0.95),
        max_ms: times[times.length - 1],
        full_table_engine_call_median_ms: q(engineTimes, 0.5),
        full_table_engine_call_p95_ms: q(engineTimes, 0.95),
        ...(shown
          ? {
              displayed_rows: shown.length,
              displayed_rows_engine_call_median_ms: q(sampledTimes, 0.5),
              displayed_rows_engine_call_p95_ms: q(sampledTimes, 0.95),
            }
          : {}),
      };
    },
    [n, d, moves],
  );

const small = await measure(1024, 128, 300);
const large = await measure(4096, 512, 120);
const heap = await page.evaluate(() => {
  const engine = window.positionalLesson.engine;
  const slider = document.querySelector('[data-chart="sinusoidal-heatmap"] [data-control="n-slider"]');
  const chart = window.positionalCharts.mounted.get('sinusoidal-heatmap');
  chart.update({ n: 256, d: 64 });
  const before = engine.heapBytes();
  for (let i = 0; i < 10000; i++) {
    slider.value = String(200 + (i % 56));
    slider.dispatchEvent(new Event('input', { bubbles: true }));
    chart.flush?.();
  }
  const after = engine.heapBytes();
  return {
    moves: 10000,
    in_use_before: before.inUse,
    in_use_after: after.inUse,
    heap_size_before: before.heapSize,
    heap_size_after: after.heapSize,
  };
});
await close();

const result = {
  what: 'sinusoidal heatmap: synchronous recompute + redraw per slider input event, headless Chromium',
  measured_at: new Date().toISOString(),
  heatmap_1024x128: { ...small, target_p95_ms: 8 },
  heatmap_4096x512: { ...large, target_p95_ms: 16 },
  heap_over_slider_moves: heap,
  note: 'Shared 2-core machine: compare medians and ratios within one run, not absolute times across runs.',
};
const outDir = join(repo, 'tests/bench/results');
mkdirSync(outDir, { recursive: true });
writeFileSync(join(outDir, 'chart-speed.json'), `${JSON.stringify(result, null, 2)}\n`);
console.log(JSON.stringify(result, null, 2));
