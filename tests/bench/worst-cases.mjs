// Times every engine function (dist/engine.mjs, as the page and Node load it) on the heaviest
// inputs its caps allow, to back docs/engine.md's "no call runs much longer than a second" with figures.
// Usage: node tests/bench/worst-cases.mjs [--dist DIR] [--samples N] [--json FILE] [--only NAME,…]
// Each function gets one or more candidate inputs at its caps (the cap on output, on work or on
// text: whichever shape costs most is not obvious, so several are tried); each candidate is called
// once to warm up and then `samples` times, and the median wall and CPU time are kept. Writes
// tests/bench/results/worst-cases.json and prints a Markdown table of each function's worst median.
// A benchmark, not a test: nothing here fails on a time.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';

import { loadAverages, machineRecord } from './measuring.mjs';

const repo = fileURLToPath(new URL('../../', import.meta.url));
const { values: opts } = parseArgs({
  options: {
    dist: { type: 'string', default: join(repo, 'dist') },
    samples: { type: 'string', default: '5' },
    json: { type: 'string', default: join(repo, 'tests', 'bench', 'results', 'worst-cases.json') },
    only: { type: 'string' },
  },
});
const SAMPLES = Number(opts.samples);

const {
  default: createEngine,
  signatures,
  viewSignatures,
  limits,
} = await import(pathToFileURL(join(opts.dist, 'engine.mjs')).href);
// The engine's declaration with each function's ordinary call.
const engineApi = JSON.parse(readFileSync(join(opts.dist, 'engine-api.json'), 'utf8'));
const engine = await createEngine({
  wasmBinary: readFileSync(join(opts.dist, 'engine.wasm')),
  modelConfigWasmBinary: readFileSync(join(opts.dist, 'engine-config.wasm')),
  lengthLabWasmBinary: readFileSync(join(opts.dist, 'engine-lab.wasm')),
});
await Promise.all([engine.loadModelConfigReader(), engine.loadLengthLab()]);

const MAX = limits.maxOutputDoubles; // 2^24
const STEPS = limits.maxWorkSteps; // 2^22

/** n values spread over [0, span): positions, angles, entries (deterministic, no repeats of 0). */
const spread = (n, span = 1e6) => Float64Array.from({ length: n }, (_, i) => ((i * 7919) % n) * (span / n) + 0.5);
const matrix = (rows, cols, seed = 1) => ({
  rows,
  cols,
  data: Float64Array.from({ length: rows * cols }, (_, i) => Math.sin(i * 0.37 + seed)),
});
const words = (count, length) =>
  Array.from({ length: count }, (_, i) => `w${i}`.padEnd(length, String.fromCharCode(97 + (i % 26)))).join(' ');
// The longest demo sentence: 512 words (the cap) of 120 letters, 62,463 bytes (under 64 KiB).
const SENTENCE = words(512, 120);
const SENTENCE_REVERSED = SENTENCE.split(' ').reverse().join(' ');
const LLAMA = readFileSync(join(repo, 'web', 'presets', 'llama-3.1-8b.json'), 'utf8');
const configWith = (extra) => JSON.stringify({ ...JSON.parse(LLAMA), ...extra });

/**
 * Candidate inputs per function: [label, () => arguments]. Each label says which cap it sits at.
 * Arguments are built before timing. A function of `signatures` or `viewSignatures` without an entry is
 * timed on the ordinary call its declaration gives (engine-api.json), until it gets one here.
 */
const CANDIDATES = {
  sinusoidalEncoding: [['32,768 × 512 (output 2^24)', () => [32768, 512]]],
  sinusoidalEncodingConcatenated: [['32,768 × 512 (output 2^24)', () => [32768, 512]]],
  sinusoidalEncodingRows: [['32,768 rows × 512 (output 2^24)', () => [spread(32768).map(Math.floor), 512]]],
  sinusoidalDot: [['d = 2^24', () => [123456.5, 7.25, MAX]]],
  ropeFrequencies: [['d = 2^24', () => [MAX]]],
  applyRope: [['x of 2^22 (work)', () => [spread(STEPS, 2), 1e6]]],
  applyRopeSequence: [
    ['2,048 × 2,048 (work 2^22)', () => [matrix(2048, 2048), null]],
    ['2^21 × 2 with positions (work 2^22)', () => [matrix(2 ** 21, 2), spread(2 ** 21)]],
  ],
  ropeScoresOverDistance: [
    ['d = 2, 1 start × 2^22 distances (work 2^22)', () => [[1, 0.5], [0.25, 1], [0], STEPS - 1]],
    ['d = 128, 64 starts × 1,024 distances (work 2^22)', () => [spread(128, 1), spread(128, 1), spread(64), 1023]],
  ],
  ropePairAngles: [
    [
      '4,096 positions × 1,024 pairs, d 2,048 (work 2^22)',
      () => [spread(4096), spread(1024, 1024).map(Math.floor), 2048],
    ],
  ],
  ropeDecayCurve: [
    ['d = 2, maxDistance 2^21 − 1 (work 2^22)', () => [2, 10000, 2 ** 21 - 1]],
    ['d = 4,096, maxDistance 1,023 (work 2^22)', () => [4096, 10000, 1023]],
  ],
  ropeOnesScores: [
    ['d = 2, maxDistance 2^21 − 1 (work 2^22)', () => [2, 10000, 2 ** 21 - 1]],
    ['d = 4,096, maxDistance 1,023 (work 2^22)', () => [4096, 10000, 1023]],
  ],
  ropeClock: [['one pair', () => [[1, 2], [3, 4], 1e9, -1e9, 0.5]]],
  attention: [
    [
      '2,048 × 2,048, d_k = d_v = 32 (copy 2^22, work 2^28)',
      () => [matrix(2048, 32, 1), matrix(2048, 32, 2), matrix(2048, 32, 3)],
    ],
    [
      '64 × 65,536, d_k = d_v = 32 (copy 2^22, work 2^28)',
      () => [matrix(64, 32, 1), matrix(65536, 32, 2), matrix(65536, 32, 3)],
    ],
    [
      '2,048 × 2,048 causal, d_k = d_v = 32',
      () => [matrix(2048, 32, 1), matrix(2048, 32, 2), matrix(2048, 32, 3), true],
    ],
    [
      '1,024 × 1,024, d_k = d_v = 128 (work 2^28)',
      () => [matrix(1024, 128, 1), matrix(1024, 128, 2), matrix(1024, 128, 3)],
    ],
  ],
  cosineSimilarity: [['2^24 entries', () => [spread(MAX, 1), spread(MAX, 2)]]],
  interpolatePositions: [['2^24 positions', () => [spread(MAX), 4096, 32768]]],
  ntkScaledBase: [['numbers', () => [10000, 8, 128]]],
  contextExtensionCurves: [
    ['5,592,405 positions (3 × n ≤ 2^24)', () => [spread(Math.floor(MAX / 3)), 4096, 32768, 128]],
  ],
  yarnInverseFrequencies: [['d = 2^24', () => [MAX, 10000, 8, 4096]]],
  yarnExtrapolationWeights: [['d = 2^24', () => [MAX, 10000, 4096]]],
  yarnCorrectionRange: [['d = 2^24', () => [MAX, 10000, 4096]]],
  yarnAttentionFactor: [['a number', () => [8]]],
  dynamicNtkBase: [['numbers', () => [10000, 8, 128, 65536, 4096]]],
  pairWavelengths: [['2^24 frequencies', () => [spread(MAX, 1)]]],
  extensionInverseFrequencies: [['d = 6,710,886 (5 × d/2 ≤ 2^24)', () => [6710886, 10000, 4096, 32768]]],
  extensionCurves: [['2^20 positions (work 2^22)', () => [spread(2 ** 20), 4096, 32768, 128]]],
  alibiSlopes: [['1,024 heads', () => [1024]]],
  alibiBias: [['length 4,096 (output 2^24)', () => [0.5, 4096]]],
  applyRopeHalf: [['x of 2^22', () => [spread(STEPS, 2), 1e6]]],
  halfPermutation: [['d = 2^22 (work)', () => [STEPS]]],
  compareRopeConventions: [
    ['d = 2, maxDistance 123,360 (work 2^22)', () => [[1, 0.5], [0.25, 1], 0, Math.floor(STEPS / 34) - 1]],
    ['d = 4,064, maxDistance 1,023 (work 2^22)', () => [spread(4064, 1), spread(4064, 1), 0, 1023]],
  ],
  maxPermutedDifference: [
    [
      '4,096 × 4,096 (input 2^24)',
      () => [matrix(4096, 4096, 1), matrix(4096, 4096, 2), Float64Array.from({ length: 4096 }, (_, i) => 4095 - i)],
    ],
  ],
  reversalPermutation: [['n = 2^22', () => [STEPS]]],
  float32AngleErrors: [
    ['4,096 positions × 64 pairs, d 128 (work 2^22)', () => [spread(4096), spread(64, 64).map(Math.floor), 128]],
  ],
  wordVector: [['a 4,096-byte word, d = 2^20', () => ['w'.repeat(4096), 2 ** 20]]],
  encodeSentence: [['512 words, 62 KB, RoPE, causal', () => [SENTENCE, 'rope', true]]],
  demoAttention: [['512 words, 62 KB, RoPE, causal', () => [SENTENCE, 'rope', true]]],
  orderSimilarity: [['2 × 512 words, RoPE, causal', () => [SENTENCE, SENTENCE_REVERSED, 'rope', true]]],
  orderSimilarities: [['2 × 512 words', () => [SENTENCE, SENTENCE_REVERSED]]],
  md5Hex: [['1 MiB of text', () => ['x'.repeat(2 ** 20)]]],
  seedSequenceState: [['a 1,000-digit seed', () => ['9'.repeat(1000)]]],
  pcg64Raw: [['2^16 draws, 1,000-digit seed', () => ['9'.repeat(1000), limits.maxRawDraws]]],
  standardNormal: [
    ['2^22 normals', () => ['9'.repeat(1000), limits.maxNormalDraws]],
    ['2^22 drawn, compact sample', () => ['9'.repeat(1000), limits.maxNormalDraws, { sample: 'compact' }]],
  ],
  readModelConfig: [
    ['Llama 3.1 preset, prompt 2^30', () => [LLAMA, 2 ** 30]],
    [
      '1 MiB config: 45,000 layer types',
      () => [
        configWith({
          layer_types: Array.from({ length: 45000 }, (_, i) => (i % 4 ? 'sliding_attention' : 'full_attention')),
        }),
        2 ** 30,
      ],
    ],
    ['1 MiB of nesting', () => [`${'['.repeat(2 ** 19)}${']'.repeat(2 ** 19)}`, 4096]],
    ['4 MiB of text (over the reader’s 1 MiB)', () => [`{"model_type": "${'x'.repeat(4 * 2 ** 20 - 20)}"}`, 4096]],
    ['head_dim 4,096 (the reader’s cap), prompt 2^30', () => [configWith({ head_dim: 4096 }), 2 ** 30]],
  ],
  heapBytes: [['none', () => []]],
  'views.sinusoidalEncoding': [['32,768 × 512 (output 2^24)', () => [32768, 512]]],
  'views.applyRopeSequence': [['2,048 × 2,048 (work 2^22)', () => [matrix(2048, 2048), null]]],
  'views.attention': [
    [
      '4,096 × 4,096, d_k = d_v = 8 (output 2^24, work 2^28)',
      () => [matrix(4096, 8, 1), matrix(4096, 8, 2), matrix(4096, 8, 3)],
    ],
    [
      '2,048 × 2,048, d_k = d_v = 32 (work 2^28)',
      () => [matrix(2048, 32, 1), matrix(2048, 32, 2), matrix(2048, 32, 3)],
    ],
  ],
  'views.contextExtensionCurves': [['5,592,405 positions', () => [spread(Math.floor(MAX / 3)), 4096, 32768, 128]]],
  'views.extensionCurves': [['2^20 positions (work 2^22)', () => [spread(2 ** 20), 4096, 32768, 128]]],
};

const names = [...Object.keys(signatures), ...Object.keys(viewSignatures).map((fn) => `views.${fn}`)];
for (const name of names.filter((n) => !CANDIDATES[n])) {
  const { example } = engineApi.functions[name.replace(/^views\./, '')];
  console.error(`${name}: no worst-case input yet, timed on its declared example`);
  CANDIDATES[name] = [['the declared example (no input at a cap yet)', () => structuredClone(example)]];
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const cpuMs = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};
const call = (name, args) => {
  if (name.startsWith('views.')) {
    const out = engine.views[name.slice(6)](...args);
    engine.views.release();
    return out;
  }
  return engine[name](...args);
};

const only = opts.only?.split(',');
const results = {};
const started = {
  date: new Date().toISOString(),
  loadAverage: loadAverages(),
};
for (const name of names) {
  if (only && !only.includes(name)) continue;
  results[name] = [];
  for (const [label, build] of CANDIDATES[name]) {
    let args = build();
    let outcome = 'answered';
    try {
      call(name, args);
    } catch (error) {
      outcome = `refused: ${String(error.message).slice(0, 160)}`;
    }
    const wall = [];
    const cpu = [];
    for (let i = 0; i < SAMPLES; i += 1) {
      const c = cpuMs();
      const w = performance.now();
      try {
        call(name, args);
      } catch {
        // the same refusal as the warm-up's
      }
      wall.push(performance.now() - w);
      cpu.push(cpuMs() - c);
    }
    // eslint-disable-next-line no-useless-assignment -- the inputs go before the next case is built
    args = null;
    const row = { label, outcome, medianMs: median(wall), cpuMedianMs: median(cpu), maxMs: Math.max(...wall) };
    results[name].push(row);
    console.error(
      `${name} [${label}]: ${row.medianMs.toFixed(1)} ms wall, ${row.cpuMedianMs.toFixed(1)} ms CPU (${outcome.slice(0, 60)})`,
    );
  }
}

const worst = Object.fromEntries(
  Object.entries(results).map(([name, rows]) => [name, rows.reduce((a, b) => (b.medianMs > a.medianMs ? b : a))]),
);
const report = {
  ...started,
  loadAverageEnd: loadAverages(),
  machine: machineRecord(),
  samples: SAMPLES,
  note: 'Medians of `samples` calls after one warm-up call, each function on the heaviest inputs its caps allow; wall and CPU (process.cpuUsage, all threads) in milliseconds.',
  worst,
  candidates: results,
};
if (!only) writeFileSync(opts.json, `${JSON.stringify(report, null, 2)}\n`);

const fmt = (ms) => (ms >= 100 ? Math.round(ms).toLocaleString('en') : ms >= 1 ? ms.toFixed(1) : ms.toFixed(3));
console.log('| function | heaviest input | median wall (ms) | median CPU (ms) |');
console.log('| --- | --- | --- | --- |');
for (const [name, row] of Object.entries(worst)) {
  const refused = row.outcome.startsWith('refused') ? ' (refused)' : '';
  console.log(`| \`${name}\` | ${row.label}${refused} | ${fmt(row.medianMs)} | ${fmt(row.cpuMedianMs)} |`);
}
