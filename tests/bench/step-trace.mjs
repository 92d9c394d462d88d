// Diagnostic (not a test, no results file): where a figure's step spends the main thread, by trace
// event, in the lesson, in the lesson's scriptless copy with the figure's uPlot twin in its place, and
// in the twin alone (the last two are twin-steps.mjs's pages: run it with --keep 1 first; a page not in
// dist is said and skipped). One page at a time, throttled 4× on a phone viewport, 40 arrow-key presses;
// the trace's complete events on the renderer's main thread are summed per name and divided by the
// presses (an event's time includes the events nested in it, so the names overlap: read each against
// the same name on the other pages, not as a sum).
//   node tests/bench/step-trace.mjs [--dist dist] [--figure context-extension] [--presses 40] [--page FILE]
import { parseArgs } from 'node:util';
import { resolve, join } from 'node:path';
import { existsSync } from 'node:fs';
import { serveAndLaunch } from './browse.mjs';

const { values } = parseArgs({
  options: {
    dist: { type: 'string' },
    figure: { type: 'string' },
    presses: { type: 'string' },
    page: { type: 'string' },
  },
});
const repo = new URL('../../', import.meta.url).pathname;
const dist = resolve(values.dist ?? process.env.POSITIONAL_DIST ?? join(repo, 'dist'));
const id = values.figure ?? 'context-extension';
const presses = Number(values.presses ?? 40);
const HANDLE = {
  'context-extension': 'target',
  precision: 'position',
  'sinusoidal-heatmap': 'position',
  'rope-frequencies': 'position',
};
const PHONE = { viewport: { width: 360, height: 780 }, deviceScaleFactor: 2, isMobile: true };

const { browser, server, close } = await serveAndLaunch(dist);
const url = server.url;
const pages = values.page ? [values.page] : ['lesson', `bench-lesson-twin-${id}.html`, `bench-twin-${id}.html`];
for (const name of pages) {
  if (name !== 'lesson' && !existsSync(join(dist, name))) {
    console.log(`${name}: not in ${dist} (twin-steps.mjs --keep 1 writes it)`);
    continue;
  }
  const context = await browser.newContext(PHONE);
  const page = await context.newPage();
  await page.goto(name === 'lesson' ? url : url + name);
  let control;
  if (name === 'lesson') {
    await page.waitForFunction(() => document.documentElement.dataset.liveState === 'ready', null, { timeout: 120000 });
    await page.locator(`[data-chart="${id}"]`).scrollIntoViewIfNeeded();
    await page.waitForFunction((chart) => window.positionalCharts?.mounted.has(chart), id, { timeout: 60000 });
    control = page.locator(`[data-chart="${id}"] [role="slider"][data-handle="${HANDLE[id]}"]`);
  } else {
    await page.waitForSelector('[data-twin-ready]', { timeout: 60000 });
    control = page.locator(`[data-twin="${id}"] input[type="range"]`);
  }
  await control.scrollIntoViewIfNeeded();
  await control.focus();
  await page.waitForTimeout(1500);
  const cdp = await context.newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
  await page.waitForTimeout(500);
  await browser.startTracing(page, {
    categories: [
      'devtools.timeline',
      'disabled-by-default-devtools.timeline',
      'blink',
      'cc',
      'toplevel',
      'accessibility',
      'benchmark',
    ],
  });
  for (let i = 0; i < presses; i++) {
    await page.keyboard.press(Math.floor(i / 5) % 2 ? 'ArrowLeft' : 'ArrowRight');
    await page.waitForTimeout(150);
  }
  await page.waitForTimeout(400);
  const trace = JSON.parse((await browser.stopTracing()).toString());
  const events = trace.traceEvents ?? trace;
  const threads = new Map();
  for (const e of events) if (e.name === 'thread_name') threads.set(`${e.pid}:${e.tid}`, e.args.name);
  const main = new Set([...threads].filter(([, n]) => n === 'CrRendererMain').map(([k]) => k));
  const totals = new Map();
  let all = 0;
  for (const e of events) {
    if (e.ph !== 'X' || !main.has(`${e.pid}:${e.tid}`)) continue;
    if (e.name === 'ThreadControllerImpl::RunTask' || e.name === 'RunTask') all += e.dur;
    totals.set(e.name, (totals.get(e.name) ?? 0) + e.dur);
  }
  const top = [...totals].sort((a, b) => b[1] - a[1]).slice(0, 40);
  console.log(`\n${name}: tasks ${(all / 1000 / presses).toFixed(1)} ms a step`);
  for (const [n, d] of top) console.log(`  ${(d / 1000 / presses).toFixed(2).padStart(7)}  ${n}`);
  await context.close();
}
await close();
