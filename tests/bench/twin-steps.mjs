// Benchmark (not a test): a step of each lesson figure with a handle against the same figure built
// the way a front-end developer would build it with uPlot (tests/bench/twins/twin.js: the same canvas
// sizes, the same numbers from engine.mjs, a range input with the same aria-valuetext and description).
// Three pages per figure, and the floor:
//   - lesson: the lesson page, the figure's handle focused;
//   - twin: a page holding only the twin;
//   - in-page twin: a copy of the lesson page, its scripts removed, with the twin in the figure's
//     place (what the long document costs the same twin);
//   - floor: a page holding a range input and one canvas the size of the figure's largest, filled
//     with one colour on each step (the least a step that changes the canvas can cost).
// Only the page being pressed is open: each is opened alone in a fresh context, loaded unthrottled,
// then throttled 4× (CDP) and pressed, then closed. Its arrow-key presses (5 up, 5 down, …) are
// timed by Event Timing (durationThreshold 16: an unreported press counts as 16 ms); the main
// thread's time per step is the CDP Performance metrics' TaskDuration (with ScriptDuration,
// LayoutDuration and RecalcStyleDuration beside it) over the presses, divided by their count; DOM
// mutations per step are counted by a MutationObserver on the document. The pages take turns per
// figure over the rounds (their order rotated each round), and the 1-minute load average is written
// beside each page's run; a run above LOAD_LIMIT is marked.
// Writes tests/bench/results/twin-steps.json; run-benchmarks.mjs --render puts its table in BENCHMARKS.md.
//   node tests/bench/twin-steps.mjs [--dist dist] [--rounds 3] [--presses 90] [--figures a,b] [--out FILE] [--keep 1]
import { copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cpus, loadavg } from 'node:os';
import { build } from 'esbuild';
import { serveAndLaunch } from './browse.mjs';
import { measuringOptions, quantile } from './measuring.mjs';

const options = measuringOptions(
  'twin-steps.json',
  { rounds: { default: 3, least: 1 }, presses: { default: 90, least: 10 } },
  { figures: undefined, keep: undefined },
);
const here = new URL('.', import.meta.url).pathname;
const repo = new URL('../../', import.meta.url).pathname;
const THROTTLE = 4;
const PHONE_CONTEXT = { viewport: { width: 360, height: 780 }, deviceScaleFactor: 2, isMobile: true, hasTouch: false };
const GAP_MS = 150; // between two presses: every step's frame is out before the next press
const LOAD_LIMIT = 1.5;
const TWINS_DIR = 'bench-twins';

/** The figures with a handle that have a twin: the handle's state key. */
const FIGURES = {
  'context-extension': 'target',
  precision: 'position',
  'sinusoidal-heatmap': 'position',
  'rope-frequencies': 'position',
};
const PAGES = ['lesson', 'twin', 'in_page_twin', 'floor'];
// --figures a,b: only these (a quicker pass while working on one figure).
const MEASURED = options.figures ? options.figures.split(',') : Object.keys(FIGURES);
for (const id of MEASURED) if (!FIGURES[id]) throw new Error(`--figures: no twin for "${id}"`);

const round1 = (x) => (x == null ? null : Math.round(x * 10) / 10);
const ratio = (a, b) => (a == null || !b ? null : Math.round((a / b) * 100) / 100);

/** Bundles the twins (with uPlot and the lesson's number formats) into the served site, beside engine.mjs. */
async function writeTwinBundle(dist) {
  mkdirSync(join(dist, TWINS_DIR), { recursive: true });
  await build({
    entryPoints: [join(here, 'twins', 'twin.js')],
    bundle: true,
    format: 'esm',
    target: 'es2022',
    minify: true,
    outfile: join(dist, TWINS_DIR, 'twin.js'),
    logLevel: 'warning',
    // The site's engine, as the lesson loads it.
    plugins: [
      {
        name: 'site-engine',
        setup(b) {
          b.onResolve({ filter: /engine\.mjs$/ }, () => ({ path: '../engine.mjs', external: true }));
        },
      },
    ],
  });
  copyFileSync(join(repo, 'node_modules', 'uplot', 'dist', 'uPlot.min.css'), join(dist, TWINS_DIR, 'uPlot.min.css'));
}

const twinMarkup = (id, sizes) => `<div data-twin="${id}" data-sizes="${JSON.stringify(sizes)}"></div>`;
const twinPage = (id) => `bench-twin-${id}.html`;
const inPagePage = (id) => `bench-lesson-twin-${id}.html`;

/** The twin alone on a page, and the twin in a copy of the lesson (its scripts out) in the figure's place. */
function writeTwinPages(dist, id, sizes) {
  writeFileSync(
    join(dist, twinPage(id)),
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${id}: uPlot twin</title><link rel="stylesheet" href="${TWINS_DIR}/uPlot.min.css"></head><body>${twinMarkup(id, sizes)}<script type="module" src="${TWINS_DIR}/twin.js"></script></body></html>\n`,
  );
  const mount = new RegExp(`<div class="chart-mount" data-chart-mount="${id}">[\\s\\S]*?</div><figcaption>`);
  const lesson = readFileSync(join(dist, 'index.html'), 'utf8');
  if (!mount.test(lesson)) throw new Error(`index.html has no mount for ${id}`);
  const html = lesson
    .replace(/<script type="module"[^>]*><\/script>/g, '')
    .replace(/<link rel="modulepreload"[^>]*>/g, '')
    .replace(/<link rel="preload"[^>]*as="fetch"[^>]*>/g, '')
    .replace(
      '<link rel="stylesheet" href="css/site.css">',
      (css) => `${css}<link rel="stylesheet" href="${TWINS_DIR}/uPlot.min.css">`,
    )
    .replace(mount, `<div class="chart-mount">${twinMarkup(id, sizes)}</div><figcaption>`)
    .replace('</body>', `<script type="module" src="${TWINS_DIR}/twin.js"></script></body>`);
  writeFileSync(join(dist, inPagePage(id)), html);
}

function removeTwins(dist) {
  rmSync(join(dist, TWINS_DIR), { recursive: true, force: true });
  for (const id of Object.keys(FIGURES))
    for (const name of [twinPage(id), inPagePage(id)]) rmSync(join(dist, name), { force: true });
}

/** Waits for the lesson's chart `id` to be mounted, its slot in view. */
async function lessonReady(page, id) {
  await page.waitForFunction(() => document.documentElement.dataset.liveState === 'ready', null, { timeout: 120000 });
  await page.locator(`[data-chart="${id}"]`).scrollIntoViewIfNeeded();
  await page.waitForFunction((chart) => window.positionalCharts?.mounted.has(chart), id, { timeout: 60000 });
}

/**
 * The CSS sizes of the canvases the figure draws on this phone (not its knob overlays: a canvas the
 * page stacks over another at the same place is left out), unthrottled: sizes do not depend on the CPU.
 */
async function lessonCanvases(browser, url, id) {
  const context = await browser.newContext(PHONE_CONTEXT);
  const page = await context.newPage();
  await page.goto(url);
  await lessonReady(page, id);
  await page.waitForTimeout(500);
  const sizes = await page.evaluate((chart) => {
    const seen = [];
    for (const canvas of document.querySelectorAll(`[data-chart="${chart}"] canvas`)) {
      const box = canvas.getBoundingClientRect();
      if (!box.width || seen.some((s) => s.x === box.x && s.y === box.y)) continue;
      seen.push({ x: box.x, y: box.y, w: Math.round(box.width), h: Math.round(box.height) });
    }
    return seen.map(({ w, h }) => [w, h]);
  }, id);
  await context.close();
  return sizes;
}

/** The floor page for a canvas of `[w, h]` CSS pixels: a range input, the canvas filled on each step. */
function floorHtml([w, h]) {
  return `<!doctype html><meta name="viewport" content="width=device-width">
    <input type="range" min="0" max="100" value="50" aria-label="floor"><canvas width="${w * 2}" height="${h * 2}" style="width:${w}px;height:${h}px"></canvas>`;
}

function floorScript() {
  const range = document.querySelector('input');
  const ctx = document.querySelector('canvas').getContext('2d');
  range.addEventListener('input', () =>
    requestAnimationFrame(() => {
      ctx.fillStyle = `hsl(${Number(range.value) * 3} 60% 50%)`;
      ctx.fillRect(0, 0, ctx.canvas.width, ctx.canvas.height);
    }),
  );
}

/** Keeps every keyboard interaction's Event Timing entries, from the page's start. */
function observe() {
  window.__steps = [];
  new PerformanceObserver((list) => {
    for (const e of list.getEntries())
      if (e.interactionId) window.__steps.push({ id: e.interactionId, start: e.startTime, duration: e.duration });
  }).observe({ type: 'event', durationThreshold: 16, buffered: true });
}

/** What the reader gets after one step: the description sentence and the control's aria-valuetext. */
function readTexts(kind) {
  const control = document.activeElement;
  const description =
    kind === 'lesson'
      ? control.closest('[data-chart]').querySelector('.chart-description')
      : document.querySelector('.twin-description');
  return { description: description?.textContent ?? null, valuetext: control.getAttribute('aria-valuetext') };
}

/** The key presses: five up, five down, and again, so that every press changes the value. */
const keyOf = (i) => (Math.floor(i / 5) % 2 ? 'ArrowLeft' : 'ArrowRight');

/** One page's run: open it alone, throttle it, press its control `presses` times, close it. */
async function pressPage(browser, url, kind, id, { presses, sizes }) {
  const context = await browser.newContext(PHONE_CONTEXT);
  const page = await context.newPage();
  await page.addInitScript(observe);
  let control;
  if (kind === 'floor') {
    await page.setContent(floorHtml(sizes.reduce((a, b) => (a[0] * a[1] >= b[0] * b[1] ? a : b))));
    await page.evaluate(observe);
    await page.evaluate(floorScript);
    control = page.locator('input');
  } else if (kind === 'lesson') {
    await page.goto(url);
    await lessonReady(page, id);
    control = page.locator(`[data-chart="${id}"] [role="slider"][data-handle="${FIGURES[id]}"]`);
  } else {
    await page.goto(url);
    await page.waitForSelector('[data-twin-ready]', { timeout: 60000 });
    control = page.locator(`[data-twin="${id}"] input[type="range"]`);
  }
  await control.scrollIntoViewIfNeeded();
  await control.focus();
  await page.waitForTimeout(1000);
  // One step and back, unthrottled and unmeasured: what it says after a step, for the comparison.
  await page.keyboard.press('ArrowRight');
  await page.waitForTimeout(300);
  const texts = kind === 'floor' ? null : await page.evaluate(readTexts, kind);
  await page.keyboard.press('ArrowLeft');
  const cdp = await context.newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: THROTTLE });
  await cdp.send('Performance.enable');
  await page.waitForTimeout(1000);
  const metrics = async () =>
    Object.fromEntries((await cdp.send('Performance.getMetrics')).metrics.map((m) => [m.name, m.value]));
  const start = await page.evaluate(() => {
    window.__mutations = 0;
    new MutationObserver((records) => (window.__mutations += records.length)).observe(document, {
      subtree: true,
      childList: true,
      attributes: true,
      characterData: true,
    });
    return performance.now();
  });
  const before = await metrics();
  const load = loadavg()[0];
  for (let i = 0; i < presses; i++) {
    await page.keyboard.press(keyOf(i));
    await page.waitForTimeout(GAP_MS);
  }
  await page.waitForTimeout(500);
  const after = await metrics();
  const { steps, mutations } = await page.evaluate(() => ({ steps: window.__steps, mutations: window.__mutations }));
  await context.close();
  const durations = new Map();
  for (const s of steps) if (s.start >= start) durations.set(s.id, Math.max(durations.get(s.id) ?? 0, s.duration));
  const perStep = (name) => ((after[name] - before[name]) * 1000) / presses;
  return {
    load_average: Math.round(Math.max(load, loadavg()[0]) * 100) / 100,
    durations: [...durations.values(), ...Array(Math.max(0, presses - durations.size)).fill(16)],
    main_thread_ms: perStep('TaskDuration'),
    script_ms: perStep('ScriptDuration'),
    layout_ms: perStep('LayoutDuration'),
    style_ms: perStep('RecalcStyleDuration'),
    mutations_per_step: mutations / presses,
    texts,
  };
}

/** A page's runs over the rounds pooled: p50 and p95 of every press, the mean of the per-step times. */
function pooled(runs) {
  const all = runs.flatMap((r) => r.durations);
  const mean = (key) => round1(runs.reduce((s, r) => s + r[key], 0) / runs.length);
  return {
    presses: all.length,
    p50_ms: round1(quantile(all, 0.5)),
    p95_ms: round1(quantile(all, 0.95)),
    main_thread_ms: mean('main_thread_ms'),
    script_ms: mean('script_ms'),
    layout_ms: mean('layout_ms'),
    style_ms: mean('style_ms'),
    mutations_per_step: mean('mutations_per_step'),
    load_average_max: Math.max(...runs.map((r) => r.load_average)),
  };
}

const started = Date.now();
const { browser, server, close } = await serveAndLaunch(options.dist);
const runs = [];
const figures = {};
try {
  await writeTwinBundle(options.dist);
  const sizes = {};
  for (const id of MEASURED) {
    sizes[id] = await lessonCanvases(browser, server.url, id);
    writeTwinPages(options.dist, id, sizes[id]);
  }
  const urls = {
    lesson: () => server.url,
    twin: (id) => `${server.url}${twinPage(id)}`,
    in_page_twin: (id) => `${server.url}${inPagePage(id)}`,
    floor: () => null,
  };
  for (let round = 0; round < options.rounds; round++) {
    for (const id of MEASURED) {
      // The pages take turns, starting one later each round.
      for (let k = 0; k < PAGES.length; k++) {
        const kind = PAGES[(k + round) % PAGES.length];
        console.error(`round ${round + 1}/${options.rounds}: ${id} ${kind} …`);
        const run = await pressPage(browser, urls[kind](id), kind, id, { presses: options.presses, sizes: sizes[id] });
        runs.push({ round: round + 1, figure: id, page: kind, ...run });
      }
    }
  }
  for (const id of MEASURED) {
    const mine = (kind) => runs.filter((r) => r.figure === id && r.page === kind);
    const pages = Object.fromEntries(PAGES.map((kind) => [kind, pooled(mine(kind))]));
    const lessonTexts = mine('lesson')[0].texts;
    const twinTexts = mine('twin')[0].texts;
    const { lesson, twin, in_page_twin: inPage } = pages;
    figures[id] = {
      handle: FIGURES[id],
      canvases_css_px: sizes[id],
      same_text: lessonTexts.description === twinTexts.description && lessonTexts.valuetext === twinTexts.valuetext,
      texts: { lesson: lessonTexts, twin: twinTexts },
      pages,
      lesson_over_twin: {
        p50: ratio(lesson.p50_ms, twin.p50_ms),
        p95: ratio(lesson.p95_ms, twin.p95_ms),
        main_thread: ratio(lesson.main_thread_ms, twin.main_thread_ms),
      },
      in_page_twin_over_twin: {
        p50: ratio(inPage.p50_ms, twin.p50_ms),
        p95: ratio(inPage.p95_ms, twin.p95_ms),
        main_thread: ratio(inPage.main_thread_ms, twin.main_thread_ms),
      },
    };
  }
} finally {
  // --keep 1: the twin pages stay in dist for step-trace.mjs (which traces a step of each).
  if (!options.keep) removeTwins(options.dist);
  await close();
}
const loads = runs.map((r) => r.load_average);
const result = {
  what: `Each figure with a handle against its uPlot twin (tests/bench/twins/twin.js), in headless Chromium at 360 × 780, DPR 2, the pressed page alone open and its CPU throttled ${THROTTLE}× (CDP): ${options.presses} arrow-key presses ${GAP_MS} ms apart per page run, the pages (lesson, twin, twin in a scriptless copy of the lesson, floor) taking turns per figure over ${options.rounds} round${options.rounds === 1 ? '' : 's'}. Step: Event Timing's interaction duration (durationThreshold 16; unreported counts as 16 ms), p50 and p95 of every press of the rounds. Main thread per step: CDP Performance TaskDuration over the presses ÷ presses (ScriptDuration, LayoutDuration, RecalcStyleDuration beside it), mean of the rounds. Mutations: MutationObserver records per step.`,
  command: `node tests/bench/twin-steps.mjs --rounds ${options.rounds} --presses ${options.presses}${options.figures ? ` --figures ${options.figures}` : ''}`,
  when: new Date().toISOString(),
  minutes: Math.round((Date.now() - started) / 6000) / 10,
  browser: browser.version(),
  machine: { cores: cpus().length },
  presses: options.presses,
  rounds: options.rounds,
  load_limit: LOAD_LIMIT,
  load_average: {
    max: Math.max(...loads),
    median: quantile(loads, 0.5),
    runs_over_limit: runs.filter((r) => r.load_average > LOAD_LIMIT).length,
  },
  figures,
  runs: runs.map(({ durations, texts, ...r }) => ({
    ...Object.fromEntries(Object.entries(r).map(([k, v]) => [k, typeof v === 'number' ? round1(v) : v])),
    load_average: r.load_average,
    over_load_limit: r.load_average > LOAD_LIMIT,
    p50_ms: round1(quantile(durations, 0.5)),
    p95_ms: round1(quantile(durations, 0.95)),
  })),
};
mkdirSync(join(options.out, '..'), { recursive: true });
writeFileSync(options.out, `${JSON.stringify(result, null, 2)}\n`);
console.log(JSON.stringify({ minutes: result.minutes, load_average: result.load_average, figures }, null, 2));
