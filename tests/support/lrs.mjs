// A cmi5 LMS on loopback for the course-site tests: the fetch URL (one token per launch, once),
// LMS.LaunchData, the unit's own state documents, the learner preferences profile and the
// statements resource, with the rules a cmi5 LMS enforces checked on every statement (the launch's
// actor, registration and session; initialized first in a session; nothing after terminated; at
// most one completed and one passed per registration, no failed after passed, cmi5 §9.3; the same
// id twice is the same statement). Like an LRS that applies xAPI's concurrency rules (xAPI 1.0.3
// Communication §3.1), the state documents carry an ETag: a write over an existing document needs
// If-Match with its current ETag (409 without one, 412 for another), and If-None-Match: * is refused
// (412) once one exists. A batch of statements is all or none: one bad statement refuses the lot.
// It fails on purpose when told to (a status, a delay, a reset connection), records every request,
// and can also serve a package's files.
import { createServer } from 'node:http';
import { readFileSync, existsSync, statSync } from 'node:fs';
import { extname, resolve, sep } from 'node:path';
import { createHash, randomUUID } from 'node:crypto';

const VERB = (name) => `http://adlnet.gov/expapi/verbs/${name}`;
const SESSION_EXTENSION = 'https://w3id.org/xapi/cmi5/context/extensions/sessionid';

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.json': 'application/json',
  '.xml': 'application/xml',
};

/**
 * Starts the LMS. `root`: a package folder to serve beside it (optional). `fault(request)` may
 * return { status, body } to answer instead, { delay } (ms) to answer late, { until } (a promise) to
 * answer once it settles, or { reset: true } to drop the connection; request is { method, path, query, body, statements }. Returns the LMS:
 * { origin, registrations, requests, errors, launch(options) → a launch URL, close() }.
 * `concurrency: false` makes it an LRS that ignores If-Match and If-None-Match and sends no ETag.
 */
export async function startLrs({ root = null, fault = () => null, concurrency = true } = {}) {
  const lms = {
    origin: null,
    requests: [],
    errors: [],
    // registration → { statements: [], states: Map(stateId → body), sessions: Map(id → { initialized, terminated }) }
    registrations: new Map(),
    launches: new Map(), // fetch code → { token, fetched, registration, sessionId, launchData }
    fault,
    notFound: [], // the path of every request answered 404, in order
  };
  const registration = (id) => {
    if (!lms.registrations.has(id))
      lms.registrations.set(id, { statements: [], states: new Map(), sessions: new Map() });
    return lms.registrations.get(id);
  };

  const server = createServer(async (req, res) => {
    const url = new URL(req.url, 'http://127.0.0.1');
    const chunks = [];
    for await (const chunk of req) chunks.push(chunk);
    const text = Buffer.concat(chunks).toString('utf8');
    const send = (status, value, type = 'application/json', extra = {}) => {
      if (res.headersSent) return;
      if (status === 404) lms.notFound.push(url.pathname);
      res.writeHead(status, { 'Content-Type': type, ...extra });
      res.end(
        value === undefined ? '' : typeof value === 'string' || Buffer.isBuffer(value) ? value : JSON.stringify(value),
      );
    };
    const request = {
      method: req.method,
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      body: text,
      headers: req.headers,
    };
    if (url.pathname.startsWith('/lms/')) {
      lms.requests.push(request);
      const planned = lms.fault(request);
      if (planned?.delay) await new Promise((r) => setTimeout(r, planned.delay));
      if (planned?.until) await planned.until;
      if (planned?.reset) return req.socket.destroy();
      if (planned?.status) return send(planned.status, planned.body ?? { error: 'failing on purpose' });
    }
    try {
      if (url.pathname === '/lms/fetch') return answerFetch(url, req, send);
      if (url.pathname.startsWith('/lms/xapi/')) return answerXapi(url, req, text, send);
    } catch (error) {
      lms.errors.push(`${req.method} ${url.pathname}: ${error.message}`);
      return send(400, { error: error.message });
    }
    if (!root) return send(404, 'not found', 'text/plain');
    const base = resolve(root);
    const file = resolve(base, `.${decodeURIComponent(url.pathname)}`);
    if (!file.startsWith(base + sep) || !existsSync(file) || statSync(file).isDirectory())
      return send(404, 'not found', 'text/plain');
    return send(200, readFileSync(file), TYPES[extname(file)] ?? 'application/octet-stream');
  });

  function answerFetch(url, req, send) {
    const launch = lms.launches.get(url.searchParams.get('code'));
    if (req.method !== 'POST') return send(405, { 'error-code': '3', 'error-text': 'POST only' });
    if (!launch) return send(200, { 'error-code': '2', 'error-text': 'no such launch' });
    launch.fetched += 1;
    if (launch.fetched > 1) return send(200, { 'error-code': '1', 'error-text': 'the fetch URL answers once' });
    return send(200, { 'auth-token': launch.token });
  }

  function launchOfToken(req) {
    for (const launch of lms.launches.values())
      if (req.headers.authorization === `Basic ${launch.token}`) return launch;
    return null;
  }

  function answerXapi(url, req, text, send) {
    const launch = launchOfToken(req);
    if (!launch) return send(401, { error: 'no valid token' });
    if (!req.headers['x-experience-api-version']?.startsWith('1.0'))
      lms.errors.push(`${req.method} ${url.pathname} without X-Experience-API-Version`);
    const path = url.pathname.slice('/lms/xapi/'.length);
    const q = url.searchParams;
    if (path === 'activities/state') {
      const reg = registration(q.get('registration'));
      if (q.get('activityId') !== launch.activityId)
        lms.errors.push(`state of another activity: ${q.get('activityId')}`);
      if (q.get('registration') !== launch.registration) lms.errors.push('state of another registration');
      const stateId = q.get('stateId');
      const etagOf = (value) => `"${createHash('sha1').update(JSON.stringify(value)).digest('hex')}"`;
      const tagged = (value) => (concurrency ? { ETag: etagOf(value) } : {});
      if (req.method === 'GET') {
        if (stateId === 'LMS.LaunchData') return send(200, launch.launchData);
        if (!reg.states.has(stateId)) return send(404, { error: 'no such state' });
        const stored = reg.states.get(stateId);
        return send(200, stored, 'application/json', tagged(stored));
      }
      if (req.method === 'PUT' || req.method === 'POST') {
        if (stateId === 'LMS.LaunchData') {
          lms.errors.push('the unit wrote LMS.LaunchData');
          return send(403, { error: 'LMS.LaunchData is the LMS’s' });
        }
        if (concurrency) {
          const exists = reg.states.has(stateId);
          const current = exists ? etagOf(reg.states.get(stateId)) : null;
          const ifMatch = req.headers['if-match'];
          const ifNoneMatch = req.headers['if-none-match'];
          if (ifMatch !== undefined && ifMatch !== '*' && ifMatch !== current)
            return send(412, { error: `If-Match ${ifMatch} is not the document's ETag` });
          if (ifMatch === '*' && !exists) return send(412, { error: 'If-Match * and no document' });
          if (ifNoneMatch === '*' && exists) return send(412, { error: 'If-None-Match * and the document exists' });
          if (exists && ifMatch === undefined && ifNoneMatch === undefined)
            return send(409, { error: 'the document exists: send If-Match with its ETag' });
        }
        const body = JSON.parse(text);
        reg.states.set(stateId, body);
        return send(204, undefined, 'application/json', tagged(body));
      }
    }
    if (path === 'agents/profile' && req.method === 'GET') return send(404, { error: 'no preferences' });
    if (path === 'statements' && req.method === 'GET') {
      const id = q.get('statementId');
      for (const reg of lms.registrations.values()) {
        const found = reg.statements.find((s) => s.id === id);
        if (found) return send(200, found);
      }
      return send(404, { error: 'no such statement' });
    }
    if (path === 'statements' && (req.method === 'POST' || req.method === 'PUT')) {
      const parsed = JSON.parse(text);
      const batch = Array.isArray(parsed) ? parsed : [parsed];
      const refusal = checkBatch(batch, launch);
      if (refusal) {
        lms.errors.push(refusal.message);
        return send(refusal.status, { error: refusal.message });
      }
      for (const statement of batch) record(statement);
      return send(
        200,
        batch.map((s) => s.id),
      );
    }
    return send(404, { error: 'not an endpoint of this test LMS' });
  }

  /** Null when the LMS takes the whole batch (xAPI: all or none), else { status, message }. */
  function checkBatch(batch, launch) {
    const seen = new Map();
    for (const statement of batch) {
      const reg = registration(statement.context?.registration);
      const existing = reg.statements.find((s) => s.id === statement.id) ?? seen.get(statement.id);
      if (existing) {
        if (JSON.stringify(existing) !== JSON.stringify(statement))
          return { status: 409, message: `statement ${statement.id} differs from the one stored` };
        continue;
      }
      const verb = statement.verb?.id?.split('/').at(-1);
      if (JSON.stringify(statement.actor) !== JSON.stringify(launch.actor))
        return { status: 400, message: `${verb}: not the launch's actor` };
      if (statement.context?.registration !== launch.registration)
        return { status: 400, message: `${verb}: not the launch's registration` };
      const sessionId = statement.context?.extensions?.[SESSION_EXTENSION];
      const session = reg.sessions.get(sessionId) ?? { initialized: false, terminated: false };
      if (!reg.sessions.has(sessionId) && !lms.sessionIds.has(sessionId))
        return { status: 400, message: `${verb}: no session ${sessionId}` };
      if (session.terminated || session.abandoned)
        return { status: 403, message: `${verb}: session ${sessionId} has ended` };
      if (!session.initialized && verb !== 'initialized')
        return { status: 400, message: `${verb} before initialized in session ${sessionId}` };
      if (session.initialized && verb === 'initialized')
        return { status: 400, message: `a second initialized in session ${sessionId}` };
      const earlier = [...reg.statements, ...seen.values()].map((s) => s.verb.id);
      if (verb === 'completed' && earlier.includes(VERB('completed')))
        return { status: 400, message: 'a second completed in the registration (cmi5 §9.3.3)' };
      if (verb === 'passed' && earlier.includes(VERB('passed')))
        return { status: 400, message: 'a second passed in the registration (cmi5 §9.3.4)' };
      if (verb === 'failed' && earlier.includes(VERB('passed')))
        return { status: 400, message: 'failed after passed in the registration' };
      if (['passed', 'failed'].includes(verb)) {
        const scaled = statement.result?.score?.scaled;
        const mastery = launch.launchData.masteryScore;
        if (typeof mastery === 'number' && typeof scaled === 'number' && (verb === 'passed') !== scaled >= mastery)
          return { status: 400, message: `${verb} with scaled ${scaled} against mastery ${mastery}` };
      }
      seen.set(statement.id, statement);
      // The session's state as if this statement were stored, for the rest of the batch.
      if (verb === 'initialized') reg.sessions.set(sessionId, { ...session, initialized: true });
      if (verb === 'terminated') reg.sessions.set(sessionId, { ...session, initialized: true, terminated: true });
    }
    return null;
  }

  function record(statement) {
    const reg = registration(statement.context.registration);
    if (reg.statements.some((s) => s.id === statement.id)) return;
    reg.statements.push(statement);
  }

  lms.sessionIds = new Set();
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  lms.origin = `http://127.0.0.1:${server.address().port}`;

  /**
   * A launch of the unit at `page` (a path on this server, or an address) for a learner: a new
   * session (and, unless given, a new registration), its LaunchData, and the launch URL.
   */
  lms.launch = ({
    page = '/index.html',
    registration: reg = randomUUID(),
    activityId = 'urn:x-positional-lesson:au:lesson',
    actor = { objectType: 'Agent', name: 'A Learner', account: { homePage: lms.origin, name: 'learner-1' } },
    launchMode = 'Normal',
    masteryScore = 0.8,
    returnURL = undefined,
    contextTemplate = undefined, // or (sessionId) => template
    endpoint = `${lms.origin}/lms/xapi/`,
  } = {}) => {
    const code = randomUUID();
    const sessionId = randomUUID();
    const token = Buffer.from(`au:${randomUUID()}`).toString('base64');
    // Starting a new session abandons the registration's sessions that never terminated (cmi5 §9.3.6).
    const known = registration(reg);
    for (const [id, session] of known.sessions)
      if (!session.terminated) known.sessions.set(id, { ...session, abandoned: true });
    lms.sessionIds.add(sessionId);
    known.sessions.set(sessionId, { initialized: false, terminated: false });
    const launchData = {
      contextTemplate:
        typeof contextTemplate === 'function'
          ? contextTemplate(sessionId)
          : (contextTemplate ?? {
              contextActivities: { grouping: [{ id: activityId }] },
              extensions: { [SESSION_EXTENSION]: sessionId },
            }),
      launchMode,
      moveOn: 'CompletedAndPassed',
      ...(masteryScore === undefined ? {} : { masteryScore }),
      ...(returnURL === undefined ? {} : { returnURL }),
    };
    lms.launches.set(code, { token, fetched: 0, registration: reg, sessionId, launchData, activityId, actor });
    const url = new URL(page, lms.origin);
    url.search = new URLSearchParams({
      endpoint,
      fetch: `${lms.origin}/lms/fetch?code=${code}`,
      actor: JSON.stringify(actor),
      registration: reg,
      activityId,
    }).toString();
    return { url: url.href, registration: reg, sessionId, code };
  };

  /** The verbs stored for a registration, in order (the last path segment: initialized, answered, …). */
  lms.verbs = (reg) => (lms.registrations.get(reg)?.statements ?? []).map((s) => s.verb.id.split('/').at(-1));
  lms.statements = (reg) => lms.registrations.get(reg)?.statements ?? [];
  lms.state = (reg, stateId = 'positional-lesson:progress') => lms.registrations.get(reg)?.states.get(stateId) ?? null;
  lms.close = () =>
    new Promise((r) => {
      server.closeAllConnections?.();
      server.close(r);
    });
  return lms;
}
