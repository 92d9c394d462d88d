// The lesson's first question as something to do: two sentences the reader types, and the cosine
// similarity of their pooled attention outputs without positions and with RoPE (the engine's
// orderSimilarities, as figure 1). Each verdict sentence says only what its numbers show.
import { fixed } from '../locale/format.js';
import { t } from '../locale/i18n.js';

/** The sentences the fields start with: the lesson's example, which the box's printed sentence answers. */
const EXAMPLE = { a: 'dog bites man', b: 'man bites dog' };

/** Similarities within this of 1 print as 1.000: the pooled vectors are the same to the shown digits. */
const SAME = 5e-4;

/** The words of a sentence, in order (split on white space, as the engine splits them). */
const words = (sentence) => sentence.trim().split(/\s+/).filter(Boolean);

/** Whether `a` and `b` hold the same words, each as often, in any order. */
function sameWords(a, b) {
  if (a.length !== b.length) return false;
  const sorted = (list) => [...list].sort().join('\u0000');
  return sorted(a) === sorted(b);
}

/**
 * The verdict on sentences `a` and `b` (strings) with the engine's similarities `sims` ({ none, rope }),
 * or the reason there is none: every claim is checked against the words and the numbers it prints.
 */
export function firstQuestionVerdict(a, b, sims) {
  const wa = words(a);
  const wb = words(b);
  if (!wa.length || !wb.length) return t('Type a sentence in both fields.');
  const none = fixed(sims.none, 3);
  const rope = fixed(sims.rope, 3);
  const blind = Math.abs(sims.none - 1) < SAME;
  const seen = Math.abs(sims.rope - 1) >= SAME;
  if (wa.join(' ') === wb.join(' '))
    return t(
      'The same sentence twice: similarity {none} without positions and {rope} with RoPE. Swap two words of B.',
      {
        none,
        rope,
      },
    );
  if (!sameWords(wa, wb))
    return blind
      ? t('Different words, yet similarity {none} without positions. With RoPE: {rope}.', { none, rope })
      : t(
          'B has other words than A, so they differ even without positions (similarity {none}). Use the same words in another order to see attention’s blind spot.',
          { none },
        );
  if (!blind) return t('Without positions the similarity is {none}; with RoPE it is {rope}.', { none, rope });
  return seen
    ? t(
        'Same words, new order. Without positions: similarity {none}, the same vector, so attention cannot tell them apart. With RoPE: {rope}, no longer the same.',
        { none, rope },
      )
    : t(
        'Same words, new order. Without positions: similarity {none}, the same vector. With RoPE it is {rope} too: this order turns out alike to three decimals.',
        { none, rope },
      );
}

/**
 * The first question's fields, as the build writes them into its box (`escape` makes text safe for
 * HTML): disabled until the page's engine can answer, so that nothing moves when they come alive.
 * `t` is the page's language (the build's table for that page).
 */
export function firstQuestionFieldsHtml(t, escape) {
  const field = (name, label, value) =>
    `<label class="first-question-field"><span>${escape(label)}</span>` +
    `<input type="text" name="${name}" value="${escape(value)}" spellcheck="false" autocomplete="off" autocapitalize="off" disabled></label>`;
  return (
    `<div class="first-question-fields">${field('first-question-a', t('Sentence A'), EXAMPLE.a)}` +
    `${field('first-question-b', t('Sentence B'), EXAMPLE.b)}` +
    `<button type="button" class="first-question-shuffle" disabled>${escape(t('B = A reversed'))}</button></div>` +
    `<p class="first-question-verdict" aria-live="polite"></p>`
  );
}

/**
 * Brings the first question's fields (`[data-first-question]` in `root`, written by the build) to
 * life and answers each change from `engine`. A box without them is left alone.
 */
export function setupFirstQuestion(root, engine) {
  const box = root.querySelector('[data-first-question]');
  const form = box?.querySelector('.first-question-fields');
  if (!form || !engine) return;
  const [a, b] = form.querySelectorAll('input');
  const shuffle = form.querySelector('button');
  const verdict = box.querySelector('.first-question-verdict');
  for (const control of [a, b, shuffle]) control.disabled = false;

  let pending = 0;
  const answer = () => {
    pending = 0;
    // The lesson's own example is what the printed sentence above the fields already answers.
    const example = a.value.trim() === EXAMPLE.a && b.value.trim() === EXAMPLE.b;
    let text = '';
    if (!example) {
      try {
        const sims = words(a.value).length && words(b.value).length ? engine.orderSimilarities(a.value, b.value) : null;
        text = firstQuestionVerdict(a.value, b.value, sims ?? { none: NaN, rope: NaN });
      } catch (error) {
        text = error.message;
      }
    }
    if (verdict.textContent !== text) verdict.textContent = text;
  };
  // One answer per frame, however fast the reader types.
  const schedule = () => {
    if (!pending) pending = requestAnimationFrame(answer);
  };
  a.addEventListener('input', schedule);
  b.addEventListener('input', schedule);
  shuffle.addEventListener('click', () => {
    b.value = words(a.value).reverse().join(' ');
    answer();
  });
  answer();
}
