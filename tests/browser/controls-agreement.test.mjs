// Every chart control driven by real input (keys on the number box and the slider, typing a value
// and Enter, a pointer drag along the slider), then every view of that value checked against the
// others: the number box, its slider, the chart's state and the address (after the batched write);
// then, once a chart's controls have all moved, a fresh load of its address must give the same
// values, description and data table.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { loadAfresh, startSite, waitForChart, watchProblems } from './helpers.mjs';
import { CHART_DECLARATIONS } from '../../web/js/charts/declarations.js';

const BOX_KEYS = ['ArrowUp', 'ArrowDown', 'PageUp', 'PageDown', 'Home', 'End'];
const SLIDER_KEYS = ['ArrowRight', 'ArrowUp', 'ArrowLeft', 'ArrowDown', 'PageUp', 'PageDown', 'End', 'Home'];

let site;
// Every chart's declared controls, as plain data (what a JSON round trip keeps).
const declarations = JSON.parse(JSON.stringify(CHART_DECLARATIONS));
// One page for the whole suite: each chart is a load of its own address in it. A new context and
// page per chart cost Chromium about 3.4 s of CPU a load against 1.1 s for a load in a kept page,
// and the charts keep their state in the address, not in storage.
let context;
let page;
let problems;
const counts = { controls: 0, keyPresses: 0, typed: 0, drags: 0, checks: 0, reloads: 0 };

before(async () => {
  site = await startSite();
  context = await site.browser.newContext({ viewport: { width: 1280, height: 900 } });
  page = await context.newPage();
  problems = watchProblems(page);
});

after(async () => {
  console.log(`control agreement: ${JSON.stringify(counts)}`);
  await context?.close();
  await site?.close();
});

/** Loads `url` in the suite's page (afresh, even if only its fragment differs) and waits until chart `id` is drawn. */
async function openChart(url, id) {
  await loadAfresh(page, url, problems);
  await waitForChart(page, id);
}

/**
 * Every view of `key` in chart `id`, after the chart's pending frame and the URL write have run. The
 * control's handler asked for the chart's frame (requestAnimationFrame) before this call asks for
 * its own, so the chart's update has run when this callback does; the page writes it holds for the
 * following frame, flush() makes now. One frame, not two: a call waiting two frames took 34 ms in
 * Chromium and Firefox and 48 ms in WebKit, one frame 12-23 ms (medians of 40, load 2), and an
 * engine's run makes 390 checks.
 */
function views(page, id, key) {
  return page.evaluate(
    async ({ chart, name }) => {
      await new Promise((r) => requestAnimationFrame(r));
      const mounted = window.positionalCharts.mounted.get(chart);
      mounted.flush?.();
      window.positionalCharts.flushUrlState();
      const slot = document.querySelector(`[data-chart="${chart}"]`);
      const input = slot.querySelector(`[data-control="${name}"]`);
      const slider = slot.querySelector(`[data-control="${name}-slider"]`);
      return {
        box: input.type === 'checkbox' ? input.checked : input.value,
        slider: slider?.value ?? null,
        // Read here rather than by a locator after the call: one round trip per check, not two.
        message: slot.querySelector(`[data-control="${name}"] ~ .chart-message`)?.textContent ?? '',
        state: mounted.state?.[name],
        url: new URLSearchParams(location.search).get(`${chart}.${name}`),
      };
    },
    { chart: id, name: key },
  );
}

/** The views agree with one another; returns them. */
async function assertAgree(page, id, key, spec, what) {
  const v = await views(page, id, key);
  const where = `${id}.${key} after ${what}`;
  const value = spec.kind === 'number' ? Number(v.box) : v.box;
  if (v.state !== undefined) assert.equal(v.state, value, `${where}: the chart's state is the box's value`);
  if (v.slider !== null) assert.equal(Number(v.slider), value, `${where}: the slider shows the box's value`);
  const written = v.url ?? (spec.kind === 'checkbox' ? (spec.value ? '1' : '0') : String(spec.value));
  const shown = spec.kind === 'checkbox' ? (value ? '1' : '0') : String(value);
  assert.equal(written, shown, `${where}: the address holds the shown value`);
  counts.checks++;
  return v;
}

/**
 * What the chart's controls show (each key's box), with its address, description and data table
 * (opened if it is closed: it is filled when the Data view opens), after the chart's pending frame
 * and the URL write have run: one call for all the keys. Reading the table after every key would be
 * most of this suite's time, so it is read here, once per chart and page.
 */
function shownState(page, id, keys) {
  return page.evaluate(
    async ({ chart, keys }) => {
      await new Promise((r) => requestAnimationFrame(r)); // as in views()
      window.positionalCharts.mounted.get(chart).flush?.();
      window.positionalCharts.flushUrlState();
      const slot = document.querySelector(`[data-chart="${chart}"]`);
      const details = slot.querySelector('details.chart-data');
      if (!details.open) {
        const toggled = new Promise((r) => details.addEventListener('toggle', r, { once: true }));
        details.open = true;
        await toggled; // the table is filled when the Data view opens
      }
      const boxes = {};
      for (const key of keys) {
        const input = slot.querySelector(`[data-control="${key}"]`);
        boxes[key] = input.type === 'checkbox' ? input.checked : input.value;
      }
      return {
        boxes,
        href: location.href,
        description: slot.querySelector('.chart-description')?.textContent ?? '',
        table: slot.querySelector('.chart-table-wrap')?.textContent ?? '',
      };
    },
    { chart: id, keys },
  );
}

/**
 * A fresh load of the page's address shows every control of chart `id` as the page showed it, and
 * the same description and data table: the address carries the whole state. Checked once per chart,
 * after every control has moved, so the address holds all their last values.
 */
async function assertSameOnReload(id, keys) {
  const shown = await shownState(page, id, keys);
  assert.deepEqual(problems, [], `${id}: before the reload`);
  await openChart(shown.href, id);
  counts.reloads++;
  const fresh = await shownState(page, id, keys);
  for (const key of keys)
    assert.equal(fresh.boxes[key], shown.boxes[key], `${id}.${key}: the address reproduces the value`);
  assert.equal(fresh.description, shown.description, `${id}: the description matches the values`);
  assert.equal(fresh.table, shown.table, `${id}: the data table matches the values`);
}

/**
 * Types `text` a character at a time with the chart's frames run between keys, as a reader's pace
 * gives them, and checks after each that the box still holds what was typed (where that is a whole
 * number: a number box reports "3." or "-" as its sanitised value, not as typed).
 */
async function typeAtReadersPace(page, box, text, where) {
  assert.ok(await box.evaluate((e) => e === document.activeElement), `${where}: the box has the focus`);
  let typed = '';
  for (const character of text) {
    await page.keyboard.type(character);
    typed += character;
    // The frames and the box's value in one call (the box has the focus): a round trip less per key.
    const value = await page.evaluate(
      () =>
        new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => r(document.activeElement.value)))),
    );
    if (/^-?\d+(\.\d+)?$/.test(typed)) assert.equal(value, typed, `${where}: the box after typing ${typed}`);
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

for (const id of Object.keys(CHART_DECLARATIONS)) {
  test(`${id}: every control agrees with every view, by keyboard and pointer`, async () => {
    const { controls } = declarations[id];
    await openChart(`${site.server.url}?embed=fig-${id}`, id);
    for (const [key, spec] of Object.entries(controls)) {
      counts.controls++;
      const box = page.locator(`[data-chart="${id}"] [data-control="${key}"]`);
      if (spec.kind === 'number') {
        // A key on a focused field leaves the focus there: one focus() serves every key.
        await box.focus();
        for (const k of BOX_KEYS) {
          await page.keyboard.press(k);
          counts.keyPresses++;
          await assertAgree(page, id, key, spec, `${k} on the box`);
        }
        const value = typedValue(spec);
        await box.focus();
        await page.keyboard.press('ControlOrMeta+A');
        await typeAtReadersPace(page, box, String(value), `${id}.${key}`);
        await page.keyboard.press('Enter');
        counts.typed++;
        let v = await assertAgree(page, id, key, spec, `typing ${value}`);
        assert.ok(
          Number(v.box) === value || v.message !== '',
          `${id}.${key}: typed ${value}, shows ${v.box} with no reason given`,
        );
        // Past the top of the range: clamped, with the message, and every view follows.
        await box.focus();
        await page.keyboard.press('ControlOrMeta+A');
        await page.keyboard.type(String(spec.max + 3));
        await page.keyboard.press('Enter');
        counts.typed++;
        v = await assertAgree(page, id, key, spec, `typing ${spec.max + 3}`);
        assert.ok(Number(v.box) <= spec.max, `${id}.${key}: clamped to the range`);
        assert.notEqual(v.message, '', `${id}.${key}: says why`);
        const slider = page.locator(`[data-chart="${id}"] [data-control="${key}-slider"]`);
        if (await slider.count()) {
          await slider.focus();
          for (const k of SLIDER_KEYS) {
            await page.keyboard.press(k);
            counts.keyPresses++;
            await assertAgree(page, id, key, spec, `${k} on the slider`);
          }
          const boxOf = await slider.boundingBox();
          const y = boxOf.y + boxOf.height / 2;
          await page.mouse.move(boxOf.x + 4, y);
          await page.mouse.down();
          for (const f of [0.2, 0.45, 0.7]) await page.mouse.move(boxOf.x + boxOf.width * f, y, { steps: 4 });
          await page.mouse.up();
          counts.drags++;
          v = await assertAgree(page, id, key, spec, 'a pointer drag on the slider');
          assert.notEqual(Number(v.box), spec.min, `${id}.${key}: the drag moved the value`);
        }
      } else if (spec.kind === 'text') {
        await box.focus();
        await page.keyboard.press('ControlOrMeta+A');
        await page.keyboard.type(key === 'pairs' ? '0, 3' : 'the cat sat');
        counts.typed++;
        await assertAgree(page, id, key, spec, 'typing');
      } else if (spec.kind === 'select' && spec.options) {
        await box.focus();
        await page.keyboard.press('ArrowDown');
        counts.keyPresses++;
        const v = await assertAgree(page, id, key, spec, 'ArrowDown');
        assert.notEqual(v.box, spec.value, `${id}.${key}: the key changed the choice`);
      } else if (spec.kind === 'checkbox') {
        await box.focus();
        await page.keyboard.press('Space');
        counts.keyPresses++;
        const v = await assertAgree(page, id, key, spec, 'Space');
        assert.equal(v.box, !spec.value, `${id}.${key}: Space toggled it`);
      }
    }
    await assertSameOnReload(id, Object.keys(controls));
    assert.deepEqual(problems, []);
  });
}

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
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    assert.equal(await box.inputValue(), typed, `after typing ${typed}, the box holds what was typed`);
    if (Number(typed) < 4096 && Number(typed) >= spec.min) {
      const { state } = await views(page, id, 'target');
      assert.equal(state, 4096, `at ${typed} the chart holds the target at the trained length`);
      assert.match(await message.textContent(), /at least the trained length/, `at ${typed} it says why`);
      assert.ok(await box.evaluate((e) => e === document.activeElement), 'the focus stays in the box');
    }
  }
  await page.keyboard.press('Enter');
  const v = await assertAgree(page, id, 'target', spec, 'typing 65536 a digit at a time');
  assert.equal(v.box, '65536');
  assert.equal(await message.textContent(), '', 'nothing left to explain');
  // Committing a value under the bound shows the bound in the box, with the reason.
  await box.focus();
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.type('655');
  await page.keyboard.press('Enter');
  const held = await assertAgree(page, id, 'target', spec, 'committing 655');
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
  const frames = () => page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  const positionNow = async (what) => (await assertAgree(page, id, 'position', controls.position, what)).box;
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
    await frames();
    const [shown, said] = expected[typed];
    assert.equal(await n.inputValue(), typed, `n's box holds what was typed (${typed})`);
    assert.equal(await positionNow(`typing n = ${typed}`), shown, `the position at n = ${typed}`);
    assert.match(await message.textContent(), said, `the position's message at n = ${typed}`);
  }
  await page.keyboard.press('Enter');
  assert.equal((await assertAgree(page, id, 'n', controls.n, 'typing 300')).box, '300');
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
