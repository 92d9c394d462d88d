// How the page answers the reader while the length lab trains, on the phone stand-in of
// phone-interaction.mjs (Chromium, 360 × 740, CPU slowed 4× with CDP Emulation.setCPUThrottlingRate):
// Train is pressed with the pointer at the default settings (five schemes, 300 steps), and while the
// models train the reader presses ArrowRight on the sinusoidal heatmap's n slider every 300 ms. Event
// Timing (the measure behind INP) gives each key press's duration from input to the next paint. Run
// with the lab's Workers (the page's path) and with Worker removed (the single file's path, training on
// the page's thread), and with no training at all as the baseline, in turn. Writes tests/bench/results/length-lab-phone.json.
//
//   node tests/bench/length-lab-phone.mjs [--runs 1] [--dist DIR] [--out FILE]

import { serveAndLaunch } from './browse.mjs';
import { loadAverages, measuringOptions, median, writeReport } from './measuring.mjs';

const options = measuringOptions('length-lab-phone.json', { runs: { default: 1, least: 1 } });
const loadStart = loadAverages();
// The baseline's presses: about as many as a Worker run of the default size takes on this machine.
const IDLE_PRESSES = 20;
const percentile = (values, p) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] : null;
};

async function trainWhileTyping(site, how) {
  const withWorkers = how === 'worker';
  const context = await site.browser.newContext({ viewport: { width: 360, height: 740 }, deviceScaleFactor: 2 });
  const page = await context.newPage();
  if (!withWorkers) await page.addInitScript(() => delete window.Worker);
  await page.addInitScript(() => {
    window.__events = [];
    new PerformanceObserver((list) => {
      for (const e of list.getEntries())
        window.__events.push({ name: e.name, duration: e.duration, start: e.startTime });
    }).observe({ type: 'event', durationThreshold: 16, buffered: true });
  });
  await page.goto(`${site.server.url}?charts=eager`);
  await page.waitForFunction(() => !document.documentElement.classList.contains('is-loading'), null, {
    timeout: 60000,
  });
  await page.waitForFunction(() => window.positionalCharts?.mounted.get('length-lab'), null, { timeout: 60000 });
  await page.waitForTimeout(1500);
  const cdp = await context.newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
  const train = page.locator('[data-chart-root="length-lab"] [data-control="train"]');
  await train.scrollIntoViewIfNeeded();
  await page.evaluate(() => {
    window.__events.length = 0;
  });
  const started = Date.now();
  if (how !== 'idle') await train.click();
  const slider = page.locator('[data-chart-root="sinusoidal-heatmap"] input[type="range"]').first();
  await slider.focus();
  let presses = 0;
  const training = () =>
    page.evaluate(() => window.positionalCharts.mounted.get('length-lab').values.phase === 'training');
  // With no training (the baseline) the reader presses as many keys as in a Worker run's time.
  while (how === 'idle' ? presses < IDLE_PRESSES : await training()) {
    await page.keyboard.press(presses % 2 ? 'ArrowLeft' : 'ArrowRight');
    presses += 1;
    await page.waitForTimeout(300);
    if (Date.now() - started > 300000) throw new Error('the lab did not finish in 5 minutes');
  }
  const trainedMs = Date.now() - started;
  const { events, mode, pool } = await page.evaluate(() => ({
    events: window.__events,
    mode: window.positionalCharts.mounted.get('length-lab').values.mode,
    pool: Math.max(1, Math.min(5, 4, (navigator.hardwareConcurrency || 2) - 1)),
  }));
  await context.close();
  const keys = events.filter((e) => e.name === 'keydown' || e.name === 'keyup').map((e) => e.duration);
  return {
    mode: how === 'idle' ? 'none' : mode,
    workers: mode === 'worker' && how !== 'idle' ? pool : 0,
    trainedMs: how === 'idle' ? 0 : trainedMs,
    presses,
    keyEventsOver16ms: keys.length,
    keys,
  };
}

const site = await serveAndLaunch(options.dist);
const runs = { idle: [], worker: [], page: [] };
try {
  for (let run = 0; run < options.runs; run += 1) {
    for (const how of ['idle', 'worker', 'page']) {
      const result = await trainWhileTyping(site, how);
      runs[how].push(result);
      console.log(how, { ...result, keys: undefined });
    }
  }
} finally {
  await site.close();
}
const summary = (list) => {
  const keys = list.flatMap((r) => r.keys);
  return {
    mode: list[0].mode,
    workers: list[0].workers,
    trainedMs: Math.round(median(list.map((r) => r.trainedMs))),
    keyPresses: list.reduce((a, r) => a + r.presses, 0),
    keyEventsOver16ms: keys.length,
    keyEventMsP50: keys.length ? Math.round(percentile(keys, 0.5)) : 0,
    keyEventMsP95: keys.length ? Math.round(percentile(keys, 0.95)) : 0,
    keyEventMsMax: keys.length ? Math.round(Math.max(...keys)) : 0,
  };
};
writeReport(
  options.out,
  {
    about:
      'The page while the length lab trains its default run (five schemes, lookup, 300 steps) on the phone stand-in (Chromium, 360 × 740, DPR 2, CPU 4×): wall time from the Train press to the last score, and the Event Timing durations (input to next paint, entries of at least 16 ms) of the key presses the reader makes on another chart meanwhile; with no training (the baseline, as many presses), with the lab in Workers (the page) and with Worker removed (the single file’s path). Medians over runs; key figures (p50, p95, max of the entries of at least 16 ms) over every press of every run. Chromium’s CPU throttling slows the page’s thread, not its Workers: the Workers’ training time is this machine’s unthrottled speed.',
    command: 'node tests/bench/length-lab-phone.mjs',
    loadStart,
  },
  {
    runs: options.runs,
    noTraining: summary(runs.idle),
    workers: summary(runs.worker),
    pageThread: summary(runs.page),
  },
);
