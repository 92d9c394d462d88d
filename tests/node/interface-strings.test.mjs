// Every interface text the scripts show goes through web/js/locale/i18n.js (t, tn) with a fixed English
// text (and the diagrams' titles and labels come from web/lesson/diagrams.json), and every translation (web/i18n/LANG/*.json) has each of them, with the same {placeholders},
// and nothing it no longer needs. This is the test that lists what a translation still lacks.

import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';

import { interfaceStrings, lessonLanguages } from '../../web/site-builder/build-site.mjs';
import { snippetComments } from '../../web/site-builder/render-lesson.mjs';
import { translate } from '../../web/js/locale/i18n.js';
import { COMMA_GROUPED_LANGUAGES, grouped, listed, sentences, trueMinus } from '../../web/js/locale/format.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SOURCE_DIRS = ['web/js', 'web/site-builder'];

function sources() {
  const files = [];
  const walk = (dir) => {
    for (const entry of readdirSync(join(ROOT, dir), { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (/\.m?js$/.test(entry.name) && !path.endsWith('web/js/locale/i18n.js')) files.push(path);
    }
  };
  SOURCE_DIRS.forEach(walk);
  return files;
}

// A JavaScript string literal's text: '…', "…" or `…` without ${…}.
const LITERAL = String.raw`('(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*"|\`(?:[^\`\\$]|\\.|\$(?!\{))*\`)`;
const CALL = new RegExp(
  String.raw`(?<![\w.$])(t|tn)\(\s*` + '(' + LITERAL + String.raw`(?:\s*,\s*` + LITERAL + ')?)?',
  'g',
);

function literalText(literal) {
  const inner = literal.slice(1, -1);
  // The escapes the sources use (\', \", \\, \n, \uXXXX), read as JSON reads them.
  return JSON.parse(
    `"${inner
      .replace(/\\(['`])/g, '$1')
      .replace(/(?<!\\)"/g, '\\"')
      .replace(/\n/g, '\\n')}"`,
  );
}

/** Every text passed to t() and tn() in the page's and the build's scripts: text → the files using it. */
export function interfaceTexts() {
  const texts = new Map();
  const problems = [];
  for (const file of sources()) {
    const code = readFileSync(join(ROOT, file), 'utf8');
    if (!code.includes("i18n.js'")) continue;
    for (const match of code.matchAll(CALL)) {
      const [, fn, , first, second] = match;
      const line = code.slice(0, match.index).split('\n').length;
      if (!first) {
        problems.push(
          `${file}:${line}: ${fn}() needs its English text written in the call (numbers as {placeholders})`,
        );
        continue;
      }
      const add = (text) => texts.set(text, [...(texts.get(text) ?? []), `${file}:${line}`]);
      if (fn === 'tn') {
        if (!second) problems.push(`${file}:${line}: tn() takes the singular and the plural text`);
        else add(literalText(second));
      } else add(literalText(first));
    }
  }
  // The diagrams' words: data the build translates (render-lesson.mjs, translateData).
  const diagrams = JSON.parse(readFileSync(join(ROOT, 'web/lesson/diagrams.json'), 'utf8'));
  for (const [id, spec] of Object.entries(diagrams).filter(([key]) => !key.startsWith('$'))) {
    for (const text of [spec.title, ...spec.nodes.map((n) => n.label), ...spec.edges.map((e) => e.label)])
      if (text) texts.set(text, [...(texts.get(text) ?? []), `web/lesson/diagrams.json: ${id}`]);
  }
  // The Python snippets' explaining comments: data the build translates (render-lesson.mjs, translateComments).
  const lesson = readFileSync(join(ROOT, 'web/lesson/lesson.md'), 'utf8');
  for (const [, code] of lesson.matchAll(/^```python[^\n]*\n([\s\S]*?)^```/gm))
    for (const text of snippetComments(code))
      texts.set(text, [...(texts.get(text) ?? []), 'web/lesson/lesson.md: snippet']);
  // The presets' notes (web/js/charts/model-card/model-presets.js, tData).
  for (const { id, note } of JSON.parse(readFileSync(join(ROOT, 'web/presets/index.json'), 'utf8')).presets)
    if (note) texts.set(note, [...(texts.get(note) ?? []), `web/presets/index.json: ${id}`]);
  return { texts, problems };
}

const placeholders = (text) =>
  [
    ...new Set(
      (typeof text === 'string' ? [text] : Object.values(text)).flatMap((s) =>
        [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]),
      ),
    ),
  ].sort();

const { texts, problems } = interfaceTexts();
const translations = lessonLanguages().filter((l) => l.code !== 'en');

describe('interface texts', () => {
  test('every t() and tn() call writes its English text as a fixed literal', () => {
    assert.deepEqual(problems, []);
    assert.ok(texts.size > 0, 'no interface texts found in web/js or web/site-builder');
  });

  test('sentences() joins with a space, and without one after a Chinese full stop', () => {
    assert.equal(
      sentences('Not trained yet.', '', 'Every model uses SSMax.'),
      'Not trained yet. Every model uses SSMax.',
    );
    assert.equal(
      sentences('尚未训练。', '每个模型都使用 SSMax。', '先回答预测。'),
      '尚未训练。每个模型都使用 SSMax。先回答预测。',
    );
    assert.equal(sentences('', 'One.'), 'One.');
  });

  test('translate() fills placeholders and chooses plural forms', () => {
    assert.equal(translate({}, 'en', 'Head {head} of {heads}', { head: 3, heads: '1,024' }), 'Head 3 of 1,024');
    assert.equal(translate({ 'a {x}': '甲 {x}' }, 'zh-Hans', 'a {x}', { x: 2 }), '甲 2');
    const forms = { heads: { one: 'head', other: 'heads' } };
    assert.equal(translate(forms, 'en', 'heads', {}, 1), 'head');
    assert.equal(translate(forms, 'en', 'heads', {}, 2), 'heads');
    assert.equal(translate({}, 'en', 'kept {unknown}', { other: 1 }), 'kept {unknown}');
  });

  test('Chinese drops the template’s space where a placeholder’s Chinese meets Chinese, and keeps it beside Latin', () => {
    const kept = { '{label} must be a number.': '{label} 必须是数字。' };
    assert.equal(translate(kept, 'zh-Hans', '{label} must be a number.', { label: '基数' }), '基数必须是数字。');
    assert.equal(translate(kept, 'zh-Hans', '{label} must be a number.', { label: 'd' }), 'd 必须是数字。');
    assert.equal(translate(kept, 'zh-Hans', '{label} must be a number.', { label: '维度 d' }), '维度 d 必须是数字。');
    assert.equal(translate({}, 'en', 'two  words', {}), 'two  words');
  });

  test('lists and numbers in the page’s language (English outside a page), numbers or texts alike', () => {
    assert.equal(listed([0, 100, grouped(1000)]), '0, 100, 1,000');
    assert.equal(listed(['RoPE']), 'RoPE');
    assert.equal(listed([]), '');
    assert.equal(grouped(-1234567.4), '\u22121,234,567');
  });

  test('grouped() writes what Intl.NumberFormat writes, in each language it groups by itself', () => {
    // Exact: both are the same digits and commas. Every page language is one of those grouped
    // by hand, so each is checked here; a language grouped otherwise would take the Intl path.
    const codes = ['en', ...translations.map((language) => language.code)];
    assert.deepEqual(
      codes.filter((code) => !COMMA_GROUPED_LANGUAGES.has(code)),
      [],
      'a page language grouped by Intl alone (move it out of the comparison below, or add it to the set)',
    );
    const values = [0, -0, 0.4, -0.4, 1, -1, 999, 999.5, 1000, -1000, 12345, 82685.4, 786432, -1234567.4];
    for (let k = 0; k <= 53; k++) values.push(2 ** k - 1, -(2 ** k) + 1);
    const saved = globalThis.document;
    try {
      for (const code of COMMA_GROUPED_LANGUAGES) {
        globalThis.document = { documentElement: { lang: code } };
        const intl = new Intl.NumberFormat(code);
        for (const x of values) assert.equal(grouped(x), trueMinus(intl.format(Math.round(x))), `${code}: ${x}`);
      }
    } finally {
      globalThis.document = saved;
    }
  });

  for (const language of translations) {
    const table = interfaceStrings(language.code);
    test(`web/i18n/${language.code}/: a translation of every interface text`, () => {
      const missing = [...texts.keys()].filter((text) => !(text in table));
      assert.deepEqual(
        missing.map((text) => `${JSON.stringify(text)} (${texts.get(text)[0]})`),
        [],
        `web/i18n/${language.code}/*.json lacks ${missing.length} of ${texts.size} texts`,
      );
    });
    test(`web/i18n/${language.code}/: no text the scripts no longer show`, () => {
      assert.deepEqual(
        Object.keys(table).filter((text) => !texts.has(text)),
        [],
      );
    });
    test(`web/i18n/${language.code}/: each translation keeps its text's placeholders and is not empty`, () => {
      const wrong = Object.entries(table)
        .filter(([english]) => texts.has(english))
        .filter(
          ([english, text]) =>
            JSON.stringify(placeholders(english)) !== JSON.stringify(placeholders(text)) ||
            !String(typeof text === 'string' ? text : text.other).trim(),
        )
        .map(([english, text]) => `${JSON.stringify(english)} → ${JSON.stringify(text)}`);
      assert.deepEqual(wrong, []);
    });
  }
});
