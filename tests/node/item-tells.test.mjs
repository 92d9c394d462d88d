// The graded choices, every variant of the bank, carry no tell: a learner who has not read the lesson and answers by a pattern
// (always the longest choice, the shortest, the first, the last, the one with most numbers, the one
// sharing most words with the question) scores near chance, in each of the lesson's languages and
// over the orders the shuffle draws; and guessing at random passes almost never.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import {
  SELF_TEST_ITEMS,
  MASTERY_SCORE,
  TEST_LEVELS,
  inLevel,
  isGraded,
  slotOf,
  slotsOf,
} from '../../web/js/self-test/self-test-items.js';
import { choiceOrder } from '../../web/js/lms/record.js';
import { translate } from '../../web/js/locale/i18n.js';

const ZH = JSON.parse(readFileSync(new URL('../../web/i18n/zh-Hans/self-test.json', import.meta.url), 'utf8'));
const LANGUAGES = { en: (text) => text, 'zh-Hans': (text) => translate(ZH, 'zh-Hans', text) };

const CHOICE_ITEMS = SELF_TEST_ITEMS.filter((i) => isGraded(i) && i.kind === 'choice');
const GRADED = SELF_TEST_ITEMS.filter(isGraded);
// 2,000 seeds: a 4-choice item's share of orders with the right choice first is 0.25 ± 0.03 (3 σ).
const SEEDS = Array.from({ length: 2000 }, (_, s) => ((s * 2654435761) >>> 0).toString(16).padStart(8, '0'));

/** Words of a text: Latin words and numbers, and each Han character (Chinese writes no spaces). */
const words = (text) => text.toLowerCase().match(/\p{Script=Han}|[\p{L}\p{N}]+/gu) ?? [];
/** How many numbers a text holds (digits, with their separators). */
const numbers = (text) => (text.match(/\d[\d,.]*/g) ?? []).length;
/** A text's length as a reader sees it: characters, not UTF-16 units. */
const length = (text) => [...text].length;

/**
 * Strategies: each takes the choices as shown (their texts, in order) and the question, and returns
 * the index it picks. Ties go to the first shown, as a reader scanning down would take them.
 */
const pickMax = (score) => (texts) => {
  let best = 0;
  texts.forEach((text, i) => {
    if (score(text) > score(texts[best])) best = i;
  });
  return best;
};
const STRATEGIES = {
  longest: (texts) => pickMax(length)(texts),
  shortest: (texts) => pickMax((t) => -length(t))(texts),
  first: () => 0,
  last: (texts) => texts.length - 1,
  'most numbers': (texts) => pickMax(numbers)(texts),
  'most words shared with the question': (texts, prompt) => {
    const asked = new Set(words(prompt));
    return pickMax((t) => new Set(words(t).filter((w) => asked.has(w))).size)(texts);
  },
};

/** A strategy's expected share of the graded choice items right, over every seed, in `language`. */
function strategyScore(strategy, say, items = CHOICE_ITEMS) {
  let right = 0;
  for (const seed of SEEDS)
    for (const item of items) {
      const order = choiceOrder(item.id, item.choices.length, seed);
      const shown = order.map((i) => item.choices[i]);
      if (
        shown[
          strategy(
            shown.map((c) => say(c.text)),
            say(item.prompt),
          )
        ].correct
      )
        right++;
    }
  return right / (SEEDS.length * items.length);
}

/** Chance: the share a learner picking uniformly at random expects. */
const chance = (items = CHOICE_ITEMS) => items.reduce((sum, item) => sum + 1 / item.choices.length, 0) / items.length;

/**
 * The probability that guessing passes an attempt at the checks of `graded` (the bank's variants):
 * every choice at random, every number wrong. Each slot asks one of its variants, each as likely.
 */
function guessPassProbability(graded = GRADED, mastery = MASTERY_SCORE) {
  // Distribution of the number right, slot by slot (a Poisson-binomial).
  let dist = [1];
  const slots = slotsOf(graded);
  for (const slot of slots) {
    const variants = graded.filter((item) => slotOf(item) === slot);
    const p =
      variants.reduce((sum, item) => sum + (item.kind === 'choice' ? 1 / item.choices.length : 0), 0) / variants.length;
    const next = new Array(dist.length + 1).fill(0);
    dist.forEach((q, k) => {
      next[k] += q * (1 - p);
      next[k + 1] += q * p;
    });
    dist = next;
  }
  const needed = Math.ceil(mastery * slots.length - 1e-9);
  return dist.slice(needed).reduce((a, b) => a + b, 0);
}

for (const [language, say] of Object.entries(LANGUAGES))
  test(`${language}: no pattern beats chance by more than 10 points on the graded choices`, (t) => {
    const base = chance();
    const scores = Object.fromEntries(
      Object.entries(STRATEGIES).map(([name, strategy]) => [name, strategyScore(strategy, say)]),
    );
    t.diagnostic(
      `chance ${(100 * base).toFixed(1)}%; ${Object.entries(scores)
        .map(([name, score]) => `${name} ${(100 * score).toFixed(1)}%`)
        .join('; ')}`,
    );
    const over = Object.entries(scores).filter(([, score]) => score > base + 0.1);
    assert.deepEqual(
      over.map(([name, score]) => `${name}: ${(100 * score).toFixed(1)}%`),
      [],
      `chance is ${(100 * base).toFixed(1)}%`,
    );
  });

for (const level of TEST_LEVELS)
  test(`the test of level ${level}: guessing at random passes with a probability under 1%`, (t) => {
    const checks = GRADED.filter((i) => inLevel(i, level));
    const p = guessPassProbability(checks);
    t.diagnostic(
      `level ${level}: ${slotsOf(checks).length} checks an attempt (from ${checks.length} variants), pass probability ${p.toExponential(2)}`,
    );
    assert.equal(slotsOf(checks).length, { 1: 8, 2: 7, all: 15 }[level]);
    assert.ok(p < 0.01, `pass probability ${p}`);
  });
