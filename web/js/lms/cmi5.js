// A small cmi5 assignable unit client: reads the launch parameters, fetches the auth token and
// LMS.LaunchData, and sends initialized, answered, passed or failed, completed and terminated.
// Written here rather than taken from @xapi/cmi5: the page ships its modules unbundled, and that
// package pulls in an HTTP library and an xAPI client ten times the size of what the lesson sends.
import { isoDuration } from './scorm.js';
import { pageLanguage } from '../i18n.js';

const VERBS = {
  initialized: 'http://adlnet.gov/expapi/verbs/initialized',
  answered: 'http://adlnet.gov/expapi/verbs/answered',
  passed: 'http://adlnet.gov/expapi/verbs/passed',
  failed: 'http://adlnet.gov/expapi/verbs/failed',
  completed: 'http://adlnet.gov/expapi/verbs/completed',
  terminated: 'http://adlnet.gov/expapi/verbs/terminated',
};
const CMI5_CATEGORY = 'https://w3id.org/xapi/cmi5/context/categories/cmi5';
const MOVEON_CATEGORY = 'https://w3id.org/xapi/cmi5/context/categories/moveon';
const MASTERY_EXTENSION = 'https://w3id.org/xapi/cmi5/context/extensions/masteryscore';
const XAPI_VERSION = '1.0.3';

/** The cmi5 launch parameters in `search`, or null when any is missing. */
export function cmi5Launch(search = location.search) {
  const params = new URLSearchParams(search);
  const names = ['endpoint', 'fetch', 'actor', 'registration', 'activityId'];
  if (!names.every((n) => params.get(n))) return null;
  let actor;
  try {
    actor = JSON.parse(params.get('actor'));
  } catch {
    throw new Error('cmi5 launch: the actor parameter is not JSON');
  }
  const endpoint = params.get('endpoint').replace(/\/?$/, '/');
  return {
    endpoint,
    fetchUrl: params.get('fetch'),
    actor,
    registration: params.get('registration'),
    activityId: params.get('activityId'),
  };
}

/** The language tag of the questions' text: the page's language ('en-US' on the English page, as before). */
function questionLanguage() {
  const language = pageLanguage();
  return language === 'en' ? 'en-US' : language;
}

function uuid() {
  if (crypto.randomUUID) return crypto.randomUUID();
  const b = crypto.getRandomValues(new Uint8Array(16));
  b[6] = (b[6] & 0x0f) | 0x40;
  b[8] = (b[8] & 0x3f) | 0x80;
  const h = [...b].map((x) => x.toString(16).padStart(2, '0')).join('');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

/**
 * Connects to the LMS named in the launch parameters. Returns a tracker with the same methods
 * as the SCORM one: start(summary), answered(item, answer, summary), commit(), finish(summary).
 * Statements go out one at a time, in order.
 */
export async function cmi5Tracker(launch) {
  const tokenResponse = await fetch(launch.fetchUrl, { method: 'POST' });
  const tokenBody = await tokenResponse.json();
  if (!tokenResponse.ok || !tokenBody['auth-token'])
    throw new Error(`cmi5: the fetch URL gave no auth token (${tokenBody['error-text'] ?? tokenResponse.status})`);
  const authorization = `Basic ${tokenBody['auth-token']}`;
  const headers = { Authorization: authorization, 'X-Experience-API-Version': XAPI_VERSION };

  const stateUrl = new URL('activities/state', launch.endpoint);
  stateUrl.search = new URLSearchParams({
    stateId: 'LMS.LaunchData',
    activityId: launch.activityId,
    agent: JSON.stringify(launch.actor),
    registration: launch.registration,
  }).toString();
  const stateResponse = await fetch(stateUrl, { headers });
  if (!stateResponse.ok) throw new Error(`cmi5: LMS.LaunchData could not be read (HTTP ${stateResponse.status})`);
  const launchData = await stateResponse.json();
  const masteryScore = typeof launchData.masteryScore === 'number' ? launchData.masteryScore : null;
  const normal = (launchData.launchMode ?? 'Normal') === 'Normal';

  const started = Date.now();
  let queue = Promise.resolve();
  let terminated = false;
  let decided = false;

  const context = (categories = [], extensions = null) => {
    const template = structuredClone(launchData.contextTemplate ?? {});
    const out = { ...template, registration: launch.registration };
    const activities = { ...(template.contextActivities ?? {}) };
    if (categories.length) activities.category = [...(activities.category ?? []), ...categories.map((id) => ({ id }))];
    out.contextActivities = activities;
    if (extensions) out.extensions = { ...(template.extensions ?? {}), ...extensions };
    return out;
  };
  const statement = (verb, { object, result, categories, extensions } = {}) => ({
    id: uuid(),
    actor: launch.actor,
    verb: { id: VERBS[verb], display: { 'en-US': verb } },
    object: object ?? { id: launch.activityId, objectType: 'Activity' },
    ...(result ? { result } : {}),
    context: context(categories, extensions),
    timestamp: new Date().toISOString(),
  });
  const send = (body, { keepalive = false } = {}) => {
    queue = queue
      .then(() =>
        fetch(new URL('statements', launch.endpoint), {
          method: 'POST',
          headers: { ...headers, 'Content-Type': 'application/json' },
          body: JSON.stringify(body),
          keepalive,
        }).then((r) => {
          if (!r.ok) throw new Error(`cmi5: the LMS refused a statement (HTTP ${r.status})`);
        }),
      )
      .catch((error) => console.warn(error.message));
    return queue;
  };
  const duration = () => isoDuration(Date.now() - started);
  const moveOnExtras = masteryScore === null ? {} : { extensions: { [MASTERY_EXTENSION]: masteryScore } };

  return {
    edition: 'cmi5',
    launchData,
    start() {
      send(statement('initialized', { categories: [CMI5_CATEGORY] }));
      return null;
    },
    answered(item, answer, summary) {
      if (terminated) return;
      send(
        statement('answered', {
          object: {
            id: `${launch.activityId}/questions/${item.id}`,
            objectType: 'Activity',
            definition: {
              type: 'http://adlnet.gov/expapi/activities/cmi.interaction',
              // The question as the learner read it, tagged with the page's language (verbs and ids stay English).
              name: { [questionLanguage()]: item.prompt },
              interactionType: item.kind === 'numeric' ? 'numeric' : 'choice',
            },
          },
          result: { success: answer.correct, response: answer.response },
        }),
      );
      if (!summary.completed || decided || !normal) return;
      decided = true;
      const threshold = masteryScore ?? summary.mastery;
      const passed = summary.scaled >= threshold;
      send(
        statement(passed ? 'passed' : 'failed', {
          result: {
            score: { scaled: Number(summary.scaled.toFixed(4)), raw: summary.correct, min: 0, max: summary.total },
            success: passed,
            duration: duration(),
          },
          categories: [CMI5_CATEGORY, MOVEON_CATEGORY],
          ...moveOnExtras,
        }),
      );
      send(
        statement('completed', {
          result: { completion: true, duration: duration() },
          categories: [CMI5_CATEGORY, MOVEON_CATEGORY],
        }),
      );
    },
    commit() {
      return queue;
    },
    finish() {
      if (terminated) return queue;
      terminated = true;
      // keepalive lets the last statement leave while the page is being unloaded.
      return send(statement('terminated', { result: { duration: duration() }, categories: [CMI5_CATEGORY] }), {
        keepalive: true,
      });
    },
  };
}
