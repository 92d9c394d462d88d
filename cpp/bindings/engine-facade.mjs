// The engine's JavaScript facade: the one layer between callers (the page, the charts, Node users)
// and the raw Embind modules. Everything it knows of the engine's functions comes from the engine's own
// declaration (engine-declaration.mjs, which the build writes from what every binding declares beside its
// Embind registration, cpp/bindings/js_declaration.hpp, checked against what each module binds): their
// parameters, defaults, caps and the module each lives in. From it the facade checks every argument once,
// its type and declared range or cap, before anything crosses into WebAssembly; supplies the defaults; and
// rethrows the module's errors as plain Errors whose message names the function, the argument (in
// camelCase) and the rule. The adapters behind it only convert; the engine's C++ judges each value.
import declaration from './engine-declaration.mjs';

const deepFreeze = (value) => {
  if (value && typeof value === 'object') {
    for (const item of Object.values(value)) deepFreeze(item);
    Object.freeze(value);
  }
  return value;
};

/**
 * The engine's declaration as the build wrote it: `functions` (name → { module, params,
 * view (its zero-copy variant's binding), scratch (the kernel export, rows and scalars of the scratch
 * path), everyModule }), `limits`, `constants`. engine-api.json beside it adds each function's topic, what
 * it returns and an ordinary call.
 */
export const engineDeclaration = deepFreeze(declaration);

/** The caps the engine enforces, as cpp/include/positional/limits.hpp and the modules' headers set them. */
export const limits = engineDeclaration.limits;

/** The default base of the sinusoidal code and of RoPE. */
export const DEFAULT_BASE = engineDeclaration.constants.defaultBase;

const MAX = limits.maxOutputDoubles;

/**
 * Every function of the engine with its full parameter list, in call order: { name, kind, … } with
 * kind int (min, max), num, bool, vec, optionalVec, mat, text (cap, in UTF-8 bytes), seed (cap, in
 * characters), options (fields) or callback. A parameter with a `default` may be omitted or passed as
 * undefined. The engine sweep test enumerates this table.
 */
export const signatures = Object.freeze(
  Object.fromEntries(Object.entries(engineDeclaration.functions).map(([fn, f]) => [fn, f.params])),
);

/**
 * The modules the page loads on demand, beside engine-core (whose functions are there from the start):
 * the method that loads each, and how messages name it. The single file's module carries them all, and
 * each method then resolves at once.
 */
const PARTS = {
  config: { loader: 'loadModelConfigReader', what: 'the model-config reader', module: 'the model-config module' },
  lab: { loader: 'loadLengthLab', what: 'the length lab', module: 'the length-lab module' },
};

const functionsOf = (module) =>
  Object.freeze(
    Object.entries(engineDeclaration.functions)
      .filter(([, f]) => f.module === module)
      .map(([fn]) => fn),
  );

/** The functions of the model-config module (engine-config), loaded apart from the kernels. */
export const MODEL_CONFIG_FUNCTIONS = functionsOf('config');

/** The functions of the length lab's module (engine-lab), loaded apart from the kernels. */
export const LENGTH_LAB_FUNCTIONS = functionsOf('lab');

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
  if (value instanceof Float64Array) {
    if (value.length > MAX) throw refuse(fn, `${name} length`, `at most ${MAX}`, value.length);
    return value;
  }
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

function checkSeed(fn, name, value, cap) {
  if (typeof value === 'number') return checkInteger(fn, name, value, 0, Number.MAX_SAFE_INTEGER);
  if (typeof value !== 'string') throw refuse(fn, name, 'a decimal string or a whole number', value);
  return checkText(fn, name, value, cap);
}

// An options object → a new object with every field, each checked as its own parameter (a default where
// one was left out); a key that names no field is refused.
function checkOptions(fn, param, value) {
  const { name, fields } = param;
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    const keys = fields.map((f) => ('default' in f ? `${f.name}?` : f.name)).join(', ');
    throw refuse(fn, name, `an object { ${keys} }`, value);
  }
  for (const key of Object.keys(value)) {
    if (!fields.some((f) => f.name === key)) {
      throw new Error(`${fn}: ${name}.${key.slice(0, 40)} is not an option (${fields.map((f) => f.name).join(', ')})`);
    }
  }
  const out = {};
  for (const field of fields) out[field.name] = checkArgument(fn, field, value[field.name], `${name}.${field.name}`);
  return out;
}

// A callback → a relay the module calls. The relay never throws into the module (that would skip its
// destructors): it keeps the callback's exception, answers false (stop), and wrap() rethrows the exception
// once the module has returned.
function checkCallback(fn, name, value) {
  if (value === null) return null;
  if (typeof value !== 'function') throw refuse(fn, name, 'a function or null', value);
  const relay = (...args) => {
    try {
      return value(...args) !== false;
    } catch (error) {
      relay.failure = { error };
      return false;
    }
  };
  relay.failure = null;
  return relay;
}

// One argument checked by its parameter's kind (engine-declaration.mjs): the value that crosses into the
// module. `name` is how messages name it (an option's field: options.dModel).
function checkArgument(fn, param, value, name = param.name) {
  if (value === undefined && 'default' in param) {
    // An options object left out is every field's default.
    return param.kind === 'options' ? checkOptions(fn, param, {}) : param.default;
  }
  switch (param.kind) {
    case 'int':
      return checkInteger(fn, name, value, param.min, param.max);
    case 'num':
      return checkNumber(fn, name, value);
    case 'bool':
      if (typeof value !== 'boolean') throw refuse(fn, name, 'true or false', value);
      return value;
    case 'vec':
      return checkVector(fn, name, value);
    case 'optionalVec':
      return value === null ? null : checkVector(fn, name, value);
    case 'mat':
      return checkMatrix(fn, name, value);
    case 'text':
      return checkText(fn, name, value, param.cap);
    case 'seed':
      return checkSeed(fn, name, value, param.cap);
    case 'options':
      return checkOptions(fn, { ...param, name }, value);
    case 'callback':
      return checkCallback(fn, name, value);
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

// The engine's C++ names arguments in snake_case (trained_len); callers know them as trainedLen, and an
// options object's fields as options.dModel. (A one-word field keeps its name: the engine's own word
// could be meant, and the facade has checked those fields' ranges already.)
function camelNames(message, params) {
  let out = message;
  for (const { name, kind, fields } of params) {
    const snake = snakeCase(name);
    if (snake !== name) out = out.replace(new RegExp(`\\b${snake}\\b`, 'g'), name);
    if (kind !== 'options') continue;
    for (const field of fields) {
      if (snakeCase(field.name) === field.name) continue;
      out = out.replace(new RegExp(`(?<![.\\w])${snakeCase(field.name)}\\b`, 'g'), `${name}.${field.name}`);
    }
  }
  return out;
}

// onCall (optional) runs before every call that reaches the module: the facade counts calls there,
// so that a view (engine.views) knows when it has expired.
function wrap(fn, raw, params, onCall) {
  const required = requiredCount(params);
  const callbacks = params.flatMap((param, i) => (param.kind === 'callback' ? [i] : []));
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
    for (const i of callbacks) {
      const failure = values[i]?.failure;
      if (failure)
        throw new Error(`${fn}: ${params[i].name} threw: ${String(failure.error?.message ?? failure.error)}`);
    }
    if (result instanceof Error) throw new Error(`${fn}: ${camelNames(result.message, params)}`);
    return result;
  };
}

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

// The function's object from `angles` and the scalars after them in the block, named as the declaration
// names them ("trainedMax", "yarnRange.low", …), in the kernel's order.
function scratchResult(scalars) {
  const paths = scalars.map((path) => path.split('.'));
  return (angles, s, at) => {
    const out = { angles };
    paths.forEach(([key, field], i) => {
      if (field === undefined) out[key] = s[at + i];
      else (out[key] ??= {})[field] = s[at + i];
    });
    return out;
  };
}

// The scratch path of one function (the declaration's `scratch`: the kernel's export, its rows of
// angles and its scalars), as wrap()'s `raw`. For n positions the block holds
// [positions | angles (rows × n) | scalars]: the positions are written into it, the kernel is called as a
// plain WebAssembly export with number arguments, and the result is read back from the block. `finish(doubles, n, at)` turns the block
// (`doubles`, a view holding the result; `at`, the index of its first scalar) into the returned
// value before any other engine call can move it; the module's errors come back as an Error.
function scratchRunner(core, block, { export: kernel, rows, scalars }, finish) {
  const size = (n) => n * (1 + rows) + scalars.length;
  return function run(positions, a, b, c, d, e, f) {
    const n = positions.length;
    // Positions that are themselves a view of the module's memory (engine.views) are copied first:
    // a larger block may move, and growing the memory would empty them.
    const input = positions.buffer === block.at(0).buffer ? positions.slice() : positions;
    // Over the output cap the block is not sized: the kernel refuses the call by its first check.
    if (n * rows <= MAX) block.at(size(n)).set(input);
    // The export is looked up at each call: Emscripten replaces its first-call wrapper with the export
    // itself. Arguments past the kernel's own are ignored by WebAssembly.
    if (core[kernel](n, a, b, c, d, e, f) !== 0) return new Error(core.scratchError());
    return finish(block.at(size(n)), n, n * (1 + rows));
  };
}

/**
 * Wraps a raw Emscripten module in the facade (every function bound once, every argument required).
 * The returned object has one checked function per entry of `signatures`, `views`, `into`, `limits`,
 * `maxOutputDoubles`, count_emval_handles (live JavaScript handles inside the modules, for leak tests)
 * and a loader per module of PARTS (loadModelConfigReader(), loadLengthLab()).
 *
 * When `core` lacks a module's functions (the page's engine-core), `loadPart(module)` resolves to the
 * module that has them: each of its functions throws until `await engine.<loader>()` has loaded it, and
 * works synchronously after. When `core` has them (the single file's module), the loader resolves at once.
 */
export function createFacade(core, { loadPart = null } = {}) {
  const engine = {};
  const calls = { count: 0 };
  const onCall = () => {
    calls.count += 1;
  };
  // module → the raw module that carries its functions, once known.
  const modules = { core };
  for (const module of Object.keys(PARTS)) {
    const apart = loadPart && functionsOf(module).every((fn) => typeof core[fn] !== 'function');
    if (!apart) modules[module] = core;
  }
  const block = scratchBlock(core);
  for (const [fn, { module, params, scratch }] of Object.entries(engineDeclaration.functions)) {
    if (!modules[module]) {
      if (!PARTS[module]) throw new Error(`the engine has no loader for its module ${module} (${fn})`);
      const { loader, what } = PARTS[module];
      let checked = null;
      engine[fn] = function needsModule(...args) {
        const loaded = modules[module];
        if (!loaded) {
          throw new Error(`${fn}: ${what} is a module of its own; await engine.${loader}() once before calling ${fn}`);
        }
        checked ??= wrap(fn, loaded[fn].bind(loaded), params, onCall);
        return checked(...args);
      };
      continue;
    }
    if (scratch) {
      if (typeof core[scratch.export] !== 'function') throw new Error(`the engine module lacks ${scratch.export}`);
      const { rows, scalars } = scratch;
      const result = scratchResult(scalars);
      const copied = (doubles, n, at) => {
        const out = result({ rows, cols: n, data: doubles.slice(n, at) }, doubles, at);
        block.trim();
        return out;
      };
      engine[fn] = wrap(fn, scratchRunner(core, block, scratch, copied), params, onCall);
      continue;
    }
    const raw = modules[module];
    if (typeof raw[fn] !== 'function') throw new Error(`the engine module lacks ${fn}`);
    engine[fn] = wrap(fn, raw[fn].bind(raw), params, onCall);
  }
  for (const [module, { loader, module: named }] of Object.entries(PARTS)) {
    let loading = null;
    engine[loader] = function load() {
      if (modules[module]) return Promise.resolve();
      loading ??= loadPart(module).then(
        (loaded) => {
          for (const fn of functionsOf(module))
            if (typeof loaded[fn] !== 'function') throw new Error(`${named} lacks ${fn}`);
          modules[module] = loaded;
        },
        (error) => {
          loading = null; // a failed fetch may be retried
          throw new Error(`${loader}: ${named} could not be loaded: ${error?.message ?? error}`);
        },
      );
      return loading;
    };
  }
  engine.views = createViews(core, calls, onCall, block);
  engine.into = createInto(createViews(core, calls, onCall, block, 'into'), block, () => {
    onCall();
    core.viewRelease();
  });
  // The modules loaded so far, each once (the single file's module stands for all of them).
  const loadedModules = () => [...new Set(Object.values(modules))];
  // heapBytes and count_emval_handles report every loaded module together: each has a heap and handles
  // of its own (bind_limits.cpp is linked into every module).
  const coreHeapBytes = engine.heapBytes;
  engine.heapBytes = function heapBytes(...args) {
    const total = coreHeapBytes(...args);
    for (const module of loadedModules()) {
      if (module === core) continue;
      const { inUse, heapSize } = module.heapBytes();
      total.inUse += inUse;
      total.heapSize += heapSize;
    }
    return total;
  };
  const handles = (module) => (typeof module?.count_emval_handles === 'function' ? module.count_emval_handles() : 0);
  engine.count_emval_handles = () => loadedModules().reduce((sum, module) => sum + handles(module), 0);
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
export const viewSignatures = Object.freeze(
  Object.fromEntries(
    Object.entries(engineDeclaration.functions)
      .filter(([, f]) => f.view || f.scratch)
      .map(([fn]) => [fn, signatures[fn]]),
  ),
);

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

function createViews(core, calls, onCall, block, prefix = 'views') {
  const views = {};
  for (const [fn, params] of Object.entries(viewSignatures)) {
    const name = `${prefix}.${fn}`;
    const { scratch, view: rawName } = engineDeclaration.functions[fn];
    if (scratch) {
      // The curves: `angles` is a view of the scratch block, the scalars are plain numbers.
      const { rows, scalars } = scratch;
      const result = scratchResult(scalars);
      const viewed = (doubles, n, at) =>
        Object.freeze(result(expiring(name, { rows, cols: n, data: doubles.subarray(n, at) }, calls), doubles, at));
      views[fn] = wrap(name, scratchRunner(core, block, scratch, viewed), params, onCall);
      continue;
    }
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
 * The filling variants (engine.into), for a caller that asks for the same shape again and again (a
 * chart redrawn at every step): `into.<fn>(target, ...args)` takes the arguments of the function of
 * the same name after a target the caller keeps, fills the target with the result and returns the
 * result with the target as its `data`, allocating no array. A target is a Float64Array of exactly the
 * result's rows × cols numbers, not a view of the engine's memory; into.attention takes an object of
 * such arrays, any of output, weights, scores and scaledScores, and fills and returns those; the
 * curves fill their `angles`. The target may be an input's own array (into.applyRopeSequence(x.data,
 * x) rotates in place): the input is read before the target is written. Nothing is held after the
 * call, and no view expires because of the target.
 */
const ATTENTION_MATRICES = ['output', 'weights', 'scores', 'scaledScores'];

function createInto(views, block, release) {
  const into = {};
  // A Float64Array the caller owns (checked before the call), of the result's size (checked after it).
  const checkTarget = (name, label, target) => {
    if (!(target instanceof Float64Array)) {
      const got = target === null ? 'null' : (target?.constructor?.name ?? typeof target);
      throw new Error(`${name}: ${label} must be a Float64Array, got ${got}`);
    }
    if (target.buffer === block.at(0).buffer) {
      throw new Error(
        `${name}: ${label} is a view of the engine's memory, which the call may move; pass an array you keep`,
      );
    }
  };
  const fill = (name, label, target, { rows, cols, data }) => {
    if (target.length !== rows * cols) {
      throw new Error(
        `${name}: ${label} must hold rows × cols = ${rows} × ${cols} = ${rows * cols} numbers, got ${target.length}`,
      );
    }
    target.set(data);
    return { rows, cols, data: target };
  };
  for (const [fn, params] of Object.entries(viewSignatures)) {
    const name = `into.${fn}`;
    const view = views[fn];
    const required = requiredCount(params);
    const { scratch } = engineDeclaration.functions[fn];
    into[fn] = function filled(target, ...args) {
      if (arguments.length === 0 || args.length < required || args.length > params.length) {
        throw new Error(
          `${name}: expects a target, then ${arityText(params)}, got ${Math.max(arguments.length - 1, 0)} after it`,
        );
      }
      if (fn === 'attention') {
        if (target === null || typeof target !== 'object' || Array.isArray(target) || ArrayBuffer.isView(target)) {
          throw new Error(
            `${name}: targets must be an object of Float64Arrays (any of ${ATTENTION_MATRICES.join(', ')})`,
          );
        }
        const keys = Object.keys(target);
        const unknown = keys.find((key) => !ATTENTION_MATRICES.includes(key));
        if (unknown !== undefined || keys.length === 0) {
          throw new Error(
            `${name}: targets may hold ${ATTENTION_MATRICES.join(', ')}, got ${unknown === undefined ? 'none' : `"${unknown}"`}`,
          );
        }
        for (const key of keys) checkTarget(name, `targets.${key}`, target[key]);
        const result = view(...args);
        try {
          return Object.fromEntries(keys.map((key) => [key, fill(name, `targets.${key}`, target[key], result[key])]));
        } finally {
          release();
        }
      }
      checkTarget(name, 'target', target);
      const result = view(...args);
      try {
        if (!scratch) return fill(name, 'target', target, result);
        return { ...result, angles: fill(name, 'target', target, result.angles) };
      } finally {
        if (scratch) block.trim();
        else release();
      }
    };
  }
  return Object.freeze(into);
}

/**
 * The factory callers import: `createEngine(options)` resolves to the facade over a fresh module.
 * options are Emscripten's (Node passes { wasmBinary }), plus, per module loaded on demand, the option
 * its part names (Node: `modelConfigWasmBinary`, `lengthLabWasmBinary`, the bytes of engine-config.wasm
 * and engine-lab.wasm). `wasmUrl` locates the .wasm when the module is not single-file and no locateFile
 * is given; `parts` (module → { load, wasmUrl, wasmBinaryOption }), when given, are the modules loaded
 * on demand.
 */
export function facadeFactory(createCore, wasmUrl, parts = {}) {
  return async function createEngine(options = {}) {
    const coreOptions = { ...options };
    for (const { wasmBinaryOption } of Object.values(parts)) delete coreOptions[wasmBinaryOption];
    const locate = (url) => (path, prefix) => (path.endsWith('.wasm') ? String(url) : prefix + path);
    if (wasmUrl && !coreOptions.locateFile) coreOptions.locateFile = locate(wasmUrl);
    const loadPart = async (module) => {
      const part = parts[module];
      if (!part) throw new Error(`no file holds the module ${module}`);
      const createPart = await part.load();
      const partOptions = {};
      if (options[part.wasmBinaryOption]) partOptions.wasmBinary = options[part.wasmBinaryOption];
      else partOptions.locateFile = options.locateFile ?? locate(part.wasmUrl);
      return createPart(partOptions);
    };
    return createFacade(await createCore(coreOptions), { loadPart: Object.keys(parts).length ? loadPart : null });
  };
}
