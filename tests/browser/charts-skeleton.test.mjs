// The chart skeleton (web/js/chart-kit/define-chart.js) against the built site: a chart's parts are
// recomputed only when the state keys they read change (counted through a spy engine: a Proxy over
// an empty object that forwards to the page's engine and counts each call), drawing never calls the engine, and the contract object
// (set through the controls' rules, highlight of a named part, the chart-part event on pointer and
// focus) behaves as index.js and the prose expect.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { answerLabPrediction, chartDefinitions, launchBrowser, recordPageErrors } from './helpers.mjs';

const DEFINITIONS = await chartDefinitions();

const dist = process.env.POSITIONAL_DIST ?? new URL('../../dist/', import.meta.url).pathname;

let browser;
let server;
let page;
const problems = [];

before(async () => {
  const { startServer } = await import('../../web/site-builder/serve.mjs');
  server = await startServer({ root: dist, port: 0 });
  browser = await launchBrowser();
  page = await browser.newPage({ viewport: { width: 1100, height: 900 } });
  page.on('console', (m) => m.type() === 'error' && problems.push(m.text()));
  recordPageErrors(page, problems);
  await page.goto(server.url);
  await page.waitForFunction(() => window.positionalLesson?.engine !== undefined, null, { timeout: 30000 });
  // A second copy of every chart, mounted at the top of the page on a spy engine.
  await page.evaluate(
    async (ids) => {
      window.engineCalls = {};
      const real = window.positionalLesson.engine;
      // The engine is frozen: the Proxy's target is an empty object and every read goes to the real one.
      const spy = new Proxy(
        {},
        {
          get(_, name) {
            const value = real[name];
            if (typeof value !== 'function') return value;
            return (...args) => {
              window.engineCalls[name] = (window.engineCalls[name] ?? 0) + 1;
              return value.apply(real, args);
            };
          },
        },
      );
      window.spyCharts = {};
      // The model card reads configs with the engine's model-config reader, where that is a module loaded on demand.
      await real.loadModelConfigReader?.();
      for (const id of ids) {
        const path = `./js/charts/${id}.js`;
        const definition = Object.values(await import(path)).find((v) => v?.create && v.id === id);
        const slot = document.createElement('figure');
        slot.className = 'chart-slot';
        slot.dataset.spy = id;
        slot.style.width = '900px';
        document.body.prepend(slot);
        window.spyCharts[id] = definition.create(slot, spy);
      }
    },
    DEFINITIONS.map((d) => d.id),
  );
  // The lab's figures (the page's and the spy's) draw its recorded results once its prediction is answered.
  await answerLabPrediction(page);
});

after(async () => {
  await browser?.close();
  await server?.close();
});

const calls = () => page.evaluate(() => ({ ...window.engineCalls }));
const resetCalls = () => page.evaluate(() => (window.engineCalls = {}));

/** Types `value` into the spy chart's control `key` as a reader would, and commits it with Enter. */
async function type(id, key, value) {
  const input = page.locator(`[data-spy="${id}"] [data-control="${key}"]`);
  await input.click();
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.type(String(value));
  await page.keyboard.press('Enter');
}

test('ALiBi: a change of heads recomputes the slopes and bias, never the RoPE decay curve', async () => {
  await resetCalls();
  await type('alibi', 'heads', 12);
  assert.equal(await page.evaluate(() => window.spyCharts.alibi.state.heads), 12);
  const heads = await calls();
  // Each keystroke that makes a valid count ("1", then "12") is a change: slopes once per change.
  assert.equal(heads.alibiSlopes, 2, 'slopes once per accepted head count');
  assert.equal(heads.alibiBias, heads.alibiSlopes, 'bias follows the slopes');
  assert.equal(heads.ropeDecayCurve ?? 0, 0, 'the decay curve does not read heads');

  await resetCalls();
  await type('alibi', 'd', 64);
  const d = await calls();
  assert.equal(d.ropeDecayCurve, 2, 'd is an input of the decay curve ("6", then "64")');
  assert.equal(d.alibiSlopes ?? 0, 0, 'slopes do not read d');
  assert.equal(d.alibiBias ?? 0, 0, 'bias does not read d');

  await resetCalls();
  await type('alibi', 'head', 3);
  const head = await calls();
  assert.deepEqual(head, { alibiBias: 1 }, 'only the bias of the head shown');
});

test('rope-relative: a query start recomputes only the scores; the seed redraws q, k and the scores', async () => {
  await resetCalls();
  await type('rope-relative', 's1', 7);
  assert.deepEqual(await calls(), { ropeScoresOverDistance: 1 }, 'q and k do not read the query starts');
  await resetCalls();
  await page.locator('[data-spy="rope-relative"] [data-control="new-qk"]').click();
  assert.equal(await page.evaluate(() => window.spyCharts['rope-relative'].state.seed), 1);
  assert.deepEqual(await calls(), { standardNormal: 1, ropeScoresOverDistance: 1 });
});

test('order-blindness: the similarities are computed once per change of either sentence', async () => {
  await resetCalls();
  await page.locator('[data-spy="order-blindness"] [data-control="reverse"]').click();
  const shown = await page.evaluate(() => window.spyCharts['order-blindness'].state);
  assert.equal(shown.b, 'man bites dog', 'B is A reversed');
  // The reversal of the default A is the default B: no change, no engine call.
  assert.deepEqual(await calls(), {});
  await page.evaluate(() => window.spyCharts['order-blindness'].set({ b: 'bites man dog' }));
  assert.deepEqual(await calls(), { orderSimilarities: 1 });
  await resetCalls();
  await page.evaluate(() => window.spyCharts['order-blindness'].highlight('sentence-b'));
  assert.deepEqual(await calls(), {}, 'highlight redraws from the data');
  await page.evaluate(() => window.spyCharts['order-blindness'].highlight(null));
});

test('precision: the largest position resamples positions and errors; a dropped pair is noted', async () => {
  await resetCalls();
  const shown = await page.evaluate(() => {
    const chart = window.spyCharts.precision;
    chart.set({ pairs: '1, 16, 99' });
    return chart.values.theta.length;
  });
  assert.equal(shown, 2, '99 is beyond d/2 − 1 = 63');
  // The sampled curves and the marked position's errors both read the pairs.
  assert.deepEqual(await calls(), { float32AngleErrors: 2 });
  assert.match(
    await page.locator('[data-spy="precision"] [data-control="pairs"] ~ .chart-message').textContent(),
    /Ignored 99: pairs are whole numbers from 0 to 63/,
  );
  await resetCalls();
  await page.evaluate(() => window.spyCharts.precision.set({ max: 2048 }));
  // The curves resample; the marked position (65,536) is held to the new largest, so it is read again.
  assert.deepEqual(await calls(), { float32AngleErrors: 2 });
  await resetCalls();
  await page.evaluate(() => window.spyCharts.precision.set({ position: 100 }));
  assert.deepEqual(await calls(), { float32AngleErrors: 1 }, 'moving the marked position reads only it');
  await page.evaluate(() => window.spyCharts.precision.set({ max: 1048576, pairs: '1,16,32,63', position: 65536 }));
});

test('attention-weights: the causal mask recomputes both matrices once; an over-long sentence calls nothing', async () => {
  await resetCalls();
  await page.locator('[data-spy="attention-weights"] [data-control="causal"]').click();
  assert.deepEqual(await calls(), { demoAttention: 2, reversalPermutation: 1, maxPermutedDifference: 1 });
  await resetCalls();
  const shown = await page.evaluate(() => {
    const chart = window.spyCharts['attention-weights'];
    chart.set({ sentence: 'a b c d e f g h i j k l m' });
    return chart.values.forward;
  });
  assert.equal(shown, null);
  assert.deepEqual(await calls(), {});
  assert.match(
    await page.locator('[data-spy="attention-weights"] .chart-message').first().textContent(),
    /At most 12 words fit this chart; you typed 13\./,
  );
  await page.evaluate(() => window.spyCharts['attention-weights'].set({ sentence: 'dog bites man', causal: false }));
});

test('context-extension: a target below the trained length is raised to it; each length reaches both parts', async () => {
  await resetCalls();
  const shown = await page.evaluate(() => {
    const chart = window.spyCharts['context-extension'];
    chart.set({ target: 1024 });
    return { target: chart.state.target, message: chart.controls.target.message() };
  });
  assert.equal(shown.target, 4096);
  assert.match(shown.message, /at least the trained length; using 4,096/);
  const raised = await calls();
  assert.equal(raised.extensionCurves, 1);
  assert.equal(raised.extensionInverseFrequencies, 1);
  assert.equal(raised.pairWavelengths, 5, 'one per method');
  await page.evaluate(() => window.spyCharts['context-extension'].set({ target: 32768 }));
});

test('conventions: the query position recomputes only the comparison; d draws q, k again', async () => {
  await resetCalls();
  await type('conventions', 'start', 7);
  assert.deepEqual(await calls(), { compareRopeConventions: 1 }, 'q and k do not read the query position');
  assert.equal(await page.evaluate(() => window.spyCharts.conventions.state.start), 7);
  await resetCalls();
  await page.evaluate(() => window.spyCharts.conventions.set({ d: 8 }));
  assert.deepEqual(await calls(), { standardNormal: 1, compareRopeConventions: 1 });
  assert.equal(await page.evaluate(() => window.spyCharts.conventions.values.permutation.length), 8);
  await page.evaluate(() => window.spyCharts.conventions.set({ d: 16, start: 100 }));
});

test('rope-clock: one reading per accepted change, by the fields, the keys and a dragged hand', async () => {
  const clock = page.locator('[data-spy="rope-clock"] canvas');
  await resetCalls();
  await type('rope-clock', 'theta', 0.5);
  // "0" is refused (θ must be above 0), "0." is the same number, "0.5" is the one change.
  assert.deepEqual(await calls(), { ropeClock: 1 });
  await page.evaluate(() => window.spyCharts['rope-clock'].set({ theta: 1 }));
  await resetCalls();
  await page.locator('[data-spy="rope-clock"] [data-control="preset-103-107"]').click();
  assert.deepEqual(await calls(), { ropeClock: 2 }, 'the preset sets m, then n, each through its control');
  await resetCalls();
  await clock.focus();
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('Enter'); // to the k hand: a redraw, no reading
  await page.keyboard.press('PageDown');
  assert.deepEqual(await calls(), { ropeClock: 2 });
  const afterKeys = await page.evaluate(() => window.spyCharts['rope-clock'].state);
  assert.deepEqual([afterKeys.m, afterKeys.n], [104, 97]);
  // The canvas's ARIA values are written once per animation frame: read after the next one.
  await page.evaluate(() => new Promise(requestAnimationFrame));
  assert.equal(await clock.getAttribute('aria-valuenow'), '97', 'the slider follows the selected hand');
  assert.equal(await clock.getAttribute('aria-valuetext'), 'key hand k at position 97');
  // Dragging the q hand a quarter turn back (clockwise): m falls by about π/2 / θ.
  await page.evaluate(() => window.spyCharts['rope-clock'].set({ m: 10, n: 2 }));
  await clock.scrollIntoViewIfNeeded();
  const box = await clock.boundingBox();
  const tip = await page.evaluate(() => window.spyCharts['rope-clock'].tipOf('query'));
  const centre = await page.evaluate(() => window.spyCharts['rope-clock'].face());
  await page.mouse.move(box.x + tip.x, box.y + tip.y);
  await page.mouse.down();
  const reach = tip.x - centre.cx;
  for (const step of [1, 2, 3, 4]) {
    const a = (-step * Math.PI) / 8;
    await page.mouse.move(box.x + centre.cx + reach * Math.cos(a), box.y + centre.cy - reach * Math.sin(a));
  }
  await page.mouse.up();
  const dragged = await page.evaluate(() => window.spyCharts['rope-clock'].state);
  // 10 − π/2 at θ = 1, and positions on the clock are whole numbers: the nearest is 8.
  assert.equal(dragged.m, Math.round(10 - Math.PI / 2), `m after the drag: ${dragged.m}`);
  assert.equal(dragged.n, 2, 'the k hand stays');
  await page.evaluate(() => window.spyCharts['rope-clock'].set({ m: 3, n: 7 }));
});

test('model-card: one reading per change of the config or the prompt; a preset fills the box', async () => {
  await resetCalls();
  await page.locator('[data-spy="model-card"] select[data-control="preset"]').selectOption('llama-2-7b');
  assert.deepEqual(await calls(), { readModelConfig: 1 }, 'the preset’s text, read once');
  const box = page.locator('[data-spy="model-card"] textarea');
  assert.match(await box.inputValue(), /"max_position_embeddings": 4096/);
  await resetCalls();
  await page.evaluate(() => window.spyCharts['model-card'].set({ prompt: 1000 }));
  assert.deepEqual(await calls(), { readModelConfig: 1 });
  await resetCalls();
  // Typing waits for a pause; the Analyse button reads at once, and once.
  await box.click();
  await page.keyboard.press('End');
  await page.keyboard.type(' ');
  await page.locator('[data-spy="model-card"] [data-control="analyse"]').click();
  assert.deepEqual(await calls(), { readModelConfig: 1 });
  assert.equal(
    await page.evaluate(() => window.spyCharts['model-card'].state.preset),
    'custom',
    'an edited box is your config',
  );
  await page.waitForTimeout(400); // past the pause: nothing more to read
  assert.deepEqual(await calls(), { readModelConfig: 1 });
  await resetCalls();
  await page.evaluate(() => window.spyCharts['model-card'].set({ preset: 'llama-2-7b', prompt: 32768 }));
  assert.deepEqual(await calls(), { readModelConfig: 2 }, 'the preset’s text, then the prompt');
  assert.equal(await page.evaluate(() => window.spyCharts['model-card'].values.beyondCount > 0), true);
});

test('drawing never calls the engine: theme and highlight redraw from the data; a resize only where a part reads the size', async () => {
  await resetCalls();
  await page.evaluate(async () => {
    const frames = () => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
    document.documentElement.dataset.theme = 'dark';
    for (const chart of Object.values(window.spyCharts)) chart.highlight(chart.parts[0]);
    await frames();
    for (const chart of Object.values(window.spyCharts)) chart.highlight(null);
    delete document.documentElement.dataset.theme;
    await frames();
  });
  assert.deepEqual(await calls(), {}, 'theme and highlight');
  for (const chart of DEFINITIONS) {
    await resetCalls();
    await page.evaluate(async (id) => {
      const slot = document.querySelector(`[data-spy="${id}"]`);
      for (const width of ['420px', '900px']) {
        slot.style.width = width;
        await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
      }
    }, chart.id);
    const made = await calls();
    if (!chart.readsSize) assert.deepEqual(made, {}, `${chart.id} resized`);
    // The sinusoidal heatmap samples as many rows as the plot has device pixels: a call per size.
    else
      assert.ok(
        Object.values(made).every((n) => n <= 2),
        `${chart.id} resized twice: ${JSON.stringify(made)}`,
      );
  }
  assert.ok(
    DEFINITIONS.filter((c) => c.readsSize).length < DEFINITIONS.length,
    'most charts draw any size from their data',
  );
});

test('set() goes through the control’s own rules: out of range is clamped with its message', async () => {
  const shown = await page.evaluate(() => {
    const chart = window.spyCharts.alibi;
    chart.set({ heads: 0 });
    return { heads: chart.state.heads, message: chart.controls.heads.message() };
  });
  assert.equal(shown.heads, 1);
  assert.match(shown.message, /at least 1/);
  await page.evaluate(() => window.spyCharts.alibi.set({ heads: 8, head: 1 }));
  await assert.rejects(
    page.evaluate(() => window.spyCharts.alibi.set({ nonsense: 1 })),
    /alibi: there is no control "nonsense"/,
  );
});

test('highlight(part) draws the part emphasised; an unknown part is an error naming the known ones', async () => {
  const pixels = (id) =>
    page.evaluate(async (chartId) => {
      let hash = 0;
      for (const c of document.querySelectorAll(`[data-spy="${chartId}"] canvas`)) {
        const { data } = await window.positionalCharts.canvasPixels(c);
        for (let i = 0; i < data.length; i += 16) hash = (hash * 31 + data[i] + 3 * data[i + 1]) >>> 0;
      }
      return hash;
    }, id);
  for (const { id, parts } of DEFINITIONS) {
    assert.ok(parts.length > 0, `${id} names the parts highlight() draws`);
    assert.deepEqual(await page.evaluate((c) => window.spyCharts[c].parts, id), parts);
    const plain = await pixels(id);
    for (const part of parts) {
      await page.evaluate(([c, p]) => window.spyCharts[c].highlight(p), [id, part]);
      assert.notEqual(await pixels(id), plain, `${id}: highlight('${part}') changes the picture`);
    }
    await page.evaluate((c) => window.spyCharts[c].highlight(null), id);
    assert.equal(await pixels(id), plain, `${id}: highlight(null) restores the picture`);
    await assert.rejects(
      page.evaluate((c) => window.spyCharts[c].highlight('nowhere'), id),
      // (Part names may hold regex characters: the length lab's "rope+pi".)
      new RegExp(
        `${id}: unknown part "nowhere" \\(known: ${parts.join(', ').replace(/[+.*?()[\]{}|^$\\]/g, '\\$&')}\\)`,
      ),
    );
  }
});

/**
 * Scrolls `canvas` into view and moves the pointer onto it at `at`, then to `away`: each { x, y } in
 * CSS px from the canvas's top-left corner, or a function of its bounding box giving one.
 */
async function pointAtThenAway(canvas, at, away = { x: 1, y: 1 }) {
  await canvas.scrollIntoViewIfNeeded();
  const box = await canvas.boundingBox();
  for (const point of [at, away]) {
    const { x, y } = typeof point === 'function' ? point(box) : point;
    await page.mouse.move(box.x + x, box.y + y);
  }
}

test('chart-part: the pointer over a part and the focus of its control announce it, leaving announces null', async () => {
  await page.evaluate(() => {
    document.activeElement?.blur();
    window.partEvents = [];
    document.addEventListener('chart-part', (e) => window.partEvents.push(e.detail));
  });
  // ALiBi: the bias matrix of the head shown is the 'head' part (right half of the top canvas).
  await pointAtThenAway(
    page.locator('[data-spy="alibi"] canvas').first(),
    (box) => ({ x: box.width * 0.75, y: box.height * 0.5 }),
    { x: 2, y: 2 },
  );
  // rope-frequencies: pair 0 (the fastest of 0,4,12,31) starts at angle 0 and turns by 1 rad a
  // position; near position 2 its line is at angle 2 while pair 31's is near 0.
  await pointAtThenAway(
    page.locator('[data-spy="rope-frequencies"] canvas').first(),
    await page.evaluate(() => window.spyCharts['rope-frequencies'].pointOf(0, 2)),
  );
  await page.locator('[data-spy="alibi"] [data-control="head"]').focus();
  await page.keyboard.press('Tab');
  // order-blindness: the title quotes sentence B at its end; focus on a field announces its sentence.
  const spans = await page.evaluate(() => window.spyCharts['order-blindness'].titleSpans());
  const b = spans['sentence-b'];
  await pointAtThenAway(
    page.locator('[data-spy="order-blindness"] canvas'),
    { x: (b.x0 + b.x1) / 2, y: (b.y0 + b.y1) / 2 },
    (box) => ({ x: 1, y: box.height - 1 }),
  );
  await page.locator('[data-spy="rope-relative"] [data-control="s0"]').focus();
  await page.keyboard.press('Tab'); // to s1: still a query position
  await page.locator('[data-spy="rope-relative"] [data-control="seed"]').focus();
  // context-extension: the wavelength chart's mark of the trained length.
  await pointAtThenAway(
    page.locator('[data-spy="context-extension"] canvas').nth(1),
    await page.evaluate(() => window.spyCharts['context-extension'].markOf('trained')),
  );
  // conventions: the diagram's wires are the permutation, and so is the d field that sets it.
  const band = await page.evaluate(() => window.spyCharts.conventions.wires());
  await pointAtThenAway(page.locator('[data-spy="conventions"] canvas').first(), {
    x: (band.left + band.right) / 2,
    y: (band.top + band.bottom) / 2,
  });
  await pointAtThenAway(
    page.locator('[data-spy="conventions"] canvas').nth(1),
    await page.evaluate(() => window.spyCharts.conventions.pointOf('unpermuted', 30)),
  );
  await page.locator('[data-spy="conventions"] [data-control="d"]').focus();
  // rope-clock: the q hand under the pointer; the θ field sets the angle between the hands.
  await pointAtThenAway(
    page.locator('[data-spy="rope-clock"] canvas'),
    await page.evaluate(() => window.spyCharts['rope-clock'].tipOf('query')),
    (box) => ({ x: box.width - 1, y: 1 }),
  );
  await page.locator('[data-spy="rope-clock"] [data-control="theta"]').focus();
  await page.locator('[data-spy="rope-clock"] [data-control="theta"]').blur();
  // model-card (Llama 2 at 32,768 tokens): the trained length's line, then the prompt field.
  await pointAtThenAway(
    page.locator('[data-spy="model-card"] canvas'),
    await page.evaluate(() => window.spyCharts['model-card'].lineOf('trained')),
  );
  await page.locator('[data-spy="model-card"] [data-control="prompt"]').focus();
  await page.locator('[data-spy="model-card"] [data-control="prompt"]').blur();
  const events = await page.evaluate(() => window.partEvents);
  assert.deepEqual(events, [
    { chart: 'alibi', part: 'head' },
    { chart: 'alibi', part: null },
    { chart: 'rope-frequencies', part: 'fastest-pair' },
    { chart: 'rope-frequencies', part: null },
    { chart: 'alibi', part: 'head' },
    { chart: 'alibi', part: null },
    { chart: 'order-blindness', part: 'sentence-b' },
    { chart: 'order-blindness', part: null },
    { chart: 'rope-relative', part: 'query' },
    { chart: 'rope-relative', part: null },
    { chart: 'rope-relative', part: 'query' },
    { chart: 'rope-relative', part: null },
    { chart: 'context-extension', part: 'trained' },
    { chart: 'context-extension', part: null },
    { chart: 'conventions', part: 'permutation' },
    { chart: 'conventions', part: null },
    { chart: 'conventions', part: 'unpermuted' },
    { chart: 'conventions', part: null },
    { chart: 'conventions', part: 'permutation' },
    { chart: 'conventions', part: null },
    { chart: 'rope-clock', part: 'query' },
    { chart: 'rope-clock', part: null },
    { chart: 'rope-clock', part: 'angle' },
    { chart: 'rope-clock', part: null },
    { chart: 'model-card', part: 'trained' },
    { chart: 'model-card', part: null },
    { chart: 'model-card', part: 'prompt' },
    { chart: 'model-card', part: null },
  ]);
  assert.deepEqual(problems, []);
});
