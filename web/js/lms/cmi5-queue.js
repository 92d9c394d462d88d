// @ts-check
// The cmi5 connection's outbox (lms/cmi5.js): every statement and the state document wait in an
// ordered queue kept in this browser's storage until the LRS has accepted them. Statements leave in
// batches; a batch the LRS refuses is split until the statement at fault stands alone, and that one
// is set aside. What fails is retried with a growing pause; what waits leaves together (keepalive)
// when the page goes away, and is sent again (or settled) on the next launch.
import { HttpError } from './cmi5-lrs.js';
import { RESULT_VERBS } from './cmi5-statements.js';

// What a page going away may send at once: browsers allow 64 KiB of keepalive bodies in flight.
const KEEPALIVE_BUDGET = 60000;
const MAX_BATCH = 20;

/**
 * One entry of the queue: a statement of a session, or the unit's state document.
 * @typedef {{ kind: 'statement', id: string, verb: string, session: string | null, body: any }
 *   | { kind: 'state', body: import('./cmi5-state.js').UnitState }} QueueEntry
 */

/** The entries kept under `key` (an unreadable or foreign value gives none). */
function keptEntries(kept, key) {
  try {
    const saved = JSON.parse(kept.get(key) ?? '[]');
    return Array.isArray(saved) ? saved : [];
  } catch {
    return [];
  }
}

/**
 * The queue's entries as they are kept across visits (in `kept`, under the registration), and the
 * statements the LRS refused one by one (HTTP 400): { verb, id, reason }, kept beside them.
 * @param {{ get(key: string): string | null, set(key: string, value: string): void, remove(key: string): void }} kept
 * @param {string} registration
 */
function keptQueue(kept, registration) {
  const queueKey = `positional-lesson:cmi5:queue:${registration}`;
  const refusedKey = `positional-lesson:cmi5:refused:${registration}`;
  /** @type {{ verb: string, id: string, reason: string }[]} */
  const refused = keptEntries(kept, refusedKey);
  /** @type {QueueEntry[]} oldest first */
  let entries = keptEntries(kept, queueKey).filter((e) => e && (e.kind === 'statement' || e.kind === 'state'));
  return {
    get entries() {
      return entries;
    },
    refused,
    persist: () => (entries.length ? kept.set(queueKey, JSON.stringify(entries)) : kept.remove(queueKey)),
    // Entries leave the queue by identity, never by position: new entries (a newer state document
    // replacing an older one) may arrive while a request is on its way.
    remove(...gone) {
      const set = new Set(gone);
      entries = entries.filter((e) => !set.has(e));
    },
    /** @param {QueueEntry} entry @param {number} [at] where it goes (the end when absent) */
    insert(entry, at = entries.length) {
      entries.splice(at, 0, entry);
    },
    /** @param {QueueEntry} entry */
    replaceState(entry) {
      entries = entries.filter((e) => e.kind !== 'state');
      entries.push(entry);
    },
    /** Sets `entry` aside for good, with the LRS's reason. */
    refuse(entry, reason) {
      refused.push({ verb: entry.verb, id: entry.id, reason });
      kept.set(refusedKey, JSON.stringify(refused));
    },
  };
}

/**
 * Sends `batch` (statements of this session, in order). The LRS takes a batch whole or not at all,
 * so when it refuses one as malformed (400) or conflicting (409) the batch is split in halves and
 * each sent again, until the statement at fault stands alone: that one is set aside with the LRS's
 * reason (and the learner told "Not saved"), and every other statement still goes.
 * @param {any[]} batch
 * @param {{ lrs: ReturnType<typeof import('./cmi5-lrs.js').lrsClient>, store: ReturnType<typeof keptQueue> }} queue
 */
async function sendStatements(batch, { lrs, store }) {
  const response = await lrs.request(lrs.xapiUrl('statements'), {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(batch.map((e) => e.body)),
    reason: true,
  });
  if (response.ok) {
    store.remove(...batch);
    store.persist();
    return;
  }
  if (response.status !== 400 && response.status !== 409)
    throw new HttpError(`cmi5: the LMS refused a statement (HTTP ${response.status})`, response.status);
  if (batch.length > 1) {
    const half = Math.ceil(batch.length / 2);
    await sendStatements(batch.slice(0, half), { lrs, store });
    await sendStatements(batch.slice(half), { lrs, store });
    return;
  }
  const [entry] = batch;
  store.remove(entry);
  // 409 for one statement: the LRS holds a statement with its id (sent before, with keepalive).
  if (response.status === 400) {
    const reason = String(response.reason ?? '').slice(0, 300) || 'no reason given';
    store.refuse(entry, reason);
    console.error(`cmi5: the LMS refused ${entry.verb} ${entry.id} (HTTP 400: ${reason}); it is kept, not sent again.`);
  }
  store.persist();
}

/**
 * A statement from an earlier session of this registration that may or may not have arrived
 * (it left with keepalive as that page went away): dropped if the LRS has it, else sent as it
 * was; if the LRS refuses the old session now (a terminated or abandoned one), a result is
 * reported again in this session (`reissue`) and a session marker is dropped.
 * @param {any} entry
 * @param {{
 *   lrs: ReturnType<typeof import('./cmi5-lrs.js').lrsClient>,
 *   store: ReturnType<typeof keptQueue>,
 *   reissue: (entry: any) => any,
 *   sessionId: () => string | null,
 * }} queue
 */
async function settleEarlier(entry, { lrs, store, reissue, sessionId }) {
  const known = await lrs.request(lrs.xapiUrl('statements', { statementId: entry.id }));
  if (known.ok) {
    store.remove(entry);
    return;
  }
  const sent = await lrs.request(lrs.xapiUrl('statements'), {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify([entry.body]),
  });
  if (sent.ok || sent.status === 409) {
    store.remove(entry);
    return;
  }
  // Busy or unauthorised: try again later. Any other refusal (403 for a session the LMS has
  // closed, 400) is final for that session.
  if (sent.status >= 500 || sent.status === 429 || sent.status === 408 || sent.status === 401)
    throw new HttpError(`cmi5: the LMS refused an earlier session's statement (HTTP ${sent.status})`, sent.status);
  const at = store.entries.indexOf(entry);
  store.remove(entry);
  const body = RESULT_VERBS.has(entry.verb) ? reissue(entry) : null;
  if (body)
    store.insert({ kind: 'statement', id: body.id, verb: entry.verb, session: sessionId(), body }, Math.max(at, 0));
}

/** Whether `entry` is a statement of `session`. */
const isStatementOf = (entry, session) => entry?.kind === 'statement' && entry.session === session;

/**
 * The statements of `session` that may leave with the page (keepalive), oldest first: as many as
 * fit in KEEPALIVE_BUDGET; the rest wait for the next launch.
 * @param {QueueEntry[]} entries
 * @param {string | null} session
 */
function keepaliveStatements(entries, session) {
  const statements = [];
  let budget = KEEPALIVE_BUDGET;
  for (const entry of entries) {
    if (!isStatementOf(entry, session)) continue;
    const size = JSON.stringify(entry.body).length;
    if (size > budget) break;
    budget -= size;
    statements.push(entry.body);
  }
  return statements;
}

/**
 * The queue of `launch`'s registration. `kept` is storage kept across visits; `lrs` the line to the
 * LMS (lms/cmi5-lrs.js); `sessionId()` this session's id (statements of any other are an earlier
 * session's); `writeState(entry)` writes the state document; `reissue(entry)` gives the body an
 * earlier session's statement goes again with in this session when the LMS refuses the old one
 * (null: it is dropped); `timers` the connection's.
 * @param {{ registration: string }} launch
 * @param {{
 *   kept: { get(key: string): string | null, set(key: string, value: string): void, remove(key: string): void },
 *   lrs: ReturnType<typeof import('./cmi5-lrs.js').lrsClient>,
 *   sessionId: () => string | null,
 *   writeState: (entry: { body: import('./cmi5-state.js').UnitState }) => Promise<void>,
 *   writeStateWithPage: (body: import('./cmi5-state.js').UnitState) => void,
 *   reissue: (entry: QueueEntry & { kind: 'statement' }) => any,
 *   timers: { setTimeout: Function, clearTimeout: Function },
 * }} deps
 */
export function cmi5Queue(launch, { kept, lrs, sessionId, writeState, writeStateWithPage, reissue, timers }) {
  const store = keptQueue(kept, launch.registration);

  /** @type {(status: import('./course-session.js').CourseStatus) => void} */
  let listener = () => {};
  /** @type {import('./course-session.js').CourseStatus} */
  let status = 'retrying';
  let pumping = false;
  let retryDelay = 0;
  let retryTimer = null;
  let failures = 0;
  let closed = false; // the page has gone: nothing is retried from here (the queue waits in storage)

  const { persist } = store;
  const setStatus = (next) => {
    if (next === status) return;
    status = next;
    listener(status);
  };

  /** After a failure: the learner told how it stands, and the next try after a growing pause. */
  const retryLater = (error) => {
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
  };

  /** Sends what waits, in order, until the queue is empty or the LRS stops accepting. */
  const pump = async () => {
    if (pumping || !lrs.authorized()) return;
    pumping = true;
    try {
      while (store.entries.length) {
        const head = store.entries[0];
        if (head.kind === 'state') {
          await writeState(head);
          store.remove(head);
        } else if (head.session !== sessionId()) await settleEarlier(head, { lrs, store, reissue, sessionId });
        else {
          const batch = [];
          while (batch.length < MAX_BATCH && isStatementOf(store.entries[batch.length], sessionId()))
            batch.push(store.entries[batch.length]);
          await sendStatements(batch, { lrs, store });
        }
        persist();
        failures = 0;
        retryDelay = 0;
      }
      // A refused session marker (a second initialized after a reload of the same launch) loses no answer.
      setStatus(store.refused.some((r) => RESULT_VERBS.has(r.verb)) ? 'refused' : 'saved');
    } catch (error) {
      retryLater(error);
    } finally {
      pumping = false;
    }
  };

  return {
    /** Queues a statement of this session (`first`: ahead of everything waiting); kept at once. */
    addStatement(verb, body, { first = false } = {}) {
      /** @type {QueueEntry} */
      const entry = { kind: 'statement', id: body.id, verb, session: sessionId(), body };
      store.insert(entry, first ? 0 : undefined);
      persist();
    },
    /** Queues `body` as the state document to write, in place of any older one still waiting; kept at once. */
    replaceState(body) {
      store.replaceState({ kind: 'state', body });
      persist();
    },
    /** The state document still waiting to be written (from this visit or an earlier one). */
    waitingState: () =>
      /** @type {{ kind: 'state', body: any } | undefined} */ (store.entries.find((e) => e.kind === 'state')),
    /** The body of the last state document an earlier visit left waiting (newer than the LRS's). */
    lastWaitingState: () => store.entries.filter((e) => e.kind === 'state').at(-1)?.body,
    pump,
    /** Sends what waits now, not after the pause a failure set. */
    flush() {
      timers.clearTimeout(retryTimer);
      retryTimer = null;
      retryDelay = 0;
      pump();
    },
    /**
     * Sends what waits until all is accepted or `clock()` reaches `deadline` (both in ms).
     * @param {number} deadline @param {() => number} clock
     */
    async drain(deadline, clock) {
      retryDelay = 0;
      while (store.entries.length && clock() < deadline) {
        await pump();
        if (store.entries.length) await new Promise((resolve) => timers.setTimeout(resolve, 250));
      }
    },
    status: () => status,
    onStatus(callback) {
      listener = callback;
    },
    /**
     * The page goes away: the state document and this session's statements (as many as keepalive
     * allows) leave at once, and nothing is retried from here. What left stays queued until a
     * later visit confirms it arrived (settleEarlier).
     */
    leaveWithPage() {
      const statements = keepaliveStatements(store.entries, sessionId());
      const stateEntry = store.entries.find((e) => e.kind === 'state');
      try {
        if (stateEntry) writeStateWithPage(stateEntry.body);
        if (statements.length)
          lrs.sendWithPage(lrs.xapiUrl('statements'), {
            method: 'POST',
            headers: { 'Content-Type': 'application/json' },
            body: JSON.stringify(statements),
          });
      } catch {
        // a browser that refuses keepalive: the queue stays for the next launch
      }
      closed = true;
      timers.clearTimeout(retryTimer);
      retryTimer = null;
    },
    /** Nothing is retried from here (the page goes before the session opened; the queue waits in storage). */
    stop() {
      closed = true;
    },
  };
}
