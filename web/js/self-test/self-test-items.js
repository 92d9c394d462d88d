// The graded self-test's items: numeric answers checked against the engine, multiple choice whose
// every wrong choice names its misconception, and predict-then-reveal prompts for Level 2's sections.
// Every text the reader sees is in the page's language, through i18n.js; ids, answers and tolerances are data.
import { t } from '../locale/i18n.js';
import { grouped } from '../locale/format.js';
import { CHART_DECLARATIONS } from '../charts/declarations.js';

/**
 * A reveal's parts from its sentence (in the page's language): the text around each {name}, and
 * { live: quantity } where `lives` maps that name to a live quantity, or the text where it maps it
 * to { text } (an input the sentence quotes, such as a figure's opening setting).
 */
function reveal(sentence, lives) {
  return sentence
    .split(/\{(\w+)\}/)
    .map((piece, i) => (i % 2 ? (lives[piece].text ?? { live: lives[piece] }) : piece))
    .filter((part) => part !== '');
}

/**
 * Each item: { id, level (1 or 2), kind ('numeric' | 'choice' | 'predict'), prompt, … }.
 * numeric: answer(engine) → the engine's value, formula() → the same value from the item's closed
 *   formula (the course shell grades with it: its launch page runs no engine), tolerance (absolute, or relative when `relative`),
 *   toleranceText (said beside the field), explain (shown after an answer).
 * choice and predict: choices [{ id, text, correct?, why }]: `id` is the choice's stable name (what
 *   is stored and reported, whatever order the choices are shown in), `why` on a wrong choice names
 *   the misconception behind it. predict also has reveal: text parts, strings or { live: quantity }
 *   (filled from the engine), and figure: the id of the figure that shows it. A prediction whose
 *   answer the lesson gives only as measurements that depend on the case (the length lab's, task by
 *   task) has no right choice: it is open, its `why`s say what each choice bets on, and the page
 *   only records the choice (see isOpenPrediction).
 * numeric and choice items are the graded checks; a prediction is recorded but never graded (see
 * isGraded): it is there to make the reader commit before the figure, not to mark them.
 * Item placeholders in lesson.md are <div class="graded-item" data-item="<id>"></div>.
 */
export const SELF_TEST_ITEMS = [
  {
    id: 'why_positions',
    level: 1,
    kind: 'choice',
    prompt: t(
      'Without any positional information, why does attention give "dog bites man" and "man bites dog" the same pooled vector?',
    ),
    choices: [
      {
        id: 'set',
        text: t('Attention sees content only, so reordering the words just reorders its outputs.'),
        correct: true,
        why: t('Attention is permutation-equivariant: order is invisible until something adds it.'),
      },
      {
        id: 'random_vectors',
        text: t('The word vectors are random, so the model cannot tell the three words apart.'),
        why: t('Random vectors still differ from word to word; the words are told apart, only their order is lost.'),
      },
      {
        id: 'softmax_sign',
        text: t('Softmax normalises each row of scores, which erases which token came first.'),
        why: t(
          'Softmax rescales a row but keeps the ordering of its scores; the loss of word order comes from attention treating the input as a set.',
        ),
      },
      {
        id: 'too_short',
        text: t('Three tokens are too few: attention needs a longer context before any order shows.'),
        why: t('Length is not the problem: a shuffled sentence of any length pools to the same vector.'),
      },
    ],
  },
  {
    id: 'choose_long_context',
    level: 1,
    kind: 'choice',
    prompt: t('A RoPE model trained on 4,096 tokens must read 32,768. What is the usual fix?'),
    choices: [
      {
        id: 'rescale',
        text: t('Rescale the positions or frequencies (PI, NTK, YaRN), then fine-tune briefly.'),
        correct: true,
        why: t('Rescaling keeps every angle inside the range the model saw in training.'),
      },
      {
        id: 'nothing',
        text: t('Nothing: RoPE scores depend only on distance, so every length works as trained.'),
        why: t(
          'Relative scores do not make unseen angles safe: beyond training the slow pairs turn further than they ever did.',
        ),
      },
      {
        id: 'learned_table',
        text: t('Swap RoPE for a learned position table with 32,768 rows and keep the weights.'),
        why: t('A new learned table starts untrained: its rows mean nothing until the model is trained with them.'),
      },
      {
        id: 'mask_only',
        text: t('Drop the position code and let the causal mask carry word order at any length.'),
        why: t('The mask leaks only a weak sense of order; models that drop positions still need training for it.'),
      },
    ],
  },
  {
    id: 'alibi_where',
    level: 1,
    kind: 'choice',
    prompt: t(
      'Which scheme changes neither the token vectors nor the queries and keys, and instead subtracts a penalty that grows with distance from each attention score?',
    ),
    choices: [
      {
        id: 'alibi',
        text: 'ALiBi',
        correct: true,
        why: t('ALiBi adds a linear distance bias to the scores, one slope per head.'),
      },
      {
        id: 'rope',
        text: 'RoPE',
        why: t('RoPE rotates the queries and keys; it changes them, not the scores afterwards.'),
      },
      {
        id: 'sinusoidal',
        text: t('Sinusoidal codes'),
        why: t('Sinusoidal codes are added to the token vectors before attention.'),
      },
      {
        id: 'learned',
        text: t('Learned absolute positions'),
        why: t('A learned table is also added to the token vectors, one trained row per position.'),
      },
    ],
  },
  {
    id: 'learned_limit',
    level: 1,
    kind: 'choice',
    prompt: t('GPT-2 learned a table of 1,024 positions. What happens to a token at position 1,024?'),
    choices: [
      {
        id: 'no_row',
        text: t('It has no row: the table must grow, and all its new rows be trained first.'),
        correct: true,
        why: t('A learned table covers only the positions it was trained with.'),
      },
      {
        id: 'wraps',
        text: t('It reuses the first row, since a learned table wraps round like a clock.'),
        why: t('Nothing in a learned table wraps: that would be a periodic code, which a learned table is not.'),
      },
      {
        id: 'extrapolates',
        text: t('It gets a row extended from the trend of the last rows in the table.'),
        why: t('Learned rows are free parameters with no formula to extend; there is nothing to extrapolate from.'),
      },
    ],
  },
  {
    id: 'causal_mask_weak',
    level: 1,
    kind: 'choice',
    prompt: t('A decoder has a causal mask but no positional encoding. What does the mask do for word order?'),
    choices: [
      {
        id: 'weak_leak',
        text: t('A little: each token sees only earlier words, so its output depends on place.'),
        correct: true,
        why: t('The leak is real but weak, a side effect of the mask rather than a position code.'),
      },
      {
        id: 'no_effect',
        text: t('Nothing: without a position code attention stays a bag of words, mask or not.'),
        why: t('The mask itself depends on order: the first word sees one word, the third sees three.'),
      },
      {
        id: 'full_positions',
        text: t('All of it: the mask gives each token its exact index, so no code is needed at all.'),
        why: t(
          'The mask only limits what each token can see: no token gets a code for where it sits, and a model must learn to read order from what it can see.',
        ),
      },
    ],
  },
  {
    id: 'rope_score_3_7',
    level: 2,
    kind: 'numeric',
    prompt: t(
      'RoPE with 2 dimensions and θ = 1: q = k = (1, 0), the query at position 3 and the key at 7. What is the score q·k after rotation?',
    ),
    answer: (engine) => dot(engine.applyRope([1, 0], 3), engine.applyRope([1, 0], 7)),
    formula: () => Math.cos(7 - 3),
    tolerance: 0.005,
    toleranceText: t('within ±0.005 (three decimals)'),
    explain: t('The score is cos(7 − 3) = cos 4: only the distance counts.'),
  },
  {
    id: 'ntk_base_8_128',
    level: 2,
    kind: 'numeric',
    prompt: t(
      'NTK-aware scaling stretches a RoPE model with base 10,000 and d = 128 by s = 8. What is the new base, base · s^(d/(d−2))?',
    ),
    answer: (engine) => engine.ntkScaledBase(10000, 8, 128),
    formula: () => 10000 * 8 ** (128 / (128 - 2)),
    tolerance: 0.005,
    relative: true,
    toleranceText: t('within 0.5%'),
    explain: t('The exponent d/(d−2) is just above 1, so the base grows a little more than 8×.'),
  },
  {
    id: 'interpolate_6000',
    level: 2,
    kind: 'numeric',
    prompt: t(
      'Position interpolation stretches a model trained on 4,096 tokens to 16,384. Which position does token 6,000 take?',
    ),
    answer: (engine) => engine.interpolatePositions([6000], 4096, 16384)[0],
    formula: () => (6000 * 4096) / 16384,
    tolerance: 0.5,
    toleranceText: t('within ±0.5 (the nearest whole position)'),
    explain: t('pos′ = pos · L_train / L_new: every position shrinks by the same factor.'),
  },
  {
    id: 'sinusoidal_pe_1_0',
    level: 2,
    kind: 'numeric',
    prompt: t("Sinusoidal codes with d = 4: what is the first entry of position 1's code, sin(1 · ω₀)?"),
    answer: (engine) => engine.sinusoidalEncoding(2, 4).data[4],
    formula: () => Math.sin(1),
    tolerance: 0.005,
    toleranceText: t('within ±0.005 (three decimals)'),
    explain: t('ω₀ = 1 for the first pair, so the entry is sin 1.'),
  },
  {
    id: 'rope_depends_on',
    level: 2,
    kind: 'choice',
    prompt: t('After RoPE, the score between a query at position m and a key at position n depends on…'),
    choices: [
      {
        id: 'distance',
        text: t('…only the offset n − m, plus the two vectors, not the place.'),
        correct: true,
        why: t('Rotating both by their positions leaves only the rotation by n − m between them.'),
      },
      {
        id: 'absolute',
        text: t('…both positions m and n, as each vector turns by its own.'),
        why: t(
          'Each vector is rotated by its absolute position, but the rotations cancel down to their difference in the dot product.',
        ),
      },
      {
        id: 'sum',
        text: t('…the sum m + n, since rotations add their angles together.'),
        why: t('Rotations compose by adding angles, but the dot product subtracts the two: the sum never appears.'),
      },
      {
        id: 'unchanged',
        text: t('…neither: the rotations cancel and the plain dot product is left.'),
        why: t('The rotations cancel only down to their difference: the score changes with n − m.'),
      },
    ],
  },
  {
    id: 'alibi_slope_head_3',
    level: 2,
    kind: 'numeric',
    prompt: t(
      'ALiBi with 8 heads gives head h (counting from 1) the slope 2^(−8h/8) = 2^(−h). What is the slope of head 3?',
    ),
    answer: (engine) => engine.alibiSlopes(8)[2],
    formula: () => 2 ** -3,
    tolerance: 0.0005,
    toleranceText: t('within ±0.0005 (four decimals)'),
    explain: t('Each head halves the slope of the one before: 1/2, 1/4, 1/8, …'),
  },
  {
    id: 'pi_vs_ntk',
    level: 2,
    kind: 'choice',
    prompt: t('Position interpolation and NTK-aware scaling both stretch a RoPE model by s. How do they differ?'),
    choices: [
      {
        id: 'ntk_spares_fast',
        text: t('Interpolation slows every pair by s; NTK slows the slow pairs by about s, the fast barely.'),
        correct: true,
        why: t('A larger base changes θ_i = base^(−2i/d) more the larger i is; θ₀ = 1 whatever the base.'),
      },
      {
        id: 'reversed',
        text: t('NTK slows every pair by s; interpolation slows the slow pairs by about s, the fast barely.'),
        why: t('It is the other way round: interpolation divides every position, and so every angle, by s.'),
      },
      {
        id: 'same_recipe',
        text: t('Both slow every pair by s: one recipe, applied to the positions or to the frequencies.'),
        why: t('They agree only on the slowest pair; on the fast pairs NTK changes almost nothing.'),
      },
    ],
  },
  {
    id: 'predict_bag',
    level: 2,
    kind: 'predict',
    prompt: t(
      'Predict before you read on: with no positions, what is the cosine similarity between the pooled vectors of "dog bites man" and "man bites dog"?',
    ),
    choices: [
      {
        id: 'identical',
        text: t('Exactly 1: the same vector.'),
        correct: true,
        why: t('Pooling adds the same three rows in another order.'),
      },
      {
        id: 'half',
        text: t('About 0.5: half the words moved.'),
        why: t('Moving words changes nothing when nothing records where they are: the sum is the same.'),
      },
      {
        id: 'unrelated',
        text: t('About 0: different sentences.'),
        why: t('The vectors come from the words, not from the sentence: the same words give the same sum.'),
      },
    ],
    reveal: reveal(t('The engine gives {none}: the two orders are one bag.'), { none: 'order.none' }),
    figure: 'fig-order-blindness',
  },
  {
    id: 'predict_sinusoidal_speed',
    level: 2,
    kind: 'predict',
    prompt: t(
      'Predict before you look at the heatmap: as the pair index i grows, do the sinusoidal waves turn faster or slower?',
    ),
    choices: [
      {
        id: 'slower',
        text: t('Slower: ω_i = 10000^(−2i/d) falls with i.'),
        correct: true,
        why: t('The first pairs tell neighbours apart; the last ones change slowly over thousands of positions.'),
      },
      {
        id: 'faster',
        text: t('Faster: later dimensions carry finer detail.'),
        why: t('The exponent is negative, so each pair is slower than the one before.'),
      },
      {
        id: 'same_speed',
        text: t('The same speed, shifted in phase.'),
        why: t(
          'A phase shift alone would give positions that repeat every 2π; the many speeds are what make each code unique.',
        ),
      },
    ],
    reveal: reveal(
      t(
        'The heatmap opens at d = {d}: its first pair turns a full circle every {first} positions, the second every {second}, and the last only once in {last}, so the right-hand columns change slowly.',
      ),
      {
        d: { text: grouped(CHART_DECLARATIONS['sinusoidal-heatmap'].controls.d.value) },
        first: 'heatmap.period-first',
        second: 'heatmap.period-second',
        last: 'heatmap.period-last',
      },
    ),
    figure: 'fig-sinusoidal-heatmap',
  },
  {
    id: 'predict_rope_shift',
    level: 2,
    kind: 'predict',
    prompt: t(
      'Predict: the query moves from position 3 to 103 and the key from 7 to 107. What happens to the RoPE score?',
    ),
    choices: [
      { id: 'same', text: t('It stays the same.'), correct: true, why: t('The distance is still 4.') },
      {
        id: 'shrinks',
        text: t('It shrinks: far positions attend less.'),
        why: t('RoPE scores depend on distance, not on how far into the text the pair sits.'),
      },
      {
        id: 'grows',
        text: t('It grows: the angles are larger.'),
        why: t('Both angles grow by the same 100, and the score sees only their difference.'),
      },
    ],
    reveal: reveal(t('The engine gives {near} at 3 and 7 and {far} at 103 and 107.'), {
      near: 'rope.score-3-7',
      far: 'rope.score-103-107',
    }),
    figure: 'fig-rope-relative',
  },
  {
    id: 'predict_ntk_pairs',
    level: 2,
    kind: 'predict',
    prompt: t('Predict: NTK-aware scaling with s = 8 and d = 128. Which pairs slow down the most?'),
    choices: [
      {
        id: 'slowest',
        text: t('The slowest pairs: they slow by about 8×, the fastest hardly at all.'),
        correct: true,
        why: t('A larger base stretches the low frequencies and leaves the high ones nearly alone.'),
      },
      {
        id: 'every_pair',
        text: t('Every pair by 8×, like position interpolation.'),
        why: t('That is what position interpolation does; NTK changes the base, which spares the fast pairs.'),
      },
      {
        id: 'fastest',
        text: t('The fastest pairs.'),
        why: t('The first pair has θ₀ = 1 whatever the base: it cannot slow down.'),
      },
    ],
    reveal: reveal(t('The first pair keeps θ₀ = {theta0}; the slowest slows {slowdown}×.'), {
      theta0: 'ntk.theta0-after',
      slowdown: 'ntk.slowdown',
    }),
    figure: 'fig-context-extension',
  },
  {
    id: 'predict_causal',
    level: 2,
    kind: 'predict',
    prompt: t(
      'Predict: still no positions, but with the causal mask on. Do "dog bites man" and "man bites dog" still pool to the same vector?',
    ),
    choices: [
      {
        id: 'differ',
        text: t('No: each word sees only the words before it, so the order leaks in.'),
        correct: true,
        why: t('Which words a token can see depends on where it sits.'),
      },
      {
        id: 'same',
        text: t('Yes: the mask changes nothing without positions.'),
        why: t('The mask itself depends on order: word 1 sees one word, word 3 sees three.'),
      },
    ],
    reveal: reveal(t('With the mask the similarity is {causal}, against {none} without it.'), {
      causal: 'order.causal',
      none: 'order.none',
    }),
    figure: null,
  },
  {
    id: 'predict_length_lab',
    level: 2,
    kind: 'predict',
    prompt: t(
      'Predict before you read the results: which scheme do you expect to hold up best at 4× the trained length?',
    ),
    choices: [
      {
        id: 'none',
        text: t('No positions: nothing to go out of range.'),
        why: t('A bet that the causal mask alone carries enough order, with no trained positions to run out of.'),
      },
      {
        id: 'learned',
        text: t('A learned table.'),
        why: t('A bet that trained rows carry over, though the table has no rows past the trained length.'),
      },
      {
        id: 'sinusoidal',
        text: t('Sinusoidal codes.'),
        why: t('A bet that a formula defined at every position is also understood at every position.'),
      },
      {
        id: 'rope',
        text: t('RoPE, as trained.'),
        why: t('A bet that relative distances carry over, though the slow pairs reach angles never seen.'),
      },
      {
        id: 'rope_yarn',
        text: t('RoPE with YaRN.'),
        why: t('A bet that keeping the fast pairs and slowing the slow ones keeps every angle familiar.'),
      },
      {
        id: 'alibi',
        text: t('ALiBi.'),
        why: t('A bet that a penalty growing with distance needs nothing the model could not have seen.'),
      },
    ],
    reveal: [t('The lab measures it task by task in this section: compare as you read.')],
    figure: 'fig-length-lab',
  },
];

/**
 * Whether `item` is a prediction with no right choice: the page records the choice and says no
 * more, and a course site is given no correct response for it.
 */
export function isOpenPrediction(item) {
  return item.kind === 'predict' && !item.choices.some((c) => c.correct);
}

function dot(a, b) {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += a[i] * b[i];
  return sum;
}

/** Whether `item` counts towards the score: the checks do, predictions do not. */
export function isGraded(item) {
  return item.kind !== 'predict';
}

/** The share of the graded checks a learner must get right to pass (cmi5 masteryScore, SCORM mastery). */
export const MASTERY_SCORE = 0.8;
