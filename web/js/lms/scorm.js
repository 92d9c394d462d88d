// Reports the self-test to a SCORM 1.2 or SCORM 2004 (4th edition) run-time: status, score,
// one interaction per answer and the answers as suspend data, committed after every answer.

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

/** The element names and verbs that differ between the two editions. */
const EDITIONS = {
  1.2: {
    initialize: 'LMSInitialize',
    set: 'LMSSetValue',
    get: 'LMSGetValue',
    commit: 'LMSCommit',
    finish: 'LMSFinish',
    interactionResponse: 'student_response',
    wrong: 'wrong',
    suspend: 'cmi.suspend_data',
    interactionCount: 'cmi.interactions._count',
  },
  2004: {
    initialize: 'Initialize',
    set: 'SetValue',
    get: 'GetValue',
    commit: 'Commit',
    finish: 'Terminate',
    interactionResponse: 'learner_response',
    wrong: 'incorrect',
    suspend: 'cmi.suspend_data',
    interactionCount: 'cmi.interactions._count',
  },
};

/**
 * A connection to a SCORM API object. `edition` is '1.2' or '2004'. Methods: start(summary) →
 * the suspended answers or null, answered(item, answer, summary), commit(), finish(summary).
 */
export function scormTracker(api, edition) {
  const e = EDITIONS[edition];
  const started = Date.now();
  let open = false;
  let mastery = null;
  const call = (verb, ...args) => String(api[e[verb]](...args));
  const set = (name, value) => call('set', name, String(value));
  const get = (name) => call('get', name);

  const reportScore = (summary) => {
    const threshold = mastery ?? summary.mastery;
    const passed = summary.completed && summary.scaled >= threshold;
    if (edition === '1.2') {
      set('cmi.core.score.min', 0);
      set('cmi.core.score.max', 100);
      set('cmi.core.score.raw', Math.round(summary.scaled * 100));
      set('cmi.core.lesson_status', summary.completed ? (passed ? 'passed' : 'failed') : 'incomplete');
    } else {
      set('cmi.score.min', 0);
      set('cmi.score.max', summary.total);
      set('cmi.score.raw', summary.correct);
      set('cmi.score.scaled', Number(summary.scaled.toFixed(4)));
      set('cmi.progress_measure', Number((summary.answered / summary.total).toFixed(4)));
      set('cmi.completion_status', summary.completed ? 'completed' : 'incomplete');
      set('cmi.success_status', summary.completed ? (passed ? 'passed' : 'failed') : 'unknown');
    }
  };

  return {
    edition,
    /** Opens the session; returns the answers suspended last time (or null). */
    start(summary) {
      if (call('initialize', '') !== 'true') throw new Error(`SCORM ${edition}: ${e.initialize} refused`);
      open = true;
      // The LMS's mastery score overrides the package's when it sets one.
      const lmsMastery = edition === '1.2' ? get('cmi.student_data.mastery_score') : get('cmi.scaled_passing_score');
      if (lmsMastery !== '' && Number.isFinite(Number(lmsMastery)))
        mastery = edition === '1.2' ? Number(lmsMastery) / 100 : Number(lmsMastery);
      let saved = null;
      try {
        saved = JSON.parse(get(e.suspend) || 'null');
      } catch {
        saved = null; // suspend data from another version of the lesson: start afresh
      }
      if (edition === '1.2') {
        if (get('cmi.core.lesson_status') === 'not attempted') set('cmi.core.lesson_status', 'incomplete');
      } else if (['not attempted', 'unknown'].includes(get('cmi.completion_status'))) {
        set('cmi.completion_status', 'incomplete');
      }
      if (summary.answered) reportScore(summary);
      call('commit', '');
      return saved;
    },
    answered(item, answer, summary, answers) {
      if (!open) return;
      const n = Number(get(e.interactionCount)) || 0;
      set(`cmi.interactions.${n}.id`, item.id);
      set(`cmi.interactions.${n}.type`, item.kind === 'numeric' ? 'numeric' : 'choice');
      set(`cmi.interactions.${n}.${e.interactionResponse}`, answer.response);
      set(`cmi.interactions.${n}.result`, answer.correct ? 'correct' : e.wrong);
      set(e.suspend, JSON.stringify(answers));
      reportScore(summary);
      call('commit', '');
    },
    commit() {
      if (open) call('commit', '');
    },
    finish(summary) {
      if (!open) return;
      open = false;
      const elapsed = Date.now() - started;
      if (edition === '1.2') {
        set('cmi.core.session_time', scorm12Duration(elapsed));
        set('cmi.core.exit', summary.completed ? '' : 'suspend');
      } else {
        set('cmi.session_time', isoDuration(elapsed));
        set('cmi.exit', summary.completed ? 'normal' : 'suspend');
      }
      call('commit', '');
      call('finish', '');
    },
  };
}
