// docs/contributing.md's recipes for a new kernel and a new chart, followed in a scratch copy of the
// tree. Each recipe states how many files it takes and lists one step per file; this test makes a
// small kernel (probe_kernel in the precision module) and a small chart (recipe-probe) by doing
// exactly the listed steps, then runs the checks that guard those files. It fails when:
//   - the stated count is not the number of steps, or a step names a file this test cannot follow;
//   - the steps are not enough (a check fails after all of them: the guide misses a file);
//   - a step is not needed (leaving it out fails no check: the guide names a file too many).
// What the checks prove, without rebuilding the WebAssembly engine:
//   chart: the module charts/index.js would load exists and exports create<Id>Chart (imported in
//   Node, as the loader does in the page); node.chart-parameters; the lesson names every declared
//   chart (node.lesson-names), each translation carries the English's figures
//   (node.lesson-translations) and every interface text has its translation (node.interface-strings),
//   each run in the scratch copy; and any browser suite that keys a table by every declared chart
//   (charts.test.mjs's MOVES, which throws on a chart without an entry) names the new one: a static
//   stand-in for the browser suites.
//   kernel: CTest's layout.modules; the source compiles natively (g++, C++17) with
//   -Werror=missing-declarations and defines the function (nm): what the engine library needs; the
//   test file compiles against the header and a TEST calls the function; the binding compiles under
//   em++ (clang 14) and its POSITIONAL_TOPIC block declares the camelCase name: what the wasm build
//   and the engine's declaration need. The build's own check of adapter against declaration runs
//   the built module, so it is not repeated here.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  cpSync,
  existsSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { pathToFileURL } from 'node:url';

const repo = new URL('../../', import.meta.url).pathname;
const scratchRoot = mkdtempSync(join(tmpdir(), 'positional-recipes-'));
after(() => rmSync(scratchRoot, { recursive: true, force: true }));

const COUNTS = { one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10 };

/** The recipe `name` of "Where a new piece goes": its stated file count and its steps' file paths. */
export function recipe(guide, name) {
  const start = guide.indexOf(`- **${name}**:`);
  assert.ok(start >= 0, `docs/contributing.md has no "- **${name}**:" recipe`);
  const rest = guide.slice(start);
  const end = rest.slice(1).search(/\n- \*\*/);
  const text = end < 0 ? rest : rest.slice(0, end + 1);
  const count = /^- \*\*[^*]+\*\*: (\w+) files?\b/.exec(text);
  assert.ok(count && count[1] in COUNTS, `the ${name} recipe does not open with "<number> files"`);
  const steps = [...text.matchAll(/^ {2}\d+\. `([^`]+)`/gm)].map((m) => m[1]);
  return { count: COUNTS[count[1]], steps };
}

const GUIDE = readFileSync(join(repo, 'docs/contributing.md'), 'utf8');

/** A fresh copy of the parts of the tree in `paths`, with node_modules linked. */
function scratch(paths) {
  const dir = mkdtempSync(join(scratchRoot, 'tree-'));
  for (const path of paths) cpSync(join(repo, path), join(dir, path), { recursive: true });
  symlinkSync(join(repo, 'node_modules'), join(dir, 'node_modules'));
  return dir;
}

/**
 * Runs `command` in `cwd`; '' when it succeeds, else what it said. A node --test inside this test
 * must not see NODE_TEST_CONTEXT (it would report to this run and exit 0 whatever it found).
 * Compilations are remembered by their command and the files they read, as several plans compile
 * the same text.
 */
const ran = new Map();
function run(cwd, command, args, env = {}, reads = []) {
  const key = reads.length
    ? JSON.stringify([command, args, ...reads.map((f) => readFileSync(join(cwd, f), 'utf8'))])
    : null;
  if (key && ran.has(key)) return ran.get(key);
  const { NODE_TEST_CONTEXT: _, ...inherited } = process.env;
  const r = spawnSync(command, args, { cwd, encoding: 'utf8', env: { ...inherited, ...env } });
  const said = r.error
    ? `${command}: ${r.error.message}`
    : r.status === 0
      ? ''
      : `${command} ${args.join(' ')}\n${r.stdout.slice(-3000)}${r.stderr.slice(-3000)}`;
  if (key) ran.set(key, said);
  return said;
}

/** Edits `path` under `dir` with `fn(text) → text`, failing when the edit finds no place. */
function edit(dir, path, fn) {
  const file = join(dir, path);
  const before = readFileSync(file, 'utf8');
  const text = fn(before);
  assert.notEqual(text, before, `the step on ${path} found no place to edit`);
  writeFileSync(file, text);
}

/**
 * Follows `steps` (the guide's, with some left out) in a fresh scratch copy, then runs `checks` in
 * order; returns the first check's failure ('' when all pass) and the step this test had no way to do.
 */
function follow({ paths, appliers, checks }, steps) {
  const dir = scratch(paths);
  for (const step of steps) {
    const apply = appliers[step];
    assert.ok(
      apply,
      `the guide's step on ${step} is not one this test can follow: teach it (tests/node/recipes.test.mjs)`,
    );
    apply(dir);
  }
  for (const [name, check] of checks) {
    const problem = check(dir);
    if (problem) return `${name}: ${problem}`;
  }
  return '';
}

/** The guide's recipe holds: the count is the steps', they suffice, and each is needed. */
function holdsRecipe(name, plan) {
  const { count, steps } = recipe(GUIDE, name);
  assert.equal(steps.length, count, `the ${name} recipe says ${count} files and lists ${steps.length} steps`);
  assert.equal(new Set(steps).size, steps.length, `the ${name} recipe lists a file twice`);
  const all = follow(plan, steps);
  assert.equal(all, '', `after every step of the ${name} recipe a check still fails (a file is missing from it)`);
  for (const left of steps) {
    const problem = follow(
      plan,
      steps.filter((s) => s !== left),
    );
    assert.notEqual(problem, '', `the ${name} recipe's step on ${left} is not needed: leaving it out fails no check`);
  }
}

// ---- the chart ----------------------------------------------------------------------------------

const CHART = 'recipe-probe';
const CHART_WORDS = {
  'The recipe probe': '配方探针',
  'probe pairs': '探针维度对',
  'Line chart: the probe pairs’ frequencies': '折线图：探针维度对的频率',
  '{n} probe pairs, the fastest turning {theta} rad per position': '{n} 个探针维度对，最快的每个位置转 {theta} 弧度',
};
const languages = (dir) =>
  readdirSync(join(dir, 'web/lesson'))
    .map((f) => /^lesson\.(.+)\.md$/.exec(f)?.[1])
    .filter(Boolean);

const PROBE_MODULE = `// A chart made by following docs/contributing.md (tests/node/recipes.test.mjs).
import { defineChart } from '../chart-kit/define-chart.js';
import { chartDeclaration } from './declarations.js';
import { t } from '../locale/i18n.js';

export const RECIPE_PROBE = defineChart(chartDeclaration('${CHART}'), {
  compute: { theta: { reads: ['n'], run: (state, engine) => engine.ropeFrequencies(2 * state.n, 10000) } },
  canvases: [
    {
      label: t('Line chart: the probe pairs’ frequencies'),
      reads: ['theta'],
      draw(ctx, { data }, width, height) {
        ctx.fillRect(0, 0, width * (data.theta?.[0] ?? 0), height);
      },
    },
  ],
  describe: ({ state, data }) => t('{n} probe pairs, the fastest turning {theta} rad per position', { n: state.n, theta: data.theta[0] }),
});
export const createRecipeProbeChart = RECIPE_PROBE.create;
`;

const CHART_PLAN = {
  paths: ['package.json', 'web', 'docs', 'tests/node', 'tests/browser', 'tests/bench/results'],
  appliers: {
    'web/js/charts/declarations.js': (dir) =>
      edit(dir, 'web/js/charts/declarations.js', (s) =>
        s.replace(
          /\n};\n(?![\s\S]*\n};\n)/,
          `\n  '${CHART}': {\n    title: t('The recipe probe'),\n` +
            `    controls: { n: { kind: 'number', label: t('probe pairs'), value: 4, min: 1, max: 32 } },\n` +
            `    aliases: [],\n  },\n};\n`,
        ),
      ),
    'web/js/charts/<id>.js': (dir) => writeFileSync(join(dir, `web/js/charts/${CHART}.js`), PROBE_MODULE),
    'web/lesson/lesson.md': (dir) =>
      edit(dir, 'web/lesson/lesson.md', (s) =>
        s.replace(
          '```chart attention-sinks\n',
          '```chart recipe-probe\nThe probe pairs’ frequencies\n```\n\n' +
            '**Reading it:** each bar is one pair’s frequency.\n\n```chart attention-sinks\n',
        ),
      ),
    'web/lesson/lesson.<lang>.md': (dir) => {
      for (const lang of languages(dir))
        edit(dir, `web/lesson/lesson.${lang}.md`, (s) =>
          s.replace(
            '```chart attention-sinks\n',
            '```chart recipe-probe\n探针维度对的频率\n```\n\n**读图**：每一条是一个维度对的频率。\n\n```chart attention-sinks\n',
          ),
        );
    },
    'web/i18n/<lang>/chart-<id>.json': (dir) => {
      for (const lang of languages(dir))
        writeFileSync(join(dir, `web/i18n/${lang}/chart-${CHART}.json`), `${JSON.stringify(CHART_WORDS, null, 2)}\n`);
    },
    'docs/contributing.md': (dir) => {
      const problem = run(dir, process.execPath, ['web/site-builder/chart-parameters.mjs']);
      assert.equal(problem, '', problem);
    },
    'tests/browser/charts.test.mjs': (dir) =>
      edit(dir, 'tests/browser/charts.test.mjs', (s) =>
        s.replace('const MOVES = {\n', `const MOVES = {\n  '${CHART}': ['n', '9'],\n`),
      ),
  },
  checks: [
    [
      'the module charts/index.js loads',
      (dir) => {
        const r = spawnSync(
          process.execPath,
          [
            '--input-type=module',
            '-e',
            `const { CHART_DECLARATIONS } = await import(${JSON.stringify(pathToFileURL(join(dir, 'web/js/charts/declarations.js')).href)});
             const { existsSync } = await import('node:fs');
             const factory = (id) => 'create' + id.replace(/(?:^|-)(\\w)/g, (_, c) => c.toUpperCase()) + 'Chart';
             for (const id of Object.keys(CHART_DECLARATIONS)) {
               const file = ${JSON.stringify(join(dir, 'web/js/charts/'))} + id + '.js';
               if (!existsSync(file)) throw new Error('charts/' + id + '.js is missing');
               const module = await import(file);
               if (typeof module[factory(id)] !== 'function') throw new Error('charts/' + id + '.js exports no ' + factory(id));
             }`,
          ],
          { encoding: 'utf8' },
        );
        return r.status === 0 ? '' : r.stderr.slice(-2000);
      },
    ],
    [
      'every browser table of every chart names each declared chart',
      (dir) => {
        const declarations = readFileSync(join(dir, 'web/js/charts/declarations.js'), 'utf8');
        const known = readFileSync(join(repo, 'web/js/charts/declarations.js'), 'utf8');
        const ids = (s) => [...s.matchAll(/^ {2}'?([a-z][a-z0-9-]*)'?: \{$/gm)].map((m) => m[1]);
        const before = ids(known).filter((id) => id !== 'model-card');
        const now = ids(declarations).filter((id) => id !== 'model-card');
        const names = (text, id) => text.includes(`'${id}'`) || new RegExp(`^\\s+${id}:`, 'm').test(text);
        const problems = [];
        for (const file of readdirSync(join(dir, 'tests/browser')).filter((f) => f.endsWith('.mjs'))) {
          const text = readFileSync(join(dir, 'tests/browser', file), 'utf8');
          if (!before.every((id) => names(text, id))) continue; // not a table of every chart
          for (const id of now) if (!names(text, id)) problems.push(`tests/browser/${file} has no entry for ${id}`);
        }
        return problems.join('\n');
      },
    ],
    ['node.chart-parameters', (dir) => run(dir, process.execPath, ['--test', 'tests/node/chart-parameters.test.mjs'])],
    [
      'node.lesson-names, node.lesson-translations, node.interface-strings',
      (dir) =>
        run(dir, process.execPath, [
          '--test',
          '--test-name-pattern=every registered one',
          '--test-name-pattern=carries the same markers',
          '--test-name-pattern=a translation of every interface text',
          'tests/node/lesson-names.test.mjs',
          'tests/node/lesson-translations.test.mjs',
          'tests/node/interface-strings.test.mjs',
        ]),
    ],
  ],
};

// ---- the kernel ---------------------------------------------------------------------------------

const MODULE = 'precision';
const EIGEN = '/usr/include/eigen3';
const HEADER = `cpp/include/positional/${MODULE}.hpp`;
const compileNative = (dir, file, extra) =>
  run(dir, 'g++', ['-std=c++17', '-Icpp/include', `-I${EIGEN}`, '-Itests/cpp', ...extra, file], {}, [HEADER, file]);

const KERNEL_PLAN = {
  paths: ['cpp', 'tests/cpp', 'tests/module-layout.cmake'],
  appliers: {
    'cpp/include/positional/<module>.hpp': (dir) =>
      edit(dir, `cpp/include/positional/${MODULE}.hpp`, (s) =>
        s.replace(
          /\n} {2}\/\/ namespace positional\n$/,
          '\n// Twice x (a kernel made by following docs/contributing.md).\ndouble probe_kernel(double x);\n\n}  // namespace positional\n',
        ),
      ),
    'cpp/src/<module>.cpp': (dir) =>
      edit(dir, `cpp/src/${MODULE}.cpp`, (s) =>
        s.replace(
          /\n} {2}\/\/ namespace positional\n$/,
          '\ndouble probe_kernel(double x) { return 2 * x; }\n\n}  // namespace positional\n',
        ),
      ),
    'tests/cpp/test_<module>.cpp': (dir) =>
      edit(dir, `tests/cpp/test_${MODULE}.cpp`, (s) =>
        s.replace(
          /\n} {2}\/\/ namespace\n} {2}\/\/ namespace positional\n$/,
          '\nTEST(ProbeKernel, Doubles) { EXPECT_EQ(probe_kernel(1.5), 3.0); }\n\n}  // namespace\n}  // namespace positional\n',
        ),
      ),
    'cpp/bindings/bind_<module>.cpp': (dir) =>
      edit(dir, `cpp/bindings/bind_${MODULE}.cpp`, (s) =>
        s
          .replace(
            /\n} {2}\/\/ namespace\n\nPOSITIONAL_TOPIC/,
            '\nval probe_kernel_js(double x) {\n  return guarded([&] { return probe_kernel(x); });\n}\n\n}  // namespace\n\nPOSITIONAL_TOPIC',
          )
          .replace(
            /\n}\n\n} {2}\/\/ namespace positional::js\n$/,
            '\n  topic.function("probeKernel", &probe_kernel_js, "twice x", {number("x")}, "[1.5]");\n}\n\n}  // namespace positional::js\n',
          ),
      ),
  },
  checks: [
    ['layout.modules', (dir) => run(dir, 'cmake', [`-DREPO=${dir}`, '-P', 'tests/module-layout.cmake'])],
    [
      'the source compiles and defines it',
      (dir) => {
        const source = `cpp/src/${MODULE}.cpp`;
        const texts = [HEADER, source].map((f) => readFileSync(join(dir, f), 'utf8')).join('\0');
        const object = join(scratchRoot, `${createHash('sha1').update(texts).digest('hex')}.o`);
        const compiled = compileNative(dir, source, ['-Werror=missing-declarations', '-c', '-o', object]);
        if (compiled) return compiled;
        const nm = spawnSync('nm', ['-C', '--defined-only', object], { encoding: 'utf8' });
        return /\bT positional::probe_kernel\(double\)/.test(nm.stdout) ? '' : `${source} defines no probe_kernel`;
      },
    ],
    [
      'a GoogleTest calls it',
      (dir) =>
        (/^TEST\([\s\S]*?probe_kernel\(/m.test(readFileSync(join(dir, `tests/cpp/test_${MODULE}.cpp`), 'utf8'))
          ? ''
          : `tests/cpp/test_${MODULE}.cpp has no TEST calling probe_kernel`) ||
        compileNative(dir, `tests/cpp/test_${MODULE}.cpp`, ['-fsyntax-only']),
    ],
    [
      'the binding compiles under em++ and declares it',
      (dir) => {
        const binding = `cpp/bindings/bind_${MODULE}.cpp`;
        if (!readFileSync(join(dir, binding), 'utf8').includes('topic.function("probeKernel"'))
          return `${binding} declares no probeKernel`;
        const flags = ['-std=c++17', '-fsyntax-only', '-Icpp/include', '-Icpp/bindings', `-I${EIGEN}`, binding];
        return run(dir, 'em++', flags, { NODE_PATH: '/usr/share/nodejs' }, [HEADER, binding]);
      },
    ],
  ],
};

describe("docs/contributing.md's recipes, followed in a scratch copy", () => {
  test('a recipe is read as its stated count and its numbered steps', () => {
    const guide =
      '- **A thing**: two files, one step each.\n  1. `a.js`: one.\n  2. `b.js`: two.\n- **Next**: one file.\n';
    assert.deepEqual(recipe(guide, 'A thing'), { count: 2, steps: ['a.js', 'b.js'] });
  });

  test('a new chart: the stated files, each needed, and no more', () => holdsRecipe('A chart', CHART_PLAN));

  test('a new kernel: the stated files, each needed, and no more', () => holdsRecipe('A kernel', KERNEL_PLAN));

  test('the scratch copies leave the tree untouched', () => {
    assert.ok(!existsSync(join(repo, `web/js/charts/${CHART}.js`)));
    assert.ok(!readFileSync(join(repo, `cpp/include/positional/${MODULE}.hpp`), 'utf8').includes('probe_kernel'));
  });
});
