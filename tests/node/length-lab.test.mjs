// The length lab through the page's engine (dist/engine.mjs, WebAssembly): the default run gives the
// fingerprint recorded from the native build (tests/fixtures/length-lab-fingerprints.json), progress
// arrives after every step and can stop the run, and a failing callback comes back as the caller's Error.
// The lab is a module of its own (engine-lab.wasm), loaded by engine.loadLengthLab().
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, test } from 'node:test';
import { pathToFileURL } from 'node:url';

import { distDir, loadEngine } from './engine-loader.mjs';

// A run of two steps on a tiny model: about a millisecond.
const tinyLab = {
  scheme: 'rope',
  symbols: 4,
  trainLength: 8,
  layers: 1,
  dModel: 8,
  heads: 2,
  mlpWidth: 8,
  batch: 2,
  steps: 2,
  lookupDistance: 2,
  evalSequences: 1,
  maxEvalFactor: 2,
};

const recorded = JSON.parse(readFileSync(new URL('../fixtures/length-lab-fingerprints.json', import.meta.url), 'utf8'));

let engine;
before(async () => {
  engine = await loadEngine();
});

describe('trainLengthLab', () => {
  test("the default run: the native build's bits, and the lookup learned at the trained length", () => {
    const steps = [];
    const run = engine.trainLengthLab({}, (step, loss) => {
      steps.push(step);
      assert.ok(Number.isFinite(loss));
    });
    assert.equal(run.fingerprint, recorded.default);
    assert.equal(steps.length, 300);
    assert.equal(steps[299], 300);
    assert.equal(run.losses.length, 300);
    assert.deepEqual(run.variants, ['rope', 'rope+pi', 'rope+ntk', 'rope+yarn']);
    assert.deepEqual(Array.from(run.evalLengths), [16, 32, 48, 64, 80, 96, 112, 128]);
    assert.equal(run.accuracy.rows, 4);
    assert.equal(run.accuracy.cols, 8);
    assert.ok(run.accuracy.data[0] >= 0.95, `accuracy at the trained length ${run.accuracy.data[0]}`);
    assert.equal(run.stopped, false);
  });

  test("every recorded small run, the newer schemes and SSMax among them: the native build's bits", () => {
    for (const run of recorded.small) {
      const options = {
        scheme: run.scheme,
        task: run.task,
        seed: run.seed,
        dModel: 16,
        heads: 2,
        mlpWidth: 16,
        batch: 4,
        steps: 30,
        evalSequences: 2,
        recalibrationSteps: 5,
        lengthScaledSoftmax: run.ssmax ?? false,
      };
      const result = engine.trainLengthLab(options);
      assert.equal(result.fingerprint, run.fingerprint, `${run.scheme}/${run.task}${run.ssmax ? '+ssmax' : ''}`);
      // The sink diagnostic: one row per layer, one column per evaluation length, shares from 0 to 1.
      assert.equal(result.sinkShare.rows, 2);
      assert.equal(result.sinkShare.cols, 8);
      assert.ok(Array.from(result.sinkShare.data).every((x) => x >= 0 && x <= 1));
      const model = run.scheme + (run.ssmax ? '+ssmax' : '');
      assert.equal(result.variants[0], model);
    }
  });

  test('returning false stops the run after that step, unevaluated', () => {
    const run = engine.trainLengthLab({ scheme: 'alibi', steps: 50 }, (step) => step < 3);
    assert.equal(engine.trainLengthLab(undefined, () => false).losses.length, 1); // the default options
    assert.equal(run.stopped, true);
    assert.equal(run.losses.length, 3);
    assert.equal(run.accuracy.rows, 0);
  });

  test("a callback's exception stops the run and reaches the caller", () => {
    assert.throws(
      () =>
        engine.trainLengthLab({ steps: 20 }, () => {
          throw new Error('worker gone');
        }),
      { message: 'trainLengthLab: onProgress threw: worker gone' },
    );
    assert.equal(engine.md5Hex('abc'), '900150983cd24fb0d6963f7d28e17f72');
  });

  test('options are named in their own spelling when refused', () => {
    assert.throws(() => engine.trainLengthLab({ dModel: 30 }), /^Error: trainLengthLab: options\.dModel must be/);
    assert.throws(() => engine.trainLengthLab({ widht: 3 }), /options\.widht is not an option/);
    assert.throws(() => engine.trainLengthLab({ scheme: 'xpos' }), /options\.scheme must be one of none, learned/);
  });

  test("the engine's own rules: how the options combine, non-finite numbers, the work cap", () => {
    const cases = [
      [{ ...tinyLab, dModel: 10 }, /options\.dModel must be heads \(2\) × an even head width of at least 4, got 10/],
      [{ ...tinyLab, lookupDistance: 7 }, /options\.lookupDistance must be a whole number from 1 to 6, got 7/],
      [{ ...tinyLab, trainLength: 9 }, /options\.trainLength must be even, got 9/],
      [{ ...tinyLab, learningRate: NaN }, /options\.learningRate must be a number > 0 and at most 1, got nan/],
      [{ ...tinyLab, learningRate: 2 }, /options\.learningRate must be/],
      [{ ...tinyLab, ropeBase: Infinity }, /options\.ropeBase must be a number > 1/],
      [{ ...tinyLab, window: 0 }, /options\.window must be a whole number from 1 to 512, got 0/],
      [
        { ...tinyLab, scheme: 'drope', recalibrationSteps: 3 },
        /options\.recalibrationSteps must be a whole number from 0 to 2, got 3/,
      ],
      // Refused before any work, by a message about the run rather than one option.
      [{ layers: 4, dModel: 128, mlpWidth: 512, batch: 64, trainLength: 64, steps: 20000 }, /the lab would take/],
    ];
    for (const [options, message] of cases) {
      assert.throws(
        () => engine.trainLengthLab(options),
        (error) => error.constructor === Error && message.test(error.message),
      );
    }
    assert.equal(engine.trainLengthLab(tinyLab).losses.length, 2);
  });
});

describe('the lab as a module of its own', () => {
  const bytes = (name) => readFileSync(join(distDir, name));
  const fresh = async (options) => (await import(pathToFileURL(join(distDir, 'engine.mjs')).href)).default(options);

  test('the kernels module does not carry it; the lab module carries nothing else', async () => {
    const { default: createCore } = await import(pathToFileURL(join(distDir, 'engine-core.mjs')).href);
    const core = await createCore({ wasmBinary: bytes('engine.wasm') });
    assert.equal(typeof core.trainLengthLab, 'undefined');
    const { default: createLab } = await import(pathToFileURL(join(distDir, 'engine-lab.mjs')).href);
    const lab = await createLab({ wasmBinary: bytes('engine-lab.wasm') });
    assert.equal(typeof lab.trainLengthLab, 'function');
    assert.equal(typeof lab.sinusoidalEncoding, 'undefined');
    assert.equal(typeof lab.readModelConfig, 'undefined');
  });

  test('trainLengthLab says how to load it until loadLengthLab() has, then runs as the loaded engine does', async () => {
    const lazy = await fresh({ wasmBinary: bytes('engine.wasm'), lengthLabWasmBinary: bytes('engine-lab.wasm') });
    assert.throws(
      () => lazy.trainLengthLab(tinyLab),
      /trainLengthLab: the length lab is a module of its own; await engine\.loadLengthLab\(\)/,
    );
    assert.equal(lazy.ropeFrequencies(4, 10000)[1], 0.01, 'the kernels answer meanwhile');
    const first = lazy.loadLengthLab();
    assert.equal(lazy.loadLengthLab(), first, 'one load, however often it is asked for');
    await first;
    assert.equal(lazy.trainLengthLab(tinyLab).fingerprint, engine.trainLengthLab(tinyLab).fingerprint);
    assert.throws(
      () => lazy.trainLengthLab({ steps: -1 }),
      /^Error: trainLengthLab: options\.steps must be a whole number/,
    );
    // Its heap counts in heapBytes, with the kernels'.
    const { inUse } = lazy.heapBytes();
    lazy.trainLengthLab(tinyLab);
    assert.equal(lazy.heapBytes().inUse, inUse, 'a run leaves the heaps as it found them');
  });

  test('a lab that fails to load says so, leaves the kernels working, and may be tried again', async () => {
    const broken = await fresh({ wasmBinary: bytes('engine.wasm'), lengthLabWasmBinary: new Uint8Array([0, 1, 2]) });
    await assert.rejects(broken.loadLengthLab(), /loadLengthLab: the length-lab module could not be loaded/);
    assert.throws(() => broken.trainLengthLab(tinyLab), /loadLengthLab/);
    assert.equal(broken.ropeFrequencies(4, 10000)[0], 1);
    await assert.rejects(broken.loadLengthLab(), /could not be loaded/, 'a second try runs again');
  });
});
