// The self-test's grading rules, with nothing of the page in them: how a typed number is read,
// whether a response could answer an item, and whether it answers it rightly. The page grades with
// the engine's value; the course shell grades again with the item's formula (its launch page runs no
// engine), and tests/node/self-test.test.mjs holds the two to the same value.
import { MAX_RESPONSE_LENGTH } from '../lms/record.js';
import { isGraded } from './self-test-items.js';

/** Reads a number as people type it: a Unicode minus, thousands separators (, _ thin space), a leading +. */
export function parseNumber(text) {
  const cleaned = String(text)
    .trim()
    .replace(/[\u2212\u2013]/g, '-')
    .replace(/[,_\s\u2009\u202f]/g, '')
    .replace(/^\+/, '');
  if (cleaned.length > MAX_RESPONSE_LENGTH || !/^-?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i.test(cleaned)) return null;
  return Number(cleaned);
}

/** The largest error a numeric item accepts around `expected`: absolute, or relative when the item says so. */
export function allowedError(item, expected) {
  return item.relative ? Math.abs(expected) * item.tolerance : item.tolerance;
}

/** Whether `given` is within the item's tolerance of `expected`. */
export function withinTolerance(item, given, expected) {
  return Math.abs(given - expected) <= allowedError(item, expected);
}

/** Whether `response` could be an answer to `item`: one of its choices, or a number as the page reads them. */
export function isResponseTo(item, response) {
  if (typeof response !== 'string') return false;
  return item.kind === 'numeric' ? parseNumber(response) !== null : item.choices.some((c) => c.id === response);
}

/**
 * Whether `response` answers `item` rightly, a numeric item's answer being `expected`: true or
 * false for a check; null for a prediction (not graded), for a response that is no answer to the
 * item, or for a number when there is no value to check it against (`expected` null).
 */
export function gradeAgainst(item, response, expected) {
  if (item.kind === 'numeric') {
    const given = parseNumber(response);
    if (given === null || expected === null || expected === undefined) return null;
    return withinTolerance(item, given, expected);
  }
  const choice = item.choices.find((c) => c.id === response);
  if (!choice || !isGraded(item)) return null;
  return Boolean(choice.correct);
}
