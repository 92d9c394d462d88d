// The live charts in the engine helpers.mjs selects, against the built site: every chart draws, every control
// changes the picture and the description, typed sentences match engine.orderSimilarities,
// exports give a PNG and a CSV equal to the engine's numbers, URL state round-trips, and
// clamped input shows its message without a console error. Also: no canvas text is squeezed, cut
// or runs off its canvas at 360 or 1280 px, no legend label is cut and no plot squeezed under
// PLOT_FLOOR at 320 or 360 px, numbers read as the page formats them, the heatmap's
// hover value is the engine's, dragging recomputes once per frame, and the clock turns by keyboard.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { after, before, test } from 'node:test';
import {
  ENGINE,
  WEBKIT_MIN_WIDTH,
  answerLabPrediction,
  downloadOf,
  launchBrowser,
  recordPageErrors,
} from './helpers.mjs';
import { CHART_DECLARATIONS } from '../../web/js/charts/declarations.js';
import { PLOT_FLOOR } from '../../web/js/chart-kit/plot.js';
import { interfaceStrings } from '../../web/site-builder/build-site.mjs';
import { translate } from '../../web/js/locale/i18n.js';

const dist = process.env.POSITIONAL_DIST ?? new URL('../../dist/', import.meta.url).pathname;
// The page under test: the English one, or a translation's (POSITIONAL_PAGE=zh-Hans/index.html).
// Texts the suite expects are the interface table's, in that page's language.
const PAGE = process.env.POSITIONAL_PAGE ?? '';
const LANG = PAGE ? PAGE.split('/')[0] : 'en';
const TABLE = interfaceStrings(LANG);
const say = (english, params) => translate(TABLE, LANG, english, params);

/**
 * The heatmap's readout ("position 393, dimension 16 (sin of pair 8): 0.9995" in English) read back
 * through the page language's own template: [position, dimension, kind, pair, value] or null.
 */
function parseReadout(text) {
  const patterns = {
    position: '[\\d,]+',
    dimension: '\\d+',
    kind: 'sin|cos',
    pair: '\\d+',
    value: '\u2212?\\d\\.\\d{4}',
  };
  const template = say('position {position}, dimension {dimension} ({kind} of pair {pair}): {value}');
  const source = template
    .replace(/[.*+?^$()|[\]\\]/g, '\\$&')
    .replace(/\{(\w+)\}/g, (_, name) => `(?<${name}>${patterns[name]})`);
  const groups = new RegExp(`^${source}$`).exec(text)?.groups;
  return groups ? [groups.position, groups.dimension, groups.kind, groups.pair, groups.value] : null;
}
// Every chart but the model card (its own suite, model-card.test.mjs), in the lesson's order.
const IDS = Object.keys(CHART_DECLARATIONS).filter((id) => id !== 'model-card');
// One control per chart that must change the picture, and the value to give it.
/**
 * A move for a chart's first declared control, as text to fill in: a number a third of the way up
 * its range, on its grid; words for a text field; another option of a select.
 */
function firstMove(id) {
  const [name, spec] = Object.entries(CHART_DECLARATIONS[id].controls)[0];
  if (spec.kind === 'text') return [name, name === 'pairs' ? '0, 3' : 'the cat sat on the mat'];
  if (spec.kind === 'select') return [name, spec.options.map((o) => o.value ?? o).find((v) => v !== spec.value)];
  let v = spec.min + (Math.min(spec.max, spec.min + 10000) - spec.min) / 3;
  v = spec.integer === false ? Number(v.toFixed(2)) : Math.round(v);
  if (spec.even && v % 2 !== 0) v += 1;
  return [name, String(v)];
}

let browser;
let server;
let page;
const problems = [];

async function serve(root) {
  if (existsSync(new URL('../../web/site-builder/serve.mjs', import.meta.url))) {
    const { startServer } = await import('../../web/site-builder/serve.mjs');
    return startServer({ root, port: 0 });
  }
  throw new Error('web/site-builder/serve.mjs is missing');
}

before(async () => {
  server = await serve(dist);
  browser = await launchBrowser();
  page = await browser.newPage({ viewport: { width: 1100, height: 900 }, acceptDownloads: true });
  page.on('console', (m) => m.type() === 'error' && problems.push(m.text()));
  recordPageErrors(page, problems);
  await page.goto(`${server.url}${PAGE}`);
  await page.waitForFunction(() => window.positionalCharts !== undefined, null, { timeout: 30000 });
  await page.evaluate(() => window.positionalCharts.mountAll());
  // The lab's figure follows its controls once its prediction is answered (its recorded results wait for it).
  await answerLabPrediction(page);
});

after(async () => {
  await browser?.close();
  await server?.close();
});

/** A fingerprint of a chart's canvases: non-background pixel count and a hash of a pixel sample. */
function fingerprint(id) {
  return page.evaluate(async (chartId) => {
    const canvases = [...document.querySelectorAll(`[data-chart="${chartId}"] canvas`)];
    let inked = 0;
    let hash = 0;
    for (const c of canvases) {
      const { data } = await window.positionalCharts.canvasPixels(c);
      const [r0, g0, b0] = data;
      for (let i = 0; i < data.length; i += 4) {
        if (data[i] !== r0 || data[i + 1] !== g0 || data[i + 2] !== b0) inked++;
        if (i % 64 === 0) hash = (hash * 31 + data[i] + 3 * data[i + 1] + 7 * data[i + 2]) >>> 0;
      }
    }
    return {
      inked,
      hash,
      description: document.querySelector(`[data-chart="${chartId}"] .chart-description`).textContent,
    };
  }, id);
}

async function setControl(id, name, value) {
  const control = page.locator(`[data-chart="${id}"] [data-control="${name}"]`);
  const tag = await control.evaluate((el) => el.tagName);
  if (tag === 'SELECT') await control.selectOption(value);
  else {
    await control.fill(value);
    await control.press('Tab');
  }
  await page.evaluate(() => new Promise(requestAnimationFrame));
}

test('every chart mounts with an accessible name, a live description and a data view', async () => {
  const mounted = await page.evaluate(() => [...window.positionalCharts.mounted.keys()]);
  for (const id of IDS) assert.ok(mounted.includes(id), `${id} did not mount`);
  for (const id of IDS) {
    const info = await page.evaluate((chartId) => {
      const slot = document.querySelector(`[data-chart="${chartId}"]`);
      return {
        // A picture (role img) or, for the RoPE clock, a focusable slider turning the selected hand.
        labels: [...slot.querySelectorAll('canvas')].map(
          (c) => ['img', 'slider'].includes(c.getAttribute('role')) && c.getAttribute('aria-label'),
        ),
        live: slot.querySelector('[aria-live="polite"]')?.textContent ?? '',
        details: Boolean(slot.querySelector('details.chart-data summary')),
        unlabelled: [...slot.querySelectorAll('input, select')].filter(
          (el) => !(el.labels?.length || el.getAttribute('aria-label')),
        ).length,
      };
    }, id);
    assert.ok(info.labels.every(Boolean), `${id}: canvas without role=img + aria-label`);
    assert.ok(info.live.length > 20, `${id}: no live description`);
    assert.ok(info.details, `${id}: no Data view`);
    assert.equal(info.unlabelled, 0, `${id}: unlabelled control`);
    const fp = await fingerprint(id);
    assert.ok(fp.inked > 2000, `${id}: blank canvas (${fp.inked} inked pixels)`);
  }
});

// On the English page every control's every path is a cell of the control matrix
// (control-matrix.test.mjs); a translated page is checked here: a move of each chart's first
// control changes its picture and its description.
if (PAGE)
  test('moving a control changes the picture and the description', async () => {
    for (const id of IDS) {
      const [name, value] = firstMove(id);
      const before = await fingerprint(id);
      await setControl(id, name, value);
      const after = await fingerprint(id);
      assert.notEqual(after.hash, before.hash, `${id}: picture unchanged after ${name} = ${value}`);
      assert.notEqual(after.description, before.description, `${id}: description unchanged after ${name} = ${value}`);
      // Back to the declared value: the tests below read the charts at their declared state.
      await setControl(id, name, String(CHART_DECLARATIONS[id].controls[name].value));
    }
  });

test('typed sentences change the bars and equal engine.orderSimilarities', async () => {
  for (const [a, b] of [
    ['dog bites man', 'man bites dog'],
    ['the cat sat', 'sat the cat'],
    ['alpha beta gamma delta', 'delta gamma beta alpha'],
  ]) {
    await setControl('order-blindness', 'a', a);
    await setControl('order-blindness', 'b', b);
    const { shown, engine } = await page.evaluate(
      ([sa, sb]) => ({
        shown: window.positionalCharts.mounted.get('order-blindness').values,
        engine: window.positionalLesson.engine.orderSimilarities(sa, sb),
      }),
      [a, b],
    );
    assert.deepEqual(shown, engine);
    const text = await page.locator('[data-chart="order-blindness"] .chart-description').textContent();
    assert.ok(text.includes(engine.rope.toFixed(3).replace('-', '\u2212')), text);
  }
  // The lesson's pair: no positions gives exactly 1.000.
  await setControl('order-blindness', 'a', 'dog bites man');
  await setControl('order-blindness', 'b', 'man bites dog');
  const text = await page.locator('[data-chart="order-blindness"] .chart-description').textContent();
  assert.ok(text.includes(`${say('no positions')} 1.000`), text);
});

test('PNG export is a PNG; CSV numbers equal the engine', async () => {
  const exported = (id, kind) =>
    downloadOf(page, () => page.locator(`[data-chart="${id}"] [data-export="${kind}"]`).click());
  for (const id of ['sinusoidal-heatmap', 'alibi', 'context-extension']) {
    const png = await exported(id, 'png');
    assert.deepEqual([...png.bytes.subarray(0, 8)], [137, 80, 78, 71, 13, 10, 26, 10], `${id}: not a PNG`);
    assert.equal(png.filename, `${id}.png`);
  }
  await setControl('sinusoidal-heatmap', 'd', '8');
  await setControl('sinusoidal-heatmap', 'n', '30');
  const text = (await exported('sinusoidal-heatmap', 'csv')).bytes.toString('utf8');
  const rows = text
    .trim()
    .split('\n')
    .slice(1)
    .map((line) => line.split(',').slice(1).map(Number));
  const expected = await page.evaluate(() =>
    Array.from(window.positionalLesson.engine.sinusoidalEncoding(30, 8, 10000).data),
  );
  assert.deepEqual(rows.flat(), expected); // exact: the CSV writes every double in full
  const alibiRows = (await exported('alibi', 'csv')).bytes.toString('utf8').trim().split('\n');
  const state = await page.evaluate(() => window.positionalCharts.mounted.get('alibi').state);
  const decay = await page.evaluate(
    (s) => Array.from(window.positionalLesson.engine.ropeDecayCurve(s.d, s.base, s.distance)),
    state,
  );
  assert.deepEqual(
    alibiRows.slice(1).map((line) => Number(line.split(',')[1])),
    decay,
  );
});

test('clamped input shows its message and raises no console error', async () => {
  // [chart, control, typed, the message (its English text and numbers), the value kept]
  const cases = [
    [
      'sinusoidal-heatmap',
      'd',
      '7',
      ['{label} must be even (dimensions come in pairs); using {value}.', { value: 8 }],
      '8',
    ],
    [
      'sinusoidal-heatmap',
      'base',
      '1',
      ['{label} must be greater than {above}; kept {value}.', { above: 1, value: '10,000' }],
      null,
    ],
    [
      'sinusoidal-heatmap',
      'n',
      '999999',
      ['{label} is at most {max}; using {value}.', { max: '4,096', value: '4,096' }],
      '4096',
    ],
    [
      'rope-frequencies',
      'd',
      '65',
      ['{label} must be even (dimensions come in pairs); using {value}.', { value: 66 }],
      '66',
    ],
    ['context-extension', 'd', '2', ['{label} must be at least {min}; using {value}.', { min: 4, value: 4 }], '4'],
    ['alibi', 'heads', '0', ['{label} must be at least {min}; using {value}.', { min: 1, value: 1 }], '1'],
  ];
  for (const [id, name, value, [message, params], shown] of cases) {
    const before = await page.locator(`[data-chart="${id}"] [data-control="${name}"]`).inputValue();
    await setControl(id, name, value);
    const note = await page.locator(`[data-chart="${id}"] [data-control="${name}"] ~ .chart-message`).textContent();
    const label = say(CHART_DECLARATIONS[id].controls[name].label);
    // Its numbers as the page prints them: grouped, in the page's language.
    assert.equal(note, say(message, { label, ...params }), `${id}.${name} = ${value}`);
    assert.equal(await page.locator(`[data-chart="${id}"] [data-control="${name}"]`).inputValue(), shown ?? before);
  }
  await setControl('order-blindness', 'a', '<img src=x onerror=alert(1)>');
  const injected = await page.evaluate(() => document.querySelector('[data-chart="order-blindness"] img'));
  assert.equal(injected, null);
  assert.deepEqual(problems, []);
});

// Records every fillText on a chart canvas that is squeezed (a maxWidth narrower than the text),
// cut (ending in "…": text fitting wraps or shrinks instead) or whose ink box (measureText's actual bounding box, through the current transform) leaves
// the canvas by more than a pixel.
function watchCanvasText() {
  const problems = [];
  window.__canvasTextProblems = problems;
  const original = CanvasRenderingContext2D.prototype.fillText;
  CanvasRenderingContext2D.prototype.fillText = function fillText(text, x, y, maxWidth) {
    const id = this.canvas.closest?.('[data-chart]')?.dataset.chart;
    if (id) {
      const m = this.measureText(text);
      if (maxWidth !== undefined && m.width > maxWidth + 0.5)
        problems.push({ id, text, kind: 'squeezed', width: m.width, maxWidth });
      if (String(text).endsWith('…')) problems.push({ id, text, kind: 'cut' });
      const t = this.getTransform();
      const corners = [
        [-m.actualBoundingBoxLeft, -m.actualBoundingBoxAscent],
        [m.actualBoundingBoxRight, -m.actualBoundingBoxAscent],
        [-m.actualBoundingBoxLeft, m.actualBoundingBoxDescent],
        [m.actualBoundingBoxRight, m.actualBoundingBoxDescent],
      ].map(([dx, dy]) => [t.a * (x + dx) + t.c * (y + dy) + t.e, t.b * (x + dx) + t.d * (y + dy) + t.f]);
      const xs = corners.map((c) => c[0]);
      const ys = corners.map((c) => c[1]);
      const slack = 1 * (window.devicePixelRatio || 1);
      if (
        Math.min(...xs) < -slack ||
        Math.max(...xs) > this.canvas.width + slack ||
        Math.min(...ys) < -slack ||
        Math.max(...ys) > this.canvas.height + slack
      ) {
        problems.push({
          id,
          text,
          kind: 'off the canvas',
          box: [Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)].map(Math.round),
          canvas: [this.canvas.width, this.canvas.height],
        });
      }
    }
    return maxWidth === undefined ? original.call(this, text, x, y) : original.call(this, text, x, y, maxWidth);
  };
}

/** In the page: each mounted chart's pixels as the reader sees them, hashed (FNV-1a), with how many differ from the corner's. */
async function chartPictures() {
  const api = window.positionalCharts;
  const out = {};
  for (const id of api.mounted.keys()) {
    let hash = 2166136261;
    let inked = 0;
    for (const { data } of await api.pixels(id)) {
      const words = new Uint32Array(data.buffer);
      for (let i = 0; i < words.length; i++) {
        hash = Math.imul(hash ^ words[i], 16777619) >>> 0;
        if (words[i] !== words[0]) inked++;
      }
    }
    out[id] = { hash, inked, offPage: api.mounted.get(id).paintedOffPage };
  }
  return out;
}

/** Waits until every declared chart has mounted: a count short of that compares pages mid-mount. */
const everyChartMounted = (page) =>
  page.waitForFunction((n) => window.positionalCharts?.mounted.size >= n, Object.keys(CHART_DECLARATIONS).length, {
    timeout: 30000,
  });

// The chart Worker runs each chart's own draw on a transferred canvas while the page lays the same
// draw out; where the page paints its own canvases (?paint=page) it runs that draw itself. The two
// must give the reader the same picture: every pixel of every chart, in both themes.
// WebKit paints on the page even when asked for the Worker (painter.js's isWebKit says why).
test('the chart Worker paints every chart as the page would, pixel for pixel, in light and dark', async () => {
  const width = ENGINE === 'webkit' ? WEBKIT_MIN_WIDTH : 360;
  const workerMode = ENGINE === 'webkit' ? 'page' : 'worker';
  const seen = {};
  for (const paint of ['worker', 'page']) {
    const narrow = await browser.newPage({ viewport: { width, height: 800 }, deviceScaleFactor: 2 });
    const errors = [];
    recordPageErrors(narrow, errors);
    narrow.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
    try {
      await narrow.goto(`${server.url}${PAGE}?charts=eager&paint=${paint}`);
      await everyChartMounted(narrow);
      const twoFrames = () =>
        narrow.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
      await narrow.evaluate(() => document.fonts.ready);
      await twoFrames();
      assert.equal(
        (await narrow.evaluate(() => window.positionalCharts.paintMode())).mode,
        paint === 'worker' ? workerMode : 'page',
      );
      seen[paint] = { light: await narrow.evaluate(chartPictures) };
      await narrow.evaluate(() => {
        document.documentElement.dataset.theme = 'dark';
      });
      await twoFrames();
      seen[paint].dark = await narrow.evaluate(chartPictures);
      assert.deepEqual(errors, [], `${paint}: no page errors`);
    } finally {
      await narrow.close();
    }
  }
  const ids = Object.keys(seen.worker.light).sort();
  assert.equal(ids.length, Object.keys(CHART_DECLARATIONS).length, 'every chart mounted');
  for (const id of ids) {
    assert.equal(seen.worker.light[id].offPage, workerMode === 'worker', `${id}: painted by the ${workerMode}`);
    assert.equal(seen.page.light[id].offPage, false, `${id}: painted on the page`);
    for (const theme of ['light', 'dark']) {
      const [worker, page] = [seen.worker[theme][id], seen.page[theme][id]];
      assert.ok(worker.inked > 1000, `${id} (${theme}): the Worker painted it (${worker.inked} pixels inked)`);
      assert.equal(worker.hash, page.hash, `${id} (${theme}): the Worker's pixels are the page's`);
    }
    assert.notEqual(seen.worker.light[id].hash, seen.worker.dark[id].hash, `${id}: the dark theme repainted it`);
  }
});

test(
  'a host that will not serve the chart Worker’s script: every chart paints on the page',
  // Request interception: Playwright's (Chromium and Firefox); WebKit's WebDriver has none (the
  // single file, which has no Worker file, covers the page's painting there: page.test.mjs).
  { skip: ENGINE === 'webkit' && 'WebDriver cannot intercept requests' },
  async () => {
    const refused = await browser.newPage({ viewport: { width: 1100, height: 900 } });
    const errors = [];
    recordPageErrors(refused, errors);
    try {
      await refused.route('**/paint-worker.js', (route) => route.fulfill({ status: 404, body: 'not here' }));
      await refused.goto(`${server.url}${PAGE}?charts=eager&paint=worker`);
      await everyChartMounted(refused);
      assert.equal((await refused.evaluate(() => window.positionalCharts.paintMode())).mode, 'page');
      const pictures = await refused.evaluate(chartPictures);
      for (const [id, { offPage, inked }] of Object.entries(pictures)) {
        assert.equal(offPage, false, `${id}: painted on the page`);
        assert.ok(inked > 1000, `${id}: drawn (${inked} pixels inked)`);
      }
      // Firefox reports the refused script itself ("Loading Worker from …paint-worker.js was blocked
      // because of a disallowed MIME type"); nothing else may be reported.
      assert.deepEqual(
        errors.filter((e) => !/paint-worker\.js/.test(e)),
        [],
      );
    } finally {
      await refused.close();
    }
  },
);

test('no canvas text is squeezed, cut or runs off its canvas, at 360 and 1280 px', async () => {
  const narrow = await browser.newPage({ viewport: { width: 360, height: 800 }, deviceScaleFactor: 2 });
  const errors = [];
  recordPageErrors(narrow, errors);
  await narrow.addInitScript(watchCanvasText);
  await narrow.goto(
    `${server.url}${PAGE}?charts=eager&paint=page&order.a=the+quick+brown+fox+jumps+over+the+lazy+dog&order.b=dog+lazy+the+over+jumps+fox+brown+quick+the`,
  );
  await everyChartMounted(narrow);
  // MiniBrowser's window is never narrower than about 450 px (and WebDriver sets no device scale):
  // WebKit checks its narrowest width, 450 px, at its own pixel ratio.
  for (const width of ENGINE === 'webkit' ? [WEBKIT_MIN_WIDTH, 1280, 480] : [360, 1280, 480]) {
    await narrow.setViewportSize({ width, height: 800 });
    await narrow.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
    const found = await narrow.evaluate((ids) => {
      window.__canvasTextProblems.length = 0;
      // Redraw every chart at this width (a redraw after the resize already ran; this makes it certain).
      for (const id of ids) window.positionalCharts.mounted.get(id).update();
      return window.__canvasTextProblems.filter((p) => ids.includes(p.id));
    }, IDS);
    assert.deepEqual(found, [], `at ${width} px`);
  }
  // The long typed title fits (wrapped or shrunk) rather than being cut.
  const title = await narrow.evaluate(() => window.positionalCharts.mounted.get('order-blindness').state);
  assert.match(title.a, /quick brown fox/);
  assert.deepEqual(errors, []);
  await narrow.close();
});

// A legend label too long for its row wraps onto more lines (never "…"), and the canvas grows with
// its legend, title and labels so that no plot panel is squeezed under PLOT_FLOOR (the ALiBi legend
// was cut to "RoPE bound (RoFormer), d 128, relative…" at 360 px, and four legend rows left the
// context-extension wavelength plot 76 px tall at 320 px).
test('narrow screens: no legend label is cut and every plot panel keeps a readable height', async () => {
  const narrow = await browser.newPage({ viewport: { width: 360, height: 800 }, deviceScaleFactor: 2 });
  const errors = [];
  recordPageErrors(narrow, errors);
  await narrow.goto(`${server.url}${PAGE}?charts=eager`);
  await everyChartMounted(narrow);
  let alibiLines = 0;
  for (const width of ENGINE === 'webkit' ? [WEBKIT_MIN_WIDTH] : [320, 360]) {
    await narrow.setViewportSize({ width, height: 800 });
    await narrow.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
    const drawn = await narrow.evaluate(() =>
      [...window.positionalCharts.mounted].map(([id, chart]) => {
        chart.update();
        return [id, chart.drawn];
      }),
    );
    for (const [id, canvases] of drawn) {
      assert.ok(Array.isArray(canvases) && canvases.every(Boolean), `${id} reports what it laid out at ${width} px`);
      canvases.forEach(({ height, panels, legends: drawnLegends }, index) => {
        for (const panel of panels)
          assert.ok(
            panel.h >= PLOT_FLOOR,
            `${id} canvas ${index} at ${width} px: a plot ${panel.h} px tall (canvas ${height})`,
          );
        for (const legend of drawnLegends) {
          const cut = legend.items.filter((item) => item.cut).map((item) => item.lines.join(' / '));
          assert.deepEqual(cut, [], `${id} canvas ${index} at ${width} px: legend labels cut`);
          assert.ok(
            legend.y + legend.h <= height + 1,
            `${id} canvas ${index} at ${width} px: the legend runs off the canvas`,
          );
        }
      });
    }
    // The band of angles seen in training is an eighth of the angle plot's height at the default
    // stretch: that plot keeps 180 px or more on a phone (236 in Chromium, 195 in Firefox, whose
    // legend rows are taller), so the band is over 20 px, not a sliver.
    const angles = drawn.find(([id]) => id === 'context-extension')[1][0].panels[0];
    if (width >= 360) assert.ok(angles.h >= 180, `context-extension's angle plot is ${angles.h} px at ${width} px`);
    // The ALiBi legend's long RoPE label wraps at a phone width (so the checks above saw a wrapped label).
    alibiLines = Math.max(alibiLines, drawn.find(([id]) => id === 'alibi')[1][1].legends[0].items[0].lines.length);
  }
  // (The English label; the Chinese one is short enough for one line at 320 px.)
  if (ENGINE !== 'webkit' && LANG === 'en') assert.ok(alibiLines >= 2, `the ALiBi legend's RoPE label never wrapped`);
  assert.deepEqual(errors, []);
  await narrow.close();
});

// A canvas whose height changes gets a new bitmap and moves the text below it. Precision's legend
// names each pair with its θ, and a pair beyond d/2 − 1 drops out (63 needs d ≥ 128): the legend
// keeps room for every pair typed, so stepping d by its arrow key leaves the canvas its size.
test('precision: stepping d by keyboard leaves the canvas its size at a phone width', async () => {
  const narrow = await browser.newPage({
    viewport: { width: ENGINE === 'webkit' ? WEBKIT_MIN_WIDTH : 360, height: 800 },
  });
  const errors = [];
  recordPageErrors(narrow, errors);
  await narrow.goto(`${server.url}${PAGE}?precision.d=122#fig-precision`);
  await narrow.waitForFunction(() => window.positionalCharts?.mounted.get('precision')?.drawn?.[0], null, {
    timeout: 30000,
  });
  const size = () =>
    narrow.evaluate(async () => {
      await new Promise((done) => requestAnimationFrame(() => setTimeout(done)));
      const canvas = document.querySelector('[data-chart="precision"] canvas');
      const picture = await window.positionalCharts.canvasPixels(canvas);
      return `${picture.width}×${picture.height} ${canvas.style.height}`;
    });
  const d = narrow.locator('[data-chart="precision"] [data-control="d"]');
  await d.focus();
  const first = await size();
  const seen = [];
  // 122 → 132: past 128, where pair 63 joins the legend, and θ's digits change at every step.
  for (let i = 0; i < 5; i++) {
    await narrow.keyboard.press('ArrowUp');
    seen.push(await size());
  }
  assert.equal(await d.inputValue(), '132');
  const pairs = await narrow.evaluate(() => window.positionalCharts.mounted.get('precision').state.pairs);
  assert.equal(pairs, '1,16,32,63', 'the default pairs, 63 among them');
  assert.deepEqual(seen, Array(seen.length).fill(first));
  assert.deepEqual(errors, []);
  await narrow.close();
});

test('descriptions, notes and tables use the page number format', async () => {
  await setControl('rope-relative', 'base', '10000');
  await setControl('rope-relative', 's2', '1000');
  const texts = await page.evaluate(
    (ids) =>
      ids.flatMap((id) =>
        [...document.querySelectorAll(`[data-chart="${id}"] .chart-description, [data-chart="${id}"] .chart-note`)].map(
          (el) => [id, el.textContent],
        ),
      ),
    IDS,
  );
  for (const [id, text] of texts) {
    assert.doesNotMatch(text, /(^|[\s(=:,])-\d/, `${id}: ASCII hyphen as a minus sign in "${text}"`);
    assert.doesNotMatch(
      text,
      /(^|[^\d,.])\d{4,}(?![\d,])/,
      `${id}: a number of four or more digits without thousands separators in "${text}"`,
    );
    assert.doesNotMatch(text, /\de[+-]\d/, `${id}: computer exponent notation in "${text}"`);
  }
  const relative = texts.find(([id]) => id === 'rope-relative')[1];
  const list = new Intl.ListFormat(LANG, { type: 'conjunction', style: 'narrow' }).format(['0', '100', '1,000']);
  assert.equal(list, LANG === 'en' ? '0, 100, 1,000' : list);
  assert.ok(relative.includes(list), `the three starts, "${list}", in "${relative}"`);
  assert.ok(relative.includes('10,000'), relative);
  if (LANG === 'en') assert.match(relative, /queries at 0, 100, 1,000 .* base 10,000/);
  // The Data table: headers and cells in the page format (true minus signs); the CSV keeps plain numbers.
  const details = page.locator('[data-chart="rope-relative"] details.chart-data');
  await details.locator('summary').click();
  // The table is filled by the Data view's toggle event, which runs after the click returns.
  await page.waitForFunction(
    () => document.querySelectorAll('[data-chart="rope-relative"] .chart-table thead th').length > 0,
    null,
    { timeout: 10000 },
  );
  const table = await page.evaluate(() => ({
    head: [...document.querySelectorAll('[data-chart="rope-relative"] .chart-table thead th')].map(
      (th) => th.textContent,
    ),
    cells: [...document.querySelectorAll('[data-chart="rope-relative"] .chart-table tbody td')].map(
      (td) => td.textContent,
    ),
  }));
  assert.deepEqual(table.head, [
    say('distance'),
    ...['0', '100', '1,000'].map((start) => say('start {start}', { start })),
  ]);
  assert.ok(
    table.cells.some((c) => c.startsWith('\u2212')),
    'some score is negative',
  );
  assert.ok(
    table.cells.every((c) => !c.includes('-')),
    table.cells.find((c) => c.includes('-')),
  );
  await details.locator('summary').click();
});

test('heatmap: hover reads the engine’s value for that cell; drags recompute once per frame', async () => {
  await setControl('sinusoidal-heatmap', 'd', '64');
  await setControl('sinusoidal-heatmap', 'n', '1000');
  const canvas = page.locator('[data-chart="sinusoidal-heatmap"] canvas').first();
  await canvas.scrollIntoViewIfNeeded();
  const box = await canvas.boundingBox();
  for (const [fx, fy] of [
    [0.3, 0.4],
    [0.5, 0.7],
    [0.2, 0.15],
  ]) {
    await page.mouse.move(box.x + box.width * fx, box.y + box.height * fy);
    const text = await page.locator('[data-chart="sinusoidal-heatmap"] .chart-readout').textContent();
    const m = parseReadout(text);
    assert.ok(m, `readout "${text}"`);
    const row = Number(m[0].replace(/,/g, ''));
    const col = Number(m[1]);
    const { full, cell } = await page.evaluate(
      ([r, c]) => {
        const table = window.positionalLesson.engine.sinusoidalEncoding(1000, 64, 10000);
        return {
          full: table.data[r * 64 + c],
          cell: window.positionalCharts.mounted.get('sinusoidal-heatmap').cellValue(r, c),
        };
      },
      [row, col],
    );
    // The angle p·ω rounds differently in the full table (angle addition) and the one-row
    // computation: 8 ulps of the largest angle (as tests/node/sampling.test.mjs).
    assert.ok(Math.abs(cell - full) <= 8 * 2 ** -53 * (row + 1), `cell (${row}, ${col}): ${cell} vs ${full}`);
    assert.equal(m[4], full.toFixed(4).replace('-', '\u2212'));
  }
  // Ten slider moves within one frame: no engine work while the events arrive, then one
  // recompute at the frame for the last value.
  const frames = await page.evaluate(async () => {
    const chart = window.positionalCharts.mounted.get('sinusoidal-heatmap');
    const shown = chart.values;
    const slider = document.querySelector('[data-chart="sinusoidal-heatmap"] [data-control="n-slider"]');
    for (let i = 0; i < 10; i++) {
      slider.value = String(900 + i);
      slider.dispatchEvent(new Event('input', { bubbles: true }));
    }
    const unchanged = chart.values === shown;
    await new Promise(requestAnimationFrame);
    const after = chart.values;
    return {
      unchanged,
      n: chart.state.n,
      last: after.positions[after.positions.length - 1],
      rows: after.rows,
      key: after.key,
    };
  });
  assert.equal(frames.unchanged, true, 'no recompute inside the input events');
  assert.equal(frames.n, 909);
  // The bottom pixel row shows a position within one pixel's worth of the last (908).
  assert.ok(
    frames.last <= 908 && frames.last >= 908 - Math.ceil(909 / frames.rows),
    `last shown position ${frames.last}`,
  );
  assert.match(frames.key, /^909\|64\|10000\|/);
});

test('heatmap: the readout is reachable and usable from the keyboard, and announced', async () => {
  // The pointer leaves the heatmap first (the test before hovers it): Firefox re-reads a resting
  // pointer's hover when the picture under it is redrawn, and the reader here uses keys alone.
  await page.mouse.move(0, 0);
  await setControl('sinusoidal-heatmap', 'd', '64');
  await setControl('sinusoidal-heatmap', 'n', '200');
  const canvas = page.locator('[data-chart="sinusoidal-heatmap"] canvas').first();
  const readout = page.locator('[data-chart="sinusoidal-heatmap"] .chart-readout');
  assert.equal(await readout.getAttribute('aria-live'), 'polite');
  // The last stop of the controls row is the sweep's Play button; the next is the heatmap itself.
  await page.locator('[data-chart="sinusoidal-heatmap"] [data-control="play"]').focus();
  await page.keyboard.press('Tab');
  assert.equal(await canvas.evaluate((c) => document.activeElement === c), true, 'Tab reaches the heatmap');
  const read = async () =>
    parseReadout(await readout.textContent())
      ?.slice(0, 2)
      .map((v) => Number(v.replace(/,/g, '')));
  assert.deepEqual(await read(), [0, 0], 'focus reads the first cell');
  for (const [key, want] of [
    ['ArrowRight', [0, 1]],
    ['ArrowDown', [1, 1]],
    ['PageDown', [11, 1]],
    ['End', [11, 63]],
    ['ArrowRight', [11, 63]],
    ['Home', [11, 0]],
    ['PageUp', [1, 0]],
    ['ArrowUp', [0, 0]],
    ['ArrowUp', [0, 0]],
  ]) {
    await page.keyboard.press(key);
    assert.deepEqual(await read(), want, key);
  }
  await page.keyboard.press('End');
  await page.keyboard.press('PageDown');
  const [row, col] = await read();
  const { full, text } = await page.evaluate(
    ([r, c]) => ({
      full: window.positionalLesson.engine.sinusoidalEncoding(200, 64, 10000).data[r * 64 + c],
      text: document.querySelector('[data-chart="sinusoidal-heatmap"] .chart-readout').textContent,
    }),
    [row, col],
  );
  assert.ok(text.endsWith(full.toFixed(4).replace('-', '\u2212')), `${text} vs ${full}`);
});

// A hand dragged by the pointer turns by any angle, but the clock has only whole positions: the
// hand lands on them (a drag once left m at 7.96). Dragged in small steps a third of a turn round.
test('the RoPE clock: a hand dragged by the pointer lands on whole positions', async () => {
  await setControl('rope-clock', 'm', '3');
  await setControl('rope-clock', 'n', '7');
  const clock = page.locator('[data-chart="rope-clock"] canvas');
  await clock.scrollIntoViewIfNeeded();
  const box = await clock.boundingBox();
  const { face, state } = await page.evaluate(() => {
    const chart = window.positionalCharts.mounted.get('rope-clock');
    return { face: chart.face(), state: chart.state };
  });
  // The q hand (0.75 of the radius) at m·θ rad, y up; pressed at 0.6 of the radius on it.
  const at = (angle, f = 0.6) => [
    box.x + face.cx + f * face.r * Math.cos(angle),
    box.y + face.cy - f * face.r * Math.sin(angle),
  ];
  const start = state.m * state.theta;
  await page.mouse.move(...at(start));
  await page.mouse.down();
  const seen = [];
  for (let i = 1; i <= 12; i++) {
    await page.mouse.move(...at(start + (i * 2.1) / 12));
    seen.push(await page.evaluate(() => window.positionalCharts.mounted.get('rope-clock').state.m));
  }
  await page.mouse.up();
  assert.ok(
    seen.every((m) => Number.isInteger(m)),
    `every position on the way is whole: ${seen}`,
  );
  assert.equal(seen.at(-1), 5, 'a turn of 2.1 rad at θ = 1 is two positions on');
  assert.equal(await page.locator('[data-chart="rope-clock"] [data-control="m"]').inputValue(), '5');
  assert.deepEqual(problems, []);
});

// WCAG 2.5.7: the hands turn without a drag too, by − and + beside m and n (a click each).
test('the RoPE clock: − and + beside m and n turn a hand, one position a click', async () => {
  await setControl('rope-clock', 'm', '3');
  await setControl('rope-clock', 'n', '7');
  const slot = page.locator('[data-chart="rope-clock"]');
  await slot.locator('button.chart-step[data-step="n:down"]').click();
  await slot.locator('button.chart-step[data-step="m:up"]').click();
  await slot.locator('button.chart-step[data-step="m:up"]').click();
  const state = await page.evaluate(() => window.positionalCharts.mounted.get('rope-clock').state);
  assert.deepEqual([state.m, state.n], [5, 6]);
  assert.equal(await slot.locator('[data-control="m"]').inputValue(), '5');
  assert.equal(await slot.locator('[data-control="n"]').inputValue(), '6');
  // The clock's slider follows the hand last turned.
  assert.equal(await slot.locator('canvas[role="slider"]').getAttribute('aria-valuenow'), '5');
  const buttons = slot.locator('button.chart-step');
  assert.equal(await buttons.count(), 4, '− and + for each of m and n');
  for (let i = 0; i < 4; i++) {
    const { width, height } = await buttons.nth(i).boundingBox();
    assert.ok(width >= 24 && height >= 24, `a target of ${width} × ${height} px (WCAG 2.5.8: at least 24 × 24)`);
  }
  assert.deepEqual(problems, []);
});

test('the RoPE clock turns by keyboard', async () => {
  await setControl('rope-clock', 'm', '3');
  await setControl('rope-clock', 'n', '17');
  const clock = page.locator('[data-chart="rope-clock"] canvas');
  await clock.focus();
  const before = await fingerprint('rope-clock');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  const state = () => page.evaluate(() => window.positionalCharts.mounted.get('rope-clock').state);
  // The state follows each key at once; the canvas's ARIA values are written once per animation
  // frame (the kit's page writes), so they are read after the next frame.
  const nextFrame = () => page.evaluate(() => new Promise(requestAnimationFrame));
  assert.equal((await state()).m, 5);
  await nextFrame();
  assert.equal(await clock.getAttribute('aria-valuenow'), '5');
  assert.equal(await page.locator('[data-chart="rope-clock"] [data-control="m"]').inputValue(), '5');
  await page.keyboard.press('Enter'); // now the key hand
  await page.keyboard.press('PageDown');
  await page.keyboard.press('ArrowLeft');
  assert.deepEqual([(await state()).m, (await state()).n], [5, 6]);
  await nextFrame();
  assert.equal(await clock.getAttribute('aria-valuetext'), say('key hand k at position {position}', { position: '6' }));
  await nextFrame();
  const after = await fingerprint('rope-clock');
  assert.notEqual(after.hash, before.hash);
  assert.match(after.description, LANG === 'en' ? /k at position 6\b/ : /6/);
  assert.deepEqual(problems, []);
});
