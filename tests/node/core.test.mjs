// The core engine through its JavaScript bindings (dist/engine.mjs): the lesson's worked numbers,
// every bad-input case as a JavaScript Error with the C++ message, and no leak over 1,000 calls.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';

import { assertThrowsMessage, loadEngine } from './engine-loader.mjs';

// The lesson prints three decimals: half a unit in that place.
const PRINTED_3 = 5e-4;
const near = (actual, expected, tolerance, what) =>
  assert.ok(Math.abs(actual - expected) <= tolerance, `${what}: ${actual} is not within ${tolerance} of ${expected}`);

let engine;
before(async () => {
  engine = await loadEngine();
});

describe('lesson numbers through the bindings', () => {
  test('position-code rows at d = 4', () => {
    const pe = engine.sinusoidalEncoding(3, 4);
    assert.equal(pe.rows, 3);
    assert.equal(pe.cols, 4);
    assert.ok(pe.data instanceof Float64Array);
    const expected = [0, 1, 0, 1, 0.841, 0.54, 0.01, 1, 0.909, -0.416, 0.02, 1];
    expected.forEach((value, i) => near(pe.data[i], value, PRINTED_3, `pe[${i}]`));
  });

  test('PE(10)·PE(13) = PE(70)·PE(73) = 12.2724 at d = 32', () => {
    const pe = engine.sinusoidalEncoding(100, 32);
    const dot = (a, b) => {
      let sum = 0;
      for (let c = 0; c < 32; c += 1) sum += pe.data[a * 32 + c] * pe.data[b * 32 + c];
      return sum;
    };
    near(dot(10, 13), 12.2724, 5e-5, 'PE(10)·PE(13)');
    near(dot(70, 73), 12.2724, 5e-5, 'PE(70)·PE(73)');
    near(engine.sinusoidalDot(10, 13, 32), dot(10, 13), 1e-12, 'sinusoidalDot');
  });

  test('RoPE by hand: q = k = (1, 0)', () => {
    const q3 = engine.applyRope([1, 0], 3);
    near(q3[0], -0.99, PRINTED_3, 'q at 3, x');
    near(q3[1], 0.141, PRINTED_3, 'q at 3, y');
    const k7 = engine.applyRope([1, 0], 7);
    near(k7[0], 0.754, PRINTED_3, 'k at 7, x');
    near(k7[1], 0.657, PRINTED_3, 'k at 7, y');
    const score = (m, n) => {
      const a = engine.applyRope(new Float64Array([1, 0]), m);
      const b = engine.applyRope(new Float64Array([1, 0]), n);
      return a[0] * b[0] + a[1] * b[1];
    };
    near(score(3, 7), -0.654, PRINTED_3, 'score at 3 and 7');
    near(score(103, 107), Math.cos(4), 1e-12, 'score at 103 and 107');
    near(score(3, 8), 0.284, PRINTED_3, 'score at 3 and 8');
    assert.equal(engine.ropeFrequencies(2)[0], 1);
  });

  test('hand-worked attention example', () => {
    const x = { rows: 3, cols: 2, data: [1, 0, 0, 1, 1, 1] };
    const { output, weights, scores, scaledScores } = engine.attention(x, x, x);
    assert.deepEqual(Array.from(scores.data.slice(0, 3)), [1, 0, 1]);
    near(scaledScores.data[0], 0.707, PRINTED_3, 'scaled score');
    [0.401, 0.198, 0.401].forEach((w, j) => near(weights.data[j], w, PRINTED_3, `weight ${j}`));
    [0.802, 0.599, 0.599, 0.802, 0.752, 0.752].forEach((v, i) => near(output.data[i], v, PRINTED_3, `out ${i}`));
    const causal = engine.attention(x, x, x, true);
    assert.equal(causal.weights.data[1], 0);
    assert.equal(causal.weights.data[0], 1);
  });

  test('interpolation and NTK-aware scaling', () => {
    const squeezed = engine.interpolatePositions([32000, 32768], 4096, 32768);
    assert.equal(squeezed[0], 4000);
    assert.equal(squeezed[1], 4096);
    const base = engine.ntkScaledBase(10000, 8, 128);
    assert.equal(Math.round(base), 82685);
    const slow = engine.ropeFrequencies(128)[63];
    const slowNtk = engine.ropeFrequencies(128, base)[63];
    near(slow, 1.15e-4, 5e-7, 'slowest θ');
    near(slowNtk, 1.44e-5, 5e-8, 'slowest θ after NTK');
    near(slow / slowNtk, 8, 1e-12, 'slow-down');
  });

  test("Llama 4's query temperature on its layers without RoPE", () => {
    // 1 + 0.1 · ln(1 + ⌊(p + 1) / 8192⌋): 1 up to position 8,190, then a step every 8,192 tokens.
    // Tolerance 1e-15: one log1p and a multiply-add in float64, as the formula is written.
    assert.equal(engine.nopeQueryTemperature(0, 8192, 0.1), 1);
    assert.equal(engine.nopeQueryTemperature(8190, 8192, 0.1), 1);
    near(engine.nopeQueryTemperature(8191, 8192, 0.1), 1 + 0.1 * Math.log(2), 1e-15, 'first step');
    near(engine.nopeQueryTemperature(1048575, 8192, 0.1), 1 + 0.1 * Math.log(129), 1e-15, 'at 1M tokens');
    assert.throws(() => engine.nopeQueryTemperature(-1, 8192, 0.1), /position must be a finite number ≥ 0, got -1/);
    assert.throws(
      () => engine.nopeQueryTemperature(5, 0, 0.1),
      /nopeQueryTemperature: floorScale must be a finite number > 0, got 0/,
    );
    // The smallest double passes "> 0" but makes (p + 1) / floorScale infinite: refused, never NaN or Infinity.
    for (const attnScale of [0.1, 0])
      assert.throws(
        () => engine.nopeQueryTemperature(0, 5e-324, attnScale),
        /nopeQueryTemperature: floorScale must be large enough that \(position \+ 1\) \/ floorScale is finite at position 0, got 5e-324/,
      );
    assert.throws(
      () => engine.nopeQueryTemperature(1e300, 1, 1.7e308),
      /nopeQueryTemperature: attnScale must be small enough that the temperature is finite, got 1\.7e\+308/,
    );
  });

  test('proportional RoPE refuses a factor whose frequencies overflow', () => {
    assert.throws(
      () => engine.proportionalRopeFrequencies(512, 1e6, 0.25, 5e-324),
      /proportionalRopeFrequencies: factor must be large enough that every frequency \(base\^\(-2i\/head_?[dD]im\) \/ factor\) is finite, got 5e-324/,
    );
    assert.ok(engine.proportionalRopeFrequencies(512, 1e6, 0.25, 1e-300).every(Number.isFinite));
  });

  test('figure data', () => {
    const q = Array.from({ length: 64 }, (_, i) => Math.sin(i + 1));
    const k = Array.from({ length: 64 }, (_, i) => Math.cos(3 * i));
    const scores = engine.ropeScoresOverDistance(q, k, [0, 100, 1000], 59);
    assert.equal(scores.rows, 3);
    assert.equal(scores.cols, 60);
    for (let c = 0; c < 60; c += 1) near(scores.data[120 + c], scores.data[c], 1e-10, `distance ${c}`);
    const angles = engine.ropePairAngles([0, 7], [0], 64);
    near(angles.data[1], 7 - 2 * Math.PI, 1e-12, 'wrapped angle');
    const raw = engine.ropePairAngles([0, 7], [0], 64, 10000, false);
    assert.equal(raw.data[1], 7);
    const curves = engine.contextExtensionCurves([0, 32768], 4096, 32768, 128);
    assert.equal(curves.angles.rows, 3);
    near(curves.angles.data[1] / curves.trainedMax, 8, 1e-9, 'raw angle at 32K in band tops');
  });

  test('a 4096 × 512 table crosses in one Float64Array', () => {
    const table = engine.sinusoidalEncoding(4096, 512);
    assert.equal(table.data.length, 4096 * 512);
    assert.ok(table.data.every(Number.isFinite));
  });
});

describe('bad input: a JavaScript Error with the C++ message, and the module keeps working', () => {
  const cases = [
    ['odd d', () => engine.sinusoidalEncoding(3, 7), 'd must be even, got 7'],
    ['zero d', () => engine.ropeFrequencies(0), 'ropeFrequencies: d must be a whole number from 1 to 16777216, got 0'],
    [
      'negative d',
      () => engine.sinusoidalEncoding(3, -2),
      'sinusoidalEncoding: d must be a whole number from 1 to 16777216, got -2',
    ],
    ['fractional d', () => engine.sinusoidalEncoding(3, 3.7), 'd must be a whole number'],
    [
      'negative n',
      () => engine.sinusoidalEncoding(-1, 4),
      'sinusoidalEncoding: n must be a whole number from 0 to 16777216, got -1',
    ],
    ['NaN base', () => engine.sinusoidalEncoding(3, 4, NaN), 'base must be a finite number > 0, got nan'],
    ['infinite base', () => engine.ropeFrequencies(4, Infinity), 'base must be a finite number > 0, got inf'],
    ['zero base', () => engine.ropeFrequencies(4, 0), 'base must be a finite number > 0, got 0'],
    ['negative base', () => engine.ropeFrequencies(4, -10), 'base must be a finite number > 0, got -10'],
    ['base of 1', () => engine.ropeFrequencies(4, 1), 'base must be different from 1'],
    ['string base', () => engine.ropeFrequencies(4, 'ten'), 'ropeFrequencies: base must be a number, got "ten"'],
    ['NaN position', () => engine.applyRope([1, 0], NaN), 'position must be finite, got nan'],
    ['infinite position', () => engine.applyRope([1, 0], -Infinity), 'position must be finite, got -inf'],
    ['NaN in positions', () => engine.interpolatePositions([1, NaN], 4096, 32768), 'positions[1] must be finite'],
    ['odd vector', () => engine.applyRope([1, 0, 2], 1), 'x length must be even'],
    ['not an array', () => engine.applyRope('abc', 1), 'x must be an array of numbers'],
    [
      'zero trainedLen',
      () => engine.interpolatePositions([1], 0, 10),
      'interpolatePositions: trainedLen must be a finite number > 0, got 0',
    ],
    [
      'negative newLen',
      () => engine.interpolatePositions([1], 10, -5),
      'interpolatePositions: newLen must be a finite number > 0, got -5',
    ],
    ['NTK at d = 2', () => engine.ntkScaledBase(10000, 8, 2), 'd must be at least 4'],
    ['zero scale', () => engine.ntkScaledBase(10000, 0, 128), 'scale must be a finite number > 0, got 0'],
    ['over the cap', () => engine.sinusoidalEncoding(32769, 512), 'more than the cap of 16777216'],
    ['huge n', () => engine.sinusoidalEncoding(1e12, 4), 'n must be a whole number'],
    [
      'shape mismatch',
      () =>
        engine.attention(
          { rows: 1, cols: 2, data: [1, 0] },
          { rows: 1, cols: 3, data: [1, 0, 0] },
          { rows: 1, cols: 1, data: [1] },
        ),
      'k must have as many columns as q (2), got 3',
    ],
    [
      'bad matrix data',
      () => engine.applyRopeSequence({ rows: 2, cols: 2, data: [1, 2, 3] }),
      'x.data must hold rows × cols = 4 numbers, got 3',
    ],
    ['zero vectors', () => engine.cosineSimilarity([0, 0], [1, 1]), 'a and b must be non-zero vectors'],
    [
      'pair out of range',
      () => engine.ropePairAngles([1], [40], 64),
      'pairs[0] must be a whole number from 0 to 31, got 40',
    ],
    [
      'wrong argument count',
      () => engine.sinusoidalEncoding(3),
      'sinusoidalEncoding: expects 2 to 3 arguments (n, d, base?), got 1',
    ],
  ];
  for (const [name, call, message] of cases) {
    test(name, () => {
      assertThrowsMessage(call, message, name);
      // The module still works after the error.
      assert.equal(engine.ropeFrequencies(2)[0], 1);
    });
  }

  test('no result is ever NaN for valid extremes', () => {
    const tiny = engine.sinusoidalEncoding(2, 512, 1e-300);
    assert.ok(tiny.data.every(Number.isFinite));
    const far = engine.applyRope([1, 0], 1e15);
    assert.ok(far.every(Number.isFinite));
  });
});

describe('memory', () => {
  test('1,000 calls, with errors among them, leave the heap where it was', () => {
    const warm = () => {
      engine.sinusoidalEncoding(64, 32);
      engine.attention(
        { rows: 3, cols: 2, data: [1, 0, 0, 1, 1, 1] },
        { rows: 3, cols: 2, data: [1, 0, 0, 1, 1, 1] },
        { rows: 3, cols: 2, data: [1, 0, 0, 1, 1, 1] },
      );
      engine.applyRope([1, 0, 1, 0], 5);
      engine.contextExtensionCurves([0, 10, 20], 4096, 32768, 128);
      try {
        engine.sinusoidalEncoding(3, 7);
      } catch {
        // expected: the error path must not leak either
      }
    };
    for (let i = 0; i < 10; i += 1) warm();
    const before = engine.heapBytes();
    const handlesBefore = engine.count_emval_handles();
    for (let i = 0; i < 1000; i += 1) warm();
    const after = engine.heapBytes();
    assert.equal(after.inUse, before.inUse, `malloc'd bytes grew from ${before.inUse} to ${after.inUse}`);
    assert.equal(after.heapSize, before.heapSize);
    assert.equal(engine.count_emval_handles(), handlesBefore, 'live Embind value handles');
  });
});
