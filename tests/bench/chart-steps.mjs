// Benchmark (not a test): the main-thread time of one chart step on a throttled phone, for two builds
// of the site measured in the same run, interleaved, against a bare page that redraws one 300 × 200
// canvas. Chromium at 360 × 780 (2× pixels), the CPU slowed 4× (CDP Emulation.setCPUThrottlingRate)
// once the page has loaded. A step is one key press on a chart's control or handle, or on a number in
// the prose that a figure follows (real keyboard input); its cost is the renderer's main-thread task
// time (CDP Performance.getMetrics TaskDuration) from just before the press to two animation frames
// after it, so the input, the chart's work, the page writes, style, layout and paint are all in it.
// The URL write (400 ms after the last change) is left out: each step waits 500 ms before the next
// one is measured.
// Writes p50 / p95 per step and build, and each one's ratio to the bare page's p50 of the same round,
// to tests/bench/results/chart-steps.json.
//   node tests/bench/chart-steps.mjs [--dist dist] [--baseline OLD_DIST] [--rounds 3] [--steps 16] [--out FILE]
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { cpus, loadavg } from 'node:os';
import { chromium } from 'playwright-core';
import { LAUNCH } from '../browser/helpers.mjs';
import { startServer } from '../../web/site-builder/serve.mjs';
import { measuringOptions, median } from './measuring.mjs';

const options = measuringOptions(
  'chart-steps.json',
  { rounds: { default: 3, least: 1 }, steps: { default: 16, least: 2 } },
  { baseline: undefined },
);

const THROTTLE = 4;
const PHONE = { width: 360, height: 780 };

/**
 * The steps: a chart, the control or handle focused, and the two keys pressed in turn. A prose step
 * names a section instead (`#id`): a number in its text, which the section's figure follows.
 */
const step = (chart, what, target, keys) => ({ name: `${chart}: ${what}`, chart, target, keys });
const handle = (key) => `[role="slider"][data-handle="${key}"]`;
const UP_DOWN = ['ArrowDown', 'ArrowUp'];
const RIGHT_LEFT = ['ArrowRight', 'ArrowLeft'];
const STEPS = [
  step('sinusoidal-heatmap', 'position handle', handle('position'), UP_DOWN),
  step('sinusoidal-heatmap', 'n slider', '[data-control="n-slider"]', RIGHT_LEFT),
  step('attention-weights', 'scheme', '[data-control="scheme"]', UP_DOWN),
  step('context-extension', 'target handle', handle('target'), RIGHT_LEFT),
  step('rope-relative', 'key handle', handle('delta'), RIGHT_LEFT),
  step('#rope', 'the key position in the prose', '[data-param="rope.key"]', RIGHT_LEFT),
  step('#extending-context', 'the target length in the prose', '[data-param="extension.target"]', RIGHT_LEFT),
];

const quantile = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(p * s.length))];
};
const round = (x) => Math.round(x * 10) / 10;
const twoFrames = () => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));

async function taskTime(cdp) {
  const { metrics } = await cdp.send('Performance.getMetrics');
  return metrics.find((m) => m.name === 'TaskDuration').value * 1000;
}

/** Presses `keys` in turn `steps` times on the focused element; returns each step's main-thread ms. */
async function timeSteps(page, cdp, keys, steps) {
  const times = [];
  for (let i = 0; i < steps; i++) {
    const before = await taskTime(cdp);
    await page.keyboard.press(keys[i % keys.length]);
    await page.evaluate(twoFrames);
    times.push((await taskTime(cdp)) - before);
    await page.waitForTimeout(500);
  }
  return times;
}

async function openPhone(browser) {
  const context = await browser.newContext({ viewport: PHONE, deviceScaleFactor: 2, isMobile: true });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Performance.enable');
  return { context, page, cdp };
}

/** Every step of STEPS on one build (served at `url`): { step name → [ms] }. */
async function measureBuild(browser, url, steps) {
  const { context, page, cdp } = await openPhone(browser);
  await page.goto(`${url}?charts=eager`);
  await page.waitForFunction(() => window.positionalCharts?.mounted.size > 0, null, { timeout: 60000 });
  await page.evaluate(() => window.positionalCharts.mountAll());
  await page.waitForTimeout(2000); // the mounts' work and the first URL writes are over before the first step
  const out = {};
  for (const step of STEPS) {
    const prose = step.chart.startsWith('#');
    const slot = page.locator(prose ? step.chart : `[data-chart="${step.chart}"]`);
    await slot.scrollIntoViewIfNeeded();
    if (!prose)
      await page.waitForFunction((id) => window.positionalCharts?.mounted.has(id), step.chart, { timeout: 30000 });
    const target = slot.locator(step.target).first();
    await target.scrollIntoViewIfNeeded();
    await target.focus();
    await page.waitForTimeout(500);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: THROTTLE });
    // Two steps unmeasured first: the first draw of a layer that stays (see drawCached) is not a step's cost.
    await timeSteps(page, cdp, step.keys, 2);
    out[step.name] = await timeSteps(page, cdp, step.keys, steps);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });
  }
  await context.close();
  return out;
}

/** The floor: a page with a slider whose input redraws one 300 × 200 CSS px canvas (600 × 400 device px). */
async function measureBare(browser, steps) {
  const { context, page, cdp } = await openPhone(browser);
  await page.setContent(`<!doctype html><meta name="viewport" content="width=device-width">
    <input type="range" min="0" max="100" value="50"><canvas width="600" height="400" style="width:300px"></canvas>`);
  await page.evaluate(() => {
    const range = document.querySelector('input');
    const ctx = document.querySelector('canvas').getContext('2d');
    range.addEventListener('input', () =>
      requestAnimationFrame(() => {
        ctx.fillStyle = `hsl(${Number(range.value) * 3} 60% 50%)`;
        ctx.fillRect(0, 0, ctx.canvas.width, ctx.canvas.height);
      }),
    );
  });
  await page.focus('input');
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: THROTTLE });
  await timeSteps(page, cdp, ['ArrowRight', 'ArrowLeft'], 2);
  const times = await timeSteps(page, cdp, ['ArrowRight', 'ArrowLeft'], steps);
  await context.close();
  return times;
}

const builds = [{ name: 'new', dist: resolve(options.dist) }];
if (options.baseline) builds.unshift({ name: 'old', dist: resolve(options.baseline) });
const servers = await Promise.all(builds.map((b) => startServer({ root: b.dist, port: 0 })));
const browser = await chromium.launch(LAUNCH);
try {
  const samples = Object.fromEntries(builds.map((b) => [b.name, Object.fromEntries(STEPS.map((s) => [s.name, []]))]));
  const bare = [];
  const ratios = Object.fromEntries(builds.map((b) => [b.name, Object.fromEntries(STEPS.map((s) => [s.name, []]))]));
  const perRound = []; // each round's medians: the bare page's and every step's per build
  for (let r = 0; r < options.rounds; r++) {
    // Interleaved: the builds' order alternates from round to round, the bare page between them.
    const order = r % 2 ? [...builds.keys()].reverse() : [...builds.keys()];
    const roundBare = [];
    const roundTimes = {};
    for (const [k, i] of order.entries()) {
      roundTimes[builds[i].name] = await measureBuild(browser, servers[i].url, options.steps);
      if (k === 0) roundBare.push(...(await measureBare(browser, options.steps)));
    }
    bare.push(...roundBare);
    const floor = median(roundBare);
    for (const b of builds) {
      for (const s of STEPS) {
        samples[b.name][s.name].push(...roundTimes[b.name][s.name]);
        ratios[b.name][s.name].push(median(roundTimes[b.name][s.name]) / floor);
      }
    }
    perRound.push({
      bare_p50_ms: round(floor),
      ...Object.fromEntries(
        builds.map((b) => [
          b.name,
          Object.fromEntries(STEPS.map((s) => [s.name, round(median(roundTimes[b.name][s.name]))])),
        ]),
      ),
    });
    console.log(`round ${r + 1}: ${JSON.stringify(perRound.at(-1))}`);
  }
  const summary = (xs) => ({ p50_ms: round(quantile(xs, 0.5)), p95_ms: round(quantile(xs, 0.95)), steps: xs.length });
  const result = {
    what: 'Main-thread time of one chart step (a key press on a control or handle, to two frames after it), Chromium at 360 × 780 with 2× pixels, CPU throttled 4× (CDP), CDP Performance TaskDuration; two builds interleaved in one run; ratio: a step p50 over the bare page p50 of the same round (median over rounds).',
    when: new Date().toISOString(),
    browser: browser.version(),
    machine: { cores: cpus().length, load_average_1min_at_end: round(loadavg()[0]) },
    builds: Object.fromEntries(builds.map((b) => [b.name, b.dist])),
    rounds: options.rounds,
    bare_canvas_300x200: summary(bare),
    steps: Object.fromEntries(
      STEPS.map((s) => [
        s.name,
        Object.fromEntries(
          builds.map((b) => [
            b.name,
            {
              ...summary(samples[b.name][s.name]),
              over_bare_p50: Math.round(median(ratios[b.name][s.name]) * 100) / 100,
            },
          ]),
        ),
      ]),
    ),
    per_round_p50_ms: perRound,
    note: 'Shared 2-core machine: compare medians and ratios within this run, not absolute times across runs.',
  };
  if (builds.length === 2) {
    for (const s of STEPS) {
      const { old: before, new: after } = result.steps[s.name];
      result.steps[s.name].new_over_old_p50 = Math.round((after.p50_ms / before.p50_ms) * 100) / 100;
    }
  }
  mkdirSync(dirname(options.out), { recursive: true });
  writeFileSync(options.out, `${JSON.stringify(result, null, 2)}\n`);
  console.log(JSON.stringify(result.steps, null, 2));
} finally {
  await browser.close();
  await Promise.all(servers.map((s) => s.close()));
}
