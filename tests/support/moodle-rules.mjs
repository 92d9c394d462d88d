// What Moodle 4.5's SCORM player does beyond the SCORM run-time the suites host (scorm-again), as
// seen through a real Moodle 4.5.6: its 2004 run-time's check of a choice's identifiers and of a
// number's digits, its 1.2 run-time's rewrite of the status when the SCO finishes, and how its
// gradebook picks an attempt's grade. Used by the Node suites on a scorm-again object, and by the
// browser suites' player page (tests/browser/course-hosts.mjs), which inlines moodleRuntimeRules
// as source: it uses nothing from outside its own body.

/**
 * Wraps the scorm-again API object `api` of `edition` ('1.2' or '2004') with Moodle's run-time
 * rules:
 * - SCORM 2004 (Moodle's datamodels/scorm_13.js): a `choice` interaction's learner_response and
 *   correct_responses.n.pattern are identifiers separated by `[,]`, each matching
 *   ^[\w\.]{1,250}$ (CMIShortIdentifier); a `numeric` interaction's learner_response is one
 *   number and its pattern one or two separated by `[:]` (the lower first), each matching
 *   ^-?([0-9]{1,5})(\.[0-9]{1,18})?$ (its CMIDecimal: at most five integer digits, no exponent).
 *   Anything else is refused with error 406.
 * - SCORM 1.2 (Moodle's datamodels/scorm_12.js): on LMSFinish a status still `not attempted` becomes
 *   `completed`, before the branch that would make a browsed attempt `browsed` can run.
 */
export function moodleRuntimeRules(api, edition) {
  if (edition === '2004') {
    const setValue = api.SetValue.bind(api);
    const shortIdentifier = /^[\w.]{1,250}$/;
    const decimal = /^-?([0-9]{1,5})(\.[0-9]{1,18})?$/;
    const refused = (type, field, value) => {
      if (type === 'choice') return !value.split('[,]').every((part) => shortIdentifier.test(part));
      if (type !== 'numeric') return false;
      if (field === 'learner_response') return !decimal.test(value);
      const bounds = value.split('[:]');
      return bounds.length > 2 || !bounds.every((b) => decimal.test(b)) || Number(bounds[0]) > Number(bounds.at(-1));
    };
    api.SetValue = (element, value) => {
      const at = /^cmi\.interactions\.(\d+)\.(learner_response|correct_responses\.\d+\.pattern)$/.exec(element);
      if (at && refused(api.GetValue(`cmi.interactions.${at[1]}.type`), at[2], String(value))) {
        api.lastErrorCode = '406';
        return 'false';
      }
      return setValue(element, value);
    };
  } else {
    const finish = api.LMSFinish.bind(api);
    api.LMSFinish = (parameter) => {
      if (api.cmi.core.lesson_status === 'not attempted') api.cmi.core.lesson_status = 'completed';
      return finish(parameter);
    };
  }
  return api;
}

/**
 * What the gradebook holds for a learner's `attempts` (each as the run-time left it: for 1.2
 * { status, raw }, for 2004 { completion, success, raw }), as Moodle 4.5 grades a one-SCO package
 * with grading method "Highest grade": null (no grade) until an attempt has stored a raw score or a
 * completed or passed status, which is when Moodle updates the grade. `attemptsGrading`: 'highest'
 * (Highest attempt) or 'last completed' (Last completed attempt: the last attempt with any
 * `completed` or `passed` value, else the last attempt; a failed 2004 attempt is `completed`).
 */
export function moodleGrade(attempts, attemptsGrading = 'highest') {
  const values = (a) => [a.status, a.completion, a.success].filter(Boolean);
  const graded = attempts.some(
    (a) => (a.raw ?? '') !== '' || values(a).some((v) => ['completed', 'passed'].includes(v)),
  );
  if (!graded) return null;
  const grade = (a) => ((a.raw ?? '') === '' ? 0 : Number(a.raw));
  if (attemptsGrading === 'highest') return Math.max(...attempts.map(grade));
  if (attemptsGrading !== 'last completed')
    throw new Error(`moodleGrade: attemptsGrading "${attemptsGrading}" is not one of highest, last completed`);
  const completed = attempts.filter((a) => values(a).some((v) => ['completed', 'passed'].includes(v)));
  return grade(completed.at(-1) ?? attempts.at(-1));
}
