// The figures' handles and motion (web/js/chart-kit/handles.js, motion.js) used as a reader would:
// every handle a named slider in the tab order; at a phone's width, a drag on a log axis walking
// round values and − and + moving every handle without a drag, each step checked for the chart's
// state, its number box, the handle's aria-valuenow/valuetext, the canvas pixels and the URL all
// moving together; the Play button animating and stopping when the reader takes a key or the
// pointer; no motion at all (no button, a sentence why, nothing changing over time) when the reader
// asks for reduced motion. Each handle's keys and its drag on the canvas are cells of the control
// matrix (control-matrix.test.mjs).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { chartDefinitions, mountAllCharts, openPage, startSite, twoFrames } from './helpers.mjs';
import { CHART_DECLARATIONS } from '../../web/js/charts/declarations.js';

/**
 * Every handle and every motion the charts declare (their defineChart definitions, read in Node as
 * the site build reads their parts), so a new chart's handles are driven here with no edit. Each
 * handle's keys and its drag on the canvas, checked against every view of its value, are cells of
 * the control matrix (control-matrix.test.mjs); here, what is particular to handles: their roles,
 * a phone's width, and the charts' motion.
 */
/** Where a chart's motion is driven from when its slider is not a handle (the clock's face is its slider). */
const MOTION_HANDLE = { 'rope-clock': 'canvas[role="slider"]' };
/** The control typed into while a motion plays, where the default (the last number control neither animated nor a handle) is not the one wanted. */
const MOTION_OTHER = { 'context-extension': 'd', 'rope-relative': 'd' };

const definitions = await chartDefinitions();
const HANDLES = definitions.flatMap(({ id, handles = [] }) =>
  handles.map((h) => ({
    chart: id,
    key: h.key,
    part: h.part ?? h.key,
    axis: h.axis,
    stops: h.stops,
  })),
);
/** The charts with motion, the state key each animates (the first its frame sets), and another number control to type in. */
const MOTION = definitions
  .filter((d) => d.motion)
  .map(({ id, motion, handles }) => {
    const controls = CHART_DECLARATIONS[id].controls;
    const state = Object.fromEntries(Object.entries(controls).map(([k, c]) => [k, c.value]));
    const animated = Object.keys(motion.frame(0.5, motion.start({ state }), { state }));
    const moved = new Set([...animated, ...handles.map((h) => h.key)]);
    const other =
      MOTION_OTHER[id] ?? Object.keys(controls).findLast((k) => !moved.has(k) && controls[k].kind === 'number');
    return { chart: id, key: animated[0], other, ...(MOTION_HANDLE[id] ? { handle: MOTION_HANDLE[id] } : {}) };
  });

let site;
let page;
let problems;

before(async () => {
  site = await startSite();
  ({ page, problems } = await openPage(site.browser, `${site.server.url}?charts=eager`, {
    viewport: { width: 1100, height: 900 },
  }));
  await mountAllCharts(page);
});

after(async () => {
  await site?.close();
});

/** Everything that must move together, read from the page at once. */
function read(page, { chart, key, handle: handleSelector }) {
  return page.evaluate(
    async ([id, name, selector]) => {
      const root = document.querySelector(`[data-chart-root="${id}"]`);
      const handle = root.querySelector(selector ?? `[data-handle="${name}"]`);
      // A cheap hash of every canvas of the chart (FNV-1a over the pixels, as the reader sees them).
      let hash = 2166136261;
      for (const canvas of root.querySelectorAll('canvas')) {
        const pixels = new Uint32Array((await window.positionalCharts.canvasPixels(canvas)).data.buffer);
        for (let i = 0; i < pixels.length; i += 3) hash = Math.imul(hash ^ pixels[i], 16777619) >>> 0;
      }
      const box = handle.getBoundingClientRect();
      return {
        state: window.positionalCharts.mounted.get(id).state[name],
        highlighted: window.positionalCharts.mounted.get(id).highlighted,
        box: root.querySelector(`input[data-control="${name}"]`).value,
        now: handle.getAttribute('aria-valuenow'),
        min: handle.getAttribute('aria-valuemin'),
        max: handle.getAttribute('aria-valuemax'),
        text: handle.getAttribute('aria-valuetext'),
        url: new URL(location.href).searchParams.get(`${id}.${name}`),
        // The chart's description: the numbers it reads off the figure for the new value.
        description: root.querySelector('.chart-description').textContent,
        pixels: hash,
        knob: { x: box.x + box.width / 2, y: box.y + box.height / 2 },
        focused: document.activeElement === handle,
      };
    },
    [chart, key, handleSelector],
  );
}

/** Waits for the chart's redraw and the URL write that follow a change. */
async function settle(page, { chart, key }) {
  await twoFrames(page);
  await page.waitForFunction(
    ([id, name]) => {
      const value = window.positionalCharts.mounted.get(id).state[name];
      const declared = window.positionalCharts.declarations[id].controls[name].value;
      const url = new URL(location.href).searchParams.get(`${id}.${name}`);
      return value === declared ? url === null : url === String(value);
    },
    [chart, key],
    { timeout: 5000 },
  );
}

/** Puts a chart back to its declared defaults through its own set(). */
async function reset(page, chart) {
  await page.evaluate((id) => {
    const defaults = Object.fromEntries(
      Object.entries(window.positionalCharts.declarations[id].controls).map(([k, c]) => [k, c.value]),
    );
    window.positionalCharts.mounted.get(id).set(defaults);
  }, chart);
  await twoFrames(page);
}

/** The state, number box, slider values, pixels and URL all say the chart moved from `before` to a new value. */
function assertMovedTogether(before, now, what) {
  assert.notEqual(now.state, before.state, `${what}: the state changes`);
  assert.equal(now.box, String(now.state), `${what}: the number box shows the new value`);
  assert.equal(now.now, String(now.state), `${what}: aria-valuenow follows`);
  assert.ok(now.text && now.text !== before.text, `${what}: aria-valuetext follows (${now.text})`);
  assert.notEqual(now.pixels, before.pixels, `${what}: the canvas is redrawn`);
  assert.notEqual(now.description, before.description, `${what}: the description's numbers follow`);
}

test('the lesson declares exactly the handles this suite drives, each a labelled slider', async () => {
  const found = await page.evaluate(() =>
    [...document.querySelectorAll('.chart-handle')].map((h) => ({
      chart: h.closest('[data-chart-root]').dataset.chartRoot,
      key: h.dataset.handle,
      role: h.getAttribute('role'),
      label: h.getAttribute('aria-label'),
      tabIndex: h.tabIndex,
    })),
  );
  assert.deepEqual(found.map((h) => `${h.chart}.${h.key}`).sort(), HANDLES.map((h) => `${h.chart}.${h.key}`).sort());
  for (const h of found) {
    assert.equal(h.role, 'slider', `${h.chart}.${h.key} is a slider`);
    assert.ok(h.label, `${h.chart}.${h.key} has an accessible name`);
    assert.equal(h.tabIndex, 0, `${h.chart}.${h.key} is in the tab order`);
  }
});

// What a phone gets: at 360 px a drag on a log axis walks round values (powers of two, or 1, 2, 5 ×
// 10^k), a finger's movement per value; and every handle moves without a drag, by − and + beside
// its number box (WCAG 2.5.7), each at least 24 CSS px square (2.5.8).
/** The handles on a logarithmic axis (or the query positions' log-like line). */
const LOG_AXIS = new Set([
  'context-extension.trained',
  'context-extension.target',
  'precision.position',
  'model-card.prompt',
  'attention-sinks.keys',
  'rope-relative.s0',
  'rope-relative.s1',
  'rope-relative.s2',
]);

describe('at a phone’s width', () => {
  let phone;
  before(async () => {
    phone = await openPage(site.browser, `${site.server.url}?charts=eager`, { viewport: { width: 360, height: 780 } });
    await mountAllCharts(phone.page);
  });
  after(async () => {
    await phone?.context.close();
  });

  /** Whether `v` is a stop a drag may settle on: a power of two, 0, or 1, 2 or 5 times a power of ten. */
  const round = (v) =>
    v === 0 || Number.isInteger(Math.log2(v)) || [1, 2, 5].some((m) => Number.isInteger(Math.log10(v / m)));

  test('the handles on log axes are the ones whose drag walks stops', () => {
    assert.deepEqual(
      HANDLES.filter((h) => h.stops).map((h) => `${h.chart}.${h.key}`),
      HANDLES.filter((h) => LOG_AXIS.has(`${h.chart}.${h.key}`)).map((h) => `${h.chart}.${h.key}`),
    );
  });

  for (const handle of HANDLES.filter((h) => LOG_AXIS.has(`${h.chart}.${h.key}`))) {
    const name = `${handle.chart}.${handle.key}`;
    test(`${name}: a 40 px mouse drag on its log axis walks at most four round values, 16 px apart`, async () => {
      const { page } = phone;
      await reset(page, handle.chart);
      const knob = await page.evaluate(
        ([id, key]) => {
          const h = document.querySelector(`[data-chart-root="${id}"] [data-handle="${key}"]`);
          h.scrollIntoView({ block: 'center' });
          const r = h.getBoundingClientRect();
          return { x: r.x + r.width / 2, y: r.y + r.height / 2 };
        },
        [handle.chart, handle.key],
      );
      const value = () =>
        page.evaluate(([id, key]) => window.positionalCharts.mounted.get(id).state[key], [handle.chart, handle.key]);
      const start = await value();
      await page.mouse.move(knob.x, knob.y);
      await page.mouse.down();
      const seen = [start];
      const changedAt = [];
      // Up the y axis, right along the x axis: towards larger values on every such chart.
      for (let px = 2; px <= 40; px += 2) {
        await page.mouse.move(handle.axis === 'x' ? knob.x + px : knob.x, handle.axis === 'y' ? knob.y - px : knob.y);
        const v = await value();
        if (v !== seen.at(-1)) {
          seen.push(v);
          changedAt.push(px);
        }
      }
      await page.mouse.up();
      // The landed build took 30 px from 32,768 to 2,012,832: 16 values in 40 px, none of them round.
      assert.ok(seen.length >= 2, `the drag moves the value (${seen.join(', ')})`);
      assert.ok(seen.length <= 4, `at most 1 + 40/16 values in 40 px, not ${seen.length}: ${seen.join(', ')}`);
      for (const v of seen.slice(1)) assert.ok(round(v), `${v} is a round stop`);
      // Sampled every 2 px: a change comes 16 px after the one before, give or take one sample.
      for (let i = 1; i < changedAt.length; i++)
        assert.ok(changedAt[i] - changedAt[i - 1] >= 14, `changes at ${changedAt.join(', ')} px`);
      for (let i = 1; i < seen.length; i++) assert.ok(seen[i] > seen[i - 1], 'each value larger than the last');
      await reset(page, handle.chart);
    });
  }

  for (const handle of HANDLES) {
    const name = `${handle.chart}.${handle.key}`;
    test(`${name}: − and + beside its number box move it without a drag, and are at least 24 px square`, async () => {
      const { page } = phone;
      await reset(page, handle.chart);
      const field = page.locator(
        `[data-chart-root="${handle.chart}"] .chart-field:has(input[data-control="${handle.key}"])`,
      );
      const plus = field.locator('button.chart-step[data-step$=":up"]');
      const minus = field.locator('button.chart-step[data-step$=":down"]');
      await plus.scrollIntoViewIfNeeded();
      for (const button of [plus, minus]) {
        const box = await button.boundingBox();
        assert.ok(box.width >= 24 && box.height >= 24, `${box.width} × ${box.height} CSS px`);
        assert.ok(await button.getAttribute('aria-label'), 'named');
      }
      const start = await read(page, handle);
      await plus.click();
      await settle(page, handle);
      const up = await read(page, handle);
      assertMovedTogether(start, up, '+');
      assert.ok(up.state > start.state, '+ increases the value');
      await minus.click();
      await settle(page, handle);
      const down = await read(page, handle);
      assert.ok(down.state < up.state, '− decreases it');
      await reset(page, handle.chart);
    });
  }

  test('no console errors at the phone’s width', () => {
    assert.deepEqual(phone.problems, []);
  });
});

/** The animated value and the chart's pixels now, and whether it says it is playing. */
function motionNow(page, { chart, key, handle }) {
  return read(page, { chart, key, handle }).then(async (r) => ({
    ...r,
    playing: await page.evaluate((id) => window.positionalCharts.mounted.get(id).motion.playing, chart),
    pressed: await page.locator(`[data-chart-root="${chart}"] .chart-play`).getAttribute('aria-pressed'),
  }));
}

/** Asserts that nothing of the chart changes over `ms`. */
async function assertStill(page, motion, ms, what) {
  const a = await motionNow(page, motion);
  await page.waitForTimeout(ms);
  const b = await motionNow(page, motion);
  assert.equal(b.state, a.state, `${what}: the value stays put`);
  assert.equal(b.pixels, a.pixels, `${what}: the picture stays put`);
  assert.equal(b.playing, false, `${what}: not playing`);
}

for (const motion of MOTION) {
  test(`${motion.chart}: Play animates through set(); a key or a press on the chart stops it`, async () => {
    await reset(page, motion.chart);
    const button = page.locator(`[data-chart-root="${motion.chart}"] .chart-play`);
    await button.scrollIntoViewIfNeeded();
    assert.equal(await button.isVisible(), true, 'the Play button is there');
    assert.equal(await page.locator(`[data-chart-root="${motion.chart}"] .chart-motion-note`).isVisible(), false);
    const start = await motionNow(page, motion);
    await button.click();
    // The motion's next value, however long a busy machine takes to give the page its frames (up to 20 s).
    const nextMove = async (from) => {
      for (let waited = 0; waited < 20000; waited += 100) {
        await page.waitForTimeout(100);
        const now = await motionNow(page, motion);
        if (now.state !== from.state) return now;
      }
      return motionNow(page, motion);
    };
    const a = await nextMove(start);
    const b = await nextMove(a);
    assert.equal(a.playing, true, 'Play starts the motion');
    assert.equal(a.pressed, 'true', 'the button says it is pressed');
    for (const [x, y, when] of [
      [start, a, 'first move'],
      [a, b, 'second move'],
    ]) {
      assert.notEqual(y.state, x.state, `the value moves (${when})`);
      assert.notEqual(y.pixels, x.pixels, `the picture moves (${when})`);
      assert.equal(y.box, String(y.state), `the number box follows (${when})`);
      assert.equal(y.now, String(y.state), `the handle's aria-valuenow follows (${when})`);
    }

    // A key: focus another control (focus alone does not stop it), then press Shift there.
    await page.locator(`[data-chart-root="${motion.chart}"] input[data-control="${motion.other}"]`).focus();
    await page.waitForTimeout(150);
    assert.equal((await motionNow(page, motion)).playing, true, 'moving focus alone does not stop it');
    await page.keyboard.press('Shift');
    assert.equal((await motionNow(page, motion)).pressed, 'false', 'a key stops it');
    await assertStill(page, motion, 400, 'after a key');

    // A press: Play again, then press the mouse on the canvas's title (not on any handle).
    await button.click();
    await page.waitForTimeout(300);
    assert.equal((await motionNow(page, motion)).playing, true, 'Play starts it again');
    // The canvas is brought to the middle of the viewport first: the button may sit at the
    // viewport's lower edge with the canvas below it, out of the mouse's reach.
    const canvas = await page
      .locator(`[data-chart-root="${motion.chart}"] canvas`)
      .first()
      .evaluate((c) => {
        c.scrollIntoView({ block: 'center' });
        const r = c.getBoundingClientRect();
        const point = { x: r.x + r.width / 2, y: r.y + 8 };
        return { ...point, onCanvas: document.elementFromPoint(point.x, point.y) === c };
      });
    assert.equal(canvas.onCanvas, true, 'the press lands on the canvas');
    await page.mouse.move(canvas.x, canvas.y);
    await page.mouse.down();
    await page.mouse.up();
    await assertStill(page, motion, 400, 'after a press');
    await reset(page, motion.chart);
  });
}

for (const motion of MOTION) {
  test(`${motion.chart}: a handle's steps with nothing playing leave the Play button as it is`, async () => {
    await reset(page, motion.chart);
    const root = `[data-chart-root="${motion.chart}"]`;
    const handle = page.locator(`${root} [role="slider"]`).first();
    await handle.scrollIntoViewIfNeeded();
    // The button's text node, marked: a stop that wrote the button again would put a new one there,
    // laid out again in every frame of a drag.
    await page.evaluate((r) => (window.__playText = document.querySelector(`${r} .chart-play`).firstChild), root);
    const before = await handle.getAttribute('aria-valuenow');
    await handle.focus();
    await page.keyboard.press('ArrowRight');
    // The handle's ARIA values are written in the step's frame: read them once it has been drawn.
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    const moved = await handle.getAttribute('aria-valuenow');
    await page.keyboard.press('ArrowLeft');
    await page.waitForTimeout(100);
    assert.notEqual(moved, before, 'the key moved the handle');
    const button = await page.evaluate((r) => {
      const b = document.querySelector(`${r} .chart-play`);
      return { same: b.firstChild === window.__playText, text: b.textContent, pressed: b.getAttribute('aria-pressed') };
    }, root);
    assert.equal(button.same, true, 'the Play button was not written again');
    assert.equal(button.pressed, 'false');
    assert.notEqual(button.text, 'Pause');
    await reset(page, motion.chart);
  });
}

test('reduced motion: no Play button, a sentence why, and nothing moves over time', async () => {
  const reduced = await openPage(site.browser, `${site.server.url}?charts=eager`, {
    viewport: { width: 1100, height: 900 },
    contextOptions: { reducedMotion: 'reduce' },
  });
  try {
    const other = reduced.page;
    await mountAllCharts(other);
    assert.equal(
      await other.evaluate(() => matchMedia('(prefers-reduced-motion: reduce)').matches),
      true,
      'the browser reports reduced motion',
    );
    for (const motion of MOTION) {
      const root = `[data-chart-root="${motion.chart}"]`;
      await other.locator(root).scrollIntoViewIfNeeded();
      assert.equal(await other.locator(`${root} .chart-play`).isVisible(), false, `${motion.chart}: no Play button`);
      assert.match(
        await other.locator(`${root} .chart-motion-note`).textContent(),
        /reduced motion/,
        `${motion.chart}: the chart says why there is no animation`,
      );
      assert.equal(await other.locator(`${root} .chart-motion-note`).isVisible(), true);
      // Even asked directly, the chart does not animate.
      await other.evaluate((id) => window.positionalCharts.mounted.get(id).motion.play(), motion.chart);
      await assertStill(other, motion, 600, `${motion.chart} under reduced motion`);
    }
    assert.deepEqual(reduced.problems, []);
  } finally {
    await reduced.context.close();
  }
});

test('no console errors while handles were used', () => {
  assert.deepEqual(problems, []);
});
