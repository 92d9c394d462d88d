// The modules the types.tsc CTest entry checks (tsconfig.json's files) ask for the check themselves:
// without // @ts-check at the top, tsc reads a JavaScript file without checking it, and the entry
// would pass over it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';

const read = (path) => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8');

test('every module tsconfig.json lists opens with // @ts-check', () => {
  const { files, compilerOptions } = JSON.parse(read('tsconfig.json'));
  assert.ok(files.length >= 1);
  assert.equal(compilerOptions.noEmit, true);
  for (const file of files) assert.match(read(file), /^\/\/ @ts-check\n/, file);
});
