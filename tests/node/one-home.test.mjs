// Facts the lesson and its build state in more than one file: each has one home, and where a copy
// cannot import it (a module that loads without the engine, CMake, the guides), a test here holds the
// copy to the home.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { distDir } from './engine-loader.mjs';
import { MASTERY_SCORE, SELF_TEST_ITEMS } from '../../web/js/self-test/self-test-items.js';
import { COURSE, packageFile } from '../../web/site-builder/package-lms.mjs';
import { instructorGuideBody } from '../../web/site-builder/instructor-guide.mjs';
import { timeOnTask } from '../../web/site-builder/time-on-task.mjs';
import { ENGINE_FILES, PAGE_ENGINE_FILES } from '../../web/site-builder/build-site.mjs';
import { engineFiles } from '../../web/js/engine/engine-source.js';
import { WASM_MODULES } from '../../web/site-builder/third-party-notices.mjs';
import { DEFAULT_BASE as CHARTS_DEFAULT_BASE, PAIR_ANGLE_POSITIONS } from '../../web/js/charts/declarations.js';

const repo = new URL('../../', import.meta.url);
const read = (path) => readFileSync(new URL(path, repo), 'utf8');

test('the mastery score: the self-test bank is its home; the packages, the guide and the docs follow it', () => {
  assert.equal(COURSE.masteryScore, MASTERY_SCORE, 'the manifests declare the score the page passes at');
  // The guide states whatever score it is given: built with another one, nothing says 80 % or 0.8.
  const other = 0.65;
  const guide = instructorGuideBody({
    time: timeOnTask(read('web/lesson/lesson.md'), SELF_TEST_ITEMS),
    items: SELF_TEST_ITEMS,
    mastery: other,
    packages: { scorm12: packageFile('scorm12'), scorm2004: packageFile('scorm2004'), cmi5: packageFile('cmi5') },
  });
  assert.match(guide, /<strong>65% passes<\/strong>/);
  assert.match(guide, /mastery score is 65\./);
  assert.match(guide, /scaled score of 0\.65\./);
  assert.match(guide, /<code>masteryScore<\/code> 0\.65\./);
  assert.doesNotMatch(guide, /\b0\.8\b|\b80 ?%|score is 80\b/, 'a mastery score typed into the guide');
  // docs/course-sites.md cannot import it: its figures are the bank's.
  const doc = read('docs/course-sites.md');
  const percents = [...doc.matchAll(/mastery score (\d+)/g)].map((m) => Number(m[1]));
  const scaled = [
    ...doc.matchAll(/scaled score of (\d(?:\.\d+)?)/g),
    ...doc.matchAll(/masteryScore="(\d(?:\.\d+)?)"/g),
  ].map((m) => Number(m[1]));
  assert.ok(percents.length >= 1 && scaled.length >= 2, `${percents} ${scaled}`);
  for (const p of percents) assert.equal(p, Math.round(MASTERY_SCORE * 100), 'docs/course-sites.md: mastery score');
  for (const s of scaled) assert.equal(s, MASTERY_SCORE, 'docs/course-sites.md: scaled mastery score');
});

test('the zips’ names: package-lms.mjs makes them; the docs name only zips it makes', () => {
  const kinds = ['scorm12', 'scorm2004', 'cmi5'];
  for (const path of ['README.md', 'docs/course-sites.md', 'docs/hosting.md']) {
    const names = [...read(path).matchAll(/positional-lesson-([\w-]+?)(?:\.([A-Za-z]{2,3}(?:-[A-Za-z]+)?))?\.zip/g)];
    for (const [name, kind, lang] of names)
      assert.ok(kinds.includes(kind) && packageFile(kind, lang ?? 'en') === name, `${path}: ${name}`);
  }
  assert.equal(packageFile('cmi5'), 'positional-lesson-cmi5.zip');
  assert.equal(packageFile('scorm12', 'zh-Hans'), 'positional-lesson-scorm12.zh-Hans.zip');
});

test('the engine’s modules: CMakeLists.txt links them; the build, the describer and the notices list the same', () => {
  const cmake = read('CMakeLists.txt');
  const linked = cmake
    .match(/set\(ENGINE_MODULES ([^)]*)\)/)[1]
    .trim()
    .split(/\s+/);
  // engine-described is run by the build and never shipped.
  const shipped = linked.filter((m) => m !== 'engine-described');
  assert.deepEqual(Object.keys(WASM_MODULES).sort(), [...shipped].sort(), 'third-party-notices.mjs WASM_MODULES');
  const copied = new Set(ENGINE_FILES.filter((f) => /\.(mjs|wasm)$/.test(f)).map((f) => f.replace(/\.\w+$/, '')));
  for (const module of shipped) {
    assert.ok(ENGINE_FILES.includes(`${module}.mjs`), `build-site.mjs copies ${module}.mjs`);
    assert.ok(ENGINE_FILES.includes(`${module}.wasm`), `build-site.mjs copies ${module}.wasm`);
  }
  const emscripten = [...copied].filter((f) => /^engine-(core|config|lab)/.test(f));
  assert.deepEqual(emscripten.sort(), [...shipped].sort(), 'build-site.mjs copies no module the build does not link');
  // describe-engine.mjs runs each shipped module: the split ones as --module, the single file's as --single.
  const described = cmake.match(/describe-engine\.mjs" ([^\n]*\n[^\n]*\n[^\n]*)/)[1];
  const run = [...described.matchAll(/--(?:module \w+=|single |described )([\w-]+)/g)].map((m) => m[1]);
  assert.deepEqual(run.sort(), [...linked].sort(), 'describe-engine.mjs is run over every linked module');
  // The page's WebAssembly that the size benchmark weighs: every .wasm the site serves.
  const loaded = read('tests/bench/package-sizes.mjs').match(/const LOADED = \{([^}]*)\}/)[1];
  const weighed = [...loaded.matchAll(/'([\w-]+\.wasm)'/g)].map((m) => m[1]);
  const served = Object.values(PAGE_ENGINE_FILES).filter((f) => f.endsWith('.wasm'));
  assert.deepEqual(weighed.sort(), served.sort(), 'tests/bench/package-sizes.mjs LOADED');
});

test('the module files the page must be served as JavaScript are engine.mjs and what it imports', () => {
  // engine.mjs's static imports, followed through the facade's sources (the modules the build writes,
  // engine-core.mjs and engine-declaration.mjs, import nothing of the engine's).
  const imports = (file, seen = new Set([file])) => {
    const source = new URL(`cpp/bindings/${file}`, repo);
    if (!existsSync(source)) return seen;
    for (const [, next] of readFileSync(source, 'utf8').matchAll(/^import [^;]*? from '\.\/([\w-]+\.mjs)';/gm))
      if (!seen.has(next)) imports(next, seen.add(next));
    return seen;
  };
  const names = engineFiles().map((url) => url.pathname.split('/').at(-1));
  assert.deepEqual(names.sort(), [...imports('engine.mjs')].sort(), 'web/js/engine/engine-source.js engineFiles()');
});

test('the default RoPE base: the engine declares it (kDefaultBase); the charts’ copy equals it', async () => {
  const { DEFAULT_BASE } = await import(pathToFileURL(join(distDir, 'engine.mjs')).href);
  assert.equal(typeof DEFAULT_BASE, 'number');
  assert.equal(CHARTS_DEFAULT_BASE, DEFAULT_BASE, 'web/js/charts/declarations.js DEFAULT_BASE');
});

test('the pair-angle chart’s positions: declarations.js; its canvas label, typed for translation, says the same', () => {
  const last = PAIR_ANGLE_POSITIONS - 1;
  const source = read('web/js/charts/rope-frequencies.js');
  const said = [...source.matchAll(/positions 0(?: to |\.\.)(\d+)/g)].map((m) => Number(m[1]));
  assert.ok(said.length >= 1);
  for (const n of said) assert.equal(n, last, 'web/js/charts/rope-frequencies.js');
  const translations = read('web/i18n/zh-Hans/chart-rope-frequencies.json');
  const translated = [...translations.matchAll(/positions 0 to (\d+)|位置 0 到 (\d+)/g)].map((m) =>
    Number(m[1] ?? m[2]),
  );
  assert.ok(translated.length >= 2);
  for (const n of translated) assert.equal(n, last, 'web/i18n/zh-Hans/chart-rope-frequencies.json');
});
