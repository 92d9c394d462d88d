// Runs the engine benchmarks in one go — native (Google Benchmark), WASM (Node/V8), numpy and
// plain JavaScript — and writes BENCHMARKS.md and tests/bench/results/engine.json.
// Usage: node tests/bench/run-benchmarks.mjs [--native BIN] [--dist DIR] [--samples N]
//          [--repetitions N] [--variant NAME=DIR=DESCRIPTION …] [--variant-samples N] [--markdown FILE]
//          [--json FILE] [--render]   (--render: rewrite the Markdown from the saved JSON only)
//          [--phone]   (also the throttled-phone page benchmark, phone-interaction.mjs)
// --variant adds more WASM builds (a dist-like folder with engine.mjs + engine.wasm) to the
// flags table: sizes and medians per variant.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, freemem, tmpdir, totalmem } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { gzipSync } from 'node:zlib';

const here = dirname(fileURLToPath(import.meta.url));
const repo = join(here, '..', '..');

/** The kernels in table order: key, what it is, size. */
export const KERNELS = [
  ['sinusoidal_32768x128', 'sinusoidal table', '32,768 × 128'],
  ['sinusoidal_4096x512', 'sinusoidal table', '4,096 × 512'],
  ['rope_sequence_4096x128', 'RoPE over a sequence', '4,096 × 128'],
  ['attention_512x64', 'causal attention (q, k, v)', '512 × 64'],
  ['demo_layer_100', 'demo attention layer, RoPE (encodeSentence)', '100 words × 16'],
  ['order_similarities_100', 'order similarity, four cases', '2 × 100 words'],
  ['extension_curves_512', 'context-extension curves', '3 × 512'],
];

const GOAL_WASM_OVER_NATIVE = 1.3;

function run(command, args, options = {}) {
  const result = spawnSync(command, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], ...options });
  if (result.status !== 0)
    throw new Error(`${command} ${args.join(' ')} exited with ${result.status}: ${result.error ?? ''}`);
  return result.stdout;
}

function firstLine(command, args) {
  try {
    return execFileSync(command, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] })
      .split('\n')[0]
      .trim();
  } catch {
    return 'not found';
  }
}

function describeMachine() {
  const cpuinfo = readFileSync('/proc/cpuinfo', 'utf8');
  const model = /model name\s*:\s*(.*)/.exec(cpuinfo)?.[1] ?? cpus()[0]?.model ?? 'unknown';
  const flags = /flags\s*:\s*(.*)/.exec(cpuinfo)?.[1].split(' ') ?? [];
  const simd = ['sse4_2', 'avx', 'avx2', 'fma', 'avx512f'].filter((f) => flags.includes(f)).join(', ');
  const meminfo = readFileSync('/proc/meminfo', 'utf8');
  const memKiB = Number(/MemTotal:\s*(\d+)/.exec(meminfo)?.[1] ?? totalmem() / 1024);
  return {
    cpu: model,
    simd,
    cores: cpus().length,
    memoryGiB: Math.round((memKiB / 1024 / 1024) * 10) / 10,
    freeMemoryGiB: Math.round((freemem() / 2 ** 30) * 10) / 10,
    loadAverage: readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' '),
    gxx: firstLine('g++', ['--version']),
    clang: firstLine('clang++', ['--version']),
    emxx: firstLine('em++', ['--version']),
    node: process.version,
    v8: process.versions.v8,
  };
}

function nativeMedians(bin, repetitions) {
  const out = join(mkdtempSync(join(tmpdir(), 'bench-')), 'native.json');
  run(
    bin,
    [
      `--benchmark_repetitions=${repetitions}`,
      '--benchmark_report_aggregates_only=true',
      '--benchmark_min_time=0.2',
      `--benchmark_out=${out}`,
      '--benchmark_out_format=json',
    ],
    { stdio: ['ignore', 'ignore', 'inherit'] },
  );
  const report = JSON.parse(readFileSync(out, 'utf8'));
  const toMs = { ns: 1e-6, us: 1e-3, ms: 1, s: 1e3 };
  const kernels = {};
  for (const b of report.benchmarks) {
    if (b.aggregate_name !== 'median') continue;
    kernels[b.run_name] = { medianMs: b.real_time * toMs[b.time_unit], repetitions };
  }
  for (const b of report.benchmarks) {
    if (b.aggregate_name === 'cv' && kernels[b.run_name]) kernels[b.run_name].cv = b.real_time;
  }
  return { context: report.context, kernels };
}

function jsonFromChild(args, env) {
  const dir = mkdtempSync(join(tmpdir(), 'bench-'));
  const file = join(dir, 'out.json');
  run(args[0], [...args.slice(1), '--json', file], { env: { ...process.env, ...env } });
  return JSON.parse(readFileSync(file, 'utf8'));
}

function wasmRun(dist, samples) {
  const result = jsonFromChild([
    process.execPath,
    join(here, 'bench-engine.mjs'),
    '--impl',
    'wasm',
    '--dist',
    dist,
    '--samples',
    String(samples),
  ]);
  result.wasmGzipBytes = gzipSync(readFileSync(join(dist, 'engine.wasm')), { level: 9 }).length;
  result.jsGzipBytes = gzipSync(readFileSync(join(dist, 'engine.mjs')), { level: 9 }).length;
  return result;
}

function numpyRun(samples) {
  // Debian's python has numpy; OpenBLAS tuning variables (set on some machines for older OpenBLAS
  // builds) are dropped for this command only.
  const env = { ...process.env };
  delete env.OPENBLAS_CORETYPE;
  delete env.OPENBLAS_L2_SIZE;
  const dir = mkdtempSync(join(tmpdir(), 'bench-'));
  const file = join(dir, 'numpy.json');
  run('/usr/bin/python3', [join(here, 'bench_numpy.py'), '--samples', String(samples), '--json', file], { env });
  return JSON.parse(readFileSync(file, 'utf8'));
}

const fmtMs = (ms) => {
  if (ms === undefined) return '—';
  if (ms >= 100) return `${ms.toFixed(0)} ms`;
  if (ms >= 1) return `${ms.toFixed(2)} ms`;
  return `${(ms * 1000).toFixed(1)} µs`;
};
const fmtRatio = (a, b) => (a === undefined || b === undefined ? '—' : `${(a / b).toFixed(2)}×`);
const kib = (bytes) => `${(bytes / 1024).toFixed(1)} KiB`;

function markdown(results, values) {
  const { machine, native, wasm, js, numpy, variants } = results;
  const m = (impl, key) => impl?.kernels?.[key]?.medianMs;
  const lines = [];
  lines.push('# Engine benchmarks', '');
  lines.push('Written by `tests/bench/run-benchmarks.mjs` (do not edit by hand; rerun it). Medians of repeated');
  lines.push('runs in one session on one shared machine: read the ratios, not the absolute times. Raw figures:');
  lines.push('`tests/bench/results/engine.json`.', '');
  lines.push('## Machine', '');
  lines.push(`- CPU: ${machine.cpu} (${machine.cores} cores; SIMD: ${machine.simd}), ${machine.memoryGiB} GiB memory;`);
  lines.push(`  load average at the start ${machine.loadAverage} (the machine is shared).`);
  lines.push(
    `- Native: ${machine.gxx}, \`-O3\` (CMake Release), Eigen 3.4, Google Benchmark ${native.context?.library_version ?? ''}.`.replace(
      ' .',
      '.',
    ),
  );
  const emscripten = /\d+\.\d+\.\d+/.exec(machine.emxx)?.[0] ?? machine.emxx;
  lines.push(
    `- WASM: Emscripten ${emscripten} (Release: -O3, -msimd128, -fwasm-exceptions); run in Node ${machine.node} (V8 ${machine.v8}).`,
  );
  lines.push(
    `- numpy ${numpy.numpy} on Python ${numpy.python} (Debian's /usr/bin/python3), BLAS: ${[...new Set(String(numpy.blas).split(', '))].join(', ')}.`,
  );
  lines.push(`- Plain JavaScript: the same Node/V8.`, '');
  lines.push('## How to rerun', '');
  lines.push('```sh');
  lines.push('cmake --preset native && cmake --build --preset native --target bench_engine');
  lines.push('build-scripts/build                      # dist/engine.mjs + engine.wasm');
  lines.push('node tests/bench/run-benchmarks.mjs      # about two minutes; rewrites this file');
  lines.push('```', '');
  lines.push(
    'Each implementation runs in its own process. Native: Google Benchmark, ' +
      `${native.kernels[KERNELS[0][0]]?.repetitions} repetitions, median of the repetition means. WASM, plain JS and numpy: ` +
      `a warm-up, then ${wasm.kernels[KERNELS[0][0]]?.samples} samples, each the mean of a batch of calls lasting ≥ 10 ms; the median sample.`,
  );
  lines.push('The WASM times include crossing the boundary (arguments copied into the module, results copied out');
  lines.push('into a fresh Float64Array), as the page pays it; native times are the C++ call alone.', '');
  lines.push('## Kernels side by side', '');
  lines.push('| kernel | size | native | WASM | numpy | plain JS | WASM / native | numpy / WASM | JS / WASM |');
  lines.push('| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
  for (const [key, label, size] of KERNELS) {
    const [n, w, p, j] = [m(native, key), m(wasm, key), m(numpy, key), m(js, key)];
    lines.push(
      `| ${label} | ${size} | ${fmtMs(n)} | ${fmtMs(w)} | ${fmtMs(p)} | ${fmtMs(j)} | ${fmtRatio(w, n)} | ${fmtRatio(p, w)} | ${fmtRatio(j, w)} |`,
    );
  }
  lines.push('');
  const notes = { ...(js.notes ?? {}) };
  const wasmNotes = wasm.notes ?? {};
  if (Object.keys(wasmNotes).length)
    lines.push(
      `WASM notes: ${Object.entries(wasmNotes)
        .map(([k, v]) => `${k}: ${v}`)
        .join('; ')}.`,
    );
  if (Object.keys(notes).length) {
    lines.push('Plain JS: the demo layer looks its word vectors up in a Map of fixed random vectors (the engine and');
    lines.push("numpy derive each from MD5 and numpy's generator, as the lesson does); the layer's work is the same.");
  }
  lines.push('');
  lines.push('## Goals', '');
  const rows = KERNELS.map(([key, label, size]) => ({
    key,
    label,
    size,
    n: m(native, key),
    w: m(wasm, key),
    p: m(numpy, key),
    j: m(js, key),
  }));
  const within = rows.filter((r) => r.w !== undefined && r.n !== undefined);
  const slowWasm = within.filter((r) => r.w / r.n > GOAL_WASM_OVER_NATIVE);
  lines.push(
    `- WASM within ${GOAL_WASM_OVER_NATIVE}× of native: ${slowWasm.length === 0 ? 'met on every kernel' : `missed on ${slowWasm.map((r) => `${r.label} ${r.size} (${fmtRatio(r.w, r.n)})`).join(', ')}`}.`,
  );
  const slowerThanNumpy = rows.filter((r) => r.w !== undefined && r.p !== undefined && r.w >= r.p);
  lines.push(
    `- WASM faster than numpy: ${slowerThanNumpy.length === 0 ? 'on every kernel' : `not on ${slowerThanNumpy.map((r) => `${r.label} ${r.size}`).join(', ')}`}.`,
  );
  const slowerThanJs = rows.filter((r) => r.w !== undefined && r.j !== undefined && r.w >= r.j);
  lines.push(
    `- WASM faster than plain JS: ${slowerThanJs.length === 0 ? 'on every kernel' : `not on ${slowerThanJs.map((r) => `${r.label} ${r.size}`).join(', ')}`}.`,
  );
  lines.push('');
  lines.push('Where WASM / native misses 1.3×: the WASM figure includes the boundary, the native one does not. A');
  lines.push('4,096 × 512 table leaves the module as a 16 MiB copy into a fresh Float64Array; RoPE copies its');
  lines.push('4,096 × 128 input in (a JavaScript array into a std::vector, then into an Eigen matrix) and the');
  lines.push('result out; the extension curves are a few microseconds of arithmetic against an object, three arrays');
  lines.push('and argument checks. Inside the module, the kernels also run without native SSE2/AVX: Eigen 3.4');
  lines.push('has no SIMD128 path, so its matrix products are scalar (attention, the demo layer).', '');
  lines.push('## The sinusoidal table against the memory-bandwidth floor (native)', '');
  lines.push('sin and cos used to be the whole cost. The engine now calls them only for the first 32 rows and the');
  lines.push("first row of every 32-row block; every other row is its block's first row turned by one of the first");
  lines.push('32 rows (angle addition, `cpp/src/angle_addition.hpp`), four multiplications and two additions per');
  lines.push('pair. "fill" allocates a matrix of the same size and writes one value into it (first-touch page');
  lines.push('faults included, as for the table); "reused fill" writes the same bytes into memory already mapped.', '');
  lines.push('| table | sin/cos every entry | engine | fill (fresh) | reused fill | engine / fill | speed-up |');
  lines.push('| --- | ---: | ---: | ---: | ---: | ---: | ---: |');
  for (const size of ['32768x128', '4096x512']) {
    const plainMs = m(native, `sinusoidal_plain_${size}`);
    const fast = m(native, `sinusoidal_${size}`);
    const fill = m(native, `fill_fresh_${size}`);
    const reused = m(native, `fill_reused_${size}`);
    const bytes =
      size
        .split('x')
        .map(Number)
        .reduce((a, b) => a * b) * 8;
    const gbps = reused ? ` (${(bytes / (reused / 1000) / 1e9).toFixed(1)} GB/s)` : '';
    lines.push(
      `| ${size.replace('x', ' × ')} | ${fmtMs(plainMs)} | ${fmtMs(fast)} | ${fmtMs(fill)} | ${fmtMs(reused)}${gbps} | ${fmtRatio(fast, fill)} | ${fmtRatio(plainMs, fast)} |`,
    );
  }
  const ropePlain = m(native, 'rope_plain_4096x128');
  const ropeFast = m(native, 'rope_sequence_4096x128');
  lines.push('');
  lines.push(
    `RoPE over a 4,096 × 128 sequence, the same idea: ${fmtMs(ropePlain)} with sin and cos per entry (\`apply_rope\``,
  );
  lines.push(
    `with explicit positions), ${fmtMs(ropeFast)} with angle addition (\`apply_rope_sequence\`): ${fmtRatio(ropePlain, ropeFast)}.`,
    '',
  );
  lines.push(
    'Accuracy (tested in `tests/cpp/test_sinusoidal_fast.cpp`): |fast − sin/cos per entry| ≤ 2^−52·p·ω + 8·2^−53',
  );
  lines.push(
    'for position p and pair speed ω (≤ 6.3e-12 in the 32,768 × 128 table, ≤ 1e-15 for p·ω ≤ 1). The first term is',
  );
  lines.push('the rounding of the angle p·ω itself, which both computations carry: against sin(p·ω) evaluated in long');
  lines.push(
    'double, each is within 2^−53·p·ω + 8·2^−53, and nothing accumulates along the table, since every 32 rows',
  );
  lines.push(
    "start again from sin and cos. The first 32 rows, and so the lesson's worked numbers, are bit-identical.",
    '',
  );
  if (variants.length) {
    lines.push('## WASM build variants', '');
    lines.push('Each variant is the engine and its bindings built with the flags named, measured in the same session');
    lines.push(
      `(${values.variantSamples} samples each). Sizes are the .wasm and the JavaScript glue, uncompressed and gzip -9.`,
    );
    lines.push('Budget: engine.wasm ≤ 150 KB uncompressed.', '');
    for (const v of variants) if (v.description) lines.push(`- ${v.name}: ${v.description}`);
    lines.push('');
    const header = [
      'variant',
      '.wasm',
      '.wasm gz',
      '.mjs',
      ...KERNELS.map(([key, label, size]) => `${label.split(' (')[0]} ${size}`),
    ];
    lines.push(`| ${header.join(' | ')} |`);
    lines.push(`| ${header.map((_, i) => (i === 0 ? '---' : '---:')).join(' | ')} |`);
    for (const v of variants) {
      const cells = KERNELS.map(([key]) => {
        const t = m(v.result, key);
        const n = m(native, key);
        return t === undefined ? '—' : `${fmtMs(t)} (${fmtRatio(t, n)})`;
      });
      lines.push(
        `| ${v.name} | ${kib(v.result.wasmBytes)} | ${kib(v.result.wasmGzipBytes)} | ${kib(v.result.jsBytes)} | ${cells.join(' | ')} |`,
      );
    }
    lines.push('', 'In parentheses: the ratio to native.', '');
  }
  lines.push('## Cross-checks', '');
  lines.push('The plain-JS kernels are checked against the WASM engine before timing (same work, same numbers):', '');
  for (const c of wasm.crossCheck ?? []) {
    lines.push(
      `- ${c.name}: max |JS − WASM| = ${c.difference.toExponential(2)} (tolerance ${c.tolerance}) ${c.ok ? 'ok' : 'FAILED'}`,
    );
  }
  if (numpy.order_similarities_100) {
    const s = numpy.order_similarities_100;
    lines.push(
      `- numpy's order similarities of the two 100-word sentences: none ${s.none.toFixed(15)}, sinusoidal ${s.sinusoidal.toFixed(15)}, RoPE ${s.rope.toFixed(15)}, causal ${s.causal.toFixed(15)}.`,
    );
  }
  lines.push('');
  return lines.join('\n');
}

/** --phone: the lesson on a throttled phone (phone-interaction.mjs writes results/phone-interaction.json). */
function runPhoneBenchmark(dist) {
  console.error('phone (360 px, 4× CPU throttle) …');
  run(process.execPath, [join(here, 'phone-interaction.mjs'), '--dist', dist], {
    stdio: ['ignore', 'inherit', 'inherit'],
  });
}

async function main() {
  const { values } = parseArgs({
    options: {
      native: { type: 'string', default: join(repo, 'build', 'native', 'tests', 'bench_engine') },
      dist: { type: 'string', default: join(repo, 'dist') },
      samples: { type: 'string', default: '15' },
      'variant-samples': { type: 'string', default: '5' },
      repetitions: { type: 'string', default: '9' },
      variant: { type: 'string', multiple: true, default: [] },
      markdown: { type: 'string', default: join(repo, 'BENCHMARKS.md') },
      json: { type: 'string', default: join(here, 'results', 'engine.json') },
      render: { type: 'boolean', default: false },
      phone: { type: 'boolean', default: false },
    },
  });
  if (values.phone) runPhoneBenchmark(values.dist);
  if (values.render) {
    // Rewrites the Markdown from the saved JSON without measuring again.
    const saved = JSON.parse(readFileSync(values.json, 'utf8'));
    writeFileSync(values.markdown, markdown(saved, { variantSamples: saved.variantSamples }));
    return;
  }
  for (const [what, path] of [
    ['native benchmark', values.native],
    ['WASM module', join(values.dist, 'engine.wasm')],
  ]) {
    if (!existsSync(path)) throw new Error(`${what} not found at ${path}: build it first (see BENCHMARKS.md)`);
  }
  const samples = Number(values.samples);
  const results = {
    date: new Date().toISOString(),
    machine: describeMachine(),
    variantSamples: Number(values['variant-samples']),
  };
  console.error('native …');
  results.native = nativeMedians(values.native, Number(values.repetitions));
  console.error('wasm …');
  results.wasm = wasmRun(values.dist, samples);
  results.variants = values.variant.map((spec) => {
    const [name, dir, description] = spec.split('=');
    console.error(`wasm variant ${name} …`);
    return { name, description, dir: relative(repo, dir), result: wasmRun(dir, Number(values['variant-samples'])) };
  });
  console.error('plain js …');
  results.js = jsonFromChild([
    process.execPath,
    join(here, 'bench-engine.mjs'),
    '--impl',
    'js',
    '--samples',
    String(samples),
  ]);
  console.error('numpy …');
  results.numpy = numpyRun(samples);
  mkdirSync(dirname(values.json), { recursive: true });
  writeFileSync(values.json, `${JSON.stringify(results, null, 2)}\n`);
  writeFileSync(values.markdown, markdown(results, { variantSamples: Number(values['variant-samples']) }));
  console.error(`wrote ${relative(repo, values.markdown)} and ${relative(repo, values.json)}`);
}

await main();
