// The length lab on the page (web/js/charts/length-lab.js, web/js/lab/): pressing Train trains one model
// per ticked scheme in module Workers and draws their losses and accuracies; the numbers are the
// engine's own bits (the fingerprints of the same runs in Node); Stop ends a run and nothing trains after
// it; a change of settings leaves the last run behind; the single file (no Worker file beside it) and a
// host that refuses the Worker's script train on the page's thread to the same bits; the CSV holds
// every loss and accuracy drawn; the recorded results wait for the reader's prediction or Train.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { after, before, test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { ENGINE, WEBKIT_MIN_WIDTH, downloadOf, openPage, singleFile, startSite, waitForChart } from './helpers.mjs';
import { loadEngine } from '../node/engine-loader.mjs';
import { answerChoice } from './self-test-answers.mjs';
import { SELF_TEST_ITEMS } from '../../web/js/self-test/self-test-items.js';

const ROOT = '[data-chart-root="length-lab"]';
// Short runs keep the suite quick: 30 steps of every scheme take about a second in all.
const STEPS = 30;
const SCHEMES = ['none', 'learned', 'sinusoidal', 'rope', 'alibi'];
const VARIANTS = ['none', 'learned', 'sinusoidal', 'rope', 'rope+pi', 'rope+ntk', 'rope+yarn', 'alibi'];

let site;
let expected; // scheme → the fingerprint of the same run in Node (dist/engine.mjs)
before(async () => {
  site = await startSite();
  const engine = await loadEngine();
  expected = Object.fromEntries(
    SCHEMES.map((scheme) => [
      scheme,
      engine.trainLengthLab({ scheme, task: 'lookup', trainLength: 16, steps: STEPS, seed: 7 }).fingerprint,
    ]),
  );
});
after(async () => site?.close());

/** Opens the page at the lab with `query` and waits for the chart. */
async function openLab(url, options = {}) {
  const opened = await openPage(site.browser, url, options);
  await opened.page.locator('[data-chart="length-lab"]').scrollIntoViewIfNeeded();
  await waitForChart(opened.page, 'length-lab');
  return opened;
}

const labValues = (page) =>
  page.evaluate(() => {
    const v = window.positionalCharts.mounted.get('length-lab').values;
    return {
      phase: v.phase,
      mode: v.mode,
      fallback: v.fallback,
      lossCounts: Object.fromEntries(Object.entries(v.losses).map(([k, l]) => [k, l.length])),
      fingerprints: Object.fromEntries(Object.entries(v.results).map(([k, r]) => [k, r.fingerprint])),
      variants: Object.values(v.results).flatMap((r) => r.variants),
      failures: v.failures,
    };
  });

const waitForPhase = (page, phases) =>
  page.waitForFunction(
    (wanted) => wanted.includes(window.positionalCharts.mounted.get('length-lab').values.phase),
    phases,
    { timeout: 120000 },
  );

/** Whether the lab's button `control` (train, stop) can be pressed. (WebKit's WebDriver adapter has no isEnabled.) */
const enabled = (page, control) =>
  page.evaluate(([sel, name]) => !document.querySelector(`${sel} [data-control="${name}"]`).disabled, [ROOT, control]);

/** Waits until some model has drawn at least `count` losses. */
const someLosses = (page, count) =>
  page.waitForFunction(
    (n) => Object.values(window.positionalCharts.mounted.get('length-lab').values.losses).some((l) => l.length >= n),
    count,
    { timeout: 60000 },
  );

/** Presses Train, waits for the run to end and returns the chart's values. */
async function trainToEnd(page) {
  await page.locator(`${ROOT} [data-control="train"]`).click();
  await waitForPhase(page, ['done', 'stopped']);
  return labValues(page);
}

test('Train trains every ticked scheme in Workers, to the same bits as the engine in Node', async () => {
  const { page, problems } = await openLab(`${site.server.url}?length-lab.steps=${STEPS}&length-lab.seed=7`);
  const root = page.locator(ROOT);
  assert.match(await root.locator('.chart-description').textContent(), /Not trained yet/);
  const values = await trainToEnd(page);
  assert.equal(values.phase, 'done');
  assert.equal(values.mode, 'worker', `the models trained off the page thread (fell back: ${values.fallback})`);
  assert.deepEqual(values.fingerprints, expected, 'each run is bit for bit the Node engine’s');
  assert.deepEqual(values.lossCounts, Object.fromEntries(SCHEMES.map((s) => [s, STEPS])), 'every step’s loss drawn');
  assert.deepEqual([...values.variants].sort(), [...VARIANTS].sort());
  assert.equal(await root.locator('progress').evaluate((bar) => bar.value), 1);
  const description = await root.locator('.chart-description').textContent();
  for (const label of ['RoPE + YaRN', 'ALiBi', 'learned table'])
    assert.ok(description.includes(label), `the description names ${label}: ${description}`);
  assert.match(description, /At 4× \(64 tokens\)/);
  // The Data view: one row per scored variant, then each model's sink diagnostic, a row per layer (2 each),
  // a column per evaluation length (16 … 128).
  await root.locator('summary').click();
  await page.waitForFunction((sel) => document.querySelectorAll(`${sel} .chart-data tbody tr`).length === 18, ROOT);
  const sinkRows = await page.evaluate(
    (sel) =>
      [...document.querySelectorAll(`${sel} .chart-data tbody tr`)]
        .map((tr) => tr.firstElementChild.textContent)
        .filter((name) => name.includes('on position 0')),
    ROOT,
  );
  assert.deepEqual(sinkRows.slice(0, 2), [
    'no positions (NoPE): on position 0, layer 1',
    'no positions (NoPE): on position 0, layer 2',
  ]);
  assert.equal(sinkRows.length, 10);
  const header = await page.evaluate(
    (sel) => [...document.querySelectorAll(`${sel} .chart-data thead th`)].map((th) => th.textContent),
    ROOT,
  );
  assert.deepEqual(header.slice(1), ['16', '32', '48', '64', '80', '96', '112', '128']);
  assert.deepEqual(problems, []);
  await page.context().close();
});

test('the newer schemes, with length-scaled softmax, train in Workers to the same bits as in Node', async () => {
  const engine = await loadEngine();
  const newer = ['rnope-swa', 'drope', 'cope'];
  const options = { task: 'lookup', trainLength: 16, steps: STEPS, seed: 7, lengthScaledSoftmax: true };
  // The figure's DroPE recalibrates for the last tenth of the steps.
  const nodeBits = Object.fromEntries(
    newer.map((scheme) => [
      scheme,
      engine.trainLengthLab({ ...options, scheme, recalibrationSteps: STEPS / 10 }).fingerprint,
    ]),
  );
  const off = ['nope', 'learned', 'sinusoidal', 'rope', 'alibi'].map((key) => `&length-lab.${key}=false`).join('');
  const { page, problems } = await openLab(
    `${site.server.url}?length-lab.steps=${STEPS}&length-lab.seed=7&length-lab.rnopeSwa=true&length-lab.drope=true&length-lab.cope=true&length-lab.ssmax=true${off}`,
  );
  const values = await trainToEnd(page);
  assert.equal(values.phase, 'done');
  assert.equal(values.mode, 'worker', `the models trained off the page thread (fell back: ${values.fallback})`);
  assert.deepEqual(values.fingerprints, nodeBits, 'each run is bit for bit the Node engine’s');
  // The lines are keyed by scheme; the table's caption says SSMax was on.
  assert.deepEqual([...values.variants].sort(), ['cope', 'drope', 'rnope-swa']);
  await page.locator(`${ROOT} summary`).click();
  assert.match(await page.locator(`${ROOT} .chart-data caption`).textContent(), /length-scaled softmax/);
  assert.deepEqual(problems, []);
  await page.context().close();
});

test('ticking schemes and a run’s scores arriving leave both canvases their size', async () => {
  // A canvas whose height changes gets a new bitmap (14–24 ms a step on a phone-speed CPU), and the
  // text below it moves: the legends keep room for every line the chart can draw.
  // At a phone's width, where the legends wrap onto several rows.
  const { page, problems } = await openLab(`${site.server.url}?length-lab.steps=${STEPS}&length-lab.seed=7`, {
    viewport: { width: ENGINE === 'webkit' ? WEBKIT_MIN_WIDTH : 360, height: 800 },
  });
  const root = page.locator(ROOT);
  // Each canvas's bitmap as last painted (by the chart Worker where it paints them) and its height on the page.
  const sizes = () =>
    page.evaluate(async (sel) => {
      const canvases = [...document.querySelectorAll(`${sel} canvas`)];
      const pictures = await Promise.all(canvases.map(window.positionalCharts.canvasPixels));
      return canvases.map((c, i) => `${pictures[i].width}×${pictures[i].height} ${c.style.height}`);
    }, ROOT);
  const settled = () => page.evaluate(() => new Promise((done) => requestAnimationFrame(() => setTimeout(done))));
  const first = await sizes();
  assert.equal(first.length, 2);
  const seen = [];
  for (const key of ['alibi', 'rope', 'nope', 'alibi']) {
    await root.locator(`[data-control="${key}"]`).click();
    await settled();
    seen.push(await sizes());
  }
  await trainToEnd(page);
  await settled();
  seen.push(await sizes());
  assert.deepEqual(seen, Array(seen.length).fill(first));
  assert.deepEqual(problems, []);
  await page.context().close();
});

test('Stop ends the run: no model trains after it, the losses so far stay drawn and Train is ready again', async () => {
  const { page, problems } = await openLab(`${site.server.url}?length-lab.steps=2000&length-lab.task=copy`);
  const root = page.locator(ROOT);
  await root.locator('[data-control="train"]').click();
  await someLosses(page, 20);
  await root.locator('[data-control="stop"]').click();
  await waitForPhase(page, ['stopped']);
  const stopped = await labValues(page);
  const drawn = Object.values(stopped.lossCounts).reduce((a, b) => a + b, 0);
  assert.ok(drawn >= 20 && drawn < 5 * 2000, `some steps were drawn (${drawn})`);
  assert.match(await root.locator('.chart-description').textContent(), /Stopped/);
  // A terminated Worker sends nothing more: a second later the same losses are drawn.
  await page.waitForTimeout(1000);
  assert.deepEqual((await labValues(page)).lossCounts, stopped.lossCounts);
  assert.equal(await enabled(page, 'train'), true);
  assert.equal(await enabled(page, 'stop'), false);
  assert.deepEqual(problems, []);
  await page.context().close();
});

test('a change of settings during a run stops it and the chart waits for Train under the new settings', async () => {
  const { page, problems } = await openLab(`${site.server.url}?length-lab.steps=2000`);
  const root = page.locator(ROOT);
  await root.locator('[data-control="train"]').click();
  await someLosses(page, 5);
  // Untick ALiBi with the pointer, as a reader would.
  await root.locator('[data-control="alibi"]').click();
  await page.waitForFunction(() => window.positionalCharts.mounted.get('length-lab').values.phase === 'idle');
  assert.match(await root.locator('.chart-description').textContent(), /Not trained yet\. Train runs 4 models/);
  assert.equal(await enabled(page, 'train'), true);
  assert.equal(await enabled(page, 'stop'), false);
  // Unticking every scheme leaves nothing to train, and says so beside Train.
  for (const key of ['nope', 'learned', 'sinusoidal']) await root.locator(`[data-control="${key}"]`).click();
  assert.match(await root.locator('.chart-description').textContent(), /Train runs 1 model \(RoPE\)/);
  await root.locator('[data-control="rope"]').click();
  assert.equal(await enabled(page, 'train'), false);
  assert.match(await root.locator('.lab-actions .chart-message').textContent(), /Tick at least one scheme/);
  assert.deepEqual(problems, []);
  await page.context().close();
});

test('the CSV holds every loss and accuracy the chart draws', async () => {
  const { page } = await openLab(
    `${site.server.url}?length-lab.steps=${STEPS}&length-lab.seed=7&length-lab.nope=false&length-lab.learned=false&length-lab.sinusoidal=false`,
  );
  const values = await trainToEnd(page);
  assert.deepEqual(Object.keys(values.fingerprints).sort(), ['alibi', 'rope']);
  const { filename, bytes } = await downloadOf(page, () => page.locator(`${ROOT} [data-export="csv"]`).click());
  assert.match(filename, /length-lab.*\.csv$/);
  const lines = bytes.toString('utf8').trim().split(/\r?\n/);
  assert.equal(lines[0], 'measure,scheme,step_or_length,value');
  const rows = lines.slice(1).map((l) => l.split(','));
  assert.equal(rows.filter((r) => r[0] === 'loss').length, 2 * STEPS);
  // RoPE scored four ways and ALiBi once, at 8 lengths each; each model's 2 layers' sink shares at 8 lengths.
  assert.equal(rows.filter((r) => r[0] === 'accuracy').length, 5 * 8);
  assert.equal(rows.filter((r) => r[0] === 'sink').length, 2 * 2 * 8);
  const sinks = await page.evaluate(
    () => window.positionalCharts.mounted.get('length-lab').values.results.alibi.sinkShare,
  );
  const alibiLayer2 = rows.filter((r) => r[0] === 'sink' && r[1] === 'alibi layer 2').map((r) => Number(r[3]));
  assert.deepEqual(alibiLayer2, Object.values(sinks.data).slice(sinks.cols, 2 * sinks.cols));
  const chart = await page.evaluate(
    () => window.positionalCharts.mounted.get('length-lab').values.results.rope.accuracy,
  );
  const yarn = rows.filter((r) => r[0] === 'accuracy' && r[1] === 'rope+yarn').map((r) => Number(r[3]));
  assert.deepEqual(yarn, Object.values(chart.data).slice(3 * chart.cols, 4 * chart.cols));
  await page.context().close();
});

test(
  'the single file has no Worker file beside it and trains on the page, to the same bits',
  { skip: !existsSync(singleFile) && 'no dist-single build' },
  async () => {
    const query = `?length-lab.steps=${STEPS}&length-lab.seed=7&length-lab.learned=false&length-lab.sinusoidal=false`;
    const { page, problems } = await openLab(pathToFileURL(singleFile).href + query);
    const values = await trainToEnd(page);
    assert.equal(values.mode, 'page');
    assert.deepEqual(values.fingerprints, { none: expected.none, rope: expected.rope, alibi: expected.alibi });
    assert.deepEqual(problems, []);
    await page.context().close();
    // A newer scheme with length-scaled softmax, on the page thread too.
    const engine = await loadEngine();
    const cope = engine.trainLengthLab({
      scheme: 'cope',
      task: 'lookup',
      trainLength: 16,
      steps: STEPS,
      seed: 7,
      lengthScaledSoftmax: true,
    }).fingerprint;
    const off = ['nope', 'learned', 'sinusoidal', 'rope', 'alibi'].map((key) => `&length-lab.${key}=false`).join('');
    const newer = await openLab(
      `${pathToFileURL(singleFile).href}?length-lab.steps=${STEPS}&length-lab.seed=7&length-lab.cope=true&length-lab.ssmax=true${off}`,
    );
    const newerValues = await trainToEnd(newer.page);
    assert.equal(newerValues.mode, 'page');
    assert.deepEqual(newerValues.fingerprints, { cope });
    assert.deepEqual(newer.problems, []);
    await newer.page.context().close();
  },
);

test(
  'a host that will not serve the Worker’s script: the lab trains on the page instead, to the same bits',
  // Request interception: Playwright's (Chromium and Firefox); WebKit's WebDriver has none.
  {
    skip:
      ENGINE === 'webkit' && 'WebDriver cannot intercept requests (the single-file test covers this path in WebKit)',
  },
  async () => {
    const query = `?length-lab.steps=${STEPS}&length-lab.seed=7&length-lab.nope=false&length-lab.learned=false&length-lab.sinusoidal=false`;
    const { page } = await openLab(site.server.url + query, {
      setup: (p) => p.route('**/lab-worker.js', (route) => route.fulfill({ status: 404, body: 'not here' })),
    });
    const values = await trainToEnd(page);
    assert.equal(values.mode, 'page');
    assert.deepEqual(values.fingerprints, { rope: expected.rope, alibi: expected.alibi });
    await page.context().close();
  },
);

test('the recorded results stay hidden until the prediction is answered or Train pressed, then show as medians of the recorded seeds', async () => {
  const hidden = /Answer the prediction above, or press Train, to see the recorded results\./;
  const shown = /Drawn until then: the median of \d+ recorded seeds; at 4×/;
  // The prediction answered with the pointer: the recorded medians appear in the description and the table.
  const first = await openLab(site.server.url);
  const root = first.page.locator(ROOT);
  const description = () => root.locator('.chart-description').textContent();
  assert.match(await description(), hidden);
  assert.doesNotMatch(await description(), /recorded seeds/);
  // The data table names the rows and leaves their cells empty until then.
  await root.locator('details.chart-data > summary').click(); // the Data view, opened as a reader would
  const table = () => root.locator('details.chart-data table').textContent();
  assert.doesNotMatch(await table(), /\d%/);
  const prediction = SELF_TEST_ITEMS.find((i) => i.id === 'predict_length_lab');
  await first.page.locator('.graded-item[data-item="predict_length_lab"]').scrollIntoViewIfNeeded();
  await answerChoice(first.page.mainFrame(), prediction, { choiceId: 'alibi' });
  await first.page.waitForFunction(() =>
    /recorded seeds/.test(document.querySelector('[data-chart-root="length-lab"] .chart-description').textContent),
  );
  assert.match(await description(), shown);
  assert.match(await table(), /Median of \d+ recorded seeds/);
  assert.match(await table(), /\d%/);
  assert.deepEqual(first.problems, []);
  await first.page.context().close();
  // Train pressed, then the settings changed (the run left behind): the medians are shown from then on.
  const second = await openLab(site.server.url);
  const lab = second.page.locator(ROOT);
  assert.match(await lab.locator('.chart-description').textContent(), hidden);
  await lab.locator('[data-control="train"]').click();
  await lab.locator('[data-control="alibi"]').click();
  await second.page.waitForFunction(() => window.positionalCharts.mounted.get('length-lab').values.phase === 'idle');
  assert.match(await lab.locator('.chart-description').textContent(), shown);
  assert.deepEqual(second.problems, []);
  await second.page.context().close();
});
