// BENCHMARKS.md is generated from the results files in tests/bench/results/ (run-benchmarks.mjs
// --render): the committed page must be exactly what they render to, so no figure in it is typed by
// hand or left behind by a newer run. The length lab's table is also read back against its file
// here, without the renderer.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';

const repo = new URL('../../', import.meta.url).pathname;
const read = (path) => readFileSync(join(repo, path), 'utf8');

test('BENCHMARKS.md is what its results files render to', () => {
  const dir = mkdtempSync(join(tmpdir(), 'positional-benchmarks-'));
  try {
    const out = join(dir, 'BENCHMARKS.md');
    const run = spawnSync(process.execPath, ['tests/bench/run-benchmarks.mjs', '--render', '--markdown', out], {
      cwd: repo,
      encoding: 'utf8',
    });
    assert.equal(run.status, 0, run.stderr);
    const rendered = readFileSync(out, 'utf8').split('\n');
    const committed = read('BENCHMARKS.md').split('\n');
    const first = committed.findIndex((line, i) => line !== rendered[i]);
    assert.ok(
      first < 0 && committed.length === rendered.length,
      `BENCHMARKS.md differs from its rendering at line ${first + 1}:\n  committed: ${committed[first]}\n  rendered:  ${rendered[first]}\n` +
        'rerun: node tests/bench/run-benchmarks.mjs --render',
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("the length lab's table holds the file's medians, to the two decimals it prints", () => {
  const results = JSON.parse(read('tests/bench/results/length-lab.json'));
  const page = read('BENCHMARKS.md');
  const section = page.slice(page.indexOf("## The length lab's results"));
  const rows = [...section.matchAll(/^\| ([a-z-]+) \| ([a-z+]+) \| ([\d. |]+) \|$/gm)];
  const sizes = Object.keys(results.sizes);
  const factors = [1, 2, 4, 8];
  let checked = 0;
  for (const [, task, variant, cells] of rows) {
    const printed = cells.split(' | ').map(Number);
    assert.equal(printed.length, sizes.length * factors.length, `${task} ${variant}`);
    sizes.forEach((size, s) =>
      factors.forEach((factor, f) => {
        const { config, runs } = results.sizes[size];
        const scheme = variant.startsWith('rope+') ? 'rope' : variant;
        const run = runs[task][scheme];
        const cell = run.accuracy[variant][run.eval_lengths.indexOf(factor * config.train_length)];
        // Printed with two decimals: within half a unit of the second (and the doubles' own error).
        const value = printed[s * factors.length + f];
        assert.ok(
          Math.abs(value - cell.median) <= 0.005 + 1e-12,
          `${size} ${task} ${variant} ${factor}×: ${value} for ${cell.median}`,
        );
        checked += 1;
      }),
    );
  }
  // Every task × scheme (5 schemes, RoPE's 3 stretches) × size × factor.
  assert.equal(checked, Object.keys(results.sizes.default.runs).length * 8 * sizes.length * factors.length);
});

test('each measurement behind the code names a file that holds its decision and points to BENCHMARKS.md', () => {
  const { entries } = JSON.parse(read('tests/bench/results/design-measurements.json'));
  assert.ok(entries.length > 0);
  for (const { where } of entries) {
    const [file, symbol] = where.split(' ');
    const text = read(file);
    if (symbol) assert.ok(text.includes(symbol), `${file} has no ${symbol}`);
    assert.match(text, /BENCHMARKS\.md, Measurements/, `${file} does not point to BENCHMARKS.md`);
  }
});

/**
 * The comments of a file: each `//` and `#` comment's text and each line of a block comment, with
 * its line number. Good enough for the project's own sources (a `//` inside a string is skipped
 * when a quote or colon stands right before it, as in URLs).
 */
function comments(text, hashComments) {
  const out = [];
  let inBlock = false;
  text.split('\n').forEach((line, i) => {
    const n = i + 1;
    if (inBlock) {
      out.push([n, line]);
      if (line.includes('*/')) inBlock = false;
      return;
    }
    const open = line.indexOf('/*');
    if (!hashComments && open >= 0 && !/['"`]/.test(line.slice(0, open))) {
      out.push([n, line.slice(open)]);
      inBlock = !line.slice(open + 2).includes('*/');
      return;
    }
    const match = hashComments ? /(?:^|\s)#(.*)/.exec(line) : /(?<![:'"\\])\/\/(.*)/.exec(line);
    if (match) out.push([n, match[1]]);
  });
  return out;
}

// A lab note: a time or size figure with a word that reports a run ("took 47 ms", "8 ms against 2",
// "about 0.1 µs each"). Comments keep the decision; the figures behind it live in
// design-measurements.json, rendered into BENCHMARKS.md, where a newer run can replace them.
const FIGURE = /\d[\d,.]*\s?(?:ms|µs|s|MiB|KB)\b/;
const REPORT = /\b(?:took|costs?|against|fell|went from|halved|about \d[\d,.]*\s?(?:ms|µs|s)\b)/;

test('no comment in the product or its build carries a measurement: each is in BENCHMARKS.md', () => {
  const files = spawnSync(
    'git',
    [
      'ls-files',
      'web/js',
      'web/css',
      'web/site-builder',
      'cpp',
      'build-scripts',
      'CMakeLists.txt',
      'tests/CMakeLists.txt',
    ],
    { cwd: repo, encoding: 'utf8' },
  )
    .stdout.split('\n')
    .filter((f) => /\.(?:m?js|css|cpp|hpp|h)$|CMakeLists\.txt$|^build-scripts\/[^.]+$/.test(f));
  assert.ok(files.length > 100, `${files.length} files`);
  const notes = [];
  for (const file of files)
    for (const [line, text] of comments(read(file), !/\.(?:m?js|css|cpp|hpp|h)$/.test(file)))
      if (FIGURE.test(text) && REPORT.test(text)) notes.push(`${file}:${line}: ${text.trim()}`);
  assert.deepEqual(notes, []);
});
