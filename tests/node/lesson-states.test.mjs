// The lesson's text stays true under every handle: numbers that tell one story read one state (the
// stretch of interpolation is the stretch of NTK), formulas beside a handle type none of its values,
// a written-out product brackets its negative factors, and what the text says of a figure's parts
// links to the figure that draws them.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { before, describe, test } from 'node:test';

import {
  computeEngineResults,
  LIVE_PARAMETERS,
  LIVE_QUANTITIES,
  liveText,
  PARAMETER_DEFAULTS,
} from '../../web/js/prose/live-values.js';
import { formatValue } from '../../web/js/locale/format.js';
import { loadEngine } from './engine-loader.mjs';

const read = (path) => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8');
const LESSONS = { en: read('web/lesson/lesson.md'), 'zh-Hans': read('web/lesson/lesson.zh-Hans.md') };

/** The lesson split at its headings: [{ id, text }], each section's text up to the next heading. */
export function sections(markdown) {
  const out = [];
  for (const line of markdown.replace(/^<!--[\s\S]*?-->/, '').split('\n')) {
    const heading = line.match(/^#{1,4} .*\{#([a-z0-9-]+)\}\s*$/);
    if (heading) out.push({ id: heading[1], text: '' });
    else if (out.length) out[out.length - 1].text += `${line}\n`;
  }
  return out;
}

/** The {{param:NAME}} handles a section's text holds. */
const handlesIn = (text) => [...new Set([...text.matchAll(/\{\{param:([a-z0-9.-]+)\}\}/g)].map((m) => m[1]))];

/** The inline and display formulas of a text ($…$ and $$…$$), code fences left out. */
function formulas(text) {
  const withoutCode = text.replace(/^```[\s\S]*?^```/gm, '');
  return [...withoutCode.matchAll(/\$\$([\s\S]+?)\$\$|\$([^$\n]+?)\$/g)].map((m) => m[1] ?? m[2]);
}

let engine;
before(async () => {
  engine = await loadEngine();
});

describe('one state per story', () => {
  // Targets across the target handle's range, with the trained length at its lesson's value and moved.
  const STATES = [
    { 'extension.target': 65536 },
    { 'extension.target': 4096 },
    { 'extension.target': 1000000 },
    { 'extension.trained': 2048, 'extension.target': 12345 },
    { 'extension.trained': 8192 },
  ];

  test('NTK slows the slowest pair by the stretch interpolation divides positions by', () => {
    for (const state of STATES) {
      const results = computeEngineResults(engine, state);
      const stretch = 1 / results.read('interp.ratio');
      assert.ok(
        Math.abs(results.read('ntk.slowdown') / stretch - 1) < 1e-9,
        `${JSON.stringify(state)}: NTK slows ${results.read('ntk.slowdown')}×, interpolation stretches ${stretch}×`,
      );
      const base = engine.ntkScaledBase(
        PARAMETER_DEFAULTS['extension.base'],
        stretch,
        PARAMETER_DEFAULTS['extension.d'],
      );
      assert.equal(liveText('ntk.base', results), formatValue(base, 'int'), JSON.stringify(state));
    }
  });

  test('every quantity that reads one of the stretch inputs reads them all', () => {
    // A quantity reading the NTK base with its own stretch would read the base and d but not the lengths.
    for (const [name, q] of Object.entries(LIVE_QUANTITIES)) {
      // Only the power d/(d − 2) and the slowest speed before scaling do not depend on the stretch.
      if (!name.startsWith('ntk.') || ['ntk.exponent', 'ntk.slowest-before'].includes(name)) continue;
      for (const input of ['extension.trained', 'extension.target'])
        assert.ok(q.inputs?.includes(input), `${name} reads ${input}`);
    }
  });
});

describe('ratios', () => {
  test('the interpolation ratio reads as one over the stretch, and as itself once it is 1 or more', () => {
    assert.equal(liveText('interp.ratio', computeEngineResults(engine)), '1/8');
    const shrink = computeEngineResults(engine, { 'extension.trained': 1048576 });
    assert.equal(liveText('interp.ratio', shrink), '32');
  });
});

describe('formulas beside a handle', () => {
  test("no formula in a section with handles types one of its handles' values", () => {
    for (const [lang, markdown] of Object.entries(LESSONS)) {
      for (const { id, text } of sections(markdown)) {
        const values = handlesIn(text).map((name) => String(LIVE_PARAMETERS[name].value));
        for (const formula of formulas(text)) {
          const numbers = formula.match(/\d+(?:\.\d+)?/g) ?? [];
          const typed = numbers.filter((n) => values.includes(n));
          assert.deepEqual(typed, [], `${lang} #${id}: $${formula}$ types a handle's value`);
        }
      }
    }
  });
});

describe('written-out products', () => {
  test('every live factor of a product prints a negative value in parentheses, at any handle', () => {
    // The clock's positions across their range; the other factors read no handle.
    const states = [{}, { 'rope.query': 3, 'rope.key': 4 }, { 'rope.query': 100000, 'rope.key': 0 }];
    for (const [lang, markdown] of Object.entries(LESSONS)) {
      const factors = new Set();
      const marker = /\{\{live:([^}|]+)(?:\|([^}]+))?\}\}/.source;
      for (const m of markdown.matchAll(new RegExp(`${marker}(?=\\s*·)|(?<=·\\s*)${marker}`, 'g')))
        factors.add(JSON.stringify([m[1] ?? m[3], m[2] ?? m[4] ?? null]));
      assert.ok(factors.size >= 4, `${lang}: the score's four factors are found`);
      let negatives = 0;
      for (const state of states) {
        const results = computeEngineResults(engine, state);
        for (const key of factors) {
          const [name, format] = JSON.parse(key);
          const text = liveText(name, results, format ?? undefined);
          if (!text.includes('−')) continue;
          negatives++;
          assert.match(text, /^\(−[^()]+\)$/, `${lang} ${JSON.stringify(state)}: the factor ${name} prints ${text}`);
        }
      }
      assert.ok(negatives > 0, `${lang}: some factor is negative in these states`);
    }
  });

  test('the RoPE score at positions where both factors are negative reads as arithmetic', () => {
    // q at 3 is (−0.990, 0.141); with the key at 4, k is (−0.654, −0.757).
    const results = computeEngineResults(engine, { 'rope.query': 3, 'rope.key': 4 });
    const line = ['rope.q-at-3.x', 'rope.k-at-7.x', 'rope.q-at-3.y', 'rope.k-at-7.y'].map((n) => liveText(n, results));
    assert.deepEqual(line, ['(−0.990)', '(−0.654)', '0.141', '(−0.757)']);
  });
});

/** The paragraph of `markdown` that holds `needle` (blank-line separated). */
const paragraphWith = (markdown, needle) => markdown.split(/\n\s*\n/).find((p) => p.includes(needle)) ?? '';

/** The text after a ```chart ID block up to the next chart, diagram, graded item or heading. */
function readingAfter(markdown, id) {
  const start = markdown.indexOf(`\`\`\`chart ${id}\n`);
  assert.ok(start >= 0, `the lesson places chart ${id}`);
  const rest = markdown.slice(markdown.indexOf('```\n', start + 4) + 4);
  const end = rest.search(/^(```|#|<div class="graded-item")/m);
  return end < 0 ? rest : rest.slice(0, end);
}

describe('figures and their words', () => {
  test('the NTK sentence links its fastest and slowest pairs to the figure that draws NTK', async () => {
    const { chartParts } = await import('../../web/site-builder/chart-parts.mjs');
    const parts = await chartParts(['context-extension']);
    const sentence = paragraphWith(LESSONS.en, '{{live:ntk.slowest-after}}');
    const links = [...sentence.matchAll(/\{\{part:([a-z0-9-]+)\/([a-z0-9-]+)\|/g)].map((m) => `${m[1]}/${m[2]}`);
    assert.deepEqual(links, ['context-extension/fastest-pair', 'context-extension/slowest-pair']);
    for (const link of links) assert.ok(parts['context-extension'].includes(link.split('/')[1]), link);
  });

  test("a caption of a figure the prose moves types none of the figure's numbers", () => {
    const moved = new Set(Object.values(LIVE_PARAMETERS).flatMap((p) => (p.chart ? [p.chart.id] : [])));
    for (const [lang, markdown] of Object.entries(LESSONS)) {
      for (const [, id, caption] of markdown.matchAll(/^```chart ([a-z0-9-]+)\n([\s\S]*?)\n```/gm)) {
        if (!moved.has(id)) continue;
        const typed = caption.replace(/\{\{[^}]+\}\}/g, '').match(/\d[\d,.]*k?/g);
        assert.equal(typed, null, `${lang} fig-${id}: the caption types ${typed}`);
      }
    }
  });

  test('the context-extension reading text names every method and both panels the figure draws', async () => {
    const { CONTEXT_EXTENSION } = await import('../../web/js/charts/context-extension.js');
    assert.ok(CONTEXT_EXTENSION, 'the chart definition is exported');
    const reading = readingAfter(LESSONS.en, 'context-extension');
    for (const words of ['raw', 'interpolat', 'NTK-scaled', 'YaRN', 'Dynamic NTK', 'Which pairs each method slows'])
      assert.ok(reading.includes(words), `the reading text mentions ${words}`);
    // Why dynamic NTK's slowest angle falls just past the trained length: its stretch grows s times as fast.
    assert.match(reading, /s times as fast/);
    const zh = readingAfter(LESSONS['zh-Hans'], 'context-extension');
    for (const words of ['YaRN', '动态 NTK', '每种方法让哪些维度对变慢']) assert.ok(zh.includes(words), `zh: ${words}`);
  });

  test("dynamic NTK's slowest angle does fall toward the band's top over s just past the trained length", () => {
    const [trained, target, d, base] = [4096, 32768, 128, 10000];
    const positions = [trained, trained + 1024, target];
    const curves = engine.extensionCurves(positions, trained, target, d, base);
    const dynamic = Array.from(curves.angles.data.subarray(4 * 3, 5 * 3));
    const top = curves.trainedMax;
    assert.ok(Math.abs(dynamic[0] / top - 1) < 1e-2, 'at the trained length it is at the top of the band');
    assert.ok(dynamic[1] < top / 2, 'a thousand positions later it has lost over half');
    assert.ok(dynamic[2] > top / 8 && dynamic[2] < top / 6, `at the target it is near top / s: ${dynamic[2] / top}`);
  });
});

describe('the sinusoidal prediction', () => {
  test("its reveal quotes the heatmap's own pairs: full turns of 2π/ω at the heatmap's d", async () => {
    const { SELF_TEST_ITEMS } = await import('../../web/js/self-test/self-test-items.js');
    const { CHART_DECLARATIONS } = await import('../../web/js/charts/declarations.js');
    const item = SELF_TEST_ITEMS.find((i) => i.id === 'predict_sinusoidal_speed');
    const results = computeEngineResults(engine);
    const text = item.reveal.map((part) => (typeof part === 'string' ? part : liveText(part.live, results))).join('');
    const { d, base } = CHART_DECLARATIONS['sinusoidal-heatmap'].controls;
    const omega = engine.ropeFrequencies(d.value, base.value);
    assert.match(text, new RegExp(`d = ${d.value}\\b`));
    for (const [i, format] of [
      [0, 'decimal1'],
      [1, 'decimal1'],
      [omega.length - 1, 'int'],
    ])
      assert.ok(text.includes(formatValue((2 * Math.PI) / omega[i], format)), `pair ${i}'s turn in: ${text}`);
  });
});

describe('the precision figure', () => {
  test('the reading text states the peak error the figure opens with, and it is small next to the pair', async () => {
    const { CHART_DECLARATIONS } = await import('../../web/js/charts/declarations.js');
    const { precisionPositions } = await import('../../web/js/charts/precision.js');
    const { max, d, base, pairs } = CHART_DECLARATIONS.precision.controls;
    const errors = engine.float32AngleErrors(
      precisionPositions(max.value),
      pairs.value.split(',').map(Number),
      d.value,
      base.value,
    );
    const peak = Math.max(...errors.rotationError.data);
    assert.ok(peak < 0.1, `the peak ${peak} is well under the pair's length 1`);
    const reading = readingAfter(LESSONS.en, 'precision');
    assert.doesNotMatch(reading, /size of the\s+pair itself/);
    assert.ok(reading.includes('{{live:precision.peak-error}}'), 'the peak is a live number');
    assert.ok(reading.includes(formatValue(max.value, 'int')), "it names the figure's opening largest position");
    const results = computeEngineResults(engine);
    assert.equal(liveText('precision.peak-error', results), formatValue(peak, 'sci-unicode'));
    const positions = precisionPositions(max.value);
    const at = errors.rotationError.data.indexOf(peak) % positions.length;
    assert.equal(liveText('precision.peak-position', results), formatValue(positions[at], 'int'));
  });
});
