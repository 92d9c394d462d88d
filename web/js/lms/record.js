// @ts-check
// The self-test's record as the page and a course site keep it: the learner's responses (never
// whether they were right: that is worked out again from the items whenever the record is read),
// the seed of the choices' order, and the one rule that turns graded answers into a score and a
// verdict, used by the page for what it shows and by the course shell for what it reports.

/**
 * The self-test's record both sides keep: the seed that ordered its choices and each answer.
 * @typedef {{ seed: string, responses: Record<string, unknown> }} CourseRecord
 */

/**
 * The score and verdict of the graded items (summarize).
 * @typedef {object} Summary
 * @property {number} answered
 * @property {number} correct
 * @property {number} total
 * @property {number} scaled 0…1
 * @property {number} percent 0…100, as course sites grade it
 * @property {boolean} completed every graded item answered
 * @property {boolean} passed
 * @property {number} mastery the share that passes
 */

/** The record's format version: a record of another version is not read. */
export const RECORD_VERSION = 2;

/** The longest response kept: a choice's id or a typed number as the page read it. */
export const MAX_RESPONSE_LENGTH = 40;

/** What each edition lets a package keep in cmi.suspend_data (SCORM 1.2 RTE §3.4.2; 2004 RTE 4.2.24). */
export const SUSPEND_DATA_LIMITS = { 1.2: 4096, 2004: 64000 };

/** A new seed for the choices' order: 8 hexadecimal digits. */
export function newSeed(random = () => crypto.getRandomValues(new Uint32Array(1))[0]) {
  return (random() >>> 0).toString(16).padStart(8, '0');
}

/** An empty record with a fresh seed. */
export function emptyRecord(seed = newSeed()) {
  return { seed, responses: {} };
}

const SEED = /^[0-9a-f]{8}$/;
// Item and choice ids are what a course site stores: SCORM 2004 run-times check choice responses and
// patterns against ^[\w.]{1,250}$ (Moodle refuses a hyphen with error 406), so every id keeps to it.
export const ID_RULE = /^[A-Za-z0-9_.]{1,250}$/;
const ITEM_ID = /^[A-Za-z0-9_.]{1,40}$/;

/**
 * The record in `text` (from storage, suspend_data or an xAPI state document), keeping only what
 * is well formed and, when `itemIds` is given, the responses to items the page has. Null when
 * `text` holds no record of this version; it never throws.
 */
export function decodeRecord(text, itemIds = null) {
  let parsed;
  try {
    parsed = typeof text === 'string' ? JSON.parse(text) : text;
  } catch {
    return null;
  }
  if (!parsed || typeof parsed !== 'object' || parsed.v !== RECORD_VERSION || !SEED.test(parsed.s)) return null;
  const known = itemIds ? new Set(itemIds) : null;
  const responses = {};
  const given = parsed.r && typeof parsed.r === 'object' && !Array.isArray(parsed.r) ? parsed.r : {};
  for (const [id, response] of Object.entries(given)) {
    if (!ITEM_ID.test(id) || (known && !known.has(id))) continue;
    if (typeof response !== 'string' || !response || response.length > MAX_RESPONSE_LENGTH) continue;
    responses[id] = response;
  }
  return { seed: parsed.s, responses };
}

/** The record as compact JSON: {"v":2,"s":seed,"r":{item:response,…}}. */
export function encodeRecord(record) {
  return JSON.stringify({ v: RECORD_VERSION, s: record.seed, r: record.responses });
}

/**
 * A mastery score given by a course site, as a share from 0 to 1, or null when it gave none or one
 * that is no score: `scale` 100 for SCORM 1.2's 0–100, 1 for SCORM 2004's scaled_passing_score and
 * cmi5's masteryScore. A value outside the scale (−5, 5) is refused rather than clamped: it would
 * pass or fail every learner.
 */
export function courseMastery(value, scale) {
  if (value === null || value === undefined || value === '') return null;
  const number = typeof value === 'number' ? value : Number(String(value).trim());
  if (!Number.isFinite(number) || number < 0 || number > scale) return null;
  return number / scale;
}

/**
 * The score and verdict of the graded items. `grades` maps an answered graded item's id to true
 * (right) or false (wrong); `items` are the graded items on the page; `mastery` the share that
 * passes. Nothing is decided until every graded item is answered.
 * @param {{ id: string }[]} items
 * @param {Record<string, boolean>} grades
 * @param {number} mastery
 * @returns {Summary}
 */
export function summarize(items, grades, mastery) {
  const total = items.length;
  const answered = items.filter((item) => typeof grades[item.id] === 'boolean').length;
  const correct = items.filter((item) => grades[item.id] === true).length;
  const scaled = total ? correct / total : 0;
  const completed = total > 0 && answered === total;
  return {
    answered,
    correct,
    total,
    scaled,
    // The score as course sites grade it, 0–100 (Moodle grades cmi.score.raw against a maximum of 100).
    percent: Math.round(scaled * 100),
    completed,
    passed: completed && scaled >= mastery - 1e-12,
    mastery,
  };
}

/**
 * A small seeded generator (mulberry32): numbers in [0, 1), the same sequence for the same seed. It
 * orders the choices here; the Node suites draw their random inputs from it too.
 */
export function seededGenerator(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** FNV-1a of a string: the item's own seed, so each item's order differs from the others'. */
function hash(text) {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/** A seeded generator for `key` (an attempt's seed and what it draws for): the attempt's own numbers. */
export function attemptRandom(key) {
  return seededGenerator(hash(key));
}

/** The order in which `count` choices of item `itemId` are shown under `seed`: a permutation of 0…count−1. */
export function choiceOrder(itemId, count, seed) {
  const order = Array.from({ length: count }, (_, i) => i);
  const random = seededGenerator(hash(`${seed}:${itemId}`));
  for (let i = count - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [order[i], order[j]] = [order[j], order[i]];
  }
  return order;
}
