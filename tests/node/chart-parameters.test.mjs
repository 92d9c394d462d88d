// docs/contributing.md's table of chart URL parameters matches the charts' declared controls and ranges.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const script = fileURLToPath(new URL('../../web/site-builder/chart-parameters.mjs', import.meta.url));

test('docs/contributing.md lists every chart URL parameter with the declared range', () => {
  const run = spawnSync(process.execPath, [script, '--check'], { encoding: 'utf8' });
  assert.equal(run.status, 0, run.stderr);
});
