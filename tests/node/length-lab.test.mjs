// The length lab through the page's engine (dist/engine.mjs, WebAssembly): the default run gives the
// fingerprint recorded from the native build (tests/fixtures/length-lab-fingerprints.json), progress
// arrives after every step and can stop the run, and a failing callback comes back as the caller's Error.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { before, describe, test } from 'node:test';

import { loadEngine } from './engine-loader.mjs';

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
});
