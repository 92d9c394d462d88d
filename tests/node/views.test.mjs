// The zero-copy path of the facade (engine.views, cpp/bindings/bind_views.cpp): the same numbers as
// the copying functions, the lifetime rule (a view is valid until the next call into the engine),
// and bad input refused with the function and the argument named. Also the scratch path the curves
// take (cpp/bindings/bind_scratch.cpp), with its views.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';

import { loadEngine } from './engine-loader.mjs';

let engine;
before(async () => {
  engine = await loadEngine();
});

const matrix = (rows, cols, seed) => ({
  rows,
  cols,
  data: Float64Array.from({ length: rows * cols }, (_, i) => Math.sin(seed * 1000 + i * 0.37) * 3),
});

describe('engine.views: the same numbers as the copying functions', () => {
  // Tolerance 0: the view and the copy come from the same C++ call on the same inputs; only where
  // the result lives differs.
  test('sinusoidalEncoding, default and explicit base', () => {
    for (const args of [
      [300, 16],
      [33, 10, 500],
      [1, 2],
    ]) {
      const copy = engine.sinusoidalEncoding(...args);
      const view = engine.views.sinusoidalEncoding(...args);
      assert.equal(view.rows, copy.rows);
      assert.equal(view.cols, copy.cols);
      assert.ok(view.data instanceof Float64Array);
      assert.deepEqual(view.data, copy.data, `sinusoidalEncoding(${args})`);
    }
  });

  test('applyRopeSequence, with positions 0…n−1 and with explicit positions', () => {
    const x = matrix(40, 8, 1);
    const positions = Float64Array.from({ length: 40 }, (_, i) => 3 * i + 0.5);
    for (const args of [[x], [x, null, 500], [x, positions], [{ rows: 2, cols: 4, data: [1, 2, 3, 4, 5, 6, 7, 8] }]]) {
      const copy = engine.applyRopeSequence(...args);
      const view = engine.views.applyRopeSequence(...args);
      assert.equal(view.rows, copy.rows);
      assert.equal(view.cols, copy.cols);
      assert.deepEqual(view.data, copy.data);
    }
  });

  test('attention: output, weights, scores and scaledScores, causal and not', () => {
    const [q, k, v] = [matrix(24, 8, 4), matrix(24, 8, 5), matrix(24, 6, 6)];
    for (const args of [
      [q, k, v],
      [q, matrix(30, 8, 5), matrix(30, 6, 6)],
      [q, k, v, true],
      [matrix(1, 1, 7), matrix(1, 1, 8), matrix(1, 1, 9)],
    ]) {
      const copy = engine.attention(...args);
      const view = engine.views.attention(...args);
      assert.deepEqual(Object.keys(view), ['output', 'weights', 'scores', 'scaledScores']);
      for (const key of Object.keys(view)) {
        assert.equal(view[key].rows, copy[key].rows, key);
        assert.equal(view[key].cols, copy[key].cols, key);
        assert.deepEqual(view[key].data, copy[key].data, key);
      }
    }
  });

  test('an empty table is an empty view', () => {
    const view = engine.views.sinusoidalEncoding(0, 4);
    assert.equal(view.rows, 0);
    assert.equal(view.data.length, 0);
  });
});

describe('engine.views: the lifetime rule', () => {
  test('reading data after any later engine call throws, naming the rule; a copy taken before stays', () => {
    const view = engine.views.sinusoidalEncoding(64, 8);
    const kept = view.data.slice();
    const expected = engine.sinusoidalEncoding(64, 8).data; // a later call: the view has expired
    assert.throws(() => view.data, {
      message: /views\.sinusoidalEncoding: this view expired at a later engine call.*view\.data\.slice\(\)/,
    });
    assert.equal(view.rows, 64); // the shape stays readable
    assert.deepEqual(kept, expected);
  });

  test('a later view call and views.release() expire it too', () => {
    const first = engine.views.sinusoidalEncoding(16, 4);
    const second = engine.views.applyRopeSequence(matrix(4, 4, 2));
    assert.throws(() => first.data, /expired/);
    assert.equal(second.data.length, 16);
    engine.views.release();
    assert.throws(() => second.data, /expired/);
  });

  test("every one of attention's four views expires at the next call", () => {
    const view = engine.views.attention(matrix(4, 2, 1), matrix(4, 2, 2), matrix(4, 3, 3), true);
    assert.equal(view.weights.data.length, 16);
    engine.ropeFrequencies(4);
    for (const key of ['output', 'weights', 'scores', 'scaledScores'])
      assert.throws(() => view[key].data, /^Error: views\.attention: this view expired/, key);
  });

  test('attention views passed back in are read before the slots they live in are freed', () => {
    const [q, k, v] = [matrix(6, 4, 1), matrix(6, 4, 2), matrix(6, 4, 3)];
    const first = engine.attention(q, k, v);
    const again = engine.attention(first.output, first.output, first.output, true);
    const view = engine.views.attention(q, k, v);
    const fromViews = engine.views.attention(view.output, view.output, view.output, true);
    assert.deepEqual(fromViews.weights.data, again.weights.data);
    assert.deepEqual(fromViews.output.data, again.output.data);
  });

  test('a view passed back in as an argument is read before it can expire', () => {
    const x = matrix(32, 8, 3);
    const once = engine.applyRopeSequence(x);
    const view = engine.views.applyRopeSequence(x);
    const twiceFromView = engine.applyRopeSequence({ rows: view.rows, cols: view.cols, data: view.data });
    const twiceFromCopy = engine.applyRopeSequence(once);
    assert.deepEqual(twiceFromView.data, twiceFromCopy.data);
  });

  test('growing the memory empties a Float64Array taken from an earlier view (why the rule exists)', async () => {
    const fresh = await loadEngine(); // 32 MiB of memory at the start: a 128 MiB table must grow it
    const raw = fresh.views.sinusoidalEncoding(8, 4).data;
    assert.equal(raw.length, 32);
    const { heapSize } = fresh.heapBytes();
    const big = fresh.views.sinusoidalEncoding(4096, 4096);
    assert.ok(fresh.heapBytes().heapSize > heapSize, 'the memory grew');
    assert.equal(raw.length, 0, 'the old view is detached');
    assert.equal(big.rows, 4096);
    fresh.views.release();
  });

  test('views.release() frees the held result', () => {
    engine.views.release();
    const before = engine.heapBytes().inUse;
    engine.views.sinusoidalEncoding(512, 64);
    assert.ok(engine.heapBytes().inUse >= before + 512 * 64 * 8, 'the table is held in the module');
    engine.views.release();
    assert.equal(engine.heapBytes().inUse, before);
    const [q, k, v] = [matrix(128, 8, 1), matrix(128, 8, 2), matrix(128, 8, 3)];
    engine.views.attention(q, k, v);
    const held = (3 * 128 * 128 + 128 * 8) * 8; // weights, scores, scaled scores and output
    assert.ok(engine.heapBytes().inUse >= before + held, "attention's four matrices are held");
    engine.views.sinusoidalEncoding(2, 2); // a later view call frees all four, not only the first
    assert.ok(engine.heapBytes().inUse < before + 1024);
    engine.views.release();
    assert.equal(engine.heapBytes().inUse, before);
  });
});

describe('the scratch path: the curves cross as numbers (cpp/bindings/bind_scratch.cpp)', () => {
  const positions = Float64Array.from({ length: 300 }, (_, i) => i * 111.5);
  const curvesArgs = [positions, 4096, 32768, 128, 10000];

  // The lesson's rows from their definition, in plain JavaScript, for the comparisons below.
  function expectedCurves(p, trained, target, d, base) {
    const slow = base ** (-(d - 2) / d);
    const slowNtk = (base * (target / trained) ** (d / (d - 2))) ** (-(d - 2) / d);
    const rows = [(x) => x * slow, (x) => x * (trained / target) * slow, (x) => x * slowNtk];
    return rows.flatMap((row) => Array.from(p, row));
  }

  test('contextExtensionCurves: the rows of the lesson, and trainedMax', () => {
    const curves = engine.contextExtensionCurves(...curvesArgs);
    assert.deepEqual(Object.keys(curves), ['angles', 'trainedMax']);
    assert.equal(curves.angles.rows, 3);
    assert.equal(curves.angles.cols, 300);
    // Tolerance 1e-12 relative: JavaScript's ** and the engine's pow may differ in the last bit.
    const expected = expectedCurves(...curvesArgs);
    curves.angles.data.forEach((value, i) =>
      assert.ok(Math.abs(value - expected[i]) <= 1e-12 * Math.abs(expected[i]), `angle ${i}`),
    );
    assert.ok(Math.abs(curves.trainedMax - 4096 * 10000 ** (-126 / 128)) < 1e-12);
  });

  test('the views give the same numbers as the copies, and expire at the next call', () => {
    // Tolerance 0: the same C++ call writes both; only where the result is read from differs.
    const copy = engine.contextExtensionCurves(...curvesArgs);
    const view = engine.views.contextExtensionCurves(...curvesArgs);
    assert.deepEqual(view.angles.data, copy.angles.data);
    assert.equal(view.trainedMax, copy.trainedMax);
    const chart = engine.extensionCurves(positions, 4096, 32768, 128);
    const chartView = engine.views.extensionCurves(positions, 4096, 32768, 128);
    assert.deepEqual(Object.keys(chartView), ['angles', 'trainedMax', 'ntkBase', 'attentionFactor', 'yarnRange']);
    assert.deepEqual(chartView.angles.data, chart.angles.data);
    assert.deepEqual({ ...chartView, angles: null }, { ...chart, angles: null });
    assert.throws(() => view.angles.data, /^Error: views\.contextExtensionCurves: this view expired/);
    engine.ropeFrequencies(4);
    assert.throws(() => chartView.angles.data, /^Error: views\.extensionCurves: this view expired/);
    assert.equal(chartView.ntkBase, chart.ntkBase, 'the scalars are plain numbers and stay');
  });

  test('positions that live in the module (a view of the scratch block) are read before the block grows', async () => {
    const fresh = await loadEngine(); // 32 MiB of memory at the start
    const many = Float64Array.from({ length: 500000 }, (_, i) => i * 0.25);
    const view = engine.views.contextExtensionCurves(many, 4096, 32768, 128);
    const fromCopy = engine.contextExtensionCurves(view.angles.data.slice(), 4096, 32768, 128);
    const { heapSize } = fresh.heapBytes();
    const again = fresh.views.contextExtensionCurves(many, 4096, 32768, 128);
    // 1.5 million positions need a block of 48 MB: the memory grows, emptying every view of it.
    const fromView = fresh.contextExtensionCurves(again.angles.data, 4096, 32768, 128);
    assert.ok(fresh.heapBytes().heapSize > heapSize, 'the memory grew');
    assert.equal(fromView.angles.data.length, 4500000);
    assert.deepEqual(fromView.angles.data, fromCopy.angles.data);
  });

  test('a large call is answered and its block freed; the next small call works', () => {
    engine.contextExtensionCurves(positions, 4096, 32768, 128); // the block at its kept size
    const before = engine.heapBytes().inUse;
    const many = Float64Array.from({ length: 100000 }, (_, i) => i);
    const curves = engine.extensionCurves(many, 4096, 32768, 128);
    assert.equal(curves.angles.data.length, 5 * 100000);
    assert.equal(curves.angles.data[100000 + 4096], 4096 * (4096 / 32768) * 10000 ** (-126 / 128));
    // At most `before`: the 4.8 MB block is freed and one of the kept size allocated again (the
    // block before the call may have been larger, after an earlier call of a few thousand positions).
    assert.ok(engine.heapBytes().inUse <= before, `${engine.heapBytes().inUse} bytes in use, ${before} before`);
    assert.deepEqual(
      engine.contextExtensionCurves(...curvesArgs).angles.data,
      engine.views.contextExtensionCurves(...curvesArgs).angles.data.slice(),
    );
  });

  test('a call over the output cap is refused before the block is sized for it', async () => {
    const fresh = await loadEngine();
    const { heapSize, inUse } = fresh.heapBytes();
    const over = new Float64Array(Math.floor(2 ** 24 / 3) + 1); // 3 rows of these exceed 2^24 numbers
    assert.throws(
      () => fresh.contextExtensionCurves(over, 4096, 32768, 128),
      /^Error: contextExtensionCurves: the curves would hold 3 × 5592406 numbers, more than the cap of 16777216/,
    );
    // The memory did not grow, and what is in use grew only by the kept error message.
    assert.equal(fresh.heapBytes().heapSize, heapSize);
    assert.ok(fresh.heapBytes().inUse < inUse + 1024, `${fresh.heapBytes().inUse} bytes in use, ${inUse} before`);
  });

  test('bad input is an Error naming the function and the argument; the engine works after', () => {
    const cases = [
      [
        () => engine.contextExtensionCurves([1, NaN], 4096, 32768, 128),
        /^contextExtensionCurves: positions\[1\] must be finite, got nan$/,
      ],
      [
        () => engine.contextExtensionCurves([1], 0, 32768, 128),
        /^contextExtensionCurves: trainedLen must be a finite number > 0, got 0$/,
      ],
      [() => engine.contextExtensionCurves([1], 4096, 32768, 7), /^contextExtensionCurves: d must be even, got 7$/],
      [
        () => engine.contextExtensionCurves([1e300], 1, 2, 4, 1e-100),
        /^contextExtensionCurves: the angles position · θ overflow/,
      ],
      [
        () => engine.views.extensionCurves([0, -5], 4096, 32768, 128),
        /^views\.extensionCurves: positions\[1\] must be a finite number ≥ 0/,
      ],
      [
        () => engine.extensionCurves([0], 4096, 2048, 128),
        /^extensionCurves: newLen must be at least trainedLen \(4096\), got 2048$/,
      ],
      [() => engine.extensionCurves([0], 4096, 32768, 128, 10000, 1, 32), /^extensionCurves: betaFast/],
    ];
    for (const [call, message] of cases)
      assert.throws(call, (error) => error.constructor === Error && message.test(error.message), String(call));
    const copy = engine.contextExtensionCurves(...curvesArgs);
    assert.equal(copy.angles.data.length, 900);
    assert.equal(engine.count_emval_handles(), 0);
  });
});

describe('engine.views: bad input', () => {
  test('each bad argument is an Error naming views.<function> and the argument', () => {
    const cases = [
      [() => engine.views.sinusoidalEncoding(-1, 4), /^views\.sinusoidalEncoding: n must be a whole number from 0/],
      [() => engine.views.sinusoidalEncoding(4, 0), /^views\.sinusoidalEncoding: d must be a whole number from 1/],
      [() => engine.views.sinusoidalEncoding(4, 3), /^views\.sinusoidalEncoding: .*d.*even/],
      [() => engine.views.sinusoidalEncoding(4), /^views\.sinusoidalEncoding: expects 2 to 3 arguments/],
      [() => engine.views.sinusoidalEncoding(4, 4, 'x'), /^views\.sinusoidalEncoding: base must be a number/],
      [() => engine.views.sinusoidalEncoding(2 ** 13, 2 ** 12), /^views\.sinusoidalEncoding: /],
      [() => engine.views.applyRopeSequence(null), /^views\.applyRopeSequence: x must be an object/],
      [
        () => engine.views.applyRopeSequence({ rows: 2, cols: 4, data: [1, 2, 3] }),
        /^views\.applyRopeSequence: x\.data must hold rows × cols = 8 numbers, got 3/,
      ],
      [() => engine.views.applyRopeSequence(matrix(4, 4, 1), [0, 1]), /^views\.applyRopeSequence: .*positions/],
      [() => engine.views.applyRopeSequence(matrix(4, 3, 1)), /^views\.applyRopeSequence: .*even/],
      [
        () => engine.views.attention(matrix(2, 4, 1), matrix(3, 2, 1), matrix(3, 2, 1)),
        /^views\.attention: k must have as many columns as q \(4\), got 2/,
      ],
      [
        () => engine.views.attention(matrix(2, 2, 1), matrix(3, 2, 1), matrix(2, 2, 1)),
        /^views\.attention: v must have one row per key \(3\), got 2/,
      ],
      [
        () => engine.views.attention(matrix(2, 2, 1), matrix(2, 2, 1), matrix(2, 2, 1), 1),
        /causal must be true or false/,
      ],
      [() => engine.views.attention(matrix(2, 2, 1), matrix(2, 2, 1)), /^views\.attention: expects 3 to 4 arguments/],
    ];
    for (const [call, message] of cases)
      assert.throws(call, (error) => error instanceof Error && message.test(error.message), String(call));
    // The engine still works afterwards.
    assert.deepEqual(engine.views.sinusoidalEncoding(4, 4).data, engine.sinusoidalEncoding(4, 4).data);
  });

  test('an expired view passed as input is refused by name, not read as garbage', async () => {
    const fresh = await loadEngine();
    const view = fresh.views.sinusoidalEncoding(8, 4);
    const data = view.data;
    fresh.views.sinusoidalEncoding(4096, 4096); // grows the memory: data is now detached
    assert.throws(
      () => fresh.views.applyRopeSequence({ rows: 8, cols: 4, data }),
      /views\.applyRopeSequence: x\.data must hold rows × cols = 32 numbers, got 0/,
    );
    fresh.views.release();
  });
});

describe('engine.into: the result written into an array the caller keeps', () => {
  // Tolerance 0 throughout: the target is filled from the same C++ call the copy comes from.
  test('every function with a view fills its target with the numbers of the copy, and returns it as data', () => {
    const table = new Float64Array(300 * 16);
    const filled = engine.into.sinusoidalEncoding(table, 300, 16);
    assert.equal(filled.data, table, 'the target itself, not a copy of it');
    assert.equal(filled.rows, 300);
    assert.equal(filled.cols, 16);
    assert.deepEqual(table, engine.sinusoidalEncoding(300, 16).data);

    const x = matrix(40, 8, 1);
    const rotated = new Float64Array(40 * 8);
    assert.equal(engine.into.applyRopeSequence(rotated, x, null, 500).data, rotated);
    assert.deepEqual(rotated, engine.applyRopeSequence(x, null, 500).data);

    const [q, k, v] = [matrix(24, 8, 4), matrix(30, 8, 5), matrix(30, 6, 6)];
    const copy = engine.attention(q, k, v);
    const targets = { weights: new Float64Array(24 * 30), output: new Float64Array(24 * 6) };
    const result = engine.into.attention(targets, q, k, v);
    assert.deepEqual(Object.keys(result), ['weights', 'output'], 'the matrices asked for, and only those');
    for (const key of ['weights', 'output']) {
      assert.equal(result[key].data, targets[key]);
      assert.deepEqual(targets[key], copy[key].data, key);
    }

    const positions = Float64Array.from({ length: 300 }, (_, i) => i * 111.5);
    const angles = new Float64Array(5 * 300);
    const curves = engine.into.extensionCurves(angles, positions, 4096, 32768, 128);
    const curvesCopy = engine.extensionCurves(positions, 4096, 32768, 128);
    assert.equal(curves.angles.data, angles);
    assert.deepEqual(angles, curvesCopy.angles.data);
    assert.deepEqual({ ...curves, angles: null }, { ...curvesCopy, angles: null });
  });

  test('repeated calls reuse the one array: no view is held and nothing grows', () => {
    const table = new Float64Array(512 * 64);
    engine.into.sinusoidalEncoding(table, 512, 64);
    const { inUse } = engine.heapBytes();
    for (let i = 0; i < 50; i += 1) engine.into.sinusoidalEncoding(table, 512, 64, 10000 + i);
    assert.deepEqual(table, engine.sinusoidalEncoding(512, 64, 10049).data);
    assert.ok(engine.heapBytes().inUse <= inUse, `${engine.heapBytes().inUse} bytes in use after, ${inUse} before`);
    // into releases what the view held: a view taken before is expired, one taken after is not.
    const view = engine.views.sinusoidalEncoding(4, 4);
    engine.into.sinusoidalEncoding(new Float64Array(16), 4, 4);
    assert.throws(() => view.data, /^Error: views\.sinusoidalEncoding: this view expired/);
  });

  test('an input may be its own target: RoPE in place', () => {
    const x = matrix(16, 8, 3);
    const expected = engine.applyRopeSequence(x).data;
    engine.into.applyRopeSequence(x.data, x);
    assert.deepEqual(x.data, expected);
  });

  test('a bad target is an Error naming into.<function>, the target and the rule; the engine works after', () => {
    const cases = [
      [
        () => engine.into.sinusoidalEncoding([0, 0, 0, 0], 2, 2),
        /^into\.sinusoidalEncoding: target must be a Float64Array, got Array$/,
      ],
      [
        () => engine.into.sinusoidalEncoding(null, 2, 2),
        /^into\.sinusoidalEncoding: target must be a Float64Array, got null$/,
      ],
      [
        () => engine.into.sinusoidalEncoding(new Float32Array(4), 2, 2),
        /^into\.sinusoidalEncoding: target must be a Float64Array, got Float32Array$/,
      ],
      [
        () => engine.into.sinusoidalEncoding(new Float64Array(10), 3, 4),
        /^into\.sinusoidalEncoding: target must hold rows × cols = 3 × 4 = 12 numbers, got 10$/,
      ],
      [
        () => engine.into.sinusoidalEncoding(new Float64Array(4)),
        /^into\.sinusoidalEncoding: expects a target, then 2 to 3 arguments \(n, d, base\?\), got 0 after it$/,
      ],
      [() => engine.into.sinusoidalEncoding(), /^into\.sinusoidalEncoding: expects a target, then 2 to 3 arguments/],
      [() => engine.into.sinusoidalEncoding(new Float64Array(12), 3, 3), /^into\.sinusoidalEncoding: .*d.*even/],
      [
        () => engine.into.extensionCurves(new Float64Array(5), [0, 1], 4096, 32768, 128),
        /^into\.extensionCurves: target must hold rows × cols = 5 × 2 = 10 numbers, got 5$/,
      ],
      [
        () => engine.into.attention(new Float64Array(4), matrix(2, 2, 1), matrix(2, 2, 1), matrix(2, 2, 1)),
        /^into\.attention: targets must be an object of Float64Arrays \(any of output, weights, scores, scaledScores\)$/,
      ],
      [
        () => engine.into.attention({ weight: new Float64Array(4) }, matrix(2, 2, 1), matrix(2, 2, 1), matrix(2, 2, 1)),
        /^into\.attention: targets may hold output, weights, scores, scaledScores, got "weight"$/,
      ],
      [
        () => engine.into.attention({}, matrix(2, 2, 1), matrix(2, 2, 1), matrix(2, 2, 1)),
        /^into\.attention: targets may hold output, weights, scores, scaledScores, got none$/,
      ],
      [
        () => engine.into.attention({ scores: new Float64Array(3) }, matrix(2, 2, 1), matrix(2, 2, 1), matrix(2, 2, 1)),
        /^into\.attention: targets\.scores must hold rows × cols = 2 × 2 = 4 numbers, got 3$/,
      ],
    ];
    for (const [call, message] of cases)
      assert.throws(call, (error) => error.constructor === Error && message.test(error.message), String(call));
    // A view of the engine's own memory is refused before the call: the call may overwrite or move it.
    const view = engine.views.sinusoidalEncoding(2, 2);
    assert.throws(
      () => engine.into.sinusoidalEncoding(view.data, 2, 2),
      /^Error: into\.sinusoidalEncoding: target is a view of the engine's memory, which the call may move; pass an array you keep$/,
    );
    assert.deepEqual(
      engine.into.sinusoidalEncoding(new Float64Array(4), 2, 2).data,
      engine.sinusoidalEncoding(2, 2).data,
    );
    assert.equal(engine.count_emval_handles(), 0);
  });
});
