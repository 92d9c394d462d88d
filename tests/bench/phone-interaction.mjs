// Benchmark (not a test): the lesson on a throttled phone. Chromium at 360 × 780 with the CPU slowed
// 4× (CDP Emulation.setCPUThrottlingRate) loads the page and records
//   - first paint (first-contentful-paint) and the moment every live number is in (the
//     positional-lesson:live-filled mark), and their ratio;
//   - every long task (> 50 ms) after first paint until the page is settled, and their blocking time;
//   - for every chart: each control and each handle on the figure worked as a reader would (real
//     mouse clicks, drags and keys) at its defaults and then at its maximum (End), a character typed
//     into each text field and deleted, and likewise the live parameters in the prose (as 'prose'),
//     with Event Timing (PerformanceObserver type 'event', durationThreshold 16, buffered) giving each
//     interaction's duration; p50 / p95 per chart. The Download PNG and CSV buttons are clicked too,
//     but a download is not a step of the chart: their clicks are listed apart (exports_ms).
// Event Timing reports only interactions of 16 ms or more: one it did not report counts as 16 ms,
// so a p50 of 16 means "at most 16". An interaction whose frame Chromium reported only with a later
// one (see presentedLate) is listed apart and left out of the quantiles. The floor: arrow-key steps
// on a page holding only a slider and a canvas the size of the lesson's median one, measured on its
// own before the lesson's pass and after it (a throttled page keeps using the CPU while idle, so a
// floor page left open beside the lesson slowed the lesson's figures); and, after them, the same
// with the largest canvas (or a number it rewrites). Only the page being pressed is ever open.
// The loads go over an emulated slow 4G link. The load is also measured on a scriptless copy of the
// page (taking turns with the lesson), and
// each chart's p50 and p95 are given as ratios to the floor's (the median canvas), all in one run.
// Writes tests/bench/results/phone-interaction.json (with --headed, phone-interaction-headed.json).
//   node tests/bench/phone-interaction.mjs [--dist dist] [--runs 3] [--out FILE]
//   xvfb-run -a node tests/bench/phone-interaction.mjs --headed …   (a window on an X server, not headless)
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { dirname, join, resolve } from 'node:path';
import { cpus, loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { serveAndLaunch } from './browse.mjs';
import { quantile } from './measuring.mjs';

const { values } = parseArgs({
  options: {
    dist: { type: 'string' },
    runs: { type: 'string', default: '3' },
    out: { type: 'string' },
    headed: { type: 'boolean', default: false },
  },
});
const repo = new URL('../../', import.meta.url).pathname;
const dist = resolve(values.dist ?? process.env.POSITIONAL_DIST ?? join(repo, 'dist'));
const out = resolve(
  values.out ?? join(repo, 'tests', 'bench', 'results', `phone-interaction${values.headed ? '-headed' : ''}.json`),
);
const RUNS = Number(values.runs);
const THROTTLE = 4;
const PHONE = { width: 360, height: 780 };
// The phone every page of this benchmark opens on: the lesson, its canvas sizes and the floor.
const PHONE_CONTEXT = { viewport: PHONE, deviceScaleFactor: 2, isMobile: true, hasTouch: false };
const SETTLE_MS = 2500;
// Presses of the median canvas's floor page, alone, before the lesson's pass and again after it
// (120 in all: its p95 is then the seventh longest). 40 presses in a row made it the second longest
// of whatever the machine was doing in those 8 s (48 to 88 ms over four runs of one build).
const FLOOR_SEGMENT = 60;
// The 1-minute load average above which a run is marked as measured on a busy machine.
const LOAD_LIMIT = 1.5;

const median = (xs) => quantile(xs, 0.5);
const round = (x) => (x == null ? null : Math.round(x * 10) / 10);

// Runs in the page before any of its scripts: keeps every long task and event-timing entry.
function observe() {
  window.__phone = { longTasks: [], events: [] };
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) window.__phone.longTasks.push({ start: e.startTime, duration: e.duration });
  }).observe({ type: 'longtask', buffered: true });
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      if (!e.interactionId) continue;
      const chart =
        e.target?.closest?.('[data-chart]')?.dataset.chart ?? (e.target?.closest?.('[data-param]') ? 'prose' : null);
      window.__phone.events.push({
        id: e.interactionId,
        name: e.name,
        start: e.startTime,
        duration: e.duration,
        processing: e.processingEnd - e.processingStart,
        chart,
        exported: Boolean(e.target?.closest?.('[data-export]')),
      });
    }
  }).observe({ type: 'event', durationThreshold: 16, buffered: true });
}

async function openThrottled(browser, { network = false } = {}) {
  const context = await browser.newContext(PHONE_CONTEXT);
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: THROTTLE });
  if (network) {
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', SLOW_4G);
  }
  await page.addInitScript(observe);
  return { context, page };
}

// The loads go over a slow 4G link as Lighthouse's mobile preset models it (150 ms round trip,
// 1.6 Mbit/s down, 750 kbit/s up), applied by the browser to every request of the page.
const SLOW_4G = {
  offline: false,
  latency: 150,
  downloadThroughput: (1.6 * 1024 * 1024) / 8,
  uploadThroughput: (750 * 1024) / 8,
};

/**
 * The page with no script: index.html as served, less its <script> elements and its preloads of
 * modules and WebAssembly, written beside it (the same origin, stylesheet and fonts; with its gzip
 * and Brotli copies, as the build writes them, so it crosses the link compressed as the page does).
 * What the HTML and CSS cost alone on this phone: the load's ratios are to it. Returns its name.
 */
function writeScriptless() {
  const html = readFileSync(join(dist, 'index.html'), 'utf8')
    .replace(/<script\b[^>]*>[\s\S]*?<\/script>/gi, '')
    .replace(/<link rel="modulepreload"[^>]*>/g, '')
    .replace(/<link rel="preload"[^>]*as="fetch"[^>]*>/g, '');
  const name = 'scriptless-bench.html';
  writeFileSync(join(dist, name), html);
  writeFileSync(join(dist, `${name}.gz`), gzipSync(html, { level: 9 }));
  writeFileSync(
    join(dist, `${name}.br`),
    brotliCompressSync(html, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }),
  );
  return name;
}

function removeScriptless(name) {
  for (const suffix of ['', '.gz', '.br']) rmSync(join(dist, name + suffix), { force: true });
}

/** One cold load of the scriptless copy: its first paint and DOMContentLoaded. */
async function scriptlessFigures(browser, url) {
  const { context, page } = await openThrottled(browser, { network: true });
  await page.goto(url);
  await page.waitForLoadState('load');
  // Without theme-init.js nothing skips the layout of far blocks, so the first paint may come after
  // the load event: wait for it.
  await page.waitForFunction(() => performance.getEntriesByName('first-contentful-paint').length > 0, null, {
    timeout: 60000,
  });
  const figures = await page.evaluate(() => ({
    first_paint_ms: performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? null,
    dom_content_loaded_ms: performance.getEntriesByType('navigation')[0]?.domContentLoadedEventEnd ?? null,
    scripts: document.scripts.length,
  }));
  await context.close();
  if (figures.scripts !== 0) throw new Error(`the scriptless copy still has ${figures.scripts} scripts`);
  return figures;
}

/** One cold load: first paint, live numbers in, long tasks after first paint until settled. */
async function loadFigures(browser, url) {
  const { context, page } = await openThrottled(browser, { network: true });
  await page.goto(url);
  await page.waitForFunction(
    () => document.documentElement.dataset.liveState && !document.documentElement.classList.contains('is-loading'),
    null,
    { timeout: 60000 },
  );
  await page.waitForTimeout(SETTLE_MS);
  const figures = await page.evaluate(() => {
    const paint = performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? null;
    const live = performance.getEntriesByName('positional-lesson:live-filled')[0]?.startTime ?? null;
    const after = window.__phone.longTasks.filter((t) => paint != null && t.start >= paint);
    return {
      first_paint_ms: paint,
      dom_content_loaded_ms: performance.getEntriesByType('navigation')[0]?.domContentLoadedEventEnd ?? null,
      live_numbers_ms: live,
      long_tasks_after_first_paint: after.length,
      longest_task_after_first_paint_ms: after.reduce((m, t) => Math.max(m, t.duration), 0),
      blocking_ms_after_first_paint: after.reduce((s, t) => s + Math.max(0, t.duration - 50), 0),
      last_long_task_end_ms: after.reduce((m, t) => Math.max(m, t.start + t.duration), 0) || null,
      elements: document.getElementsByTagName('*').length,
    };
  });
  await context.close();
  return figures;
}

/** Works every control of one chart with the mouse and keys; returns how many interactions it made. */
async function workChart(page, id) {
  const slot = page.locator(`[data-chart="${id}"]`);
  await slot.scrollIntoViewIfNeeded();
  await page.waitForFunction((chart) => window.positionalCharts?.mounted.has(chart), id, { timeout: 30000 });
  await page.waitForTimeout(300);
  let interactions = 0;
  let exports = 0;
  const controls = slot.locator('input, select, button');
  const count = await controls.count();
  for (let i = 0; i < count; i++) {
    const control = controls.nth(i);
    if (!(await control.isVisible()) || !(await control.isEnabled())) continue;
    const kind = await control.evaluate((el) => (el.tagName === 'INPUT' ? el.type : el.tagName.toLowerCase()));
    if (['hidden', 'url', 'search'].includes(kind)) continue;
    await control.scrollIntoViewIfNeeded();
    const box = await control.boundingBox();
    if (!box) continue;
    if (kind === 'text') {
      // A sentence or a list of pairs: a click at its end, a character typed and deleted, each
      // keystroke a step (the chart follows the field as it is typed).
      await page.mouse.click(box.x + box.width - 6, box.y + box.height / 2);
      interactions++;
      await page.keyboard.press('End');
      for (const key of ['1', 'Backspace']) {
        await page.keyboard.press(key);
        interactions++;
        await page.waitForTimeout(50);
      }
      continue;
    }
    if (await control.evaluate((el) => el.hasAttribute('data-export'))) {
      await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
      exports++;
      await page.waitForTimeout(50);
      continue;
    }
    if (kind === 'button' || kind === 'checkbox' || kind === 'radio') {
      // Click it, and for a toggle click again to leave the chart at its defaults.
      await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
      interactions++;
      await page.waitForTimeout(50);
      if (kind === 'checkbox') {
        await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
        interactions++;
      }
      continue;
    }
    if (kind === 'select') {
      await control.focus();
      for (const key of ['ArrowDown', 'ArrowUp']) {
        await page.keyboard.press(key);
        interactions++;
        await page.waitForTimeout(50);
      }
      continue;
    }
    // A slider or a number field: a click on it (its own value, so the defaults), steps at the
    // defaults, then the maximum (End), steps there, and back (Home).
    if (kind === 'range') {
      const x = await control.evaluate((el) => {
        const min = Number(el.min || 0);
        const max = Number(el.max || 100);
        return (Number(el.value) - min) / (max - min || 1);
      });
      await page.mouse.click(box.x + 8 + x * (box.width - 16), box.y + box.height / 2);
    } else await page.mouse.click(box.x + box.width - 10, box.y + box.height / 2);
    interactions++;
    for (const key of ['ArrowRight', 'ArrowLeft', 'End', 'ArrowLeft', 'ArrowRight', 'Home']) {
      await page.keyboard.press(kind === 'range' ? key : key.replace('Right', 'Up').replace('Left', 'Down'));
      interactions++;
      await page.waitForTimeout(50);
    }
  }
  // The figure's handles (role="slider" over the canvas, and the clock's face): each pressed and
  // dragged by the pointer, then stepped with keys at the defaults, at the maximum and back.
  interactions += await workSliders(page, slot.locator('[role="slider"]'));
  return { steps: interactions, exports };
}

/** Presses, drags (40 px, then back) and arrow-keys every visible slider `sliders` holds. */
async function workSliders(page, sliders) {
  let interactions = 0;
  const count = await sliders.count();
  for (let i = 0; i < count; i++) {
    const slider = sliders.nth(i);
    if (!(await slider.isVisible())) continue;
    await slider.scrollIntoViewIfNeeded();
    const box = await slider.boundingBox();
    if (!box) continue;
    const vertical = (await slider.getAttribute('aria-orientation')) === 'vertical';
    const [x, y] = [box.x + box.width / 2, box.y + box.height / 2];
    await page.mouse.move(x, y);
    await page.mouse.down();
    await page.mouse.move(vertical ? x : x + 40, vertical ? y - 40 : y, { steps: 4 });
    await page.mouse.move(x, y, { steps: 4 });
    await page.mouse.up();
    interactions++; // a drag is one interaction (pointerdown … pointerup)
    for (const key of ['ArrowRight', 'ArrowLeft', 'End', 'ArrowLeft', 'ArrowRight', 'Home']) {
      await page.keyboard.press(key);
      interactions++;
      await page.waitForTimeout(50);
    }
  }
  return interactions;
}

/** The lesson's charts, in page order. */
const chartIds = (page) =>
  page.evaluate(() => [...document.querySelectorAll('[data-chart]')].map((s) => s.dataset.chart));

/**
 * Every chart worked on a fresh load of the lesson, and the prose's live parameters, with no other
 * page open.
 */
async function interactionFigures(browser, url) {
  const { context, page } = await openThrottled(browser);
  await page.goto(url);
  await page.waitForFunction(() => document.documentElement.dataset.liveState === 'ready', null, { timeout: 60000 });
  const charts = await chartIds(page);
  const made = {};
  for (const id of charts) {
    made[id] = await workChart(page, id);
  }
  // The live parameters in the prose: the same presses, drags and keys, then each section's reset.
  made.prose = { steps: await workSliders(page, page.locator('[data-param]')), exports: 0 };
  await page.waitForTimeout(1000);
  const { events, longTasks } = await page.evaluate(() => window.__phone);
  await context.close();
  const interactions = byInteraction(events);
  const late = presentedLate(interactions, longTasks);
  const perChart = {};
  for (const id of [...charts, 'prose']) {
    const mine = interactions.filter((i) => i.chart === id && !i.exported);
    const exported = interactions.filter((i) => i.chart === id && i.exported).map((i) => round(i.duration));
    const reported = mine.filter((i) => !late.has(i)).map((i) => i.duration);
    // Interactions Event Timing did not report took under 16 ms: counted as 16.
    const unreported = Array(Math.max(0, made[id].steps - mine.length)).fill(16);
    const all = [...reported, ...unreported];
    const withLate = [...mine.map((i) => i.duration), ...unreported];
    perChart[id] = {
      interactions: made[id].steps,
      reported_over_16ms: mine.length,
      p50_ms: round(quantile(all, 0.5)),
      p95_ms: round(quantile(all, 0.95)),
      max_ms: round(Math.max(0, ...reported)),
      presented_late: mine.filter((i) => late.has(i)).map((i) => round(i.duration)),
      p95_with_late_ms: round(quantile(withLate, 0.95)),
      exports_ms: [...exported, ...Array(Math.max(0, made[id].exports - exported.length)).fill(16)],
    };
  }
  return perChart;
}

/** Event Timing's entries gathered per interaction: its chart, start, end (start + the longest duration), processing, and whether it was an export button's. */
function byInteraction(events) {
  const map = new Map();
  for (const e of events) {
    const i = map.get(e.id) ?? { chart: e.chart, start: e.start, duration: 0, end: 0, processing: 0, exported: false };
    i.exported ||= e.exported;
    i.start = Math.min(i.start, e.start);
    i.duration = Math.max(i.duration, e.duration);
    i.end = Math.max(i.end, e.start + e.duration);
    i.processing += e.processing;
    map.set(e.id, i);
  }
  return [...map.values()];
}

/**
 * The interactions whose duration is not the time to their frame. Headless Chromium sometimes
 * reports the frame that answers an input only with a later input's. Keys on the RoPE-relative
 * figure's δ box, focused where the page scrolls it, gave 0.7–2.9 s, each ending with the frame of
 * the next click, though the handlers took 4–19 ms and no long task ran; a plain number box put in
 * the same place did the same. The same keys in headed Chromium on an X server (Xvfb, its
 * framebuffer read directly) changed the screen within 30 ms and Event Timing gave 16 ms, or
 * 64–80 ms with the CPU slowed 4×. Such an interaction: it ends (within twice Event Timing's 8 ms
 * rounding) with a later interaction, and at least LATE_MS of it is unexplained by the page: its
 * duration less its handlers' processing and the long tasks that ran during it. A slow step the
 * page causes is its handlers or a long task, so it is never one of these.
 * This rule asked before for at least 400 ms and no long task at all, and kept such keys among the
 * figure's steps: one of 728 ms, which only a long task somewhere in its span could have kept, made
 * its p95 312 ms (5.6× the floor). A traced run gave 752, 656, 504, 416 and 328 ms for five δ keys,
 * all ending with the next click's frame, every frame between them dropped and the page's own
 * tasks 15–36 ms: the last two were under 400 ms. Two frames late at 4× is about 100 ms; 200
 * leaves room for a third.
 */
const LATE_MS = 200;
function presentedLate(interactions, longTasks) {
  const during = (i) =>
    longTasks.reduce(
      (sum, t) => sum + Math.max(0, Math.min(t.start + t.duration, i.end) - Math.max(t.start, i.start)),
      0,
    );
  return new Set(
    interactions.filter(
      (i) =>
        i.duration - i.processing - during(i) >= LATE_MS &&
        interactions.some((j) => j.start > i.start && Math.abs(j.end - i.end) <= 16),
    ),
  );
}

/**
 * The floor under every chart step in this browser: a page holding nothing but a slider and what
 * it redraws, on the same throttled phone. `canvas` ({ width, height } in device pixels) fills a
 * canvas that size with one colour in the next animation frame (the least drawing that changes
 * every pixel); without it the slider rewrites a number. Headless Chromium runs without a GPU here,
 * so a canvas goes to the compositor as a software bitmap, at a cost that grows with its pixels.
 * Returns { press(count): arrow-key presses 200 ms apart, figures(): p50/p95 of all the presses so
 * far, close() }. It is the only page open while it is pressed.
 */
async function openFloor(browser, canvas) {
  const { context, page } = await openThrottled(browser);
  const drawn = canvas
    ? `<canvas width="${canvas.width}" height="${canvas.height}" style="width:${canvas.width / 2}px"></canvas>`
    : '<output>0</output>';
  await page.setContent(`<!doctype html><meta name="viewport" content="width=device-width">
    <input type="range" min="0" max="100" value="50">${drawn}`);
  await page.evaluate(() => {
    window.__floor = [];
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) if (e.interactionId && e.name === 'keydown') window.__floor.push(e.duration);
    }).observe({ type: 'event', durationThreshold: 16 });
    const range = document.querySelector('input');
    const ctx = document.querySelector('canvas')?.getContext('2d');
    range.addEventListener('input', () =>
      requestAnimationFrame(() => {
        if (!ctx) return void (document.querySelector('output').textContent = range.value);
        ctx.fillStyle = `hsl(${Number(range.value) * 3} 60% 50%)`;
        ctx.fillRect(0, 0, ctx.canvas.width, ctx.canvas.height);
      }),
    );
  });
  let presses = 0;
  return {
    async press(count) {
      await page.focus('input');
      for (let i = 0; i < count; i++) {
        await page.keyboard.press(presses++ % 2 ? 'ArrowLeft' : 'ArrowRight');
        await page.waitForTimeout(200);
      }
      await page.waitForTimeout(500);
    },
    async figures() {
      const reported = await page.evaluate(() => window.__floor);
      const all = [...reported, ...Array(Math.max(0, presses - reported.length)).fill(16)];
      return {
        what: canvas ? `a ${canvas.width} × ${canvas.height} canvas redrawn` : 'a number rewritten',
        interactions: presses,
        p50_ms: round(quantile(all, 0.5)),
        p95_ms: round(quantile(all, 0.95)),
        durations: all,
      };
    },
    close: () => context.close(),
  };
}

/** The floor of `canvas` from `count` presses in a row, on its own: its figures and every press's duration. */
async function floorFigures(browser, canvas, count = 40) {
  const floor = await openFloor(browser, canvas);
  await floor.press(count);
  const figures = await floor.figures();
  await floor.close();
  return figures;
}

/**
 * The backing stores (device pixels) of every chart's canvases at their defaults on this phone: the
 * lesson loaded and each figure brought into view until every chart has mounted. Sizes do not
 * depend on the CPU, so this load is not throttled.
 */
async function lessonCanvases(browser, url) {
  const context = await browser.newContext(PHONE_CONTEXT);
  const page = await context.newPage();
  await page.goto(url);
  await page.waitForFunction(() => document.documentElement.dataset.liveState === 'ready', null, { timeout: 60000 });
  const charts = await chartIds(page);
  for (const id of charts) {
    await page.locator(`[data-chart="${id}"]`).scrollIntoViewIfNeeded();
    await page.waitForFunction((chart) => window.positionalCharts?.mounted.has(chart), id, { timeout: 30000 });
  }
  await page.waitForTimeout(500);
  const canvases = await page.evaluate(() =>
    [...document.querySelectorAll('[data-chart] canvas')].map((c) => ({ width: c.width, height: c.height })),
  );
  await context.close();
  return canvases;
}

const { browser, server, close } = await serveAndLaunch(dist, { headed: values.headed });
try {
  // The lesson's loads and the scriptless copy's, taking turns.
  const loads = [];
  const bare = [];
  const scriptless = writeScriptless();
  try {
    for (let r = 0; r < RUNS; r++) {
      loads.push(await loadFigures(browser, server.url));
      bare.push(await scriptlessFigures(browser, `${server.url}${scriptless}`));
    }
  } finally {
    removeScriptless(scriptless);
  }
  const pick = (key) => round(median(loads.map((l) => l[key])));
  const ratio = (a, b) => Math.round((a / b) * 100) / 100;
  const bareFigures = {
    note: 'The same HTML and stylesheet with every script and preload of modules and WebAssembly removed, loaded in turn with the lesson.',
    first_paint_ms: round(median(bare.map((l) => l.first_paint_ms))),
    dom_content_loaded_ms: round(median(bare.map((l) => l.dom_content_loaded_ms))),
    each_run: bare.map(({ first_paint_ms, dom_content_loaded_ms }) => ({
      first_paint_ms: round(first_paint_ms),
      dom_content_loaded_ms: round(dom_content_loaded_ms),
    })),
  };
  const load = {
    runs: RUNS,
    first_paint_ms: pick('first_paint_ms'),
    dom_content_loaded_ms: pick('dom_content_loaded_ms'),
    network: 'slow 4G: 150 ms round trip, 1.6 Mbit/s down, 750 kbit/s up (CDP Network.emulateNetworkConditions)',
    scriptless: bareFigures,
    first_paint_over_scriptless: ratio(pick('first_paint_ms'), bareFigures.first_paint_ms),
    dom_content_loaded_over_scriptless: ratio(pick('dom_content_loaded_ms'), bareFigures.dom_content_loaded_ms),
    live_numbers_ms: pick('live_numbers_ms'),
    live_over_first_paint:
      Math.round((median(loads.map((l) => l.live_numbers_ms / l.first_paint_ms)) ?? 0) * 100) / 100,
    long_tasks_after_first_paint: pick('long_tasks_after_first_paint'),
    longest_task_after_first_paint_ms: pick('longest_task_after_first_paint_ms'),
    blocking_ms_after_first_paint: pick('blocking_ms_after_first_paint'),
    last_long_task_end_ms: pick('last_long_task_end_ms'),
    elements: pick('elements'),
    each_run: loads.map((l) => Object.fromEntries(Object.entries(l).map(([k, v]) => [k, round(v)]))),
  };
  // The largest canvas the lesson draws, and the median one: the goals' floor, pressed on its own
  // before the charts' work and after it, never open beside the lesson.
  const byPixels = (await lessonCanvases(browser, server.url)).sort((a, b) => a.width * a.height - b.width * b.height);
  const medianCanvas = byPixels[Math.floor(byPixels.length / 2)];
  const loadAtStart = loadavg()[0];
  const before = await floorFigures(browser, medianCanvas, FLOOR_SEGMENT);
  const charts = await interactionFigures(browser, server.url);
  const after = await floorFigures(browser, medianCanvas, FLOOR_SEGMENT);
  const all = [...before.durations, ...after.durations];
  const floor = {
    method: 'alone',
    note: `A page with only a slider and what it redraws, same browser and throttling: what a step costs before the lesson does anything. The median canvas's page is pressed ${FLOOR_SEGMENT} times on its own before the lesson's pass and ${FLOOR_SEGMENT} times after it, never open beside the lesson; the number and the largest canvas are 40 presses each after the charts.`,
    number: await floorFigures(browser, null),
    median_canvas: {
      what: before.what,
      interactions: all.length,
      p50_ms: round(quantile(all, 0.5)),
      p95_ms: round(quantile(all, 0.95)),
      before_the_lesson: { p50_ms: before.p50_ms, p95_ms: before.p95_ms },
      after_the_lesson: { p50_ms: after.p50_ms, p95_ms: after.p95_ms },
    },
    largest_canvas: await floorFigures(browser, byPixels.at(-1)),
  };
  for (const figures of Object.values(floor)) if (figures?.durations) delete figures.durations;
  // Each chart's step against the floor of the median canvas, measured in this run.
  for (const figures of Object.values(charts)) {
    figures.p50_over_floor = ratio(figures.p50_ms, floor.median_canvas.p50_ms);
    figures.p95_over_floor = ratio(figures.p95_ms, floor.median_canvas.p95_ms);
  }
  const result = {
    what: `The lesson at 360 × 780, CPU throttled 4× (CDP), ${values.headed ? 'headed Chromium on an X server (xvfb-run)' : 'headless Chromium'}: load (medians of the runs) and every chart control worked by mouse and keys, text fields typed in (Event Timing, durationThreshold 16; the export buttons' clicks are not steps and are listed apart as exports_ms; unreported interactions count as 16 ms; an interaction whose frame Chromium reported only with a later one is listed under presented_late, left out of p50/p95 and counted in p95_with_late_ms).`,
    headed: values.headed,
    when: new Date().toISOString(),
    browser: browser.version(),
    machine: {
      cores: cpus().length,
      load_average_1min_at_start: Math.round(loadAtStart * 10) / 10,
      load_average_1min_at_end: Math.round(loadavg()[0] * 10) / 10,
      load_limit: LOAD_LIMIT,
      over_load_limit: Math.max(loadAtStart, loadavg()[0]) > LOAD_LIMIT,
    },
    load,
    charts,
    floor,
  };
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, `${JSON.stringify(result, null, 2)}\n`);
  console.log(JSON.stringify({ load: { ...load, each_run: undefined }, charts, floor }, null, 2));
} finally {
  await close();
}
