// The chart controls' matrix: every control the charts declare (charts/declarations.js, their
// handles from their defineChart definitions, the prose numbers a figure follows from
// LIVE_PARAMETERS) driven by every way a reader can set it, each cell once, in the engine under test:
//   key      the number box's keys, the slider's keys, the figure's handle's keys; a select's
//            ArrowDown; a checkbox's Space
//   pointer  a drag along the slider, a drag of the handle on its canvas, a click on a checkbox
//   typed    a value typed at a reader's pace and Enter, then one past the top of the range
//   url      a fresh load of the address the other cells wrote
//   prose    an arrow key on the number in the lesson's text that the figure follows
// After every step the views agree (the number box, its slider, the chart's state, the address);
// a cell that changes the value redraws the figure; a handle's aria-valuenow and aria-valuetext
// follow; a clamped value says why beside its box; no cell leaves an error. The cells are listed at
// the end, with the ones that do not apply to a kind of control.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { chartDefinitions, ENGINE, loadAfresh, startSite, twoFrames, waitForChart, watchProblems } from './helpers.mjs';
import { CHART_DECLARATIONS } from '../../web/js/charts/declarations.js';
import { LIVE_PARAMETERS } from '../../web/js/prose/live-values.js';

const BOX_KEYS = ['ArrowUp', 'ArrowDown', 'PageUp', 'PageDown', 'Home', 'End'];
const SLIDER_KEYS = ['ArrowRight', 'ArrowUp', 'ArrowLeft', 'ArrowDown', 'PageUp', 'PageDown', 'End', 'Home'];
/** The paths, and the kinds of control each applies to (a select's list is the browser's own popup). */
const PATHS = {
  key: ['number', 'select', 'checkbox'],
  pointer: ['number', 'checkbox'], // a number with a slider or a handle
  typed: ['number', 'text'],
  url: ['number', 'text', 'select', 'checkbox'],
  prose: ['number'],
};

/**
 * Where on a handle's line the mouse presses the canvas (px from the knob's centre, outside the
 * knob's own overlay) and how far it drags, where that is not the knob itself and 60 px along its
 * axis (25 px up on a y axis).
 */
const PRESS = {
  'context-extension.trained': { press: [-60, 0], drag: [0, -25] },
  'context-extension.target': { press: [-60, 0], drag: [0, -25] },
  'sinusoidal-heatmap.position': { press: [-60, 0], drag: [0, 60] },
  'alibi.head': { press: [0, 30], drag: 'next-bars' },
  'rope-relative.delta': { press: [0, -60], drag: [60, 0] },
  // The query positions' number line: the knob itself is pressed (the three share one line).
  'rope-relative.s0': { press: [0, 0], drag: [50, 0] },
  'rope-relative.s1': { press: [0, 0], drag: [50, 0] },
  'rope-relative.s2': { press: [0, 0], drag: [-50, 0] },
  'precision.position': { press: [0, -60], drag: [60, 0] },
  'rope-frequencies.position': { press: [0, 60], drag: [60, 0] },
  'model-card.prompt': { press: [-60, 0], drag: [0, -25] },
  'attention-sinks.keys': { press: [0, -60], drag: [60, 0] },
};

// Every chart's declared controls, as plain data (what a JSON round trip keeps).
const declarations = JSON.parse(JSON.stringify(CHART_DECLARATIONS));
const HANDLES = new Map(
  (await chartDefinitions()).flatMap(({ id, handles = [] }) =>
    handles.map((h) => [
      `${id}.${h.key}`,
      {
        chart: id,
        key: h.key,
        part: h.part ?? h.key,
        ...(PRESS[`${id}.${h.key}`] ?? { press: [0, 0], drag: h.axis === 'y' ? [0, -25] : [60, 0] }),
      },
    ]),
  ),
);
/** The prose numbers a figure follows: chart.key → the parameter's name. */
const PROSE = new Map(
  Object.entries(LIVE_PARAMETERS)
    .filter(([, p]) => p.chart && !p.view)
    .map(([name, p]) => [`${p.chart.id}.${p.chart.key}`, name]),
);
/** The cells run: `chart.key path` → what was driven. */
const cells = new Map();
/** Per chart, whether some cell changed its picture and some cell its description. */
const redrawn = new Map();

let site;
let context;
let page;
let problems;

before(async () => {
  site = await startSite();
  context = await site.browser.newContext({ viewport: { width: 1100, height: 900 } });
  page = await context.newPage();
  problems = watchProblems(page);
});

after(async () => {
  await context?.close();
  await site?.close();
});

/** Loads `url` in the suite's page (afresh, even if only its fragment differs) and waits until chart `id` is drawn. */
async function openChart(url, id) {
  await loadAfresh(page, url, problems);
  await waitForChart(page, id);
  await page.evaluate(installViews);
}

/**
 * In the page (after each load): defines window.__matrixViews(chart, name), every view of control
 * `name` of chart `chart` now, once the chart's pending work and the page writes it holds for the
 * next frame are done (flush()) and the address is written.
 */
function installViews() {
  window.__matrixViews = (chart, name) => {
    const mounted = window.positionalCharts.mounted.get(chart);
    mounted.flush?.();
    window.positionalCharts.flushUrlState();
    const slot = document.querySelector(`[data-chart="${chart}"]`);
    const input = slot.querySelector(`[data-control="${name}"]`);
    const slider = slot.querySelector(`[data-control="${name}-slider"]`);
    const handle = slot.querySelector(`[data-handle="${name}"]`);
    const knob = handle?.getBoundingClientRect();
    return {
      box: input.type === 'checkbox' ? input.checked : input.value,
      slider: slider?.value ?? null,
      message: slot.querySelector(`[data-control="${name}"] ~ .chart-message`)?.textContent ?? '',
      state: mounted.state?.[name],
      highlighted: mounted.highlighted ?? null,
      url: new URLSearchParams(location.search).get(`${chart}.${name}`),
      description: slot.querySelector('.chart-description')?.textContent ?? '',
      handle: handle && {
        now: handle.getAttribute('aria-valuenow'),
        min: handle.getAttribute('aria-valuemin'),
        max: handle.getAttribute('aria-valuemax'),
        text: handle.getAttribute('aria-valuetext'),
        focused: document.activeElement === handle,
        knob: { x: knob.x + knob.width / 2, y: knob.y + knob.height / 2 },
      },
    };
  };
}

/**
 * Every view of `key` in chart `id` (installViews) after the next animation frame, when the chart has
 * drawn what the last input asked for. With `pixels`, a hash of the chart's canvases as the reader
 * sees them (FNV-1a over every third pixel). With `afterKey`, first the keyup of the key pressed since
 * the last call (each call listens for the next one): a loaded machine can hand WebKit a key later
 * than the frame this would otherwise wait for.
 */
function views(id, key, { pixels = false, afterKey = false } = {}) {
  return page.evaluate(
    async ({ chart, name, pixels, afterKey }) => {
      if (afterKey) await window.__matrixKeyUp;
      window.__matrixKeyUp = new Promise((r) => addEventListener('keyup', () => r(), { once: true }));
      await new Promise((r) => requestAnimationFrame(r));
      const v = window.__matrixViews(chart, name);
      if (pixels) {
        let hash = 2166136261;
        for (const canvas of document.querySelectorAll(`[data-chart="${chart}"] canvas`)) {
          const words = new Uint32Array((await window.positionalCharts.canvasPixels(canvas)).data.buffer);
          for (let i = 0; i < words.length; i += 3) hash = Math.imul(hash ^ words[i], 16777619) >>> 0;
        }
        v.pixels = hash;
      }
      return v;
    },
    { chart: id, name: key, pixels, afterKey },
  );
}

/**
 * The views of chart `id`'s control `key` once `ready(views)` holds, or the last ones after 10 s:
 * a loaded machine may take more than two frames to pass a typed key to the chart, so a check of
 * what a key did waits for the page to show it rather than for a count of frames. The caller then
 * asserts on the views returned, so a page that never gets there fails with its own message.
 */
async function settled(id, key, ready) {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const v = await views(id, key);
    if (ready(v) || Date.now() > deadline) return v;
  }
}

/** The views `v` of chart `id`'s control `key` agree with one another (and a handle with them). */
function checkAgree(v, id, key, spec, what) {
  const where = `${id}.${key} after ${what}`;
  const value = spec.kind === 'number' ? Number(v.box) : v.box;
  if (v.state !== undefined) assert.equal(v.state, value, `${where}: the chart's state is the box's value`);
  if (v.slider !== null) assert.equal(Number(v.slider), value, `${where}: the slider shows the box's value`);
  if (v.handle) assert.equal(v.handle.now, String(value), `${where}: the handle's aria-valuenow follows`);
  const written = v.url ?? (spec.kind === 'checkbox' ? (spec.value ? '1' : '0') : String(spec.value));
  const shown = spec.kind === 'checkbox' ? (value ? '1' : '0') : String(value);
  assert.equal(written, shown, `${where}: the address holds the shown value`);
  return v;
}

/** The views of chart `id`'s control `key` after the next frame agree with one another; returns them. */
async function assertAgree(id, key, spec, what, options) {
  return checkAgree(await views(id, key, options), id, key, spec, what);
}

/**
 * Presses `keys` on the focused control, one after another, and checks the views of chart `id`'s
 * control `key` after each: a recorder in the page takes them as each key is let go (after the
 * control's own handlers, the chart's pending work done at once by flush()), so the keys need no
 * round trip each for the check.
 */
async function pressAndAgree(id, key, spec, keys, where) {
  await page.evaluate(
    ([chart, name]) => {
      window.__matrixRecorder?.abort();
      window.__matrixRecorder = new AbortController();
      window.__matrixSeen = [];
      addEventListener('keyup', () => window.__matrixSeen.push(window.__matrixViews(chart, name)), {
        signal: window.__matrixRecorder.signal,
      });
    },
    [id, key],
  );
  for (const k of keys) await page.keyboard.press(k);
  const seen = await page.evaluate(async () => {
    await new Promise((r) => requestAnimationFrame(r));
    window.__matrixRecorder.abort();
    return window.__matrixSeen;
  });
  assert.equal(seen.length, keys.length, `${id}.${key}: one look after each key on the ${where}`);
  for (const [i, v] of seen.entries()) checkAgree(v, id, key, spec, `${keys[i]} on the ${where}`);
  return seen.at(-1);
}

/**
 * A changed value redrew the figure: where `before` and `now` (views with pixels) differ in value,
 * they differ in picture or in the description (the figure's words: a value the picture does not
 * draw, such as the length lab's seed before training, is still stated there).
 */
function assertRedrawn(before, now, id, where) {
  if (now.state === before.state) return;
  assert.ok(
    now.pixels !== before.pixels || now.description !== before.description,
    `${where}: the figure is redrawn for ${now.state}`,
  );
  const seen = redrawn.get(id) ?? { pixels: false, description: false };
  seen.pixels ||= now.pixels !== before.pixels;
  seen.description ||= now.description !== before.description;
  redrawn.set(id, seen);
}

/** A handle moved: its value, box, aria-valuenow and aria-valuetext, the picture and the description all follow. */
function assertHandleMoved(before, now, what) {
  assert.notEqual(now.state, before.state, `${what}: the state changes`);
  assert.equal(now.box, String(now.state), `${what}: the number box shows the new value`);
  assert.equal(now.handle.now, String(now.state), `${what}: aria-valuenow follows`);
  assert.ok(
    now.handle.text && now.handle.text !== before.handle.text,
    `${what}: aria-valuetext follows (${now.handle.text})`,
  );
  assert.notEqual(now.pixels, before.pixels, `${what}: the canvas is redrawn`);
  assert.notEqual(now.description, before.description, `${what}: the description's numbers follow`);
}

/**
 * Puts chart `id` at its declared defaults through its own set() (a handle's steps are checked from
 * there) and returns the state it had, or with `state`, puts it back at that state.
 */
async function reset(id, state = null) {
  const before = await page.evaluate(
    ([chart, state]) => {
      const mounted = window.positionalCharts.mounted.get(chart);
      const before = { ...mounted.state };
      const defaults = Object.fromEntries(
        Object.entries(window.positionalCharts.declarations[chart].controls).map(([k, c]) => [k, c.value]),
      );
      mounted.set(state ?? defaults);
      return before;
    },
    [id, state],
  );
  await twoFrames(page);
  return before;
}

/** Starts recording the chart-part events the page dispatches (a handle announces the part it moves). */
function listenForParts() {
  return page.evaluate(() => {
    window.handleParts = [];
    if (!window.handlePartsListening) {
      window.handlePartsListening = true;
      document.addEventListener('chart-part', (e) => window.handleParts.push(e.detail));
    }
  });
}

/** Whether `handle`'s part was announced since listenForParts. */
function announced({ chart, part }) {
  return page.evaluate(
    ([id, name]) => window.handleParts.some((d) => d.chart === id && d.part === name),
    [chart, part],
  );
}

/** The distance between two neighbouring ALiBi bars, in CSS px (where the knob sits for heads 1 and 2). */
async function barSpacing() {
  const knobAt = async (head) => {
    await page.evaluate((h) => window.positionalCharts.mounted.get('alibi').set({ head: h }), head);
    await twoFrames(page);
    return page.evaluate(() => {
      const r = document.querySelector('[data-chart-root="alibi"] [data-handle="head"]').getBoundingClientRect();
      return r.x + r.width / 2;
    });
  };
  const two = await knobAt(2);
  return two - (await knobAt(1));
}

/**
 * Types `text` a character at a time with the chart's frames run between keys, as a reader's pace
 * gives them, and checks after each that the box still holds what was typed (where that is a whole
 * number: a number box reports "3." or "-" as its sanitised value, not as typed).
 */
async function typeAtReadersPace(box, text, where) {
  assert.ok(await box.evaluate((e) => e === document.activeElement), `${where}: the box has the focus`);
  let typed = '';
  for (const character of text) {
    await page.keyboard.type(character);
    typed += character;
    // The frames and the box's value in one call (the box has the focus): a round trip less per key.
    // Two frames at least; where the text so far is a whole number the box must show, frames go on
    // until it does (a loaded machine can hand WebKit a key later than two frames), up to 5 s.
    const whole = /^-?\d+(\.\d+)?$/.test(typed);
    const value = await page.evaluate(
      async ({ expected }) => {
        const frame = () => new Promise((r) => requestAnimationFrame(r));
        await frame();
        await frame();
        const until = performance.now() + 5000;
        while (expected !== null && document.activeElement.value !== expected && performance.now() < until)
          await frame();
        return document.activeElement.value;
      },
      { expected: whole ? typed : null },
    );
    if (whole) assert.equal(value, typed, `${where}: the box after typing ${typed}`);
  }
}

/** A valid value to type for a number control: a third of the way up its range, on its grid. */
function typedValue(spec) {
  const top = Math.min(spec.max, spec.min + 10000);
  let v = spec.min + (top - spec.min) / 3;
  if (spec.integer !== false) v = Math.round(v);
  else v = Number(v.toFixed(2));
  if (spec.even && v % 2 !== 0) v += 1;
  return v;
}

/** The key cell of a number control: its box's keys, its slider's, and its handle's on the figure. */
async function keyCell(id, key, spec) {
  const start = await assertAgree(id, key, spec, 'loading', { pixels: true });
  const box = page.locator(`[data-chart="${id}"] [data-control="${key}"]`);
  // A key on a focused field leaves the focus there: one focus() serves every key.
  await box.focus();
  await pressAndAgree(id, key, spec, BOX_KEYS, 'box');
  let end = await assertAgree(id, key, spec, 'the box’s keys', { pixels: true });
  // The keys may end where they started (Home and End are the slider's, not the box's): one step more.
  for (const k of ['ArrowUp', 'ArrowDown']) {
    if (end.state !== start.state) break;
    await page.keyboard.press(k);
    end = await assertAgree(id, key, spec, `${k} on the box`, { pixels: true, afterKey: true });
  }
  assert.notEqual(end.state, start.state, `${id}.${key}: the box's keys move the value`);
  assertRedrawn(start, end, id, `${id}.${key} by the box's keys`);
  const driven = ['box'];
  const slider = page.locator(`[data-chart="${id}"] [data-control="${key}-slider"]`);
  assert.equal(await slider.count(), spec.slider ? 1 : 0, `${id}.${key}: a slider where one is declared`);
  if (spec.slider) {
    await slider.focus();
    await pressAndAgree(id, key, spec, SLIDER_KEYS, 'slider');
    driven.push('slider');
  }
  const handle = HANDLES.get(`${id}.${key}`);
  if (handle) {
    await handleKeys(handle, spec);
    driven.push('handle');
  }
  return driven.join(', ');
}

/** A handle's keys: arrows, Shift+arrow, End and Home move state, box, aria values, picture and address together. */
async function handleKeys(handle, spec) {
  const { chart: id, key } = handle;
  const saved = await reset(id);
  const locator = page.locator(`[data-chart-root="${id}"] [data-handle="${key}"]`);
  await locator.scrollIntoViewIfNeeded();
  await listenForParts();
  await locator.focus();
  await twoFrames(page);
  const start = await views(id, key, { pixels: true });
  assert.equal(start.handle.focused, true, `${id}.${key}: the handle takes focus`);
  assert.equal(start.highlighted, handle.part, `${id}.${key}: focus highlights the handle’s part`);
  assert.ok(await announced(handle), `${id}.${key}: focus announces the part (chart-part)`);
  const step = async (chord, from) => {
    await page.keyboard.press(chord);
    const now = await assertAgree(id, key, spec, `${chord} on the handle`, { pixels: true, afterKey: true });
    assertHandleMoved(from, now, `${id}.${key}: ${chord} on the handle`);
    return now;
  };
  const one = await step('ArrowRight', start);
  assert.ok(one.state > start.state, `${id}.${key}: ArrowRight increases the value`);
  const big = await step('Shift+ArrowRight', one);
  assert.ok(big.state - one.state > one.state - start.state, `${id}.${key}: Shift takes a larger step`);
  const end = await step('End', big);
  assert.equal(end.handle.now, end.handle.max, `${id}.${key}: End goes to aria-valuemax`);
  const home = await step('Home', end);
  assert.equal(home.handle.now, home.handle.min, `${id}.${key}: Home goes to aria-valuemin`);
  assert.equal(home.handle.focused, true, `${id}.${key}: the handle keeps focus throughout`);
  await page.evaluate(() => document.activeElement?.blur());
  assert.equal((await views(id, key)).highlighted, null, `${id}.${key}: leaving the handle clears the highlight`);
  await reset(id, saved);
  await assertAgree(id, key, spec, 'the chart put back as it was');
}

/** The typed cell of a number control: a value at a reader's pace and Enter, then one past the top. */
async function typedNumberCell(id, key, spec) {
  const box = page.locator(`[data-chart="${id}"] [data-control="${key}"]`);
  const start = await views(id, key, { pixels: true });
  const value = typedValue(spec);
  await box.focus();
  await page.keyboard.press('ControlOrMeta+A');
  await typeAtReadersPace(box, String(value), `${id}.${key}`);
  await page.keyboard.press('Enter');
  let v = await assertAgree(id, key, spec, `typing ${value}`, { pixels: true });
  assert.ok(
    Number(v.box) === value || v.message !== '',
    `${id}.${key}: typed ${value}, shows ${v.box} with no reason given`,
  );
  assertRedrawn(start, v, id, `${id}.${key} typed`);
  // Past the top of the range: clamped, with the message, and every view follows.
  await box.focus();
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.type(String(spec.max + 3));
  await page.keyboard.press('Enter');
  v = await assertAgree(id, key, spec, `typing ${spec.max + 3}`);
  assert.ok(Number(v.box) <= spec.max, `${id}.${key}: clamped to the range`);
  assert.notEqual(v.message, '', `${id}.${key}: says why`);
  return `${value}, then ${spec.max + 3} (clamped)`;
}

/** The pointer cell of a number control: a drag along its slider, and its handle dragged on the canvas. */
async function pointerNumberCell(id, key, spec) {
  const driven = [];
  const slider = page.locator(`[data-chart="${id}"] [data-control="${key}-slider"]`);
  if (spec.slider) {
    await slider.scrollIntoViewIfNeeded();
    const start = await views(id, key, { pixels: true });
    const rect = await slider.boundingBox();
    const y = rect.y + rect.height / 2;
    await page.mouse.move(rect.x + 4, y);
    await page.mouse.down();
    for (const f of [0.2, 0.45, 0.7]) await page.mouse.move(rect.x + rect.width * f, y, { steps: 4 });
    await page.mouse.up();
    const v = await assertAgree(id, key, spec, 'a pointer drag on the slider', { pixels: true });
    assert.notEqual(v.state, start.state, `${id}.${key}: the drag moved the value`);
    assertRedrawn(start, v, id, `${id}.${key} dragged on the slider`);
    driven.push('slider');
  }
  const handle = HANDLES.get(`${id}.${key}`);
  if (handle) {
    await handleDrag(handle, spec);
    driven.push('handle on the canvas');
  }
  return driven.join(', ');
}

/** A mouse drag on the handle's line on its canvas moves state, box, aria values, picture and address together. */
async function handleDrag(handle, spec) {
  const { chart: id, key } = handle;
  const saved = await reset(id);
  await page.locator(`[data-chart-root="${id}"] [data-handle="${key}"]`).scrollIntoViewIfNeeded();
  await twoFrames(page);
  const start = await views(id, key, { pixels: true });
  await listenForParts();
  const x = start.handle.knob.x + handle.press[0];
  const y = start.handle.knob.y + handle.press[1];
  const under = await page.evaluate(
    ([px, py]) => {
      const el = document.elementFromPoint(px, py);
      return el?.tagName === 'CANVAS' ? 'canvas' : (el?.dataset.handle ?? el?.tagName);
    },
    [x, y],
  );
  if (handle.press[0] || handle.press[1])
    assert.equal(under, 'canvas', `${id}.${key}: the press lands on the canvas, on the handle’s line, off its knob`);
  else assert.equal(under, key, `${id}.${key}: the press lands on the knob`);
  // ALiBi's bars: two bars to the right.
  const [dx, dy] = handle.drag === 'next-bars' ? [2 * (await barSpacing()), 0] : handle.drag;
  if (handle.drag === 'next-bars') {
    await reset(id);
    Object.assign(start, await views(id, key, { pixels: true }));
  }
  await page.mouse.move(x, y);
  await page.mouse.down();
  assert.equal((await views(id, key)).highlighted, handle.part, `${id}.${key}: holding the handle highlights its part`);
  for (let k = 1; k <= 5; k++) await page.mouse.move(x + (dx * k) / 5, y + (dy * k) / 5);
  await page.mouse.up();
  const moved = await assertAgree(id, key, spec, 'a drag of the handle', { pixels: true });
  assertHandleMoved(start, moved, `${id}.${key}: the drag`);
  assert.ok(await announced(handle), `${id}.${key}: the drag announces the part (chart-part)`);
  await page.evaluate(() => document.activeElement?.blur());
  await reset(id, saved);
  await assertAgree(id, key, spec, 'the chart put back as it was');
}

/**
 * What chart `id` shows (each key's box), with its address, description, data table (opened: it is
 * filled when the Data view opens) and picture, after the pending frame and the URL write.
 */
function shownState(id, keys) {
  return page.evaluate(
    async ({ chart, keys }) => {
      await new Promise((r) => requestAnimationFrame(r));
      window.positionalCharts.mounted.get(chart).flush?.();
      window.positionalCharts.flushUrlState();
      const slot = document.querySelector(`[data-chart="${chart}"]`);
      const details = slot.querySelector('details.chart-data');
      if (!details.open) {
        const toggled = new Promise((r) => details.addEventListener('toggle', r, { once: true }));
        details.open = true;
        await toggled;
      }
      const boxes = {};
      const params = new URLSearchParams(location.search);
      const written = {};
      for (const key of keys) {
        const input = slot.querySelector(`[data-control="${key}"]`);
        boxes[key] = input.type === 'checkbox' ? input.checked : input.value;
        written[key] = params.get(`${chart}.${key}`);
      }
      return {
        boxes,
        written,
        href: location.href,
        description: slot.querySelector('.chart-description')?.textContent ?? '',
        table: slot.querySelector('.chart-table-wrap')?.textContent ?? '',
      };
    },
    { chart: id, keys },
  );
}

for (const id of Object.keys(declarations)) {
  test(`${id}: every control × key, pointer, typed and URL`, async (t) => {
    const { controls } = declarations[id];
    await openChart(`${site.server.url}?embed=fig-${id}`, id);
    for (const [key, spec] of Object.entries(controls)) {
      const cell = async (path, run) => {
        await t.test(`${key} × ${path}`, async () => {
          cells.set(`${id}.${key} ${path}`, await run());
          assert.deepEqual(problems, [], `${id}.${key} × ${path}: no error`);
        });
      };
      const box = page.locator(`[data-chart="${id}"] [data-control="${key}"]`);
      if (spec.kind === 'number') {
        await cell('key', () => keyCell(id, key, spec));
        await cell('typed', () => typedNumberCell(id, key, spec));
        if (spec.slider || HANDLES.has(`${id}.${key}`)) await cell('pointer', () => pointerNumberCell(id, key, spec));
      } else if (spec.kind === 'text') {
        await cell('typed', async () => {
          const start = await views(id, key, { pixels: true });
          const text = key === 'pairs' ? '0, 3' : 'the cat sat';
          await box.focus();
          await page.keyboard.press('ControlOrMeta+A');
          await page.keyboard.type(text);
          const v = await assertAgree(id, key, spec, 'typing', { pixels: true });
          assert.notEqual(v.state, start.state, `${id}.${key}: typing changed the value`);
          assertRedrawn(start, v, id, `${id}.${key} typed`);
          return text;
        });
      } else if (spec.kind === 'select') {
        await cell('key', async () => {
          const start = await views(id, key, { pixels: true });
          await box.focus();
          await page.keyboard.press('ArrowDown');
          const v = await assertAgree(id, key, spec, 'ArrowDown', { pixels: true, afterKey: true });
          assert.notEqual(v.box, start.box, `${id}.${key}: the key changed the choice`);
          assertRedrawn(start, v, id, `${id}.${key} chosen by key`);
          return `ArrowDown: ${v.box}`;
        });
      } else if (spec.kind === 'checkbox') {
        await cell('key', async () => {
          const start = await views(id, key, { pixels: true });
          await box.focus();
          await page.keyboard.press('Space');
          const v = await assertAgree(id, key, spec, 'Space', { pixels: true, afterKey: true });
          assert.equal(v.box, !start.box, `${id}.${key}: Space toggled it`);
          assertRedrawn(start, v, id, `${id}.${key} toggled by Space`);
          await page.keyboard.press('Space');
          assert.equal(
            (await assertAgree(id, key, spec, 'Space again', { afterKey: true })).box,
            start.box,
            `${id}.${key}: and back`,
          );
          return 'Space, Space';
        });
        await cell('pointer', async () => {
          const start = await views(id, key, { pixels: true });
          await box.click();
          const v = await assertAgree(id, key, spec, 'a click', { pixels: true });
          assert.equal(v.box, !start.box, `${id}.${key}: a click toggled it`);
          assertRedrawn(start, v, id, `${id}.${key} toggled by a click`);
          return 'click';
        });
      }
    }
    // The URL: a fresh load of the address the cells above wrote shows every control as the page
    // showed it (each at a value other than its declared one, so the address carries it), with the
    // same description and data table.
    const keys = Object.keys(controls);
    const shown = await shownState(id, keys);
    assert.deepEqual(problems, [], `${id}: before the reload`);
    await openChart(shown.href, id);
    const fresh = await shownState(id, keys);
    for (const key of keys) {
      await t.test(`${key} × url`, () => {
        assert.notEqual(
          shown.written[key],
          null,
          `${id}.${key}: the address carries a value other than the declared one`,
        );
        assert.equal(fresh.boxes[key], shown.boxes[key], `${id}.${key}: the address reproduces the value`);
        assert.equal(fresh.written[key], shown.written[key], `${id}.${key}: and keeps it`);
        cells.set(`${id}.${key} url`, shown.written[key].slice(0, 40));
      });
    }
    assert.equal(fresh.description, shown.description, `${id}: the description matches the values`);
    assert.equal(fresh.table, shown.table, `${id}: the data table matches the values`);
    assert.deepEqual(
      redrawn.get(id),
      { pixels: true, description: true },
      `${id}: the controls change the picture and the description`,
    );
    assert.deepEqual(problems, []);
  });
}

test('the prose numbers a figure follows × prose', async (t) => {
  await loadAfresh(page, `${site.server.url}?charts=eager`, problems);
  await page.waitForFunction(() => window.positionalCharts, null, { timeout: 30000 });
  await page.evaluate(() => window.positionalCharts.mountAll());
  await page.evaluate(installViews);
  for (const [control, name] of PROSE) {
    const [id, key] = [control.slice(0, control.indexOf('.')), control.slice(control.indexOf('.') + 1)];
    const spec = declarations[id].controls[key];
    await t.test(`${id}.${key} × prose (${name})`, async () => {
      // The number in the text of the figure's own section (the one the figure follows).
      const handle = page
        .locator(`section:has([data-chart="${id}"]) [data-param="${name}"]:not([tabindex="-1"])`)
        .first();
      await handle.scrollIntoViewIfNeeded();
      const before = { text: await handle.getAttribute('aria-valuetext'), ...(await views(id, key, { pixels: true })) };
      await handle.focus();
      await page.keyboard.press(before.state >= spec.max ? 'ArrowDown' : 'ArrowUp');
      const now = await assertAgree(id, key, spec, `a key on the prose’s ${name}`, { pixels: true, afterKey: true });
      const prose = {
        now: await handle.getAttribute('aria-valuenow'),
        text: await handle.getAttribute('aria-valuetext'),
      };
      assert.notEqual(now.state, before.state, `${id}.${key}: the figure follows the prose`);
      assert.equal(String(now.state), prose.now, `${id}.${key}: the figure's value is the prose number's`);
      assert.notEqual(prose.text, before.text, `${name}: its aria-valuetext follows`);
      assertRedrawn(before, now, id, `${id}.${key} moved from the prose`);
      cells.set(`${id}.${key} prose`, `${name}: ${prose.now}`);
      assert.deepEqual(problems, []);
    });
  }
});

// A reader types at a human pace: the chart redraws between keys. A value is typed digit by digit,
// so on the way it passes through numbers another control's bound refuses (6, 65, 655 below a
// trained length of 4,096). The chart holds the bound and says why, but the box must keep the
// reader's digits, or the next key lands after the bound's value ("4096" + "5").
test('context-extension: a target typed digit by digit keeps its digits past the trained length', async () => {
  const id = 'context-extension';
  const spec = declarations[id].controls.target;
  await openChart(`${site.server.url}?embed=fig-${id}`, id);
  const box = page.locator(`[data-chart="${id}"] [data-control="target"]`);
  const message = page.locator(`[data-chart="${id}"] [data-control="target"] ~ .chart-message`).first();
  await box.focus();
  await page.keyboard.press('ControlOrMeta+A');
  let typed = '';
  for (const digit of '65536') {
    await page.keyboard.type(digit);
    typed += digit;
    const bites = Number(typed) < 4096 && Number(typed) >= spec.min;
    const v = await settled(
      id,
      'target',
      (v) => v.box === typed && (!bites || (v.state === 4096 && /at least the trained length/.test(v.message))),
    );
    assert.equal(v.box, typed, `after typing ${typed}, the box holds what was typed`);
    if (bites) {
      assert.equal(v.state, 4096, `at ${typed} the chart holds the target at the trained length`);
      assert.match(v.message, /at least the trained length/, `at ${typed} it says why`);
      assert.ok(await box.evaluate((e) => e === document.activeElement), 'the focus stays in the box');
    }
  }
  await page.keyboard.press('Enter');
  const v = await assertAgree(id, 'target', spec, 'typing 65536 a digit at a time');
  assert.equal(v.box, '65536');
  assert.equal(await message.textContent(), '', 'nothing left to explain');
  // Committing a value under the bound shows the bound in the box, with the reason.
  await box.focus();
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.type('655');
  await page.keyboard.press('Enter');
  const held = await assertAgree(id, 'target', spec, 'committing 655');
  assert.equal(held.box, '4096');
  assert.match(await message.textContent(), /at least the trained length/);
  assert.deepEqual(problems, []);
});

// A bound another control sets holds a value only while it bites. Typing 300 into the heatmap's n
// passes through n = 3, which holds "position read" at 2 and says so; at 300 the hold ends, so the
// position the reader chose comes back and the message goes (a message about three positions
// beside a 300-row table is false). The slider's Home and End do the same in one step each.
test('sinusoidal-heatmap: a position held by a small n comes back, message gone, when n grows again', async () => {
  const id = 'sinusoidal-heatmap';
  const { controls } = declarations[id];
  await openChart(`${site.server.url}?embed=fig-${id}`, id);
  const n = page.locator(`[data-chart="${id}"] [data-control="n"]`);
  const nSlider = page.locator(`[data-chart="${id}"] [data-control="n-slider"]`);
  const position = page.locator(`[data-chart="${id}"] [data-control="position"]`);
  const message = page.locator(`[data-chart="${id}"] [data-control="position"] ~ .chart-message`).first();
  const positionNow = async (what) => (await assertAgree(id, 'position', controls.position, what)).box;
  const commit = async (box, text) => {
    await box.focus();
    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.type(text);
    await page.keyboard.press('Enter');
  };

  await commit(position, '150');
  assert.equal(await positionNow('typing 150'), '150');

  await n.focus();
  await page.keyboard.press('ControlOrMeta+A');
  const expected = {
    3: ['2', /only 3 positions; reading position 2\./],
    30: ['29', /only 30 positions/],
    300: ['150', /^$/],
  };
  let typed = '';
  for (const digit of '300') {
    await page.keyboard.type(digit);
    typed += digit;
    const [shown, said] = expected[typed];
    await settled(id, 'position', (v) => v.box === shown && said.test(v.message));
    assert.equal(await n.inputValue(), typed, `n's box holds what was typed (${typed})`);
    assert.equal(await positionNow(`typing n = ${typed}`), shown, `the position at n = ${typed}`);
    assert.match(await message.textContent(), said, `the position's message at n = ${typed}`);
  }
  await page.keyboard.press('Enter');
  assert.equal((await assertAgree(id, 'n', controls.n, 'typing 300')).box, '300');
  assert.equal(await positionNow('committing n = 300'), '150');
  assert.equal(await message.textContent(), '');

  await nSlider.focus();
  await page.keyboard.press('Home');
  assert.equal(await positionNow('Home on the n slider'), '0');
  assert.match(await message.textContent(), /only 1 positions?; reading position 0\./);
  await page.keyboard.press('End');
  assert.equal(await positionNow('End on the n slider'), '150');
  assert.equal(await message.textContent(), '', 'the message goes with the hold');

  // A position the reader moves while it is held is the one that comes back.
  await commit(n, '100');
  assert.equal(await positionNow('committing n = 100'), '99');
  await position.focus();
  await page.keyboard.press('ArrowDown');
  assert.equal(await positionNow('ArrowDown on the held position'), '98');
  assert.equal(await message.textContent(), '', 'a position inside the bound needs no reason');
  await nSlider.focus();
  await page.keyboard.press('End');
  assert.equal(await positionNow('End on the n slider again'), '98', 'the reader chose 98 while held');
  assert.deepEqual(problems, []);
});

test('every declared control met every path that applies to its kind, once', () => {
  const missing = [];
  for (const [id, { controls }] of Object.entries(declarations))
    for (const [key, spec] of Object.entries(controls))
      for (const [path, kinds] of Object.entries(PATHS)) {
        const applies =
          path === 'prose'
            ? PROSE.has(`${id}.${key}`)
            : path === 'pointer' && spec.kind === 'number'
              ? Boolean(spec.slider) || HANDLES.has(`${id}.${key}`)
              : kinds.includes(spec.kind);
        if (applies && !cells.has(`${id}.${key} ${path}`)) missing.push(`${id}.${key} × ${path}`);
      }
  for (const handle of HANDLES.keys())
    for (const path of ['key', 'pointer'])
      if (!/handle/.test(cells.get(`${handle} ${path}`) ?? '')) missing.push(`${handle} × ${path} (its handle)`);
  assert.deepEqual(missing, [], `${ENGINE}: cells not run`);
  console.log(`control matrix (${ENGINE}): ${cells.size} cells`);
});
