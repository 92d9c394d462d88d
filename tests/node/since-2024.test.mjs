// The engine's functions behind the section on findings since 2024 (CoPE's counts, SSMax's scale, the
// sink's share and the silent head) through their bindings, and the section's live numbers against
// the same quantities worked out here from their definitions.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';

import { assertThrowsMessage, loadEngine } from './engine-loader.mjs';
import { COPE_SENTENCE, SINCE_2024_QUANTITIES } from '../../web/js/prose/since-2024-values.js';

const near = (actual, expected, tolerance, what) =>
  assert.ok(Math.abs(actual - expected) <= tolerance, `${what}: ${actual} is not within ${tolerance} of ${expected}`);

let engine;
before(async () => {
  engine = await loadEngine();
});

/** A live quantity of the section as the page computes it (live() reads another, as live-values.js does). */
function live(name) {
  const entry = SINCE_2024_QUANTITIES[name];
  assert.ok(entry, `no quantity ${name}`);
  return entry.value(engine, live);
}

describe('bindings', () => {
  test('sentenceEndGates and contextualPositions count the gates from each key to the query', () => {
    assert.deepEqual(Array.from(engine.sentenceEndGates('Stop. Go on? yes')), [1, 0, 1, 0]);
    const positions = engine.contextualPositions([0.5, 1, 0, 0.25], 3);
    assert.ok(positions instanceof Float64Array);
    // Exact: sums of halves and quarters.
    assert.deepEqual(Array.from(positions), [1.75, 1.25, 0.25, 0.25]);
    assertThrowsMessage(() => engine.sentenceEndGates('   '), 'text must be at least one word long');
    assertThrowsMessage(() => engine.contextualPositions([0, 2], 1), 'gates[1] must be a number from 0 to 1, got 2');
    assertThrowsMessage(() => engine.contextualPositions([0, 1], 2), 'query must be a token index from 0 to 1');
  });

  test('ssmaxScale, sinkShare and silentHead agree with their formulas', () => {
    // Tolerance 1e-15 relative: one log, one exp and a division in float64 either way.
    near(engine.ssmaxScale(4096, 0.5), 0.5 * Math.log(4096), 1e-15 * 5, 'ssmax');
    near(engine.ssmaxSForLength(4096), 1 / Math.log(4096), 1e-16, 's for 4,096');
    assertThrowsMessage(() => engine.ssmaxSForLength(1), 'length must be a finite number > 1, got 1');
    const share = 1 / (1 + 999 * Math.exp(-2.5 * 3));
    near(engine.sinkShare(1000, 3, 2.5), share, 1e-15, 'share');
    assert.equal(engine.sinkShare(1, -5, 1), 1);
    const head = engine.silentHead(1000, 0.01);
    assert.deepEqual(Object.keys(head), ['ungatedSinkShare', 'ungatedLead', 'gatedSinkShare', 'gate']);
    near(head.ungatedSinkShare, 0.99, 1e-15, 'ungated share');
    near(head.ungatedLead, Math.log((999 * 0.99) / 0.01), 1e-14, 'ungated lead');
    near(head.gatedSinkShare, 0.001, 1e-18, 'gated share');
    near(head.gate, (0.01 * 1000) / 999, 1e-17, 'gate');
    // The lead the silent head needs gives exactly the share it needs.
    near(engine.sinkShare(1000, head.ungatedLead, 1), 0.99, 1e-14, 'share at that lead');
    assertThrowsMessage(() => engine.ssmaxScale(0, 1), 'keys must be a finite number ≥ 1, got 0');
    assertThrowsMessage(() => engine.sinkShare(10, 1, -1), 'scale must be a finite number ≥ 0, got -1');
    assertThrowsMessage(() => engine.silentHead(10, 0.6), 'residual must be a number in (0, 0.5], got 0.6');
    // The module keeps working after the errors.
    assert.equal(engine.ssmaxScale(1, 1), 0);
  });
});

describe('the section’s live numbers', () => {
  test('CoPE on the lesson’s sentence, counted here by hand from its words', () => {
    const words = COPE_SENTENCE.split(' ');
    const ends = words.map((w) => (/[.!?]$/.test(w) ? 1 : 0));
    const last = words.length - 1;
    const count = (j) => ends.slice(j, last + 1).reduce((a, b) => a + b, 0);
    const firstEnd = ends.indexOf(1);
    assert.equal(live('cope.words'), words.length);
    assert.equal(live('cope.sentence-ends'), ends.filter(Boolean).length);
    // The prose says every word of the first sentence shares one position: check it does.
    for (let j = 0; j <= firstEnd; j++) assert.equal(count(j), live('cope.first-sentence-position'), `word ${j}`);
    assert.equal(live('cope.first-sentence-nearest'), last - firstEnd);
    assert.equal(live('cope.first-sentence-farthest'), last);
    assert.equal(live('cope.second-sentence-position'), count(firstEnd + 1));
    assert.equal(live('cope.second-sentence-distance'), last - firstEnd - 1);
    assert.equal(live('cope.own-position'), ends[last]);
  });

  test('FoPE’s zeroed pairs: wavelengths longer than 4,096 tokens on a 128-wide head at base 10,000', () => {
    const waves = Array.from({ length: 64 }, (_, i) => 2 * Math.PI * 10000 ** ((2 * i) / 128));
    const first = waves.findIndex((w) => w > 4096);
    assert.equal(live('fope.pairs'), 64);
    assert.equal(live('fope.first-zeroed'), first);
    assert.equal(live('fope.zeroed'), 64 - first);
  });

  test('SSMax’s factor and Llama 4’s temperature at 4,096, 131,072 and 1,048,576 tokens', () => {
    // Tolerance 1e-12: a ratio of logs and a log1p, as written.
    for (const [key, n] of [
      ['4k', 4096],
      ['128k', 131072],
      ['1m', 1048576],
    ]) {
      near(live(`ssmax.scale-${key}`), Math.log(n) / Math.log(4096), 1e-12, `ssmax ${key}`);
      near(live(`llama4.temperature-${key}`), 1 + 0.1 * Math.log1p(Math.floor(n / 8192)), 1e-12, `llama 4 ${key}`);
    }
    // The prose calls Llama 4's slope gentler at these lengths.
    assert.ok(live('llama4.temperature-128k') < live('ssmax.scale-128k'));
    assert.ok(live('llama4.temperature-1m') < live('ssmax.scale-1m'));
  });

  test('the silent head at 1,000 and 1,000,000 keys, and the growth of its lead', () => {
    // Tolerance 1e-12: one log of a product either way.
    near(live('sink.ungated-share'), 0.99, 1e-15, 'share');
    near(live('sink.ungated-lead'), Math.log((999 * 0.99) / 0.01), 1e-12, 'lead');
    near(live('sink.ungated-lead-long'), Math.log((999999 * 0.99) / 0.01), 1e-12, 'lead at a million');
    near(live('sink.ssmax-lead-growth'), Math.log(999999 / 999), 1e-12, 'growth');
    near(live('sink.gated-share'), 1 / 1000, 1e-18, 'gated share');
    near(live('sink.gate'), 0.01 / (1 - 1 / 1000), 1e-17, 'gate');
  });
});

describe('the sink chart’s percentages', () => {
  test('a share prints 0% or 100% only when it is exactly that, at every corner of the chart’s controls', async () => {
    const { shareText } = await import('../../web/js/charts/attention-sinks.js');
    assert.equal(shareText(0), '0%');
    assert.equal(shareText(1), '100%');
    assert.equal(shareText(0.5), '50.0%');
    assert.equal(shareText(1 - 4e-7), '99.999960%');
    assert.equal(shareText(9.5367431640625e-7), '0.000095%');
    // The corners of lead (0, 30), the SSMax length (2, 2^20) and the keys (1, 2, 2^20).
    for (const lead of [0, 30])
      for (const trained of [2, 1048576])
        for (const keys of [1, 2, 1048576]) {
          const s = engine.ssmaxSForLength(trained);
          for (const share of [
            engine.sinkShare(keys, lead, 1),
            engine.sinkShare(keys, lead, engine.ssmaxScale(keys, s)),
            engine.sinkShare(keys, 0, 1),
          ]) {
            const text = shareText(share);
            const what = `lead ${lead}, trained ${trained}, keys ${keys}: ${share} → ${text}`;
            assert.ok(Number.isFinite(share) && share >= 0 && share <= 1, what);
            if (text === '0%') assert.equal(share, 0, what);
            if (text === '100%') assert.equal(share, 1, what);
            // The printed number is within half a unit of its last digit of the share.
            const printed = Number(text.replace('%', '')) / 100;
            const digits = (text.split('.')[1] ?? '').replace('%', '').length;
            assert.ok(Math.abs(printed - share) <= 0.5 * 10 ** -(digits + 2) * 1.0001 + 1e-12, what);
          }
        }
  });
});
