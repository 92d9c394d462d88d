// The graded self-test's items and the course-site helpers that need no browser: how answers are
// read and checked, the items' shape and placement, the SCORM time formats and cmi5 launch parsing.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import {
  SELF_TEST_ITEMS,
  MASTERY_SCORE,
  isGraded,
  isOpenPrediction,
  itemForAttempt,
  OBJECTIVES,
  TEST_LEVELS,
  attemptItems,
  drawnVariant,
  inLevel,
  slotOf,
  slotsOf,
} from '../../web/js/self-test/self-test-items.js';
import { courseGrader } from '../../web/js/lms/course-grading.js';
import { gradeResponse, parseNumber, withinTolerance } from '../../web/js/self-test/self-test.js';
import { decodeRecord, emptyRecord, encodeRecord, summarize } from '../../web/js/lms/record.js';
import { isoDuration, scorm12Duration } from '../../web/js/lms/scorm.js';
import { cmi5Launch } from '../../web/js/lms/cmi5.js';
import { loadEngine } from './engine-loader.mjs';
import { EXTENSION, NTK } from '../../web/js/prose/live-values.js';

const lesson = readFileSync(new URL('../../web/lesson/lesson.md', import.meta.url), 'utf8');

test('at least 10 graded checks across both levels, each item placed once in the lesson', () => {
  // Predictions are recorded, not graded: the pass mark measures the checks alone.
  const checks = SELF_TEST_ITEMS.filter(isGraded);
  assert.ok(checks.length >= 10, `${checks.length} checks`);
  assert.ok(checks.every((i) => i.kind !== 'predict'));
  assert.ok(
    SELF_TEST_ITEMS.every((i) => !i.choices || i.choices.every((c) => /^[A-Za-z0-9_.]+$/.test(c.id))),
    'every choice has an id',
  );
  for (const item of SELF_TEST_ITEMS.filter((i) => i.choices))
    assert.equal(new Set(item.choices.map((c) => c.id)).size, item.choices.length, `${item.id}: choice ids are unique`);
  assert.deepEqual([...new Set(SELF_TEST_ITEMS.map((i) => i.level))].sort(), [1, 2]);
  assert.equal(new Set(SELF_TEST_ITEMS.map((i) => i.id)).size, SELF_TEST_ITEMS.length, 'ids are unique');
  // The lesson places slots; each variant is shown in its slot's placeholder.
  for (const slot of slotsOf()) {
    const placeholders = lesson.split(`<div class="graded-item" data-item="${slot}"></div>`).length - 1;
    assert.equal(placeholders, 1, `${slot} appears ${placeholders} times in lesson.md`);
  }
  for (const item of SELF_TEST_ITEMS.filter((i) => i.slot))
    assert.equal(lesson.split(`data-item="${item.id}"`).length - 1, 0, `${item.id} is shown in ${item.slot}'s place`);
  assert.ok(MASTERY_SCORE > 0 && MASTERY_SCORE <= 1);
});

test('every item names the objective it measures, one of the lesson’s at the item’s level', () => {
  for (const item of SELF_TEST_ITEMS) {
    assert.ok(Object.hasOwn(OBJECTIVES, item.objective), `${item.id}: objective ${item.objective}`);
    assert.equal(OBJECTIVES[item.objective].level, item.level, `${item.id} measures an objective of its level`);
  }
  for (const key of Object.keys(OBJECTIVES))
    assert.ok(
      SELF_TEST_ITEMS.some((i) => i.objective === key),
      `${key} is measured by a question`,
    );
});

test('predictions sit inside Level 2 sections, before the figure they predict', () => {
  const level2 = lesson.slice(lesson.indexOf('{#level-2}'), lesson.indexOf('{#in-20-seconds}'));
  const predictions = SELF_TEST_ITEMS.filter((i) => i.kind === 'predict');
  assert.ok(predictions.length >= 3);
  for (const item of predictions) {
    const at = level2.indexOf(`data-item="${item.id}"`);
    assert.ok(at >= 0, `${item.id} is in Level 2`);
    if (item.figure)
      assert.ok(
        level2.indexOf(`chart ${item.figure.replace(/^fig-/, '')}`) > at,
        `${item.id} comes before ${item.figure}`,
      );
    // An open prediction is answered by the section's measurements, not by one engine number.
    if (!isOpenPrediction(item))
      assert.ok(
        item.reveal.some((part) => typeof part === 'object' && part.live),
        `${item.id} reveals an engine number`,
      );
  }
});

test('every choice item has one right answer and a misconception named for every wrong one', () => {
  for (const item of SELF_TEST_ITEMS.filter((i) => i.kind !== 'numeric')) {
    // Only a prediction may be open (no right choice); a graded choice always has one.
    assert.equal(item.choices.filter((c) => c.correct).length, isOpenPrediction(item) ? 0 : 1, item.id);
    for (const choice of item.choices)
      assert.ok(choice.why && choice.why.length > 20, `${item.id}: "${choice.text}" has no feedback`);
    assert.equal(
      new Set(item.choices.map((c) => c.why)).size,
      item.choices.length,
      `${item.id}: each choice has its own feedback`,
    );
  }
});

test('numeric items draw their numbers per attempt, never the worked examples’, and engine and formula agree', async () => {
  const engine = await loadEngine();
  const numeric = SELF_TEST_ITEMS.filter((i) => i.kind === 'numeric');
  assert.ok(numeric.length >= 5);
  // The worked examples' parameters and printed values: no attempt asks with them or for them.
  const forbiddenParams = {
    train: [EXTENSION.trainedLength],
    target: [EXTENSION.targetLength],
    base: [NTK.base],
    d: [NTK.headDim],
    s: [EXTENSION.targetLength / EXTENSION.trainedLength],
  };
  const forbiddenValues = [-0.654, 82685, 1500, 0.841, 0.125];
  for (const template of numeric) {
    assert.match(template.toleranceText, /within/);
    assert.equal(typeof template.draw, 'function', `${template.id} draws its numbers`);
    const draws = new Set();
    for (let s = 0; s < 300; s++) {
      const seed = ((s * 2654435761) >>> 0).toString(16).padStart(8, '0');
      const item = itemForAttempt(template, seed);
      assert.deepEqual(itemForAttempt(template, seed).params, item.params, 'the same seed draws the same numbers');
      draws.add(JSON.stringify(item.params));
      for (const [name, values] of Object.entries(forbiddenParams))
        if (name in item.params)
          assert.ok(!values.includes(item.params[name]), `${item.id}: ${name} ${item.params[name]}`);
      if (item.id === 'rope_score') assert.notEqual(item.params.n - item.params.m, 4, 'the lesson’s distance');
      const value = item.answer(engine);
      // The course shell grades with the formula: the same value as the engine's, to 1e-9 relative
      // (the two differ only by rounding in the last bits of sin, cos and pow).
      assert.ok(
        Math.abs(item.formula() - value) <= 1e-9 * Math.max(1, Math.abs(value)),
        `${item.id}: ${JSON.stringify(item.params)}`,
      );
      for (const printed of forbiddenValues)
        assert.ok(
          !withinTolerance(item, printed, value),
          `${item.id} ${JSON.stringify(item.params)}: ${printed} would pass`,
        );
      // A learner who rounds as the tolerance text says is right; one a little further off is not.
      const rounded = item.relative
        ? Number(value.toPrecision(4))
        : Number(value.toFixed(item.tolerance >= 0.5 ? 0 : 3));
      assert.ok(withinTolerance(item, rounded, value), `${item.id}: ${rounded} should pass for ${value}`);
      const off = item.relative ? value * (1 + 3 * item.tolerance) : value + 3 * item.tolerance;
      assert.ok(!withinTolerance(item, off, value), `${item.id}: ${off} should fail`);
    }
    assert.ok(draws.size >= 10, `${template.id}: ${draws.size} different draws in 300 attempts`);
  }
});

test('the ALiBi slope check rarely asks a retake for the slope it asked before', async () => {
  const engine = await loadEngine();
  const template = SELF_TEST_ITEMS.find((i) => i.id === 'alibi_slope');
  const values = new Map();
  const draws = new Set();
  const attempts = 4000;
  for (let s = 0; s < attempts; s++) {
    const item = itemForAttempt(template, ((s * 2654435761) >>> 0).toString(16).padStart(8, '0'));
    const { heads, head } = item.params;
    // The prompt's formula holds for ALiBi's power-of-2 head counts, where the engine agrees with it.
    assert.equal(heads & (heads - 1), 0, `${heads} heads`);
    const value = item.answer(engine);
    assert.ok(Math.abs(item.formula() - value) <= 1e-12 * value, JSON.stringify(item.params));
    draws.add(`${heads}/${head}`);
    // Slopes keyed by their exponent −8h/H: two different ones differ by at least 2^(1/16) (4%),
    // far past the 0.5% tolerance.
    const key = Math.round(Math.log2(value) * 1e6);
    values.set(key, (values.get(key) ?? 0) + 1);
  }
  // The chance that two attempts ask for the same slope: the sum of each slope's share squared
  // (4,000 draws put its standard error near 0.002).
  const repeat = [...values.values()].reduce((sum, n) => sum + (n / attempts) ** 2, 0);
  assert.ok(draws.size >= 150, `${draws.size} different draws`);
  assert.ok(repeat <= 0.03, `a retake repeats the slope with probability ${repeat.toFixed(3)}`);
});

test('answers are read as people type them, and anything else is refused', () => {
  assert.equal(parseNumber('−0.654'), -0.654);
  assert.equal(parseNumber(' 82,685 '), 82685);
  assert.equal(parseNumber('82 685'), 82685);
  assert.equal(parseNumber('+1500'), 1500);
  assert.equal(parseNumber('.84'), 0.84);
  assert.equal(parseNumber('8.27e4'), 82700);
  for (const bad of ['', 'seventeen', '1.2.3', '--1', '0x10', 'Infinity', '<b>1</b>'])
    assert.equal(parseNumber(bad), null, bad);
});

test("session times in each SCORM edition's format", () => {
  assert.equal(isoDuration(0), 'PT0S');
  assert.equal(isoDuration(3723450), 'PT1H2M3.45S');
  assert.equal(isoDuration(61000), 'PT1M1S');
  assert.equal(scorm12Duration(3723450), '0001:02:03.45');
  assert.equal(scorm12Duration(500), '0000:00:00.50');
});

test('cmi5 launch parameters: all five or none, the actor as JSON', () => {
  const actor = { objectType: 'Agent', account: { homePage: 'https://lms.test', name: 'l1' } };
  const full = new URLSearchParams({
    endpoint: 'https://lms.test/xapi',
    fetch: 'https://lms.test/f?k=1',
    actor: JSON.stringify(actor),
    registration: 'r-1',
    activityId: 'urn:x:au',
  });
  const launch = cmi5Launch(`?${full}`);
  assert.equal(
    launch.endpoint,
    'https://lms.test/xapi/',
    'the endpoint ends in a slash, so statements resolve under it',
  );
  assert.deepEqual(launch.actor, actor);
  assert.equal(launch.fetchUrl, 'https://lms.test/f?k=1');
  const partial = new URLSearchParams(full);
  partial.delete('registration');
  assert.equal(cmi5Launch(`?${partial}`), null);
  full.set('actor', '{not json');
  assert.throws(() => cmi5Launch(`?${full}`), /actor must be an xAPI Agent in JSON/);
  full.set('actor', JSON.stringify(actor));
  full.set('endpoint', 'javascript:alert(1)');
  assert.throws(
    () => cmi5Launch(`?${full}`),
    /endpoint must be an absolute address|endpoint must be an http\(s\) address/,
  );
});

test('the length-lab prediction is recorded whatever is chosen and changes neither the score nor the count', async () => {
  const engine = await loadEngine();
  const item = SELF_TEST_ITEMS.find((i) => i.id === 'predict_length_lab');
  assert.ok(item && item.kind === 'predict' && isOpenPrediction(item) && !isGraded(item));
  assert.deepEqual(
    item.choices.map((c) => c.id),
    ['none', 'learned', 'sinusoidal', 'rope', 'rope_yarn', 'alibi'],
  );
  // It sits in the lab's section, before the section's results.
  const section = lesson.slice(lesson.indexOf('{#length-lab}'), lesson.indexOf('{#causal-mask}'));
  assert.ok(section.indexOf('data-item="predict_length_lab"') >= 0, 'in the length-lab section');
  assert.ok(section.indexOf('data-item="predict_length_lab"') < section.indexOf('{{lab-table:'), 'before the results');

  // The items as the attempt with seed 0badc0de asks them.
  const graded = SELF_TEST_ITEMS.filter(isGraded).map((i) => itemForAttempt(i, '0badc0de'));
  // A right answer to every check (the engine's value, or the right choice), and a wrong one to the first.
  const right = (i) => (i.kind === 'numeric' ? String(i.answer(engine)) : i.choices.find((c) => c.correct).id);
  const wrongFirst = (i, n) => (n === 0 && i.kind === 'choice' ? i.choices.find((c) => !c.correct).id : right(i));
  for (const answerOf of [right, wrongFirst]) {
    const checks = Object.fromEntries(graded.map((i, n) => [i.id, answerOf(i, n)]));
    const scored = (responses) => {
      const grades = {};
      for (const i of [...graded, item])
        if (responses[i.id] !== undefined) grades[i.id] = gradeResponse(i, responses[i.id], engine);
      return summarize(graded, grades, MASTERY_SCORE);
    };
    const without = scored(checks);
    assert.equal(without.total, graded.length);
    for (const choice of item.choices) {
      assert.equal(gradeResponse(item, choice.id, engine), null, `${choice.id} is not graded`);
      const record = { ...emptyRecord('0badc0de'), responses: { ...checks, [item.id]: choice.id } };
      assert.deepEqual(scored(record.responses), without, `predicting ${choice.id} leaves the score alone`);
      // The record a course site and this browser keep holds the choice.
      const kept = decodeRecord(
        encodeRecord(record),
        SELF_TEST_ITEMS.map((i) => i.id),
      );
      assert.equal(kept.responses[item.id], choice.id);
    }
  }
});

// Seeds of many attempts, spread over the 32-bit range.
const ATTEMPT_SEEDS = Array.from({ length: 400 }, (_, s) => ((s * 2654435761) >>> 0).toString(16).padStart(8, '0'));

test('every graded slot has two variants or more, of one objective, level and kind, and an attempt asks one of each', () => {
  const graded = SELF_TEST_ITEMS.filter(isGraded);
  for (const slot of slotsOf(graded)) {
    const variants = graded.filter((i) => slotOf(i) === slot);
    assert.ok(variants.length >= 2, `${slot}: ${variants.length} variant(s)`);
    for (const key of ['objective', 'level', 'kind'])
      assert.equal(new Set(variants.map((v) => v[key])).size, 1, `${slot}: its variants share one ${key}`);
    // Every variant is drawn by some attempt, and no variant by all.
    const drawn = new Set(ATTEMPT_SEEDS.map((seed) => drawnVariant(slot, seed).id));
    assert.deepEqual([...drawn].sort(), variants.map((v) => v.id).sort(), `${slot}: each variant is drawn`);
  }
  // The test of each level keeps its length: Level 1 8 checks, Level 2 7, both 15.
  const expected = { 1: 8, 2: 7, all: 15 };
  for (const level of TEST_LEVELS)
    for (const seed of ATTEMPT_SEEDS.slice(0, 50)) {
      const asked = attemptItems(seed).filter((i) => isGraded(i) && inLevel(i, level));
      assert.equal(asked.length, expected[level], `level ${level}, seed ${seed}`);
      assert.equal(new Set(asked.map(slotOf)).size, asked.length, 'one variant per slot');
    }
});

test('a resumed attempt keeps its variants and numbers; attempts of other seeds draw other variants, and grade right', async () => {
  const engine = await loadEngine();
  const grader = courseGrader();
  const views = ATTEMPT_SEEDS.slice(0, 2).map((seed) => attemptItems(seed));
  // The same seed (a resumed attempt, or the page reloaded) asks the same variants with the same numbers.
  for (const [n, seed] of ATTEMPT_SEEDS.slice(0, 2).entries())
    assert.deepEqual(
      attemptItems(seed).map((i) => [i.id, i.prompt, i.params]),
      views[n].map((i) => [i.id, i.prompt, i.params]),
    );
  const differing = views[0].filter((item, n) => item.id !== views[1][n].id);
  assert.ok(differing.length >= 1, 'two attempts differ in at least one slot’s variant');
  for (const [n, seed] of ATTEMPT_SEEDS.slice(0, 2).entries()) {
    // Right answers to the attempt's own variants: every check right, on the page (the engine) and in the shell (the formulas).
    const responses = {};
    for (const item of views[n].filter(isGraded)) {
      responses[item.id] =
        item.kind === 'numeric' ? String(item.answer(engine)) : item.choices.find((c) => c.correct).id;
      assert.equal(gradeResponse(item, responses[item.id], engine), true, `${seed}: ${item.id} on the page`);
      assert.ok(grader.accepts(item.id, responses[item.id], seed), `${seed}: the shell takes ${item.id}`);
      assert.equal(grader.interaction(item.id, responses[item.id], seed).result, 'correct', `${seed}: ${item.id}`);
    }
    const summary = grader.summary(responses, null, seed);
    assert.deepEqual([summary.correct, summary.total, summary.passed], [15, 15, true], seed);
  }
  // Over many attempts, a learner who retakes usually meets a different test.
  const same = ATTEMPT_SEEDS.slice(1).filter(
    (seed) =>
      attemptItems(seed)
        .map((i) => i.id)
        .join() === views[0].map((i) => i.id).join(),
  );
  assert.ok(same.length <= 2, `${same.length} of ${ATTEMPT_SEEDS.length - 1} attempts ask the first one's variants`);
});

test('the course shell takes no answer to a variant its attempt did not draw, and grades none', () => {
  const grader = courseGrader();
  for (const seed of ATTEMPT_SEEDS.slice(0, 20)) {
    const asked = new Set(attemptItems(seed).map((i) => i.id));
    const undrawn = SELF_TEST_ITEMS.filter((i) => isGraded(i) && !asked.has(i.id));
    assert.equal(undrawn.length, SELF_TEST_ITEMS.filter(isGraded).length - 15);
    const responses = {};
    for (const item of undrawn) {
      const response = item.kind === 'numeric' ? String(item.formulaWith(item.draw(() => 0.5))) : item.choices[0].id;
      assert.equal(grader.accepts(item.id, response, seed), false, `${seed}: ${item.id} is not asked`);
      assert.throws(() => grader.interaction(item.id, response, seed), /not one the attempt with seed/);
      responses[item.id] = response;
    }
    // Answers to undrawn variants count for nothing: the attempt is not even started.
    const summary = grader.summary(responses, null, seed);
    assert.deepEqual([summary.answered, summary.correct, summary.total], [0, 0, 15]);
  }
});
