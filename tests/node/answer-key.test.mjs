// The teachers' answer key (web/site-builder/answer-key.mjs, written by build-scripts/package beside the
// zips): it lists every item of the self-test, its numbers are the engine's (and the page accepts
// exactly the range it prints), the right choices are the items' own, and no zip carries it.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { before, test } from 'node:test';
import { unzipSync, strFromU8 } from 'fflate';
import {
  acceptedRange,
  answerKey,
  WORKED_SEED,
  answerKeyPage,
  keyNumber,
  loadSiteEngine,
} from '../../web/site-builder/answer-key.mjs';
import { packageLms, writeAnswerKey } from '../../web/site-builder/package-lms.mjs';
import { ANSWER_KEY_FILE } from '../../web/site-builder/instructor-guide.mjs';
import { SELF_TEST_ITEMS, itemForAttempt, slotOf } from '../../web/js/self-test/self-test-items.js';
import { withinTolerance } from '../../web/js/self-test/self-test.js';
import { distDir as dist } from './engine-loader.mjs';

const course = join(dist, '..', 'dist-course');
const unescape = (s) =>
  s
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');

let engine;
let out;
let page;
before(async () => {
  engine = await loadSiteEngine(dist);
  out = mkdtempSync(join(tmpdir(), 'positional-key-'));
  page = readFileSync(await writeAnswerKey({ dist, out }), 'utf8');
});

test('the key lists every item of the self-test, by id and prompt, in the lesson’s order within each group', () => {
  const ids = [...page.matchAll(/<h3 id="item-([\w-]+)">\d+\. ([^<]*)<\/h3>/g)].map(([, id, prompt]) => ({
    id,
    prompt,
  }));
  assert.deepEqual(ids.map((i) => i.id).sort(), SELF_TEST_ITEMS.map((i) => i.id).sort());
  // A numeric item is printed as the worked draw asks it.
  for (const { id, prompt } of ids)
    assert.equal(
      unescape(prompt),
      itemForAttempt(
        SELF_TEST_ITEMS.find((i) => i.id === id),
        WORKED_SEED,
      ).prompt,
      id,
    );
});

test('the key names each item’s objective, and the check whose variants it is one of', () => {
  for (const item of SELF_TEST_ITEMS.filter((i) => i.kind !== 'predict')) {
    const slot = slotOf(item);
    const count = SELF_TEST_ITEMS.filter((i) => slotOf(i) === slot).length;
    assert.ok(count >= 2, `${item.id}: ${count} variants`);
    assert.ok(
      page.includes(
        `objective <code>${item.objective}</code>; id <code>${item.id}</code>; one of ${count} variants of the check <code>${slot}</code>`,
      ),
      item.id,
    );
  }
});

test("every number in the key is the engine's, and the printed range is exactly what the page accepts", () => {
  for (const template of SELF_TEST_ITEMS.filter((i) => i.kind === 'numeric')) {
    const item = itemForAttempt(template, WORKED_SEED);
    const value = item.answer(engine);
    const section = new RegExp(
      `id="item-${item.id}"[\\s\\S]*?Answer: ([^<]+)</strong>[^<]*that is from ([^ ]+) to ([^.]+(?:\\.\\d+)?)\\.`,
    ).exec(page);
    assert.ok(section, `${item.id} has an answer`);
    assert.equal(section[1], keyNumber(value), `${item.id}: the engine's value`);
    assert.ok(
      Math.abs(Number(section[1]) - value) <= Math.abs(value) * 1e-7 + 1e-12,
      `${item.id}: printed to 8 digits`,
    );
    const { min, max } = acceptedRange(item, value);
    assert.equal(section[2], keyNumber(min));
    assert.equal(section[3], keyNumber(max));
    // The page's own check agrees: the edges are in, a hair beyond is out.
    assert.ok(withinTolerance(item, min + 1e-9 * Math.max(1, Math.abs(min)), value), `${item.id}: min accepted`);
    assert.ok(!withinTolerance(item, max + 1e-6 * Math.max(1, Math.abs(max)), value), `${item.id}: beyond max refused`);
  }
  // The worked draws' values from the maths, to 1e-9 relative (sin, cos and pow round in the last bits).
  const byId = Object.fromEntries(answerKey(engine).map((k) => [k.id, k]));
  const maths = {
    rope_score: ({ m, n }) => Math.cos(n - m),
    ntk_base: ({ base, d, s }) => base * s ** (d / (d - 2)),
    interpolated_position: ({ train, target, pos }) => (pos * train) / target,
    sinusoidal_entry: ({ p, d }) => Math.sin(p * 10000 ** (-2 / d)),
    alibi_slope: ({ heads, head }) => 2 ** ((-8 * head) / heads),
    rope_score_sine: ({ m, n }) => Math.sin(m - n),
    ntk_pair_slowdown: ({ d, s, i }) => s ** ((2 * i) / (d - 2)),
    interpolated_distance: ({ train, target, gap }) => (gap * train) / target,
    sinusoidal_cosine: ({ p, d }) => Math.cos(p * 10000 ** (-2 / d)),
    alibi_penalty: ({ heads, head, distance }) => -distance * 2 ** ((-8 * head) / heads),
  };
  assert.deepEqual(
    Object.keys(maths).sort(),
    SELF_TEST_ITEMS.filter((i) => i.kind === 'numeric')
      .map((i) => i.id)
      .sort(),
  );
  for (const [id, f] of Object.entries(maths)) {
    const expected = f(byId[id].params);
    assert.ok(
      Math.abs(byId[id].value - expected) <= 1e-9 * Math.max(1, Math.abs(expected)),
      `${id}: ${byId[id].value}`,
    );
    assert.ok(
      page.includes(`Formula: ${unescape(byId[id].formula)}`.replace(/&/g, '&amp;')) ||
        page.includes(`Formula: ${byId[id].formula}`),
      id,
    );
  }
});

test("each choice and prediction names the item's right choice by id and text, and what the page then shows", () => {
  for (const item of SELF_TEST_ITEMS.filter((i) => i.kind !== 'numeric')) {
    const right = item.choices.find((c) => c.correct);
    const section = page.slice(page.indexOf(`id="item-${item.id}"`));
    if (!right) {
      // An open prediction: no right choice is named, and it is not among the graded items.
      assert.equal(item.kind, 'predict', item.id);
      assert.match(section.slice(0, section.indexOf('<h3', 1)), /<strong>No right choice<\/strong>/, item.id);
      assert.equal(answerKey(engine).find((k) => k.id === item.id).graded, false);
      continue;
    }
    const stated =
      /<strong>(Right choice|What happens)<\/strong> \(<code>([\w-]+)<\/code>\): <strong>([^<]*)<\/strong>/.exec(
        section,
      );
    assert.ok(stated, item.id);
    assert.equal(stated[1], item.kind === 'predict' ? 'What happens' : 'Right choice', item.id);
    assert.equal(stated[2], right.id, item.id);
    assert.equal(unescape(stated[3]), right.text, item.id);
  }
  const bag = answerKey(engine).find((k) => k.id === 'predict_bag');
  assert.match(bag.reveal, /^The engine gives 1\.000: the two orders are one bag\.$/);
  assert.ok(page.includes('The page then shows: The engine gives 1.000'));
});

test('a broken item is refused, naming it: two right choices, or a number that is not one', () => {
  const [choice] = SELF_TEST_ITEMS.filter((i) => i.kind === 'choice');
  const twoRight = { ...choice, choices: choice.choices.map((c) => ({ ...c, correct: true })) };
  assert.throws(
    () => answerKey(engine, [twoRight]),
    new RegExp(`${choice.id} has ${choice.choices.length} right choices`),
  );
  const [numeric] = SELF_TEST_ITEMS.filter((i) => i.kind === 'numeric');
  assert.throws(
    () => answerKey(engine, [{ ...numeric, answerWith: () => NaN }]),
    new RegExp(`${numeric.id}'s answer is NaN`),
  );
  assert.match(answerKeyPage([]), /0 graded checks/);
});

test('the key is written beside the zips and is in none of them, nor on the site', () => {
  assert.ok(existsSync(join(out, ANSWER_KEY_FILE)));
  const zips = packageLms({ course, out });
  assert.ok(zips.length >= 6);
  for (const { file } of zips) {
    const entries = unzipSync(new Uint8Array(readFileSync(file)));
    for (const [path, bytes] of Object.entries(entries)) {
      assert.doesNotMatch(path, /answer-key/i, `${file}: ${path}`);
      if (path.endsWith('.html'))
        assert.doesNotMatch(strFromU8(bytes), /Answer key, for teachers only/, `${file}: ${path}`);
    }
  }
  for (const dir of [dist, course, join(dist, '..', 'dist-single')])
    assert.deepEqual(
      readdirSync(dir, { recursive: true }).filter((f) => /answer-key/i.test(f)),
      [],
      dir,
    );
});

test('the key runs nothing and loads nothing: one inline style, allowed by its hash', () => {
  assert.doesNotMatch(page, /<script|<link rel="stylesheet"|https?:\/\/(?!www\.w3)/i);
  assert.match(page, /content="default-src 'none'; style-src 'sha256-[^']+'/);
  assert.match(page, /<meta name="robots" content="noindex">/);
});
