// The self-test: renders each item placeholder (.graded-item[data-item], named by its slot) as the
// variant of the slot the attempt drew, a question the learner
// answers before the reveal, grades the checks (numbers against the engine's live value, choices
// by their right answer; predictions are recorded but not graded), shows the choices in an order
// of their own per attempt, and keeps the record in one memory: the course site that launched the
// page (through its course shell: lms/course-link.js), or this browser's storage when there is none.
import {
  SELF_TEST_ITEMS,
  MASTERY_SCORE,
  inLevel,
  isGraded,
  isOpenPrediction,
  attemptItems,
  isDrawn,
  slotOf,
  testLevel,
} from './self-test-items.js';
import { liveText } from '../prose/live-values.js';
import { pageLanguage, t } from '../locale/i18n.js';
import { sentences } from '../locale/format.js';
import { element } from '../page/element.js';
import { choiceOrder, decodeRecord, emptyRecord, encodeRecord, summarize } from '../lms/record.js';
import { gradeAgainst, isResponseTo, parseNumber, withinTolerance } from './grading.js';

const STORAGE_KEY = 'positional-lesson:self-test:v2';
// Records kept before the choices had ids and the predictions stopped counting: not read, and removed.
const OLD_STORAGE_KEYS = ['positional-lesson:self-test:v1'];
// A stored record larger than this is not one the page wrote (14 short answers are well under 1 KB).
const MAX_STORED_LENGTH = 8192;
const EVENT = 'positional-lesson:self-test';

export { parseNumber, withinTolerance, isResponseTo };

/**
 * Whether `response` answers `item` rightly, by the engine's value for a number: true or false for
 * a check, null for a prediction (not graded), for a response that is no answer to the item, or for
 * a number when there is no engine to check it against.
 */
export function gradeResponse(item, response, engine) {
  return gradeAgainst(item, response, item.kind === 'numeric' && engine ? item.answer(engine) : null);
}

/** This browser's storage as the self-test's memory (the page on its own, with no course site). */
export function browserMemory(itemIds, store = null) {
  // Read only inside the try blocks: where storage is blocked (a sandboxed frame, privacy settings)
  // even reaching for localStorage throws.
  const storage = () => store ?? globalThis.localStorage;
  const read = () => {
    try {
      for (const key of OLD_STORAGE_KEYS) storage().removeItem(key);
      const text = storage().getItem(STORAGE_KEY);
      return text && text.length <= MAX_STORED_LENGTH ? decodeRecord(text, itemIds) : null;
    } catch {
      return null; // storage blocked or unreadable: the visit keeps its own record
    }
  };
  const write = (record) => {
    try {
      storage().setItem(STORAGE_KEY, encodeRecord(record));
    } catch {
      // Storage blocked (privacy settings, sandboxed frames): the record lives for the visit only.
    }
  };
  return {
    kind: 'browser',
    mode: 'normal',
    mastery: null,
    canStartOver: () => true,
    record() {
      const record = read() ?? emptyRecord();
      write(record); // the seed is kept from the first visit, so the order stays on reload
      return record;
    },
    answered({ record }) {
      write(record);
    },
    startOver() {
      const record = emptyRecord();
      write(record);
      return record;
    },
    subscribe() {},
  };
}

/**
 * One answer as the page hands it to its memory: the item and the response, and the words a course
 * site shows a teacher beside it (the question and the choices in the page's language). Whether it
 * is right is not said: whoever keeps the record grades it (the course shell, lms/course-grading.js).
 */
function answerOf(item, response) {
  const answer = { id: item.id, response, description: item.prompt, language: pageLanguage() };
  if (item.choices) answer.choices = Object.fromEntries(item.choices.map((c) => [c.id, c.text]));
  return answer;
}

/**
 * Sets up every item on the page. `memory` keeps the record (browserMemory, or the course
 * connection from lms/course-link.js). Returns { items, summary(), record(), startOver() }. Every
 * answer dispatches `positional-lesson:self-test` on window with { item, response, grade, summary }.
 */
export function setupSelfTest({ engine, results, root = document, memory = null } = {}) {
  // Every variant of every slot on the page: an attempt asks one per slot, drawn from its seed.
  const items = SELF_TEST_ITEMS.filter((item) => root.querySelector(`.graded-item[data-item="${slotOf(item)}"]`));
  memory ??= browserMemory(items.map((i) => i.id));
  // The test of the level the course chose, or on its own the level the reader views (?level= and
  // the level switch): the other level's items are hidden and never count.
  const level = () => memory.level ?? testLevel(document.documentElement.dataset.levelView);
  // The items as this attempt asks them: the variant each slot drew, and its numbers, from the record's seed.
  const asked = () => attemptItems(record.seed, items);
  const graded = () => asked().filter((item) => isGraded(item) && inLevel(item, level()));
  // A kept record is read with suspicion: only answers the attempt's own variants could have been given survive.
  const sound = (kept) => ({
    seed: kept.seed,
    responses: Object.fromEntries(
      items
        .filter((item) => isDrawn(item, kept.seed, items) && isResponseTo(item, kept.responses[item.id]))
        .map((item) => [item.id, kept.responses[item.id]]),
    ),
  });
  let record = sound(memory.record());
  const scoreLine = root.querySelector('[data-self-test-score]');
  const mastery = () => memory.mastery ?? MASTERY_SCORE;
  const grades = () => {
    const out = {};
    for (const item of asked()) {
      const response = record.responses[item.id];
      if (response !== undefined) out[item.id] = gradeResponse(item, response, engine);
    }
    return out;
  };
  const summary = () => summarize(graded(), grades(), mastery());
  const readOnly = () => memory.mode === 'review';

  const startOverBox = element('div', 'self-test-start-over');
  const showScore = () => {
    if (!scoreLine) return;
    const s = summary();
    const counts = {
      correct: s.correct,
      answered: s.answered,
      total: s.total,
      score: s.percent,
      mastery: Math.round(s.mastery * 100),
    };
    scoreLine.textContent =
      s.answered === 0
        ? t('{total} questions to answer; {mastery}% right passes.', counts)
        : !s.completed
          ? t('{correct} right of {answered} answered ({total} in all).', counts)
          : s.passed
            ? t('{correct} right of {answered} answered ({total} in all): {score}%, passed.', counts)
            : t(
                '{correct} right of {answered} answered ({total} in all): {score}%, below the {mastery}% pass mark.',
                counts,
              );
    scoreLine.textContent = sentences(scoreLine.textContent, attemptNote(memory));
    scoreLine.dataset.answered = String(s.answered);
    scoreLine.dataset.correct = String(s.correct);
    scoreLine.dataset.mastery = String(s.mastery);
    startOverBox.hidden = readOnly() || !memory.canStartOver() || Object.keys(record.responses).length === 0;
  };

  const views = new Map();
  const render = () => {
    for (const n of [1, 2]) root.querySelector(`#self-test-level-${n}`)?.setAttribute('data-level', String(n));
    for (const item of asked()) {
      const slot = root.querySelector(`.graded-item[data-item="${slotOf(item)}"]`);
      slot.dataset.level = String(item.level);
      // The variant shown: for whoever reads the page's state (tests, tools).
      slot.dataset.variant = item.id;
      const order = item.kind === 'numeric' ? null : choiceOrder(item.id, item.choices.length, record.seed);
      // Inside a course that grades one level, the other level's items (shown when the reader
      // switches to both levels) are practice: answered here, never sent, and marked so.
      const practice = Boolean(memory.level) && !inLevel(item, memory.level);
      const answer = (response) => {
        if (readOnly() || record.responses[item.id] !== undefined) return;
        record = { ...record, responses: { ...record.responses, [item.id]: response } };
        const grade = gradeResponse(item, response, engine);
        views.get(item.id).lock(response, grade);
        const now = summary();
        if (!practice) memory.answered({ record, answer: answerOf(item, response) });
        showScore();
        dispatchEvent(new CustomEvent(EVENT, { detail: { item, response, grade, summary: now } }));
      };
      const view =
        item.kind === 'numeric'
          ? numericView(item, slot, engine, answer)
          : choiceView(item, slot, results, order, answer);
      views.set(item.id, view);
      if (practice) {
        const note = element(
          'p',
          'graded-practice',
          memory.level === '1'
            ? t('Practice only: your course grades the Level 1 test, so this answer is neither graded nor recorded.')
            : t('Practice only: your course grades the Level 2 test, so this answer is neither graded nor recorded.'),
        );
        slot.prepend(note);
        slot.dataset.graded = 'practice';
      } else delete slot.dataset.graded;
      const response = record.responses[item.id];
      if (response !== undefined) view.lock(response, gradeResponse(item, response, engine));
      else if (readOnly()) view.close();
    }
    showScore();
  };

  const startOver = () => {
    record = memory.startOver();
    render();
    root.querySelector('.graded-item input:not(:disabled)')?.focus();
  };
  if (scoreLine) {
    startOverControl(startOverBox, startOver);
    scoreLine.after(startOverBox);
  }
  // A course site whose memory arrives later (cmi5's state document) or that changes the mode.
  // A choice picked or a number typed but not yet checked survives that: the reader may be mid-answer
  // when the course site's reply arrives.
  memory.subscribe((update) => {
    if (update.record) record = sound(update.record);
    const unchecked = uncheckedAnswers(root);
    render();
    restoreUnchecked(root, unchecked);
  });
  render();
  // On its own, the level switch changes the test: the score line follows it.
  if (!memory.level)
    new MutationObserver(showScore).observe(document.documentElement, { attributeFilter: ['data-level-view'] });

  return {
    items,
    summary,
    record: () => record,
    startOver,
  };
}

/**
 * What the reader has picked or typed in the open items under `root` and not checked yet, with the
 * element that had focus: for restoreUnchecked after the items are drawn again.
 * @param {Element} root
 */
function uncheckedAnswers(root) {
  const open = [...root.querySelectorAll('.graded-item:not([data-answered])')].map((slot) => ({
    variant: slot.getAttribute('data-variant'),
    params: slot.getAttribute('data-params'),
    picked: slot.querySelector('input[type="radio"]:checked')?.getAttribute('value') ?? null,
    typed: slot.querySelector('input.graded-input')?.value ?? '',
  }));
  return { open, focused: document.activeElement?.id || null };
}

/**
 * Puts back what uncheckedAnswers saw, in the items that still ask the same question (the same
 * variant; for a number, the same numbers) and are still open.
 * @param {Element} root
 * @param {ReturnType<typeof uncheckedAnswers>} seen
 */
function restoreUnchecked(root, { open, focused }) {
  for (const { variant, params, picked, typed } of open) {
    const slot = [...root.querySelectorAll('.graded-item:not([data-answered])')].find(
      (s) => s.getAttribute('data-variant') === variant,
    );
    if (!slot) continue;
    const radio = picked && [...slot.querySelectorAll('input[type="radio"]')].find((r) => r.value === picked);
    if (radio && !radio.disabled) radio.checked = true;
    const input = slot.querySelector('input.graded-input');
    if (typed && input && !input.disabled && slot.getAttribute('data-params') === params) input.value = typed;
  }
  const again = focused && document.getElementById(focused);
  if (again instanceof HTMLElement && again !== document.activeElement && !again.matches(':disabled'))
    again.focus({ preventScroll: true });
}

/** "Start over", asked twice: the first press offers to clear the answers, the second clears them. */
function startOverControl(box, startOver) {
  const ask = element('button', 'graded-check self-test-start-over-ask', t('Start over'));
  ask.type = 'button';
  const confirm = element('button', 'graded-check', t('Clear my answers'));
  confirm.type = 'button';
  const keep = element('button', 'graded-check', t('Keep them'));
  keep.type = 'button';
  const question = element(
    'p',
    'self-test-start-over-question',
    t('Clear every answer and start the self-test again?'),
  );
  const confirmRow = element('div', 'self-test-start-over-confirm');
  confirmRow.append(question, confirm, keep);
  confirmRow.hidden = true;
  ask.addEventListener('click', () => {
    ask.hidden = true;
    confirmRow.hidden = false;
    confirm.focus();
  });
  const close = () => {
    confirmRow.hidden = true;
    ask.hidden = false;
  };
  keep.addEventListener('click', () => {
    close();
    ask.focus();
  });
  confirm.addEventListener('click', () => {
    close();
    startOver();
  });
  box.replaceChildren(ask, confirmRow);
}

function numericView(item, slot, engine, onAnswer) {
  const id = `graded-${item.id}`;
  const label = element('label', 'graded-prompt', item.prompt);
  label.htmlFor = `${id}-input`;
  const input = element('input', 'graded-input');
  Object.assign(input, {
    id: `${id}-input`,
    type: 'text',
    inputMode: 'decimal',
    autocomplete: 'off',
    spellcheck: false,
    maxLength: 64,
  });
  input.setAttribute('aria-describedby', `${id}-tolerance ${id}-feedback`);
  const button = element('button', 'graded-check', t('Check'));
  button.type = 'button';
  const tolerance = element('p', 'graded-tolerance', t('Accepted {tolerance}.', { tolerance: item.toleranceText }));
  tolerance.id = `${id}-tolerance`;
  const feedback = element('p', 'graded-feedback');
  feedback.id = `${id}-feedback`;
  feedback.setAttribute('role', 'status');
  const row = element('div', 'graded-row');
  row.append(input, button);
  slot.replaceChildren(label, row, tolerance, feedback);
  slot.dataset.kind = 'numeric';
  // The attempt's numbers, as the prompt states them: for whoever reads the page's state (tests, tools).
  slot.dataset.params = JSON.stringify(item.params ?? {});
  delete slot.dataset.answered;
  if (!engine) {
    input.disabled = button.disabled = true;
    feedback.textContent = t('This question is checked by the lesson’s engine, which could not run in this browser.');
  }

  const check = () => {
    const given = parseNumber(input.value);
    if (given === null) {
      feedback.dataset.result = 'invalid';
      const typed = input.value.trim();
      feedback.textContent = typed
        ? t('“{answer}” is not a number: type digits, e.g. 0.5 or −1.25.', { answer: typed.slice(0, 64) })
        : t('“an empty answer” is not a number: type digits, e.g. 0.5 or −1.25.');
      input.setAttribute('aria-invalid', 'true');
      return;
    }
    input.removeAttribute('aria-invalid');
    onAnswer(String(given));
  };
  button.addEventListener('click', check);
  input.addEventListener('keydown', (event) => {
    if (event.key === 'Enter') check();
  });

  return {
    lock(response, grade) {
      input.value = response;
      input.disabled = button.disabled = true;
      if (grade === null) {
        feedback.dataset.result = 'unchecked';
        feedback.textContent = t('Your answer {answer} is kept; the engine that checks it could not run here.', {
          answer: response,
        });
        slot.dataset.answered = 'unchecked';
        return;
      }
      const shown = Number(item.answer(engine))
        .toPrecision(6)
        .replace(/\.?0+$/, '')
        .replace(/^-/, '−');
      feedback.dataset.result = grade ? 'correct' : 'wrong';
      feedback.textContent = grade
        ? t('Right: the engine gives {value}. {explain}', { value: shown, explain: item.explain })
        : t('Not within the tolerance: the engine gives {value}. {explain}', { value: shown, explain: item.explain });
      slot.dataset.answered = grade ? 'correct' : 'wrong';
    },
    close() {
      input.disabled = button.disabled = true;
    },
  };
}

function choiceView(item, slot, results, order, onAnswer) {
  const id = `graded-${item.id}`;
  const fieldset = element('fieldset', 'graded-choices');
  const legend = element('legend', 'graded-prompt', item.prompt);
  fieldset.append(legend);
  const radios = order.map((index) => {
    const choice = item.choices[index];
    const radio = element('input');
    Object.assign(radio, { type: 'radio', name: id, id: `${id}-${choice.id}`, value: choice.id });
    const label = element('label', 'graded-choice');
    label.append(radio, document.createTextNode(` ${choice.text}`));
    fieldset.append(label);
    return radio;
  });
  const button = element('button', 'graded-check', item.kind === 'predict' ? t('Check my prediction') : t('Check'));
  button.type = 'button';
  const feedback = element('p', 'graded-feedback');
  feedback.setAttribute('role', 'status');
  const reveal = element('div', 'graded-reveal');
  reveal.hidden = true;
  slot.replaceChildren(fieldset, button, feedback, reveal);
  slot.dataset.kind = item.kind;
  delete slot.dataset.answered;

  button.addEventListener('click', () => {
    const chosen = radios.find((r) => r.checked);
    if (!chosen) {
      feedback.dataset.result = 'invalid';
      feedback.textContent = t('Choose one answer first.');
      return;
    }
    onAnswer(chosen.value);
  });

  return {
    lock(response) {
      for (const radio of radios) {
        radio.checked = radio.value === response;
        radio.disabled = true;
      }
      button.disabled = true;
      const choice = item.choices.find((c) => c.id === response);
      if (isOpenPrediction(item)) {
        feedback.dataset.result = 'recorded';
        feedback.textContent = t('Your prediction is kept: {choice}', { choice: choice?.text ?? response });
        slot.dataset.answered = 'recorded';
        if (item.reveal) showReveal(item, reveal, results);
        return;
      }
      const right = item.choices.find((c) => c.correct);
      const matched = choice === right;
      feedback.dataset.result = matched ? 'correct' : 'wrong';
      const why = choice?.why ?? '';
      feedback.textContent = matched
        ? t('Right. {why}', { why })
        : t('Not quite. {why} The answer: {answer} {answerWhy}', { why, answer: right.text, answerWhy: right.why });
      slot.dataset.answered = matched ? 'correct' : 'wrong';
      if (item.reveal) showReveal(item, reveal, results);
    },
    close() {
      for (const radio of radios) radio.disabled = true;
      button.disabled = true;
    },
  };
}

function showReveal(item, reveal, results) {
  const text = element('p');
  const revealParts = () => {
    for (const part of item.reveal) {
      if (typeof part === 'string') text.append(part);
      else {
        let value;
        try {
          value = liveText(part.live, results);
        } catch {
          value = '—'; // the engine did not run: the reveal still reads, without the number
        }
        text.append(element('span', 'live-value', value));
      }
    }
  };
  if (item.figure && document.getElementById(item.figure)) {
    const link = element('a', 'graded-figure-link', t('See it in the figure'));
    link.href = `#${item.figure}`;
    // The reveal, then the link as a sentence of its own, in the order the page's language puts them.
    for (const [i, piece] of t('{reveal} {link}.')
      .split(/\{(reveal|link)\}/)
      .entries()) {
      if (i % 2 === 0) {
        if (piece) text.append(piece);
      } else if (piece === 'reveal') revealParts();
      else text.append(link);
    }
  } else revealParts();
  reveal.replaceChildren(text);
  reveal.hidden = false;
}

/** What the score line adds where the course keeps the attempt read-only or does not record it. */
function attemptNote(memory) {
  if (memory.mode === 'review' && memory.recorded === false)
    return t('Review: your course sent back no answers for this attempt; it is closed.');
  if (memory.mode === 'review') return t('Review: the answers your course recorded; this attempt is closed.');
  if (memory.mode === 'browse') return t('Browsing: your course does not record these answers.');
  return '';
}
