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
import { courseMastery, decodeRecord, encodeRecord } from './record.js';
import { isoDuration } from './scorm.js';

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
const SESSION_EXTENSION = 'https://w3id.org/xapi/cmi5/context/extensions/sessionid';
const GRADED_EXTENSION = 'urn:x-positional-lesson:extension:graded';
const XAPI_VERSION = '1.0.3';
/** The unit's own state document (xAPI State API, keyed by activity, agent and registration). */
export const STATE_ID = 'positional-lesson:progress';
// What a page going away may send at once: browsers allow 64 KiB of keepalive bodies in flight.
const KEEPALIVE_BUDGET = 60000;
const MAX_BATCH = 20;
const RESULT_VERBS = new Set(['answered', 'passed', 'failed', 'completed']);

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

function uuid() {
  if (crypto.randomUUID) return crypto.randomUUID();
  const b = crypto.getRandomValues(new Uint8Array(16));
  b[6] = (b[6] & 0x0f) | 0x40;
  b[8] = (b[8] & 0x3f) | 0x80;
  const h = [...b].map((x) => x.toString(16).padStart(2, '0')).join('');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

/** A contextTemplate as cmi5 §10 promises it: an object whose contextActivities lists are arrays. Anything else is mended, not trusted. */
function usableTemplate(template) {
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
 * Two versions of the unit's state document made one, as when this page and another device wrote
 * it at once: the answers are the union (where both answered an item, `theirs`, already stored,
 * stands), the verdicts sent are the union (a passed beats a failed for the same attempt), and
 * completed and passed hold if either says so. Of two different attempts, this page's (`mine`) is kept.
 */
export function mergedState(mine, theirs) {
  if (!theirs || typeof theirs !== 'object') return mine;
  const ours = mine.record ? decodeRecord(mine.record) : null;
  const stored = typeof theirs.record === 'string' ? decodeRecord(theirs.record) : null;
  let record = mine.record ?? (stored ? theirs.record : null);
  if (ours && stored && ours.seed === stored.seed)
    record = encodeRecord({ seed: ours.seed, responses: { ...ours.responses, ...stored.responses } });
  const verdicts = { ...(mine.verdicts ?? {}) };
  const theirVerdicts = theirs.verdicts && typeof theirs.verdicts === 'object' ? theirs.verdicts : {};
  for (const [seed, verdict] of Object.entries(theirVerdicts))
    if (verdict === 'passed' || verdict === 'failed')
      verdicts[seed] = verdicts[seed] === 'passed' || verdict === 'passed' ? 'passed' : 'failed';
  return {
    record,
    completed: mine.completed || theirs.completed === true,
    passed: mine.passed || theirs.passed === true,
    verdicts,
  };
}

class HttpError extends Error {
  constructor(message, status) {
    super(message);
    this.status = status;
  }
}

/**
 * The LRS as the connection speaks to it: addresses under the launch's endpoint, requests with the
 * session's headers (`headers()`: null until the token is fetched), JSON reads, retries of what may
 * pass a moment later, and the State API's parameters for the launch's activity, agent and
 * registration. `fetchImpl` and `timers` are the connection's (tests pass their own).
 */
function lrsClient(launch, { fetchImpl, timers, headers }) {
  const xapiUrl = (path, params) => {
    const url = new URL(path, launch.endpoint);
    if (params) url.search = new URLSearchParams(params).toString();
    return url;
  };
  /** A request with the session's headers; for a write, the answer's body is read through (a body left unread is cut off, as a failed request, when the page goes). */
  /** @param {string | URL} url @param {RequestInit & { reason?: boolean }} [options] */
  const request = async (url, { reason = false, ...init } = {}) => {
    const response = await fetchImpl(url, { ...init, headers: { ...headers(), ...(init.headers ?? {}) } });
    if (init.method && init.method !== 'GET') {
      // With `reason`, a refusal's body is kept as `reason` (an LRS says there what it objects to).
      const text = await response.text().catch(() => '');
      if (reason && !response.ok) {
        let said = text;
        try {
          const parsed = JSON.parse(text);
          said = typeof parsed?.error === 'string' ? parsed.error : (parsed?.message ?? text);
        } catch {
          // plain text
        }
        return { ok: response.ok, status: response.status, headers: response.headers, reason: String(said) };
      }
    }
    return response;
  };
  const getJson = async (url, { missingIsNull = false } = {}) => {
    const response = await request(url);
    if (missingIsNull && response.status === 404) return null;
    if (!response.ok) throw new HttpError(`cmi5: ${url.pathname} answered HTTP ${response.status}`, response.status);
    const text = await response.text();
    return text ? JSON.parse(text) : null;
  };
  const retrying = async (what, attempts = 4) => {
    for (let i = 0; ; i++) {
      try {
        return await what();
      } catch (error) {
        const transient =
          !(error instanceof HttpError) || error.status >= 500 || error.status === 429 || error.status === 408;
        if (!transient || i + 1 >= attempts) throw error;
        await new Promise((resolve) => timers.setTimeout(resolve, 500 * 2 ** i));
      }
    }
  };

  const stateParams = (stateId) => ({
    stateId,
    activityId: launch.activityId,
    agent: JSON.stringify(launch.actor),
    registration: launch.registration,
  });
  return { xapiUrl, request, getJson, retrying, stateParams };
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
  const kept = safeStorage(() => storage ?? globalThis.localStorage);
  const tokenStore = safeStorage(() => tokenStorage ?? globalThis.sessionStorage);
  const queueKey = `positional-lesson:cmi5:queue:${launch.registration}`;
  const tokenKey = `positional-lesson:cmi5:token:${launch.fetchUrl}`;
  const started = now().getTime();

  let headers = null;
  let template = {};
  let sessionId = null;
  let mode = 'normal';
  let masteryScore = null;
  let returnUrl = null;
  let returnRefused = false; // LMS.LaunchData named a returnURL that is not http(s)
  let state = { record: null, completed: false, passed: false, verdicts: {} };
  /** @type {(status: string) => void} */
  let listener = () => {};
  /** @type {import('./course-session.js').CourseStatus} */
  let status = 'retrying';
  let terminated = false;
  let pumping = false;
  let retryDelay = 0;
  let retryTimer = null;
  let failures = 0;
  let closed = false; // the page has gone: nothing is retried from here (the queue waits in storage)
  // The state document's ETag as the LRS last gave it: a string (writes send If-Match), null (there
  // is none yet: If-None-Match: *), undefined (not known: read it first) or false (the LRS sends no
  // ETags: writes go unconditionally).
  let stateTag;
  // Statements the LRS refused one by one (HTTP 400): { verb, id, reason }, kept across visits.
  const refusedKey = `positional-lesson:cmi5:refused:${launch.registration}`;
  let refused = [];
  try {
    const saved = JSON.parse(kept.get(refusedKey) ?? '[]');
    if (Array.isArray(saved)) refused = saved;
  } catch {
    refused = [];
  }

  // The queue: [{ kind: 'statement', id, verb, session, body } | { kind: 'state', body }], oldest first.
  let queue = [];
  try {
    const saved = JSON.parse(kept.get(queueKey) ?? '[]');
    if (Array.isArray(saved)) queue = saved.filter((e) => e && (e.kind === 'statement' || e.kind === 'state'));
  } catch {
    queue = [];
  }
  const persist = () => (queue.length ? kept.set(queueKey, JSON.stringify(queue)) : kept.remove(queueKey));
  // Entries leave the queue by identity, never by position: new entries (a newer state document
  // replacing an older one) may arrive while a request is on its way.
  const remove = (...entries) => {
    const gone = new Set(entries);
    queue = queue.filter((e) => !gone.has(e));
  };
  const setStatus = (next) => {
    if (next === status) return;
    status = next;
    listener(status);
  };

  const { xapiUrl, request, getJson, retrying, stateParams } = lrsClient(launch, {
    fetchImpl,
    timers,
    headers: () => headers,
  });

  const context = (categories = [], extensions = null) => {
    const out = structuredClone(template);
    out.registration = launch.registration;
    const activities = out.contextActivities;
    if (categories.length) activities.category = [...(activities.category ?? []), ...categories.map((id) => ({ id }))];
    if (extensions) out.extensions = { ...(out.extensions ?? {}), ...extensions };
    return out;
  };
  /**
   * @param {string} verb
   * @param {{ object?: object, result?: object, categories?: string[], extensions?: object, id?: string }} [parts]
   */
  const statementBody = (verb, { object, result, categories, extensions, id = uuid() } = {}) => ({
    id,
    actor: launch.actor,
    verb: { id: VERBS[verb], display: { 'en-US': verb } },
    object: object ?? { id: launch.activityId, objectType: 'Activity' },
    ...(result ? { result } : {}),
    context: context(categories, extensions),
    timestamp: now().toISOString(),
  });
  const enqueue = (verb, options, { first = false } = {}) => {
    const body = statementBody(verb, options);
    const entry = { kind: 'statement', id: body.id, verb, session: sessionId, body };
    if (first) queue.unshift(entry);
    else queue.push(entry);
  };
  const enqueueState = () => {
    queue = queue.filter((e) => e.kind !== 'state');
    queue.push({ kind: 'state', body: state });
  };

  /** Sends what waits, in order, until the queue is empty or the LRS stops accepting. */
  const pump = async () => {
    if (pumping || !headers) return;
    pumping = true;
    try {
      while (queue.length) {
        const head = queue[0];
        if (head.kind === 'state') await putStateDocument(head);
        else if (head.session !== sessionId) await settleEarlier(head);
        else {
          const batch = [];
          while (
            batch.length < MAX_BATCH &&
            queue[batch.length]?.kind === 'statement' &&
            queue[batch.length].session === sessionId
          )
            batch.push(queue[batch.length]);
          await sendStatements(batch);
        }
        persist();
        failures = 0;
        retryDelay = 0;
      }
      // A refused session marker (a second initialized after a reload of the same launch) loses no answer.
      setStatus(refused.some((r) => RESULT_VERBS.has(r.verb)) ? 'refused' : 'saved');
    } catch (error) {
      failures += 1;
      console.warn(`${error.message}; trying again.`);
      setStatus(
        failures >= 3 || !(error instanceof HttpError) || error.status === 401 || error.status === 403
          ? 'offline'
          : 'retrying',
      );
      persist();
      retryDelay = Math.min(retryDelay ? retryDelay * 2 : 1000, 60000);
      timers.clearTimeout(retryTimer);
      if (closed) return;
      retryTimer = timers.setTimeout(() => {
        retryTimer = null;
        pump();
      }, retryDelay);
    } finally {
      pumping = false;
    }
  };

  /** The unit's state document as the LRS holds it: { body (null when there is none), etag }. */
  const readStateDocument = async () => {
    const response = await request(xapiUrl('activities/state', stateParams(STATE_ID)));
    if (response.status === 404) return { body: null, etag: null };
    if (!response.ok)
      throw new HttpError(`cmi5: the LMS answered HTTP ${response.status} for the state document`, response.status);
    const text = await response.text();
    return { body: text ? JSON.parse(text) : null, etag: response.headers.get('ETag') ?? false };
  };

  /**
   * Writes the state document under xAPI's concurrency rules: If-Match with the ETag last read (or
   * If-None-Match: * when there was none). When another device wrote it meanwhile (409 or 412), the
   * stored one is read again, merged into this page's (mergedState) and the write tried again.
   */
  const putStateDocument = async (entry) => {
    for (let attempt = 0; attempt < 5; attempt += 1) {
      if (stateTag === undefined) await mergeStoredState(entry);
      const conditions = stateTag ? { 'If-Match': stateTag } : stateTag === null ? { 'If-None-Match': '*' } : {};
      const response = await request(xapiUrl('activities/state', stateParams(STATE_ID)), {
        method: 'PUT',
        headers: { 'Content-Type': 'application/json', ...conditions },
        body: JSON.stringify(entry.body),
      });
      if (response.ok) {
        // A new ETag, or none given: then it is read again before the next write.
        stateTag = stateTag === false ? false : (response.headers.get('ETag') ?? undefined);
        remove(entry);
        return;
      }
      if (response.status !== 409 && response.status !== 412)
        throw new HttpError(`cmi5: the LMS refused the state document (HTTP ${response.status})`, response.status);
      stateTag = undefined;
    }
    throw new HttpError('cmi5: the state document kept changing while it was written', 412);
  };

  /** Reads the stored state document, merges it into this page's, and has `entry` carry the merge. */
  const mergeStoredState = async (entry) => {
    const stored = await readStateDocument();
    stateTag = stored.etag;
    state = mergedState(state, stored.body);
    const waiting = queue.find((e) => e.kind === 'state');
    if (waiting) waiting.body = state;
    if (entry) entry.body = state;
  };

  /**
   * Sends `batch` (statements of this session, in order). The LRS takes a batch whole or not at all,
   * so when it refuses one as malformed (400) or conflicting (409) the batch is split in halves and
   * each sent again, until the statement at fault stands alone: that one is set aside with the LRS's
   * reason (and the learner told "Not saved"), and every other statement still goes.
   */
  const sendStatements = async (batch) => {
    const response = await request(xapiUrl('statements'), {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(batch.map((e) => e.body)),
      reason: true,
    });
    if (response.ok) {
      remove(...batch);
      persist();
      return;
    }
    if (response.status !== 400 && response.status !== 409)
      throw new HttpError(`cmi5: the LMS refused a statement (HTTP ${response.status})`, response.status);
    if (batch.length > 1) {
      const half = Math.ceil(batch.length / 2);
      await sendStatements(batch.slice(0, half));
      await sendStatements(batch.slice(half));
      return;
    }
    const [entry] = batch;
    remove(entry);
    // 409 for one statement: the LRS holds a statement with its id (sent before, with keepalive).
    if (response.status === 400) {
      const reason = (response.reason ?? '').slice(0, 300) || 'no reason given';
      refused.push({ verb: entry.verb, id: entry.id, reason });
      kept.set(refusedKey, JSON.stringify(refused));
      console.error(
        `cmi5: the LMS refused ${entry.verb} ${entry.id} (HTTP 400: ${reason}); it is kept, not sent again.`,
      );
    }
    persist();
  };

  /**
   * A statement from an earlier session of this registration that may or may not have arrived
   * (it left with keepalive as that page went away): dropped if the LRS has it, else sent as it
   * was; if the LRS refuses the old session now (a terminated or abandoned one), a result is
   * reported again in this session under a new id and a session marker is dropped.
   */
  const settleEarlier = async (entry) => {
    const known = await request(xapiUrl('statements', { statementId: entry.id }));
    if (known.ok) {
      remove(entry);
      return;
    }
    const sent = await request(xapiUrl('statements'), {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify([entry.body]),
    });
    if (sent.ok || sent.status === 409) {
      remove(entry);
      return;
    }
    // Busy or unauthorised: try again later. Any other refusal (403 for a session the LMS has
    // closed, 400) is final for that session.
    if (sent.status >= 500 || sent.status === 429 || sent.status === 408 || sent.status === 401)
      throw new HttpError(`cmi5: the LMS refused an earlier session's statement (HTTP ${sent.status})`, sent.status);
    const at = queue.indexOf(entry);
    remove(entry);
    if (RESULT_VERBS.has(entry.verb) && mode === 'normal') {
      // The same statement in this session: this session's context (its id among it), the old one's categories.
      const body = { ...entry.body, id: uuid(), context: context() };
      const categories = entry.body.context?.contextActivities?.category;
      if (categories) body.context.contextActivities.category = categories;
      queue.splice(Math.max(at, 0), 0, { kind: 'statement', id: body.id, verb: entry.verb, session: sessionId, body });
    }
  };

  const duration = () => isoDuration(now().getTime() - started);

  return {
    kind: 'cmi5',
    async open() {
      for (const url of [launch.endpoint, launch.fetchUrl])
        if (!reachable(url, origin))
          throw new LaunchError(
            `cmi5: the LMS's address ${new URL(url).origin} is plain http on another origin, which the lesson's security policy does not let it reach`,
          );
      let token = tokenStore.get(tokenKey);
      if (!token) {
        const answer = await retrying(async () => {
          const response = await fetchImpl(launch.fetchUrl, { method: 'POST' });
          const body = await response.json().catch(() => ({}));
          if (!response.ok)
            throw new HttpError(`cmi5: the fetch URL answered HTTP ${response.status}`, response.status);
          return body;
        });
        token = answer?.['auth-token'];
        if (typeof token !== 'string' || !token)
          throw new Error(
            `cmi5: the fetch URL gave no auth token (${String(answer?.['error-text'] ?? answer?.['error-code'] ?? 'no reason given').slice(0, 200)})`,
          );
        tokenStore.set(tokenKey, token);
      }
      headers = { Authorization: `Basic ${token}`, 'X-Experience-API-Version': XAPI_VERSION };
      const launchData =
        (await retrying(() => getJson(xapiUrl('activities/state', stateParams('LMS.LaunchData'))))) ?? {};
      template = usableTemplate(launchData.contextTemplate);
      sessionId = template.extensions?.[SESSION_EXTENSION] ?? `local:${uuid()}`;
      mode = { Normal: 'normal', Browse: 'browse', Review: 'review' }[launchData.launchMode] ?? 'normal';
      masteryScore = courseMastery(launchData.masteryScore, 1);
      if (launchData.masteryScore !== undefined && masteryScore === null)
        console.warn(
          `cmi5: LMS.LaunchData's masteryScore ${JSON.stringify(launchData.masteryScore)} is not a score from 0 to 1; the lesson's own applies.`,
        );
      returnUrl = returnAddress(launchData.returnURL, launch.endpoint);
      returnRefused = launchData.returnURL !== undefined && returnUrl === null;
      // cmi5 §11: the unit reads the learner's preferences on start (the lesson has its own language switch).
      await retrying(() =>
        getJson(
          xapiUrl('agents/profile', { agent: JSON.stringify(launch.actor), profileId: 'cmi5LearnerPreferences' }),
          { missingIsNull: true },
        ),
      ).catch(() => null);
      const storedDocument = await retrying(readStateDocument);
      const stored = storedDocument.body;
      stateTag = storedDocument.etag;
      // A state document still waiting here from an earlier visit is newer than the LRS's.
      const waiting = queue.filter((e) => e.kind === 'state').at(-1)?.body;
      for (const candidate of [stored, waiting]) {
        if (!candidate || typeof candidate !== 'object') continue;
        state = {
          record: typeof candidate.record === 'string' ? candidate.record : state.record,
          completed: state.completed || candidate.completed === true,
          passed: state.passed || candidate.passed === true,
          verdicts: {
            ...state.verdicts,
            ...(candidate.verdicts && typeof candidate.verdicts === 'object' ? candidate.verdicts : {}),
          },
        };
      }
      // This session opens before anything an earlier one left is settled: statements rebuilt from
      // those then join this session after its initialized.
      enqueue('initialized', { categories: [CMI5_CATEGORY] }, { first: true });
      persist();
      pump();
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
      const language = interaction.language === 'en' ? 'en-US' : interaction.language;
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
        definition.correctResponsesPattern = [
          interaction.type === 'numeric' ? `${correct.min}[:]${correct.max}` : correct,
        ];
      const result = { response: interaction.response, extensions: { [GRADED_EXTENSION]: interaction.graded } };
      if (interaction.graded && interaction.result !== 'neutral') result.success = interaction.result === 'correct';
      enqueue('answered', {
        object: { id: `${launch.activityId}/questions/${interaction.id}`, objectType: 'Activity', definition },
        result,
      });
      persist();
    },
    saveRecord(record) {
      if (mode !== 'normal') return;
      state = { ...state, record: encodeRecord(record) };
      enqueueState();
      persist();
    },
    progress() {},
    /** passed or failed, then completed: once per attempt's record, and never against cmi5 §9.3. */
    verdict(summary) {
      if (mode !== 'normal' || terminated || !summary.completed) return;
      const seed = state.record ? decodeRecord(state.record)?.seed : null;
      if (!seed || state.verdicts[seed] || state.passed) {
        if (!state.completed) this.complete();
        return;
      }
      const threshold = masteryScore ?? summary.mastery;
      const passed = summary.scaled >= threshold - 1e-12;
      state = {
        ...state,
        verdicts: { ...state.verdicts, [seed]: passed ? 'passed' : 'failed' },
        passed: state.passed || passed,
      };
      const statementsFirst = !state.completed;
      state.completed = true;
      enqueueState();
      enqueue(passed ? 'passed' : 'failed', {
        result: {
          score: { scaled: Number(summary.scaled.toFixed(4)), raw: summary.percent, min: 0, max: 100 },
          success: passed,
          duration: duration(),
        },
        categories: [CMI5_CATEGORY, MOVEON_CATEGORY],
        ...(masteryScore === null ? {} : { extensions: { [MASTERY_EXTENSION]: masteryScore } }),
      });
      if (statementsFirst)
        enqueue('completed', {
          result: { completion: true, duration: duration() },
          categories: [CMI5_CATEGORY, MOVEON_CATEGORY],
        });
      persist();
      pump();
    },
    complete() {
      state = { ...state, completed: true };
      enqueueState();
      enqueue('completed', {
        result: { completion: true, duration: duration() },
        categories: [CMI5_CATEGORY, MOVEON_CATEGORY],
      });
      persist();
    },
    canStartOver() {
      const seed = state.record ? decodeRecord(state.record)?.seed : null;
      return mode === 'normal' && !state.passed && Boolean(seed && state.verdicts[seed] === 'failed');
    },
    startOver() {},
    flush() {
      timers.clearTimeout(retryTimer);
      retryTimer = null;
      retryDelay = 0;
      pump();
    },
    status: () => status,
    onStatus(callback) {
      listener = callback;
    },
    /** The page goes away: terminated joins the queue, and everything waiting leaves at once with keepalive. */
    close() {
      if (closed) return;
      if (!terminated && headers) {
        terminated = true;
        enqueue('terminated', { result: { duration: duration() }, categories: [CMI5_CATEGORY] });
        persist();
      }
      if (!headers) {
        closed = true;
        return;
      }
      const statements = [];
      let budget = KEEPALIVE_BUDGET;
      for (const entry of queue) {
        if (entry.kind !== 'statement' || entry.session !== sessionId) continue;
        const size = JSON.stringify(entry.body).length;
        if (size > budget) break;
        budget -= size;
        statements.push(entry.body);
      }
      const stateEntry = queue.find((e) => e.kind === 'state');
      try {
        if (stateEntry)
          fetchImpl(xapiUrl('activities/state', stateParams(STATE_ID)), {
            method: 'PUT',
            headers: {
              ...headers,
              'Content-Type': 'application/json',
              // Refused (and kept for the next visit) if another device wrote it since it was read.
              ...(stateTag ? { 'If-Match': stateTag } : stateTag === null ? { 'If-None-Match': '*' } : {}),
            },
            body: JSON.stringify(stateEntry.body),
            keepalive: true,
          }).catch(() => {});
        if (statements.length)
          fetchImpl(xapiUrl('statements'), {
            method: 'POST',
            headers: { ...headers, 'Content-Type': 'application/json' },
            body: JSON.stringify(statements),
            keepalive: true,
          }).catch(() => {});
      } catch {
        // a browser that refuses keepalive: the queue stays for the next launch
      }
      // What left with keepalive stays queued until a later visit confirms it arrived (settleEarlier).
      closed = true;
      timers.clearTimeout(retryTimer);
      retryTimer = null;
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
      if (!terminated && headers) {
        terminated = true;
        enqueue('terminated', { result: { duration: duration() }, categories: [CMI5_CATEGORY] });
        persist();
      }
      const deadline = now().getTime() + 5000;
      retryDelay = 0;
      while (queue.length && now().getTime() < deadline) {
        await pump();
        if (queue.length) await new Promise((resolve) => timers.setTimeout(resolve, 250));
      }
      navigate(returnUrl);
    },
  };
}
