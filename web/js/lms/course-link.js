// @ts-check
// The lesson page's side of a course package: finds the course shell that framed it (the package's
// launch page, which holds the one session with the course site: lms/course-session.js), gives the
// self-test the shell's memory instead of this browser's, and shows the learner how far the saving
// has got, in the site bar, as a status that assistive technology reads out when it changes (and,
// on phones, where the site bar scrolls away, in short after the answer given last).
import { t } from '../locale/i18n.js';
import { element } from '../page/element.js';
import { decodeRecord, emptyRecord, RECORD_VERSION } from './record.js';

const COURSE_PROTOCOL = 1;

/** The course shell framing this page, or null (the page on its own, or framed by anything else). */
export function findCourseShell(win = window) {
  try {
    if (win.parent === win) return null;
    const shell = /** @type {any} */ (win.parent).positionalCourse;
    return shell && shell.protocol === COURSE_PROTOCOL ? shell : null;
  } catch {
    return null; // a parent on another origin: not a course shell of this package
  }
}

/**
 * The words for each of the shell's states: [short label, the full sentence], or null for a state
 * without any. `recorded` false: a review for which the course sent no answers back.
 */
function statusText(status, recorded = true) {
  if (status === 'review' && !recorded)
    return [t('Review'), t('Review: your course sent back no answers for this attempt; it is closed.')];
  const words = {
    connecting: [t('Connecting…'), t('Connecting to your course. Your answers are kept until it answers.')],
    saving: [t('Saving…'), t('Saving your answers to your course.')],
    saved: [t('Saved'), t('Saved to your course.')],
    retrying: [t('Not saved yet'), t('Not saved yet: your course did not accept the last answers; retrying.')],
    refused: [t('Not saved'), t('Not saved: your course refused some of your answers; the rest are saved.')],
    offline: [t('Course unreachable'), t('Your course can’t be reached: your answers are kept on this page.')],
    review: [t('Review'), t('Review: the answers your course recorded; this attempt is closed.')],
    browse: [t('Browsing'), t('Browsing: your course does not record these answers.')],
  };
  return Object.hasOwn(words, status) ? words[status] : null;
}

/**
 * The status in short, placed after the item answered last: on phones the site bar scrolls away
 * with the page (base.css), so the learner would not see it while answering. The site bar's status
 * is the one read out; this copy is for the eye only, and course.css shows it on phones only.
 */
function statusBeside(doc) {
  const box = element('p', 'course-status-beside');
  box.setAttribute('aria-hidden', 'true');
  box.hidden = true;
  let placed = false;
  let shown = null;
  const show = (status, words) => {
    shown = [status, words];
    box.hidden = !placed || !words;
    box.dataset.status = status;
    if (words) box.textContent = words[0];
  };
  return {
    show,
    /** Moves the status after the item `itemId` (answered just now: the variant its slot shows). */
    place(itemId) {
      const slot = [...doc.querySelectorAll('.graded-item')].find(
        (el) => el.dataset.variant === itemId || el.dataset.item === itemId,
      );
      if (!slot) return;
      slot.after(box);
      placed = true;
      if (shown) show(...shown);
    },
  };
}

/** The status in the site bar: a short label, its full sentence for assistive technology and as a tooltip. */
function statusView(bar, beside) {
  const box = element('p', 'course-status');
  box.setAttribute('role', 'status');
  const label = element('span', 'course-status-label');
  label.setAttribute('aria-hidden', 'true');
  const sentence = element('span', 'visually-hidden');
  box.append(label, sentence);
  bar?.prepend(box);
  return (status, recorded) => {
    const words = statusText(status, recorded);
    beside.show(status, words);
    box.hidden = !words;
    box.dataset.status = status;
    if (!words) return;
    label.textContent = words[0];
    sentence.textContent = words[1];
    box.title = words[1];
  };
}

/**
 * The self-test's memory kept by the course `shell`: the record, the mode (normal, review,
 * browse) and the course's mastery score, updated as the course site answers. `exitControl` is
 * called with a function that leaves the lesson when the course names a way out (cmi5's returnURL).
 * @param {any} shell the shell's interface (findCourseShell)
 * @param {{ itemIds?: string[] | null, bar?: Element | null }} [options]
 */
export function courseMemory(shell, { itemIds, bar = document.querySelector('.site-controls') } = {}) {
  const listeners = [];
  const beside = statusBeside(bar?.ownerDocument ?? document);
  const showStatus = statusView(bar, beside);
  let state;
  let lastStatus;
  let exitOffered = false;
  const decode = (record) => decodeRecord({ v: RECORD_VERSION, s: record?.seed, r: record?.responses }, itemIds);
  const apply = (update) => {
    const copy = JSON.parse(JSON.stringify(update));
    const changed = {};
    if (copy.record) changed.record = decode(copy.record) ?? state.record;
    for (const key of ['mode', 'mastery', 'canStartOver', 'recorded']) if (key in copy) state[key] = copy[key];
    if ('status' in copy || 'recorded' in copy) showStatus(copy.status ?? lastStatus, state.recorded !== false);
    if ('status' in copy) lastStatus = copy.status;
    if (copy.canExit) offerExit();
    else if (copy.exitRefused) noteNoExit();
    if (changed.record) state.record = changed.record;
    document.documentElement.dataset.course = `${state.kind}:${copy.status ?? document.documentElement.dataset.course?.split(':')[1] ?? ''}`;
    if (changed.record || 'mode' in copy || 'mastery' in copy || 'canStartOver' in copy || 'recorded' in copy)
      for (const listener of listeners) listener(changed);
  };
  const first = JSON.parse(JSON.stringify(shell.connect({ onUpdate: (update) => apply(update) })));
  if (first.kind === 'none') return null; // the shell opened with no course site: this browser keeps the record
  state = { ...first, record: decode(first.record) ?? emptyRecord() };
  lastStatus = first.status;
  showStatus(first.status, first.recorded !== false);
  document.documentElement.dataset.course = `${first.kind}:${first.status}`;
  const offerExit = () => {
    if (!exitOffered) addExitControl(bar, () => shell.exit());
    exitOffered = true;
  };
  // A course that names a page to return to that the window cannot go to (cmi5's returnURL as
  // javascript: or data:): the learner is told how to leave instead.
  const noteNoExit = () => {
    if (exitOffered) return;
    addExitNote(bar);
    exitOffered = true;
  };
  if (first.canExit) offerExit();
  else if (first.exitRefused) noteNoExit();
  return {
    kind: 'course',
    /** The test the course chose: '1', '2' or 'all'. */
    level: first.level ?? 'all',
    get mode() {
      return state.mode;
    },
    get mastery() {
      return state.mastery;
    },
    /** False in a review for which the course sent no answers back. */
    get recorded() {
      return state.recorded !== false;
    },
    canStartOver: () => Boolean(state.canStartOver),
    record: () => state.record,
    /** The answer alone goes to the shell: it grades what it keeps, and takes no score from this page. */
    answered({ record, answer }) {
      state.record = record;
      beside.place(answer?.id);
      shell.answered(JSON.parse(JSON.stringify(answer)));
    },
    startOver() {
      state.record = decode(shell.startOver());
      return state.record;
    },
    subscribe(listener) {
      listeners.push(listener);
    },
  };
}

function addExitControl(bar, exit) {
  const button = element('button', 'course-exit', t('Exit the lesson'));
  button.type = 'button';
  button.addEventListener('click', () => {
    button.disabled = true;
    exit();
  });
  bar?.append(button);
}

function addExitNote(bar) {
  const note = element(
    'p',
    'course-exit-note',
    t(
      'Your course’s page to return to cannot be opened from here: when you are done, close this tab or window to go back to it.',
    ),
  );
  bar?.append(note);
}
