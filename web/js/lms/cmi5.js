// @ts-check
// The course shell's connection to a cmi5 LMS (an assignable unit's side of cmi5, with its xAPI):
// reads the launch parameters, fetches the auth token once (kept for a reload of the same launch),
// reads LMS.LaunchData, the learner's preferences and the unit's own state document, and sends
// initialized, answered, passed or failed, completed and terminated. Nothing is lost on the way:
// every statement and the state document wait in an ordered queue kept in this browser's storage
// until the LRS has accepted them, are retried with a growing pause, leave together (keepalive)
// when the page goes away, and are sent again on the next launch. The cmi5 rules on verdicts hold
// across sessions and devices: the state document records what was sent, so a registration gets
// at most one completed and one passed, and no failed after a passed (cmi5 §9.3).
// Written here rather than taken from @xapi/cmi5: the shell is one inline script, and that package
// pulls in an HTTP library and an xAPI client many times the size of what the lesson sends.
// The connection is four parts: the line to the LMS (lms/cmi5-lrs.js), the statements
// (lms/cmi5-statements.js), the queue they wait in (lms/cmi5-queue.js) and the unit's state
// document (lms/cmi5-state.js); this module reads the launch and puts them together.
import { courseMastery, decodeRecord, encodeRecord } from './record.js';
import { isoDuration } from './scorm.js';
import { lrsClient } from './cmi5-lrs.js';
import { cmi5Queue } from './cmi5-queue.js';
import { cmi5StateDocument } from './cmi5-state.js';
import {
  CMI5_CATEGORY,
  SESSION_EXTENSION,
  answeredParts,
  cmi5Statements,
  completedParts,
  terminatedParts,
  usableTemplate,
  uuid,
  verdictParts,
} from './cmi5-statements.js';

export { STATE_ID, mergedState } from './cmi5-state.js';

/** A launch parameter that is there but unusable: names the parameter and the rule. */
export class LaunchError extends Error {}

const absoluteHttp = (value, name) => {
  if (!URL.canParse(value))
    throw new LaunchError(
      `cmi5 launch: ${name} must be an absolute address, got ${JSON.stringify(value.slice(0, 80))}`,
    );
  const url = new URL(value);
  if (!['http:', 'https:'].includes(url.protocol))
    throw new LaunchError(`cmi5 launch: ${name} must be an http(s) address, got ${url.protocol}`);
  return url;
};

/** The cmi5 launch parameters in `search`, or null when any is missing; a malformed one throws a LaunchError naming it. */
export function cmi5Launch(search = location.search) {
  const params = new URLSearchParams(search);
  const names = ['endpoint', 'fetch', 'actor', 'registration', 'activityId'];
  if (!names.every((n) => params.get(n))) return null;
  let actor;
  try {
    actor = JSON.parse(params.get('actor'));
  } catch {
    throw new LaunchError('cmi5 launch: actor must be an xAPI Agent in JSON');
  }
  if (!actor || typeof actor !== 'object' || Array.isArray(actor))
    throw new LaunchError('cmi5 launch: actor must be an xAPI Agent in JSON');
  const registration = params.get('registration');
  if (registration.length > 200) throw new LaunchError('cmi5 launch: registration is longer than 200 characters');
  const activityId = params.get('activityId');
  if (!URL.canParse(activityId)) throw new LaunchError('cmi5 launch: activityId must be an IRI');
  const endpoint = absoluteHttp(params.get('endpoint'), 'endpoint').href.replace(/\/?$/, '/');
  const fetchUrl = absoluteHttp(params.get('fetch'), 'fetch').href;
  return { endpoint, fetchUrl, actor, registration, activityId };
}

/**
 * Where Exit goes: cmi5 §10's returnURL, resolved against the LMS's `endpoint`, when it is an http(s)
 * address; null for none, or for one the window cannot usefully go to (javascript:, data:, any other
 * scheme: the learner would be left on a page that does nothing), with a warning naming the value.
 */
export function returnAddress(value, endpoint) {
  if (typeof value !== 'string' || !URL.canParse(value, endpoint)) {
    if (value !== undefined)
      console.warn(
        `cmi5: LMS.LaunchData's returnURL must be an http(s) address, got ${JSON.stringify(value)?.slice(0, 80)}; Exit is not offered.`,
      );
    return null;
  }
  const url = new URL(value, endpoint);
  if (url.protocol === 'http:' || url.protocol === 'https:') return url.href;
  console.warn(
    `cmi5: LMS.LaunchData's returnURL must be an http(s) address, got ${url.protocol} (${JSON.stringify(value.slice(0, 80))}); Exit is not offered.`,
  );
  return null;
}

/**
 * Whether the shell's policy (connect-src 'self' https:) lets it reach `url`: its own origin, or
 * any https address. A plain-http endpoint elsewhere is refused before the one-time token is spent.
 */
export function reachable(url, origin = location.origin) {
  const target = new URL(url);
  return target.origin === origin || target.protocol === 'https:';
}

/** Storage that may be missing or blocked (even reaching for it may throw): reads give null, writes are dropped. */
function safeStorage(which) {
  const storage = () => which();
  return {
    get(key) {
      try {
        return storage()?.getItem(key) ?? null;
      } catch {
        return null;
      }
    },
    set(key, value) {
      try {
        storage()?.setItem(key, value);
      } catch {
        // full or blocked: the queue still lives for this visit
      }
    },
    remove(key) {
      try {
        storage()?.removeItem(key);
      } catch {
        // blocked
      }
    },
  };
}

/**
 * LMS.LaunchData (cmi5 §10) as the session needs it: the context template (mended: usableTemplate)
 * and the session's id in it (a local one when the LMS names none), the launch mode, the mastery
 * score (null when the LMS names none or an unusable one, with a warning), where Exit goes
 * (returnAddress) and whether the LMS named a returnURL the window cannot go to.
 * @param {ReturnType<typeof lrsClient>} lrs
 * @param {{ endpoint: string }} launch
 */
async function readLaunchData(lrs, launch) {
  const launchData =
    (await lrs.retrying(() => lrs.getJson(lrs.xapiUrl('activities/state', lrs.stateParams('LMS.LaunchData'))))) ?? {};
  const template = usableTemplate(launchData.contextTemplate);
  const masteryScore = courseMastery(launchData.masteryScore, 1);
  if (launchData.masteryScore !== undefined && masteryScore === null)
    console.warn(
      `cmi5: LMS.LaunchData's masteryScore ${JSON.stringify(launchData.masteryScore)} is not a score from 0 to 1; the lesson's own applies.`,
    );
  const returnUrl = returnAddress(launchData.returnURL, launch.endpoint);
  return {
    template,
    sessionId: template.extensions?.[SESSION_EXTENSION] ?? `local:${uuid()}`,
    mode: { Normal: 'normal', Browse: 'browse', Review: 'review' }[launchData.launchMode] ?? 'normal',
    masteryScore,
    returnUrl,
    returnRefused: launchData.returnURL !== undefined && returnUrl === null,
  };
}

/**
 * cmi5 §11: the unit reads the learner's preferences on start. The lesson has its own language
 * switch, so what they say is not used, and a failure to read them is no failure to open.
 * @param {ReturnType<typeof lrsClient>} lrs
 * @param {{ actor: object }} launch
 */
async function readLearnerPreferences(lrs, launch) {
  const address = lrs.xapiUrl('agents/profile', {
    agent: JSON.stringify(launch.actor),
    profileId: 'cmi5LearnerPreferences',
  });
  await lrs.retrying(() => lrs.getJson(address, { missingIsNull: true })).catch(() => null);
}

/**
 * A connection to the cmi5 LMS of `launch` (from cmi5Launch). `deps` (for tests): fetch, storage
 * (kept across visits: the queue), sessionStorage (the token, for a reload), timers, now(), origin,
 * navigate(url) (the exit to returnURL).
 * @returns {import('./course-session.js').CourseConnection}
 */
export function cmi5Connection(launch, deps = {}) {
  const {
    fetch: fetchImpl = globalThis.fetch.bind(globalThis),
    storage = null,
    sessionStorage: tokenStorage = null,
    timers = globalThis,
    now = () => new Date(),
    origin = globalThis.location?.origin,
    navigate = (url) => globalThis.location.assign(url),
  } = deps;
  const started = now().getTime();
  const duration = () => isoDuration(now().getTime() - started);

  let template = {};
  let sessionId = null;
  let mode = 'normal';
  let masteryScore = null;
  let returnUrl = null;
  let returnRefused = false; // LMS.LaunchData named a returnURL that is not http(s)
  let terminated = false;
  let closed = false;

  const lrs = lrsClient(launch, { fetchImpl, timers });
  const statements = cmi5Statements(launch, { template: () => template, now });
  const progress = cmi5StateDocument(lrs, { waitingEntry: () => queue.waitingState() });
  const queue = cmi5Queue(launch, {
    kept: safeStorage(() => storage ?? globalThis.localStorage),
    lrs,
    sessionId: () => sessionId,
    writeState: (entry) => progress.write(entry),
    writeStateWithPage: (body) => progress.writeWithPage(body),
    // Outside normal mode nothing is reported, not even again.
    reissue: (entry) => (mode === 'normal' ? statements.reissued(entry.body) : null),
    timers,
  });
  /** @param {string} verb @param {import('./cmi5-statements.js').StatementParts} [parts] */
  const send = (verb, parts, { first = false } = {}) =>
    queue.addStatement(verb, statements.statement(verb, parts), { first });
  const terminate = () => {
    if (terminated || !lrs.authorized()) return;
    terminated = true;
    send('terminated', terminatedParts(duration()));
  };
  const attemptSeed = () => (progress.state.record ? decodeRecord(progress.state.record)?.seed : null);

  return {
    kind: 'cmi5',
    async open() {
      for (const url of [launch.endpoint, launch.fetchUrl])
        if (!reachable(url, origin))
          throw new LaunchError(
            `cmi5: the LMS's address ${new URL(url).origin} is plain http on another origin, which the lesson's security policy does not let it reach`,
          );
      await lrs.authorize(safeStorage(() => tokenStorage ?? globalThis.sessionStorage));
      ({ template, sessionId, mode, masteryScore, returnUrl, returnRefused } = await readLaunchData(lrs, launch));
      await readLearnerPreferences(lrs, launch);
      await progress.open(queue.lastWaitingState());
      // This session opens before anything an earlier one left is settled: statements rebuilt from
      // those then join this session after its initialized.
      send('initialized', { categories: [CMI5_CATEGORY] }, { first: true });
      queue.pump();
      const state = progress.state;
      const record = state.record ? decodeRecord(state.record) : null;
      return {
        mode,
        mastery: masteryScore,
        record,
        canStartOver: mode === 'normal' && Boolean(record && state.verdicts[record.seed] === 'failed' && !state.passed),
      };
    },
    interaction(interaction) {
      if (mode !== 'normal' || terminated) return;
      send('answered', answeredParts(launch.activityId, interaction));
    },
    saveRecord(record) {
      if (mode !== 'normal') return;
      progress.state = { ...progress.state, record: encodeRecord(record) };
      queue.replaceState(progress.state);
    },
    progress() {},
    /** passed or failed, then completed: once per attempt's record, and never against cmi5 §9.3. */
    verdict(summary) {
      if (mode !== 'normal' || terminated || !summary.completed) return;
      const state = progress.state;
      const seed = attemptSeed();
      if (!seed || state.verdicts[seed] || state.passed) {
        if (!state.completed) this.complete();
        return;
      }
      const threshold = masteryScore ?? summary.mastery;
      const passed = summary.scaled >= threshold - 1e-12;
      progress.state = {
        ...state,
        verdicts: { ...state.verdicts, [seed]: passed ? 'passed' : 'failed' },
        passed: state.passed || passed,
        completed: true,
      };
      queue.replaceState(progress.state);
      send(passed ? 'passed' : 'failed', verdictParts(summary, passed, masteryScore, duration()));
      if (!state.completed) send('completed', completedParts(duration()));
      queue.pump();
    },
    complete() {
      progress.state = { ...progress.state, completed: true };
      queue.replaceState(progress.state);
      send('completed', completedParts(duration()));
    },
    canStartOver() {
      const seed = attemptSeed();
      return mode === 'normal' && !progress.state.passed && Boolean(seed && progress.state.verdicts[seed] === 'failed');
    },
    startOver() {},
    flush: () => queue.flush(),
    status: () => queue.status(),
    onStatus: (callback) => queue.onStatus(callback),
    /** The page goes away: terminated joins the queue, and everything waiting leaves at once with keepalive. */
    close() {
      if (closed) return;
      closed = true;
      terminate();
      if (lrs.authorized()) queue.leaveWithPage();
      else queue.stop();
    },
    /** Whether the LMS named a page to return to when the learner exits (cmi5's returnURL). */
    canExit: () => Boolean(returnUrl),
    /** Whether the LMS named a returnURL the window cannot go to (the learner is told how to leave). */
    exitRefused: () => returnRefused,
    /**
     * The learner exits: terminated goes out with whatever still waits (up to five seconds for the
     * LMS to accept them; what it has not accepted by then stays queued for the next launch), then
     * the window goes to returnURL, as cmi5 §10 asks of a unit the LMS gave one.
     */
    async exit() {
      if (!returnUrl) return;
      terminate();
      await queue.drain(now().getTime() + 5000, () => now().getTime());
      navigate(returnUrl);
    },
  };
}
