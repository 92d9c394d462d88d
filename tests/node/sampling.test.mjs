// engine.sinusoidalEncodingRows through its binding (dist/engine.mjs): the sampled rows equal the
// matching rows of engine.sinusoidalEncoding, the base defaults to 10,000, bad input is a
// JavaScript Error with the C++ message, and 3,000 calls leak neither heap nor value handles.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';

import { assertThrowsMessage, loadEngine } from './engine-loader.mjs';

// The full table and the sampled rows both use angle addition, along different chains (up to
// 15 steps of at most 6·2^−53 each for the sampled rows), and the angle p·ω rounds differently
// along each, by up to an ulp of p·ω_0 (ω_0 = 1). Allow 8 ulps of the largest angle plus
// 128·2^−53 for the steps (as tests/cpp/test_sinusoidal.cpp).
const tolerance = (position) => 2 ** -53 * (8 * (position + 1) + 128);

let engine;
before(async () => {
  engine = await loadEngine();
});

function expectRowsMatch(sampled, full, positions) {
  assert.equal(sampled.rows, positions.length);
  assert.equal(sampled.cols, full.cols);
  assert.ok(sampled.data instanceof Float64Array);
  positions.forEach((p, r) => {
    for (let c = 0; c < full.cols; c += 1) {
      const got = sampled.data[r * sampled.cols + c];
      const want = full.data[p * full.cols + c];
      assert.ok(Math.abs(got - want) <= tolerance(p), `position ${p}, dimension ${c}: ${got} vs ${want}`);
    }
  });
}

describe('sinusoidalEncodingRows', () => {
  test('a heatmap sample of a 4,096 × 512 table equals those rows of the full table', () => {
    const full = engine.sinusoidalEncoding(4096, 512, 10000);
    // One row per device pixel of a 455-pixel plot, as the chart asks: position ⌊(y + ½)·n / h⌋.
    const h = 455;
    const positions = Float64Array.from({ length: h }, (_, y) => Math.floor(((y + 0.5) * 4096) / h));
    expectRowsMatch(engine.sinusoidalEncodingRows(positions, 512, 10000), full, Array.from(positions));
  });

  test('plain arrays, any order, repeats, and the default base', () => {
    const positions = [7, 0, 199, 7, 33, 1];
    const full = engine.sinusoidalEncoding(200, 16);
    expectRowsMatch(engine.sinusoidalEncodingRows(positions, 16), full, positions);
    expectRowsMatch(engine.sinusoidalEncodingRows(positions, 16, undefined), full, positions);
    const other = engine.sinusoidalEncoding(200, 16, 500000);
    expectRowsMatch(engine.sinusoidalEncodingRows(positions, 16, 500000), other, positions);
  });

  test('an empty list gives a 0 × d result', () => {
    const empty = engine.sinusoidalEncodingRows([], 8);
    assert.equal(empty.rows, 0);
    assert.equal(empty.cols, 8);
    assert.equal(empty.data.length, 0);
  });
});

describe('bad input is an Error naming the argument', () => {
  const cases = [
    ['odd d', () => engine.sinusoidalEncodingRows([0, 1], 7), 'd must be even, got 7'],
    [
      'd not a number',
      () => engine.sinusoidalEncodingRows([0], '8'),
      'sinusoidalEncodingRows: d must be a whole number from 1 to 16777216, got "8"',
    ],
    [
      'fractional position',
      () => engine.sinusoidalEncodingRows([0, 2.5], 8),
      'positions[1] must be a whole number ≥ 0, got 2.5',
    ],
    [
      'negative position',
      () => engine.sinusoidalEncodingRows([3, -1], 8),
      'positions[1] must be a whole number ≥ 0, got -1',
    ],
    ['NaN position', () => engine.sinusoidalEncodingRows([NaN], 8), 'positions[0] must be finite, got nan'],
    [
      'non-number in positions',
      () => engine.sinusoidalEncodingRows([1, 'x'], 8),
      'sinusoidalEncodingRows: positions[1] must be a number, got "x"',
    ],
    ['positions not an array', () => engine.sinusoidalEncodingRows('0,1', 8), 'positions must be an array of numbers'],
    ['null positions', () => engine.sinusoidalEncodingRows(null, 8), 'positions must be an array of numbers'],
    ['base 1', () => engine.sinusoidalEncodingRows([0], 8, 1), 'base must be different from 1'],
    [
      'base not a number',
      () => engine.sinusoidalEncodingRows([0], 8, null),
      'sinusoidalEncodingRows: base must be a number, got null',
    ],
    ['overflowing angle', () => engine.sinusoidalEncodingRows([1e200], 4, 1e-300), 'overflows'],
    [
      'over the cap',
      () => engine.sinusoidalEncodingRows(new Float64Array(4097), 4096),
      'more than the cap of 16777216',
    ],
    [
      'wrong argument count',
      () => engine.sinusoidalEncodingRows([0]),
      'sinusoidalEncodingRows: expects 2 to 3 arguments (positions, d, base?), got 1',
    ],
  ];
  for (const [name, call, message] of cases) {
    test(name, () => {
      assertThrowsMessage(call, message, name);
      // Still works afterwards (sin 1 from the engine's libm and from V8 may differ in the last bit).
      assert.ok(Math.abs(engine.sinusoidalEncodingRows([1], 2).data[0] - Math.sin(1)) <= 2 ** -52);
    });
  }
});

test('2,000 calls (and 1,000 failing ones) leave the heap and the value handles as they were', () => {
  const positions = Float64Array.from({ length: 40 }, (_, y) => y * 25);
  const call = (i) => engine.sinusoidalEncodingRows(positions, 64 + 2 * (i % 8), 10000);
  for (let i = 0; i < 20; i += 1) call(i);
  const before = engine.heapBytes();
  const handles = engine.count_emval_handles();
  for (let i = 0; i < 2000; i += 1) call(i);
  for (let i = 0; i < 1000; i += 1) assert.throws(() => engine.sinusoidalEncodingRows([0.5], 8));
  const after = engine.heapBytes();
  assert.equal(after.inUse, before.inUse, `malloc'd bytes grew from ${before.inUse} to ${after.inUse}`);
  assert.equal(after.heapSize, before.heapSize);
  assert.equal(engine.count_emval_handles(), handles, 'live Embind value handles');
});
