// The model-config reader's notes in the page's language: every note the reader writes for a preset
// or a test config is matched by model-card-text.js's readerNote, and on the Chinese page it reads in
// Chinese with the config's names kept.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { test } from 'node:test';
import { useLanguage } from '../../web/js/locale/i18n.js';
import { modelCardSummary, readerNote } from '../../web/js/charts/model-card/model-card-text.js';
import { loadEngine } from './engine-loader.mjs';

const engine = await loadEngine();
const repo = new URL('../../', import.meta.url);
const folders = ['web/presets/', 'tests/fixtures/configs/valid/', 'tests/fixtures/configs/degraded/'];
const zh = Object.assign(
  {},
  ...readdirSync(new URL('web/i18n/zh-Hans/', repo))
    .filter((f) => f.endsWith('.json'))
    .map((f) => JSON.parse(readFileSync(new URL(`web/i18n/zh-Hans/${f}`, repo), 'utf8'))),
);

/** Every note the reader writes for the configs in the folders above (a config it refuses has none). */
function allNotes() {
  const notes = new Set();
  for (const folder of folders)
    for (const file of readdirSync(new URL(folder, repo)).filter((f) => f.endsWith('.json') && f !== 'index.json')) {
      try {
        const r = engine.readModelConfig(readFileSync(new URL(`${folder}${file}`, repo), 'utf8'), 4096);
        for (const note of r.notes) notes.add(note);
      } catch {
        // Refused: no notes.
      }
    }
  return [...notes];
}

test('every note the reader writes for the presets and test configs reads in Chinese', () => {
  const notes = allNotes();
  assert.ok(notes.length >= 5, `${notes.length} notes`);
  useLanguage({ language: 'zh-Hans', entries: zh });
  try {
    for (const note of notes) {
      const said = readerNote(note);
      assert.notEqual(said, note, `not translated: ${note}`);
      // The config's own names stay as written (snake_case keys).
      for (const key of note.match(/\b[a-z]+(?:_[a-z]+)+\b/g) ?? [])
        assert.ok(said.includes(key), `${key} kept in ${said}`);
    }
  } finally {
    useLanguage({ language: 'en', entries: {} });
  }
});

test('the sliding-window note reads as the Chinese editor wrote it', () => {
  useLanguage({ language: 'zh-Hans', entries: zh });
  try {
    assert.equal(
      readerNote('sliding_window is given but use_sliding_window is false: attention is not windowed'),
      '给出了 sliding_window，但 use_sliding_window 为 false：注意力不分窗口',
    );
    assert.equal(readerNote('a note of a kind the page does not know'), 'a note of a kind the page does not know');
  } finally {
    useLanguage({ language: 'en', entries: {} });
  }
});

// Chinese sentences follow one another with no space after 。！？ (format.js's sentences()); the card's
// lines join several of its sentences each, at both ends of the prompt length.
test('no line of any preset’s card in Chinese has a space after a full stop', () => {
  useLanguage({ language: 'zh-Hans', entries: zh });
  try {
    const presets = readdirSync(new URL('web/presets/', repo)).filter((f) => f.endsWith('.json') && f !== 'index.json');
    for (const file of presets)
      for (const prompt of [1, 1073741824]) {
        const r = engine.readModelConfig(readFileSync(new URL(`web/presets/${file}`, repo), 'utf8'), prompt);
        for (const { term, text } of modelCardSummary(r))
          assert.doesNotMatch(`${term}: ${text}`, /[。！？] /, `${file} at ${prompt} tokens`);
      }
  } finally {
    useLanguage({ language: 'en', entries: {} });
  }
});
