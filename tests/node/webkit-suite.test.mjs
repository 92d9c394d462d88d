// tests/support/webkit-suite.mjs: a WebKit suite runs once more only when WebKit stopped answering (the
// adapter's STALL_MARK in its output), and any other failure stands. Suites written here stand in for the
// browser's: one fails with the mark on its first run, one fails for another reason.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { STALL_MARK } from '../browser/engines/webkit-webdriver.mjs';

const runner = new URL('../support/webkit-suite.mjs', import.meta.url).pathname;
const dir = mkdtempSync(join(tmpdir(), 'positional-webkit-suite-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/** A suite that counts its runs in `runs` and fails with `message` on the runs listed in `failing`. */
function suite(name, message, failing) {
  const runs = join(dir, `${name}.runs`);
  writeFileSync(runs, '0');
  const file = join(dir, `${name}.test.mjs`);
  writeFileSync(
    file,
    `import { readFileSync, writeFileSync } from 'node:fs';
import { test } from 'node:test';
const run = Number(readFileSync(${JSON.stringify(runs)}, 'utf8')) + 1;
writeFileSync(${JSON.stringify(runs)}, String(run));
test('a page', () => { if (${JSON.stringify(failing)}.includes(run)) throw new Error(${JSON.stringify(message)}); });
`,
  );
  // As CTest runs it: not as a child of this test runner (NODE_TEST_CONTEXT would make the suite report here).
  const { NODE_TEST_CONTEXT: _child, ...env } = process.env;
  const result = spawnSync(process.execPath, [runner, file], { encoding: 'utf8', env });
  return { ...result, runs: Number(readFileSync(runs, 'utf8')) };
}

test('a suite that failed because WebKit stopped answering runs once more, and says so', () => {
  const stalled = suite('stalled-once', `WebDriver POST /url: no answer in 180 s (${STALL_MARK})`, [1]);
  assert.equal(stalled.status, 0, stalled.stdout);
  assert.equal(stalled.runs, 2);
  assert.match(stalled.stdout, /WebKit stopped answering during .* running the suite once more/);
  // Stalled twice: the second run's failure stands, and there is no third.
  const twice = suite('stalled-twice', `no answer (${STALL_MARK})`, [1, 2]);
  assert.notEqual(twice.status, 0);
  assert.equal(twice.runs, 2);
});

test('any other failure stands: the suite runs once', () => {
  const failing = suite('assertion', 'expected 4,096, got 4,352', [1]);
  assert.notEqual(failing.status, 0);
  assert.equal(failing.runs, 1);
  assert.doesNotMatch(failing.stdout, /once more/);
  const passing = suite('passing', 'never', []);
  assert.equal(passing.status, 0);
  assert.equal(passing.runs, 1);
});
