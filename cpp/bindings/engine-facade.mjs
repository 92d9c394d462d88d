// The engine's JavaScript facade: the one layer between callers (the page, the charts, Node users)
// and the raw Embind module. It checks every argument's count, type, size and text before anything
// crosses into WebAssembly, supplies the defaults, and rethrows the module's errors as plain Errors
// whose message names the function, the argument (in camelCase) and the rule.

/** The caps the engine enforces (cpp/include/positional/limits.hpp holds the same numbers). */
export const limits = Object.freeze({
  maxOutputDoubles: 2 ** 24, // the longest array of numbers in or out of one call
  maxWorkSteps: 2 ** 22, // inner-loop steps (about one sin/cos pair each) in one call
  maxAttentionWork: 2 ** 28, // n × m × (d_k + d_v) multiply-adds in one attention call
  maxCopiedAttentionWeights: 2 ** 22, // n × m of the copying attention (views.attention: maxOutputDoubles)
  maxConventionsDistance: 2 ** 20,
  maxDecayDistance: 2 ** 22,
  maxAlibiHeads: 1024,
  maxNormalDraws: 2 ** 22,
  maxRawDraws: 2 ** 16,
  maxWordDimension: 2 ** 20,
  maxConfigTextBytes: 4 * 2 ** 20, // readModelConfig's jsonText (the reader itself refuses over 1 MiB)
  maxDigestTextBytes: 2 ** 20, // md5Hex's text
  maxSentenceBytes: 64 * 2 ** 10,
  maxWordBytes: 4096,
  maxSeedDigits: 1000,
  maxSchemeBytes: 64,
  maxPromptLength: 2 ** 30,
  maxLabSteps: 20000, // trainLengthLab's steps
  maxLabWork: 2 ** 36, // trainLengthLab's multiply-adds, training and evaluation together
});

/** The default base of the sinusoidal code and of RoPE. */
export const DEFAULT_BASE = 10000;

const MAX = limits.maxOutputDoubles;

// Parameter kinds. Each checks one argument and returns what crosses into the module.
// int(min, max): a whole number; num: a finite number; bool; vec: an array-like of finite-or-not
// numbers (the engine names non-finite entries); mat: { rows, cols, data }; text(cap); seed; sample.
const int = (min, max) => ({ kind: 'int', min, max });
const num = { kind: 'num' };
const bool = { kind: 'bool' };
const vec = { kind: 'vec' };
const mat = { kind: 'mat' };
const text = (cap) => ({ kind: 'text', cap });
const seed = { kind: 'seed' };
const sampleOptions = { kind: 'sampleOptions' };
const optionalVec = { kind: 'optionalVec' };
const labOptions = { kind: 'labOptions' };
const progress = { kind: 'progress' };

const p = (name, type, extra = {}) => ({ name, ...type, ...extra });
const base = p('base', num, { default: DEFAULT_BASE });
const dim = p('d', int(1, MAX));
const scheme = p('scheme', text(limits.maxSchemeBytes), { default: 'none' });
const causal = p('causal', bool, { default: false });
// YaRN's ramp bounds, in turns over the trained length: a pair turning more than betaFast times keeps
// its speed, one turning fewer than betaSlow times is fully interpolated (Peng et al.'s defaults).
const yarnBetas = [p('betaFast', num, { default: 32 }), p('betaSlow', num, { default: 1 })];

/**
 * trainLengthLab's options: each one's kind and default (the page's default run). The engine checks how
 * they combine (dModel a multiple of heads with an even head width of at least 4, lookupDistance below
 * trainLength − 1, the whole run within limits.maxLabWork multiply-adds).
 */
export const LAB_OPTIONS = Object.freeze({
  scheme: { choices: ['none', 'learned', 'sinusoidal', 'rope', 'alibi'], default: 'rope' },
  task: { choices: ['lookup', 'copy', 'last-write'], default: 'lookup' },
  seed: { ...int(0, 2 ** 32 - 1), default: 0 },
  symbols: { ...int(4, 64), default: 16 },
  trainLength: { ...int(8, 64), default: 16 },
  layers: { ...int(1, 4), default: 2 },
  dModel: { ...int(4, 128), default: 32 },
  heads: { ...int(1, 8), default: 4 },
  mlpWidth: { ...int(1, 512), default: 64 },
  batch: { ...int(1, 64), default: 8 },
  steps: { ...int(0, limits.maxLabSteps), default: 300 },
  learningRate: { ...num, default: 1e-2 },
  lookupDistance: { ...int(1, 64), default: 3 },
  evalSequences: { ...int(1, 256), default: 8 },
  maxEvalFactor: { ...int(1, 8), default: 8 },
  ropeBase: { ...num, default: 10000 },
});

/**
 * Every function of the engine with its full parameter list, in call order. A parameter with a
 * `default` may be omitted or passed as undefined. The engine sweep test enumerates this table.
 */
export const signatures = Object.freeze({
  // sinusoidal codes
  sinusoidalEncoding: [p('n', int(0, MAX)), dim, base],
  sinusoidalEncodingConcatenated: [p('n', int(0, MAX)), dim, base],
  sinusoidalEncodingRows: [p('positions', vec), dim, base],
  sinusoidalDot: [p('a', num), p('b', num), dim, base],
  // RoPE
  ropeFrequencies: [dim, base],
  applyRope: [p('x', vec), p('position', num), base],
  applyRopeSequence: [p('x', mat), p('positions', optionalVec, { default: null }), base],
  ropeScoresOverDistance: [p('q', vec), p('k', vec), p('starts', vec), p('maxDistance', int(0, MAX - 1)), base],
  ropePairAngles: [p('positions', vec), p('pairs', vec), dim, base, p('wrapped', bool, { default: true })],
  ropeDecayCurve: [dim, base, p('maxDistance', int(0, limits.maxDecayDistance))],
  ropeOnesScores: [dim, base, p('maxDistance', int(0, limits.maxDecayDistance))],
  ropeClock: [p('q', vec), p('k', vec), p('m', num), p('n', num), p('theta', num, { default: 1 })],
  // attention
  attention: [p('q', mat), p('k', mat), p('v', mat), causal],
  cosineSimilarity: [p('a', vec), p('b', vec)],
  // context extension and RoPE scaling
  interpolatePositions: [p('positions', vec), p('trainedLen', num), p('newLen', num)],
  ntkScaledBase: [p('base', num), p('scale', num), dim],
  contextExtensionCurves: [p('positions', vec), p('trainedLen', num), p('newLen', num), dim, base],
  yarnInverseFrequencies: [dim, base, p('scale', num), p('trainedLen', num), ...yarnBetas],
  yarnExtrapolationWeights: [dim, base, p('trainedLen', num), ...yarnBetas],
  yarnCorrectionRange: [dim, base, p('trainedLen', num), ...yarnBetas],
  yarnAttentionFactor: [p('scale', num)],
  dynamicNtkBase: [p('base', num), p('scale', num), dim, p('seqLen', num), p('trainedLen', num)],
  pairWavelengths: [p('invFreq', vec)],
  extensionInverseFrequencies: [dim, base, p('trainedLen', num), p('newLen', num), ...yarnBetas],
  extensionCurves: [p('positions', vec), p('trainedLen', num), p('newLen', num), dim, base, ...yarnBetas],
  // ALiBi
  alibiSlopes: [p('nHeads', int(1, limits.maxAlibiHeads))],
  alibiBias: [p('slope', num), p('length', int(1, MAX))],
  // layouts and permutations
  applyRopeHalf: [p('x', vec), p('position', num), base],
  halfPermutation: [dim],
  compareRopeConventions: [
    p('q', vec),
    p('k', vec),
    p('start', num),
    p('maxDistance', int(0, limits.maxConventionsDistance)),
    base,
  ],
  maxPermutedDifference: [p('a', mat), p('b', mat), p('perm', vec)],
  reversalPermutation: [p('n', int(0, limits.maxWorkSteps))],
  // precision
  float32AngleErrors: [p('positions', vec), p('pairs', vec), dim, base],
  // the order-blindness demo and its numpy-compatible randomness
  wordVector: [p('word', text(limits.maxWordBytes)), p('d', int(1, limits.maxWordDimension), { default: 16 })],
  encodeSentence: [p('sentence', text(limits.maxSentenceBytes)), scheme, causal],
  demoAttention: [p('sentence', text(limits.maxSentenceBytes)), scheme, causal],
  orderSimilarity: [p('a', text(limits.maxSentenceBytes)), p('b', text(limits.maxSentenceBytes)), scheme, causal],
  orderSimilarities: [p('a', text(limits.maxSentenceBytes)), p('b', text(limits.maxSentenceBytes))],
  md5Hex: [p('text', text(limits.maxDigestTextBytes))],
  seedSequenceState: [p('seed', seed)],
  pcg64Raw: [p('seed', seed), p('count', int(0, limits.maxRawDraws))],
  standardNormal: [
    p('seed', seed),
    p('count', int(0, limits.maxNormalDraws)),
    p('options', sampleOptions, { default: undefined }),
  ],
  // the length lab
  trainLengthLab: [p('options', labOptions, { default: {} }), p('onProgress', progress, { default: null })],
  // model configs
  readModelConfig: [p('jsonText', text(limits.maxConfigTextBytes)), p('promptLength', int(1, limits.maxPromptLength))],
  // diagnostics
  heapBytes: [],
});

/** An argument the facade refuses: a plain Error naming the function, the argument and the rule. */
function refuse(fn, name, rule, value) {
  return new Error(`${fn}: ${name} must be ${rule}, got ${describe(value)}`);
}

function describe(value) {
  switch (typeof value) {
    case 'number':
      return String(value);
    case 'bigint':
      return `the BigInt ${value}n`;
    case 'symbol':
      return 'a Symbol';
    case 'string':
      return value.length > 40 ? `a string of length ${value.length}` : JSON.stringify(value);
    case 'undefined':
      return 'undefined';
    case 'function':
      return 'a function';
    case 'boolean':
      return String(value);
    default:
      if (value === null) return 'null';
      if (Array.isArray(value)) return `an array of length ${value.length}`;
      if (ArrayBuffer.isView(value)) return `a ${value.constructor.name}`;
      return 'an object';
  }
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

// UTF-8 bytes of a well-formed string, without encoding it.
function utf8Length(s) {
  let bytes = s.length;
  for (let i = 0; i < s.length; i += 1) {
    const c = s.charCodeAt(i);
    if (c >= 0x800 && (c < 0xd800 || c > 0xdfff)) bytes += 2;
    else if (c >= 0x80 && c < 0x800) bytes += 1;
    // a surrogate pair is 2 code units and 4 bytes: 2 + 1 per unit
    else if (c >= 0xd800 && c <= 0xdfff) bytes += 1;
  }
  return bytes;
}

function checkText(fn, name, value, cap) {
  if (typeof value !== 'string') throw refuse(fn, name, 'a string', value);
  // Every UTF-16 code unit is at least one UTF-8 byte: a string longer than the cap is refused
  // before it is read (a 1 GB string costs nothing here).
  if (value.length > cap) throw refuse(fn, `${name} length`, `at most ${cap} UTF-8 bytes`, value.length);
  if (typeof value.isWellFormed === 'function' ? !value.isWellFormed() : LONE_SURROGATE.test(value)) {
    throw new Error(`${fn}: ${name} must be valid Unicode text, got a lone UTF-16 surrogate`);
  }
  if (value.includes('\0')) throw new Error(`${fn}: ${name} must not contain a NUL character (U+0000)`);
  if (value.length * 3 > cap) {
    const bytes = utf8Length(value);
    if (bytes > cap) throw new Error(`${fn}: ${name} must be at most ${cap} UTF-8 bytes, got ${bytes}`);
  }
  return value;
}

function checkNumber(fn, name, value) {
  if (typeof value !== 'number') throw refuse(fn, name, 'a number', value);
  return value;
}

function checkInteger(fn, name, value, min, max) {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    throw refuse(fn, name, `a whole number from ${min} to ${max}`, value);
  }
  return value;
}

// An array, typed array or array-like of numbers → a Float64Array (one copy into the heap later).
function checkVector(fn, name, value) {
  if (value instanceof Float64Array) return value;
  if (value === null || (typeof value !== 'object' && typeof value !== 'function')) {
    throw refuse(fn, name, 'an array of numbers', value);
  }
  if (typeof BigInt64Array !== 'undefined' && (value instanceof BigInt64Array || value instanceof BigUint64Array)) {
    throw refuse(fn, name, 'an array of numbers', value);
  }
  const length = value.length;
  if (typeof length !== 'number' || !Number.isInteger(length) || length < 0) {
    throw refuse(fn, name, 'an array of numbers (an object with a whole-number length)', value);
  }
  if (length > MAX) throw refuse(fn, `${name} length`, `at most ${MAX}`, length);
  if (ArrayBuffer.isView(value)) return Float64Array.from(value);
  const out = new Float64Array(length);
  for (let i = 0; i < length; i += 1) {
    const element = value[i];
    if (typeof element !== 'number') throw refuse(fn, `${name}[${i}]`, 'a number', element);
    out[i] = element;
  }
  return out;
}

function checkMatrix(fn, name, value) {
  if (value === null || typeof value !== 'object') throw refuse(fn, name, 'an object { rows, cols, data }', value);
  const rows = checkInteger(fn, `${name}.rows`, value.rows, 0, MAX);
  const cols = checkInteger(fn, `${name}.cols`, value.cols, 0, MAX);
  const data = checkVector(fn, `${name}.data`, value.data);
  if (data.length !== rows * cols) {
    throw new Error(`${fn}: ${name}.data must hold rows × cols = ${rows * cols} numbers, got ${data.length}`);
  }
  return { rows, cols, data };
}

function checkSeed(fn, name, value) {
  if (typeof value === 'number') return checkInteger(fn, name, value, 0, Number.MAX_SAFE_INTEGER);
  if (typeof value !== 'string') throw refuse(fn, name, 'a decimal string or a whole number', value);
  return checkText(fn, name, value, limits.maxSeedDigits);
}

function checkSampleOptions(fn, name, value) {
  if (value === undefined) return 'all';
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw refuse(fn, name, "an object such as { sample: 'compact' }", value);
  }
  const sample = value.sample;
  if (sample === undefined) return 'all';
  return checkText(fn, `${name}.sample`, sample, limits.maxSchemeBytes);
}

// trainLengthLab's options → a new object with every field, each checked by its kind.
function checkLabOptions(fn, name, value) {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw refuse(fn, name, "an object of the lab's options", value);
  }
  for (const key of Object.keys(value)) {
    if (!Object.hasOwn(LAB_OPTIONS, key)) {
      throw new Error(`${fn}: ${name}.${key.slice(0, 40)} is not an option (${Object.keys(LAB_OPTIONS).join(', ')})`);
    }
  }
  const out = {};
  for (const [key, option] of Object.entries(LAB_OPTIONS)) {
    const field = `${name}.${key}`;
    const given = value[key];
    if (given === undefined) out[key] = option.default;
    else if (option.choices) {
      if (!option.choices.includes(given)) throw refuse(fn, field, `one of ${option.choices.join(', ')}`, given);
      out[key] = given;
    } else if (option.kind === 'int') out[key] = checkInteger(fn, field, given, option.min, option.max);
    else out[key] = checkNumber(fn, field, given);
  }
  return out;
}

// trainLengthLab's onProgress → a relay the module calls after every step. The relay never throws into
// the module (that would skip its destructors): it keeps the callback's exception, stops the run by
// returning false, and wrap() rethrows the exception once the module has returned.
function checkProgress(fn, name, value) {
  if (value === null) return null;
  if (typeof value !== 'function') throw refuse(fn, name, 'a function (step, loss) or null', value);
  const relay = (step, loss) => {
    try {
      return value(step, loss) !== false;
    } catch (error) {
      relay.failure = { error };
      return false;
    }
  };
  relay.failure = null;
  return relay;
}

function checkArgument(fn, param, value) {
  if (value === undefined && 'default' in param) {
    if (param.kind === 'sampleOptions') return 'all';
    if (param.kind === 'labOptions') return checkLabOptions(fn, param.name, {});
    return param.default;
  }
  switch (param.kind) {
    case 'int':
      return checkInteger(fn, param.name, value, param.min, param.max);
    case 'num':
      return checkNumber(fn, param.name, value);
    case 'bool':
      if (typeof value !== 'boolean') throw refuse(fn, param.name, 'true or false', value);
      return value;
    case 'vec':
      return checkVector(fn, param.name, value);
    case 'optionalVec':
      return value === null ? null : checkVector(fn, param.name, value);
    case 'mat':
      return checkMatrix(fn, param.name, value);
    case 'text':
      return checkText(fn, param.name, value, param.cap);
    case 'seed':
      return checkSeed(fn, param.name, value);
    case 'sampleOptions':
      return checkSampleOptions(fn, param.name, value);
    case 'labOptions':
      return checkLabOptions(fn, param.name, value);
    case 'progress':
      return checkProgress(fn, param.name, value);
    default:
      throw new Error(`${fn}: unknown parameter kind ${param.kind}`);
  }
}

function arityText(params) {
  const required = requiredCount(params);
  const names = params.map((q, i) => (i >= required ? `${q.name}?` : q.name)).join(', ');
  const count = required === params.length ? `${required}` : `${required} to ${params.length}`;
  return `${count} argument${params.length === 1 && required === 1 ? '' : 's'} (${names})`;
}

// Trailing parameters with defaults may be left out; one with a default before a required one
// (yarnInverseFrequencies' base) must be passed, possibly as undefined.
function requiredCount(params) {
  let required = params.length;
  while (required > 0 && 'default' in params[required - 1]) required -= 1;
  return required;
}

const snakeCase = (name) => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

// The engine's C++ names arguments in snake_case (trained_len); callers know them as trainedLen, and the
// lab's options as options.dModel.
function camelNames(message, params) {
  let out = message;
  for (const { name, kind } of params) {
    const snake = snakeCase(name);
    if (snake !== name) out = out.replace(new RegExp(`\\b${snake}\\b`, 'g'), name);
    if (kind !== 'labOptions') continue;
    for (const key of Object.keys(LAB_OPTIONS)) {
      if (snakeCase(key) === key) continue; // one-word options: the engine already names them options.<key>
      out = out.replace(new RegExp(`(?<![.\\w])${snakeCase(key)}\\b`, 'g'), `${name}.${key}`);
    }
  }
  return out;
}

// onCall (optional) runs before every call that reaches the module: the facade counts calls there,
// so that a view (engine.views) knows when it has expired.
function wrap(fn, raw, params, onCall) {
  const required = requiredCount(params);
  return function engineFunction(...args) {
    if (args.length < required || args.length > params.length) {
      throw new Error(`${fn}: expects ${arityText(params)}, got ${args.length}`);
    }
    const values = new Array(params.length);
    for (let i = 0; i < params.length; i += 1) values[i] = checkArgument(fn, params[i], args[i]);
    if (onCall) onCall();
    let result;
    try {
      result = raw(...values);
    } catch (error) {
      // A trap (WebAssembly.RuntimeError) is a bug in the engine: let it show as what it is.
      if (error instanceof WebAssembly.RuntimeError) throw error;
      throw new Error(`${fn}: ${camelNames(String(error?.message ?? error), params)}`);
    }
    if (result instanceof Error) throw new Error(`${fn}: ${camelNames(result.message, params)}`);
    for (const [i, param] of params.entries()) {
      const failure = param.kind === 'progress' ? values[i]?.failure : null;
      if (failure) throw new Error(`${fn}: ${param.name} threw: ${String(failure.error?.message ?? failure.error)}`);
    }
    return result;
  };
}

/** The functions of the model-config module (engine-config), loaded apart from the kernels. */
export const MODEL_CONFIG_FUNCTIONS = Object.freeze(['readModelConfig']);

/**
 * The functions that take the scratch path (cpp/bindings/bind_scratch.cpp), by the module's export
 * of their kernel: the positions are written into the module's scratch block, the kernel is called
 * as a plain WebAssembly export with number arguments, and the result is read back from the block.
 * For n positions the block holds [positions | angles (rows × n) | scalars]. `call` passes the
 * checked arguments after the positions (fixed counts, and the export looked up on the module at each
 * call: Emscripten replaces its first-call wrapper with the export itself); `result` builds the
 * function's object from `angles` and the scalars, in the kernel's order.
 */
export const SCRATCH_CALLS = Object.freeze({
  contextExtensionCurves: {
    raw: '_positional_context_extension_curves',
    rows: 3,
    scalars: 1,
    call: (core, n, trainedLen, newLen, d, base) =>
      core._positional_context_extension_curves(n, trainedLen, newLen, d, base),
    result: (angles, s, at) => ({ angles, trainedMax: s[at] }),
  },
  extensionCurves: {
    raw: '_positional_extension_curves',
    rows: 5,
    scalars: 5,
    call: (core, n, trainedLen, newLen, d, base, betaFast, betaSlow) =>
      core._positional_extension_curves(n, trainedLen, newLen, d, base, betaFast, betaSlow),
    result: (angles, s, at) => ({
      angles,
      trainedMax: s[at],
      ntkBase: s[at + 1],
      attentionFactor: s[at + 2],
      yarnRange: { low: s[at + 3], high: s[at + 4] },
    }),
  },
});

// The block is allocated with the facade (room for 1,024 positions of the five curves) so that taking
// a view of it never allocates, and it is freed after a call that needed more than KEPT doubles.
const SCRATCH_INITIAL = 6 * 1024 + 8;
const SCRATCH_KEPT = 2 ** 16;

// The module's scratch block as JavaScript sees it: a Float64Array view, fetched again when the
// memory has grown (a view of the old memory has length 0) or a call needs a larger block.
function scratchBlock(core) {
  const fetch = (size) => {
    const fetched = core.scratchBlock(size);
    if (fetched instanceof Error) throw fetched; // out of memory: wrap() names the function
    return fetched;
  };
  let view = fetch(SCRATCH_INITIAL);
  return {
    at(size) {
      if (view.length < Math.max(size, 1)) view = fetch(Math.max(size, 1));
      return view;
    },
    trim() {
      if (view.length <= SCRATCH_KEPT) return;
      fetch(0);
      view = fetch(SCRATCH_INITIAL);
    },
  };
}

// The scratch path of one function, as wrap()'s `raw`. `finish(doubles, n, at)` turns the block
// (`doubles`, a view holding the result; `at`, the index of its first scalar) into the returned
// value before any other engine call can move it; the module's errors come back as an Error.
function scratchRunner(core, block, { rows, scalars, call }, finish) {
  return function run(positions, a, b, c, d, e, f) {
    const n = positions.length;
    const size = n * (1 + rows) + scalars;
    // Positions that are themselves a view of the module's memory (engine.views) are copied first:
    // a larger block may move, and growing the memory would empty them.
    const input = positions.buffer === block.at(0).buffer ? positions.slice() : positions;
    // Over the output cap the block is not sized: the kernel refuses the call by its first check.
    if (n * rows <= MAX) block.at(size).set(input);
    if (call(core, n, a, b, c, d, e, f) !== 0) return new Error(core.scratchError());
    return finish(block.at(size), n, n * (1 + rows));
  };
}

/**
 * Wraps a raw Emscripten module (every signature bound once, every argument required) in the facade.
 * The returned object has one checked function per entry of `signatures`, `limits`,
 * `maxOutputDoubles`, count_emval_handles (live JavaScript handles inside the modules, for leak
 * tests) and loadModelConfigReader().
 *
 * When `core` lacks the model-config functions (the page's engine-core), `loadConfigCore` resolves
 * to the module that has them: readModelConfig throws until `await engine.loadModelConfigReader()`
 * has loaded it, and works synchronously after. When `core` has them (the single file's module),
 * loadModelConfigReader() resolves at once.
 */
export function createFacade(core, { loadConfigCore = null } = {}) {
  const engine = {};
  const calls = { count: 0 };
  const onCall = () => {
    calls.count += 1;
  };
  const apart = loadConfigCore && MODEL_CONFIG_FUNCTIONS.every((fn) => typeof core[fn] !== 'function');
  let configCore = apart ? null : core;
  const block = scratchBlock(core);
  for (const [fn, params] of Object.entries(signatures)) {
    if (apart && MODEL_CONFIG_FUNCTIONS.includes(fn)) {
      let checked = null;
      engine[fn] = function needsReader(...args) {
        if (!configCore) {
          throw new Error(
            `${fn}: the model-config reader is a module of its own; await engine.loadModelConfigReader() once before calling ${fn}`,
          );
        }
        checked ??= wrap(fn, configCore[fn].bind(configCore), params, onCall);
        return checked(...args);
      };
      continue;
    }
    const scratch = SCRATCH_CALLS[fn];
    if (scratch) {
      if (typeof core[scratch.raw] !== 'function') throw new Error(`the engine module lacks ${scratch.raw}`);
      const { rows, result } = scratch;
      const copied = (doubles, n, at) => {
        const out = result({ rows, cols: n, data: doubles.slice(n, at) }, doubles, at);
        block.trim();
        return out;
      };
      engine[fn] = wrap(fn, scratchRunner(core, block, scratch, copied), params, onCall);
      continue;
    }
    if (typeof core[fn] !== 'function') throw new Error(`the engine module lacks ${fn}`);
    engine[fn] = wrap(fn, core[fn].bind(core), params, onCall);
  }
  let loading = null;
  engine.loadModelConfigReader = function loadModelConfigReader() {
    if (configCore) return Promise.resolve();
    loading ??= loadConfigCore().then(
      (loaded) => {
        for (const fn of MODEL_CONFIG_FUNCTIONS)
          if (typeof loaded[fn] !== 'function') throw new Error(`the model-config module lacks ${fn}`);
        configCore = loaded;
      },
      (error) => {
        loading = null; // a failed fetch may be retried
        throw new Error(
          `loadModelConfigReader: the model-config module could not be loaded: ${error?.message ?? error}`,
        );
      },
    );
    return loading;
  };
  engine.views = createViews(core, calls, onCall, block);
  const handles = (module) => (typeof module?.count_emval_handles === 'function' ? module.count_emval_handles() : 0);
  engine.count_emval_handles = () => handles(core) + (configCore && configCore !== core ? handles(configCore) : 0);
  engine.maxOutputDoubles = MAX;
  engine.limits = limits;
  return Object.freeze(engine);
}

/**
 * The zero-copy variants (engine.views): the same arguments, checks and numbers as the function of
 * the same name, but the result stays in the module's memory and `data` is a Float64Array view of
 * it (cpp/bindings/bind_views.cpp holds it), so no table is copied out. views.attention returns
 * { output, weights, scores, scaledScores }, each such a view. views.contextExtensionCurves and
 * views.extensionCurves return the function's object whose `angles` is such a view (of the scratch
 * block, cpp/bindings/bind_scratch.cpp) and whose other fields are plain numbers.
 *
 * Lifetime rule: a view is valid until the next call into the engine (any function, a view call
 * or views.release()). A later view call reuses or frees the memory it points into, and any call may
 * grow the module's memory, which empties every view (length 0). Reading `view.data` after that
 * throws; a Float64Array taken from it earlier is not checked, so use it before the next call or
 * keep a copy (`view.data.slice()`). views.release() frees the held result.
 */
export const viewSignatures = Object.freeze({
  sinusoidalEncoding: signatures.sinusoidalEncoding,
  applyRopeSequence: signatures.applyRopeSequence,
  attention: signatures.attention,
  contextExtensionCurves: signatures.contextExtensionCurves,
  extensionCurves: signatures.extensionCurves,
});

const VIEW_BINDINGS = {
  sinusoidalEncoding: 'viewSinusoidalEncoding',
  applyRopeSequence: 'viewApplyRopeSequence',
  attention: 'viewAttention',
};

// { rows, cols, data } whose data may be read only while no later engine call has been made. A class
// rather than an object literal with its own getter: one shape and one getter for every view, which
// is what keeps a view call of a small result (the curves) cheap.
class ExpiringView {
  #name;
  #data;
  #calls;
  #issued;

  constructor(name, { rows, cols, data }, calls) {
    this.rows = rows;
    this.cols = cols;
    this.#name = name;
    this.#data = data;
    this.#calls = calls;
    this.#issued = calls.count;
    Object.freeze(this);
  }

  get data() {
    if (this.#calls.count !== this.#issued) {
      throw new Error(
        `${this.#name}: this view expired at a later engine call (a view is valid until the next call into the engine); copy it with view.data.slice() to keep it`,
      );
    }
    return this.#data;
  }
}

const expiring = (name, matrix, calls) => new ExpiringView(name, matrix, calls);

function createViews(core, calls, onCall, block) {
  const views = {};
  for (const [fn, params] of Object.entries(viewSignatures)) {
    const name = `views.${fn}`;
    const scratch = SCRATCH_CALLS[fn];
    if (scratch) {
      // The curves: `angles` is a view of the scratch block, the scalars are plain numbers.
      const { rows, result } = scratch;
      const viewed = (doubles, n, at) =>
        Object.freeze(result(expiring(name, { rows, cols: n, data: doubles.subarray(n, at) }, calls), doubles, at));
      views[fn] = wrap(name, scratchRunner(core, block, scratch, viewed), params, onCall);
      continue;
    }
    const rawName = VIEW_BINDINGS[fn];
    if (typeof core[rawName] !== 'function') throw new Error(`the engine module lacks ${rawName}`);
    const call = wrap(name, core[rawName].bind(core), params, onCall);
    views[fn] = function view(...args) {
      const result = call(...args);
      if ('data' in result) return expiring(name, result, calls);
      // Several matrices (attention): each is a view with the same lifetime.
      const out = {};
      for (const [key, matrix] of Object.entries(result)) out[key] = expiring(name, matrix, calls);
      return Object.freeze(out);
    };
  }
  views.release = function release() {
    onCall();
    core.viewRelease();
    block.trim();
  };
  return Object.freeze(views);
}

/**
 * The factory callers import: `createEngine(options)` resolves to the facade over a fresh module.
 * options are Emscripten's (Node passes { wasmBinary }), plus `modelConfigWasmBinary` (Node: the
 * bytes of engine-config.wasm, for loadModelConfigReader). `wasmUrl` locates the .wasm when the
 * module is not single-file and no locateFile is given; `modelConfig` ({ load, wasmUrl }), when
 * given, is the model-config module, loaded on demand.
 */
export function facadeFactory(createCore, wasmUrl, modelConfig = null) {
  return async function createEngine(options = {}) {
    const { modelConfigWasmBinary, ...coreOptions } = options;
    const locate = (url) => (path, prefix) => (path.endsWith('.wasm') ? String(url) : prefix + path);
    if (wasmUrl && !coreOptions.locateFile) coreOptions.locateFile = locate(wasmUrl);
    const loadConfigCore =
      modelConfig &&
      (async () => {
        const createConfigCore = await modelConfig.load();
        const configOptions = {};
        if (modelConfigWasmBinary) configOptions.wasmBinary = modelConfigWasmBinary;
        else configOptions.locateFile = options.locateFile ?? locate(modelConfig.wasmUrl);
        return createConfigCore(configOptions);
      });
    return createFacade(await createCore(coreOptions), { loadConfigCore });
  };
}
