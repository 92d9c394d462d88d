// @ts-check
// The xAPI statements a cmi5 assignable unit sends (cmi5 §9): initialized, answered, passed or
// failed, completed and terminated, each with the LMS's context template (cmi5 §10) and the
// session's categories, for the cmi5 connection (lms/cmi5.js) to queue.

export const VERBS = {
  initialized: 'http://adlnet.gov/expapi/verbs/initialized',
  answered: 'http://adlnet.gov/expapi/verbs/answered',
  passed: 'http://adlnet.gov/expapi/verbs/passed',
  failed: 'http://adlnet.gov/expapi/verbs/failed',
  completed: 'http://adlnet.gov/expapi/verbs/completed',
  terminated: 'http://adlnet.gov/expapi/verbs/terminated',
};
export const CMI5_CATEGORY = 'https://w3id.org/xapi/cmi5/context/categories/cmi5';
export const MOVEON_CATEGORY = 'https://w3id.org/xapi/cmi5/context/categories/moveon';
const MASTERY_EXTENSION = 'https://w3id.org/xapi/cmi5/context/extensions/masteryscore';
/** Where LMS.LaunchData's contextTemplate carries the session's id. */
export const SESSION_EXTENSION = 'https://w3id.org/xapi/cmi5/context/extensions/sessionid';
const GRADED_EXTENSION = 'urn:x-positional-lesson:extension:graded';
/** The verbs that carry a learner's result (a session marker, refused, loses no answer). */
export const RESULT_VERBS = new Set(['answered', 'passed', 'failed', 'completed']);

/** A version 4 UUID (a statement's id, or a session's when the LMS names none). */
export function uuid() {
  if (crypto.randomUUID) return crypto.randomUUID();
  const b = crypto.getRandomValues(new Uint8Array(16));
  b[6] = (b[6] & 0x0f) | 0x40;
  b[8] = (b[8] & 0x3f) | 0x80;
  const h = [...b].map((x) => x.toString(16).padStart(2, '0')).join('');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

/** A contextTemplate as cmi5 §10 promises it: an object whose contextActivities lists are arrays. Anything else is mended, not trusted. */
export function usableTemplate(template) {
  const plainObject = (v) => v && typeof v === 'object' && !Array.isArray(v);
  const out = plainObject(template) ? structuredClone(template) : {};
  const activities = plainObject(out.contextActivities) ? out.contextActivities : {};
  for (const key of ['parent', 'grouping', 'category', 'other']) {
    if (!(key in activities)) continue;
    const list = Array.isArray(activities[key]) ? activities[key] : [activities[key]];
    activities[key] = list.filter((a) => plainObject(a) && typeof a.id === 'string');
  }
  out.contextActivities = activities;
  if (!plainObject(out.extensions)) delete out.extensions;
  return out;
}

/**
 * @typedef {object} StatementParts
 * @property {object} [object] the activity (the unit itself when absent)
 * @property {object} [result]
 * @property {string[]} [categories] added to the template's contextActivities.category
 * @property {object} [extensions] added to the template's context extensions
 * @property {string} [id] the statement's id (a new UUID when absent)
 */

/**
 * The statements of `launch`'s unit: `template()` is the session's context template (the one
 * LMS.LaunchData gave, once read), `now()` the clock their timestamps come from.
 * @param {{ actor: object, activityId: string, registration: string }} launch
 * @param {{ template: () => any, now: () => Date }} session
 */
export function cmi5Statements(launch, { template, now }) {
  /** The statement's context: the template, the registration, and `categories` and `extensions` added. */
  const context = (categories = [], extensions = null) => {
    const out = structuredClone(template());
    out.registration = launch.registration;
    const activities = out.contextActivities;
    if (categories.length) activities.category = [...(activities.category ?? []), ...categories.map((id) => ({ id }))];
    if (extensions) out.extensions = { ...(out.extensions ?? {}), ...extensions };
    return out;
  };
  /**
   * @param {string} verb
   * @param {StatementParts} [parts]
   */
  const statement = (verb, { object, result, categories, extensions, id = uuid() } = {}) => ({
    id,
    actor: launch.actor,
    verb: { id: VERBS[verb], display: { 'en-US': verb } },
    object: object ?? { id: launch.activityId, objectType: 'Activity' },
    ...(result ? { result } : {}),
    context: context(categories, extensions),
    timestamp: now().toISOString(),
  });
  /**
   * An earlier session's statement made this session's, as when the LMS no longer takes the old
   * session: a new id, this session's context (its id among it), the old one's categories.
   */
  const reissued = (body) => {
    const out = { ...body, id: uuid(), context: context() };
    const categories = body.context?.contextActivities?.category;
    if (categories) out.context.contextActivities.category = categories;
    return out;
  };
  return { context, statement, reissued };
}

/**
 * An answer as an answered statement's parts: the question as a cmi.interaction activity under the
 * unit's id, and the response, its success when graded, and whether it counts (GRADED_EXTENSION).
 * @param {string} activityId the unit's
 * @param {import('./course-grading.js').CourseInteraction} interaction
 * @returns {StatementParts}
 */
export function answeredParts(activityId, interaction) {
  const language = interaction.language === 'en' ? 'en-US' : interaction.language;
  /** @type {Record<string, any>} */
  const definition = {
    type: 'http://adlnet.gov/expapi/activities/cmi.interaction',
    name: { [language]: interaction.description },
    description: { [language]: interaction.description },
    interactionType: interaction.type,
  };
  if (interaction.choices)
    definition.choices = interaction.choices.map((c) => ({ id: c.id, description: { [language]: c.text } }));
  const correct = interaction.correctResponse;
  if (correct !== undefined)
    definition.correctResponsesPattern = [interaction.type === 'numeric' ? `${correct.min}[:]${correct.max}` : correct];
  /** @type {Record<string, any>} */
  const result = { response: interaction.response, extensions: { [GRADED_EXTENSION]: interaction.graded } };
  if (interaction.graded && interaction.result !== 'neutral') result.success = interaction.result === 'correct';
  return {
    object: { id: `${activityId}/questions/${interaction.id}`, objectType: 'Activity', definition },
    result,
  };
}

/**
 * A passed or failed statement's parts (cmi5 §9.3.4-5): the score, the verdict, the session's
 * duration so far, the moveOn category, and the LMS's mastery score when it named one.
 * @param {{ scaled: number, percent: number }} summary
 * @param {boolean} passed
 * @param {number | null} masteryScore
 * @param {string} duration ISO 8601
 * @returns {StatementParts}
 */
export function verdictParts(summary, passed, masteryScore, duration) {
  return {
    result: {
      score: { scaled: Number(summary.scaled.toFixed(4)), raw: summary.percent, min: 0, max: 100 },
      success: passed,
      duration,
    },
    categories: [CMI5_CATEGORY, MOVEON_CATEGORY],
    ...(masteryScore === null ? {} : { extensions: { [MASTERY_EXTENSION]: masteryScore } }),
  };
}

/** A completed statement's parts (cmi5 §9.3.3). @param {string} duration ISO 8601 @returns {StatementParts} */
export const completedParts = (duration) => ({
  result: { completion: true, duration },
  categories: [CMI5_CATEGORY, MOVEON_CATEGORY],
});

/** A terminated statement's parts (cmi5 §9.3.8). @param {string} duration ISO 8601 @returns {StatementParts} */
export const terminatedParts = (duration) => ({ result: { duration }, categories: [CMI5_CATEGORY] });
