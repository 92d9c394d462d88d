// Hostile calls against every function of the engine's facade (dist/engine.mjs): wrong argument
// counts, wrong types, NaN and infinities, enormous sizes, huge and malformed strings. Each must give
// a plain Error naming the function (and, for a bad argument, the argument), never a RuntimeError or
// a non-Error; a normal call afterwards must give the same answer as before, and the heap and the
// Embind handle count must end where they started. Also the regressions of the hardening findings.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, test } from 'node:test';
import { pathToFileURL } from 'node:url';

import { distDir, loadEngine } from './engine-loader.mjs';

const { signatures, viewSignatures, limits, engineDeclaration } = await import(
  pathToFileURL(join(distDir, 'engine.mjs')).href
);
// The declaration with its text (what each function returns, an ordinary call) and the modules' own functions.
const engineApi = JSON.parse(readFileSync(join(distDir, 'engine-api.json'), 'utf8'));

let engine;
before(async () => {
  engine = await loadEngine();
});

// One ordinary call per function: the example the engine declares with it (cpp/bindings/bind_<module>.cpp).
// Its result, taken before the sweep, must come back unchanged after.
const goodCalls = Object.fromEntries(Object.entries(engineApi.functions).map(([fn, { example }]) => [fn, example]));

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
function hostileValues(param, good) {
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
      [...hostileStrings(param.cap), -1, 0.5, 2 ** 60, NaN].forEach((v) =>
        typeof v === 'number' && v === 5 ? may(v) : must(v),
      );
      break;
    case 'options': {
      [10n, Symbol('s'), 'abc', 5, null, [], { unknownOption: 1 }].forEach((v) => must(v));
      // Each field's own hostile values, set on the ordinary call's options.
      const base = good && typeof good === 'object' ? good : {};
      for (const field of param.fields) {
        for (const { value, mustThrow } of hostileValues(field, base[field.name])) {
          cases.push({ value: { ...base, [field.name]: value }, mustThrow, namesArgument: mustThrow });
        }
      }
      break;
    }
    case 'callback':
      [10n, Symbol('s'), 'f', 5, true, {}, []].forEach((v) => must(v));
      must(() => {
        throw new Error('a callback that fails');
      });
      may(() => false); // answers "stop"
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
    for (const { value, mustThrow, namesArgument } of hostileValues(param, good[i])) {
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

// The raw modules (dist/engine-core.mjs and the modules loaded on demand), as Emscripten builds them.
async function rawModules() {
  const modules = {};
  for (const [module, file, wasm] of [
    ['core', 'engine-core', 'engine.wasm'],
    ['config', 'engine-config', 'engine-config.wasm'],
    ['lab', 'engine-lab', 'engine-lab.wasm'],
  ]) {
    const { default: create } = await import(pathToFileURL(join(distDir, `${file}.mjs`)).href);
    modules[module] = await create({ wasmBinary: readFileSync(join(distDir, wasm)) });
  }
  return modules;
}

// What Embind binds on a module: its functions carry their argument count.
const embindFunctions = (module) =>
  Object.keys(module).filter((k) => typeof module[k] === 'function' && typeof module[k].argCount === 'number');

describe('the declaration (engine-declaration.mjs, from the modules themselves)', () => {
  test('every function a module binds is declared, with as many parameters as it takes, in that module', async () => {
    const modules = await rawModules();
    const { functions, internal } = engineApi;
    for (const [module, raw] of Object.entries(modules)) {
      for (const name of embindFunctions(raw)) {
        if (name === 'describeEngine') continue;
        const declared = functions[name] ?? internal[name];
        assert.ok(declared, `${module} binds ${name}, which the declaration lacks`);
        assert.ok(declared.module === module || declared.everyModule, `${name} is declared in ${declared.module}`);
        const params = functions[name]?.params ?? Object.values(functions).find((f) => f.view === name)?.params;
        if (params) assert.equal(raw[name].argCount, params.length, `${name}'s parameters`);
      }
    }
    for (const [name, f] of Object.entries(functions)) {
      const raw = modules[f.module];
      if (f.scratch) assert.equal(typeof raw[f.scratch.export], 'function', `${name}: ${f.scratch.export}`);
      else assert.equal(typeof raw[name]?.argCount, 'number', `${name} is bound in ${f.module}`);
      if (f.view) assert.equal(raw[f.view]?.argCount, f.params.length, `${name}'s view ${f.view}`);
    }
    for (const [name, { module }] of Object.entries(internal))
      assert.equal(typeof modules[module][name], 'function', `${name} in ${module}`);
  });

  test('the facade offers every declared function, and signatures and viewSignatures are the declaration', () => {
    assert.deepEqual(Object.keys(signatures), Object.keys(engineDeclaration.functions));
    assert.deepEqual(Object.keys(engineApi.functions), Object.keys(engineDeclaration.functions));
    for (const [fn, f] of Object.entries(engineDeclaration.functions)) {
      assert.equal(typeof engine[fn], 'function', fn);
      assert.equal(signatures[fn], f.params);
      assert.deepEqual(engineApi.functions[fn].params, f.params);
      assert.ok(engineApi.functions[fn].doc.length > 5, `${fn} says what it returns`);
      if (f.view || f.scratch) assert.equal(viewSignatures[fn], f.params, `views.${fn}`);
    }
    assert.deepEqual(
      Object.keys(viewSignatures),
      Object.keys(engineDeclaration.functions).filter(
        (fn) => engineDeclaration.functions[fn].view || engineDeclaration.functions[fn].scratch,
      ),
    );
    for (const fn of Object.keys(viewSignatures)) {
      assert.equal(typeof engine.views[fn], 'function', `views.${fn}`);
      assert.equal(typeof engine.into[fn], 'function', `into.${fn}`);
    }
  });

  test('every parameter is of a known kind; ranges, caps and defaults are well-formed', () => {
    const kinds = ['int', 'num', 'bool', 'vec', 'optionalVec', 'mat', 'text', 'seed', 'options', 'callback'];
    const checkParam = (fn, p) => {
      assert.ok(kinds.includes(p.kind), `${fn}.${p.name}: kind ${p.kind}`);
      assert.match(p.name, /^[a-z][A-Za-z0-9]*$/, `${fn}: ${p.name} is camelCase`);
      if (p.kind === 'int') assert.ok(Number.isSafeInteger(p.min) && Number.isSafeInteger(p.max) && p.min <= p.max);
      if (p.kind === 'text' || p.kind === 'seed') assert.ok(Number.isSafeInteger(p.cap) && p.cap > 0);
      if (p.kind === 'options') for (const field of p.fields) checkParam(`${fn}.${p.name}`, field);
    };
    for (const [fn, params] of Object.entries(signatures)) for (const p of params) checkParam(fn, p);
    for (const [name, value] of Object.entries(limits))
      assert.ok(Number.isFinite(value) && value > 0, `limits.${name} = ${value}`);
    assert.equal(limits.maxOutputDoubles, 2 ** 24);
  });

  test('every default is accepted, and leaving an argument out is the same as passing its default', () => {
    // Whatever the ordinary call gives (a result or an Error's message), passing each default
    // explicitly gives the same as leaving it out (undefined); an options object's fields one by one.
    const outcome = (fn, args) => {
      try {
        return normalise(fn, engine[fn](...args));
      } catch (error) {
        return `Error: ${error.message}`;
      }
    };
    let defaults = 0;
    for (const [fn, params] of Object.entries(signatures)) {
      const good = goodCalls[fn];
      params.forEach((param, i) => {
        const args = params.map((_, j) => (j < good.length ? good[j] : undefined));
        if (param.kind === 'options') {
          const base = args[i] ?? {};
          for (const field of param.fields.filter((f) => 'default' in f)) {
            const { [field.name]: _, ...without } = base;
            const left = outcome(fn, args.with(i, without));
            assert.deepEqual(
              outcome(fn, args.with(i, { ...base, [field.name]: field.default })),
              left,
              `${fn} ${param.name}.${field.name}`,
            );
            defaults += 1;
          }
        }
        if (!('default' in param) || param.kind === 'options') return;
        const left = outcome(fn, args.with(i, undefined));
        assert.ok(typeof left !== 'string' || !left.startsWith('Error'), `${fn} without ${param.name}: ${left}`);
        assert.deepEqual(outcome(fn, args.with(i, param.default)), left, `${fn} ${param.name} = ${param.default}`);
        defaults += 1;
      });
    }
    assert.ok(defaults > 40, `${defaults} defaults`);
  });

  test('every view, and every filled array (engine.into), gives the numbers of its copying function', () => {
    const data = (value) =>
      value && 'data' in value
        ? Array.from(value.data)
        : Object.fromEntries(Object.entries(value).map(([k, v]) => [k, v && typeof v === 'object' ? data(v) : v]));
    for (const fn of Object.keys(viewSignatures)) {
      const copy = data(engine[fn](...goodCalls[fn]));
      assert.deepEqual(data(engine.views[fn](...goodCalls[fn])), copy, `views.${fn}`);
      // engine.into: a kept array of the copy's size for each matrix (attention: all four).
      const result = engine[fn](...goodCalls[fn]);
      const sized = (m) => new Float64Array(m.data.length);
      const target =
        'data' in result
          ? sized(result)
          : 'angles' in result
            ? sized(result.angles)
            : Object.fromEntries(Object.entries(result).map(([key, m]) => [key, sized(m)]));
      assert.deepEqual(data(engine.into[fn](target, ...goodCalls[fn])), copy, `into.${fn}`);
    }
    engine.views.release();
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
