// @ts-check
// SCORM's interactions (cmi.interactions.n): one answer as the elements it is written with in each
// edition, and the answers a SCORM 2004 run-time still holds read back as a record.
import { decodeRecord, RECORD_VERSION } from './record.js';
import { seedDrawing } from '../self-test/self-test-items.js';

// 2004's cmi.interactions.n.description holds at most 250 characters (RTE 4.2.9.2, SPM 250).
const DESCRIPTION_LIMIT = 250;

// The seed of a record read back from interactions when no seed draws its variants: they keep the
// answers, not the order the choices were shown in, so a review shows them in this seed's order.
const REVIEW_SEED = '00000000';

/**
 * The answers a SCORM 2004 run-time holds as interactions (`count` of them, read with `read`), as a
 * record: Moodle reopens a completed 2004 attempt for review with cmi.suspend_data empty, though it
 * still has every interaction. The last response to an item wins; an interaction without a response
 * (one the run-time refused) is left out. Null when none is readable. SCORM 1.2 has no such
 * fallback: its interactions are write-only.
 */
export function recordFromInteractions(read, count, itemIds = null) {
  const responses = {};
  for (let n = 0; n < count; n++) {
    const id = read(`cmi.interactions.${n}.id`);
    const response = read(`cmi.interactions.${n}.learner_response`);
    if (id && response) responses[id] = response;
  }
  const record = decodeRecord({ v: RECORD_VERSION, s: REVIEW_SEED, r: responses }, itemIds);
  if (!record || !Object.keys(record.responses).length) return null;
  // The variants answered are the ones the review asks: a seed that draws them all.
  return { ...record, seed: seedDrawing(Object.keys(record.responses)) ?? REVIEW_SEED };
}

/** SCORM 1.2's CMITime of `date`: HH:MM:SS. */
function clockTime(date) {
  return date.toTimeString().slice(0, 8);
}

/** SCORM 2004's time(second,10,0): YYYY-MM-DDThh:mm:ss. */
function timestamp(date) {
  const p = (n) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${p(date.getMonth() + 1)}-${p(date.getDate())}T${p(date.getHours())}:${p(date.getMinutes())}:${p(date.getSeconds())}`;
}

/** A number as SCORM's real(10,7) reads it: at most 7 decimals, no exponent. */
export function decimal(value) {
  const fixed = Number(value)
    .toFixed(7)
    .replace(/\.?0+$/, '');
  return fixed === '-0' ? '0' : fixed;
}

// A number as Moodle's SCORM 2004 run-time takes it in a numeric interaction's response and range
// (its CMIDecimal): at most five integer digits and 18 decimals, no exponent. The standard's
// real(10,7) allows more; Moodle refuses anything else with error 406.
const INTERACTION_DECIMAL = /^-?\d{1,5}(\.\d{1,18})?$/;

/**
 * The number `text` (as the page sends it: String of a Number) written out without an exponent,
 * every digit kept, or null when it does not fit INTERACTION_DECIMAL.
 */
export function interactionDecimal(text) {
  const value = Number(text);
  if (!Number.isFinite(value)) return null;
  let plainText = String(value);
  const exponent = /^-?(\d)(?:\.(\d+))?e([-+]\d+)$/.exec(plainText);
  // A tiny number (1.25e-7): as many decimals as its digits need, when they are few enough.
  if (exponent && Number(exponent[3]) < 0) {
    const places = (exponent[2]?.length ?? 0) - Number(exponent[3]);
    plainText = places <= 18 ? value.toFixed(places) : '';
  }
  return INTERACTION_DECIMAL.test(plainText) ? plainText : null;
}

/**
 * The type, response and correct-response pattern one interaction is written with in `edition`.
 * A numeric interaction's pattern is its value in 1.2 and its accepted range in 2004. A number
 * Moodle's 2004 run-time would refuse (a scaled base past 99,999, a huge or tiny answer) goes as
 * fill-in, which takes any text: the learner's number and the right value are both kept, and the
 * result says whether it was within the tolerance. A numeric interaction is kept wherever it fits,
 * so its range still shows the tolerance.
 * @param {{type: string, response: any, correctResponse?: any}} interaction
 * @param {string} edition
 * @returns {{type: string, response: string, pattern: any}}
 */
function interactionFields(interaction, edition) {
  const correct = interaction.correctResponse;
  const { type, response } = interaction;
  if (correct === undefined || type !== 'numeric') return { type, response, pattern: correct };
  if (edition !== '2004') return { type, response, pattern: decimal(correct.value) };
  const bounds = [decimal(correct.min), decimal(correct.max)];
  const number = interactionDecimal(response);
  if (number !== null && bounds.every((bound) => INTERACTION_DECIMAL.test(bound)))
    return { type, response: number, pattern: bounds.join('[:]') };
  return { type: 'fill-in', response, pattern: decimal(correct.value) };
}

/**
 * The elements (and their values, in the order they are set) that write `interaction` as
 * interaction number `n` in `edition` ('1.2' or '2004'; `terms` its words), answered at `when`.
 * 2004's description carries the language and the choices' order; 1.2 has no description.
 * @param {import('./course-grading.js').CourseInteraction} interaction
 * @param {number} n
 * @param {string} edition
 * @param {Record<string, any>} terms
 * @param {Date} when
 * @returns {[string, string | number][]}
 */
export function interactionElements(interaction, n, edition, terms, when) {
  const at = `cmi.interactions.${n}`;
  const { type, response, pattern } = interactionFields(interaction, edition);
  /** @type {[string, string | number][]} */
  const elements = [
    [`${at}.id`, interaction.id],
    [`${at}.type`, type],
  ];
  if (edition === '2004') {
    const order = interaction.choices ? ` [${interaction.choices.map((c) => c.id).join(', ')}]` : '';
    const tag = `{lang=${interaction.language === 'en' ? 'en-US' : interaction.language}}`;
    const room = DESCRIPTION_LIMIT - tag.length - order.length;
    const prompt =
      interaction.description.length > room
        ? `${interaction.description.slice(0, room - 1)}…`
        : interaction.description;
    elements.push([`${at}.description`, `${tag}${prompt}${order}`], [`${at}.timestamp`, timestamp(when)]);
  } else elements.push([`${at}.time`, clockTime(when)]);
  elements.push([`${at}.weighting`, interaction.graded ? 1 : 0]);
  if (pattern !== undefined) elements.push([`${at}.correct_responses.0.pattern`, pattern]);
  elements.push([`${at}.${terms.response}`, response], [`${at}.result`, terms.results[interaction.result]]);
  return elements;
}
