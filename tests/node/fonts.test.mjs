// The page's fonts as built: the single file carries only the faces the page uses, within its byte
// budget, and every font family the page's CSS applies to the page resolves to a face it carries
// (or is a system/generic family). The served site holds the same subset faces and no others.
// Read from the built files independently of web/site-builder/fonts.mjs, which chose them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { distDir as dist } from './engine-loader.mjs';

const singlePath = join(dist, 'positional-lesson.html');

// Budgets (KB = 1000 bytes): every font the single file embeds, decoded, and the whole file as
// gzip -9 sends it. The page's maths is MathML in one maths face (DejaVu Math TeX Gyre) and the
// italic of its variables (DejaVu Serif Italic), each cut to the formulas' glyphs; the text face adds two.
// The whole-file figure is the page's promise of at most 450 KB (350 KB before the length lab, whose
// figure, runner and section with its three tables add about 13 KB, the model card's GGUF header
// reader, about 6 KB, its 2025–26 families (seven presets, the layers kind by kind in words and
// panels), about 9 KB in English and 11 KB in Chinese with the reader compiled for size, and
// section 6 with its figure of which pairs turn, about 9 KB in English and 7 KB in Chinese; the
// formulas as MathML alone, without KaTeX's HTML copy, stylesheet and faces, took off about 4 KB in
// English (371 KB) and 5 KB in Chinese (383 KB); the reader's list of what it did not understand and
// four more families (three presets, Ministral 3's query scale, their words) add about 3 KB in Chinese,
// which took it from under 395 KB to 398 KB; section 7 with its figure and two engine modules, the
// other sentence of every claim the text states (one of each pair is shown), and the first
// question with its verdicts took it to 400 KB in English and 418 KB in Chinese, and the self-test's
// second variant of every check (its words, choices and formulas) to about 406 KB and 430 KB; more
// 2025–26 families (DeepSeek-V4 and V3.2, GLM-5, Kimi Linear, Mistral Medium 3.5: presets, indexer and
// runtime sentences) to about 418 KB and 447 KB; the engine inlined as Emscripten's raw base64 again would add about 50 KB); the size itself is recorded
// by tests/bench/package-sizes.mjs (about 305 KB with the engine gzip-inlined). The promise is 450 KB.
const FONT_BUDGET = 60_000;
const GZIP_BUDGET = 450_000;
// Families a browser resolves without an @font-face: generic and system-font keywords.
const SYSTEM = new Set([
  'inherit',
  'initial',
  'unset',
  'serif',
  'sans-serif',
  'monospace',
  'math',
  'system-ui',
  'ui-serif',
  'ui-sans-serif',
  'ui-monospace',
  '-apple-system',
]);

/** A single file's text, its style sheet, its body without scripts and its language ('en', 'zh-Hans'…). */
function readSingle(path) {
  const html = readFileSync(path, 'utf8');
  return {
    html,
    style: html.match(/<style>([\s\S]*?)<\/style>/)?.[1] ?? '',
    body: html.slice(html.indexOf('<body')).replace(/<script[\s\S]*?<\/script>/g, ''),
    lang: html.match(/<html[^>]*\slang="([^"]+)"/)?.[1] ?? '',
  };
}
const single = existsSync(singlePath) ? readFileSync(singlePath, 'utf8') : null;
const { style } = single ? readSingle(singlePath) : { style: '' };
// Every language's single file: the root's, and one in each language's folder (zh-Hans/…).
const singles = single
  ? [
      singlePath,
      ...readdirSync(dist, { withFileTypes: true })
        .filter((entry) => entry.isDirectory() && existsSync(join(dist, entry.name, 'positional-lesson.html')))
        .map((entry) => join(dist, entry.name, 'positional-lesson.html')),
    ].map(readSingle)
  : [];

function fontFaces(css) {
  return [...css.matchAll(/@font-face\s*\{([^}]*)\}/g)].map(([, rule]) => ({
    family: rule
      .match(/font-family:\s*([^;]+)/)[1]
      .trim()
      .replace(/['"]/g, ''),
    src: rule.slice(rule.indexOf('src:')),
  }));
}

/**
 * Custom properties set on :root (light theme), then those a :lang() rule of the page's language
 * sets over them (Chinese prose in the system's faces) — enough to resolve var(--font-…).
 */
function rootVars(css, lang) {
  const vars = {};
  const primary = lang.split('-')[0];
  const blocks = [
    ...css.matchAll(/(?:^|\})\s*:root\s*\{([^}]*)\}/g),
    ...css.matchAll(new RegExp(`(?:^|\\})\\s*:lang\\(${primary}\\)\\s*\\{([^}]*)\\}`, 'g')),
  ];
  for (const [, block] of blocks)
    for (const [, name, value] of block.matchAll(/(--[\w-]+)\s*:\s*([^;}]+)/g)) vars[name] = value.trim();
  // A property defined by another (--font-text: var(--font-ui)): resolved until none is left.
  for (let pass = 0; pass < 4; pass++)
    for (const name of Object.keys(vars)) vars[name] = vars[name].replace(/var\((--[\w-]+)\)/g, (_, n) => vars[n] ?? n);
  return vars;
}

/** The first family of every font-family / font declaration whose selector can match the page. */
function familiesInUse(css, html, lang) {
  const classes = new Set([...html.matchAll(/\bclass="([^"]*)"/g)].flatMap((m) => m[1].split(/\s+/)));
  const vars = rootVars(css, lang);
  const used = new Map();
  const rules = css.replace(/@font-face\s*\{[^}]*\}/g, '');
  for (const [, selectors, block] of rules.matchAll(/([^{}@;]+)\{([^{}]*)\}/g)) {
    let family = block.match(/(?:^|;|\s)font-family\s*:\s*([^;]+)/)?.[1];
    const shorthand = block.match(/(?:^|;|\s)font\s*:\s*([^;]+)/)?.[1];
    if (!family && shorthand && shorthand !== 'inherit')
      family = shorthand.replace(/^.*?[\d.]+(?:em|rem|px|%)(?:\/\S+)?\s+/, '');
    if (!family) continue;
    family = family.replace(/var\((--[\w-]+)\)/g, (_, name) => vars[name] ?? name);
    const first = family
      .split(',')[0]
      .trim()
      .replace(/['"]/g, '')
      .replace(/\s*!important$/, '');
    if (first.startsWith('--')) continue; // a custom property's own definition
    const applies = selectors
      .split(',')
      .some((selector) => [...selector.matchAll(/\.([\w-]+)/g)].every(([, cls]) => classes.has(cls)));
    if (applies) used.set(first, selectors.trim());
  }
  return used;
}

test('a single file is built for every language', { skip: !single && 'no single-file build' }, () => {
  assert.deepEqual(
    singles.map((s) => s.lang),
    ['en', 'zh-Hans'],
  );
});

for (const { html, style, body, lang } of singles) {
  test(`${lang}: the single file embeds only small subset fonts, as data: URLs, within its budget`, () => {
    const faces = fontFaces(style);
    assert.ok(faces.length > 0, 'the single file declares no fonts');
    let bytes = 0;
    for (const face of faces) {
      const urls = [...face.src.matchAll(/url\(([^)]*)\)/g)].map((m) => m[1]);
      assert.ok(urls.length > 0, `${face.family}: no url()`);
      for (const url of urls) {
        assert.match(url, /^data:font\/woff2;base64,/, `${face.family}: font not inlined (${url.slice(0, 40)})`);
        bytes += Buffer.from(url.slice(url.indexOf(',') + 1), 'base64').length;
      }
    }
    assert.ok(bytes <= FONT_BUDGET, `fonts ${bytes} B > ${FONT_BUDGET} B`);
    const gzip = gzipSync(html, { level: 9 }).length;
    assert.ok(gzip <= GZIP_BUDGET, `single file ${gzip} B gzip > ${GZIP_BUDGET} B`);
  });

  test(`${lang}: every font family the CSS applies to the page is embedded or a system family`, () => {
    const embedded = new Set(fontFaces(style).map((f) => f.family));
    const used = familiesInUse(style, body, lang);
    assert.ok(
      used.get('DejaVu Math TeX Gyre') === 'math' && used.has('DejaVu Serif'),
      `the maths' families not found among ${[...used.keys()]}`,
    );
    for (const [family, selector] of used)
      assert.ok(
        embedded.has(family) || SYSTEM.has(family),
        `${selector} uses font family ${family}, which the single file does not embed`,
      );
    // And no face is carried that nothing uses.
    for (const family of embedded)
      assert.ok(used.has(family), `${family} is embedded but no rule that matches the page uses it`);
  });
}

test("the served site holds the single file's faces and no others", { skip: !single && 'no single-file build' }, () => {
  const css = readFileSync(join(dist, 'css', 'site.css'), 'utf8');
  const files = fontFaces(css).flatMap((f) => [...f.src.matchAll(/url\(\.\.\/fonts\/([^)]+)\)/g)].map((m) => m[1]));
  assert.deepEqual(
    readdirSync(join(dist, 'fonts'))
      .filter((f) => f.endsWith('.woff2'))
      .sort(),
    [...new Set(files)].sort(),
  );
  assert.deepEqual(
    fontFaces(css)
      .map((f) => f.family)
      .sort(),
    fontFaces(style)
      .map((f) => f.family)
      .sort(),
  );
});
