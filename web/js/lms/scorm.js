// @ts-check
// The course shell's connection to a SCORM 1.2 or SCORM 2004 (4th edition) run-time. Every value is
// kept until the run-time has taken it and a commit has succeeded: a SetValue that answers 'false'
// or throws, a refused Commit, or a run-time that has gone leave it waiting for the next try (with
// a growing pause), and the status says so. What a run-time refuses for good (an element it does
// not implement, a value it finds malformed) is dropped, named in the console, and does not hold
// the rest back.
// The run-time's calls and the values on their way to it are lms/scorm-run-time.js; the answers'
// interactions are lms/scorm-interactions.js; this module holds what differs between the editions.
import { courseMastery, decodeRecord, encodeRecord, SUSPEND_DATA_LIMITS } from './record.js';
import { runTimeCalls, scormWrites } from './scorm-run-time.js';
import { decimal, interactionElements, recordFromInteractions } from './scorm-interactions.js';

export { FLUSH_SLICE_MS } from './scorm-run-time.js';
export { interactionDecimal, recordFromInteractions } from './scorm-interactions.js';

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

/**
 * SCORM 1.2's browse mode (Moodle's Preview): the attempt is marked `browsed`. Without it Moodle
 * turns an attempt still `not attempted` into `completed` when the SCO finishes, which grades a
 * preview 0 and opens the next launch in review.
 */
function markBrowsed(read, set) {
  if (['not attempted', ''].includes(read('cmi.core.lesson_status'))) set('cmi.core.lesson_status', 'browsed');
}

/**
 * What a normal launch sets before anything else: the attempt started (not left `not attempted`,
 * nor a preview's `browsed` in 1.2) and exit `suspend`, set now, not only when leaving: if the last
 * commit never arrives (Moodle's commit on leaving is a synchronous request, which browsers refuse
 * while a page is dismissed), the next launch still resumes.
 * @param {string} edition
 * @param {(element: string) => string} read
 * @returns {[string, string][]}
 */
function attemptStartElements(edition, read) {
  const [status, unstarted, exit] =
    edition === '1.2'
      ? ['cmi.core.lesson_status', ['not attempted', 'browsed', ''], 'cmi.core.exit']
      : ['cmi.completion_status', ['not attempted', 'unknown', ''], 'cmi.exit'];
  /** @type {[string, string][]} */
  const elements = [];
  if (unstarted.includes(read(status))) elements.push([status, 'incomplete']);
  elements.push([exit, 'suspend']);
  return elements;
}

/**
 * The score and verdict of a completed attempt in `edition`: raw 0–100 against min 0 and max 100,
 * passed or failed, and the exit that lets the attempt be reviewed.
 * @param {string} edition
 * @param {{ percent: number, scaled: number, passed: boolean }} summary
 * @returns {[string, string | number][]}
 */
function verdictElements(edition, summary) {
  if (edition === '1.2')
    return [
      ['cmi.core.score.min', 0],
      ['cmi.core.score.max', 100],
      ['cmi.core.score.raw', summary.percent],
      ['cmi.core.lesson_status', summary.passed ? 'passed' : 'failed'],
      ['cmi.core.exit', ''],
    ];
  return [
    ['cmi.score.min', 0],
    ['cmi.score.max', 100],
    ['cmi.score.raw', summary.percent],
    ['cmi.score.scaled', decimal(Number(summary.scaled.toFixed(4)))],
    ['cmi.completion_status', 'completed'],
    ['cmi.success_status', summary.passed ? 'passed' : 'failed'],
    // Suspend, not normal: a 2004 run-time gives a later launch the attempt's data (its suspend
    // data and interactions) only after exit suspend (RTE 4.2.8), and Moodle's review follows
    // it, so a finished attempt left `normal` reviews as an empty test. Moodle counts an attempt
    // finished by its completion status alone, so grading and new attempts are as before.
    ['cmi.exit', 'suspend'],
  ];
}

/**
 * The run-time's cmi.interactions._count as the number the page's interactions start from: 0 for
 * none, or (with a warning) for one that is no count or past MAX_INTERACTIONS.
 * @param {string} count @param {string} edition
 */
function interactionBase(count, edition) {
  const base = /^\d{1,5}$/.test(count) && Number(count) <= MAX_INTERACTIONS ? Number(count) : 0;
  if (count !== '' && String(base) !== count)
    console.warn(
      `SCORM ${edition}: cmi.interactions._count is ${JSON.stringify(count.slice(0, 40))}, not a count; numbering from 0.`,
    );
  return base;
}

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
  const e = EDITIONS[edition];
  const started = now().getTime();
  let state = 'closed'; // 'open', 'finished'
  let mode = 'normal';
  const runTime = runTimeCalls(api, e);
  const { read } = runTime;
  const writes = scormWrites(runTime, {
    edition,
    refusals: e.refusals,
    isOpen: () => state === 'open',
    timers,
    clock,
    nextTask: yieldToPage ?? ((resume) => timers.setTimeout(resume, 0)),
  });
  const { flush, put } = writes;
  /** @param {string} element @param {unknown} value */
  const set = (element, value) => {
    if (state !== 'open' || mode !== 'normal') return;
    put(element, value);
  };
  // Interactions are numbered after the run-time's own (cmi.interactions._count on opening), each
  // answer's item keeping its number when answered again.
  let firstInteraction = 0;
  const interactionIndex = new Map();
  const interactionNumber = (id) => {
    if (!interactionIndex.has(id)) interactionIndex.set(id, firstInteraction + interactionIndex.size);
    return interactionIndex.get(id);
  };

  return {
    kind: edition === '1.2' ? 'scorm12' : 'scorm2004',
    async open() {
      let answer;
      try {
        answer = runTime.call('initialize', '');
      } catch (error) {
        writes.markGone();
        throw new Error(`SCORM ${edition}: the course site's ${e.initialize} failed (${error.message})`);
      }
      if (answer !== 'true' && runTime.lastError() !== e.alreadyInitialized)
        throw new Error(`SCORM ${edition}: the course site refused ${e.initialize} (error ${runTime.lastError()})`);
      state = 'open';
      const askedMode = read(e.mode);
      mode = ['review', 'browse'].includes(askedMode) ? askedMode : 'normal';
      const entry = read(e.entry);
      firstInteraction = interactionBase(read('cmi.interactions._count'), edition);
      const mastery = courseMastery(read(e.mastery[0]), e.mastery[1]);
      // A new attempt starts empty; only a resumed one (or a review) takes the kept answers back.
      let record = mode === 'review' || entry === 'resume' ? decodeRecord(read('cmi.suspend_data'), itemIds) : null;
      const answers = () => Object.keys(record?.responses ?? {}).length;
      if (mode === 'review' && !answers() && edition === '2004')
        record = recordFromInteractions(read, firstInteraction, itemIds) ?? record;
      if (mode === 'browse' && edition === '1.2') {
        markBrowsed(read, put);
        flush();
      }
      if (mode === 'normal') {
        for (const [element, value] of attemptStartElements(edition, read)) set(element, value);
        flush();
      }
      return { mode, mastery, record, canStartOver: false, recorded: mode !== 'review' || answers() > 0 };
    },
    interaction(interaction) {
      const n = interactionNumber(interaction.id);
      for (const [element, value] of interactionElements(interaction, n, edition, e, now())) set(element, value);
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
      for (const [element, value] of verdictElements(edition, summary)) set(element, value);
    },
    flush,
    status: writes.status,
    onStatus: writes.onStatus,
    close() {
      if (state !== 'open') return;
      if (mode === 'normal') {
        const elapsed = now().getTime() - started;
        if (edition === '1.2') set('cmi.core.session_time', scorm12Duration(elapsed));
        else set('cmi.session_time', isoDuration(elapsed));
        // The page is going away: what waits (even behind a flush in slices) goes now, at once.
        flush({ yielding: false });
      }
      writes.stopRetrying();
      state = 'finished';
      try {
        runTime.call('finish', '');
      } catch {
        // The run-time has gone with the page: nothing more can reach it.
      }
    },
  };
}
