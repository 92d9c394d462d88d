// @ts-check
// The course shell's session: one session with the course site for the whole visit, whatever the
// framed lesson page does (its language switch loads another page into the frame; the session
// stays). It keeps the self-test's record, takes every answer at once (before the course site has
// even answered), grades what it keeps (lms/course-grading.js), hands each answer and the score to
// the edition's connection (lms/scorm.js, lms/cmi5.js) and tells the lesson page how far the saving
// has got. The lesson page reaches it as `parent.positionalCourse`; it sends answers, never a score.
import { emptyRecord } from './record.js';
import { courseGrader } from './course-grading.js';

/** The version of the shell's interface that lms/course-link.js speaks. */
export const COURSE_PROTOCOL = 1;

// Answers are committed once the learner pauses: some course sites (Moodle among them) commit with
// a synchronous request, which would freeze the page for as long as the site takes on every answer.
export const COMMIT_PAUSE_MS = 1500;

/**
 * What a course site's connection (scormConnection, cmi5Connection) offers the session.
 * @typedef {object} CourseConnection
 * @property {string} kind the edition: 'scorm12', 'scorm2004' or 'cmi5'
 * @property {() => Promise<CourseOpening>} open
 * @property {(interaction: import('./course-grading.js').CourseInteraction) => void} interaction reports one answer
 * @property {(record: import('./record.js').CourseRecord) => void} saveRecord
 * @property {(summary: import('./record.js').Summary) => void} progress
 * @property {(summary: import('./record.js').Summary) => void} verdict
 * @property {() => void} flush
 * @property {(summary?: import('./record.js').Summary) => void} close
 * @property {() => CourseStatus} status
 * @property {(listener: (status: CourseStatus) => void) => void} onStatus
 * @property {() => boolean} [canStartOver]
 * @property {() => Promise<unknown> | unknown} [startOver]
 * @property {() => boolean} [canExit]
 * @property {(summary?: import('./record.js').Summary) => unknown} [exit]
 * @property {() => boolean} [exitRefused] a way out was named that the window cannot take
 * @property {() => void} [complete] (cmi5) the completed statement alone, once per registration
 */

/**
 * What the course site answered on opening.
 * @typedef {object} CourseOpening
 * @property {string} mode 'normal', 'review' or 'browse'
 * @property {number | null} mastery
 * @property {import('./record.js').CourseRecord | null} record
 * @property {boolean} canStartOver
 * @property {boolean} [recorded] false: a review for which the course site sent no answers back
 */

/** @typedef {'saved' | 'saving' | 'retrying' | 'offline' | 'refused'} CourseStatus */

/** A plain copy of a value from another window's realm (the lesson page's): nothing of it stays shared. */
const plain = (value) => (value === undefined ? undefined : JSON.parse(JSON.stringify(value)));

/**
 * The record a session opens with when the course site kept one (`kept`): its answers that answer
 * its attempt, joined by the answers given on this page (`mine`) while the site was answering
 * (`early`, their item ids). The site's own answer to an item stands (the item was answered, and
 * locked, in an earlier session). A number answered for the numbers of another seed answers nothing
 * in the kept attempt, and an answer to a variant it did not draw neither: both are dropped, and the
 * page asks them again.
 * @param {import('./record.js').CourseRecord} kept
 * @param {import('./record.js').CourseRecord} mine
 * @param {string[]} early
 * @param {ReturnType<typeof courseGrader>} grader
 * @returns {import('./record.js').CourseRecord}
 */
function openedRecord(kept, mine, early, grader) {
  const { seed } = kept;
  const responses = {};
  for (const [id, response] of Object.entries(kept.responses))
    if (grader.accepts(id, response, seed)) responses[id] = response;
  for (const id of early)
    if (!(id in responses) && (seed === mine.seed || !grader.drawn(id)) && grader.accepts(id, mine.responses[id], seed))
      responses[id] = mine.responses[id];
  return { seed, responses };
}

/**
 * The lesson page's side of the session: the page that registered last (`connect`) is told what
 * changes (`notify`); a page that has gone (the frame moved on) is told nothing more.
 */
function lessonPageLink() {
  let client = null;
  return {
    connect(newClient) {
      client = newClient;
    },
    notify(update) {
      if (!client) return;
      try {
        client.onUpdate(plain(update));
      } catch {
        client = null;
      }
    },
  };
}

/**
 * When answers are committed: `now()` at once, `onPause()` once the learner pauses for
 * COMMIT_PAUSE_MS (each call starts the pause again), `cancel()` not at all. `commit` commits,
 * `changed` is called whenever whether a commit waits changes.
 * @param {{ setTimeout: Function, clearTimeout: Function }} timers
 * @param {() => void} commit
 * @param {() => void} changed
 */
function commitPacer(timers, commit, changed) {
  let timer = null;
  const cancel = () => {
    timers.clearTimeout(timer);
    timer = null;
  };
  const now = () => {
    cancel();
    commit();
    changed();
  };
  return {
    now,
    onPause() {
      timers.clearTimeout(timer);
      timer = timers.setTimeout(now, COMMIT_PAUSE_MS);
      changed();
    },
    cancel,
    /** Whether a commit waits for the learner's pause. */
    waiting: () => Boolean(timer),
  };
}

/**
 * What the lesson page shows of the saving: 'none' (no course site), 'connecting', 'offline'
 * (unreachable), the mode when it is not 'normal' ('review', 'browse'), 'saving' while a commit
 * waits, else the connection's own status.
 * @param {string} phase
 * @param {string} mode
 * @param {boolean} commitWaiting
 * @param {CourseConnection | null} connection
 */
function sessionStatus(phase, mode, commitWaiting, connection) {
  if (phase === 'none' || phase === 'connecting') return phase;
  if (phase === 'unreachable') return 'offline';
  if (mode !== 'normal') return mode;
  if (commitWaiting) return 'saving';
  return connection.status();
}

/**
 * The answers and the score on their way to the course site: each answer as the grader makes it an
 * interaction (with the words the page gave beside it) and the record, then the score, whose
 * verdict is told as often as the record is graded and is new only when it changed.
 * @param {CourseConnection} connection
 * @param {ReturnType<typeof courseGrader>} grader
 */
function courseReports(connection, grader) {
  // The words the page gave with each answer (the question and choices in its language), for a report sent later.
  const wordsFor = new Map();
  let lastVerdict = null;
  return {
    /** Keeps the words the page gave with the answer to `id`. */
    words(id, words) {
      wordsFor.set(id, words);
    },
    /** Reports the answer to `id` that `record` holds, and the record. @param {import('./record.js').CourseRecord} record */
    answer(record, id) {
      connection.interaction(grader.interaction(id, record.responses[id], record.seed, wordsFor.get(id)));
      connection.saveRecord(record);
    },
    /**
     * Reports the kept record's score: its progress, and its verdict once every graded item is
     * answered. True when the verdict is one not reported before (to be saved at once).
     * @param {import('./record.js').Summary} summary
     */
    score(summary) {
      connection.progress(summary);
      const verdict = summary.completed ? `${summary.passed}:${summary.percent}` : null;
      if (summary.completed) connection.verdict(summary);
      if (verdict === null || verdict === lastVerdict) return false;
      lastVerdict = verdict;
      return true;
    },
    /** The record starts over: its next verdict is new, whatever it is. */
    startOver() {
      lastVerdict = null;
    },
  };
}

/**
 * What the course site's answer on opening makes of the session: its mode, mastery score, whether
 * it may start over and has answers to show, the record it keeps (openedRecord of the site's, when
 * it kept one, else this page's), and the answers given early that the site has not yet (to report).
 * @param {CourseOpening} opening
 * @param {import('./record.js').CourseRecord} record this page's
 * @param {string[]} early
 * @param {ReturnType<typeof courseGrader>} grader
 */
function openedSession(opening, record, early, grader) {
  const kept = opening.record?.responses ?? null;
  const opened = kept ? openedRecord(opening.record, record, early, grader) : record;
  return {
    mode: opening.mode,
    mastery: opening.mastery,
    canStartOver: Boolean(opening.canStartOver),
    recorded: opening.recorded !== false,
    record: opened,
    replayed: early.filter((id) => id in opened.responses && (!kept || !(id in kept))),
  };
}

/**
 * A session over `connection` (from scormConnection or cmi5Connection; null when no course site
 * launched the shell). The connection's interface: kind, open() → { mode, mastery, record,
 * canStartOver, recorded? (false: a review for which the course site sent no answers back) },
 * interaction(i), saveRecord(record), progress(summary), verdict(summary), flush(), close(summary),
 * status() → 'saved' | 'retrying' | 'offline' | 'refused', onStatus(listener), and optionally
 * startOver(), exit() and exitRefused() (a way out was named that the window cannot take). `level`
 * is the test the course chose ('1', '2' or 'all'); `grader` grades the record (courseGrader of
 * that level); `timers` is for tests.
 * @param {CourseConnection | null} connection
 */
export function createCourseSession(
  connection,
  { timers = globalThis, level = 'all', grader = courseGrader(undefined, level) } = {},
) {
  let record = emptyRecord();
  let mode = 'normal';
  let mastery = null;
  let canStartOver = false;
  let recorded = true;
  let phase = connection ? 'connecting' : 'none'; // then 'open', 'unreachable' or 'closed'
  let status = null;
  // The items answered before the course site answered: reported once it has.
  const early = [];
  const reports = courseReports(connection, grader);
  /** The score and verdict of the record this session keeps, as the grader works them out. */
  const currentSummary = () => grader.summary(record.responses, mastery, record.seed);

  const page = lessonPageLink();
  const notify = page.notify;
  const currentStatus = () => sessionStatus(phase, mode, commits.waiting(), connection);
  const refreshStatus = () => {
    const next = currentStatus();
    if (next === status) return;
    status = next;
    notify({ status });
  };
  connection?.onStatus(refreshStatus);

  const tracking = () => phase === 'open' && mode === 'normal';
  const commits = commitPacer(timers, () => tracking() && connection.flush(), refreshStatus);
  const commitNow = commits.now;
  /** What the lesson page needs of the session (with its status): its record, mode, and what it may offer. */
  const view = () => ({
    record,
    mode,
    mastery,
    canStartOver,
    recorded,
    status: currentStatus(),
    canExit: Boolean(phase === 'open' && connection.canExit?.()),
    exitRefused: Boolean(phase === 'open' && connection.exitRefused?.()),
  });
  /** The score of the kept record, after an answer (`answered`) or once the course site has answered: commits only what changed. */
  const reportSummary = ({ answered = false } = {}) => {
    if (!tracking()) return;
    // A new verdict is saved at once; answers after it (the predictions) wait for the learner to pause.
    if (reports.score(currentSummary())) {
      commitNow();
      const allowed = Boolean(connection.canStartOver?.());
      if (allowed !== canStartOver) {
        canStartOver = allowed;
        notify({ canStartOver });
      }
    } else if (answered) commits.onPause();
  };

  const open = async () => {
    let opening;
    try {
      opening = await connection.open();
    } catch (error) {
      console.warn('The course site could not be reached; the answers are kept on this page.', error);
      phase = 'unreachable';
      refreshStatus();
      return;
    }
    if (phase === 'closed') return;
    phase = 'open';
    const opened = openedSession(opening, record, early, grader);
    ({ mode, mastery, canStartOver, recorded, record } = opened);
    if (tracking()) for (const id of opened.replayed) reports.answer(record, id);
    early.length = 0;
    refreshStatus();
    notify(view());
    // The score as the shell grades the record it opened with (progress, or a resumed verdict): what
    // that writes, and any answer replayed above, is saved now, as the opening is.
    reportSummary();
    if (tracking()) commitNow();
  };

  const api = {
    protocol: COURSE_PROTOCOL,
    /** Registers the lesson page (`client.onUpdate(update)` is called with what changes) and returns what it needs now. */
    connect(newClient) {
      page.connect(newClient);
      return plain({ kind: connection?.kind ?? 'none', level: grader.level, ...view() });
    },
    /**
     * One answer: { id, response } and the words a teacher reads beside it ({ description, language,
     * choices: { id: text } }). The first answer to an item stands; one that could not answer the
     * item is not kept. Whether it is right, and the score, the session works out itself.
     */
    answered(answer) {
      if (phase === 'closed' || phase === 'none' || mode === 'review') return;
      const { id, response, description, language, choices } = plain(answer) ?? {};
      if (!grader.accepts(id, response, record.seed) || id in record.responses) return;
      record = { ...record, responses: { ...record.responses, [id]: response } };
      reports.words(id, { description, language, choices });
      if (phase === 'connecting' || phase === 'unreachable') early.push(id);
      else if (tracking()) {
        reports.answer(record, id);
        reportSummary({ answered: true });
      }
    },
    /** A fresh record, where the course site allows one in the same attempt (cmi5, after a verdict that did not pass). */
    startOver() {
      if (!canStartOver || !tracking()) return plain(record);
      record = emptyRecord();
      reports.startOver();
      connection.startOver?.();
      connection.saveRecord(record);
      commitNow();
      reportSummary();
      return plain(record);
    },
    /** Leaves the lesson the way the course site asks (cmi5's returnURL); false when it names no way. */
    exit() {
      if (phase !== 'open' || !connection.canExit?.()) return false;
      commits.cancel();
      phase = 'closed';
      connection.exit(currentSummary());
      return true;
    },
  };

  if (connection) open();
  return {
    api,
    /** Saves now: the page is being hidden. */
    flush: commitNow,
    /** Ends the session: the page is going away. */
    close() {
      if (phase === 'closed' || phase === 'none') return;
      const wasOpen = phase === 'open';
      commits.cancel();
      phase = 'closed';
      if (wasOpen) connection.close(currentSummary());
    },
    get status() {
      return currentStatus();
    },
    get record() {
      return record;
    },
  };
}
