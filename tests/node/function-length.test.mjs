// No function of the page's modules, the site builder or the engine runs past 150 lines (nested
// functions counted in the one holding them; tests/function-lengths.mjs measures). The functions
// still longer are listed below with their length: the list may only shrink, and an entry must go
// once its function is split.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { cppFunctions, jsFunctions, longFunctions } from '../function-lengths.mjs';

const LIMIT = 150;

/** Still over the limit: "file function" → its length now (a longer one fails; split them along their seams). */
const NOT_YET_SPLIT = {};

test(`no function runs past ${LIMIT} lines but those not yet split, and none of them grows`, () => {
  const long = longFunctions(LIMIT);
  const problems = [];
  const seen = new Set();
  for (const { file, name, line, lines } of long) {
    const key = `${file} ${name}`;
    seen.add(key);
    if (!(key in NOT_YET_SPLIT)) problems.push(`${file}:${line} ${name} has ${lines} lines (at most ${LIMIT})`);
    else if (lines > NOT_YET_SPLIT[key])
      problems.push(`${file}:${line} ${name} grew to ${lines} lines (listed at ${NOT_YET_SPLIT[key]})`);
  }
  for (const key of Object.keys(NOT_YET_SPLIT))
    if (!seen.has(key)) problems.push(`${key} is ${LIMIT} lines or fewer now: take it off NOT_YET_SPLIT`);
  assert.deepEqual(problems, []);
});

test('the measure counts a function from its first line to its last, nested ones inside it', () => {
  const js = [
    'export function outer(a) {',
    '  const inner = (b) => {',
    '    return b;',
    '  };',
    '  return inner(a);',
    '}',
    'const obj = { method() { return 1; } };',
  ].join('\n');
  assert.deepEqual(
    jsFunctions('x.js', js).map(({ name, line, lines }) => [name, line, lines]),
    [
      ['outer', 1, 6],
      ['inner', 2, 3],
      ['method', 7, 1],
    ],
  );
  const cpp = [
    '#if defined(X)',
    '#endif',
    'namespace positional {',
    'namespace {',
    'struct S { int f() const { return 1; } };',
    '}  // namespace',
    '',
    '// a comment with a brace {',
    'double twice(double x,',
    '             double y) {',
    '  const auto f = [](double v) { return "}" [0] + v; };',
    "  return f(x) + y + '{';",
    '}',
    '}  // namespace positional',
  ].join('\n');
  assert.deepEqual(
    cppFunctions('x.cpp', cpp).map(({ name, line, lines }) => [name, line, lines]),
    [
      ['f', 5, 1],
      ['twice', 9, 5],
    ],
  );
});
