// The Chinese text keeps to its glossary (web/i18n/glossary.zh-Hans.md): no rendering the glossary
// lists as not used appears in the lesson or the interface tables, a number of four digits or more
// before 亿 or 万 is grouped, and a link's Latin text keeps its space from the Chinese beside it.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { test } from 'node:test';

const read = (path) => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8');
const GLOSSARY = read('web/i18n/glossary.zh-Hans.md');
const TEXTS = {
  'web/lesson/lesson.zh-Hans.md': read('web/lesson/lesson.zh-Hans.md'),
  'web/i18n/page.zh-Hans.json': read('web/i18n/page.zh-Hans.json'),
  ...Object.fromEntries(
    readdirSync(new URL('../../web/i18n/zh-Hans/', import.meta.url))
      .filter((f) => f.endsWith('.json'))
      .map((f) => [`web/i18n/zh-Hans/${f}`, read(`web/i18n/zh-Hans/${f}`)]),
  ),
};

/** The rows of the glossary's "Renderings not used" table: [{ not, but }]. */
function avoided() {
  const section = GLOSSARY.split(/^## /m).find((s) => s.startsWith('Renderings not used'));
  assert.ok(section, 'the glossary has a "Renderings not used" section');
  return section
    .split('\n')
    .filter((line) => /^\| [^-]/.test(line) && !line.startsWith('| Not |'))
    .map((line) => line.split('|').map((cell) => cell.trim()))
    .map(([, not, but]) => ({ not, but }));
}

test('no rendering the glossary lists as not used appears in the Chinese texts', () => {
  const rows = avoided();
  assert.ok(rows.length >= 5, `the table has its rows (${rows.length})`);
  const found = [];
  for (const { not, but } of rows)
    for (const [file, text] of Object.entries(TEXTS))
      if (text.includes(not)) found.push(`${file}: "${not}" (the glossary says "${but}")`);
  assert.deepEqual(found, []);
});

test('four digits or more before 亿 or 万 are grouped, as every other number', () => {
  const found = [];
  for (const [file, text] of Object.entries(TEXTS))
    for (const m of text.matchAll(/(?<![\d,.])\d{4,}\s*[亿万]/g)) found.push(`${file}: "${m[0]}"`);
  assert.deepEqual(found, []);
});

test('a linked term that ends or starts in Latin letters keeps a space from the Chinese beside it', () => {
  const lesson = TEXTS['web/lesson/lesson.zh-Hans.md'];
  const found = [
    ...lesson.matchAll(/\{\{part:[^|}]+\|[^}]*[A-Za-z0-9]\}\}(?=\p{Script=Han})/gu),
    ...lesson.matchAll(/(?<=\p{Script=Han})\{\{part:[^|}]+\|[A-Za-z0-9][^}]*\}\}/gu),
  ].map((m) => m[0]);
  assert.deepEqual(found, []);
});
