// The graded self-test's items: numeric answers checked against the engine, multiple choice whose
// every wrong choice names its misconception, and predict-then-reveal prompts for Level 2's sections.

/**
 * Each item: { id, level (1 or 2), kind ('numeric' | 'choice' | 'predict'), prompt, … }.
 * numeric: answer(engine) → the engine's value, tolerance (absolute, or relative when `relative`),
 *   toleranceText (said beside the field), explain (shown after an answer).
 * choice and predict: choices [{ text, correct?, why }]; `why` on a wrong choice names the
 *   misconception behind it. predict also has reveal: text parts, strings or { live: quantity }
 *   (filled from the engine), and figure: the id of the figure that shows it.
 * Item placeholders in lesson.md are <div class="graded-item" data-item="<id>"></div>.
 */
export const SELF_TEST_ITEMS = [
  {
    id: 'why-positions',
    level: 1,
    kind: 'choice',
    prompt:
      'Without any positional information, why does attention give "dog bites man" and "man bites dog" the same pooled vector?',
    choices: [
      {
        text: 'Attention compares tokens by content only, so shuffling the input only shuffles the output rows.',
        correct: true,
        why: 'Attention is permutation-equivariant: order is invisible until something adds it.',
      },
      {
        text: 'The word vectors are random, so the model cannot tell the words apart.',
        why: 'Random vectors still differ from word to word; the words are told apart, only their order is lost.',
      },
      {
        text: 'Softmax throws away the sign of the scores.',
        why: 'Softmax keeps the ordering of scores; the loss of word order comes from attention treating the input as a set.',
      },
      {
        text: 'The sentences are too short for attention to work.',
        why: 'Length is not the problem: a shuffled sentence of any length pools to the same vector.',
      },
    ],
  },
  {
    id: 'choose-long-context',
    level: 1,
    kind: 'choice',
    prompt: 'A RoPE model trained on 4,096 tokens must read 32,768. What is the usual fix?',
    choices: [
      {
        text: 'Rescale positions or frequencies (position interpolation, NTK-aware scaling or YaRN), then fine-tune briefly.',
        correct: true,
        why: 'Rescaling keeps every angle inside the range the model saw in training.',
      },
      {
        text: 'Nothing: RoPE is relative, so it works at any length.',
        why: 'Relative scores do not make unseen angles safe: beyond training the slow pairs turn further than they ever did.',
      },
      {
        text: 'Switch to learned absolute positions.',
        why: 'A learned table has no row beyond its size: it cannot represent position 4,096 at all without retraining.',
      },
      {
        text: 'Drop positions and rely on the causal mask.',
        why: 'The mask leaks only a weak sense of order; models that drop positions still need training for it.',
      },
    ],
  },
  {
    id: 'alibi-where',
    level: 1,
    kind: 'choice',
    prompt:
      'Which scheme changes neither the token vectors nor the queries and keys, and instead subtracts a penalty that grows with distance from each attention score?',
    choices: [
      { text: 'ALiBi', correct: true, why: 'ALiBi adds a linear distance bias to the scores, one slope per head.' },
      { text: 'RoPE', why: 'RoPE rotates the queries and keys; it changes them, not the scores afterwards.' },
      { text: 'Sinusoidal codes', why: 'Sinusoidal codes are added to the token vectors before attention.' },
      {
        text: 'Learned absolute positions',
        why: 'A learned table is also added to the token vectors, one trained row per position.',
      },
    ],
  },
  {
    id: 'learned-limit',
    level: 1,
    kind: 'choice',
    prompt: 'GPT-2 learned a table of 1,024 positions. What happens to a token at position 1,024?',
    choices: [
      {
        text: 'It has no row in the table, so it cannot be encoded without a longer table and more training.',
        correct: true,
        why: 'A learned table covers only the positions it was trained with.',
      },
      {
        text: 'It reuses row 0: positions wrap around.',
        why: 'Nothing in a learned table wraps: that would be a periodic code, which a learned table is not.',
      },
      {
        text: 'The model extrapolates the table smoothly.',
        why: 'Learned rows are free parameters with no formula to extend; there is nothing to extrapolate from.',
      },
    ],
  },
  {
    id: 'rope-score-3-7',
    level: 2,
    kind: 'numeric',
    prompt:
      'RoPE with 2 dimensions and θ = 1: q = k = (1, 0), the query at position 3 and the key at 7. What is the score q·k after rotation?',
    answer: (engine) => dot(engine.applyRope([1, 0], 3), engine.applyRope([1, 0], 7)),
    tolerance: 0.005,
    toleranceText: 'within ±0.005 (three decimals)',
    explain: 'The score is cos(7 − 3) = cos 4: only the distance counts.',
  },
  {
    id: 'ntk-base-8-128',
    level: 2,
    kind: 'numeric',
    prompt:
      'NTK-aware scaling stretches a RoPE model with base 10,000 and d = 128 by s = 8. What is the new base, base · s^(d/(d−2))?',
    answer: (engine) => engine.ntkScaledBase(10000, 8, 128),
    tolerance: 0.005,
    relative: true,
    toleranceText: 'within 0.5% (three significant figures)',
    explain: 'The exponent d/(d−2) is just above 1, so the base grows a little more than 8×.',
  },
  {
    id: 'interpolate-6000',
    level: 2,
    kind: 'numeric',
    prompt:
      'Position interpolation stretches a model trained on 4,096 tokens to 16,384. Which position does token 6,000 take?',
    answer: (engine) => engine.interpolatePositions([6000], 4096, 16384)[0],
    tolerance: 0.5,
    toleranceText: 'within ±0.5 (the nearest whole position)',
    explain: 'pos′ = pos · L_train / L_new: every position shrinks by the same factor.',
  },
  {
    id: 'sinusoidal-pe-1-0',
    level: 2,
    kind: 'numeric',
    prompt: "Sinusoidal codes with d = 4: what is the first entry of position 1's code, sin(1 · ω₀)?",
    answer: (engine) => engine.sinusoidalEncoding(2, 4).data[4],
    tolerance: 0.005,
    toleranceText: 'within ±0.005 (three decimals)',
    explain: 'ω₀ = 1 for the first pair, so the entry is sin 1.',
  },
  {
    id: 'rope-depends-on',
    level: 2,
    kind: 'choice',
    prompt: 'After RoPE, the score between a query at position m and a key at position n depends on…',
    choices: [
      {
        text: '…only the distance n − m (and the two vectors).',
        correct: true,
        why: 'Rotating both by their positions leaves only the rotation by n − m between them.',
      },
      {
        text: '…both absolute positions m and n.',
        why: 'Each vector is rotated by its absolute position, but the rotations cancel down to their difference in the dot product.',
      },
      {
        text: '…the sum m + n.',
        why: 'Rotations compose by adding angles, but the dot product subtracts the two: the sum never appears.',
      },
      {
        text: '…neither: RoPE leaves the score unchanged.',
        why: 'The rotation does change the score, by the angle between the two positions.',
      },
    ],
  },
  {
    id: 'predict-bag',
    level: 2,
    kind: 'predict',
    prompt:
      'Predict before you read on: with no positions, what is the cosine similarity between the pooled vectors of "dog bites man" and "man bites dog"?',
    choices: [
      { text: 'Exactly 1: the same vector.', correct: true, why: 'Pooling adds the same three rows in another order.' },
      {
        text: 'About 0.5: half the words moved.',
        why: 'Moving words changes nothing when nothing records where they are: the sum is the same.',
      },
      {
        text: 'About 0: different sentences.',
        why: 'The vectors come from the words, not from the sentence: the same words give the same sum.',
      },
    ],
    reveal: ['The engine gives ', { live: 'order.none' }, ': the two orders are one bag.'],
    figure: 'fig-order-blindness',
  },
  {
    id: 'predict-sinusoidal-speed',
    level: 2,
    kind: 'predict',
    prompt:
      'Predict before you look at the heatmap: as the pair index i grows, do the sinusoidal waves turn faster or slower?',
    choices: [
      {
        text: 'Slower: ω_i = 10000^(−2i/d) falls with i.',
        correct: true,
        why: 'The first pairs tell neighbours apart; the last ones change slowly over thousands of positions.',
      },
      {
        text: 'Faster: later dimensions carry finer detail.',
        why: 'The exponent is negative, so each pair is slower than the one before.',
      },
      {
        text: 'The same speed, shifted in phase.',
        why: 'A phase shift alone would give positions that repeat every 2π; the many speeds are what make each code unique.',
      },
    ],
    reveal: [
      'The first pair turns at ω₀ = ',
      { live: 'sin.omega0' },
      ' per position, the second once every ',
      { live: 'sin.omega1-inverse' },
      " positions: the heatmap's right-hand columns change slowly.",
    ],
    figure: 'fig-sinusoidal-heatmap',
  },
  {
    id: 'predict-rope-shift',
    level: 2,
    kind: 'predict',
    prompt:
      'Predict: the query moves from position 3 to 103 and the key from 7 to 107. What happens to the RoPE score?',
    choices: [
      { text: 'It stays the same.', correct: true, why: 'The distance is still 4.' },
      {
        text: 'It shrinks: far positions attend less.',
        why: 'RoPE scores depend on distance, not on how far into the text the pair sits.',
      },
      {
        text: 'It grows: the angles are larger.',
        why: 'Both angles grow by the same 100, and the score sees only their difference.',
      },
    ],
    reveal: [
      'The engine gives ',
      { live: 'rope.score-3-7' },
      ' at 3 and 7 and ',
      { live: 'rope.score-103-107' },
      ' at 103 and 107.',
    ],
    figure: 'fig-rope-relative',
  },
  {
    id: 'predict-ntk-pairs',
    level: 2,
    kind: 'predict',
    prompt: 'Predict: NTK-aware scaling with s = 8 and d = 128. Which pairs slow down the most?',
    choices: [
      {
        text: 'The slowest pairs: they slow by about 8×, the fastest hardly at all.',
        correct: true,
        why: 'A larger base stretches the low frequencies and leaves the high ones nearly alone.',
      },
      {
        text: 'Every pair by 8×, like position interpolation.',
        why: 'That is what position interpolation does; NTK changes the base, which spares the fast pairs.',
      },
      { text: 'The fastest pairs.', why: 'The first pair has θ₀ = 1 whatever the base: it cannot slow down.' },
    ],
    reveal: [
      'The first pair keeps θ₀ = ',
      { live: 'ntk.theta0-after' },
      '; the slowest slows ',
      { live: 'ntk.slowdown' },
      '×.',
    ],
    figure: 'fig-context-extension',
  },
  {
    id: 'predict-causal',
    level: 2,
    kind: 'predict',
    prompt:
      'Predict: still no positions, but with the causal mask on. Do "dog bites man" and "man bites dog" still pool to the same vector?',
    choices: [
      {
        text: 'No: each word sees only the words before it, so the order leaks in.',
        correct: true,
        why: 'Which words a token can see depends on where it sits.',
      },
      {
        text: 'Yes: the mask changes nothing without positions.',
        why: 'The mask itself depends on order: word 1 sees one word, word 3 sees three.',
      },
    ],
    reveal: [
      'With the mask the similarity is ',
      { live: 'order.causal' },
      ', against ',
      { live: 'order.none' },
      ' without it.',
    ],
    figure: null,
  },
];

function dot(a, b) {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += a[i] * b[i];
  return sum;
}

/** The share of the self-test a learner must get right to pass (cmi5 masteryScore, SCORM mastery). */
export const MASTERY_SCORE = 0.8;
