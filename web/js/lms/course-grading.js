// @ts-check
// The course shell's grader: the self-test's record graded where it is kept. From the responses the
// shell holds it works out each answer's result and correct response, and the score and verdict,
// against the item bank (web/js/self-test/self-test-items.js), so whatever the framed page claims,
// a course site hears only what the answers earn. The page gives answers and the words a teacher
// reads beside them; it is never asked whether they are right.
import {
  SELF_TEST_ITEMS,
  MASTERY_SCORE,
  inLevel,
  isGraded,
  isOpenPrediction,
  attemptItems,
  isDrawn,
  itemForAttempt,
} from '../self-test/self-test-items.js';
import { allowedError, gradeAgainst, isResponseTo } from '../self-test/grading.js';
import { choiceOrder, summarize } from './record.js';

// The most of the page's words kept for a question or a choice: a course site shows them, nothing grades them.
const MAX_LABEL_LENGTH = 1000;
const LANGUAGE_TAG = /^[A-Za-z]{2,8}(-[A-Za-z0-9]{1,8}){0,4}$/;

const label = (text, fallback) =>
  typeof text === 'string' && text.trim() ? text.slice(0, MAX_LABEL_LENGTH) : fallback;

/** The value a numeric item, as the attempt asks it (itemForAttempt), must be answered with: its formula's. */
const expectedValue = (item) => item.formula();

/**
 * A grader over the items of `bank` (by default the self-test's) in the test of `level` ('1', '2'
 * or 'all': the course's choice; the other level's items are not taken and never count). Its methods:
 * accepts(id, response, seed): whether `response` could answer item `id` in the attempt with `seed`
 *   (an item the attempt did not draw for its slot takes no answer); drawn(id): whether its numbers
 *   are drawn per attempt;
 * interaction(id, response, seed, words): what a course site is told of the answer, its result and
 *   correct response worked out here for the attempt's numbers (drawn from `seed`); `words`
 *   ({ description, language, choices: { id: text } }, from the page) only label it;
 * summary(responses, mastery, seed): the score and verdict of `responses` (item id → response) in
 *   the attempt with `seed`, over the variants it drew (one per slot), the pass mark `mastery` or, when the course set none, the lesson's.
 */
/**
 * What a course site is told of one answer (courseGrader's interaction).
 * @typedef {object} CourseInteraction
 * @property {string} id the item's id
 * @property {'numeric' | 'choice'} type
 * @property {boolean} graded
 * @property {string} description the question, in the page's language
 * @property {string} language a language tag
 * @property {unknown} response
 * @property {'correct' | 'incorrect' | 'neutral'} result
 * @property {any} [correctResponse] { value, min, max } for a numeric item, the right choice's id for a choice
 * @property {{ id: string, text: string }[]} [choices]
 */

export function courseGrader(bank = SELF_TEST_ITEMS, level = 'all') {
  const items = bank.filter((item) => inLevel(item, level));
  const byId = new Map(items.map((item) => [item.id, item]));
  const grade = (item, response) => gradeAgainst(item, response, item.kind === 'numeric' ? expectedValue(item) : null);
  return {
    level,
    ids: items.map((item) => item.id),
    /** Whether item `id` draws its numbers from the attempt's seed: an answer to it belongs to that seed. */
    drawn(id) {
      return Boolean(byId.get(id)?.draw);
    },
    accepts(id, response, seed) {
      const item = byId.get(id);
      return Boolean(item) && isDrawn(item, seed, items) && isResponseTo(item, response);
    },
    interaction(id, response, seed, words = {}) {
      if (!byId.has(id) || !isDrawn(byId.get(id), seed, items))
        throw new Error(`interaction: item "${id}" is not one the attempt with seed ${seed} asks`);
      const item = itemForAttempt(byId.get(id), seed);
      const result = grade(item, response);
      const language = typeof words.language === 'string' && LANGUAGE_TAG.test(words.language) ? words.language : 'en';
      /** @type {CourseInteraction} */
      const interaction = {
        id: item.id,
        type: item.kind === 'numeric' ? 'numeric' : 'choice',
        graded: isGraded(item),
        description: label(words.description, item.prompt),
        language,
        response,
        result: result === null ? 'neutral' : result ? 'correct' : 'incorrect',
      };
      if (item.kind === 'numeric') {
        const value = expectedValue(item);
        const allowed = allowedError(item, value);
        interaction.correctResponse = { value, min: value - allowed, max: value + allowed };
      } else {
        const texts = words.choices && typeof words.choices === 'object' ? words.choices : {};
        interaction.choices = choiceOrder(item.id, item.choices.length, seed).map((i) => {
          const choice = item.choices[i];
          return { id: choice.id, text: label(texts[choice.id], choice.text) };
        });
        // An open prediction has no right choice, so a course site is given none.
        if (!isOpenPrediction(item)) interaction.correctResponse = item.choices.find((c) => c.correct).id;
      }
      return interaction;
    },
    summary(responses, mastery = null, seed = null) {
      const graded = attemptItems(seed, items).filter(isGraded);
      const grades = {};
      for (const item of graded)
        if (responses[item.id] !== undefined) grades[item.id] = grade(item, responses[item.id]);
      return summarize(graded, grades, mastery ?? MASTERY_SCORE);
    },
  };
}
