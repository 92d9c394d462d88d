// Runs the engine benchmarks in one go — native (Google Benchmark), WASM (Node/V8), numpy and
// plain JavaScript — and writes BENCHMARKS.md and tests/bench/results/engine.json.
// Usage: node tests/bench/run-benchmarks.mjs [--native BIN] [--dist DIR] [--samples N] [--rounds N]
//          [--repetitions N] [--variant NAME=DIR=DESCRIPTION …] [--variant-samples N] [--markdown FILE]
//          [--json FILE] [--render]   (--render: rewrite the Markdown from the saved JSON only)
//          [--phone]   (also the throttled-phone page benchmark, phone-interaction.mjs)
//          [--twins]   (also the figures against their uPlot twins, twin-steps.mjs)
// --variant adds more WASM builds (a dist-like folder with engine.mjs + engine.wasm) to the
// flags table: sizes and medians per variant.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, freemem, tmpdir, totalmem } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { gzipSync } from 'node:zlib';
import { quantile } from './measuring.mjs';
import { LAB_TABLE_FACTORS, LAB_VARIANTS, labCell, loadLabResults } from '../../web/site-builder/lab-results.mjs';

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
    wasmFlags: wasmFlags(),
  };
}

// The flags the measured module was built with, from the wasm preset's CMake cache.
function wasmFlags() {
  try {
    const cache = readFileSync(join(repo, 'build', 'wasm', 'CMakeCache.txt'), 'utf8');
    const get = (key) => new RegExp(`^${key}:[A-Z]+=(.*)$`, 'm').exec(cache)?.[1]?.trim() ?? '';
    const type = get('CMAKE_BUILD_TYPE');
    return `${type}: ${[get(`CMAKE_CXX_FLAGS_${type.toUpperCase()}`), get('POSITIONAL_WASM_SIMD'), get('POSITIONAL_WASM_EXCEPTIONS')].filter(Boolean).join(' ')}`;
  } catch {
    return 'unknown (no build/wasm/CMakeCache.txt)';
  }
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

const median = (xs) => {
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

/** One result per implementation from its rounds: the last round's details, medians of the rounds' medians. */
function combineRounds(list) {
  const out = { ...list[list.length - 1] };
  for (const section of ['kernels', 'views', 'reused', 'alone', 'fills']) {
    if (!out[section]) continue;
    out[section] = {};
    for (const key of Object.keys(list[list.length - 1][section])) {
      const medians = list.map((r) => r[section]?.[key]?.medianMs).filter((x) => x !== undefined);
      out[section][key] = {
        ...list[list.length - 1][section][key],
        medianMs: median(medians),
        roundMediansMs: medians,
        // The least disturbed figure: the fastest sample of any round (native: the fastest round's median).
        fastestMs: Math.min(...list.map((r) => r[section]?.[key]?.minMs ?? r[section]?.[key]?.medianMs ?? Infinity)),
      };
    }
  }
  return out;
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

// The kernels whose result is a large fresh array, and the fresh fill: numpy runs them a second time
// with its huge-page request turned off (NUMPY_MADVISE_HUGEPAGE=0), the pages a JavaScript array gets.
const LARGE_RESULTS = ['sinusoidal_32768x128', 'sinusoidal_4096x512', 'rope_sequence_4096x128', 'fresh_32768x128'];

function numpyRun(samples, { smallPages = false } = {}) {
  // Debian's python has numpy; OpenBLAS tuning variables (set on some machines for older OpenBLAS
  // builds) are dropped for this command only.
  const env = { ...process.env };
  delete env.OPENBLAS_CORETYPE;
  delete env.OPENBLAS_L2_SIZE;
  delete env.NUMPY_MADVISE_HUGEPAGE;
  if (smallPages) env.NUMPY_MADVISE_HUGEPAGE = '0';
  const dir = mkdtempSync(join(tmpdir(), 'bench-'));
  const file = join(dir, 'numpy.json');
  const only = smallPages ? ['--only', LARGE_RESULTS.join(',')] : [];
  run('/usr/bin/python3', [join(here, 'bench_numpy.py'), '--samples', String(samples), ...only, '--json', file], {
    env,
  });
  const result = JSON.parse(readFileSync(file, 'utf8'));
  // The Debian package each loaded BLAS/LAPACK file comes from (reference BLAS, OpenBLAS, BLIS, …).
  result.blas.packages = (result.blas.loaded ?? []).map((path) => ({
    path,
    package: firstLine('dpkg-query', ['-S', path]).split(':')[0] || 'unknown',
  }));
  return result;
}

const fmtMs = (ms) => {
  if (ms === undefined) return '—';
  if (ms >= 100) return `${ms.toFixed(0)} ms`;
  if (ms >= 1) return `${ms.toFixed(2)} ms`;
  return `${(ms * 1000).toFixed(1)} µs`;
};
const fmtRatio = (a, b) => (a === undefined || b === undefined ? '—' : `${(a / b).toFixed(2)}×`);
const kib = (bytes) => `${(bytes / 1024).toFixed(1)} KiB`;

function describeBlas(blas) {
  if (typeof blas === 'string') return `BLAS: ${blas}.`;
  const loaded = (blas.packages ?? []).map((p) => `\`${p.path}\` (Debian package ${p.package})`).join(', ');
  const openblas = blas.openblas
    ? ` OpenBLAS reports \`${blas.openblas.config}\`, core ${blas.openblas.core}.`
    : ' No OpenBLAS is loaded, so the OPENBLAS_* variables (unset for this command anyway) change nothing.';
  const tpc = blas.threadpoolctl
    ? ` threadpoolctl: ${JSON.stringify(blas.threadpoolctl)}.`
    : ' (threadpoolctl is not installed.)';
  return `Built against \`${blas.built}\` (numpy.show_config's blas_opt_info); loaded in the process (/proc/self/maps): ${loaded}.${openblas}${tpc}`;
}

// Why numpy's fresh arrays are cheaper than a fresh Float64Array: the huge pages it asks for.
function hugePagesSection(lines, results) {
  const { wasm, js, numpy, numpySmallPages: small } = results;
  if (!small?.kernels) return;
  const memory = numpy.memory ?? {};
  const rows = [
    ...LARGE_RESULTS.filter((key) => small.kernels[key]).map((key) => {
      const [, label, size] = KERNELS.find(([k]) => k === key);
      return {
        label,
        size,
        who: 'WASM + copy',
        mine: wasm.kernels?.[key],
        big: numpy.kernels?.[key],
        small: small.kernels[key],
      };
    }),
    {
      label: 'a fresh array, filled (no kernel)',
      size: '32,768 × 128',
      who: 'plain JS',
      mine: js.fills?.fresh_32768x128,
      big: numpy.fills?.fresh_32768x128,
      small: small.fills?.fresh_32768x128,
    },
  ];
  lines.push("## Where numpy's fresh arrays win: huge pages", '');
  lines.push(
    'numpy asks the kernel for huge pages for every array of 4 MiB or more (`madvise(MADV_HUGEPAGE)` on Linux',
  );
  lines.push('kernels 4.6 and newer: "madvise hugepage on Linux" in numpy\'s reference, "Global state").');
  lines.push(
    `Here numpy's request is ${memory.numpyMadvisesHugepages ? 'on' : memory.numpyMadvisesHugepages === false ? 'off' : 'unknown'} and the kernel's transparent huge pages are \`${memory.transparentHugepage ?? 'unknown'}\`, so a`,
  );
  lines.push(
    'fresh 32 MiB array takes 16 page faults of 2 MiB instead of 8,192 of 4 KiB. V8 makes no such request for',
  );
  lines.push("a Float64Array's memory, and JavaScript cannot ask for one. The same numpy with its request turned off");
  lines.push('(`NUMPY_MADVISE_HUGEPAGE=0`), measured in the same rounds, gets the pages a JavaScript array gets:', '');
  lines.push(
    '| result | size | JavaScript | numpy | numpy, 4 KiB pages | numpy / JavaScript | numpy 4 KiB / JavaScript |',
  );
  lines.push('| --- | --- | ---: | ---: | ---: | ---: | ---: |');
  for (const r of rows) {
    const [m, b, q] = [r.mine?.medianMs, r.big?.medianMs, r.small?.medianMs];
    lines.push(
      `| ${r.label} | ${r.size} | ${fmtMs(m)} (${r.who}) | ${fmtMs(b)} | ${fmtMs(q)} | ${fmtRatio(b, m)} | ${fmtRatio(q, m)} |`,
    );
  }
  lines.push('', 'Medians of the rounds; > 1× means JavaScript is faster.', '');
  const slower = rows.filter(
    (r) => r.who === 'WASM + copy' && r.mine && r.small && r.mine.medianMs >= r.small.medianMs,
  );
  lines.push(
    `With the copy, at least as fast as numpy on the same 4 KiB pages: ${slower.length === 0 ? 'on every large table' : `not on ${slower.map((r) => `${r.label} ${r.size}`).join(', ')}`}.`,
    '',
  );
}

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
  lines.push(
    `  load average at the start ${machine.loadAverage}${machine.loadAverageEnd ? `, at the end ${machine.loadAverageEnd}` : ''} (the machine is shared with other users: 2 cores, and the load counts runnable processes, so above 2 every figure is slowed and noisier).`,
  );
  lines.push(
    `- Native: ${machine.gxx}, \`-O3\` (CMake Release), Eigen 3.4, Google Benchmark ${native.context?.library_version ?? ''}.`.replace(
      ' .',
      '.',
    ),
  );
  const emscripten = /\d+\.\d+\.\d+/.exec(machine.emxx)?.[0] ?? machine.emxx;
  lines.push(
    `- WASM: Emscripten ${emscripten} (${machine.wasmFlags ?? 'Release: -O3 -msimd128 -fwasm-exceptions'}); run in Node ${machine.node} (V8 ${machine.v8}).`,
  );
  lines.push(
    `- numpy ${numpy.numpy} on Python ${numpy.python} (Debian's /usr/bin/python3). ${describeBlas(numpy.blas)}`,
  );
  lines.push(
    '  The module uses WebAssembly SIMD (-msimd128); the page suite (`tests/browser/page.test.mjs`) loads and runs',
  );
  lines.push('  it in every target browser: Chromium, Firefox ESR and WebKitGTK.');
  lines.push(`- Plain JavaScript: the same Node/V8.`, '');
  lines.push('## How to rerun', '');
  lines.push('```sh');
  lines.push('cmake --preset native && cmake --build --preset native --target bench_engine');
  lines.push('build-scripts/build                      # dist/engine.mjs + engine.wasm');
  lines.push('node tests/bench/run-benchmarks.mjs      # a minute or two; rewrites this file');
  lines.push('# numpy alone: env -u OPENBLAS_CORETYPE -u OPENBLAS_L2_SIZE /usr/bin/python3 tests/bench/bench_numpy.py');
  lines.push('```', '');
  lines.push(
    'Each implementation runs in its own process, and they take turns: ' +
      `${results.rounds ?? 1} rounds of native, WASM, plain JS, numpy in one run. Native: Google Benchmark, ` +
      `${native.kernels[KERNELS[0][0]]?.repetitions} repetitions, median of the repetition means. WASM, plain JS and numpy: ` +
      `a warm-up, then ${wasm.kernels[KERNELS[0][0]]?.samples} samples, each the mean of a batch of calls lasting ≥ 10 ms; the median sample. ` +
      'Each figure is the median of its rounds (every round in `tests/bench/results/engine.json`, `roundMediansMs`).',
  );
  lines.push('Columns, all measured in this one run:', '');
  lines.push('- **native**: the C++ call (g++ -O3), a fresh Eigen matrix per call (first-touch page faults included).');
  lines.push(
    '- **WASM kernel (view)**: `engine.views.…` — the kernel in the module, the arguments checked and copied in,',
  );
  lines.push("  the result left in the module's memory and handed back as a Float64Array view (no copy out). There");
  lines.push(
    '  is no separate "kernel only" figure for the tables: a view call is the kernel plus one Embind call and',
  );
  lines.push("  the facade's checks; the sinusoidal table has no array argument, so its view figure is the kernel.");
  lines.push(
    "  The curves take the scratch path (`cpp/bindings/bind_scratch.cpp`): their view is the facade's checks,",
  );
  lines.push('  the positions written into the module, the kernel called as a plain export, and no copy out.');
  lines.push(
    '- **WASM + copy**: the function as the page calls it (`engine.sinusoidalEncoding`, …): the result copied',
  );
  lines.push('  out into a fresh Float64Array.');
  lines.push(
    '- **WASM into**: `engine.into.…`, the result written into a Float64Array the caller allocated once, before timing.',
  );
  lines.push(
    '- **plain JS** and **numpy**: the same computation in plain JavaScript (`plain-js-kernels.mjs`) and in numpy',
  );
  lines.push('  (`tests/reference/numpy_reference.py`, the module the fixtures come from).', '');
  lines.push('## Kernels side by side', '');
  lines.push('Ratios first (> 1× means the engine is faster, except the first two, where ≤ 1.3× is the goal).', '');
  const rowsWith = (stat) =>
    KERNELS.map(([key, label, size]) => ({
      key,
      label,
      size,
      n: native.kernels?.[key]?.[stat],
      v: wasm.views?.[key]?.[stat],
      c: wasm.kernels?.[key]?.[stat],
      r: wasm.reused?.[key]?.[stat],
      p: numpy.kernels?.[key]?.[stat],
      j: js.kernels?.[key]?.[stat],
      a: wasm.alone?.[key]?.[stat],
    }));
  const table = (rows) => {
    lines.push(
      '| kernel | size | view / native | copy / native | into / native | numpy / view | numpy / copy | numpy / into | JS / view | JS / copy | native | WASM view | WASM + copy | WASM into | plain JS | numpy |',
    );
    lines.push(
      '| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
    );
    for (const r of rows) {
      lines.push(
        `| ${r.label} | ${r.size} | ${fmtRatio(r.v, r.n)} | ${fmtRatio(r.c, r.n)} | ${fmtRatio(r.r, r.n)} | ${fmtRatio(r.p, r.v)} | ${fmtRatio(r.p, r.c)} | ${fmtRatio(r.p, r.r)} | ${fmtRatio(r.j, r.v)} | ${fmtRatio(r.j, r.c)} | ${fmtMs(r.n)} | ${fmtMs(r.v)} | ${fmtMs(r.c)} | ${fmtMs(r.r)} | ${fmtMs(r.j)} | ${fmtMs(r.p)} |`,
      );
    }
  };
  const rowsFor = rowsWith('medianMs');
  lines.push('Medians (the median of the rounds):', '');
  table(rowsFor);
  if (wasm.kernels?.[KERNELS[0][0]]?.fastestMs !== undefined) {
    lines.push('', 'Fastest (the least disturbed figure of the run: the fastest sample of any round; native: the');
    lines.push("fastest round's median). On a loaded shared machine these are closer to each path's own cost:", '');
    table(rowsWith('fastestMs'));
  }
  lines.push(
    '',
    '— : the path does not exist for that kernel (views cover the sinusoidal tables, RoPE, attention and the curves).',
    '',
  );
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
  // The engine as a caller can use it: the view where one exists, otherwise the copying function.
  const best = (r) => (r.v !== undefined ? r.v : r.c);
  const list = (rows, show) => rows.map((r) => `${r.label} ${r.size}${show ? ` (${show(r)})` : ''}`).join(', ');
  const goals = (rows, title) => {
    lines.push(`${title}:`, '');
    // Each path a caller can take: its time, how the goals name it, and what "every kernel" means for it.
    const paths = [
      {
        time: best,
        native: 'The kernel in WASM within {goal}× of native (the view where there is one, else with the copy)',
        faster: 'The engine (view where there is one) at least as fast as',
        every: 'every kernel',
      },
      {
        time: (r) => r.c,
        native: 'With the copy out, within {goal}× of native',
        faster: 'With the copy, at least as fast as',
        every: 'every kernel',
      },
      {
        time: (r) => r.r,
        native: 'Into a kept array (engine.into), within {goal}× of native',
        faster: 'Into a kept array, at least as fast as',
        every: 'every kernel it has',
      },
    ];
    const timed = (path, other) => rows.filter((r) => path.time(r) !== undefined && other(r) !== undefined);
    paths.forEach((path, i) => {
      const slow = timed(path, (r) => r.n).filter((r) => path.time(r) / r.n > GOAL_WASM_OVER_NATIVE);
      lines.push(
        `- ${path.native.replace('{goal}', GOAL_WASM_OVER_NATIVE)}: ${slow.length === 0 ? `met on ${path.every}` : `missed on ${list(slow, (r) => fmtRatio(path.time(r), r.n))}`}.`,
      );
      if (i > 0) return;
      for (const r of rows.filter((row) => row.a !== undefined && row.n !== undefined)) {
        lines.push(
          `- ${r.label} ${r.size}, the kernel alone (the module's export with the positions already in its memory, no facade): ${fmtMs(r.a)}, ${fmtRatio(r.a, r.n)} native: ${r.a / r.n <= GOAL_WASM_OVER_NATIVE ? 'within' : 'not within'} ${GOAL_WASM_OVER_NATIVE}×.`,
        );
      }
    });
    for (const [who, key] of [
      ['numpy', 'p'],
      ['plain JS', 'j'],
    ]) {
      for (const path of paths) {
        const slower = timed(path, (r) => r[key]).filter((r) => path.time(r) >= r[key]);
        lines.push(
          `- ${path.faster} ${who}: ${slower.length === 0 ? `on ${path.every}` : `not on ${list(slower, (r) => `${fmtMs(path.time(r))} against ${fmtMs(r[key])}`)}`}.`,
        );
      }
    }
    lines.push('');
  };
  goals(rowsFor, 'On the medians');
  if (wasm.kernels?.[KERNELS[0][0]]?.fastestMs !== undefined) goals(rowsWith('fastestMs'), 'On the fastest figures');
  lines.push(
    "Where the copy costs: the copy out is one `TypedArray.prototype.slice` of the module's memory",
    '(`cpp/bindings/js_interop.hpp`), but into a fresh Float64Array, and a fresh 32 MiB array is 8,192 new',
    'pages the system has to map and zero on first touch — the same cost as native\'s "fill (fresh)" below.',
    'Inside the module the memory is reused from call to call, which is why the view can beat the native',
    'call (a fresh matrix each time). The "WASM into" column is the copy without the fresh allocation.',
    'No copying function can avoid that fresh allocation (it is what "a new Float64Array per call" means),',
    'so where numpy or plain JS beat "WASM + copy" on the large tables, the view or `engine.into` (the',
    'result written into an array the caller keeps) is the answer, not a faster copy. (numpy pays for its fresh arrays too, but less: see',
    '"Where numpy\'s fresh arrays win" below.)',
    '',
  );
  lines.push(
    'The context-extension curves are 3 × 512 numbers, and a microsecond is the scale of everything',
    'around their kernel. They take the scratch path (`cpp/bindings/bind_scratch.cpp`): the facade writes',
    "the positions into a block of the module's memory and calls the kernel as a plain WebAssembly export",
    'with number arguments. Through Embind, with JavaScript values for arguments and result, each call',
    "made a JavaScript round trip per argument check and per property of the result, and Embind's invoker",
    '(no eval in this build, so its generic one) costs about 0.3 µs by itself: a call took 8.1 µs that',
    'way, in the run before this path, against 2.4 µs native. The kernel (`context_extension_curves_into`,',
    '`cpp/src/rope_scaling.cpp`) is now one pass that',
    'writes the three rows and one overflow check of the largest |position| (rounding is monotonic, so',
    'it overflows exactly when some position does), three `pow`, and a scan for non-finite positions that',
    "runs two at a time in WebAssembly. What is left between the kernel and plain JS is V8's own cost of",
    'a fresh 12 KiB Float64Array (about 2 µs here, the same `new Float64Array` plain JS pays): the view,',
    'or `engine.into` (an array the caller keeps), is the path without it.',
    '',
  );
  lines.push(
    'Inside the module there is no native SSE2/AVX, and Eigen 3.4 has no SIMD128 path: its matrix',
    'products would run scalar. So in WebAssembly the matrix products (attention, the demo layer) are a',
    'SIMD128 kernel of their own (`cpp/src/matrix_product.hpp`), each entry the sum over k in order; the',
    "tables' angle addition and RoPE's rotation are written with SIMD128 intrinsics too",
    '(`cpp/src/angle_addition.hpp`), to the same bits as the scalar formulas.',
    '',
  );
  hugePagesSection(lines, results);
  lines.push('## The sinusoidal table against the memory-bandwidth floor (native)', '');
  lines.push(
    'sin and cos used to be the whole cost. The engine now calls them only for the first 32 rows and the',
    "first row of every 32-row block; every other row is its block's first row turned by one of the first",
    '32 rows (angle addition, `cpp/src/angle_addition.hpp`), four multiplications and two additions per',
    'pair. "fill" allocates a matrix of the same size and writes one value into it (first-touch page',
    'faults included, as for the table); "reused fill" writes the same bytes into memory already mapped.',
    '',
  );
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
    'Accuracy (tested in `tests/cpp/test_sinusoidal.cpp`, bound in `tests/cpp/angle_addition_bound.hpp`): |fast − sin/cos per entry| ≤ 2^−52·p·ω + 8·2^−53',
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
  lines.push(...phoneSection(join(here, 'results', 'phone-interaction.json')));
  lines.push(...headedPhoneSection(join(here, 'results', 'phone-interaction-headed.json')));
  lines.push(...twinSection(join(here, 'results', 'twin-steps.json')));
  lines.push(...lengthLabSection(loadLabResults()));
  lines.push(...designSection(JSON.parse(readFileSync(join(here, 'results', 'design-measurements.json'), 'utf8'))));
  lines.push('## Cross-checks', '');
  lines.push(
    'The plain-JS kernels are checked against the WASM engine, and the views against the copies, before timing (same work, same numbers):',
    '',
  );
  for (const c of wasm.crossCheck ?? []) {
    lines.push(
      `- ${c.name}: max |${c.compared ?? 'JS − WASM'}| = ${c.difference.toExponential(2)} (tolerance ${c.tolerance}) ${c.ok ? 'ok' : 'FAILED'}`,
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

/** The length lab's tasks, in the lesson's order. */
const LAB_TASKS = ['lookup', 'copy', 'last-write'];

/**
 * The length lab's results section from results/length-lab.json: how it was run, how far the seeds
 * spread, and every task × variant's median at 1×, 2×, 4× and 8× the trained length, per size.
 */
export function lengthLabSection(results) {
  const sizes = Object.keys(results.sizes);
  const cells = [];
  for (const size of sizes)
    for (const task of LAB_TASKS)
      for (const variant of LAB_VARIANTS)
        for (const factor of LAB_TABLE_FACTORS)
          cells.push({
            key: `${size}/${task}/${variant}/${factor}`,
            ...labCell(results, `${size}/${task}/${variant}/${factor}`),
          });
  const share = (test) => `${Math.round((100 * cells.filter(test).length) / cells.length)}%`;
  const widest = cells.reduce((a, b) => (b.q3 - b.q1 > a.q3 - a.q1 ? b : a));
  const two = (v) => v.toFixed(2);
  const config = (size) => {
    const c = results.sizes[size].config;
    return `${c.layers} layers, d ${c.d_model}, ${c.heads} heads, MLP ${c.mlp_width}, batch ${c.batch}, ${c.steps} steps, learning rate ${c.learning_rate}, trained on ${c.train_length} tokens`;
  };
  const lines = ["## The length lab's results", ''];
  lines.push(
    `From \`tests/bench/results/length-lab.json\` (seeds 0–${results.seeds - 1}, natively; written by hand in ${Math.round(results.total_seconds / 60)} minutes with \`${results.command}\`; the setup and a reading of it are in [docs/contributing.md](docs/contributing.md#the-length-labs-results)). Sizes: ${sizes.map((size) => `${size} (${config(size)})`).join('; ')}.`,
    '',
  );
  lines.push(
    `The median accuracy over the seeds at 1×, 2×, 4× and 8× the trained length. Over these ${cells.length} cells, ${share((c) => c.q3 - c.q1 < 0.1)} have a quartile range under 0.1 and ${share((c) => c.max - c.min < 0.1)} a min–max range under 0.1; the widest quartile range is ${widest.key.replaceAll('/', ' ')}× (${two(widest.q1)}–${two(widest.q3)}).`,
    '',
  );
  const header = [
    'task',
    'scheme',
    ...sizes.flatMap((size) => LAB_TABLE_FACTORS.map((f, i) => (i ? `${f}×` : `${size} ${f}×`))),
  ];
  lines.push(`| ${header.join(' | ')} |`, `| ${header.map(() => '---').join(' | ')} |`);
  for (const task of LAB_TASKS)
    for (const variant of LAB_VARIANTS) {
      const medians = sizes.flatMap((size) =>
        LAB_TABLE_FACTORS.map((f) => two(labCell(results, `${size}/${task}/${variant}/${f}`).median)),
      );
      lines.push(`| ${task} | ${variant} | ${medians.join(' | ')} |`);
    }
  lines.push('');
  return lines;
}

/**
 * The measurements behind decisions in the code, from results/design-measurements.json: where each
 * decision lives, what it is, and what was measured (the comment there keeps only the decision).
 */
export function designSection({ about, entries }) {
  const cell = (text) => text.replaceAll('|', '\\|');
  const lines = [
    '## Measurements behind the code',
    '',
    `From \`tests/bench/results/design-measurements.json\`. ${about}`,
    '',
  ];
  lines.push('| where | decision | measured |', '| --- | --- | --- |');
  for (const e of entries) lines.push(`| \`${e.where}\` | ${cell(e.decision)} | ${cell(e.measured)} |`);
  lines.push('');
  return lines;
}

// The phone goals, as ratios to what the same browser does in the same run (phone-interaction.mjs).
const GOAL_STEP_OVER_FLOOR = 1.5; // a chart step's p95 against the floor page's p95
const GOAL_DCL_OVER_SCRIPTLESS = 2; // DOMContentLoaded against the scriptless copy's
const GOAL_LONG_TASKS = 2; // long tasks after first paint

// The phone sections' cells: milliseconds, ratios, and a chart's name in the tables.
const phoneMs = (v) => (v == null ? '—' : `${Math.round(v)} ms`);
const phoneRatio = (r) => (r == null ? '—' : `${r.toFixed(2)}×`);
const phoneChart = (id) => (id === 'prose' ? 'the parameters in the prose' : id);

/** The "throttled phone" section from results/phone-interaction.json (nothing when it was never run). */
function phoneSection(path) {
  if (!existsSync(path)) return [];
  const phone = JSON.parse(readFileSync(path, 'utf8'));
  const { load, charts, floor } = phone;
  const [ms, x] = [phoneMs, phoneRatio];
  const met = (ok) => (ok ? 'met' : 'not met');
  const lines = ['## The page on a throttled phone', ''];
  lines.push(
    `From \`tests/bench/results/phone-interaction.json\` (\`node tests/bench/phone-interaction.mjs\`, or \`run-benchmarks.mjs --phone\`),`,
    `measured ${phone.when.slice(0, 10)} in ${phone.browser ? `Chromium ${phone.browser}` : 'Chromium'} at 360 × 780, CPU slowed 4×, load average ${phone.machine?.load_average_1min_at_end ?? '?'} at the end.`,
    'Every goal is a ratio to a page measured in the same run and the same browser, so a busy machine',
    'slows both sides: the load against a copy of the page with no script, each chart step against the',
    ...(floor.method === 'alone'
      ? [
          'floor (a page holding only a slider that repaints a canvas the size of the lesson’s median one,',
          'pressed on its own before the lesson’s pass and after it: only the page being pressed is open).',
        ]
      : [
          'floor (a page holding only a slider that repaints a canvas the size of the lesson’s median one,',
          'open beside the lesson and pressed a few times after each chart, so the floor is measured',
          'through the same stretch of the run as the charts).',
        ]),
    ...(phone.machine?.over_load_limit
      ? [
          `**The load average was above ${phone.machine.load_limit} (${phone.machine.load_average_1min_at_start} at the start of the presses): measured on a busy machine.**`,
        ]
      : []),
    '',
  );
  if (load.scriptless) {
    const dcl = load.dom_content_loaded_over_scriptless;
    lines.push(
      ...(load.network ? [`The loads: cold, over ${load.network}.`, ''] : []),
      '| load (median of ' + load.runs + ') | lesson | scriptless copy | ratio |',
      '| --- | ---: | ---: | ---: |',
      `| first paint | ${ms(load.first_paint_ms)} | ${ms(load.scriptless.first_paint_ms)} | ${x(load.first_paint_over_scriptless)} |`,
      `| DOMContentLoaded | ${ms(load.dom_content_loaded_ms)} | ${ms(load.scriptless.dom_content_loaded_ms)} | ${x(dcl)} |`,
      '',
      `- DOMContentLoaded within ${GOAL_DCL_OVER_SCRIPTLESS}× the scriptless copy's: ${met(dcl <= GOAL_DCL_OVER_SCRIPTLESS)} (${x(dcl)}).`,
    );
  }
  lines.push(
    `- At most ${GOAL_LONG_TASKS} long tasks after first paint: ${met(load.long_tasks_after_first_paint <= GOAL_LONG_TASKS)} (${load.long_tasks_after_first_paint}, ${ms(load.blocking_ms_after_first_paint)} blocking; every live number in at ${ms(load.live_numbers_ms)}, ${x(load.live_over_first_paint)} first paint).`,
    '',
  );
  const base = floor.median_canvas;
  lines.push(
    `Chart steps (Event Timing; an interaction under 16 ms is not reported and counts as 16). Floor: ${base.what}, ${base.interactions} presses, p50 ${ms(base.p50_ms)}, p95 ${ms(base.p95_ms)}; a number rewritten: p95 ${ms(floor.number.p95_ms)}.`,
    '',
    '| chart | interactions | p50 | p95 | p50 / floor | p95 / floor |',
    '| --- | ---: | ---: | ---: | ---: | ---: |',
  );
  const over = [];
  for (const [id, c] of Object.entries(charts)) {
    const p95 = c.p95_over_floor ?? c.p95_ms / base.p95_ms;
    if (p95 > GOAL_STEP_OVER_FLOOR) over.push(`${id} ${x(p95)}`);
    lines.push(
      `| ${phoneChart(id)} | ${c.interactions} | ${ms(c.p50_ms)} | ${ms(c.p95_ms)} | ${x(c.p50_over_floor ?? c.p50_ms / base.p50_ms)} | ${x(p95)} |`,
    );
  }
  const late = Object.entries(charts).filter(([, c]) => c.presented_late?.length);
  const exports = Object.values(charts).flatMap((c) => c.exports_ms ?? []);
  lines.push(
    '',
    `- Every chart's step p95 within ${GOAL_STEP_OVER_FLOOR}× the floor's: ${over.length ? `not met (${over.join(', ')})` : 'met'}.`,
    ...late.map(
      ([id, c]) =>
        `- Left out of ${id}'s figures: ${c.presented_late.length} interaction${c.presented_late.length === 1 ? '' : 's'} of ${c.presented_late.map(ms).join(', ')} whose frame Chromium reported only with a later input's (headless Chromium only: each ends with a later input's frame, at least 200 ms of it is neither its handlers nor a long task, and in headed Chromium the same keys reach the screen within a frame or two; see presentedLate in phone-interaction.mjs). With them its p95 is ${ms(c.p95_with_late_ms)}.`,
    ),
    ...(exports.length
      ? [
          `- Not steps, so not in the table: the ${exports.length} clicks on Download PNG and Download CSV, p50 ${ms(quantile(exports, 0.5))}, p95 ${ms(quantile(exports, 0.95))}, longest ${ms(Math.max(...exports))}.`,
        ]
      : []),
    '',
  );
  return lines;
}

/**
 * The same benchmark in headed Chromium on an X server (results/phone-interaction-headed.json, from
 * `xvfb-run -a node tests/bench/phone-interaction.mjs --headed`): frames go to a display, so Event
 * Timing waits for a real presentation. Its ratios beside the headless run's.
 */
function headedPhoneSection(path) {
  if (!existsSync(path)) return [];
  const headed = JSON.parse(readFileSync(path, 'utf8'));
  const headlessPath = join(dirname(path), 'phone-interaction.json');
  const headless = existsSync(headlessPath) ? JSON.parse(readFileSync(headlessPath, 'utf8')) : null;
  const [ms, x] = [phoneMs, phoneRatio];
  const { load, charts, floor } = headed;
  const over = Object.entries(charts).filter(([, c]) => c.p95_over_floor > GOAL_STEP_OVER_FLOOR);
  const lines = [
    '### The same in headed Chromium',
    '',
    `From \`tests/bench/results/phone-interaction-headed.json\` (\`xvfb-run -a node tests/bench/phone-interaction.mjs --headed\`), measured ${headed.when.slice(0, 10)}: the same steps in a Chromium window on an X server, whose frames go to a display. Floor: p50 ${ms(floor.median_canvas.p50_ms)}, p95 ${ms(floor.median_canvas.p95_ms)}. DOMContentLoaded ${ms(load.dom_content_loaded_ms)}, ${x(load.dom_content_loaded_over_scriptless)} the scriptless copy's; ${load.long_tasks_after_first_paint} long tasks after first paint.`,
    '',
    '| chart | p50 | p95 | p95 / floor | headless p95 / floor |',
    '| --- | ---: | ---: | ---: | ---: |',
  ];
  for (const [id, c] of Object.entries(charts))
    lines.push(
      `| ${phoneChart(id)} | ${ms(c.p50_ms)} | ${ms(c.p95_ms)} | ${x(c.p95_over_floor)} | ${x(headless?.charts[id]?.p95_over_floor)} |`,
    );
  lines.push(
    '',
    `- Every chart's step p95 within ${GOAL_STEP_OVER_FLOOR}× the floor's, headed: ${over.length ? `not met (${over.map(([id, c]) => `${id} ${x(c.p95_over_floor)}`).join(', ')})` : 'met'}.`,
    '',
  );
  return lines;
}

// The goals against the uPlot twins (twin-steps.mjs): a step's p50 and p95 at most the twin's, the
// main thread's time per step at most GOAL_MAIN_OVER_TWIN times the twin's.
const GOAL_STEP_OVER_TWIN = 1;
const GOAL_MAIN_OVER_TWIN = 1.2;

/** The "figures against their uPlot twins" section from results/twin-steps.json (nothing when it was never run). */
function twinSection(path) {
  if (!existsSync(path)) return [];
  const twins = JSON.parse(readFileSync(path, 'utf8'));
  const [ms, x] = [phoneMs, phoneRatio];
  const ms1 = (v) => (v == null ? '—' : `${v.toFixed(1)} ms`);
  const quiet = twins.load_average.runs_over_limit === 0;
  const lines = [
    '## The figures against their uPlot twins',
    '',
    `From \`tests/bench/results/twin-steps.json\` (\`${twins.command}\`, ${twins.minutes} minutes), measured ${twins.when.slice(0, 10)} in Chromium ${twins.browser}. ${twins.what}`,
    '',
    `Load average (1 minute) beside the runs: median ${twins.load_average.median}, highest ${twins.load_average.max}; ${quiet ? `no run above ${twins.load_limit}.` : `**${twins.load_average.runs_over_limit} of ${twins.runs.length} runs above ${twins.load_limit}: these figures were measured on a busy machine and are not a verdict on the goals.**`}`,
    '',
    '| figure (handle) | page | p50 | p95 | main thread / step | script | layout | style | DOM mutations / step |',
    '| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
  ];
  const names = { lesson: 'lesson', twin: 'uPlot twin', in_page_twin: 'twin in a copy of the lesson', floor: 'floor' };
  for (const [id, f] of Object.entries(twins.figures))
    for (const [kind, p] of Object.entries(f.pages))
      lines.push(
        `| ${id} (${f.handle}) | ${names[kind] ?? kind} | ${ms(p.p50_ms)} | ${ms(p.p95_ms)} | ${ms1(p.main_thread_ms)} | ${ms1(p.script_ms)} | ${ms1(p.layout_ms)} | ${ms1(p.style_ms)} | ${p.mutations_per_step} |`,
      );
  lines.push(
    '',
    '| figure | lesson / twin p50 | p95 | main thread | twin in the lesson / twin p50 | p95 | main thread | same text |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |',
  );
  const over = [];
  for (const [id, f] of Object.entries(twins.figures)) {
    const l = f.lesson_over_twin;
    const d = f.in_page_twin_over_twin;
    if (l.p50 > GOAL_STEP_OVER_TWIN || l.p95 > GOAL_STEP_OVER_TWIN || l.main_thread > GOAL_MAIN_OVER_TWIN)
      over.push(`${id} ${x(l.p50)} / ${x(l.p95)} / ${x(l.main_thread)}`);
    lines.push(
      `| ${id} | ${x(l.p50)} | ${x(l.p95)} | ${x(l.main_thread)} | ${x(d.p50)} | ${x(d.p95)} | ${x(d.main_thread)} | ${f.same_text ? 'yes' : 'no'} |`,
    );
  }
  lines.push(
    '',
    `- Every figure's step p50 and p95 at most ${x(GOAL_STEP_OVER_TWIN)} its twin's, main thread per step at most ${x(GOAL_MAIN_OVER_TWIN)}: ${over.length ? `not met (${over.join('; ')})` : 'met'}${quiet ? '' : ' (on a busy machine)'}.`,
    '- Same text: after one step, the lesson and its twin give the same description sentence and aria-valuetext.',
    '',
  );
  return lines;
}

/** --twins: each figure with a handle against its uPlot twin (twin-steps.mjs writes results/twin-steps.json). */
function runTwinBenchmark(dist) {
  console.error('figures against their uPlot twins (360 px, 4× CPU throttle) …');
  run(process.execPath, [join(here, 'twin-steps.mjs'), '--dist', dist], { stdio: ['ignore', 'inherit', 'inherit'] });
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
      samples: { type: 'string', default: '7' },
      'variant-samples': { type: 'string', default: '5' },
      repetitions: { type: 'string', default: '3' },
      rounds: { type: 'string', default: '3' },
      variant: { type: 'string', multiple: true, default: [] },
      markdown: { type: 'string', default: join(repo, 'BENCHMARKS.md') },
      json: { type: 'string', default: join(here, 'results', 'engine.json') },
      render: { type: 'boolean', default: false },
      phone: { type: 'boolean', default: false },
      twins: { type: 'boolean', default: false },
    },
  });
  if (values.phone) runPhoneBenchmark(values.dist);
  if (values.twins) runTwinBenchmark(values.dist);
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
  // Rounds: native, WASM, plain JS and numpy take turns, so that a burst of load from the other
  // users of the machine falls on every column alike. Each figure is the median of its rounds' medians.
  const rounds = Number(values.rounds);
  const perRound = { native: [], wasm: [], js: [], numpy: [], numpySmallPages: [] };
  for (let round = 1; round <= rounds; round += 1) {
    console.error(`round ${round}/${rounds}: native …`);
    perRound.native.push(nativeMedians(values.native, Number(values.repetitions)));
    console.error(`round ${round}/${rounds}: wasm …`);
    perRound.wasm.push(wasmRun(values.dist, samples));
    console.error(`round ${round}/${rounds}: plain js …`);
    perRound.js.push(
      jsonFromChild([process.execPath, join(here, 'bench-engine.mjs'), '--impl', 'js', '--samples', String(samples)]),
    );
    console.error(`round ${round}/${rounds}: numpy …`);
    perRound.numpy.push(numpyRun(samples));
    console.error(`round ${round}/${rounds}: numpy, 4 KiB pages …`);
    perRound.numpySmallPages.push(numpyRun(samples, { smallPages: true }));
  }
  results.rounds = rounds;
  results.machine.loadAverageEnd = readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
  for (const impl of Object.keys(perRound)) results[impl] = combineRounds(perRound[impl]);
  results.variants = values.variant.map((spec) => {
    const [name, dir, description] = spec.split('=');
    console.error(`wasm variant ${name} …`);
    return { name, description, dir: relative(repo, dir), result: wasmRun(dir, Number(values['variant-samples'])) };
  });
  mkdirSync(dirname(values.json), { recursive: true });
  writeFileSync(values.json, `${JSON.stringify(results, null, 2)}\n`);
  writeFileSync(values.markdown, markdown(results, { variantSamples: Number(values['variant-samples']) }));
  console.error(`wrote ${relative(repo, values.markdown)} and ${relative(repo, values.json)}`);
}

await main();
