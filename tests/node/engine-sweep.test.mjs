// Hostile calls against every function of the engine's facade (dist/engine.mjs): wrong argument
// counts, wrong types, NaN and infinities, enormous sizes, huge and malformed strings. Each must give
// a plain Error naming the function (and, for a bad argument, the argument), never a RuntimeError or
// a non-Error; a normal call afterwards must give the same answer as before, and the heap and the
// Embind handle count must end where they started. Also the regressions of the hardening findings.
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, test } from 'node:test';
import { pathToFileURL } from 'node:url';

import { distDir, loadEngine } from './engine-loader.mjs';

const { signatures, viewSignatures, limits } = await import(pathToFileURL(join(distDir, 'engine.mjs')).href);
// The facade's own table of the functions on the scratch path (not part of the engine's exports).
const { SCRATCH_CALLS } = await import(pathToFileURL(join(distDir, 'engine-facade.mjs')).href);

let engine;
before(async () => {
  engine = await loadEngine();
});

const m = (rows, cols, data) => ({ rows, cols, data });
// A length-lab run of two steps on a tiny model: about a millisecond, rerun after every hostile call.
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
const sentence = 'the cat sat on the mat';

// One ordinary call per function. Its result, taken before the sweep, must come back unchanged after.
const goodCalls = {
  sinusoidalEncoding: [8, 4],
  sinusoidalEncodingConcatenated: [8, 4],
  sinusoidalEncodingRows: [[0, 3, 5], 4],
  sinusoidalDot: [10, 13, 32],
  ropeFrequencies: [8],
  applyRope: [[1, 0, 0, 1], 3],
  applyRopeSequence: [m(2, 2, [1, 0, 0, 1])],
  ropeScoresOverDistance: [[1, 0], [1, 0], [0, 5], 4],
  ropePairAngles: [[0, 10], [0, 1], 8],
  ropeDecayCurve: [8, 10000, 16],
  ropeOnesScores: [8, 10000, 16],
  ropeClock: [[1, 0], [0, 1], 2, 5],
  attention: [m(2, 2, [1, 0, 0, 1]), m(2, 2, [1, 0, 0, 1]), m(2, 1, [1, 2])],
  cosineSimilarity: [
    [1, 2],
    [2, 1],
  ],
  interpolatePositions: [[0, 100], 4096, 32768],
  ntkScaledBase: [10000, 8, 128],
  contextExtensionCurves: [[0, 10], 4096, 32768, 128],
  yarnInverseFrequencies: [8, 10000, 4, 4096],
  yarnExtrapolationWeights: [8, 10000, 4096],
  yarnCorrectionRange: [128, 10000, 4096],
  yarnAttentionFactor: [8],
  dynamicNtkBase: [10000, 8, 128, 8192, 4096],
  pairWavelengths: [[1, 0.1]],
  extensionInverseFrequencies: [8, 10000, 4096, 32768],
  extensionCurves: [[0, 10], 4096, 32768, 128],
  alibiSlopes: [8],
  alibiBias: [0.5, 4],
  applyRopeHalf: [[1, 0, 0, 1], 3],
  halfPermutation: [8],
  compareRopeConventions: [[1, 0, 0, 1], [0, 1, 1, 0], 2, 8],
  maxPermutedDifference: [m(2, 2, [1, 2, 3, 4]), m(2, 2, [4, 3, 2, 1]), [1, 0]],
  reversalPermutation: [4],
  float32AngleErrors: [[0, 1e6], [0, 1], 8],
  wordVector: ['cat'],
  encodeSentence: [sentence, 'rope'],
  demoAttention: [sentence, 'sinusoidal'],
  orderSimilarity: [sentence, 'mat the on sat cat the', 'rope'],
  orderSimilarities: [sentence, 'mat the on sat cat the'],
  md5Hex: ['abc'],
  seedSequenceState: ['12345'],
  pcg64Raw: ['7', 3],
  standardNormal: [7, 5],
  readModelConfig: ['{"model_type": "gpt2", "n_positions": 1024, "n_embd": 768, "n_head": 12}', 100],
  trainLengthLab: [tinyLab, null],
  heapBytes: [],
};

// heapBytes reports the heap itself; its answer is compared by shape only.
const normalise = (fn, value) => (fn === 'heapBytes' ? Object.keys(value).sort() : value);

const hugeLength = { length: 1e10 };
// Values no number parameter accepts as a number, with the reason they must be refused.
const notNumbers = [10n, Symbol('s'), {}, [], '3', null, true, () => 3, hugeLength];
const nonFinite = [NaN, Infinity, -Infinity];
const hugeNumbers = [1e308, -1e308, 2 ** 53, 1e9, -1];
const notVectors = [
  10n,
  Symbol('s'),
  'abc',
  5,
  true,
  null,
  { length: 1e8 },
  { length: -1 },
  { length: 2 ** 24 + 1 },
  hugeLength,
  [1, 10n],
  [Symbol('s')],
  ['1'],
  [{}],
  new BigInt64Array(2),
  [NaN, 1],
  [Infinity, 1],
  [1e308, 1e308],
];
const notMatrices = [
  10n,
  Symbol('s'),
  'abc',
  5,
  null,
  [],
  { rows: 1e9, cols: 1e9, data: [] },
  { rows: 2, cols: 2, data: [1] },
  { rows: -1, cols: 2, data: [] },
  { rows: 1, cols: 1, data: [10n] },
  { rows: 1, cols: 1, data: hugeLength },
  { rows: NaN, cols: 1, data: [1] },
  { rows: 2048, cols: 2048, data: { length: 2048 * 2048 } },
];
const notBooleans = [10n, Symbol('s'), 'true', 1, 0, null, {}];

// Strings: the cap is checked on length before anything is read or encoded.
function hostileStrings(cap) {
  return [
    'x'.repeat(cap + 1),
    'é'.repeat(Math.floor(cap / 2) + 1), // within the cap in UTF-16 units, over it in UTF-8 bytes
    'a\uD800b', // a lone high surrogate
    '\uDC00', // a lone low surrogate
    'lla\u0000ma',
    10n,
    Symbol('s'),
    5,
    null,
    {},
    ['a'],
  ];
}

// The hostile values for one parameter, and whether each must be refused (some values, such as −1
// for a position, are valid: those calls must then return, and the sweep only checks the boundary).
function hostileValues(param) {
  const cases = [];
  const must = (value, namesArgument = true) => cases.push({ value, mustThrow: true, namesArgument });
  const may = (value) => cases.push({ value, mustThrow: false, namesArgument: false });
  switch (param.kind) {
    case 'int':
      notNumbers.forEach((v) => must(v));
      nonFinite.forEach((v) => must(v));
      [param.max + 1, param.min - 1, 0.5 + param.min, 1e308, 2 ** 53].forEach((v) => must(v));
      break;
    case 'num':
      notNumbers.forEach((v) => must(v));
      nonFinite.forEach((v) => may(v));
      hugeNumbers.forEach((v) => may(v));
      break;
    case 'bool':
      notBooleans.forEach((v) => must(v));
      break;
    case 'vec':
    case 'optionalVec':
      // null is applyRopeSequence's "positions 0, 1, …": valid there.
      notVectors.forEach((v, i) => (i < 14 && !(param.kind === 'optionalVec' && v === null) ? must(v) : may(v)));
      break;
    case 'mat':
      notMatrices.forEach((v) => must(v, false));
      break;
    case 'text':
      hostileStrings(param.cap).forEach((v) => must(v));
      break;
    case 'seed':
      [...hostileStrings(limits.maxSeedDigits), -1, 0.5, 2 ** 60, NaN].forEach((v) =>
        typeof v === 'number' && v === 5 ? may(v) : must(v),
      );
      break;
    case 'sampleOptions':
      [
        10n,
        Symbol('s'),
        'compact',
        5,
        null,
        [],
        { sample: 'x'.repeat(100) },
        { sample: 'a\uD800' },
        { sample: 'com\u0000pact' },
        { sample: 'some' },
        { sample: 5 },
      ].forEach((v) => must(v));
      break;
    case 'labOptions':
      [10n, Symbol('s'), 'abc', 5, null, [], { unknown: 1 }, { steps: -1 }, { steps: 1e9 }, { steps: 0.5 }]
        .concat([{ scheme: 'x' }, { scheme: 5 }, { task: 'sort' }, { seed: 2 ** 32 }, { learningRate: '1' }])
        .forEach((v) => must(v));
      // Refused by the engine: how fields combine, and non-finite numbers.
      [
        { ...tinyLab, dModel: 10 },
        { ...tinyLab, lookupDistance: 7 },
        { ...tinyLab, learningRate: NaN },
      ]
        .concat([
          { ...tinyLab, ropeBase: Infinity },
          { ...tinyLab, learningRate: 2 },
        ])
        .forEach((v) => must(v));
      // Over the work cap: refused before any work, by a message about the run rather than one option.
      must({ layers: 4, dModel: 128, mlpWidth: 512, batch: 64, trainLength: 64, steps: 20000 }, false);
      break;
    case 'progress':
      [10n, Symbol('s'), 'f', 5, true, {}, []].forEach((v) => must(v));
      must(() => {
        throw new Error('a callback that fails');
      });
      may(() => false); // stops after the first step
      break;
    default:
      throw new Error(`no hostile values for kind ${param.kind}`);
  }
  return cases;
}

function* hostileCalls(fn, params, good) {
  const required = params.filter((q, i) => !params.slice(i).every((r) => 'default' in r)).length;
  for (const count of new Set([0, required - 1, params.length + 1, params.length + 5])) {
    if (count < 0 || (count >= required && count <= params.length)) continue;
    const args = Array.from({ length: count }, (_, i) => (i < good.length ? good[i] : 1));
    yield { what: `${count} arguments`, args, mustThrow: true, names: 'expects' };
  }
  for (const [i, param] of params.entries()) {
    for (const { value, mustThrow, namesArgument } of hostileValues(param)) {
      const args = params.map((q, j) => (j < good.length ? good[j] : undefined));
      args[i] = value;
      while (args.length > 0 && args[args.length - 1] === undefined && args.length - 1 > i) args.pop();
      yield { what: `${param.name} = ${show(value)}`, args, mustThrow, names: namesArgument ? param.name : null };
    }
  }
}

function show(value) {
  if (typeof value === 'symbol') return 'Symbol';
  if (typeof value === 'bigint') return `${value}n`;
  if (typeof value === 'string') return value.length > 20 ? `string(${value.length})` : JSON.stringify(value);
  if (typeof value === 'function') return 'function';
  try {
    const text = JSON.stringify(value);
    return text && text.length > 40 ? `${text.slice(0, 40)}…` : String(text);
  } catch {
    return typeof value;
  }
}

describe('the facade', () => {
  test('lists every function the C++ bindings register, and nothing else', () => {
    const bindings = join(distDir, '..', 'cpp', 'bindings');
    const registered = new Set();
    let sources = '';
    try {
      sources = readdirSync(bindings)
        .filter((f) => f.endsWith('.cpp'))
        .map((f) => readFileSync(join(bindings, f), 'utf8'))
        .join('\n');
    } catch {
      sources = readdirSync(new URL('../../cpp/bindings/', import.meta.url))
        .filter((f) => f.endsWith('.cpp'))
        .map((f) => readFileSync(new URL(`../../cpp/bindings/${f}`, import.meta.url), 'utf8'))
        .join('\n');
    }
    for (const match of sources.matchAll(/function\("(\w+)"/g)) registered.add(match[1]);
    // The zero-copy variants (engine.views, cpp/bindings/bind_views.cpp) are bound as view<Name>. The
    // functions of the scratch path (cpp/bindings/bind_scratch.cpp) are plain exports of the module,
    // not Embind bindings; Embind binds their block's two functions, and their views share the export.
    const scratch = new Set(Object.keys(SCRATCH_CALLS));
    assert.ok(scratch.has('contextExtensionCurves') && scratch.has('extensionCurves'));
    const viewBindings = Object.keys(viewSignatures)
      .filter((fn) => !scratch.has(fn))
      .map((fn) => `view${fn[0].toUpperCase()}${fn.slice(1)}`);
    const direct = Object.keys(signatures).filter((fn) => !scratch.has(fn));
    assert.deepEqual(
      [...registered].sort(),
      [...direct, ...viewBindings, 'viewRelease', 'scratchBlock', 'scratchError'].sort(),
    );
    for (const { raw } of Object.values(SCRATCH_CALLS)) {
      const name = raw.replace(/^_/, '');
      assert.match(sources, new RegExp(`EMSCRIPTEN_KEEPALIVE int ${name}\\(`), `${name} is exported`);
    }
    assert.deepEqual(
      Object.keys(goodCalls).sort(),
      Object.keys(signatures).sort(),
      'every function has an ordinary call in this sweep',
    );
    for (const fn of Object.keys(signatures)) assert.equal(typeof engine[fn], 'function', fn);
  });

  test('every function bound once: a BindingError never reaches a caller, whatever the count', () => {
    for (const [fn, params] of Object.entries(signatures)) {
      assert.throws(
        () => engine[fn](...Array(params.length + 1).fill(1)),
        (error) =>
          error.constructor === Error && error.message.startsWith(`${fn}: expects `) && error.message.length < 200,
      );
    }
  });
});

describe('engine sweep', () => {
  test('every function, every hostile argument: an Error naming function and argument, no trap, no leak', (t) => {
    const baseline = {};
    for (const [fn, args] of Object.entries(goodCalls)) baseline[fn] = normalise(fn, engine[fn](...args));
    // Warm the lazily built state (the demo layer's weights) before measuring the heap, and run every
    // hostile call once unmeasured: a leak grows with every round of calls, while state built once
    // on first use (a first error's, the allocator's own bookkeeping) does not. The measured round
    // below must leave the heap exactly as it found it.
    for (const [fn, args] of Object.entries(goodCalls)) engine[fn](...args);
    for (const [fn, params] of Object.entries(signatures)) {
      for (const { args } of hostileCalls(fn, params, goodCalls[fn])) {
        try {
          engine[fn](...args);
        } catch {
          // judged in the measured round
        }
      }
    }
    const heapBefore = engine.heapBytes().inUse;
    const handlesBefore = engine.count_emval_handles();

    const figures = {
      functions: 0,
      calls: 0,
      errors: 0,
      returned: 0,
      runtimeErrors: 0,
      nonErrors: 0,
      slowestMs: 0,
      slowest: '',
    };
    const problems = [];
    for (const [fn, params] of Object.entries(signatures)) {
      figures.functions += 1;
      for (const { what, args, mustThrow, names } of hostileCalls(fn, params, goodCalls[fn])) {
        figures.calls += 1;
        const started = performance.now();
        let threw = false;
        try {
          engine[fn](...args);
          figures.returned += 1;
        } catch (error) {
          threw = true;
          if (error instanceof WebAssembly.RuntimeError) {
            figures.runtimeErrors += 1;
            problems.push(`${fn}(${what}): RuntimeError ${error.message}`);
          } else if (!(error instanceof Error) || error.constructor !== Error) {
            figures.nonErrors += 1;
            problems.push(
              `${fn}(${what}): threw ${error?.constructor?.name ?? typeof error}: ${String(error?.message ?? error)}`,
            );
          } else {
            figures.errors += 1;
            if (!error.message.startsWith(`${fn}: `))
              problems.push(`${fn}(${what}): message does not name the function: ${error.message}`);
            if (names && !error.message.includes(names))
              problems.push(`${fn}(${what}): message does not name ${names}: ${error.message}`);
            if (error.message.length > 400)
              problems.push(`${fn}(${what}): message of ${error.message.length} characters`);
          }
        }
        const ms = performance.now() - started;
        if (ms > figures.slowestMs) Object.assign(figures, { slowestMs: ms, slowest: `${fn}(${what})` });
        if (mustThrow && !threw) problems.push(`${fn}(${what}): returned instead of refusing`);
        // The module still answers as before.
        assert.deepEqual(normalise(fn, engine[fn](...goodCalls[fn])), baseline[fn], `${fn} after ${what}`);
      }
    }
    const leakedBytes = engine.heapBytes().inUse - heapBefore;
    const leakedHandles = engine.count_emval_handles() - handlesBefore;
    t.diagnostic(
      `functions swept: ${figures.functions}, calls tried: ${figures.calls}, Errors: ${figures.errors}, returned: ${figures.returned}, ` +
        `RuntimeErrors: ${figures.runtimeErrors}, non-Errors: ${figures.nonErrors}, leaked bytes: ${leakedBytes}, leaked handles: ${leakedHandles}, ` +
        `slowest: ${figures.slowest} ${figures.slowestMs.toFixed(1)} ms`,
    );
    assert.deepEqual(problems, []);
    assert.equal(figures.runtimeErrors, 0);
    assert.equal(figures.nonErrors, 0);
    assert.equal(leakedBytes, 0, 'bytes in use by malloc after the sweep');
    assert.equal(leakedHandles, 0, 'live Embind handles after the sweep');
    assert.ok(
      figures.functions >= 44 && figures.calls > 1000,
      `swept ${figures.functions} functions with ${figures.calls} calls`,
    );
  });
});

// Asserts a plain Error whose message contains every fragment; then the module still works.
function refuses(call, ...fragments) {
  assert.throws(call, (error) => {
    assert.equal(error.constructor, Error, `threw ${error?.constructor?.name}: ${error?.message}`);
    for (const fragment of fragments)
      assert.ok(error.message.includes(fragment), `"${error.message}" lacks "${fragment}"`);
    return true;
  });
  assert.equal(engine.md5Hex('abc'), '900150983cd24fb0d6963f7d28e17f72');
}

describe('regressions of the hardening findings', () => {
  test('a 1.07 GB string (é × (2^29 − 24)) is refused by its length, at once, for md5Hex and readModelConfig', () => {
    const huge = 'é'.repeat(2 ** 29 - 24);
    const started = performance.now();
    refuses(() => engine.md5Hex(huge), 'md5Hex: text length must be at most 1048576 UTF-8 bytes, got 536870888');
    refuses(
      () => engine.readModelConfig(huge, 10),
      'readModelConfig: jsonText length must be at most 4194304 UTF-8 bytes',
    );
    refuses(() => engine.encodeSentence(huge), 'encodeSentence: sentence length');
    refuses(() => engine.seedSequenceState(huge), 'seedSequenceState: seed length');
    // Refused before the text is read: a check that encoded it would take seconds and a gigabyte.
    assert.ok(performance.now() - started < 5000, 'refused without encoding');
  });

  test('a string within the cap in code units but over it in UTF-8 bytes is refused', () => {
    refuses(
      () => engine.md5Hex('é'.repeat(2 ** 19 + 1)),
      'md5Hex: text must be at most 1048576 UTF-8 bytes, got 1048578',
    );
  });

  test('documented output caps are enforced: 2^24 doubles', () => {
    refuses(
      () => engine.extensionInverseFrequencies(16777216, 10000, 4096, 32768),
      'extensionInverseFrequencies: the frequency table would hold 5 × 8388608 numbers, more than the cap of 16777216',
    );
    refuses(
      () => engine.interpolatePositions(new Float64Array(2 ** 24 + 1), 4096, 32768),
      'interpolatePositions: positions length must be at most 16777216, got 16777217',
    );
    refuses(
      () => engine.pairWavelengths({ length: 2 ** 25 }),
      'pairWavelengths: invFreq length must be at most 16777216, got 33554432',
    );
  });

  test('work caps: conventions, attention, decay, scores, float32 errors, rotations refuse before working', () => {
    const q64 = Array.from({ length: 64 }, (_, i) => Math.sin(i));
    const started = performance.now();
    refuses(
      () => engine.compareRopeConventions(q64, q64, 0, 2 ** 20),
      'compareRopeConventions: the comparison would take 1048577 × 96 steps, more than the cap of 4194304',
    );
    const big = { rows: 1024, cols: 1024, data: new Float64Array(1024 * 1024) };
    refuses(
      () => engine.attention(big, big, big),
      'attention: attention would take 1024 × 1024 × 2048 steps, more than the cap of 268435456',
    );
    refuses(
      () => engine.ropeDecayCurve(4096, 10000, 2 ** 22),
      'ropeDecayCurve: the decay curve would take 2048 × 4194305 × 2 steps',
    );
    refuses(
      () => engine.ropeScoresOverDistance(q64, q64, new Float64Array(256), 2 ** 16 - 1),
      'ropeScoresOverDistance: the score table would take 256 × 65536 × 32 steps',
    );
    refuses(
      () => engine.float32AngleErrors(new Float64Array(2 ** 12), new Float64Array(2 ** 7), 4096),
      'float32AngleErrors: the error table would take 128 × 4096 × 16 steps',
    );
    refuses(
      () => engine.applyRopeSequence({ rows: 2049, cols: 2048, data: new Float64Array(2049 * 2048) }),
      'applyRopeSequence: rotating x would take 2049 × 2048 steps',
    );
    refuses(() => engine.applyRope(new Float64Array(2 ** 22 + 2), 1), 'applyRope: rotating x would take 4194306 steps');
    refuses(
      () => engine.ropePairAngles(new Float64Array(2 ** 12), new Float64Array(2 ** 11), 4096),
      'ropePairAngles: the angle table would take 2048 × 4096 steps',
    );
    refuses(
      () => engine.extensionCurves(new Float64Array(2 ** 20 + 1), 4096, 32768, 128),
      'extensionCurves: the curves would take 1048577 × 4 steps',
    );
    refuses(
      () => engine.reversalPermutation(2 ** 22 + 1),
      'reversalPermutation: n must be a whole number from 0 to 4194304',
    );
    refuses(() => engine.wordVector('x', 2 ** 20 + 1), 'wordVector: d must be a whole number from 1 to 1048576');
    assert.ok(performance.now() - started < 5000, 'the caps are checked before the work');
    // Just under the caps the calls still run.
    assert.equal(engine.compareRopeConventions(q64, q64, 0, 2 ** 12).interleavedScores.length, 2 ** 12 + 1);
    assert.equal(engine.ropeDecayCurve(512, 10000, 4096).length, 4097);
  });

  test('the copying attention stops at 2^22 weights; views.attention, which copies nothing, takes more', () => {
    const ones = (rows, cols) => ({ rows, cols, data: new Float64Array(rows * cols).fill(1) });
    assert.equal(limits.maxCopiedAttentionWeights, 2 ** 22);
    // 2049 × 2048 weights: just over the copying cap; d_k = d_v = 1, so the work is small.
    refuses(
      () => engine.attention(ones(2049, 1), ones(2048, 1), ones(2048, 1)),
      'attention: the copied weights would hold 2049 × 2048 numbers, more than the cap of 4194304 (2^22; engine.views.attention, which copies nothing, takes up to 2^24)',
    );
    // At the cap the copy is made; every weight of equal scores is exactly 1/2048 (no tolerance:
    // a power of two).
    const atCap = engine.attention(ones(2048, 1), ones(2048, 1), ones(2048, 1));
    assert.equal(atCap.weights.data.length, 2 ** 22);
    assert.equal(atCap.weights.data[12345], 1 / 2048);
    const view = engine.views.attention(ones(2049, 1), ones(2048, 1), ones(2048, 1));
    assert.equal(view.weights.data.length, 2049 * 2048);
    assert.equal(view.weights.data[2049 * 2048 - 1], 1 / 2048);
    engine.views.release();
  });

  test('an array-like of length 1e8 or 1e10 is refused before it is read', () => {
    refuses(() => engine.applyRope({ length: 1e8 }, 1), 'applyRope: x length must be at most 16777216, got 100000000');
    refuses(
      () => engine.applyRope({ length: 1e10 }, 1),
      'applyRope: x length must be at most 16777216, got 10000000000',
    );
  });

  test('lone surrogates and NUL characters are refused wherever text enters', () => {
    refuses(
      () => engine.readModelConfig('{"model_type": "gpt2\uD800x"}', 10),
      'readModelConfig: jsonText must be valid Unicode text, got a lone UTF-16 surrogate',
    );
    refuses(
      () => engine.readModelConfig('{"model_type": "lla\u0000ma"}', 10),
      'readModelConfig: jsonText must not contain a NUL character',
    );
    refuses(() => engine.seedSequenceState('12\u00003'), 'seedSequenceState: seed must not contain a NUL character');
    refuses(() => engine.pcg64Raw('1\uDC00', 2), 'pcg64Raw: seed must be valid Unicode text');
    refuses(
      () => engine.encodeSentence('a b', 'ro\u0000pe'),
      'encodeSentence: scheme must not contain a NUL character',
    );
    refuses(
      () => engine.orderSimilarity('a b', 'b a', 'rope\uD800'),
      'orderSimilarity: scheme must be valid Unicode text',
    );
    refuses(() => engine.wordVector('c\u0000t'), 'wordVector: word must not contain a NUL character');
  });

  test('wrong counts, BigInt and Symbol elements, {length: 1e10}: short messages naming function and argument', () => {
    refuses(() => engine.sinusoidalEncoding(3), 'sinusoidalEncoding: expects 2 to 3 arguments (n, d, base?), got 1');
    refuses(() => engine.applyRope([1, 2n], 1), 'applyRope: x[1] must be a number, got the BigInt 2n');
    refuses(() => engine.applyRope([Symbol('s'), 1], 1), 'applyRope: x[0] must be a number, got a Symbol');
    refuses(
      () => engine.sinusoidalEncoding(1e9, 4),
      'sinusoidalEncoding: n must be a whole number from 0 to 16777216, got 1000000000',
    );
    refuses(
      () => engine.cosineSimilarity({ length: 1e10 }, [1]),
      'cosineSimilarity: a length must be at most 16777216',
    );
    refuses(
      () => engine.interpolatePositions([1], 0, 10),
      'interpolatePositions: trainedLen must be a finite number > 0, got 0',
    );
  });

  test('float32AngleErrors refuses a θ above the largest float32 instead of converting it', () => {
    // base 1e-300, d = 4: θ_1 = base^(−1/2) = 1e150, far above FLT_MAX (3.4e38).
    refuses(
      () => engine.float32AngleErrors([0, 1], [1], 4, 1e-300),
      'float32AngleErrors: theta of pair 1 must be at most the largest float32',
    );
  });

  test('pcg64Raw and standardNormal keep their draw caps', () => {
    refuses(
      () => engine.pcg64Raw('1', limits.maxRawDraws + 1),
      'pcg64Raw: count must be a whole number from 0 to 65536',
    );
    refuses(
      () => engine.standardNormal('1', limits.maxNormalDraws + 1, { sample: 'compact' }),
      'standardNormal: count must be a whole number from 0 to 4194304',
    );
    assert.equal(engine.pcg64Raw('1', limits.maxRawDraws).length, limits.maxRawDraws);
  });
});
