// Browser tests of the "Read your model's card" widget (web/js/charts/model-card.js) on the served
// site: every preset's summary, the chart against the engine's own numbers, exports, URL state,
// and hostile or broken pastes (errors named, no script runs, the widget keeps working).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startServer } from '../../web/site-builder/serve.mjs';
import { launchBrowser, recordPageErrors } from './helpers.mjs';
import { gemmaHeader, llamaHeader } from '../support/gguf-writer.mjs';

const repo = new URL('../../', import.meta.url).pathname;
const dist = process.env.POSITIONAL_DIST ?? join(repo, 'dist');
const presetsDir = join(repo, 'web', 'presets');
const brokenDir = join(repo, 'tests', 'fixtures', 'configs', 'broken');
const presetIndex = JSON.parse(readFileSync(join(presetsDir, 'index.json'), 'utf8')).presets;
const brokenExpected = JSON.parse(readFileSync(join(brokenDir, 'expected.json'), 'utf8')).expected;

const ROOT = '[data-chart-root="model-card"]';

// What each preset's summary must say (scheme, lengths and scaling as the lesson formats them), from
// the published config.json each file copies: tests/fixtures/configs/presets-summaries.json.
const SUMMARY_FACTS = JSON.parse(
  readFileSync(join(repo, 'tests', 'fixtures', 'configs', 'presets-summaries.json'), 'utf8'),
).summaries;
const STRETCH_ADVICE =
  'An entry with a factor means the model was trained shorter and stretched, so test it at the lengths you will use';

let browser;
let server;
let page;
const problems = [];

before(async () => {
  assert.ok(existsSync(join(dist, 'index.html')), `no built site at ${dist}: run the wasm build's site target first`);
  server = await startServer({ root: dist, port: 0 });
  browser = await launchBrowser();
  page = await openCard('');
});

after(async () => {
  await browser?.close();
  await server?.close();
});

/** Opens the page with every chart mounted and waits for the widget's first analysis. */
async function openCard(query, viewport = { width: 1280, height: 900 }) {
  const p = await browser.newPage({ viewport, acceptDownloads: true });
  p.on('console', (m) => m.type() === 'error' && problems.push(`console: ${m.text()}`));
  recordPageErrors(p, problems, 'pageerror: ');
  await p.addInitScript(() => {
    window.__cspViolations = [];
    document.addEventListener('securitypolicyviolation', (e) =>
      window.__cspViolations.push(`${e.violatedDirective}: ${e.blockedURI}`),
    );
  });
  await p.goto(`${server.url}?charts=eager${query}`);
  await p.waitForFunction(
    (root) => ['ready', 'error'].includes(document.querySelector(root)?.dataset.cardState),
    ROOT,
    { timeout: 20000 },
  );
  return p;
}

const analyses = (p) => p.$eval(ROOT, (el) => Number(el.dataset.analyses ?? 0));

/** Runs `action`, then waits until the widget has analysed again. */
async function afterAnalysis(p, action) {
  const before = await analyses(p);
  await action();
  await p.waitForFunction(([root, n]) => Number(document.querySelector(root).dataset.analyses) > n, [ROOT, before], {
    timeout: 5000,
  });
}

const choose = (p, id) => afterAnalysis(p, () => p.selectOption(`${ROOT} select[data-control="preset"]`, id));
/** Types a prompt length and presses Enter; waits for the analysis unless the length was already n. */
async function setPrompt(p, n) {
  const input = `${ROOT} input[data-control="prompt"]`;
  if ((await p.$eval(input, (i) => i.value)) === String(n)) return;
  await afterAnalysis(p, async () => {
    await p.fill(input, String(n));
    await p.press(input, 'Enter');
  });
}
const paste = (p, text) =>
  afterAnalysis(p, async () => {
    await p.fill(`${ROOT} textarea`, text);
    await p.click(`${ROOT} [data-control="analyse"]`);
  });
const summaryText = (p) => p.$eval(`${ROOT} .model-card-summary`, (el) => el.textContent.replace(/\s+/g, ' '));
const errorText = (p) => p.$eval(`${ROOT} .chart-textarea-error`, (el) => el.textContent);

/** The engine's own reading of what the widget shows (same text, same prompt length). */
const engineReport = (p) =>
  p.evaluate((root) => {
    const el = document.querySelector(root);
    const r = window.positionalLesson.engine.readModelConfig(
      el.querySelector('textarea').value,
      Number(el.querySelector('input[data-control="prompt"]').value),
    );
    return {
      ...r,
      invFreq: [...r.invFreq],
      baseInvFreq: [...r.baseInvFreq],
      wavelengths: [...r.wavelengths],
      baseWavelengths: [...r.baseWavelengths],
      beyond: [...r.beyond],
    };
  }, ROOT);

/** Canvas pixels: how many differ from the top-left (background) pixel, and how many are #dc2626-like. */
const canvasStats = (p) =>
  p.$eval(`${ROOT} canvas`, async (canvas) => {
    const { data } = await window.positionalCharts.canvasPixels(canvas);
    let drawn = 0;
    let red = 0;
    for (let i = 0; i < data.length; i += 4) {
      if (Math.abs(data[i] - data[0]) + Math.abs(data[i + 1] - data[1]) + Math.abs(data[i + 2] - data[2]) > 30) drawn++;
      if (Math.abs(data[i] - 220) + Math.abs(data[i + 1] - 38) + Math.abs(data[i + 2] - 38) < 40) red++;
    }
    return { drawn, red, total: data.length / 4 };
  });

/** A data-table number back to a float: "2,559,200", "−0.5", "2.4548 × 10⁻⁶". */
function parseCell(text) {
  const sup = {
    '⁻': '-',
    '⁰': '0',
    '¹': '1',
    '²': '2',
    '³': '3',
    '⁴': '4',
    '⁵': '5',
    '⁶': '6',
    '⁷': '7',
    '⁸': '8',
    '⁹': '9',
  };
  const plain = text.replace(/\u2212/g, '-').replace(/,/g, '');
  const m = /^(-?[\d.]+) × 10([⁻⁰¹²³⁴⁵⁶⁷⁸⁹]+)$/.exec(plain);
  if (m) return Number(m[1]) * 10 ** Number([...m[2]].map((c) => sup[c]).join(''));
  return Number(plain);
}

describe('presets', () => {
  test('the picker offers index.json’s presets in order, plus the pasted config', async () => {
    const options = await page.$$eval(`${ROOT} select[data-control="preset"] option`, (os) =>
      os.map((o) => [o.value, o.textContent]),
    );
    assert.deepEqual(
      options.slice(0, -1),
      // The model's name, and what it shows in parentheses where index.json gives a note.
      presetIndex.map((p) => [p.id, p.note ? `${p.label} (${p.note})` : p.label]),
    );
    assert.equal(options.at(-1)[0], 'custom');
    assert.equal(await page.$eval(`${ROOT} select`, (s) => s.value), 'llama-3.1-8b', 'the default preset');
  });

  for (const { id, file } of presetIndex) {
    test(`${id}: the summary says what the config says, and agrees with the engine`, async () => {
      await choose(page, id);
      const shown = await page.$eval(`${ROOT} textarea`, (t) => t.value);
      assert.deepEqual(
        JSON.parse(shown),
        JSON.parse(readFileSync(join(presetsDir, file), 'utf8')),
        'the box holds the preset file',
      );
      const text = await summaryText(page);
      for (const fact of SUMMARY_FACTS[id]) assert.ok(text.includes(fact), `${id}: summary lacks “${fact}”:\n${text}`);
      const r = await engineReport(page);
      assert.equal(
        text.includes(STRETCH_ADVICE),
        r.scheme === 'rope' && r.ropeType !== 'default' && !(r.ropeType === 'proportional' && r.scalingFactor === 1),
        'the stretch advice appears exactly for scaled RoPE',
      );
      // Llama 4: every RoPE layer attends within a chunk, so the prompt is judged kind by kind.
      const chunkedOnly =
        r.layerKinds.length > 1 && !r.layerKinds.some((k) => k.positions !== 'none' && !k.window && !k.chunk);
      if (r.scheme === 'rope') {
        const expected = chunkedOnly
          ? 'no layer with RoPE spans the whole prompt'
          : r.beyondCount > 0
            ? `${r.beyondCount} of ${r.rotaryDim / 2} pairs`
            : r.promptLength <= r.trainedLength
              ? 'within the trained length'
              : 'no pair needs an angle beyond';
        assert.ok(text.includes(expected), `${id}: ${r.beyondCount} pairs beyond, so the summary says “${expected}”`);
      }
      assert.doesNotMatch(text, /(^|[\s(])-\d/, 'numbers use U+2212, never a hyphen');
      assert.doesNotMatch(text, /NaN|undefined|Infinity/);
      const { drawn, total } = await canvasStats(page);
      // Schemes with no length to draw (T5's buckets, state-space models) draw one line of text.
      const minimum = r.trainedLength > 0 ? 0.02 : 0.001;
      assert.ok(drawn > total * minimum, `${id}: the chart drew ${drawn} of ${total} pixels`);
      assert.equal(await errorText(page), '');
    });
  }

  test('Llama 2 at 32,768 tokens: red pairs in summary and chart; at 1,000 none', async () => {
    await choose(page, 'llama-2-7b');
    await setPrompt(page, 32768);
    const long = await engineReport(page);
    assert.ok(long.beyondCount > 0);
    const first = long.beyond.indexOf(1);
    assert.ok(
      (await summaryText(page)).includes(`(${first}–${long.beyond.length - 1})`),
      'the beyond pairs as a range',
    );
    const redLong = (await canvasStats(page)).red;
    await setPrompt(page, 1000);
    assert.equal((await engineReport(page)).beyondCount, 0);
    assert.ok((await summaryText(page)).includes('1,000 tokens is within the trained length'));
    const redShort = (await canvasStats(page)).red;
    // Each red dot is about 25 px at radius 3; the legend's red swatch is in both images.
    assert.ok(redLong - redShort > long.beyondCount * 10, `red pixels ${redLong} vs ${redShort}`);
    await setPrompt(page, 32768);
  });

  test('the data table equals engine.readModelConfig (6 significant digits), the CSV exactly', async () => {
    for (const id of ['llama-3.1-8b', 'phi-3.5-mini-instruct']) {
      await choose(page, id);
      const r = await engineReport(page);
      const details = page.locator(`${ROOT} details.chart-data`);
      if (!(await details.evaluate((d) => d.open))) await details.locator('summary').click();
      // The table is filled when the Data view's toggle event runs, after the click returns.
      await page.waitForFunction(
        ({ root, count }) => document.querySelectorAll(`${root} .chart-table tbody tr`).length === count,
        { root: ROOT, count: r.wavelengths.length },
        { timeout: 10000 },
      );
      const rows = await page.$$eval(`${ROOT} .chart-table tbody tr`, (trs) =>
        trs.map((tr) => [...tr.children].map((c) => c.textContent)),
      );
      assert.equal(rows.length, r.wavelengths.length, `${id}: one row per pair`);
      rows.forEach((row, i) => {
        assert.equal(Number(row[0]), i);
        const expected = [r.baseInvFreq[i], r.invFreq[i], r.baseWavelengths[i], r.wavelengths[i]];
        // Six significant digits: the shown value is within half a unit of the 6th digit.
        expected.forEach((v, k) =>
          assert.ok(
            Math.abs(parseCell(row[k + 1]) - v) <= 5e-6 * Math.abs(v),
            `${id} pair ${i} column ${k + 1}: ${row[k + 1]} vs ${v}`,
          ),
        );
        assert.equal(row[5], r.beyond[i] ? 'yes' : 'no');
      });
      const [download] = await Promise.all([page.waitForEvent('download'), page.click(`${ROOT} [data-export="csv"]`)]);
      const csv = readFileSync(await download.path(), 'utf8')
        .trim()
        .split('\n');
      assert.equal(csv.length, r.wavelengths.length + 1);
      csv.slice(1).forEach((line, i) => {
        const cells = line.split(',');
        assert.deepEqual(
          cells.slice(1, 5).map(Number),
          [r.baseInvFreq[i], r.invFreq[i], r.baseWavelengths[i], r.wavelengths[i]],
          `${id} CSV row ${i}`,
        );
      });
    }
    const [png] = await Promise.all([page.waitForEvent('download'), page.click(`${ROOT} [data-export="png"]`)]);
    const bytes = readFileSync(await png.path());
    assert.deepEqual([...bytes.subarray(1, 4)], [...Buffer.from('PNG')]);
  });

  test('with several kinds of layer, the table and the CSV hold every turning kind’s pairs, each row naming its kind', async () => {
    // Gemma 3: local layers (base 10,000, window 1,024) and global layers (1e6, linear 8), 64 pairs each;
    // MiniMax-Text-01: softmax layers with 32 pairs, and lightning layers without positions (no rows).
    for (const [id, expected] of [
      ['gemma-3-27b-it', { full_attention: 64, sliding_attention: 64 }],
      ['minimax-text-01', { full_attention: 32 }],
    ]) {
      await choose(page, id);
      const r = await engineReport(page);
      const details = page.locator(`${ROOT} details.chart-data`);
      if (!(await details.evaluate((d) => d.open))) await details.locator('summary').click();
      const count = Object.values(expected).reduce((a, b) => a + b, 0);
      await page.waitForFunction(
        ({ root, count }) => document.querySelectorAll(`${root} .chart-table tbody tr`).length === count,
        { root: ROOT, count },
        { timeout: 10000 },
      );
      const rows = await page.$$eval(`${ROOT} .chart-table tbody tr`, (trs) =>
        trs.map((tr) => [...tr.children].map((c) => c.textContent)),
      );
      const [download] = await Promise.all([page.waitForEvent('download'), page.click(`${ROOT} [data-export="csv"]`)]);
      const csv = readFileSync(await download.path(), 'utf8')
        .trim()
        .split('\n')
        .map((line) => line.split(','));
      assert.equal(csv[0][0], 'layers', `${id}: the CSV's first column names the kind`);
      assert.equal(csv.length, count + 1, `${id}: one CSV row per turning pair of each kind`);
      for (const [type, pairs] of Object.entries(expected)) {
        const kind = r.layerKinds.find((k) => k.layerType === type);
        const tableRows = rows.filter((row) => row[0] === type);
        const csvRows = csv.slice(1).filter((cells) => cells[0] === type);
        assert.equal(tableRows.length, pairs, `${id} ${type}: table rows`);
        assert.equal(csvRows.length, pairs, `${id} ${type}: CSV rows`);
        csvRows.forEach((cells, i) => {
          assert.equal(Number(cells[1]), i);
          assert.deepEqual(
            [Number(cells[2]), Number(cells[3]), Number(cells[5])],
            [kind.baseInvFreq[i], kind.invFreq[i], kind.wavelengths[i]],
            `${id} ${type} CSV pair ${i}`,
          );
          assert.ok(
            Math.abs(parseCell(tableRows[i][3]) - kind.invFreq[i]) <= 5e-6 * kind.invFreq[i],
            `${id} ${type} table pair ${i}: ${tableRows[i][3]}`,
          );
        });
      }
    }
  });

  test('accessible: labelled controls, a named canvas, a live description naming the lengths', async () => {
    await choose(page, 'gpt2');
    const labels = await page.$$eval(`${ROOT} select, ${ROOT} input, ${ROOT} textarea`, (els) =>
      els.map((el) => el.labels?.[0]?.textContent ?? el.getAttribute('aria-label') ?? ''),
    );
    assert.ok(
      labels.every((l) => l.trim()),
      `every control is labelled: ${JSON.stringify(labels)}`,
    );
    assert.match(await page.$eval(`${ROOT} canvas`, (c) => c.getAttribute('aria-label')), /positions/);
    const live = await page.$eval(`${ROOT} .chart-description`, (el) => [el.getAttribute('aria-live'), el.textContent]);
    assert.equal(live[0], 'polite');
    assert.match(live[1], /learned position table, trained at 1,024 positions/);
  });
});

describe('URL state', () => {
  test('preset and prompt length go into the URL and come back; pasted text does not', async () => {
    await choose(page, 'mistral-7b-v0.1');
    await setPrompt(page, 65536);
    // Chromium applies replaceState's URL a moment later (location lags the call), so wait for it.
    const urlHas = (preset, prompt) =>
      page.waitForFunction(
        ([a, b]) => {
          const q = new URLSearchParams(location.search);
          return q.get('model-card.preset') === a && q.get('model-card.prompt') === b;
        },
        [preset, prompt],
        { timeout: 5000 },
      );
    await urlHas('mistral-7b-v0.1', '65536');
    const again = await openCard(`&card.preset=mistral-7b-v0.1&card.prompt=65536`);
    assert.equal(await again.$eval(`${ROOT} select`, (s) => s.value), 'mistral-7b-v0.1');
    assert.equal(await again.$eval(`${ROOT} input[data-control="prompt"]`, (i) => i.value), '65536');
    assert.match(await summaryText(again), /Mistral 7B v0\.1, for a prompt of 65,536 tokens/);
    await again.close();
    const bogus = await openCard(`&card.preset=%3Cimg%20src%3Dx%3E&card.prompt=-5`);
    assert.equal(
      await bogus.$eval(`${ROOT} select`, (s) => s.value),
      'llama-3.1-8b',
      'an unknown preset falls back to the default',
    );
    // The address goes through the control's own rules: clamped to its range, with its message.
    assert.equal(await bogus.$eval(`${ROOT} input[data-control="prompt"]`, (i) => i.value), '1');
    assert.match(
      await bogus.$eval(`${ROOT} input[data-control="prompt"] ~ .chart-message`, (m) => m.textContent),
      /at least 1; using 1/,
    );
    // The preset goes through the select's own rule too: the markup is named as text, not run.
    assert.equal(
      await bogus.$eval(`${ROOT} select[data-control="preset"] ~ .chart-message`, (m) => m.textContent),
      'model (preset): no such choice; showing Llama 3.1 8B.',
    );
    await bogus.close();
    // "Your pasted config" is never written; a link naming it, with nothing pasted, shows the default preset.
    const custom = await openCard(`&card.preset=custom`);
    assert.equal(await custom.$eval(`${ROOT} select`, (s) => s.value), 'llama-3.1-8b');
    assert.match(await summaryText(custom), /Llama 3\.1 8B, for a prompt of 32,768 tokens/);
    await custom.close();
    await paste(page, readFileSync(join(presetsDir, 'gpt2.json'), 'utf8'));
    await urlHas(null, '65536');
    assert.ok(!page.url().includes('n_positions'), 'the pasted text stays out of the URL');
    await setPrompt(page, 32768);
  });
});

describe('GGUF files', () => {
  const FILE_INPUT = `${ROOT} input[data-control="config-file"]`;
  const ggufText = (p) =>
    p.$eval(`${ROOT} .model-card-gguf`, (el) => (el.hidden ? '' : el.textContent.replace(/\s+/g, ' ')));
  const fileError = (p) => p.$eval(`${ROOT} .model-card-file-error`, (el) => el.textContent);
  const choose = (p, name, bytes) =>
    p.setInputFiles(FILE_INPUT, { name, mimeType: 'application/octet-stream', buffer: Buffer.from(bytes) });

  test('a GGUF file (known by its bytes, whatever its name) is read from its header into the card', async () => {
    await afterAnalysis(page, () => choose(page, 'model.bin', llamaHeader({ tokens: 2000 })));
    assert.equal(await page.$eval(ROOT, (el) => el.dataset.cardState), 'ready');
    const summary = await summaryText(page);
    for (const fact of [
      'RoPE (model_type “llama”)',
      'base rope_theta 500,000',
      'trained and advertised 131,072 tokens',
    ])
      assert.ok(summary.includes(fact), `${fact} in: ${summary}`);
    const notes = await ggufText(page);
    assert.ok(notes.includes('Meta Llama 3.1 8B Instruct, architecture llama, GGUF version 3'), notes);
    assert.ok(notes.includes('rope_freqs.weight'), notes);
    assert.equal(await page.$eval(`${ROOT} select[data-control="preset"]`, (s) => s.value), 'custom');
    assert.equal(await fileError(page), '');
  });

  test('a name holding markup is shown as text; a cut file is refused beside the chooser and the card stays', async () => {
    await afterAnalysis(page, () => choose(page, 'gemma.gguf', gemmaHeader()));
    assert.ok((await ggufText(page)).includes('<img src=x onerror="window.__ggufInjected = 1"> Gemma 3 4B'));
    assert.equal(await page.$$eval(`${ROOT} img, ${ROOT} script`, (els) => els.length), 0);
    assert.match(await summaryText(page), /window of 1,024 tokens/);
    const before = await analyses(page);
    const cut = llamaHeader().subarray(0, 300);
    await choose(page, 'cut.gguf', cut);
    await page.waitForFunction(
      (root) => document.querySelector(`${root} .model-card-file-error`).textContent !== '',
      ROOT,
    );
    assert.match(
      await fileError(page),
      /^This file could not be read: GGUF: the file ends at byte 300, inside .* at byte offset \d+/,
    );
    assert.equal(await analyses(page), before, 'the card was not read again');
    // A config.json chosen as a file goes into the box as it is, and the GGUF notes go.
    await afterAnalysis(page, () =>
      choose(page, 'config.json', Buffer.from('{"model_type": "gpt2", "n_positions": 1024}')),
    );
    assert.match(await summaryText(page), /1,024 of them/);
    assert.equal(await ggufText(page), '');
    assert.equal(await fileError(page), '');
  });
});

describe('broken and hostile pastes', () => {
  const fixture = (name) => readFileSync(join(brokenDir, name), 'utf8');
  const hostileValue = '<img src=x onerror="window.__pwned=1"><script>window.__pwned=2</script>';
  const CASES = [
    { name: 'not JSON', text: fixture('not-json.json'), expect: brokenExpected['not-json.json'] },
    { name: 'an array', text: fixture('array.json'), expect: brokenExpected['array.json'] },
    // (An unknown rope_type is no longer refused: the card reads the rest and names it, model_config.test.mjs.)
    {
      name: 'a negative stretch factor',
      text: fixture('factor-negative.json'),
      expect: brokenExpected['factor-negative.json'],
    },
    // Under the box's limit in characters (2^20), over the reader's in UTF-8 bytes: the reader refuses it.
    { name: '1 MiB of text', text: `{"model_type": "${'é'.repeat(600_000)}"}`, expect: 'config must be at most 1 MiB' },
    {
      name: 'markup in a length field',
      text: JSON.stringify({
        model_type: hostileValue,
        max_position_embeddings: hostileValue,
        rope_theta: 10000,
        hidden_size: 64,
        num_attention_heads: 1,
      }),
      expect: 'max_position_embeddings must be a whole number ≥ 1, got "<img',
    },
  ];
  const valid = readFileSync(join(presetsDir, 'llama-2-7b.json'), 'utf8');

  for (const c of CASES) {
    test(`${c.name}: the message names the field and rule; a valid paste works again`, async () => {
      await paste(page, c.text);
      const message = await errorText(page);
      assert.ok(message.includes(c.expect), `message “${message.slice(0, 300)}” lacks “${c.expect}”`);
      assert.ok(message.length < 600, 'a long paste is not echoed back whole');
      assert.equal(await page.$eval(`${ROOT} .chart-textarea-error`, (el) => el.getAttribute('role')), 'alert');
      assert.equal(await page.$eval(`${ROOT} textarea`, (t) => t.getAttribute('aria-invalid')), 'true');
      assert.equal(await page.$eval(ROOT, (el) => el.dataset.cardState), 'error');
      assert.equal(await page.$$eval(`${ROOT} .model-card-summary li`, (li) => li.length), 0, 'no stale summary');
      const widgetText = await page.$eval(ROOT, (el) => {
        const copy = el.cloneNode(true);
        copy.querySelectorAll('textarea').forEach((t) => t.remove());
        return copy.textContent;
      });
      assert.equal(widgetText.split(c.expect).length - 1, 1, 'the message is printed once, below the text box');
      assert.match(await summaryText(page), /the message below the text box says what to fix/);
      await paste(page, valid);
      assert.equal(await errorText(page), '');
      assert.equal(await page.$eval(ROOT, (el) => el.dataset.cardState), 'ready');
      assert.match(await summaryText(page), /Your config, for a prompt of 32,768 tokens/);
      assert.equal(await page.$eval(`${ROOT} select`, (s) => s.value), 'custom');
    });
  }

  // The box's own limit: the reader's 1 MiB (model_config.hpp's kMaxConfigBytes), in characters.
  const BOX_LIMIT = 2 ** 20;
  /** The valid config with another trained length (so the box's text changes and is read again). */
  const validWithLength = (n) => valid.replace('"max_position_embeddings": 4096', `"max_position_embeddings": ${n}`);
  const boxState = () =>
    page.$eval(ROOT, (el) => ({
      value: el.querySelector('textarea').value,
      analyses: Number(el.dataset.analyses ?? 0),
      message: el.querySelector('.chart-textarea-error').textContent,
      invalid: el.querySelector('textarea').getAttribute('aria-invalid'),
    }));
  const refusal = (length) =>
    `config.json must be at most 1,048,576 characters (the reader takes 1 MiB), got ${length.toLocaleString('en')}: the text was not taken.`;

  for (const size of [4 * 2 ** 20, 20 * 2 ** 20]) {
    test(`a paste of ${size / 2 ** 20} MiB is refused at the box, before any reading, with the message`, async () => {
      await paste(page, validWithLength(3000));
      const before = await boxState();
      await page
        .context()
        .grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(page.url()).origin });
      await page.evaluate((n) => navigator.clipboard.writeText(`{"model_type": "${'x'.repeat(n - 18)}"}`), size);
      await page.focus(`${ROOT} textarea`);
      await page.keyboard.press('ControlOrMeta+A');
      await page.keyboard.press('ControlOrMeta+V');
      await page.waitForFunction((root) => document.querySelector(`${root} .chart-textarea-error`).textContent, ROOT);
      // Well past the box's pause before it reads (its debounce): no reading started.
      await page.evaluate(() => new Promise((r) => setTimeout(r, 1500)));
      const after = await boxState();
      assert.equal(after.value, before.value, 'the box keeps what it had');
      assert.equal(after.analyses, before.analyses, 'nothing was read');
      assert.equal(after.message, refusal(size));
      assert.equal(after.invalid, 'true');
      assert.equal(await page.$eval(ROOT, (el) => el.dataset.cardState), 'ready', 'the last reading stays');
      // The next paste that fits is read, and the message goes.
      await paste(page, validWithLength(2048));
      assert.equal(await errorText(page), '');
    });
  }

  test('text over the limit put in the box any other way (typed, dropped, set) is refused too', async () => {
    await paste(page, validWithLength(3000));
    const before = await boxState();
    await page.fill(`${ROOT} textarea`, 'x'.repeat(BOX_LIMIT + 1));
    await page.click(`${ROOT} [data-control="analyse"]`);
    await page.evaluate(() => new Promise((r) => setTimeout(r, 1500)));
    const after = await boxState();
    assert.equal(after.value, before.value, 'the box goes back to what it had');
    assert.equal(after.analyses, before.analyses, 'nothing was read');
    assert.equal(after.message, refusal(BOX_LIMIT + 1));
    // Exactly at the limit the box takes it and the reader answers (here with its refusal of the
    // length field: an unknown family alone is read, not refused).
    const field = '{"max_position_embeddings": "';
    await paste(page, `${field}${'x'.repeat(BOX_LIMIT - field.length - 2)}"}`);
    assert.ok((await errorText(page)).includes('max_position_embeddings'), await errorText(page));
    await paste(page, valid);
    assert.equal(await errorText(page), '');
  });

  test('a valid config whose strings hold markup shows them as text, and nothing runs', async () => {
    const config = JSON.parse(readFileSync(join(presetsDir, 'llama-3.1-8b.json'), 'utf8'));
    config.model_type = hostileValue;
    await paste(page, JSON.stringify(config));
    assert.equal(await page.$eval(ROOT, (el) => el.dataset.cardState), 'ready');
    assert.ok((await summaryText(page)).includes('<img src=x onerror="window.__pwned=1"><script>'), 'shown literally');
    assert.equal(await page.$$eval(`${ROOT} img, ${ROOT} script`, (els) => els.length), 0);
  });

  test('typing analyses on its own after a pause (debounced)', async () => {
    await afterAnalysis(page, () => page.fill(`${ROOT} textarea`, '{"n_positions": 2048, "model_type": "gpt2"}'));
    assert.match(await summaryText(page), /2,048 of them/);
  });

  test('no script ran, no console error, no CSP violation', async () => {
    assert.equal(await page.evaluate(() => window.__pwned), undefined);
    assert.equal(await page.evaluate(() => window.__ggufInjected), undefined);
    assert.deepEqual(await page.evaluate(() => window.__cspViolations), []);
    assert.deepEqual(problems, []);
  });
});

describe('kinds of layer', () => {
  test('Gemma 4, nested per-layer-type config: each kind of layer with its positions, a panel per kind', async () => {
    await choose(page, 'gemma-4-26b-a4b-it');
    await setPrompt(page, 32768);
    const text = await summaryText(page);
    assert.ok(text.includes('the text model is read from text_config'), text);
    assert.ok(text.includes('25 sliding_attention layers'), text);
    assert.ok(
      text.includes('It attends within a window of 1,024 tokens, so it never spans more than 1,023 tokens back'),
    );
    assert.ok(text.includes('5 full_attention layers (5, 11, 17, 23, 29): proportional RoPE (p-RoPE)'), text);
    assert.ok(text.includes('the other 192 never turn (frequency 0)'), text);
    const kinds = (await engineReport(page)).layerKinds.map((k) => [k.layerType, k.positions, k.layerCount]);
    assert.deepEqual(kinds, [
      ['sliding_attention', 'rope', 25],
      ['full_attention', 'proportional', 5],
    ]);
    // Two panels stacked: the canvas is taller than a one-kind card's at the same width.
    const tall = await page.$eval(`${ROOT} canvas`, (c) => c.height / c.width);
    await choose(page, 'llama-2-7b');
    const single = await page.$eval(`${ROOT} canvas`, (c) => c.height / c.width);
    assert.ok(tall > single * 1.4, `two panels: ${tall} against ${single}`);
  });

  test('a pasted wrapper: its text model is read, a model_type holding markup stays text, a bad block is named', async () => {
    const nested = {
      model_type: '<img src=x onerror="window.__pwned=1">',
      text_config: {
        model_type: 'gemma4_text',
        head_dim: 256,
        global_head_dim: 512,
        num_attention_heads: 8,
        num_hidden_layers: 6,
        max_position_embeddings: 131072,
        sliding_window: 512,
        rope_parameters: {
          sliding_attention: { rope_type: 'default', rope_theta: 10000 },
          full_attention: { rope_type: 'proportional', partial_rotary_factor: 0.25, rope_theta: 1000000 },
        },
      },
    };
    await paste(page, JSON.stringify(nested));
    const text = await summaryText(page);
    assert.ok(text.includes('the top level (model_type "<img src=x onerror="window.__pwned=1">")'), text);
    assert.equal(await page.$(`${ROOT} .model-card-summary img`), null, 'no element made from the text');
    assert.equal(await page.evaluate(() => window.__pwned), undefined);
    assert.ok(text.includes('5 sliding_attention layers'), text);
    nested.text_config.rope_parameters.sliding_attention = 10000;
    await paste(page, JSON.stringify(nested));
    assert.match(
      await errorText(page),
      /in text_config: rope_parameters\.sliding_attention must be an object \(one block per layer type\), got 10000/,
    );
    await choose(page, 'llama-3.1-8b');
    assert.equal(await errorText(page), '');
  });
});
