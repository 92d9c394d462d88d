// The prose's live parameters and figure links, used as a reader would: every {{param:…}} handle moved
// by real keys (arrows, Shift, Home/End) and by a real mouse drag, each time checking that the handle,
// every live number of its section (against the engine, window.positionalLesson.engine, computed here)
// and the section's figure (its state and its canvas pixels) move together; the reset button restores
// the lesson's exact text and the figure's exact pixels. Linked words highlight their chart part on
// hover and focus, a chart's chart-part event marks them, and both work for a chart mounted later.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { existsSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { answerLabPrediction, launchBrowser, mountAllCharts, openPage, singleFile } from './helpers.mjs';
import { startServer } from '../../web/site-builder/serve.mjs';

const dist = process.env.POSITIONAL_DIST ?? new URL('../../dist/', import.meta.url).pathname;

let server;
let browser;
let page;
let problems;
let handles;

/** In the page: tags every handle (data-qa-handle) and describes it. */
function describeHandles() {
  return [...document.querySelectorAll('[data-param]')].map((h, index) => {
    h.dataset.qaHandle = String(index);
    return { index, name: h.dataset.param, section: h.closest('section').id };
  });
}

/**
 * In the page: what handle `index` shows, whether every live number of its section matches the
 * engine for the section's parameters at `values`, and the section's figure state and pixels.
 */
async function readHandle({ index, values }) {
  // Every canvas's pixels, as the reader sees them, one after the other.
  const canvasBytes = async (slot) => {
    const pictures = [];
    for (const c of slot.querySelectorAll('canvas')) pictures.push(await window.positionalCharts.canvasPixels(c));
    const bytes = new Uint8Array(pictures.reduce((n, p) => n + p.data.length, 0));
    pictures.reduce((at, p) => (bytes.set(p.data, at), at + p.data.length), 0);
    return bytes;
  };
  const pixelDigest = async (slot) => {
    const digest = await crypto.subtle.digest('SHA-256', await canvasBytes(slot));
    return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
  };
  const live = await import('./js/prose/live-values.js');
  const { formatValue } = await import('./js/locale/format.js');
  const { chartParameters } = await import('./js/prose/prose-params.js');
  const engine = window.positionalLesson.engine;
  const handle = document.querySelector(`[data-qa-handle="${index}"]`);
  const section = handle.closest('section');
  const name = handle.dataset.param;
  // The section's state for `values` over what else the section holds: a view (the stretch) stored
  // as the parameter it moves, and a parameter held at or above another (the target above the
  // trained length) lifted to it.
  const scope = [...window.positionalLesson.prose.scopes.values()].find((s) => s.section === section);
  const others = Object.fromEntries(
    Object.entries(scope.values).filter(([n]) => n !== name && n !== live.LIVE_PARAMETERS[name].view?.of),
  );
  const p = { ...live.PARAMETER_DEFAULTS, ...others };
  for (const [n, v] of Object.entries(values)) {
    const stored = live.storedParameter(n, v, values);
    p[stored.name] = stored.value;
  }
  for (const [n, q] of Object.entries(live.LIVE_PARAMETERS))
    if (q.atLeast && p[n] < p[q.atLeast.name]) p[n] = p[q.atLeast.name];
  const stored = Object.fromEntries(Object.entries(p).filter(([n]) => !live.LIVE_PARAMETERS[n].view));
  const results = live.computeEngineResults(engine, stored);
  // A figure's caption follows the figure: its numbers are the engine's at the figure's state.
  const captionOf = (element) => element.closest('[data-chart] > figcaption')?.parentElement ?? null;
  const figureValues = (figure) => {
    const chart = window.positionalCharts.mounted.get(figure.dataset.chart);
    return chart ? chartParameters(figure.dataset.chart, chart.state) : {};
  };
  const wrong = [];
  const dependents = live.dependentsOf(name);
  let dependentCount = 0;
  for (const element of section.querySelectorAll('[data-live]')) {
    const figure = captionOf(element);
    let want;
    try {
      want = live.liveText(
        element.dataset.live,
        figure ? live.computeEngineResults(engine, figureValues(figure)) : results,
        element.dataset.format,
      );
    } catch {
      want = '—';
    }
    if (dependents.includes(element.dataset.live)) dependentCount++;
    if (element.textContent !== want)
      wrong.push(`${element.dataset.live}: shows ${element.textContent}, engine ${want}`);
  }
  // One dependent per family recomputed straight from the facade, not through the registry.
  // The text repeating a parameter (or the positions derived from it) follows too.
  for (const element of section.querySelectorAll('[data-echo]')) {
    const echo = live.PARAMETER_ECHOES[element.dataset.echo];
    const figure = captionOf(element);
    const want = formatValue(
      echo.value(figure ? { ...live.PARAMETER_DEFAULTS, ...figureValues(figure) } : p),
      echo.format,
    );
    if (element.textContent !== want)
      wrong.push(`echo ${element.dataset.echo}: shows ${element.textContent}, wants ${want}`);
  }
  const direct = {
    'interp.example-result': () =>
      formatValue(
        engine.interpolatePositions([p['extension.position']], p['extension.trained'], p['extension.target'])[0],
        live.LIVE_QUANTITIES['interp.example-result'].format,
      ),
    'ntk.base': () =>
      formatValue(
        engine.ntkScaledBase(p['extension.base'], p['extension.target'] / p['extension.trained'], p['extension.d']),
        'base',
      ),
    'rope.score-3-7': () =>
      formatValue(engine.ropeClock([1, 0], [1, 0], p['rope.query'], p['rope.key'], 1).score, 'fixed3'),
  };
  const facade = [];
  for (const [quantity, compute] of Object.entries(direct)) {
    if (!dependents.includes(quantity)) continue;
    for (const element of section.querySelectorAll(`[data-live="${quantity}"]:not([data-format])`))
      facade.push({ quantity, shown: element.textContent, engine: compute() });
  }
  const target = live.LIVE_PARAMETERS[name].chart;
  const slot = target && section.querySelector(`[data-chart="${target.id}"]`);
  const chart = slot && window.positionalCharts.mounted.get(target.id);
  await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
  const status = document.getElementById(handle.getAttribute('aria-describedby'));
  const reset = section.querySelector('.param-reset');
  return {
    text: handle.textContent,
    now: Number(handle.getAttribute('aria-valuenow')),
    valueText: handle.getAttribute('aria-valuetext'),
    expectedText: live.parameterText(name, values[name] ?? live.PARAMETER_DEFAULTS[name]),
    wrong,
    dependentCount,
    facade,
    status: status?.getAttribute('role') === 'status' ? status.textContent : null,
    resetShown: reset ? !reset.hidden : false,
    chart: chart ? { key: target.key, value: chart.state[target.key] } : null,
    pixels: slot ? await pixelDigest(slot) : null,
  };
}

/** The text of every number of a section (handles and live numbers), in order. */
const sectionText = (id) =>
  page.evaluate(
    (sectionId) =>
      [...document.getElementById(sectionId).querySelectorAll('[data-live], [data-param], [data-echo]')].map(
        (e) => e.textContent,
      ),
    id,
  );

const parameter = (name) =>
  page.evaluate(async (n) => (await import('./js/prose/live-values.js')).LIVE_PARAMETERS[n], name);

/** Checks handle `h` reads `value` and everything that depends on it agrees. */
async function expectMoved(h, value, { before, chart = true, why } = {}) {
  const state = await page.evaluate(readHandle, { index: h.index, values: { [h.name]: value } });
  const where = `${h.name} in #${h.section}`;
  assert.equal(state.now, value, `${where}: aria-valuenow`);
  assert.equal(state.text, state.expectedText, `${where}: its text`);
  assert.ok(state.valueText.startsWith(state.expectedText), `${where}: aria-valuetext ${state.valueText}`);
  assert.deepEqual(state.wrong, [], `${where}: live numbers of the section against the engine`);
  assert.ok(state.dependentCount > 0, `${where}: the section has numbers that read it`);
  for (const f of state.facade) assert.equal(f.shown, f.engine, `${where}: ${f.quantity} against the facade`);
  assert.ok(state.resetShown, `${where}: the reset button shows once a value moved`);
  if (why) assert.match(state.status, why, `${where}: the message beside the handle`);
  else assert.equal(state.status, '', `${where}: no message`);
  if (chart && state.chart) {
    assert.equal(state.chart.value, value, `${where}: the figure's ${state.chart.key} follows`);
    assert.notEqual(state.pixels, before.pixels, `${where}: the figure is redrawn`);
  }
  return state;
}

/** Checks the section reads exactly as the lesson again, and its figure is back pixel for pixel. */
async function expectDefault(h, before, text) {
  const state = await page.evaluate(readHandle, { index: h.index, values: {} });
  assert.deepEqual(await sectionText(h.section), text, `${h.name}: the section's text after reset`);
  assert.equal(state.resetShown, false, `${h.name}: the reset button hides`);
  assert.equal(state.status, '', `${h.name}: no message after reset`);
  if (state.chart) {
    assert.deepEqual(state.chart, before.chart, `${h.name}: the figure's control after reset`);
    assert.equal(state.pixels, before.pixels, `${h.name}: the figure's pixels after reset`);
  }
}

before(async () => {
  server = await startServer({ root: dist, port: 0 });
  browser = await launchBrowser();
  ({ page, problems } = await openPage(browser, server.url, { viewport: { width: 1280, height: 900 } }));
  await mountAllCharts(page);
  // The RoPE clock's first picture differs from a redraw of the same state (its first draw runs
  // before the page's fonts settle): redraw every figure once so "back to the lesson" compares alike.
  await page.evaluate(async () => {
    await document.fonts.ready;
    for (const chart of window.positionalCharts.mounted.values()) chart.update();
  });
  handles = await page.evaluate(describeHandles);
});

after(async () => {
  await browser?.close();
  await server?.close();
});

/** Handle `h` scrolled into view, with its parameter, its section's text and what it reads before a move. */
async function openHandle(h) {
  const p = await parameter(h.name);
  const text = await sectionText(h.section);
  const locator = page.locator(`[data-qa-handle="${h.index}"]`);
  await locator.scrollIntoViewIfNeeded();
  const before = await page.evaluate(readHandle, { index: h.index, values: {} });
  return { p, text, locator, before };
}

describe('live parameters in the prose', () => {
  test('the lesson has at least 8 distinct parameters, each a slider the keyboard reaches', async () => {
    const names = new Set(handles.map((h) => h.name));
    assert.ok(names.size >= 8, `parameters: ${[...names].join(', ')}`);
    const roles = await page.evaluate(() =>
      [...document.querySelectorAll('[data-param]')].map((h) => h.getAttribute('role')),
    );
    assert.ok(
      roles.every((r) => r === 'slider'),
      roles.join(', '),
    );
  });

  test('one tab stop per value of a section; the copy last used is the one Tab reaches', async () => {
    const stops = () =>
      page.evaluate(() => {
        const section = document.getElementById('extending-context');
        const all = [...section.querySelectorAll('[data-param]')];
        return {
          names: [...new Set(all.map((h) => h.dataset.param))],
          tabbable: all.filter((h) => h.tabIndex === 0).map((h) => h.dataset.param),
          copies: all.length,
        };
      });
    const { names, tabbable, copies } = await stops();
    // The landed page made all 15 copies of section 4's six values tab stops.
    assert.ok(copies > names.length, `${copies} copies of ${names.length} values`);
    assert.deepEqual(tabbable, names, 'one tab stop per value');
    // Moving a later copy by its − and + (a pointer that cannot drag) makes it the value's tab stop.
    const later = page.locator('#extending-context [data-param="extension.trained"]').nth(2);
    await later.scrollIntoViewIfNeeded();
    await later.click();
    const plus = page.locator('.param-steppers:not([hidden]) .param-step[data-step="up"]');
    const box = await plus.boundingBox();
    assert.ok(box.width >= 24 && box.height >= 24, `+ is ${box.width} × ${box.height} CSS px`);
    const before = await later.getAttribute('aria-valuenow');
    await plus.click();
    assert.ok(Number(await later.getAttribute('aria-valuenow')) > Number(before), '+ moves the value');
    assert.equal(await page.evaluate(() => document.activeElement.dataset.param), 'extension.trained', 'focus stays');
    const after = await page.evaluate(() =>
      [...document.querySelectorAll('#extending-context [data-param="extension.trained"]')].map((h) => h.tabIndex),
    );
    assert.deepEqual(after, [-1, -1, 0, -1]);
    await page.keyboard.press('ArrowLeft'); // the arrows still step it, through the same rule
    assert.equal(await later.getAttribute('aria-valuenow'), before);
    await page.evaluate(() => document.activeElement.blur());
    assert.equal(await page.locator('.param-steppers').isHidden(), true, '− and + leave with the focus');
  });

  test('every handle by keyboard: arrows, Shift, End (with its clamp message), Home, then reset', async (t) => {
    for (const h of handles) {
      await t.test(`${h.name} in #${h.section}`, async () => {
        const { p, text, locator, before } = await openHandle(h);
        // A parameter held at or below another (the position within the target) stops at that one's
        // value, and says so.
        const ceiling = p.atMost ? (await parameter(p.atMost.name)).value : Infinity;
        const stepTo = (value, options = {}) =>
          value > ceiling
            ? expectMoved(h, ceiling, { before, ...options, why: /at most/ })
            : expectMoved(h, value, { before, ...options });
        await locator.focus();
        await page.keyboard.press('ArrowRight');
        await stepTo(p.value + p.step);
        await page.keyboard.press('Shift+ArrowRight');
        await stepTo(Number((p.value + p.step + p.bigStep).toPrecision(12)));
        await page.keyboard.press('ArrowLeft');
        await stepTo(Math.min(ceiling, p.value + p.step + p.bigStep) - p.step);
        await page.keyboard.press('End');
        await page.keyboard.press('ArrowRight');
        await expectMoved(h, Math.min(p.max, ceiling), { before, chart: false, why: /at most/ });
        await page.keyboard.press('Home');
        // A parameter held at or above another stops at that one's value (the target at the trained length).
        const floor = p.atLeast ? (await parameter(p.atLeast.name)).value : -Infinity;
        if (floor > p.min) await expectMoved(h, floor, { before, chart: false, why: /at least/ });
        else await expectMoved(h, p.min, { before, chart: false });
        await page.locator(`#${h.section} .param-reset`).click();
        await expectDefault(h, before, text);
      });
    }
  });

  test('every handle by a pointer drag on the number, then reset from the keyboard', async (t) => {
    for (const h of handles) {
      await t.test(`${h.name} in #${h.section}`, async () => {
        const { p, text, locator, before } = await openHandle(h);
        const box = await locator.boundingBox();
        const [x, y] = [box.x + box.width / 2, box.y + box.height / 2];
        await page.mouse.move(x, y);
        await page.mouse.down();
        // 6 px per step (prose-params.js): 30 px right is 5 steps; then 60 px left of the start is −5.
        await page.mouse.move(x + 30, y, { steps: 6 });
        await expectMoved(h, Number((p.value + 5 * p.step).toPrecision(12)), { before });
        await page.mouse.move(x - 30, y + 4, { steps: 6 });
        await page.mouse.up();
        // A value near its least (the clock's query at 3, from 0) stops there, and says so.
        const back = Number((p.value - 5 * p.step).toPrecision(12));
        await expectMoved(h, Math.max(back, p.min), { before, ...(back < p.min ? { why: /at least/ } : {}) });
        await page.locator(`#${h.section} .param-reset`).focus();
        await page.keyboard.press('Enter');
        await expectDefault(h, before, text);
      });
    }
  });

  // Setting a canvas's font lays the page out (Chromium), so a step that wrote text after its
  // figure drew would be laid out twice in one frame. The recorder counts a draw at each font set on
  // a canvas in the page, drops the text changes made before it, and at the frame's ResizeObserver
  // moment (after its animation frames, before it is painted) keeps those made after it. It watches
  // the page painting its own canvases (?paint=page, as where there is no chart Worker): where the
  // Worker paints them, the page sets no canvas font at all.
  test('a step writes every word before its figure draws, so a frame lays the page out once', async () => {
    const { page, context } = await openPage(browser, `${server.url}?paint=page`, {
      viewport: { width: 1280, height: 900 },
    });
    await page.evaluate(describeHandles);
    await mountAllCharts(page);
    assert.equal((await page.evaluate(() => window.positionalCharts.paintMode())).mode, 'page');
    const followed = await page.evaluate(async () => {
      const { LIVE_PARAMETERS } = await import('./js/prose/live-values.js');
      const seen = new Set();
      return [...document.querySelectorAll('[data-param]')]
        .filter((h) => {
          const chart = LIVE_PARAMETERS[h.dataset.param]?.chart;
          const key = `${h.closest('section').id} ${h.dataset.param}`;
          if (!chart || seen.has(key) || !h.closest('section').querySelector(`[data-chart="${chart.id}"]`))
            return false;
          seen.add(key);
          return true;
        })
        .map((h) => h.dataset.qaHandle);
    });
    assert.ok(followed.length >= 4, `${followed.length} handles move a figure`);
    await page.evaluate(() => {
      const record = (window.__drawOrder = { draws: 0, afterDraw: [] });
      // Text changes since the last draw: delivered at each microtask checkpoint, or taken at a draw.
      let sinceDraw = [];
      const text = new MutationObserver((records) => sinceDraw.push(...records));
      text.observe(document.body, { subtree: true, childList: true, characterData: true });
      const font = Object.getOwnPropertyDescriptor(CanvasRenderingContext2D.prototype, 'font');
      window.__fontAccessor = font;
      window.__textWatch = text;
      const watch = new ResizeObserver(() => {
        watch.disconnect();
        for (const r of [...sinceDraw, ...text.takeRecords()])
          record.afterDraw.push(`${r.type} in ${r.target.parentElement?.className || r.target.nodeName}`);
        sinceDraw = [];
      });
      Object.defineProperty(CanvasRenderingContext2D.prototype, 'font', {
        ...font,
        set(value) {
          if (this.canvas.isConnected) {
            text.takeRecords();
            sinceDraw = [];
            record.draws++;
            watch.observe(document.body);
          }
          font.set.call(this, value);
        },
      });
    });
    try {
      for (const index of followed) {
        const handle = page.locator(`[data-qa-handle="${index}"]`);
        await handle.scrollIntoViewIfNeeded();
        await handle.focus();
        for (const key of ['ArrowRight', 'ArrowLeft']) {
          await page.evaluate(() => Object.assign(window.__drawOrder, { draws: 0, afterDraw: [] }));
          await page.keyboard.press(key);
          await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
          const { draws, afterDraw } = await page.evaluate(() => window.__drawOrder);
          const name = await handle.getAttribute('data-param');
          assert.ok(draws > 0, `${name} ${key}: its figure drew`);
          assert.deepEqual(afterDraw, [], `${name} ${key}: text written after the figure drew`);
        }
      }
    } finally {
      await context.close();
    }
  });

  test('a section moved before its figure mounted hands the figure its values when it does', async () => {
    const { page: fresh } = await openPage(browser, server.url, { viewport: { width: 1280, height: 900 } });
    try {
      const handle = fresh.locator('#extending-context [data-param="extension.trained"]').first();
      await handle.scrollIntoViewIfNeeded();
      assert.notEqual(
        await fresh.evaluate(() => document.querySelector('[data-chart="context-extension"]').dataset.chartState),
        'mounted',
        'the figure is not mounted yet',
      );
      await handle.focus();
      await fresh.keyboard.press('Shift+ArrowRight');
      await mountAllCharts(fresh);
      const state = await fresh.evaluate(() => window.positionalCharts.mounted.get('context-extension').state);
      assert.equal(state.trained, 4096 + 4096);
    } finally {
      await fresh.context().close();
    }
  });
});

describe('the handles wherever the lesson is shown', () => {
  /** Presses → on the first stretch-factor handle and returns [handle text, the scaled base shown]. */
  const moveScale = async (target) => {
    const handle = target.locator('#extending-context [data-param="extension.scale"]').first();
    await handle.focus();
    await target.keyboard.press('ArrowRight');
    return [
      await handle.textContent(),
      await target.locator('#extending-context [data-live="ntk.base"]:not([data-format])').first().textContent(),
    ];
  };
  const scaledBase = (target, s) =>
    target.evaluate(async (scale) => {
      const { formatValue } = await import('./js/locale/format.js');
      return formatValue(window.positionalLesson.engine.ntkScaledBase(10000, scale, 128), 'int');
    }, s);

  test('one section embedded alone (?embed=extending-context): a handle moves its numbers', async () => {
    const { page: framed, problems: seen } = await openPage(browser, `${server.url}?embed=extending-context`);
    try {
      assert.deepEqual(await moveScale(framed), ['9', await scaledBase(framed, 9)]);
      assert.deepEqual(seen, []);
    } finally {
      await framed.context().close();
    }
  });

  test(
    'the single file from file://: a handle moves its numbers through the inlined engine',
    { skip: !existsSync(singleFile) && 'no dist-single build' },
    async () => {
      const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
      try {
        const single = await context.newPage();
        await single.goto(pathToFileURL(singleFile).href);
        await single.waitForFunction(() => document.documentElement.dataset.liveState === 'ready', null, {
          timeout: 30000,
        });
        const [text, shown] = await moveScale(single);
        const want = await single.evaluate(() => window.positionalLesson.engine.ntkScaledBase(10000, 9, 128));
        assert.equal(text, '9');
        assert.equal(shown, Math.round(want).toLocaleString('en-US'));
      } finally {
        await context.close();
      }
    },
  );
});

describe('one state for the stretch', () => {
  /** Moves the first handle of `name` in section `id` with the keys given, on the shared page. */
  const press = async (id, name, keys) => {
    const handle = page.locator(`#${id} [data-param="${name}"]`).first();
    await handle.scrollIntoViewIfNeeded();
    await handle.focus();
    for (const key of keys) await page.keyboard.press(key);
  };
  const shown = (id, quantity) =>
    page.locator(`#${id} [data-live="${quantity}"]:not([data-format])`).first().textContent();
  const engineText = (call) =>
    page.evaluate(async (source) => {
      const { formatValue } = await import('./js/locale/format.js');
      const engine = window.positionalLesson.engine;
      const [fn, args, format] = JSON.parse(source);
      return formatValue(engine[fn](...args), format);
    }, JSON.stringify(call));

  test('"What it costs": a target of 65,536 stretches interpolation and NTK alike, 16×', async () => {
    await press('what-it-costs', 'extension.target', ['Shift+ArrowRight', 'Shift+ArrowRight']);
    try {
      assert.equal(
        await page.locator('#what-it-costs [data-param="extension.target"]').first().textContent(),
        '65,536',
      );
      assert.equal(await shown('what-it-costs', 'interp.ratio'), '1/16');
      assert.equal(await shown('what-it-costs', 'ntk.slowdown'), '16');
      assert.equal(
        await shown('what-it-costs', 'ntk.base'),
        await engineText(['ntkScaledBase', [10000, 16, 128], 'int']),
      );
    } finally {
      await page.locator('#what-it-costs .param-reset').click();
    }
  });

  test('section 4: the prose and the figure beside it give one NTK base, and its caption follows', async () => {
    await press('extending-context', 'extension.target', ['Shift+ArrowRight', 'Shift+ArrowRight']);
    try {
      await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
      const base = await shown('extending-context', 'ntk.base');
      assert.equal(base, await engineText(['ntkScaledBase', [10000, 16, 128], 'int']));
      const note = await page.locator('[data-chart="context-extension"] .chart-note').textContent();
      assert.ok(note.includes(`NTK-aware base ${base}.`), `the figure's note: ${note}`);
      const caption = await page.locator('#fig-context-extension > figcaption').textContent();
      assert.match(caption, /by 65,536;/, caption);
    } finally {
      await page.locator('#extending-context .param-reset').click();
    }
  });

  // The sentences a move makes false are replaced, not patched: with the target at the trained length
  // (Home on its handle) there is no stretch, and the text says so in a sentence of its own; the
  // clamp message is a line of its own after the paragraph, never inside a sentence. English and Chinese.
  for (const [path, words] of [
    [
      '',
      {
        noStretch: 'there is no stretch',
        stretched: 'Neighbours are now',
        clamp: /at least the trained length/,
        clampPosition: /at most 4,096/,
        caption: 'nothing to extend',
        leaves: 'leave the trained angle band',
      },
    ],
    [
      'zh-Hans/index.html',
      {
        noStretch: '没有拉伸',
        stretched: '相邻位置现在相隔',
        clamp: /不能小于训练长度/,
        clampPosition: /最多为 4,096/,
        caption: '没有需要扩展的部分',
        leaves: '离开训练过的角度范围',
      },
    ],
  ]) {
    test(`section 4 at no stretch (${path || 'English'}): its own sentences, the message beside them`, async () => {
      const { page: reader, context } = await openPage(browser, new URL(path, server.url).href);
      try {
        await mountAllCharts(reader);
        const section = reader.locator('#extending-context');
        const target = section.locator('[data-param="extension.target"]').first();
        await target.scrollIntoViewIfNeeded();
        await target.focus();
        await reader.keyboard.press('Home');
        // Read in the page (innerText: what is shown, hidden branches left out).
        const text = await reader.evaluate(
          () => document.querySelector('#extending-context [data-param="extension.target"]').closest('p').innerText,
        );
        assert.ok(text.includes(words.noStretch), `the no-stretch sentence: ${text}`);
        assert.ok(!text.includes(words.stretched), `no stretched sentence left: ${text}`);
        assert.doesNotMatch(text, words.clamp, 'the clamp message is not inside the paragraph');
        const status = await reader.evaluate(() => {
          const h = document.querySelector('#extending-context [data-param="extension.target"]');
          const element = document.getElementById(h.getAttribute('aria-describedby'));
          return {
            text: element.textContent,
            inParagraph: Boolean(element.closest('p')),
            shown: element.getClientRects().length > 0,
          };
        });
        assert.match(status.text, words.clamp);
        assert.equal(status.inParagraph, false, 'the message stands outside the sentence');
        assert.ok(status.shown, 'the message is shown');
        // The position to interpolate stays within the target: End takes it to 4,096 and says why.
        const position = section.locator('[data-param="extension.position"]').first();
        await position.focus();
        await reader.keyboard.press('End');
        assert.equal(await position.textContent(), '4,096');
        const positionStatus = await reader.evaluate(() => {
          const h = document.querySelector('#extending-context [data-param="extension.position"]');
          return document.getElementById(h.getAttribute('aria-describedby')).textContent;
        });
        assert.match(positionStatus, words.clampPosition);
        const caption = await reader.evaluate(
          () => document.querySelector('#fig-context-extension > figcaption').innerText,
        );
        assert.ok(caption.includes(words.caption), `the caption at no stretch: ${caption}`);
        assert.ok(!caption.includes(words.leaves), `the caption at no stretch: ${caption}`);
      } finally {
        await context.close();
      }
    });
  }

  test('section 4: the stretch s is target / trained, and moving it moves the target and the figure', async () => {
    await press('extending-context', 'extension.scale', ['ArrowRight']);
    try {
      const target = page.locator('#extending-context [data-param="extension.target"]').first();
      assert.equal(await target.textContent(), '36,864');
      const chart = await page.evaluate(() => window.positionalCharts.mounted.get('context-extension').state);
      assert.equal(chart.target, 36864);
      assert.equal(await shown('extending-context', 'ntk.slowdown'), '9');
      assert.equal(await shown('extending-context', 'interp.ratio'), '1/9');
      await press('extending-context', 'extension.trained', ['Shift+ArrowRight']);
      const scale = page.locator('#extending-context [data-param="extension.scale"]').first();
      assert.equal(await scale.textContent(), '4.5', 'the stretch reads the moved trained length');
    } finally {
      await page.locator('#extending-context .param-reset').click();
    }
  });

  test("the context-extension caption follows the figure's own controls, and comes back with them", async () => {
    const caption = page.locator('#fig-context-extension > figcaption');
    const lesson = await caption.textContent();
    const figureSet = (patch) =>
      page.evaluate((p) => {
        const chart = window.positionalCharts.mounted.get('context-extension');
        chart.set(p);
        chart.flush();
      }, patch);
    const want = (trained, target) =>
      page.evaluate(
        async ([a, b]) => {
          const live = await import('./js/prose/live-values.js');
          const results = live.computeEngineResults(window.positionalLesson.engine, {
            'extension.trained': a,
            'extension.target': b,
          });
          return live.liveText('extension.raw-over-band', results);
        },
        [trained, target],
      );
    await figureSet({ target: 65536 });
    try {
      let text = await caption.textContent();
      assert.ok(text.includes(`reach ${await want(4096, 65536)} times its top by 65,536;`), text);
      await figureSet({ trained: 2048, target: 8192 });
      text = await caption.textContent();
      assert.ok(text.includes(`after 2,048 and reach ${await want(2048, 8192)} times its top by 8,192;`), text);
    } finally {
      await figureSet({ trained: 4096, target: 32768 });
    }
    assert.equal(await caption.textContent(), lesson, 'back at the lesson state, the lesson caption');
  });
});

/**
 * In the page: every prose parameter of LIVE_PARAMETERS, in every section with a handle of it, set
 * through the page's own prose.set to each of `fractions` of its range (plus the awkward value
 * `awkward` of the way in), and every sentence (p, li, table cell, caption) holding a live number that
 * depends on it read back: each live number against the engine at the section's state (a caption at
 * its figure's), and no number typed in those sentences equal to a value the move made stale.
 * Returns { checks: states × sentences, states, problems }.
 */
async function perturbEveryParameter({ fractions }) {
  const live = await import('./js/prose/live-values.js');
  const { chartParameters } = await import('./js/prose/prose-params.js');
  const { formatValue } = await import('./js/locale/format.js');
  const { engine, prose } = window.positionalLesson;
  const frame = () => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
  const sentenceOf = (e) => e.closest('li, td, th, figcaption, p') ?? e.parentElement;
  const problems = [];
  let checks = 0;
  let states = 0;
  for (const [name, p] of Object.entries(live.LIVE_PARAMETERS)) {
    const dependents = new Set(live.dependentsOf(name));
    for (const [section, scope] of prose.scopes) {
      const handle = scope.handles.find((h) => h.dataset.param === name);
      if (!handle) continue;
      const lessonTexts = new Map([...section.querySelectorAll('[data-live]')].map((e) => [e, e.textContent]));
      const sentences = [
        ...new Set(
          [...section.querySelectorAll('[data-live]')].filter((e) => dependents.has(e.dataset.live)).map(sentenceOf),
        ),
      ];
      for (const fraction of fractions) {
        let raw = p.min + (p.max - p.min) * fraction;
        if (p.integer !== false) raw = Math.round(raw);
        if (p.even) raw = 2 * Math.round(raw / 2);
        prose.set(handle, raw);
        await frame();
        states++;
        const values = scope.values;
        const results = live.computeEngineResults(engine, values);
        const where = `${name}=${raw} in #${section.id}`;
        // The section's figure tells the section's state: each control a parameter names holds its value.
        const resolved = { ...live.PARAMETER_DEFAULTS };
        for (const [n, x] of Object.entries(values)) {
          const stored = live.storedParameter(n, x, values);
          resolved[stored.name] = stored.value;
        }
        for (const [n, q] of Object.entries(live.LIVE_PARAMETERS)) {
          const slot = q.chart && section.querySelector(`[data-chart="${q.chart.id}"]`);
          const figureChart = slot && window.positionalCharts.mounted.get(q.chart.id);
          if (figureChart && figureChart.state[q.chart.key] !== resolved[n])
            problems.push(
              `${where}: the figure's ${q.chart.key} is ${figureChart.state[q.chart.key]}, the text's ${n} ${resolved[n]}`,
            );
        }
        for (const sentence of sentences) {
          checks++;
          const figure = sentence.closest('[data-chart]');
          const chart = figure && window.positionalCharts.mounted.get(figure.dataset.chart);
          const at = figure
            ? live.computeEngineResults(engine, chart ? chartParameters(chart.id, chart.state) : {})
            : results;
          const stale = new Set();
          for (const element of sentence.querySelectorAll('[data-live]')) {
            let want;
            try {
              want = live.liveText(element.dataset.live, at, element.dataset.format);
            } catch {
              want = '—';
            }
            if (element.textContent !== want)
              problems.push(`${where}: ${element.dataset.live} shows ${element.textContent}, engine ${want}`);
            const before = lessonTexts.get(element);
            if (before !== want) stale.add(before);
          }
          if (figure ? chart && chart.state[p.chart?.key] !== undefined : true) {
            const lesson = live.parameterText(name, live.PARAMETER_DEFAULTS[name]);
            if (lesson !== handle.textContent) stale.add(lesson);
          }
          // The words around the live numbers: no number left that the move made stale.
          const copy = sentence.cloneNode(true);
          for (const marked of copy.querySelectorAll(
            '[data-live], [data-param], [data-echo], .katex, .param-status, button',
          ))
            marked.remove();
          for (const typed of copy.textContent.match(/[−-]?\d[\d,.]*(?: × 10[⁻⁰¹²³⁴⁵⁶⁷⁸⁹]+)?(?![\dA-Za-z])/g) ?? []) {
            const number = typed.replace(/[.,]$/, '');
            if (stale.has(number))
              problems.push(`${where}: "${number}" stays typed in: ${sentence.textContent.slice(0, 120)}`);
          }
          for (const echo of sentence.querySelectorAll('[data-echo]')) {
            const spec = live.PARAMETER_ECHOES[echo.dataset.echo];
            const v =
              figure && chart ? { ...live.PARAMETER_DEFAULTS, ...chartParameters(chart.id, chart.state) } : null;
            const want = formatValue(spec.value(v ?? resolved), spec.format);
            if (echo.textContent !== want)
              problems.push(`${where}: echo ${echo.dataset.echo} shows ${echo.textContent}, wants ${want}`);
          }
        }
      }
      prose.reset(section);
      await frame();
    }
  }
  return { checks, states, problems };
}

describe('every parameter across its range, generated from the declarations', () => {
  test('each sentence that reads a moved parameter agrees with the engine, and keeps no stale number', async (t) => {
    // Both ends, the middle and an awkward value (1/π of the way: no round number in any range). A
    // number followed by a letter (Llama 3's "8K", "405B") is a quoted fact, not a stale value.
    const fractions = [0, 1, 0.5, 1 / Math.PI];
    const { checks, states, problems } = await page.evaluate(perturbEveryParameter, { fractions });
    t.diagnostic(`${states} states × their sentences: ${checks} sentence checks`);
    assert.ok(states >= 4 * 8, `states: ${states}`);
    assert.deepEqual(problems, []);
  });
});

describe('words linked to a figure', () => {
  // The lab's curves (what its linked words point at) are drawn once its prediction is answered.
  before(() => answerLabPrediction(page));
  const links = () =>
    page.evaluate(() =>
      [...document.querySelectorAll('.part-link')].map((l, index) => {
        l.dataset.qaLink = String(index);
        return { index, chart: l.dataset.partChart, part: l.dataset.part };
      }),
    );
  const chartState = (id) =>
    page.evaluate(async (chartId) => {
      await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
      const slot = document.querySelector(`[data-chart="${chartId}"]`);
      const pictures = [];
      for (const c of slot.querySelectorAll('canvas')) pictures.push(await window.positionalCharts.canvasPixels(c));
      const bytes = new Uint8Array(pictures.reduce((n, p) => n + p.data.length, 0));
      pictures.reduce((at, p) => (bytes.set(p.data, at), at + p.data.length), 0);
      const digest = await crypto.subtle.digest('SHA-256', bytes);
      return {
        highlighted: window.positionalCharts.mounted.get(chartId).highlighted,
        pixels: [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join(''),
      };
    }, id);
  const pointed = (index) =>
    page.evaluate((i) => document.querySelector(`[data-qa-link="${i}"]`).classList.contains('is-pointed'), index);

  test('hovering or focusing linked words highlights that part, and leaving clears it', async (t) => {
    for (const link of await links()) {
      await t.test(`${link.chart}/${link.part}`, async () => {
        const locator = page.locator(`[data-qa-link="${link.index}"]`);
        await locator.scrollIntoViewIfNeeded();
        await page.mouse.move(1, 1);
        const plain = await chartState(link.chart);
        assert.equal(plain.highlighted, null);
        await locator.hover();
        const hovered = await chartState(link.chart);
        assert.equal(hovered.highlighted, link.part);
        assert.notEqual(hovered.pixels, plain.pixels, 'the highlight changes the picture');
        assert.ok(await pointed(link.index), 'the words are marked while pointed at');
        await page.mouse.move(1, 1);
        assert.deepEqual(await chartState(link.chart), plain, 'leaving restores the picture');
        await locator.focus();
        assert.equal((await chartState(link.chart)).highlighted, link.part, 'focus highlights too');
        await page.evaluate(() => document.activeElement.blur());
        assert.deepEqual(await chartState(link.chart), plain, 'blur restores the picture');
        assert.equal(await pointed(link.index), false);
      });
    }
  });

  test("a chart's chart-part event marks the words naming that part, and only those", async () => {
    const all = await links();
    const control = page.locator('[data-chart="context-extension"] input[data-control="trained"]');
    await control.scrollIntoViewIfNeeded();
    await control.focus(); // the chart announces 'trained' while its trained-length box has focus
    for (const link of all.filter((l) => l.chart === 'context-extension'))
      assert.equal(await pointed(link.index), link.part === 'trained', `${link.part} while trained is announced`);
    await page.keyboard.press('Tab'); // the target box: 'target'
    for (const link of all.filter((l) => l.chart === 'context-extension'))
      assert.equal(await pointed(link.index), link.part === 'target', `${link.part} while target is announced`);
    await page.evaluate(() => document.activeElement.blur());
    for (const link of all) assert.equal(await pointed(link.index), false, `${link.chart}/${link.part} after leaving`);
  });

  test('words pointed at before their chart mounted highlight it once it does', async () => {
    const { page: fresh } = await openPage(browser, server.url, { viewport: { width: 1280, height: 900 } });
    try {
      const link = fresh.locator('.part-link[data-part-chart="rope-relative"][data-part="query"]').first();
      await link.scrollIntoViewIfNeeded();
      const slot = fresh.locator('[data-chart="rope-relative"]');
      assert.notEqual(await slot.getAttribute('data-chart-state'), 'mounted', 'the figure is not mounted yet');
      await link.focus();
      await mountAllCharts(fresh);
      assert.equal(
        await fresh.evaluate(() => window.positionalCharts.mounted.get('rope-relative').highlighted),
        'query',
      );
    } finally {
      await fresh.context().close();
    }
  });

  test('no console errors, page errors or CSP violations along the way', () => {
    assert.deepEqual(problems, []);
  });
});
