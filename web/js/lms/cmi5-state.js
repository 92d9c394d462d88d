// @ts-check
// The cmi5 unit's own state document (xAPI State API, keyed by activity, agent and registration):
// the self-test's record and the verdicts sent, so that the cmi5 rules on verdicts hold across
// sessions and devices. Written under xAPI's concurrency rules (ETags): when another device wrote
// it meanwhile, the two are merged and the write tried again.
import { decodeRecord, encodeRecord } from './record.js';
import { HttpError } from './cmi5-lrs.js';

/** The unit's own state document (xAPI State API, keyed by activity, agent and registration). */
export const STATE_ID = 'positional-lesson:progress';

/**
 * What the state document holds: the record (encodeRecord), whether completed and passed were
 * sent, and the verdict sent for each attempt (by its seed).
 * @typedef {{ record: string | null, completed: boolean, passed: boolean, verdicts: Record<string, string> }} UnitState
 */

/**
 * Two versions of the unit's state document made one, as when this page and another device wrote
 * it at once: the answers are the union (where both answered an item, `theirs`, already stored,
 * stands), the verdicts sent are the union (a passed beats a failed for the same attempt), and
 * completed and passed hold if either says so. Of two different attempts, this page's (`mine`) is kept.
 * @param {UnitState} mine
 * @param {any} theirs
 * @returns {UnitState}
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

/**
 * `state` with what `candidate` (a stored document, or one still waiting from an earlier visit)
 * says laid over it: its record, its verdicts, and completed and passed if either says so.
 * @param {UnitState} state
 * @returns {UnitState}
 */
function laidOver(state, candidate) {
  if (!candidate || typeof candidate !== 'object') return state;
  return {
    record: typeof candidate.record === 'string' ? candidate.record : state.record,
    completed: state.completed || candidate.completed === true,
    passed: state.passed || candidate.passed === true,
    verdicts: {
      ...state.verdicts,
      ...(candidate.verdicts && typeof candidate.verdicts === 'object' ? candidate.verdicts : {}),
    },
  };
}

/**
 * The unit's state document as this page keeps it (`state`, which the connection changes and
 * queues) and writes it. `waitingEntry()` is the queue's entry of the document still to be sent,
 * which a merge brings up to date.
 * @param {ReturnType<typeof import('./cmi5-lrs.js').lrsClient>} lrs
 * @param {{ waitingEntry: () => { body: UnitState } | undefined }} queue
 */
export function cmi5StateDocument(lrs, { waitingEntry }) {
  /** @type {UnitState} */
  let state = { record: null, completed: false, passed: false, verdicts: {} };
  // The state document's ETag as the LRS last gave it: a string (writes send If-Match), null (there
  // is none yet: If-None-Match: *), undefined (not known: read it first) or false (the LRS sends no
  // ETags: writes go unconditionally).
  /** @type {string | null | undefined | false} */
  let tag;
  const address = () => lrs.xapiUrl('activities/state', lrs.stateParams(STATE_ID));
  const conditions = () => (tag ? { 'If-Match': tag } : tag === null ? { 'If-None-Match': '*' } : {});

  /**
   * The document as the LRS holds it: its body (null when there is none) and ETag (null when there
   * is no document, false when the LRS gives none).
   * @returns {Promise<{ body: any, etag: string | null | false }>}
   */
  const read = async () => {
    const response = await lrs.request(address());
    if (response.status === 404) return { body: null, etag: null };
    if (!response.ok)
      throw new HttpError(`cmi5: the LMS answered HTTP ${response.status} for the state document`, response.status);
    const text = await response.text();
    return { body: text ? JSON.parse(text) : null, etag: response.headers.get('ETag') ?? false };
  };

  /** Reads the stored document, merges it into this page's, and has `entry` (and the one waiting) carry the merge. */
  const mergeStored = async (entry) => {
    const stored = await read();
    tag = stored.etag;
    state = mergedState(state, stored.body);
    const waiting = waitingEntry();
    if (waiting) waiting.body = state;
    if (entry) entry.body = state;
  };

  return {
    get state() {
      return state;
    },
    set state(next) {
      state = next;
    },
    /**
     * On opening: the stored document (read, with retries), then `waiting` (a document an earlier
     * visit queued and never sent, newer than the LRS's) laid over this page's.
     * @param {any} waiting
     */
    async open(waiting) {
      const stored = await lrs.retrying(read);
      tag = stored.etag;
      for (const candidate of [stored.body, waiting]) state = laidOver(state, candidate);
    },
    /**
     * Writes `entry` (the queue's) under xAPI's concurrency rules: If-Match with the ETag last read
     * (or If-None-Match: * when there was none). When another device wrote it meanwhile (409 or
     * 412), the stored one is read again, merged into this page's (mergedState) and the write tried again.
     * @param {{ body: UnitState }} entry
     */
    async write(entry) {
      for (let attempt = 0; attempt < 5; attempt += 1) {
        if (tag === undefined) await mergeStored(entry);
        const response = await lrs.request(address(), {
          method: 'PUT',
          headers: { 'Content-Type': 'application/json', ...conditions() },
          body: JSON.stringify(entry.body),
        });
        if (response.ok) {
          // A new ETag, or none given: then it is read again before the next write.
          tag = tag === false ? false : (response.headers.get('ETag') ?? undefined);
          return;
        }
        if (response.status !== 409 && response.status !== 412)
          throw new HttpError(`cmi5: the LMS refused the state document (HTTP ${response.status})`, response.status);
        tag = undefined;
      }
      throw new HttpError('cmi5: the state document kept changing while it was written', 412);
    },
    /**
     * Writes `body` as the page goes away (keepalive), refused (and kept for the next visit) if
     * another device wrote it since it was read.
     * @param {UnitState} body
     */
    writeWithPage(body) {
      lrs.sendWithPage(address(), {
        method: 'PUT',
        headers: { 'Content-Type': 'application/json', ...conditions() },
        body: JSON.stringify(body),
      });
    },
  };
}
