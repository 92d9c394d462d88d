// @ts-check
// The SCORM connection's side of the run-time (lms/scorm.js): its calls, and the values on their way
// to it. Every value is kept until the run-time has taken it and a commit has succeeded: a SetValue
// that answers 'false' or throws, a refused Commit, or a run-time that has gone leave it waiting for
// the next try (with a growing pause). What a run-time refuses for good is dropped and named in the
// console. A flush lets the page run between slow calls.

/** The run-time has gone (its window closed) or was never a SCORM API. */
export class RunTimeGone extends Error {}

// How long one flush may hold the page before it lets the page run (ms): well under the 200 ms past
// which a page feels stuck, with room for one slow call on top.
export const FLUSH_SLICE_MS = 50;

/**
 * The calls of the SCORM API object `api`, under the names `terms` (its edition's) gives them.
 * `call` throws RunTimeGone when the method is missing; `read` and `lastError` never throw.
 * @param {any} api
 * @param {Record<string, any>} terms
 */
export function runTimeCalls(api, terms) {
  /** @param {string} verb @param {...string} args */
  const call = (verb, ...args) => {
    const method = api?.[terms[verb]];
    if (typeof method !== 'function') throw new RunTimeGone(`the run-time has no ${terms[verb]}`);
    return String(method.apply(api, args));
  };
  return {
    call,
    lastError() {
      try {
        return Number(call('lastError'));
      } catch {
        return NaN;
      }
    },
    /** @param {string} element */
    read(element) {
      try {
        return call('get', element);
      } catch {
        return '';
      }
    },
  };
}

/**
 * Where each value stands: waiting (`pending`, in the order to hand over), taken by a SetValue and
 * waiting for a successful commit (`taken`), or committed (`stored`).
 * @param {ReturnType<typeof runTimeCalls>} runTime
 * @param {{ edition: string, refusals: Set<number> }} edition
 */
function valueLedger(runTime, { edition, refusals }) {
  const pending = new Map(); // element → value, not yet taken by the run-time
  let taken = new Map(); // taken by SetValue, waiting for a successful Commit
  const stored = new Map(); // element → value the run-time took and committed
  /** Nothing taken since the last good commit is known to be stored: it all waits again. */
  const giveBackTaken = () => {
    for (const [element, value] of taken) if (!pending.has(element)) pending.set(element, value);
    taken = new Map();
  };
  return {
    pending,
    waiting: () => pending.size > 0 || taken.size > 0,
    /** @param {string} element @param {unknown} value */
    put(element, value) {
      const text = String(value);
      // Only what changed: a value the run-time already holds (committed) is not sent again.
      if (stored.get(element) === text && !taken.has(element)) {
        pending.delete(element);
        return;
      }
      pending.delete(element); // a newer value replaces one still waiting, in the newer place
      pending.set(element, text);
    },
    /** One SetValue: taken (until the commit), refused for good (left out, named), or left waiting. */
    handOver(element, value) {
      if (runTime.call('set', element, value) === 'true') {
        if (pending.get(element) === value) pending.delete(element);
        taken.set(element, value);
        return;
      }
      const code = runTime.lastError();
      if (refusals.has(code)) {
        if (pending.get(element) === value) pending.delete(element);
        console.warn(
          `SCORM ${edition}: the course site refuses ${element} = ${JSON.stringify(value)} (error ${code}); it is left out.`,
        );
      }
    },
    /** Commits what was taken (when there is something, or nothing at all waits). */
    commit() {
      if (!taken.size && pending.size) return;
      if (runTime.call('commit', '') !== 'true') return giveBackTaken();
      for (const [element, value] of taken) stored.set(element, value);
      taken = new Map();
    },
    giveBackTaken,
  };
}

/**
 * The values on their way to the run-time: `put` keeps one, `flush` hands them over and commits.
 * `isOpen()` says whether the session is open (nothing is called outside it); `timers`, `clock`
 * (ms, monotonic) and `nextTask(resume)` are the connection's.
 * @param {ReturnType<typeof runTimeCalls>} runTime
 * @param {{
 *   edition: string, refusals: Set<number>, isOpen: () => boolean,
 *   timers: { setTimeout: Function, clearTimeout: Function }, clock: () => number, nextTask: (resume: () => void) => void,
 * }} deps
 */
export function scormWrites(runTime, { edition, refusals, isOpen, timers, clock, nextTask }) {
  const values = valueLedger(runTime, { edition, refusals });
  let flushing = false; // a flush is under way (it may be waiting for its next slice)
  let lastCallMs = 0; // how long the run-time's last SetValue took
  /** @type {(status: import('./course-session.js').CourseStatus) => void} */
  let listener = () => {};
  let gone = false;
  let retryDelay = 0;
  let retryTimer = null;

  /** @returns {import('./course-session.js').CourseStatus} */
  const status = () => {
    if (gone) return 'offline';
    if (flushing) return 'saving';
    return values.waiting() ? 'retrying' : 'saved';
  };
  const scheduleRetry = () => {
    if (retryTimer || !isOpen()) return;
    retryDelay = Math.min(retryDelay ? retryDelay * 2 : 2000, 60000);
    retryTimer = timers.setTimeout(() => {
      retryTimer = null;
      flush();
    }, retryDelay);
  };

  /**
   * Hands every waiting value to the run-time, then commits; what fails waits for the next try.
   * A run-time's calls are synchronous and some are slow (a SetValue that sends a request and waits):
   * once this flush has held the page for FLUSH_SLICE_MS it lets the page run (a new task) before
   * the next call, so a slow run-time delays the saving, not the page. One call can still take as
   * long as the run-time takes; nothing on the page can split it. With `yielding` false (the page is
   * going away) everything is handed over at once.
   */
  const flush = ({ yielding = true } = {}) => {
    if (!isOpen()) return;
    if (flushing && yielding) return; // the flush under way takes what waits now, too
    flushing = true;
    const attempted = new Map(); // element → value handed over (or refused) in this flush
    let sliceStart = clock();
    // A run-time known to be slow is not called in the caller's task (a click, a key): the flush
    // starts in a task of its own.
    let callsThisSlice = yielding && lastCallMs > FLUSH_SLICE_MS ? 1 : 0;
    const step = () => {
      try {
        for (;;) {
          if (!isOpen()) return finish();
          const next = [...values.pending].find(([element, value]) => attempted.get(element) !== value);
          if (!next) break;
          // Yield before a call that would carry this task past the slice (judged by the last call's time).
          if (yielding && clock() - sliceStart + lastCallMs > FLUSH_SLICE_MS && callsThisSlice > 0) {
            listener(status());
            return nextTask(() => {
              sliceStart = clock();
              callsThisSlice = 0;
              step();
            });
          }
          const [element, value] = next;
          attempted.set(element, value);
          const callStart = clock();
          callsThisSlice += 1;
          values.handOver(element, value);
          lastCallMs = clock() - callStart;
        }
        values.commit();
        gone = false;
      } catch (error) {
        if (!(error instanceof RunTimeGone))
          console.warn(`SCORM ${edition}: the course site's run-time failed:`, error);
        gone = true;
        values.giveBackTaken();
      }
      finish();
    };
    const finish = () => {
      flushing = false;
      if (!isOpen()) return;
      if (values.pending.size || gone) scheduleRetry();
      else retryDelay = 0;
      listener(status());
    };
    step();
  };

  return {
    put: values.put,
    flush,
    status,
    /** @param {(status: import('./course-session.js').CourseStatus) => void} callback */
    onStatus(callback) {
      listener = callback;
    },
    /** The run-time could not even be opened. */
    markGone() {
      gone = true;
    },
    /** No retry from here (the session is closing). */
    stopRetrying() {
      timers.clearTimeout(retryTimer);
    },
  };
}
