// The lesson's order-blindness demo and its numpy-compatible randomness through the JavaScript
// bindings (dist/engine.mjs), against numpy 1.24's output in tests/fixtures/numpy: raw PCG64 words
// bit-identical, normals within 1e-12 relative, the lesson's printed similarities, and every
// bad-input case as a JavaScript Error carrying the engine's message.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { before, describe, test } from 'node:test';

import { loadEngine } from './engine-loader.mjs';

const fixture = (name) => JSON.parse(readFileSync(new URL(`../fixtures/numpy/${name}`, import.meta.url), 'utf8'));
const seeds = fixture('seed_sequence.json');
const normals = fixture('standard_normal.json');
const words = fixture('word_vectors.json');
const demo = fixture('demo_layer.json');

// Normals may differ from numpy's by a few ulps (the ziggurat tables are derived, not copied):
// 1e-12 relative is the contract, a thousand times looser than anything observed.
const RELATIVE = 1e-12;
const relative = (a, b) => (b === 0 ? Math.abs(a) : Math.abs(a - b) / Math.abs(b));
const CASES = [
  ['none', 'none', false],
  ['sinusoidal', 'sinusoidal', false],
  ['rope', 'rope', false],
  ['causal', 'none', true],
];

let engine;
before(async () => {
  engine = await loadEngine();
});

describe('numpy-compatible randomness', () => {
  test('MD5 of every fixture word', () => {
    for (const { word, md5 } of words.words) assert.equal(engine.md5Hex(word), md5, `md5(${JSON.stringify(word)})`);
  });

  test('SeedSequence state and PCG64 raw words are bit-identical', () => {
    assert.ok(seeds.seeds.length >= 6);
    for (const entry of seeds.seeds) {
      assert.deepEqual(engine.seedSequenceState(entry.seed), entry.generate_state_uint64, `seed ${entry.seed}`);
      assert.deepEqual(engine.pcg64Raw(entry.seed, seeds.draws), entry.raw, `raw stream of seed ${entry.seed}`);
    }
    assert.deepEqual(engine.seedSequenceState(7), seeds.seeds.find((s) => s.seed === '7').generate_state_uint64);
  });

  test('10^6 standard normals per seed: head, every 997th and the last', (t) => {
    let worst = 0;
    let compared = 0;
    let identical = 0;
    for (const stream of normals.streams) {
      const sample = engine.standardNormal(stream.seed, normals.count, { sample: 'compact' });
      const expected = [...stream.head, ...stream.strided, stream.last];
      assert.ok(sample instanceof Float64Array);
      assert.equal(sample.length, expected.length, `sample length for seed ${stream.seed}`);
      expected.forEach((value, i) => {
        const diff = relative(sample[i], value);
        assert.ok(diff <= RELATIVE, `seed ${stream.seed}, sample ${i}: ${sample[i]} vs numpy ${value}`);
        worst = Math.max(worst, diff);
        compared += 1;
        identical += sample[i] === value ? 1 : 0;
      });
      // Without the compact option: the plain stream, same values.
      const plain = engine.standardNormal(stream.seed, 1000);
      assert.deepEqual(Array.from(plain), Array.from(sample.subarray(0, 1000)));
    }
    t.diagnostic(`${compared} normals compared, ${identical} bit-identical, largest relative difference ${worst}`);
  });
});

describe('the order-blindness demo layer', () => {
  test('word vectors of every fixture word', () => {
    for (const { word, vector } of words.words) {
      const v = engine.wordVector(word);
      assert.equal(v.length, 16);
      vector.forEach((x, i) => assert.ok(relative(v[i], x) <= RELATIVE, `${JSON.stringify(word)}[${i}]`));
    }
    assert.deepEqual(
      Array.from(engine.wordVector('dog', 40).subarray(0, 16)),
      Array.from(engine.wordVector('dog', 16)),
    );
  });

  test('encoded sentences match numpy in all four cases', () => {
    for (const [label, scheme, causal] of CASES) {
      for (const sentence of demo.sentences) {
        const out = engine.encodeSentence(sentence, scheme, causal);
        assert.equal(out.rows, 3);
        assert.equal(out.cols, 16);
        demo.encoded[label][sentence].forEach((x, i) =>
          assert.ok(Math.abs(out.data[i] - x) <= 1e-12, `${label} ${sentence} [${i}]: ${out.data[i]} vs ${x}`),
        );
      }
    }
  });

  test("order similarities are the lesson's 1.000, 0.995, 0.997, 0.524", () => {
    const sims = engine.orderSimilarities('dog bites man', 'man bites dog');
    assert.deepEqual(
      [sims.none, sims.sinusoidal, sims.rope, sims.causal].map((v) => v.toFixed(3)),
      ['1.000', '0.995', '0.997', '0.524'],
    );
    for (const key of ['none', 'sinusoidal', 'rope', 'causal']) {
      assert.ok(Math.abs(sims[key] - demo.order_similarities[key]) <= 1e-12, `${key}: ${sims[key]}`);
    }
    assert.equal(engine.orderSimilarity('dog bites man', 'man bites dog', 'rope', false), sims.rope);
    assert.equal(engine.orderSimilarity('dog bites man', 'man bites dog', 'none', true), sims.causal);
    assert.equal(engine.orderSimilarity('dog bites man', 'man bites dog'), sims.none);
  });

  test("'dog' gets the same output first or last without positions (< 1e-15)", () => {
    const a = engine.encodeSentence('dog bites man');
    const b = engine.encodeSentence('man bites dog', 'none', false);
    let worst = 0;
    for (let c = 0; c < 16; c += 1) worst = Math.max(worst, Math.abs(a.data[c] - b.data[2 * 16 + c]));
    assert.ok(worst < 1e-15, `dog row difference ${worst}`);
  });

  test('demoAttention returns the outputs and row-stochastic, causal weights', () => {
    const full = engine.demoAttention('the dog bites the man', 'rope', false);
    const causal = engine.demoAttention('the dog bites the man', 'rope', true);
    assert.deepEqual(
      Array.from(full.output.data),
      Array.from(engine.encodeSentence('the dog bites the man', 'rope').data),
    );
    assert.equal(causal.weights.rows, 5);
    assert.equal(causal.weights.cols, 5);
    for (let i = 0; i < 5; i += 1) {
      let sum = 0;
      for (let j = 0; j < 5; j += 1) {
        sum += causal.weights.data[i * 5 + j];
        if (j > i) assert.equal(causal.weights.data[i * 5 + j], 0);
      }
      assert.ok(Math.abs(sum - 1) <= 5e-15, `row ${i} sums to ${sum}`);
    }
    // Python's str.split(): any run of Unicode whitespace separates words.
    assert.deepEqual(
      Array.from(engine.encodeSentence(' dog\tbites\u00a0man\u3000').data),
      Array.from(engine.encodeSentence('dog bites man').data),
    );
  });
});

describe('bad input gives a JavaScript Error with the engine message', () => {
  const cases = [
    ['empty sentence', () => engine.encodeSentence(''), 'encodeSentence: sentence must contain at least one word'],
    [
      'whitespace only',
      () => engine.orderSimilarity(' \t ', 'dog'),
      'orderSimilarity: sentence must contain at least one word',
    ],
    [
      'unknown scheme',
      () => engine.encodeSentence('dog bites man', 'alibi'),
      'encodeSentence: scheme must be one of "none", "sinusoidal", "rope", got "alibi"',
    ],
    [
      'too many words',
      () => engine.demoAttention(Array.from({ length: 513 }, (_, i) => `w${i}`).join(' ')),
      'demoAttention: sentence must contain at most 512 words, got 513',
    ],
    ['non-string word', () => engine.wordVector(42), 'wordVector: word must be a string, got 42'],
    ['non-string sentence', () => engine.encodeSentence(null), 'encodeSentence: sentence must be a string, got null'],
    [
      'bad dimension',
      () => engine.wordVector('dog', 0),
      'wordVector: d must be a whole number from 1 to 1048576, got 0',
    ],
    [
      'non-boolean causal',
      () => engine.encodeSentence('dog', 'none', 'yes'),
      'encodeSentence: causal must be true or false, got "yes"',
    ],
    [
      'lone surrogate',
      () => engine.wordVector('\ud800x'),
      'wordVector: word must be valid Unicode text, got a lone UTF-16 surrogate',
    ],
    [
      'bad seed',
      () => engine.seedSequenceState('12a'),
      "seedSequenceState: seed must be a non-negative integer in decimal digits, got a 'a' at index 2",
    ],
    ['negative count', () => engine.pcg64Raw('1', -1), /^pcg64Raw: count must be a whole number/],
    [
      'bad sample option',
      () => engine.standardNormal('1', 3, { sample: 'some' }),
      /^standardNormal: options\.sample must be/,
    ],
  ];
  for (const [name, call, message] of cases) {
    test(name, () => {
      assert.throws(call, (error) => {
        assert.ok(error instanceof Error);
        if (message instanceof RegExp) assert.match(error.message, message);
        else assert.equal(error.message, message);
        return true;
      });
    });
  }

  test('the module keeps working after every error', () => {
    for (const [, call] of cases) assert.throws(call);
    const sims = engine.orderSimilarities('dog bites man', 'man bites dog');
    assert.equal(sims.causal.toFixed(3), '0.524');
    assert.equal(engine.md5Hex('dog'), words.words.find((w) => w.word === 'dog').md5);
  });
});
