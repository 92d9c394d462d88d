// @ts-check
// The course shell's connection to a SCORM 1.2 or SCORM 2004 (4th edition) run-time. Every value is
// kept until the run-time has taken it and a commit has succeeded: a SetValue that answers 'false'
// or throws, a refused Commit, or a run-time that has gone leave it waiting for the next try (with
// a growing pause), and the status says so. What a run-time refuses for good (an element it does
// not implement, a value it finds malformed) is dropped, named in the console, and does not hold
// the rest back.
import { courseMastery, decodeRecord, encodeRecord, RECORD_VERSION, SUSPEND_DATA_LIMITS } from './record.js';
import { seedDrawing } from '../self-test/self-test-items.js';

/** ISO 8601 duration (SCORM 2004's cmi.session_time): PT1H2M3.45S. */
export function isoDuration(ms) {
  const total = Math.max(0, ms) / 1000;
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = (total % 60).toFixed(2).replace(/\.?0+$/, '');
  return `PT${hours ? `${hours}H` : ''}${minutes ? `${minutes}M` : ''}${seconds || '0'}S`;
}

/** SCORM 1.2's CMITimespan: HHHH:MM:SS.SS. */
export function scorm12Duration(ms) {
  const total = Math.max(0, ms) / 1000;
  const hours = String(Math.floor(total / 3600)).padStart(4, '0');
  const minutes = String(Math.floor((total % 3600) / 60)).padStart(2, '0');
  const seconds = (total % 60).toFixed(2).padStart(5, '0');
  return `${hours}:${minutes}:${seconds}`;
}

/**
 * The element names, verbs and vocabularies that differ between the two editions, side by side:
 * [SCORM 1.2's, SCORM 2004's].
 */
const EDITION_TERMS = {
  initialize: ['LMSInitialize', 'Initialize'],
  set: ['LMSSetValue', 'SetValue'],
  get: ['LMSGetValue', 'GetValue'],
  commit: ['LMSCommit', 'Commit'],
  finish: ['LMSFinish', 'Terminate'],
  lastError: ['LMSGetLastError', 'GetLastError'],
  mode: ['cmi.core.lesson_mode', 'cmi.mode'],
  entry: ['cmi.core.entry', 'cmi.entry'],
  mastery: [
    ['cmi.student_data.mastery_score', 100],
    ['cmi.scaled_passing_score', 1],
  ],
  response: ['student_response', 'learner_response'],
  results: [
    { correct: 'correct', incorrect: 'wrong', neutral: 'neutral' },
    { correct: 'correct', incorrect: 'incorrect', neutral: 'neutral' },
  ],
  // The data model errors retrying cannot help with. RTE 1.2 §3.3.2: 201 invalid argument, 401 not
  // implemented, 402 keyword, 403 read only, 404 write only, 405 wrong type. RTE 2004 §3.1.7.6: 401
  // undefined, 402 unimplemented, 404 read only, 405 write only, 406 type mismatch, 407 out of range.
  // (408, a dependency not yet set, clears once its element is in.)
  refusals: [new Set([201, 401, 402, 403, 404, 405]), new Set([201, 401, 402, 404, 405, 406, 407])],
  // 2004's error for an Initialize called again (103); 1.2 has no such code.
  alreadyInitialized: [undefined, 103],
};

/** Edition ('1.2' or '2004') → { term → its value in that edition }, from EDITION_TERMS' columns. */
/** Edition ('1.2', '2004') → term → that edition's word, code or set of codes. @type {Record<string, Record<string, any>>} */
const EDITIONS = Object.fromEntries(
  ['1.2', '2004'].map((edition, column) => [
    edition,
    Object.fromEntries(Object.entries(EDITION_TERMS).map(([term, values]) => [term, values[column]])),
  ]),
);

// The most interactions a run-time's own count is trusted with: beyond it, or not a whole number,
// the count is junk, and the page numbers its interactions itself.
const MAX_INTERACTIONS = 10000;
// 2004's cmi.interactions.n.description holds at most 250 characters (RTE 4.2.9.2, SPM 250).
const DESCRIPTION_LIMIT = 250;

class RunTimeGone extends Error {}

// The seed of a record read back from interactions when no seed draws its variants: they keep the
// answers, not the order the choices were shown in, so a review shows them in this seed's order.
const REVIEW_SEED = '00000000';

/**
 * The answers a SCORM 2004 run-time holds as interactions (`count` of them, read with `read`), as a
 * record: Moodle reopens a completed 2004 attempt for review with cmi.suspend_data empty, though it
 * still has every interaction. The last response to an item wins; an interaction without a response
 * (one the run-time refused) is left out. Null when none is readable. SCORM 1.2 has no such
 * fallback: its interactions are write-only.
 */
export function recordFromInteractions(read, count, itemIds = null) {
  const responses = {};
  for (let n = 0; n < count; n++) {
    const id = read(`cmi.interactions.${n}.id`);
    const response = read(`cmi.interactions.${n}.learner_response`);
    if (id && response) responses[id] = response;
  }
  const record = decodeRecord({ v: RECORD_VERSION, s: REVIEW_SEED, r: responses }, itemIds);
  if (!record || !Object.keys(record.responses).length) return null;
  // The variants answered are the ones the review asks: a seed that draws them all.
  return { ...record, seed: seedDrawing(Object.keys(record.responses)) ?? REVIEW_SEED };
}

/**
 * SCORM 1.2's browse mode (Moodle's Preview): the attempt is marked `browsed`. Without it Moodle
 * turns an attempt still `not attempted` into `completed` when the SCO finishes, which grades a
 * preview 0 and opens the next launch in review.
 */
function markBrowsed(read, set) {
  if (['not attempted', ''].includes(read('cmi.core.lesson_status'))) set('cmi.core.lesson_status', 'browsed');
}

/** SCORM 1.2's CMITime of `date`: HH:MM:SS. */
function clockTime(date) {
  return date.toTimeString().slice(0, 8);
}

/** SCORM 2004's time(second,10,0): YYYY-MM-DDThh:mm:ss. */
function timestamp(date) {
  const p = (n) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${p(date.getMonth() + 1)}-${p(date.getDate())}T${p(date.getHours())}:${p(date.getMinutes())}:${p(date.getSeconds())}`;
}

/** A number as SCORM's real(10,7) reads it: at most 7 decimals, no exponent. */
function decimal(value) {
  const fixed = Number(value)
    .toFixed(7)
    .replace(/\.?0+$/, '');
  return fixed === '-0' ? '0' : fixed;
}

// A number as Moodle's SCORM 2004 run-time takes it in a numeric interaction's response and range
// (its CMIDecimal): at most five integer digits and 18 decimals, no exponent. The standard's
// real(10,7) allows more; Moodle refuses anything else with error 406.
const INTERACTION_DECIMAL = /^-?\d{1,5}(\.\d{1,18})?$/;

/**
 * The number `text` (as the page sends it: String of a Number) written out without an exponent,
 * every digit kept, or null when it does not fit INTERACTION_DECIMAL.
 */
export function interactionDecimal(text) {
  const value = Number(text);
  if (!Number.isFinite(value)) return null;
  let plainText = String(value);
  const exponent = /^-?(\d)(?:\.(\d+))?e([-+]\d+)$/.exec(plainText);
  // A tiny number (1.25e-7): as many decimals as its digits need, when they are few enough.
  if (exponent && Number(exponent[3]) < 0) {
    const places = (exponent[2]?.length ?? 0) - Number(exponent[3]);
    plainText = places <= 18 ? value.toFixed(places) : '';
  }
  return INTERACTION_DECIMAL.test(plainText) ? plainText : null;
}

/**
 * The type, response and correct-response pattern one interaction is written with in `edition`.
 * A numeric interaction's pattern is its value in 1.2 and its accepted range in 2004. A number
 * Moodle's 2004 run-time would refuse (a scaled base past 99,999, a huge or tiny answer) goes as
 * fill-in, which takes any text: the learner's number and the right value are both kept, and the
 * result says whether it was within the tolerance. A numeric interaction is kept wherever it fits,
 * so its range still shows the tolerance.
 * @param {{type: string, response: string, correctResponse?: any}} interaction
 * @param {string} edition
 * @returns {{type: string, response: string, pattern: any}}
 */
function interactionFields(interaction, edition) {
  const correct = interaction.correctResponse;
  const { type, response } = interaction;
  if (correct === undefined || type !== 'numeric') return { type, response, pattern: correct };
  if (edition !== '2004') return { type, response, pattern: decimal(correct.value) };
  const bounds = [decimal(correct.min), decimal(correct.max)];
  const number = interactionDecimal(response);
  if (number !== null && bounds.every((bound) => INTERACTION_DECIMAL.test(bound)))
    return { type, response: number, pattern: bounds.join('[:]') };
  return { type: 'fill-in', response, pattern: decimal(correct.value) };
}

// How long one flush may hold the page before it lets the page run (ms): well under the 200 ms past
// which a page feels stuck, with room for one slow call on top.
export const FLUSH_SLICE_MS = 50;

/**
 * A connection to the SCORM API object `api` of `edition` ('1.2' or '2004'). `itemIds` are the
 * self-test's items (a record's answers to anything else are not read back); `timers`, `now`,
 * `clock` (ms, monotonic) and `yieldToPage(resume)` (runs `resume` in a later task; by default a
 * timer of 0 ms) are for tests.
 * @returns {import('./course-session.js').CourseConnection}
 */
export function scormConnection(
  api,
  edition,
  {
    itemIds = null,
    timers = globalThis,
    now = () => new Date(),
    clock = () => performance.now(),
    yieldToPage = null,
  } = {},
) {
  const nextTask = yieldToPage ?? ((resume) => timers.setTimeout(resume, 0));
  const e = EDITIONS[edition];
  const started = now().getTime();
  const pending = new Map(); // element → value, not yet taken by the run-time
  let taken = new Map(); // taken by SetValue, waiting for a successful Commit
  const stored = new Map(); // element → value the run-time took and committed
  let flushing = false; // a flush is under way (it may be waiting for its next slice)
  let lastCallMs = 0; // how long the run-time's last SetValue took
  /** @type {(status: string) => void} */
  let listener = () => {};
  let state = 'closed'; // 'open', 'finished'
  let gone = false;
  let retryDelay = 0;
  let retryTimer = null;
  let interactionBase = 0;
  let interactionsWritten = 0;
  const interactionIndex = new Map();
  let mode = 'normal';

  const call = (verb, ...args) => {
    const method = api?.[e[verb]];
    if (typeof method !== 'function') throw new RunTimeGone(`the run-time has no ${e[verb]}`);
    return String(method.apply(api, args));
  };
  const lastError = () => {
    try {
      return Number(call('lastError'));
    } catch {
      return NaN;
    }
  };
  const read = (element) => {
    try {
      return call('get', element);
    } catch {
      return '';
    }
  };
  const set = (element, value) => {
    if (state !== 'open' || mode !== 'normal') return;
    put(element, value);
  };
  const put = (element, value) => {
    const text = String(value);
    // Only what changed: a value the run-time already holds (committed) is not sent again.
    if (stored.get(element) === text && !taken.has(element)) {
      pending.delete(element);
      return;
    }
    pending.delete(element); // a newer value replaces one still waiting, in the newer place
    pending.set(element, text);
  };

  const status = () => {
    if (gone) return 'offline';
    if (flushing) return 'saving';
    return pending.size || taken.size ? 'retrying' : 'saved';
  };
  const scheduleRetry = () => {
    if (retryTimer || state !== 'open') return;
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
    if (state !== 'open') return;
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
          if (state !== 'open') return finish();
          const next = [...pending].find(([element, value]) => attempted.get(element) !== value);
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
          handOver(element, value);
          lastCallMs = clock() - callStart;
        }
        if (taken.size || !pending.size) {
          if (call('commit', '') === 'true') {
            for (const [element, value] of taken) stored.set(element, value);
            taken = new Map();
          } else {
            // Nothing taken since the last good commit is known to be stored: give it all again.
            for (const [element, value] of taken) if (!pending.has(element)) pending.set(element, value);
            taken = new Map();
          }
        }
        gone = false;
      } catch (error) {
        if (!(error instanceof RunTimeGone))
          console.warn(`SCORM ${edition}: the course site's run-time failed:`, error);
        gone = true;
        for (const [element, value] of taken) if (!pending.has(element)) pending.set(element, value);
        taken = new Map();
      }
      finish();
    };
    const finish = () => {
      flushing = false;
      if (state !== 'open') return;
      if (pending.size || gone) scheduleRetry();
      else retryDelay = 0;
      listener(status());
    };
    step();
  };

  /** One SetValue: taken (until the commit), refused for good (left out, named), or left waiting. */
  const handOver = (element, value) => {
    if (call('set', element, value) === 'true') {
      if (pending.get(element) === value) pending.delete(element);
      taken.set(element, value);
      return;
    }
    const code = lastError();
    if (e.refusals.has(code)) {
      if (pending.get(element) === value) pending.delete(element);
      console.warn(
        `SCORM ${edition}: the course site refuses ${element} = ${JSON.stringify(value)} (error ${code}); it is left out.`,
      );
    }
  };

  const writeInteraction = (interaction) => {
    let n = interactionIndex.get(interaction.id);
    if (n === undefined) {
      n = interactionBase + interactionsWritten++;
      interactionIndex.set(interaction.id, n);
    }
    const at = `cmi.interactions.${n}`;
    const when = now();
    const { type, response, pattern } = interactionFields(interaction, edition);
    set(`${at}.id`, interaction.id);
    set(`${at}.type`, type);
    if (edition === '2004') {
      const order = interaction.choices ? ` [${interaction.choices.map((c) => c.id).join(', ')}]` : '';
      const tag = `{lang=${interaction.language === 'en' ? 'en-US' : interaction.language}}`;
      const room = DESCRIPTION_LIMIT - tag.length - order.length;
      const prompt =
        interaction.description.length > room
          ? `${interaction.description.slice(0, room - 1)}…`
          : interaction.description;
      set(`${at}.description`, `${tag}${prompt}${order}`);
      set(`${at}.timestamp`, timestamp(when));
    } else set(`${at}.time`, clockTime(when));
    set(`${at}.weighting`, interaction.graded ? 1 : 0);
    if (pattern !== undefined) set(`${at}.correct_responses.0.pattern`, pattern);
    set(`${at}.${e.response}`, response);
    set(`${at}.result`, e.results[interaction.result]);
  };

  return {
    kind: edition === '1.2' ? 'scorm12' : 'scorm2004',
    async open() {
      let answer;
      try {
        answer = call('initialize', '');
      } catch (error) {
        gone = true;
        throw new Error(`SCORM ${edition}: the course site's ${e.initialize} failed (${error.message})`);
      }
      if (answer !== 'true' && lastError() !== e.alreadyInitialized)
        throw new Error(`SCORM ${edition}: the course site refused ${e.initialize} (error ${lastError()})`);
      state = 'open';
      const askedMode = read(e.mode);
      mode = ['review', 'browse'].includes(askedMode) ? askedMode : 'normal';
      const entry = read(e.entry);
      const count = read('cmi.interactions._count');
      interactionBase = /^\d{1,5}$/.test(count) && Number(count) <= MAX_INTERACTIONS ? Number(count) : 0;
      if (count !== '' && String(interactionBase) !== count)
        console.warn(
          `SCORM ${edition}: cmi.interactions._count is ${JSON.stringify(count.slice(0, 40))}, not a count; numbering from 0.`,
        );
      const mastery = courseMastery(read(e.mastery[0]), e.mastery[1]);
      // A new attempt starts empty; only a resumed one (or a review) takes the kept answers back.
      let record = mode === 'review' || entry === 'resume' ? decodeRecord(read('cmi.suspend_data'), itemIds) : null;
      const answers = () => Object.keys(record?.responses ?? {}).length;
      if (mode === 'review' && !answers() && edition === '2004')
        record = recordFromInteractions(read, interactionBase, itemIds) ?? record;
      if (mode === 'browse' && edition === '1.2') {
        markBrowsed(read, put);
        flush();
      }
      if (mode === 'normal') {
        if (edition === '1.2') {
          // A preview left the attempt `browsed`: the first real launch starts it.
          if (['not attempted', 'browsed', ''].includes(read('cmi.core.lesson_status')))
            set('cmi.core.lesson_status', 'incomplete');
          // Set now, not only when leaving: if the last commit never arrives (Moodle's commit on
          // leaving is a synchronous request, which browsers refuse while a page is dismissed), the
          // next launch still resumes.
          set('cmi.core.exit', 'suspend');
        } else {
          if (['not attempted', 'unknown', ''].includes(read('cmi.completion_status')))
            set('cmi.completion_status', 'incomplete');
          set('cmi.exit', 'suspend');
        }
        flush();
      }
      return { mode, mastery, record, canStartOver: false, recorded: mode !== 'review' || answers() > 0 };
    },
    interaction(interaction) {
      writeInteraction(interaction);
    },
    saveRecord(record) {
      const text = encodeRecord(record);
      if (text.length > SUSPEND_DATA_LIMITS[edition]) {
        console.error(
          `SCORM ${edition}: the answers take ${text.length} characters, more than cmi.suspend_data holds.`,
        );
        return;
      }
      set('cmi.suspend_data', text);
    },
    progress(summary) {
      if (edition === '2004')
        set('cmi.progress_measure', decimal(summary.total ? summary.answered / summary.total : 0));
    },
    /** The score, once every graded item is answered: raw 0–100 against min 0 and max 100, and the verdict. */
    verdict(summary) {
      if (!summary.completed) return;
      if (edition === '1.2') {
        set('cmi.core.score.min', 0);
        set('cmi.core.score.max', 100);
        set('cmi.core.score.raw', summary.percent);
        set('cmi.core.lesson_status', summary.passed ? 'passed' : 'failed');
        set('cmi.core.exit', '');
      } else {
        set('cmi.score.min', 0);
        set('cmi.score.max', 100);
        set('cmi.score.raw', summary.percent);
        set('cmi.score.scaled', decimal(Number(summary.scaled.toFixed(4))));
        set('cmi.completion_status', 'completed');
        set('cmi.success_status', summary.passed ? 'passed' : 'failed');
        // Suspend, not normal: a 2004 run-time gives a later launch the attempt's data (its suspend
        // data and interactions) only after exit suspend (RTE 4.2.8), and Moodle's review follows
        // it, so a finished attempt left `normal` reviews as an empty test. Moodle counts an attempt
        // finished by its completion status alone, so grading and new attempts are as before.
        set('cmi.exit', 'suspend');
      }
    },
    flush,
    status,
    onStatus(callback) {
      listener = callback;
    },
    close() {
      if (state !== 'open') return;
      if (mode === 'normal') {
        const elapsed = now().getTime() - started;
        if (edition === '1.2') set('cmi.core.session_time', scorm12Duration(elapsed));
        else set('cmi.session_time', isoDuration(elapsed));
        // The page is going away: what waits (even behind a flush in slices) goes now, at once.
        flush({ yielding: false });
      }
      timers.clearTimeout(retryTimer);
      state = 'finished';
      try {
        call('finish', '');
      } catch {
        // The run-time has gone with the page: nothing more can reach it.
      }
    },
  };
}
