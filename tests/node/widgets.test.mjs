// The widget bindings in dist/engine.mjs: YaRN, dynamic NTK, wavelengths, extension curves,
// ALiBi, RoPE decay, layouts and permutations, the RoPE clock, float32 angles, and their errors.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { distDir as dist } from './engine-loader.mjs';

const { default: createEngine } = await import(pathToFileURL(join(dist, 'engine.mjs')));
const engine = await createEngine({ wasmBinary: readFileSync(join(dist, 'engine.wasm')) });

// Relative tolerance 1e-12: the reference values come from Hugging Face's formulas re-typed in
// numpy (float64); only the order of operations differs.
const close = (a, b, rel = 1e-12) => assert.ok(Math.abs(a - b) <= rel * Math.abs(b), `${a} vs ${b}`);

test('YaRN inverse frequencies and range match Hugging Face', () => {
  const f = engine.yarnInverseFrequencies(128, 10000, 8, 4096);
  assert.ok(f instanceof Float64Array);
  assert.equal(f.length, 64);
  close(f[30], 0.008847401809545132);
  close(f[63], 1.4434774808618228e-5);
  assert.deepEqual(engine.yarnCorrectionRange(128, 10000, 4096), { low: 20, high: 46 });
  const w = engine.yarnExtrapolationWeights(128, 10000, 4096, 32, 1);
  assert.equal(w[20], 1);
  assert.equal(w[46], 0);
  close(engine.yarnAttentionFactor(8), 0.1 * Math.log(8) + 1);
});

test('dynamic NTK base and wavelengths', () => {
  close(engine.dynamicNtkBase(10000, 8, 128, 32768, 4096), 607779.2727297307);
  assert.equal(engine.dynamicNtkBase(10000, 8, 128, 1000, 4096), 10000);
  const waves = engine.pairWavelengths(engine.ropeFrequencies(64, 10000));
  close(waves[0], 2 * Math.PI);
});

test('extension curves: the lesson rows equal contextExtensionCurves, five rows in all', () => {
  const positions = Float64Array.from({ length: 512 }, (_, i) => 64 * i);
  const ours = engine.extensionCurves(positions, 4096, 32768, 128, 10000);
  const lesson = engine.contextExtensionCurves(positions, 4096, 32768, 128, 10000);
  assert.equal(ours.angles.rows, 5);
  for (let i = 0; i < 3 * 512; i++) assert.ok(Math.abs(ours.angles.data[i] - lesson.angles.data[i]) < 1e-12);
  assert.equal(ours.trainedMax, lesson.trainedMax);
  assert.equal(Math.round(ours.ntkBase), 82685);
  const inv = engine.extensionInverseFrequencies(128, 10000, 4096, 32768);
  assert.equal(inv.rows, 5);
  assert.equal(inv.cols, 64);
});

test('ALiBi slopes, bias and RoPE decay', () => {
  assert.deepEqual([...engine.alibiSlopes(8)], [0.5, 0.25, 0.125, 0.0625, 0.03125, 0.015625, 0.0078125, 0.00390625]);
  assert.deepEqual([...engine.alibiSlopes(6)], [0.25, 0.0625, 0.015625, 0.00390625, 0.5, 0.125]);
  const b = engine.alibiBias(0.5, 3);
  assert.deepEqual([...b.data], [0, 0, 0, -0.5, 0, 0, -1, -0.5, 0]);
  const decay = engine.ropeDecayCurve(128, 10000, 100);
  close(decay[0], 32.5);
  close(decay[100], 10.227329948505133, 1e-10);
  assert.equal(engine.ropeOnesScores(64, 10000, 10)[0], 1);
});

test('layouts: permuted split halves equal interleaved scores', () => {
  assert.deepEqual([...engine.halfPermutation(8)], [0, 2, 4, 6, 1, 3, 5, 7]);
  const q = engine.standardNormal('0', 32);
  const c = engine.compareRopeConventions(q.subarray(0, 16), q.subarray(16), 100, 59, 10000);
  assert.ok(c.maxScoreDifference < 1e-12);
  assert.ok(c.maxUnpermutedDifference > 0.1);
  assert.equal(c.sinusoidalMaxDifference, 0);
  const x = [1, 2, 3, 4];
  const y = engine.applyRopeHalf(x, 3);
  close(y[0], Math.cos(3) - 3 * Math.sin(3));
});

test('RoPE clock replays the lesson: (3, 7) and (103, 107) give cos 4', () => {
  const a = engine.ropeClock([1, 0], [1, 0], 3, 7);
  const b = engine.ropeClock([1, 0], [1, 0], 103, 107);
  assert.ok(Math.abs(a.score - Math.cos(4)) < 1e-15);
  assert.ok(Math.abs(b.score - Math.cos(4)) < 1e-13);
  assert.equal(a.score.toFixed(3), '-0.654');
});

// The clock shows the angle from q to k the short way round, so (3, 7) at θ = 1 shows −2.283 rad:
// its readout and description write that as (n − m)·θ less whole turns, 4 − 2π. Tolerance 1e-9 rad:
// the engine wraps k's angle less q's, each taken mod 2π (rounding grows with m·θ up to 10⁴ here).
test('RoPE clock: the angle it shows is (n − m)·θ less the whole turns its readout names', async () => {
  const { describeClock, turnBetween } = await import('../../web/js/charts/rope-clock.js');
  for (const [m, n, theta] of [
    [3, 7, 1],
    [7, 3, 1],
    [3, 4, 1],
    [0, 20, 1],
    [103, 107, 1],
    [5, 5, 2.5],
    [-40, 9000, 0.7],
  ]) {
    const clock = engine.ropeClock([1, 0], [1, 0], m, n, theta);
    const { turn, term } = turnBetween({ m, n, theta }, clock.angleBetween);
    const whole =
      term === ''
        ? 0
        : Number(
            term.replace(
              /^([−+]) (?:([\d,]+)·)?2π$/,
              (_, s, k) => `${s === '−' ? '' : '-'}${(k ?? '1').replace(/,/g, '')}`,
            ),
          );
    assert.ok(Number.isInteger(whole), `${term} names whole turns`);
    assert.ok(
      Math.abs(turn - whole * 2 * Math.PI - clock.angleBetween) < 1e-9,
      `(${m}, ${n}, ${theta}): ${turn} ${term}`,
    );
    assert.ok(Math.abs(clock.angleBetween) <= Math.PI + 1e-12, 'the short way round');
  }
  const clock = engine.ropeClock([1, 0], [1, 0], 3, 7, 1);
  const text = describeClock({ m: 3, n: 7, theta: 1 }, clock);
  assert.match(
    text,
    /\(n − m\)·θ = 4\.000 rad on from q, which the clock shows the short way round as 4\.000 − 2π = −2\.283 rad/,
  );
  const near = describeClock({ m: 3, n: 4, theta: 1 }, engine.ropeClock([1, 0], [1, 0], 3, 4, 1));
  assert.doesNotMatch(near, /2π/, 'no turn to take off: the plain sentence');
});

test('reversing a sentence only permutes the no-position weights', () => {
  const f = engine.demoAttention('dog bites man', 'none', false).weights;
  const r = engine.demoAttention('man bites dog', 'none', false).weights;
  assert.ok(engine.maxPermutedDifference(f, r, engine.reversalPermutation(3)) < 1e-12);
  const fr = engine.demoAttention('dog bites man', 'rope', false).weights;
  const rr = engine.demoAttention('man bites dog', 'rope', false).weights;
  assert.ok(engine.maxPermutedDifference(fr, rr, engine.reversalPermutation(3)) > 1e-3);
});

test('float32 angles: exact at m = 1, drifting for a fast pair at 1M', () => {
  const e = engine.float32AngleErrors([1, 1024, 1000000], [1, 63], 128, 10000);
  assert.equal(e.angleError.rows, 2);
  assert.ok(e.angleError.data[0] < 1e-7); // only θ's rounding to float: about θ·2⁻²⁴
  assert.ok(e.angleError.data[2] > 1e-3 || e.rotationError.data[2] > 1e-3);
  assert.ok(e.rotationError.data[5] < 1e-4);
});

test('bad input throws an Error naming the argument, and the engine keeps working', () => {
  const cases = [
    [() => engine.alibiSlopes(0), /nHeads/],
    [() => engine.yarnInverseFrequencies(7, 10000, 8, 4096), /\bd\b.*even/],
    [() => engine.yarnAttentionFactor('x'), /scale must be a number/],
    [() => engine.dynamicNtkBase(1, 8, 64, 5000, 4096), /base/],
    [() => engine.float32AngleErrors([1], [99], 64, 10000), /pairs\[0\]/],
    [() => engine.halfPermutation(3), /\bd\b/],
    [() => engine.ropeClock([1, 0, 0], [1, 0], 1, 2), /q length/],
    [
      () =>
        engine.maxPermutedDifference(
          { rows: 2, cols: 2, data: [1, 2, 3, 4] },
          { rows: 2, cols: 2, data: [1, 2, 3, 4] },
          [0, 0],
        ),
      /perm\[1\]/,
    ],
    [
      () =>
        engine.maxPermutedDifference(
          { rows: 2, cols: 2, data: [1, 2, 3, 4] },
          { rows: 2, cols: 2, data: [1, 2, 3, 4] },
          [0, 0.5],
        ),
      /perm\[1\] must be a whole number from 0 to \d+, got 0\.5/,
    ],
    [() => engine.extensionCurves([0, -5], 4096, 32768, 128, 10000), /positions\[1\]/],
  ];
  for (const [call, pattern] of cases)
    assert.throws(call, (e) => e instanceof Error && pattern.test(e.message), String(call));
  assert.equal(engine.alibiSlopes(2)[0], 2 ** -4);
});

test('no heap growth over repeated widget calls', () => {
  const run = () => {
    for (let i = 0; i < 200; i++) {
      engine.extensionCurves([0, 64, 128], 4096, 32768, 128, 10000);
      engine.compareRopeConventions([1, 2, 3, 4], [4, 3, 2, 1], i, 10, 10000);
      try {
        engine.alibiSlopes(0);
      } catch {
        // expected: measuring that errors do not leak
      }
    }
  };
  run();
  const before = engine.heapBytes().inUse;
  run();
  assert.equal(engine.heapBytes().inUse, before);
});
