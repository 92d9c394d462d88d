// The course shell's session: one session with the course site for the whole visit, whatever the
// framed lesson page does (its language switch loads another page into the frame; the session
// stays). It keeps the self-test's record, takes every answer at once (before the course site has
// even answered), hands each to the edition's connection (lms/scorm.js, lms/cmi5.js) and tells the
// lesson page how far the saving has got. The lesson page reaches it as `parent.positionalCourse`.
import { decodeRecord, emptyRecord, RECORD_VERSION } from './record.js';

/** The version of the shell's interface that lms/course-link.js speaks. */
export const COURSE_PROTOCOL = 1;

// Answers are committed once the learner pauses: some course sites (Moodle among them) commit with
// a synchronous request, which would freeze the page for as long as the site takes on every answer.
export const COMMIT_PAUSE_MS = 1500;

/** A plain copy of a value from another window's realm (the lesson page's): nothing of it stays shared. */
const plain = (value) => (value === undefined ? undefined : JSON.parse(JSON.stringify(value)));

/**
 * A session over `connection` (from scormConnection or cmi5Connection; null when no course site
 * launched the shell). The connection's interface: kind, open() → { mode, mastery, record,
 * canStartOver, recorded? (false: a review for which the course site sent no answers back) },
 * interaction(i), saveRecord(record), progress(summary), verdict(summary), flush(), close(summary),
 * status() → 'saved' | 'retrying' | 'offline' | 'refused', onStatus(listener), and optionally
 * startOver(), exit() and exitRefused() (a way out was named that the window cannot take). `timers` is for tests.
 */
export function createCourseSession(connection, { timers = globalThis } = {}) {
  let record = emptyRecord();
  let mode = 'normal';
  let mastery = null;
  let canStartOver = false;
  let recorded = true;
  let phase = connection ? 'connecting' : 'none'; // then 'open', 'unreachable' or 'closed'
  let client = null;
  let commitTimer = null;
  let lastSummary = null;
  let lastVerdict = null;
  let status = null;
  // Answers given before the course site answered: reported once it has.
  const early = [];

  const notify = (update) => {
    if (!client) return;
    try {
      client.onUpdate(plain(update));
    } catch {
      client = null; // the lesson page that registered has gone (the frame moved on)
    }
  };
  const currentStatus = () => {
    if (phase === 'none' || phase === 'connecting') return phase;
    if (phase === 'unreachable') return 'offline';
    if (mode !== 'normal') return mode; // 'review' or 'browse'
    if (commitTimer) return 'saving';
    return connection.status();
  };
  const refreshStatus = () => {
    const next = currentStatus();
    if (next === status) return;
    status = next;
    notify({ status });
  };
  connection?.onStatus(refreshStatus);

  const tracking = () => phase === 'open' && mode === 'normal';
  const commitNow = () => {
    timers.clearTimeout(commitTimer);
    commitTimer = null;
    if (tracking()) connection.flush();
    refreshStatus();
  };
  const commitOnPause = () => {
    timers.clearTimeout(commitTimer);
    commitTimer = timers.setTimeout(commitNow, COMMIT_PAUSE_MS);
    refreshStatus();
  };
  /** The score after an answer (`answered`) or as the lesson page drew the test: commits only what changed. */
  const reportSummary = (summary, { answered = false } = {}) => {
    lastSummary = summary;
    if (!tracking()) return;
    connection.progress(summary);
    const verdict = summary.completed ? `${summary.passed}:${summary.percent}` : null;
    if (summary.completed) connection.verdict(summary);
    // A new verdict is saved at once; answers after it (the predictions) wait for the learner to pause.
    if (verdict !== null && verdict !== lastVerdict) {
      lastVerdict = verdict;
      commitNow();
      const allowed = Boolean(connection.canStartOver?.());
      if (allowed !== canStartOver) {
        canStartOver = allowed;
        notify({ canStartOver });
      }
    } else if (answered) commitOnPause();
  };
  const reportAnswer = (interaction) => {
    connection.interaction(interaction);
    connection.saveRecord(record);
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
    mode = opening.mode;
    mastery = opening.mastery;
    canStartOver = Boolean(opening.canStartOver);
    recorded = opening.recorded !== false;
    const kept = opening.record?.responses ?? null;
    if (kept) {
      // Answers given while the course site was answering join what it kept; its own answer to an
      // item stands (the item was answered, and locked, in an earlier session).
      const responses = { ...kept };
      for (const { interaction } of early)
        if (!(interaction.id in kept)) responses[interaction.id] = record.responses[interaction.id];
      record = { seed: opening.record.seed, responses };
    }
    const replayed = early.filter(({ interaction }) => !kept || !(interaction.id in kept));
    if (tracking()) for (const { interaction } of replayed) reportAnswer(interaction);
    early.length = 0;
    if (tracking() && replayed.length) commitOnPause();
    refreshStatus();
    // The lesson page shows the merged record and answers with its score (summary()); a page that
    // has gone leaves its last score to report.
    const hadClient = Boolean(client);
    notify({
      record,
      mode,
      mastery,
      canStartOver,
      recorded,
      status,
      canExit: Boolean(connection.canExit?.()),
      exitRefused: Boolean(connection.exitRefused?.()),
    });
    if (!hadClient || !client) {
      if (lastSummary) reportSummary(lastSummary);
    }
  };

  const api = {
    protocol: COURSE_PROTOCOL,
    /** Registers the lesson page (`client.onUpdate(update)` is called with what changes) and returns what it needs now. */
    connect(newClient) {
      client = newClient;
      return plain({
        kind: connection?.kind ?? 'none',
        mode,
        mastery,
        record,
        status: currentStatus(),
        canStartOver,
        recorded,
        canExit: Boolean(phase === 'open' && connection.canExit?.()),
        exitRefused: Boolean(phase === 'open' && connection.exitRefused?.()),
      });
    },
    /** One answer: the record after it and the interaction to report. */
    answered(answer) {
      if (phase === 'closed' || phase === 'none') return;
      const { record: next, interaction } = plain(answer);
      const decoded = decodeRecord({ v: RECORD_VERSION, s: next?.seed, r: next?.responses });
      if (!decoded || !interaction?.id) return;
      record = decoded;
      if (phase === 'connecting' || phase === 'unreachable') early.push({ interaction });
      else if (tracking()) reportAnswer(interaction);
    },
    /** The score as the lesson page has worked it out: after every answer (`answered`) and every time it draws the test. */
    summary(summary, { answered = false } = {}) {
      if (phase !== 'closed' && phase !== 'none') reportSummary(plain(summary), { answered: Boolean(answered) });
    },
    /** A fresh record, where the course site allows one in the same attempt (cmi5, after a verdict that did not pass). */
    startOver() {
      if (!canStartOver || !tracking()) return plain(record);
      record = emptyRecord();
      lastVerdict = null;
      connection.startOver?.();
      connection.saveRecord(record);
      commitNow();
      return plain(record);
    },
    /** Leaves the lesson the way the course site asks (cmi5's returnURL); false when it names no way. */
    exit() {
      if (phase !== 'open' || !connection.canExit?.()) return false;
      timers.clearTimeout(commitTimer);
      commitTimer = null;
      phase = 'closed';
      connection.exit(lastSummary);
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
      timers.clearTimeout(commitTimer);
      commitTimer = null;
      phase = 'closed';
      if (wasOpen) connection.close(lastSummary);
    },
    get status() {
      return currentStatus();
    },
    get record() {
      return record;
    },
  };
}
