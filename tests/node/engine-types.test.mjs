// dist/engine.d.ts, the facade's TypeScript declaration written from the engine's declaration
// (cpp/bindings/engine-types.mjs): it names exactly the facade's functions with their declared
// parameters, and it is valid TypeScript that takes right calls and refuses wrong ones
// (tests/types/engine-usage.ts, checked by the pinned TypeScript compiler).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { distDir, loadEngine } from './engine-loader.mjs';

const repo = fileURLToPath(new URL('../../', import.meta.url));
const dts = readFileSync(join(distDir, 'engine.d.ts'), 'utf8');

/** The members an interface of the d.ts declares (its two-space-indented names), in order. */
function members(name) {
  const body = dts.match(new RegExp(`^export interface ${name}\\b[^{]*\\{\\n([\\s\\S]*?)^\\}`, 'm'));
  assert.ok(body, `engine.d.ts declares ${name}`);
  return [...body[1].matchAll(/^ {2}(?:readonly )?(\w+)\s*[(:]/gm)].map((m) => m[1]);
}

test('engine.d.ts names exactly the facade’s functions and members', async () => {
  const { signatures } = await import(pathToFileURL(join(distDir, 'engine.mjs')).href);
  const functions = members('EngineFunctions');
  assert.deepEqual([...functions].sort(), Object.keys(signatures).sort(), 'EngineFunctions: the declared functions');
  const engine = await loadEngine();
  const typed = [...functions, ...members('Engine')];
  assert.equal(new Set(typed).size, typed.length, 'each member once');
  assert.deepEqual([...typed].sort(), Object.keys(engine).sort(), 'Engine: every member of the facade, nothing more');
  const views = dts.match(/^export type EngineViews = Pick<EngineFunctions, ([^>]*)>/m)[1].match(/\w+/g);
  assert.deepEqual([...views, 'release'].sort(), Object.keys(engine.views).sort(), 'EngineViews');
});

test('engine.d.ts gives each function its declared parameters, in order, optional where defaulted', async () => {
  const { signatures } = await import(pathToFileURL(join(distDir, 'engine.mjs')).href);
  for (const [fn, params] of Object.entries(signatures)) {
    const line = dts.match(new RegExp(`^ {2}${fn}\\((.*)\\):`, 'm'));
    assert.ok(line, fn);
    const typed = line[1] ? [...line[1].matchAll(/(?:^|, )(\w+)(\??):/g)].map((m) => m[1] + m[2]) : [];
    const declared = params.map((p, i) => p.name + (params.slice(i).every((q) => 'default' in q) ? '?' : ''));
    assert.deepEqual(typed, declared, fn);
  }
});

test('engine.d.ts is valid TypeScript: right calls compile, wrong ones are refused', () => {
  const dir = mkdtempSync(join(tmpdir(), 'positional-types-'));
  try {
    for (const file of ['engine.d.ts', 'engine.d.mts']) copyFileSync(join(distDir, file), join(dir, file));
    copyFileSync(join(repo, 'tests/types/engine-usage.ts'), join(dir, 'engine-usage.ts'));
    writeFileSync(join(dir, 'package.json'), '{ "type": "module" }\n');
    assert.ok(!existsSync(join(dir, 'engine.mjs')), 'the types alone, without the module');
    const tsc = join(repo, 'node_modules/typescript/bin/tsc');
    const flags = ['--noEmit', '--strict', '--target', 'es2022', '--module', 'nodenext', '--types', ''];
    const run = spawnSync(process.execPath, [tsc, ...flags, 'engine-usage.ts', 'engine.d.ts'], {
      cwd: dir,
      encoding: 'utf8',
    });
    assert.equal(run.status, 0, `tsc: ${run.stdout}${run.stderr}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
