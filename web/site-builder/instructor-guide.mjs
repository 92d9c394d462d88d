// The instructor guide (instructor-guide.html): what the lesson teaches, how long it takes (worked
// out from the lesson's text), how the self-test is graded and what each course package reports,
// how to set the lesson up in Moodle (as Moodle 4.5 shows its screens) and Canvas and reset attempts,
// and where the teacher-only answer key is.
// Every count and figure is computed here from the lesson's own files.
import { escapeHtml, htmlTable } from './info-pages.mjs';
import { roundedMinutes } from './time-on-task.mjs';
import { itemForAttempt, OBJECTIVES, slotOf } from '../js/self-test/self-test-items.js';
import { WORKED_SEED } from './answer-key.mjs';

/** The answer key's name beside the zips: build-scripts/package writes it (web/site-builder/answer-key.mjs). */
export const ANSWER_KEY_FILE = 'positional-lesson-answer-key.html';

const minutes = (m) => `${m.toFixed(1)} min`;
const grouped = (n) => n.toLocaleString('en-US');

/** The items of `items` that fill a slot of their own (each slot's first variant). */
const slotItems = (items) => items.filter((item) => slotOf(item) === item.id);
/** The variants of `slotItem`'s slot in `items`. */
const variantsOf = (slotItem, items) => items.filter((item) => slotOf(item) === slotItem.id);

/**
 * The objectives of `level` as a list, each with the ids of the questions that measure it: one per
 * slot, the slot's variants joined by "or".
 */
function objectiveList(level, items) {
  const rows = Object.entries(OBJECTIVES)
    .filter(([, objective]) => objective.level === level)
    .map(([key, objective]) => {
      const measured = slotItems(items)
        .filter((item) => item.objective === key)
        .map((slot) =>
          variantsOf(slot, items)
            .map((item) => `<code>${escapeHtml(item.id)}</code>`)
            .join(' or '),
        );
      return `<li>${escapeHtml(objective.text)}; <span class="item-id">${measured.length ? measured.join(', ') : 'no question'}</span></li>`;
    });
  return `<ul>${rows.join('\n')}</ul>`;
}

/**
 * The self-test's numbers, for one attempt (one variant per slot): { checks, level1, level2,
 * predictions, numeric, choice, passAt }, and `variants`: the graded items of the whole bank.
 */
export function selfTestFacts(items, mastery) {
  const checks = slotItems(items).filter((item) => item.kind !== 'predict');
  return {
    checks: checks.length,
    variants: items.filter((item) => item.kind !== 'predict').length,
    level1: checks.filter((item) => item.level === 1).length,
    level2: checks.filter((item) => item.level === 2).length,
    predictions: items.filter((item) => item.kind === 'predict').length,
    numeric: checks.filter((item) => item.kind === 'numeric').length,
    choice: checks.filter((item) => item.kind === 'choice').length,
    mastery,
    // The fewest right answers that reach the mastery score (the page compares the share right to it).
    passAt: Math.ceil(mastery * checks.length - 1e-9),
  };
}

// The guide's sections, in order; each prints what it takes from instructorGuideBody's context.
const guideOpening =
  () => `<p class="lede">This page is for the person who puts the lesson in a course. It says what the
lesson teaches, how long it takes, how its self-test is graded, what reaches your gradebook, and how
to set it up in Moodle and Canvas.</p>

`;

const guideObjectives = ({ items, facts, checks, questions }) => `<h2 id="objectives">What the lesson teaches</h2>
<p>The lesson has two levels. A reader can stop after Level 1: a package set to the Level 1 test
(<code>?level=1</code> in its manifest) grades Level 1’s ${facts.level1} checks alone, with their own verdict;
<code>?level=2</code> grades Level 2’s ${facts.level2}, and <code>?level=all</code> (as built) all ${facts.checks}. The
other level’s checks are hidden and never count: a reader who switches the lesson to both levels sees
each of them marked as practice, neither graded nor recorded.</p>
<h3>Level 1: the practitioner’s guide</h3>
<p>After Level 1 a learner can (each objective with the self-test’s questions that measure it):</p>
${objectiveList(1, items)}
<h3>Level 2: how it works, from scratch</h3>
<p>After Level 2 a learner can also:</p>
${objectiveList(2, items)}

`;

const guideTime = ({
  time,
  items,
  facts,
  pace,
  partRows,
  question,
  checks,
  questions,
}) => `<h2 id="time">Time on task</h2>
<p>About <strong>${roundedMinutes(time.level1Minutes)} minutes</strong> for Level 1 alone, and about
<strong>${roundedMinutes(time.bothMinutes)} minutes</strong> for both levels with the whole self-test.
These are reading times. A learner who tries every figure’s controls spends longer; the estimate
leaves the figures out.</p>
<p>How the figure is worked out: the build counts the words in each part of the lesson’s text and
reads them at ${pace.wordsPerMinute} words a minute; it reads code and displayed formulas at
${pace.linesPerMinute} lines a minute; and it adds the self-test’s questions and choices at the same
pace, plus ${pace.minutesPerNumericCheck} minute to work out each of the ${facts.numeric} number
questions. Level 1 alone is the opening, Level 1, the summary and the ${time.level1Test.items}
Level 1 checks (${minutes(time.level1Minutes)}); both levels are every part but the two reference lists,
with every question (${minutes(time.bothMinutes)}).</p>
${htmlTable('Reading, part by part', ['Part', 'Words', 'Lines of code and formulas', 'Time'], partRows, {
  numeric: [1, 2, 3],
})}

`;

const guideSelfTest = ({ mastery, facts, percent, share, checks, questions }) => `<h2 id="self-test">The self-test</h2>
<ul>
<li><strong>${facts.checks} graded checks</strong>: ${facts.level1} at Level 1 and ${facts.level2} at Level 2
(${facts.numeric} ask for a number, ${facts.choice} are multiple choice). A number is right when it
is within the tolerance printed beside its field, against the engine’s own value.</li>
<li><strong>${facts.predictions} predictions</strong> inside Level 2’s sections. They ask the learner to
commit before a figure shows the answer. They are recorded, and reported, but never graded.</li>
<li>The bank holds ${facts.variants} checks: each of the ${facts.checks} has variants that measure the
same objective in the same way (a choice or a number). Each attempt draws one variant per check from
its own seed, so a retake is a new test; a learner who comes back to the same attempt meets the same
variants, and the course package grades only those.</li>
<li>Each check takes one answer. The answer then locks and the page explains it.</li>
<li>The choices are shuffled for each attempt: every attempt draws its own order, and the order
stays the same when a learner comes back to the same attempt.</li>
<li><strong>${percent}% passes</strong>: ${facts.passAt} of ${facts.checks} right
(${share(facts.passAt)}%) passes, ${facts.passAt - 1} (${share(facts.passAt - 1)}%) does not. A course site that
sets its own mastery score (SCORM 1.2’s <code>cmi.student_data.mastery_score</code>, SCORM 2004’s
<code>cmi.scaled_passing_score</code>, cmi5’s <code>masteryScore</code>) overrides the ${percent}%.</li>
<li>No score is reported until every check is answered.</li>
</ul>
<p>The questions, in the order the page shows them. The answers are in the <a href="#answer-key">answer key</a>, not here.</p>
${questions}

`;

const guideGradebook = ({ mastery, packages, percent, checks }) => `<h2 id="gradebook">What each package reports</h2>
<p>Each zip holds one learning object. It reports a score only once every graded check is answered.</p>
<dl>
<dt>SCORM 1.2 (<code>${escapeHtml(packages.scorm12)}</code>)</dt>
<dd><code>cmi.core.lesson_status</code> is <code>incomplete</code> from the first launch. Once every check
is answered: <code>cmi.core.score.raw</code> from 0 to 100, with <code>cmi.core.score.min</code> 0 and
<code>cmi.core.score.max</code> 100, and <code>cmi.core.lesson_status</code> <code>passed</code> or
<code>failed</code>. Each answer is an interaction (right, wrong, or neutral for a prediction). The
manifest’s mastery score is ${percent}.</dd>
<dt>SCORM 2004 (<code>${escapeHtml(packages.scorm2004)}</code>)</dt>
<dd><code>cmi.completion_status</code> <code>incomplete</code>, then <code>completed</code>;
<code>cmi.success_status</code> <code>unknown</code>, then <code>passed</code> or <code>failed</code>;
<code>cmi.score.raw</code> from 0 to 100, <code>cmi.score.min</code> 0, <code>cmi.score.max</code> 100
and <code>cmi.score.scaled</code> from 0 to 1; <code>cmi.progress_measure</code> as the checks are
answered. The manifest’s objective is satisfied at a scaled score of ${mastery}.</dd>
<dt>cmi5 (<code>${escapeHtml(packages.cmi5)}</code>)</dt>
<dd>Once every check is answered, a <code>passed</code> or <code>failed</code> statement with
<code>result.score</code> <code>{ scaled, raw (0 to 100), min 0, max 100 }</code>, then
<code>completed</code>. A registration gets at most one <code>completed</code>, and no
<code>failed</code> after a <code>passed</code>. The unit’s <code>moveOn</code> is
<code>CompletedAndPassed</code> and its <code>masteryScore</code> ${mastery}.</dd>
</dl>

`;

const guideMoodle = ({ packages, percent, question }) => `<h2 id="moodle">Setting it up in Moodle</h2>
<p>Use the <strong>SCORM 1.2 zip</strong> (<code>${escapeHtml(packages.scorm12)}</code>) in Moodle.
Moodle documents its SCORM 2004 support as partial (it does not implement sequencing); SCORM 1.2 is
the edition its player conforms to. With the 1.2 zip a failed attempt is recorded as failed, and a
preview leaves no grade (see below).</p>
<p>Turn editing on, choose <em>Add an activity or resource</em> in a section, choose
<em>SCORM package</em>, and upload the zip under <em>Package file</em>. Then set these in the
activity’s settings:</p>
<dl class="settings">
<dt><em>Grading method</em> (Grade): Highest grade</dt>
<dd>An attempt’s grade is then the lesson’s score: the package has one learning object.</dd>
<dt><em>Maximum grade</em> (Grade): 100</dt>
<dd>The lesson reports its score from 0 to 100.</dd>
<dt><em>Attempts grading</em> (Attempts management): Highest attempt</dt>
<dd><em>Last completed attempt</em> takes the last attempt whose status is <code>completed</code>
or <code>passed</code>. With the 1.2 zip a failed attempt is <code>failed</code>, so it is skipped;
with the 2004 zip a failed attempt is <code>completed</code> (and failed), so it counts: a learner who
passes at 100 and retakes at 50 is graded 50 (with the 1.2 zip, 100).</dd>
<dt><em>Mastery score overrides status</em> (Compatibility settings): Yes, the default, is fine</dt>
<dd>The lesson reports a score only once every check is answered, so the status it sets and the one
Moodle works out from the score agree.</dd>
<dt><em>Display package</em> (Appearance): New window, with <em>Display content structure in player</em>: Hidden</dt>
<dd>The lesson then has the whole window. In a new window with the course structure shown, Moodle
keeps its course-structure sidebar beside the lesson, which gets 941 of 1,280 px. In the current
window Moodle’s player is a frame 666 px tall in a 1280 × 900 browser window.</dd>
<dt>Or, to keep the current window: <em>Display content structure in player</em>: Hidden, and <em>Show Navigation</em>: No</dt>
<dd>The sidebar goes, and so do Moodle’s buttons, which have nothing to move between: the lesson
has its own contents.</dd>
</dl>
<p>Then set the pass mark, which is not in the activity’s settings. The activity form’s Grade
section holds only <em>Grading method</em> and <em>Maximum grade</em>; Moodle leaves the grade to pass
at 0, and its gradebook then shows no pass or fail. In the course, open <em>Grades</em>, then
<em>Gradebook setup</em>; in the activity’s row open its menu and choose <em>Edit grade item</em>, press
<em>Show more...</em> in the window that opens, and set <em>Grade to pass</em> to ${percent}. With it the gradebook shows the verdict the lesson reports.</p>
<h3>What learners and teachers will see in Moodle</h3>
<ul>
<li><strong>“Grade for attempt 1: 0%” on the activity’s page</strong> for an attempt that is not
finished, or a preview, while the gradebook holds no grade. The lesson reports no score until every
check is answered; Moodle’s page shows 0% until then. The gradebook is what counts.</li>
<li><strong>Preview.</strong> Moodle offers a learner <em>Preview</em> beside <em>Enter</em> unless
<em>Disable preview mode</em> (Appearance) is Yes. In a preview the lesson records nothing. With the
1.2 zip it marks the attempt <code>browsed</code>, so the preview leaves no grade and the next
<em>Enter</em> opens the attempt as usual. (Without that, Moodle would turn the untouched attempt
into <code>completed</code> with a grade of 0.)</li>
<li><strong>Reviewing a finished attempt.</strong> <em>Enter</em> on a finished attempt opens it
for review, closed, with every answer and the verdict. Moodle hands a SCORM 2004 lesson its saved
answers only when the attempt was left suspended, so the 2004 zip leaves a finished attempt
suspended; Moodle still counts it finished and graded, and <em>Start a new attempt</em> still starts an
empty one. If a review ever shows no answers, the lesson says plainly that the course sent none back.</li>
<li><strong>Each answer is an interaction</strong> in the activity’s <em>Reports</em>: the question’s
id, the learner’s answer, the right answer and whether it was right.</li>
</ul>

`;

const guideCanvas = () => `<h2 id="canvas">Setting it up in Canvas</h2>
<p>Canvas plays SCORM packages through its SCORM tool, which an administrator turns on for the
account; when it is on, the course navigation has a <em>SCORM</em> link. Use the 1.2 zip.</p>
<ol>
<li>In the course navigation, open <em>SCORM</em> and upload the 1.2 zip.</li>
<li>Tick <em>Create assignment</em> as you upload: the package then has an assignment, and its
score a column in the gradebook.</li>
<li>In that assignment’s settings, set the points to 100, so the points are the lesson’s percentage
right, and publish it.</li>
<li>Learners open the lesson from the assignment; its score reaches the gradebook once every
check is answered.</li>
</ol>
<p>Without the SCORM tool, embed the lesson’s page in a Canvas page instead (it then keeps no
score), or use a cmi5 tool with the cmi5 zip.</p>

`;

const guideAttempts = ({ time }) => `<h2 id="attempts">Resetting attempts</h2>
<ul>
<li><strong>Allowing more attempts.</strong> <em>Number of attempts</em> (Attempts management):
<em>Unlimited attempts</em>, or a number. Moodle applies it to SCORM 1.2 packages only.</li>
<li><strong>A new attempt each time.</strong> <em>Force new attempt</em>: <em>When previous attempt completed,
passed or failed</em> starts a new attempt once the learner has a verdict; <em>Always</em> starts one at
every launch, so a learner who leaves half-way starts again. With <em>No</em>, the learner chooses
<em>Start a new attempt</em> on the activity’s entry page, so keep that page shown.</li>
<li><strong>Clearing a learner’s attempts.</strong> In the activity, open <em>Reports</em>, tick the attempts and
choose <em>Delete selected attempts</em>.</li>
<li>A new attempt starts the self-test empty, with a new order of choices. Within one attempt the
answers are kept: a learner who leaves comes back to them.</li>
<li>In the cmi5 package a learner who failed may press <em>Start over</em> under the self-test in
the same registration. In the SCORM packages only the course site starts a new attempt. On the open
site, with no course site, <em>Start over</em> clears the answers kept in the browser.</li>
</ul>

`;

const guideAnswerKey = ({ packages }) => `<h2 id="answer-key">The answer key</h2>
<p>The key lists every question with its right choice or its number and tolerance, and what each
prediction shows. It is in <code>${ANSWER_KEY_FILE}</code>, which <code>build-scripts/package</code>
writes to <code>build/packages/</code>, beside the zips. Ask whoever built the packages for it.</p>
<p>It is not on this site and not in any zip: a course site serves every file of a package to
the learners, so a key inside would be one address away. Keep it where only teachers can read it.
The lesson itself still holds the answers in its script, because it grades in the learner’s
browser: a learner who reads the page’s code can find them. The self-test is for practice, not for
high stakes.</p>
`;

/**
 * The guide's body. `time`: timeOnTask()'s result; `items`: the self-test's items; `mastery`: the
 * share that passes; `packages`: the zips' file names by kind.
 */
export function instructorGuideBody({ time, items, mastery, packages }) {
  const facts = selfTestFacts(items, mastery);
  const percent = Math.round(mastery * 100);
  const share = (right) => Math.round((right / facts.checks) * 100);
  const pace = time.pace;
  const partRows = time.parts.map((p) => [
    escapeHtml(p.title || 'Opening (before Level 1)'),
    grouped(p.words),
    grouped(p.codeLines + p.formulas),
    p.reference ? 'not counted' : minutes(p.minutes),
  ]);
  partRows.push([
    `The self-test’s ${facts.checks + facts.predictions} questions, read and answered`,
    grouped(time.selfTest.words),
    '0',
    minutes(time.selfTest.minutes),
  ]);
  const question = (item) =>
    `${escapeHtml(itemForAttempt(item, WORKED_SEED).prompt)} <span class="item-id">(${item.draw ? `a number drawn for each attempt, here the answer key’s worked draw; formula ${escapeHtml(item.formulaText)}` : item.kind === 'numeric' ? 'a number' : item.kind === 'predict' ? 'a prediction' : 'a choice'}; <code>${escapeHtml(item.id)}</code>)</span>`;
  // One entry a slot: its variants, each a question of its own, any one of which an attempt asks.
  const questionList = (heading, list) =>
    `<h3>${heading}</h3>\n<ol>${list
      .map((slot) => `<li>${variantsOf(slot, items).map(question).join('<br>\n<em>or</em> ')}</li>`)
      .join('\n')}</ol>`;
  const checks = slotItems(items).filter((item) => item.kind !== 'predict');
  const questions = [
    questionList(
      `Level 1 checks (${facts.level1})`,
      checks.filter((item) => item.level === 1),
    ),
    questionList(
      `Level 2 checks (${facts.level2})`,
      checks.filter((item) => item.level === 2),
    ),
    questionList(
      `Predictions, not graded (${facts.predictions})`,
      items.filter((item) => item.kind === 'predict'),
    ),
  ].join('\n');
  const context = {
    time,
    items,
    mastery,
    packages,
    facts,
    percent,
    share,
    pace,
    partRows,
    question,
    questionList,
    checks,
    questions,
  };
  return [
    guideOpening(context),
    guideObjectives(context),
    guideTime(context),
    guideSelfTest(context),
    guideGradebook(context),
    guideMoodle(context),
    guideCanvas(context),
    guideAttempts(context),
    guideAnswerKey(context),
  ].join('');
}
