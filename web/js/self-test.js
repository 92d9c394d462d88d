// The graded self-test: renders each item placeholder (.graded-item[data-item]) as a question the
// learner answers before the reveal, checks it (numbers against the engine's live value), keeps the
// score for the visit and in storage where the browser allows it, and announces every answer.
import { SELF_TEST_ITEMS, MASTERY_SCORE } from './self-test-items.js';
import { liveText } from './live-values.js';
import { t } from './i18n.js';

const STORAGE_KEY = 'positional-lesson:self-test:v1';
const EVENT = 'positional-lesson:self-test';

/** Reads a number as people type it: a Unicode minus, thousands separators (, _ thin space), a leading +. */
export function parseNumber(text) {
  const cleaned = String(text)
    .trim()
    .replace(/[\u2212\u2013]/g, '-')
    .replace(/[,_\s\u2009\u202f]/g, '')
    .replace(/^\+/, '');
  if (!/^-?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i.test(cleaned)) return null;
  return Number(cleaned);
}

/** Whether `given` is within the item's tolerance of `expected`. */
export function withinTolerance(item, given, expected) {
  const allowed = item.relative ? Math.abs(expected) * item.tolerance : item.tolerance;
  return Math.abs(given - expected) <= allowed;
}

/** Whether a kept answer (from storage or an LMS's suspend data) has the shape the page writes. */
const usable = (answer) =>
  Boolean(answer) && typeof answer.response === 'string' && typeof answer.correct === 'boolean';

function readStored() {
  try {
    const parsed = JSON.parse(localStorage.getItem(STORAGE_KEY) ?? '{}');
    return Object.fromEntries(
      Object.entries(parsed && typeof parsed === 'object' ? parsed : {}).filter(([, a]) => usable(a)),
    );
  } catch {
    return {}; // storage blocked or unreadable: the visit keeps its own record
  }
}

function writeStored(answers) {
  try {
    localStorage.setItem(STORAGE_KEY, JSON.stringify(answers));
  } catch {
    // Storage blocked (privacy settings, sandboxed frames): the score lives for the visit only.
  }
}

function element(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

const LETTERS = 'abcdefgh';

/**
 * Sets up every graded item on the page. Returns the self-test's record:
 * { items, answers, summary(), restore(answers) }. Every answer dispatches
 * `positional-lesson:self-test` on window with { item, answer, summary }.
 */
export function setupSelfTest({ engine, results, root = document } = {}) {
  const answers = readStored();
  const items = SELF_TEST_ITEMS.filter((item) => root.querySelector(`.graded-item[data-item="${item.id}"]`));
  const views = new Map();
  const scoreLine = root.querySelector('[data-self-test-score]');

  const summary = () => {
    const answered = items.filter((item) => answers[item.id]).length;
    const correct = items.filter((item) => answers[item.id]?.correct).length;
    const total = items.length;
    const scaled = total ? correct / total : 0;
    const completed = total > 0 && answered === total;
    return {
      answered,
      correct,
      total,
      scaled,
      completed,
      passed: completed && scaled >= MASTERY_SCORE,
      mastery: MASTERY_SCORE,
    };
  };

  const showScore = () => {
    if (!scoreLine) return;
    const s = summary();
    const counts = {
      correct: s.correct,
      answered: s.answered,
      total: s.total,
      score: Math.round(s.scaled * 100),
      mastery: Math.round(MASTERY_SCORE * 100),
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
    scoreLine.dataset.answered = String(s.answered);
    scoreLine.dataset.correct = String(s.correct);
  };

  const record = (item, answer, { announce = true } = {}) => {
    answers[item.id] = answer;
    views.get(item.id).lock(answer);
    if (!announce) return;
    writeStored(answers);
    showScore();
    dispatchEvent(new CustomEvent(EVENT, { detail: { item, answer, summary: summary() } }));
  };

  for (const item of items) {
    const slot = root.querySelector(`.graded-item[data-item="${item.id}"]`);
    const view =
      item.kind === 'numeric'
        ? numericView(item, slot, engine, (a) => record(item, a))
        : choiceView(item, slot, results, (a) => record(item, a));
    views.set(item.id, view);
    if (answers[item.id]) view.lock(answers[item.id]);
  }
  showScore();

  return {
    items,
    answers,
    summary,
    /** Shows answers kept elsewhere (an LMS's suspend data) as already given. */
    restore(saved) {
      for (const item of items)
        if (usable(saved?.[item.id]) && !answers[item.id]) record(item, saved[item.id], { announce: false });
      writeStored(answers);
      showScore();
    },
  };
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
        ? t('“{answer}” is not a number: type digits, e.g. 0.5 or −1.25.', { answer: typed })
        : t('“an empty answer” is not a number: type digits, e.g. 0.5 or −1.25.');
      input.setAttribute('aria-invalid', 'true');
      return;
    }
    input.removeAttribute('aria-invalid');
    const expected = item.answer(engine);
    onAnswer({ response: String(given), correct: withinTolerance(item, given, expected), expected });
  };
  button.addEventListener('click', check);
  input.addEventListener('keydown', (event) => {
    if (event.key === 'Enter') check();
  });

  return {
    lock(answer) {
      input.value = answer.response;
      input.disabled = button.disabled = true;
      const expected = engine ? item.answer(engine) : answer.expected;
      const shown = Number(expected)
        .toPrecision(6)
        .replace(/\.?0+$/, '')
        .replace(/^-/, '−');
      feedback.dataset.result = answer.correct ? 'correct' : 'wrong';
      feedback.textContent = answer.correct
        ? t('Right: the engine gives {value}. {explain}', { value: shown, explain: item.explain })
        : t('Not within the tolerance: the engine gives {value}. {explain}', { value: shown, explain: item.explain });
      slot.dataset.answered = answer.correct ? 'correct' : 'wrong';
    },
  };
}

function choiceView(item, slot, results, onAnswer) {
  const id = `graded-${item.id}`;
  const fieldset = element('fieldset', 'graded-choices');
  const legend = element('legend', 'graded-prompt', item.prompt);
  fieldset.append(legend);
  const radios = item.choices.map((choice, i) => {
    const radio = element('input');
    Object.assign(radio, { type: 'radio', name: id, id: `${id}-${LETTERS[i]}`, value: LETTERS[i] });
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

  button.addEventListener('click', () => {
    const chosen = radios.findIndex((r) => r.checked);
    if (chosen < 0) {
      feedback.dataset.result = 'invalid';
      feedback.textContent = t('Choose one answer first.');
      return;
    }
    onAnswer({ response: LETTERS[chosen], correct: Boolean(item.choices[chosen].correct) });
  });

  return {
    lock(answer) {
      const chosen = LETTERS.indexOf(answer.response);
      radios.forEach((radio, i) => {
        radio.checked = i === chosen;
        radio.disabled = true;
      });
      button.disabled = true;
      const choice = item.choices[chosen];
      const right = item.choices.find((c) => c.correct);
      feedback.dataset.result = answer.correct ? 'correct' : 'wrong';
      const why = choice?.why ?? '';
      feedback.textContent = answer.correct
        ? t('Right. {why}', { why })
        : t('Not quite. {why} The answer: {answer} {answerWhy}', { why, answer: right.text, answerWhy: right.why });
      slot.dataset.answered = answer.correct ? 'correct' : 'wrong';
      if (item.reveal) showReveal(item, reveal, results);
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
