// Times the engine's kernels in the WebAssembly module (dist/engine.mjs, loaded as the page's
// Node tests load it) and the same computations in plain JavaScript (plain-js-kernels.mjs).
// Usage: node tests/bench/bench-engine.mjs [--impl wasm|js] [--dist DIR] [--samples N] [--json FILE]
// Prints the medians; with --json writes { impl, kernels: { key: { medianMs, … } }, … }; for wasm
// also views (engine.views: the result left in the module, no copy), reused (engine.into: the result written
// into an array allocated once) and alone (the curves' kernel without the facade).
import { readFileSync, realpathSync, writeFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';

import * as plain from './plain-js-kernels.mjs';

/**
 * Median time of one call of `fn` in milliseconds. Calls are batched so that one sample lasts at
 * least `minSampleMs` (small kernels), after a warm-up that lets V8 optimise and the heap grow.
 */
export function measure(fn, { samples = 15, minSampleMs = 10, warmupMs = 150 } = {}) {
  const warmupEnd = performance.now() + warmupMs;
  let calls = 0;
  do {
    fn();
    calls += 1;
  } while (performance.now() < warmupEnd || calls < 3);
  let batch = 1;
  for (;;) {
    const start = performance.now();
    for (let i = 0; i < batch; i += 1) fn();
    if (performance.now() - start >= minSampleMs || batch >= 1 << 20) break;
    batch *= 2;
  }
  const times = [];
  for (let s = 0; s < samples; s += 1) {
    const start = performance.now();
    for (let i = 0; i < batch; i += 1) fn();
    times.push((performance.now() - start) / batch);
  }
  times.sort((a, b) => a - b);
  const median =
    times.length % 2 ? times[(times.length - 1) / 2] : (times[times.length / 2 - 1] + times[times.length / 2]) / 2;
  return { medianMs: median, minMs: times[0], maxMs: times[times.length - 1], samples, callsPerSample: batch };
}

async function loadEngine(dist) {
  const { default: createEngine } = await import(pathToFileURL(join(dist, 'engine.mjs')).href);
  return createEngine({ wasmBinary: readFileSync(join(dist, 'engine.wasm')) });
}

/**
 * The curves' kernel alone: the module's export called with its positions already in the scratch
 * block (cpp/bindings/bind_scratch.cpp), without the facade's checks, the copy in or the result
 * object: what "the kernel itself" costs in WebAssembly, for comparison with the native call. A
 * module of its own (engine-core.mjs, raw), so the facade's engine is not disturbed.
 */
async function curvesKernelAlone(dist) {
  const { default: createCore } = await import(pathToFileURL(join(dist, 'engine-core.mjs')).href);
  const core = await createCore({ wasmBinary: readFileSync(join(dist, 'engine.wasm')) });
  if (typeof core._positional_context_extension_curves !== 'function') return null;
  core.scratchBlock(4 * 512 + 1).set(positions512);
  return () => {
    if (core._positional_context_extension_curves(512, 4096, 32768, 128, 10000) !== 0)
      throw new Error(core.scratchError());
  };
}

const positions512 = Float64Array.from({ length: 512 }, (_, i) => i * 64);

/** The kernels as closures over prepared inputs, for one implementation. */
function wasmKernels(engine) {
  const x = plain.randomMatrix(4096, 128, 1);
  const [q, k, v] = [2, 3, 4].map((seed) => plain.randomMatrix(512, 64, seed));
  const a = plain.benchmarkSentence(false);
  const b = plain.benchmarkSentence(true);
  const kernels = {
    sinusoidal_32768x128: () => engine.sinusoidalEncoding(32768, 128),
    sinusoidal_4096x512: () => engine.sinusoidalEncoding(4096, 512),
    rope_sequence_4096x128: () => engine.applyRopeSequence(x, null),
    attention_512x64: () => engine.attention(q, k, v, true),
    extension_curves_512: () => engine.contextExtensionCurves(positions512, 4096, 32768, 128, 10000),
  };
  const notes = {};
  if (typeof engine.encodeSentence === 'function') {
    kernels.demo_layer_100 = () => engine.encodeSentence(a, 'rope', false);
  } else {
    // The demo layer is not bound in this module: the attention step over 100 × 16 inputs instead.
    const [dq, dk, dv] = [5, 6, 7].map((seed) => plain.randomMatrix(100, 16, seed));
    kernels.demo_layer_100 = () => engine.attention(dq, dk, dv, false);
    notes.demo_layer_100 = 'encodeSentence not bound: attention(100 × 16) only';
  }
  if (typeof engine.orderSimilarities === 'function') {
    kernels.order_similarities_100 = () => engine.orderSimilarities(a, b);
  } else if (typeof engine.orderSimilarity === 'function') {
    kernels.order_similarities_100 = () =>
      [
        ['none', false],
        ['sinusoidal', false],
        ['rope', false],
        ['none', true],
      ].map(([scheme, causal]) => engine.orderSimilarity(a, b, scheme, causal));
  } else {
    notes.order_similarities_100 = 'orderSimilarity not bound';
  }
  // The zero-copy path (engine.views): the same kernel, its result left in the module's memory.
  // "reused" is the result written into one Float64Array allocated once, outside the timing
  // (engine.into; an engine without it: the view copied with set): what a caller who keeps a table
  // pays without a fresh allocation per call.
  const views = {};
  const reused = {};
  if (engine.views) {
    const table = new Float64Array(32768 * 128);
    const wide = new Float64Array(4096 * 512);
    const rotated = new Float64Array(4096 * 128);
    const into = engine.into ?? null;
    views.sinusoidal_32768x128 = () => engine.views.sinusoidalEncoding(32768, 128).data;
    views.sinusoidal_4096x512 = () => engine.views.sinusoidalEncoding(4096, 512).data;
    views.rope_sequence_4096x128 = () => engine.views.applyRopeSequence(x, null).data;
    reused.sinusoidal_32768x128 = into
      ? () => into.sinusoidalEncoding(table, 32768, 128)
      : () => table.set(engine.views.sinusoidalEncoding(32768, 128).data);
    reused.sinusoidal_4096x512 = into
      ? () => into.sinusoidalEncoding(wide, 4096, 512)
      : () => wide.set(engine.views.sinusoidalEncoding(4096, 512).data);
    reused.rope_sequence_4096x128 = into
      ? () => into.applyRopeSequence(rotated, x, null)
      : () => rotated.set(engine.views.applyRopeSequence(x, null).data);
    if (engine.views.contextExtensionCurves) {
      const curves = new Float64Array(3 * 512);
      const args = [positions512, 4096, 32768, 128, 10000];
      const curve = () => engine.views.contextExtensionCurves(...args);
      views.extension_curves_512 = () => curve().angles.data;
      reused.extension_curves_512 = into
        ? () => into.contextExtensionCurves(curves, ...args)
        : () => curves.set(curve().angles.data);
    }
    if (engine.views.attention) {
      // All four matrices handed back, as the copying call hands them back.
      const attended = () => engine.views.attention(q, k, v, true);
      const kept = { output: new Float64Array(512 * 64) };
      for (const key of ['weights', 'scores', 'scaledScores']) kept[key] = new Float64Array(512 * 512);
      views.attention_512x64 = () => {
        const result = attended();
        return [result.output.data, result.weights.data, result.scores.data, result.scaledScores.data];
      };
      reused.attention_512x64 = into
        ? () => into.attention(kept, q, k, v, true)
        : () => {
            const result = attended();
            for (const key of Object.keys(kept)) kept[key].set(result[key].data);
          };
    }
  }
  return { kernels, views, reused, notes };
}

function plainKernels() {
  const x = plain.randomMatrix(4096, 128, 1);
  const [q, k, v] = [2, 3, 4].map((seed) => plain.randomMatrix(512, 64, seed));
  const a = plain.benchmarkSentence(false);
  const b = plain.benchmarkSentence(true);
  // The embedding step is a lookup of fixed random vectors (the values do not change the work of
  // the layer); the engine derives each word's vector from MD5 and numpy's generator instead.
  const table = new Map();
  const embed = (word) => {
    let vector = table.get(word);
    if (!vector) {
      vector = plain.randomMatrix(1, 16, 1000 + table.size).data;
      table.set(word, vector);
    }
    return vector;
  };
  const weights = {
    wQ: plain.randomMatrix(16, 16, 8),
    wK: plain.randomMatrix(16, 16, 9),
    wV: plain.randomMatrix(16, 16, 10),
  };
  for (const m of Object.values(weights)) for (let i = 0; i < m.data.length; i += 1) m.data[i] /= 4;
  return {
    kernels: {
      sinusoidal_32768x128: () => plain.sinusoidalEncoding(32768, 128),
      sinusoidal_4096x512: () => plain.sinusoidalEncoding(4096, 512),
      rope_sequence_4096x128: () => plain.applyRopeSequence(x),
      attention_512x64: () => plain.attention(q, k, v, true),
      demo_layer_100: () => plain.encodeSentence(a, 'rope', false, embed, weights),
      order_similarities_100: () => plain.orderSimilarities(a, b, embed, weights),
      extension_curves_512: () => plain.contextExtensionCurves(positions512, 4096, 32768, 128, 10000),
    },
    // A fresh Float64Array of the large table's size, filled: what allocating a new result costs
    // before any number is computed (the copying functions pay it on every call).
    fills: { fresh_32768x128: () => new Float64Array(32768 * 128).fill(1) },
    notes: {
      demo_layer_100: 'embeddings looked up from a Map',
      order_similarities_100: 'embeddings looked up from a Map',
    },
  };
}

function maxAbsDifference(a, b) {
  let worst = 0;
  for (let i = 0; i < a.length; i += 1) worst = Math.max(worst, Math.abs(a[i] - b[i]));
  return worst;
}

/**
 * Checks that the plain-JS kernels compute what the engine computes (so the timings compare the
 * same work). Tolerances: sin/cos of angles up to 3·10^4 rad carry ~4e-12 of rounding in the angle.
 */
function crossCheck(engine) {
  const checks = [];
  const check = (name, difference, tolerance, compared = 'JS − WASM') => {
    checks.push({ name, compared, difference, tolerance, ok: difference <= tolerance });
  };
  check(
    'sinusoidal 32768 × 128',
    maxAbsDifference(plain.sinusoidalEncoding(32768, 128).data, engine.sinusoidalEncoding(32768, 128).data),
    1e-11,
  );
  const x = plain.randomMatrix(4096, 128, 1);
  check(
    'rope 4096 × 128',
    maxAbsDifference(plain.applyRopeSequence(x).data, engine.applyRopeSequence(x, null).data),
    1e-11,
  );
  const [q, k, v] = [2, 3, 4].map((seed) => plain.randomMatrix(512, 64, seed));
  check(
    'attention 512 × 64',
    maxAbsDifference(plain.attention(q, k, v, true).output.data, engine.attention(q, k, v, true).output.data),
    1e-12,
  );
  check(
    'extension curves',
    maxAbsDifference(
      plain.contextExtensionCurves(positions512, 4096, 32768, 128).angles.data,
      engine.contextExtensionCurves(positions512, 4096, 32768, 128, 10000).angles.data,
    ),
    1e-9,
  );
  if (engine.views) {
    check(
      'view = copy, sinusoidal 4096 × 512',
      maxAbsDifference(engine.sinusoidalEncoding(4096, 512).data, engine.views.sinusoidalEncoding(4096, 512).data),
      0,
      'view − copy',
    );
    check(
      'view = copy, rope 4096 × 128',
      maxAbsDifference(engine.applyRopeSequence(x, null).data, engine.views.applyRopeSequence(x, null).data),
      0,
      'view − copy',
    );
    if (engine.views.attention) {
      const copy = engine.attention(q, k, v, true);
      const view = engine.views.attention(q, k, v, true);
      check(
        'view = copy, attention 512 × 64 (all four matrices)',
        Math.max(...Object.keys(copy).map((key) => maxAbsDifference(copy[key].data, view[key].data))),
        0,
        'view − copy',
      );
    }
  }
  return checks;
}

async function main() {
  const { values } = parseArgs({
    options: {
      impl: { type: 'string', default: 'wasm' },
      dist: {
        type: 'string',
        default: process.env.POSITIONAL_DIST ?? fileURLToPath(new URL('../../dist/', import.meta.url)),
      },
      samples: { type: 'string', default: '15' },
      json: { type: 'string' },
      only: { type: 'string' },
    },
  });
  const samples = Number(values.samples);
  const result = { impl: values.impl, node: process.version, v8: process.versions.v8, kernels: {}, notes: {} };
  let suite;
  if (values.impl === 'wasm') {
    const engine = await loadEngine(values.dist);
    result.dist = values.dist;
    result.wasmBytes = statSync(join(values.dist, 'engine.wasm')).size;
    result.jsBytes = statSync(join(values.dist, 'engine.mjs')).size;
    result.crossCheck = crossCheck(engine);
    suite = wasmKernels(engine);
    const alone = await curvesKernelAlone(values.dist);
    if (alone) suite.alone = { extension_curves_512: alone };
  } else if (values.impl === 'js') {
    suite = plainKernels();
  } else {
    throw new Error(`--impl must be wasm or js, got ${values.impl}`);
  }
  result.notes = suite.notes;
  const only = values.only ? new Set(values.only.split(',')) : null;
  // Each kernel's paths are measured one after the other, so that they see the same machine load.
  for (const [key, fn] of Object.entries(suite.kernels)) {
    if (only && !only.has(key)) continue;
    result.kernels[key] = measure(fn, { samples });
    console.error(`${values.impl.padEnd(5)} ${key.padEnd(26)} ${result.kernels[key].medianMs.toFixed(4)} ms`);
    for (const path of ['views', 'reused', 'alone']) {
      if (!suite[path]?.[key]) continue;
      result[path] ??= {};
      result[path][key] = measure(suite[path][key], { samples });
      console.error(`${path.padEnd(6)}${key.padEnd(26)} ${result[path][key].medianMs.toFixed(4)} ms`);
    }
  }
  for (const [key, fn] of Object.entries(suite.fills ?? {})) {
    if (only && !only.has(key)) continue;
    result.fills ??= {};
    result.fills[key] = measure(fn, { samples });
    console.error(`fill  ${key.padEnd(26)} ${result.fills[key].medianMs.toFixed(4)} ms`);
  }
  if (values.json) writeFileSync(values.json, `${JSON.stringify(result, null, 2)}\n`);
  else console.log(JSON.stringify(result, null, 2));
}

// Run as a script; imported (for measure), it does nothing.
if (process.argv[1] && realpathSync(process.argv[1]) === fileURLToPath(import.meta.url)) await main();
