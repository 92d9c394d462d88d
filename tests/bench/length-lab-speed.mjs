// How long the length lab's default run takes in WebAssembly: milliseconds per training step (from the
// progress callback's timestamps) and the whole run with its evaluation, per scheme on the lookup task at the
// page's default size; in Node (dist/engine.mjs), and in Chromium with its CPU slowed 4× (CDP
// Emulation.setCPUThrottlingRate, the phone stand-in of phone-interaction.mjs), on the lesson's page's main
// thread. The page's budget: one default run in under 10 s on such a phone. Writes
// tests/bench/results/length-lab-speed.json.
//
//   node tests/bench/length-lab-speed.mjs [--runs 3] [--phone-runs 1] [--dist DIR] [--out FILE]
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

import { loadAverages, measuringOptions, median, writeReport } from './measuring.mjs';

import { serveAndLaunch } from './browse.mjs';

const options = measuringOptions('length-lab-speed.json', {
  runs: { default: 3, least: 1 },
  'phone-runs': { default: 1, least: 0 },
});
const { default: createEngine } = await import(pathToFileURL(join(options.dist, 'engine.mjs')).href);
const engine = await createEngine({
  wasmBinary: readFileSync(join(options.dist, 'engine.wasm')),
  lengthLabWasmBinary: readFileSync(join(options.dist, 'engine-lab.wasm')),
});
await engine.loadLengthLab(); // the lab is a module of its own (engine-lab.wasm)

const loadStart = loadAverages();
const schemes = ['none', 'learned', 'sinusoidal', 'rope', 'alibi'];
const results = {};
engine.trainLengthLab({ steps: 20 }); // warm the module's code and memory
for (const scheme of schemes) {
  const perStep = [];
  const totals = [];
  const evaluations = [];
  for (let run = 0; run < options.runs; run += 1) {
    const stamps = [];
    const started = performance.now();
    const result = engine.trainLengthLab({ scheme }, () => {
      stamps.push(performance.now());
    });
    const ended = performance.now();
    const steps = stamps.map((t, i) => t - (i === 0 ? started : stamps[i - 1]));
    perStep.push(median(steps));
    totals.push(ended - started);
    evaluations.push(ended - stamps[stamps.length - 1]);
    results[scheme] = { work: result.work, parameterCount: result.parameterCount };
  }
  Object.assign(results[scheme], {
    msPerStep: Number(median(perStep).toFixed(2)),
    evaluationMs: Math.round(median(evaluations)),
    totalMs: Math.round(median(totals)),
    fastestTotalMs: Math.round(Math.min(...totals)),
  });
  console.log(scheme, results[scheme]);
}

// The same runs in Chromium, CPU slowed 4×, after the lesson's page has loaded and settled.
const phone = {};
if (options['phone-runs'] > 0) {
  const site = await serveAndLaunch(options.dist);
  try {
    const context = await site.browser.newContext({ viewport: { width: 360, height: 740 }, deviceScaleFactor: 2 });
    const page = await context.newPage();
    await page.goto(site.server.url);
    await page.waitForFunction(() => !document.documentElement.classList.contains('is-loading'), null, {
      timeout: 60000,
    });
    await page.waitForTimeout(2000);
    await page.evaluate(async () => {
      const { default: createEngine } = await import(new URL('engine.mjs', document.baseURI).href);
      window.labEngine = await createEngine();
      await window.labEngine.loadLengthLab();
      window.labEngine.trainLengthLab({ steps: 20 });
    });
    const cdp = await context.newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
    for (const scheme of schemes) {
      const totals = [];
      const perStep = [];
      for (let run = 0; run < options['phone-runs']; run += 1) {
        const timing = await page.evaluate((name) => {
          const stamps = [];
          const started = performance.now();
          window.labEngine.trainLengthLab({ scheme: name }, () => {
            stamps.push(performance.now());
          });
          const steps = stamps.map((t, i) => t - (i === 0 ? started : stamps[i - 1])).sort((a, b) => a - b);
          return { total: performance.now() - started, step: steps[steps.length >> 1] };
        }, scheme);
        totals.push(timing.total);
        perStep.push(timing.step);
      }
      phone[scheme] = { msPerStep: Number(median(perStep).toFixed(2)), totalMs: Math.round(median(totals)) };
      console.log('phone (4× throttled)', scheme, phone[scheme]);
    }
    await context.close();
  } finally {
    await site.close();
  }
}
writeReport(
  options.out,
  {
    about:
      "The length lab's default run (trainLengthLab({ scheme }), lookup task, 300 steps, then 8 evaluation lengths) in WebAssembly: under Node, the median over runs of the median step time, the evaluation and the whole call (and the fastest call); in Chromium with its CPU slowed 4× (the page's phone budget: under 10 s), on the page's main thread.",
    command: 'node tests/bench/length-lab-speed.mjs',
    loadStart,
  },
  {
    runs: options.runs,
    defaults: 'layers 2, dModel 32, heads 4, mlpWidth 64, batch 8, trainLength 16, steps 300, evalSequences 8',
    schemes: results,
    chromiumThrottled4x: { runs: options['phone-runs'], schemes: phone },
  },
);
