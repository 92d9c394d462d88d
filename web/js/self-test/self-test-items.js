// The graded self-test's items: numeric answers checked against the engine, multiple choice whose
// every wrong choice names its misconception, and predict-then-reveal prompts for Level 2's sections.
// Every text the reader sees is in the page's language, through i18n.js; ids, answers and tolerances are data.
import { t } from '../locale/i18n.js';
import { grouped } from '../locale/format.js';
import { CHART_DECLARATIONS } from '../charts/declarations.js';
import { attemptRandom } from '../lms/record.js';

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
 * What the self-test measures: the lesson's objectives (the instructor guide lists them with their
 * questions), each at its level. Every item names the one it measures.
 */
export const OBJECTIVES = {
  order_blindness: {
    level: 1,
    text: 'explain why attention on its own cannot tell “dog bites man” from “man bites dog”',
  },
  schemes: {
    level: 1,
    text: 'name the common position schemes (learned tables, sinusoidal codes, RoPE, ALiBi) and say where each one lives in a model and its config',
  },
  long_context: {
    level: 1,
    text: 'choose what to do when a model must read past the length it was trained at: scale at inference, extend with a short fine-tune, or chunk the input',
  },
  what_breaks: {
    level: 1,
    text: 'recognise what breaks past the trained length, and why the causal mask is no substitute for positions',
  },
  pooled_order: {
    level: 2,
    text: 'show with three numbers that pooled attention without positions is blind to word order',
  },
  sinusoidal: { level: 2, text: 'compute a sinusoidal code and say why it uses many frequencies' },
  rope_relative: {
    level: 2,
    text: 'rotate a query and a key with RoPE and show that their score depends only on the distance between them',
  },
  context_extension: {
    level: 2,
    text: 'stretch a model’s context by position interpolation and by NTK-aware scaling, and say how the two differ',
  },
  alibi_and_mask: { level: 2, text: 'read ALiBi’s slopes and the causal mask’s weak leak of order' },
};

/**
 * Each item: { id, objective (a key of OBJECTIVES), level (1 or 2), kind ('numeric' | 'choice' | 'predict'), prompt, … }.
 * numeric: draw(random) → the attempt's parameters (from the attempt's seed: itemForAttempt),
 *   ask(params) → the prompt, answerWith(engine, params) → the engine's value, formulaWith(params)
 *   → the same value from the item's closed formula (the course shell grades with it: its launch
 *   page runs no engine), formulaText (the formula, for the answer key), explainWith(params), tolerance (absolute, or relative when `relative`),
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
const FIRST_VARIANTS = [
  {
    id: 'why_positions',
    objective: 'order_blindness',
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
    objective: 'long_context',
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
    objective: 'schemes',
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
    objective: 'schemes',
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
    objective: 'what_breaks',
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
    id: 'rope_far_failure',
    objective: 'what_breaks',
    level: 1,
    kind: 'choice',
    prompt: t('A RoPE model is run far past its trained length with no scaling. How does it usually fail?'),
    choices: [
      {
        id: 'degrades_silently',
        text: t('Quietly: the slow pairs reach angles never seen, and quality falls with no error.'),
        correct: true,
        why: t(
          'RoPE has an angle for every position, so nothing stops it; the model just reads angles it never learned.',
        ),
      },
      {
        id: 'raises_error',
        text: t('Loudly: the library raises an error at the first position past the trained length.'),
        why: t(
          "That is a learned table's failure: it has no row to look up, while RoPE computes an angle for any position.",
        ),
      },
      {
        id: 'wraps_exactly',
        text: t('Not at all: each angle repeats after 2π, so far positions look like nearer ones.'),
        why: t(
          "Each pair's angle repeats, but the pairs turn at different speeds, so their combination far out is new.",
        ),
      },
    ],
  },
  {
    id: 'scaling_config_lost',
    objective: 'what_breaks',
    level: 1,
    kind: 'choice',
    prompt: t('An extended RoPE checkpoint is served with its rope_parameters left out of the config. What happens?'),
    choices: [
      {
        id: 'reads_unlearned',
        text: t('It runs, but past its original length it reads positions it never learned.'),
        correct: true,
        why: t(
          'Nothing checks that the config matches the weights: the model loads and runs with the original angles.',
        ),
      },
      {
        id: 'refuses_to_load',
        text: t('The library refuses to load it and names the missing entry, so nothing is served.'),
        why: t('The entry is optional: without it the library simply applies no scaling.'),
      },
      {
        id: 'infers_scaling',
        text: t('The library works the scaling out from the weights, so it runs as it was tuned.'),
        why: t('The weights do not record how positions were scaled; only the config does.'),
      },
    ],
  },
  {
    id: 'why_ntk_yarn',
    objective: 'long_context',
    level: 1,
    kind: 'choice',
    prompt: t('Why are NTK-aware scaling and YaRN preferred to plain interpolation for large stretches?'),
    choices: [
      {
        id: 'keep_fast_pairs',
        text: t('They keep the fast pairs that carry local word order; interpolation blurs those.'),
        correct: true,
        why: t('Interpolation slows every frequency equally; NTK and YaRN leave the fast ones almost as trained.'),
      },
      {
        id: 'no_fine_tune',
        text: t('They need no fine-tune at all, where interpolation needs a long one to recover.'),
        why: t('All of them are followed by a short fine-tune; the difference is what happens to the fast pairs.'),
      },
      {
        id: 'extra_parameters',
        text: t('They add trained parameters for the new positions, which interpolation does not.'),
        why: t('None of them adds parameters: each only changes the angles, through the positions or the base.'),
      },
    ],
  },
  {
    id: 'rope_score',
    objective: 'rope_relative',
    level: 2,
    kind: 'numeric',
    // Any distance but the lesson's own 4 (3 and 7, whose score it prints).
    draw: (random) => {
      const m = whole(random, 2, 60);
      return { m, n: m + pick(random, [2, 3, 5, 6, 7, 9, 10, 11]) };
    },
    ask: ({ m, n }) =>
      t(
        'RoPE with 2 dimensions and θ = 1: q = k = (1, 0), the query at position {m} and the key at {n}. What is the score q·k after rotation?',
        { m: grouped(m), n: grouped(n) },
      ),
    answerWith: (engine, { m, n }) => dot(engine.applyRope([1, 0], m), engine.applyRope([1, 0], n)),
    formulaWith: ({ m, n }) => Math.cos(n - m),
    formulaText: 'cos(n − m)',
    tolerance: 0.005,
    toleranceText: t('within ±0.005 (three decimals)'),
    explainWith: ({ m, n }) =>
      t('The score is cos({n} − {m}) = cos {k}: only the distance counts.', {
        m: grouped(m),
        n: grouped(n),
        k: grouped(n - m),
      }),
  },
  {
    id: 'ntk_base',
    objective: 'context_extension',
    level: 2,
    kind: 'numeric',
    // Bases, widths and stretches of real models, none of them the lesson's worked one (10,000, 128, 8).
    draw: (random) => ({
      base: pick(random, [50000, 100000, 500000, 1000000]),
      d: pick(random, [64, 96, 256]),
      s: pick(random, [2, 4, 16]),
    }),
    ask: ({ base, d, s }) =>
      t(
        'NTK-aware scaling stretches a RoPE model with base {base} and d = {d} by s = {s}. What is the new base, base · s^(d/(d−2))?',
        { base: grouped(base), d: grouped(d), s: grouped(s) },
      ),
    answerWith: (engine, { base, d, s }) => engine.ntkScaledBase(base, s, d),
    formulaWith: ({ base, d, s }) => base * s ** (d / (d - 2)),
    formulaText: 'base · s^(d/(d−2))',
    tolerance: 0.005,
    relative: true,
    toleranceText: t('within 0.5%'),
    explainWith: ({ s }) =>
      t('The exponent d/(d−2) is just above 1, so the base grows a little more than {s}×.', { s: grouped(s) }),
  },
  {
    id: 'interpolated_position',
    objective: 'context_extension',
    level: 2,
    kind: 'numeric',
    // A trained length other than the lesson's 4,096, stretched 2, 4 or 16 times (never to its 32,768),
    // and a token past the trained length.
    draw: (random) => {
      for (;;) {
        const train = pick(random, [1024, 2048, 8192]);
        const target = train * pick(random, [2, 4, 16]);
        if (target !== 32768) return { train, target, pos: whole(random, train + 1, target - 1) };
      }
    },
    ask: ({ train, target, pos }) =>
      t(
        'Position interpolation stretches a model trained on {train} tokens to {target}. Which position does token {pos} take?',
        { train: grouped(train), target: grouped(target), pos: grouped(pos) },
      ),
    answerWith: (engine, { train, target, pos }) => engine.interpolatePositions([pos], train, target)[0],
    formulaWith: ({ train, target, pos }) => (pos * train) / target,
    formulaText: 'pos · L_train / L_new',
    tolerance: 0.5,
    toleranceText: t('within ±0.5 (the nearest whole position)'),
    explainWith: () => t('pos′ = pos · L_train / L_new: every position shrinks by the same factor.'),
  },
  {
    id: 'sinusoidal_entry',
    objective: 'sinusoidal',
    level: 2,
    kind: 'numeric',
    // The second pair's sine, at a position past 1 (the lesson prints position 1's first entry, sin 1).
    draw: (random) => ({ p: whole(random, 2, 40), d: pick(random, [8, 16, 32]) }),
    ask: ({ p, d }) =>
      t(
        "Sinusoidal codes with d = {d}: what is the third entry of position {p}'s code, sin({p} · ω₁), where ω₁ = 10000^(−2/d)?",
        { p: grouped(p), d: grouped(d) },
      ),
    answerWith: (engine, { p, d }) => engine.sinusoidalEncoding(p + 1, d).data[p * d + 2],
    formulaWith: ({ p, d }) => Math.sin(p * 10000 ** (-2 / d)),
    formulaText: 'sin(p · 10000^(−2/d))',
    tolerance: 0.005,
    toleranceText: t('within ±0.005 (three decimals)'),
    explainWith: () => t('The second pair turns at ω₁ = 10000^(−2/d), slower than the first pair, whose ω₀ = 1.'),
  },
  {
    id: 'rope_depends_on',
    objective: 'rope_relative',
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
    id: 'alibi_slope',
    objective: 'alibi_and_mask',
    level: 2,
    kind: 'numeric',
    // 16 to 128 heads, powers of 2 as in ALiBi's models (the formula holds only for those; the
    // lesson works 8), any head of them, and never the lesson's slope of 1/8: 236 draws, so a
    // retake asks for the same slope about 2% of the time.
    draw: (random) => {
      for (;;) {
        const heads = pick(random, [16, 32, 64, 128]);
        const head = whole(random, 1, heads);
        if (8 * head !== 3 * heads) return { heads, head };
      }
    },
    ask: ({ heads, head }) =>
      t(
        'ALiBi with {heads} heads gives head h (counting from 1) the slope 2^(−8h/{heads}). What is the slope of head {head}?',
        { heads: grouped(heads), head: grouped(head) },
      ),
    answerWith: (engine, { heads, head }) => engine.alibiSlopes(heads)[head - 1],
    formulaWith: ({ heads, head }) => 2 ** ((-8 * head) / heads),
    formulaText: '2^(−8h/H) for head h of H',
    tolerance: 0.005,
    relative: true,
    toleranceText: t('within 0.5%'),
    explainWith: ({ heads }) =>
      t('Each head multiplies the slope of the one before by 2^(−8/{heads}).', { heads: grouped(heads) }),
  },
  {
    id: 'pi_vs_ntk',
    objective: 'context_extension',
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
    objective: 'pooled_order',
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
    objective: 'sinusoidal',
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
    objective: 'rope_relative',
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
    objective: 'context_extension',
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
    objective: 'alibi_and_mask',
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
    objective: 'context_extension',
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
 * Each graded item's second variant: the same objective, level and kind, asked another way. An
 * attempt draws one variant per slot (drawnVariant), so a retake is a new test. `slot` names the
 * item whose placeholder it fills.
 */
const SECOND_VARIANTS = [
  {
    id: 'shuffle_pooled',
    slot: 'why_positions',
    objective: 'order_blindness',
    level: 1,
    kind: 'choice',
    prompt: t(
      'A model with no positional information reads "the cat chased the dog" and "the dog chased the cat". What does attention pooled over each sentence give?',
    ),
    choices: [
      {
        id: 'same_vector',
        text: t('The same vector: the same words give the same outputs, only in another order.'),
        correct: true,
        why: t(
          "Without positions a word's output depends only on which words are there, so the pooled sum cannot change.",
        ),
      },
      {
        id: 'near_same',
        text: t('Nearly the same vector: they differ a little, since the subject has moved.'),
        why: t(
          'Nothing records where a word sits, so there is not even a small difference: the sum is exactly the same.',
        ),
      },
      {
        id: 'opposite',
        text: t('Opposite vectors: swapping subject and object flips the sign of the result.'),
        why: t('Swapping words only reorders the same outputs; nothing in attention flips a sign because of order.'),
      },
      {
        id: 'unrelated',
        text: t('Unrelated vectors: each sentence is a new input that attention scores afresh.'),
        why: t('Scoring afresh gives the same scores: they depend on the words, not on where the words sit.'),
      },
    ],
  },
  {
    id: 'long_report',
    slot: 'choose_long_context',
    objective: 'long_context',
    level: 1,
    kind: 'choice',
    prompt: t(
      'A model trained on 8,192 tokens must answer questions about a 200-page report, and no fine-tune is possible. What is the usual choice?',
    ),
    choices: [
      {
        id: 'chunk',
        text: t('Split the report into chunks that fit, and retrieve or summarise them in turn.'),
        correct: true,
        why: t('Without a fine-tune, keeping every input inside the trained length is the safe choice.'),
      },
      {
        id: 'feed_all',
        text: t('Feed the whole report at once: attention can look back as far as the text goes.'),
        why: t('Attention can reach that far, but past the trained length it reads positions the model never learned.'),
      },
      {
        id: 'drop_positions',
        text: t('Remove the position code at inference, so that no position can fall out of range.'),
        why: t('A model trained with positions relies on them: removing them changes every score it learned.'),
      },
      {
        id: 'longer_table',
        text: t('Give the model a longer learned position table, and keep all its other weights.'),
        why: t('New rows of a table are untrained: they mean nothing until the model is trained with them.'),
      },
    ],
  },
  {
    id: 'rope_where',
    slot: 'alibi_where',
    objective: 'schemes',
    level: 1,
    kind: 'choice',
    prompt: t(
      'Which scheme adds nothing to the token vectors and instead turns each query and key by an angle that grows with its position?',
    ),
    choices: [
      {
        id: 'rope',
        text: 'RoPE',
        correct: true,
        why: t('RoPE rotates each pair of query and key dimensions by position times that pair’s frequency.'),
      },
      {
        id: 'alibi',
        text: 'ALiBi',
        why: t('ALiBi leaves the queries and keys alone: it subtracts a distance penalty from the scores.'),
      },
      {
        id: 'sinusoidal',
        text: t('Sinusoidal codes'),
        why: t('Sinusoidal codes are added to the token vectors; nothing is rotated.'),
      },
      {
        id: 'learned',
        text: t('Learned absolute positions'),
        why: t('A learned table adds a trained row to each token vector; nothing is rotated.'),
      },
    ],
  },
  {
    id: 'rope_base_where',
    slot: 'learned_limit',
    objective: 'schemes',
    level: 1,
    kind: 'choice',
    prompt: t('Where does a RoPE checkpoint keep the base of its rotation angles (rope_theta)?'),
    choices: [
      {
        id: 'config',
        text: t('In its config: the base is a setting, and no trained weight stores it.'),
        correct: true,
        why: t('RoPE has no trained parameters: its angles come from the base and the position alone.'),
      },
      {
        id: 'weights',
        text: t('In its weights: a trained tensor of angles holds one row per position.'),
        why: t('That is a learned table; RoPE computes its angles and stores none of them.'),
      },
      {
        id: 'tokenizer',
        text: t('In its tokenizer: each token id carries its position into the model.'),
        why: t('The tokenizer maps text to ids and knows nothing of positions; those are added inside the model.'),
      },
    ],
  },
  {
    id: 'nope_order_source',
    slot: 'causal_mask_weak',
    objective: 'what_breaks',
    level: 1,
    kind: 'choice',
    prompt: t(
      'A decoder trained with no position code still tells some word orders apart. Where does its sense of order come from?',
    ),
    choices: [
      {
        id: 'mask',
        text: t('From the causal mask: what a token can attend to depends on where it sits.'),
        correct: true,
        why: t('Each token sees only the words before it, so its place leaks into its output, weakly.'),
      },
      {
        id: 'word_vectors',
        text: t("From its word vectors: training stores each word's usual place in a sentence."),
        why: t("A word's vector is the same wherever it sits, so it cannot tell this sentence's order."),
      },
      {
        id: 'softmax',
        text: t('From softmax: its weights fall off with the distance between two of the words.'),
        why: t('Softmax only normalises the scores; with no positions nothing in a score measures distance.'),
      },
    ],
  },
  {
    id: 'learned_far_failure',
    slot: 'rope_far_failure',
    objective: 'what_breaks',
    level: 1,
    kind: 'choice',
    prompt: t('A model with a learned table of 2,048 positions is given 3,000 tokens. What happens?'),
    choices: [
      {
        id: 'no_row',
        text: t('It fails loudly: position 2,048 has no row, so the lookup cannot be done.'),
        correct: true,
        why: t('A learned table has as many rows as trained positions; past them there is nothing to look up.'),
      },
      {
        id: 'quiet_decline',
        text: t('It fails quietly: quality falls as positions pass the trained length.'),
        why: t("That is RoPE's failure, which computes an angle for any position; a table has no row to give."),
      },
      {
        id: 'wraps_round',
        text: t('Nothing fails: positions past 2,048 reuse the rows at the start of the table.'),
        why: t('A learned table does not wrap round: nothing maps position 2,048 back to its first row.'),
      },
    ],
  },
  {
    id: 'perplexity_past_length',
    slot: 'scaling_config_lost',
    objective: 'what_breaks',
    level: 1,
    kind: 'choice',
    prompt: t(
      "A RoPE model's perplexity is flat up to its trained 4,096 tokens. With no scaling, what usually happens past 4,096?",
    ),
    choices: [
      {
        id: 'rises',
        text: t('It climbs steeply: the slow pairs reach angles the model never saw.'),
        correct: true,
        why: t('Past the trained length the slow pairs turn further than in training, and the model misreads them.'),
      },
      {
        id: 'flat',
        text: t('It stays flat: RoPE scores depend only on distance, and distances repeat.'),
        why: t('Short distances repeat, but long ones are new, and their angles on the slow pairs were never trained.'),
      },
      {
        id: 'falls',
        text: t('It falls: more context always gives the model more to predict from.'),
        why: t('More context helps only while the model can read its positions; past the trained length it cannot.'),
      },
    ],
  },
  {
    id: 'why_short_finetune',
    slot: 'why_ntk_yarn',
    objective: 'long_context',
    level: 1,
    kind: 'choice',
    prompt: t('Why is a short fine-tune usually run after rescaling the positions of a RoPE model?'),
    choices: [
      {
        id: 'adapt',
        text: t('The rescaled angles are near the trained ones, so a little training adapts it.'),
        correct: true,
        why: t('Rescaling keeps the angles in range but shifts them slightly; a short run lets the model adjust.'),
      },
      {
        id: 'new_rows',
        text: t('It trains the new position rows for the longer context, which start at random.'),
        why: t('RoPE has no position rows to train: rescaling only changes the angles it computes.'),
      },
      {
        id: 'repair_short',
        text: t('It repairs short inputs, which rescaling always leaves unreadable for good.'),
        why: t('Rescaling costs short inputs a little, not everything; the fine-tune is for the new angles.'),
      },
    ],
  },
  {
    id: 'rope_score_sine',
    slot: 'rope_score',
    objective: 'rope_relative',
    level: 2,
    kind: 'numeric',
    // The query along the first axis and the key along the second: the score is a sine of the distance.
    draw: (random) => {
      const m = whole(random, 2, 60);
      return { m, n: m + pick(random, [1, 2, 3, 5, 6, 7, 9, 10, 11]) };
    },
    ask: ({ m, n }) =>
      t(
        'RoPE with 2 dimensions and θ = 1: q = (1, 0) at position {m}, k = (0, 1) at position {n}. What is the score q·k after rotation?',
        { m: grouped(m), n: grouped(n) },
      ),
    answerWith: (engine, { m, n }) => dot(engine.applyRope([1, 0], m), engine.applyRope([0, 1], n)),
    formulaWith: ({ m, n }) => Math.sin(m - n),
    formulaText: 'sin(m − n)',
    tolerance: 0.005,
    toleranceText: t('within ±0.005 (three decimals)'),
    explainWith: ({ m, n }) =>
      t('The score is sin({m} − {n}) = sin(−{k}): again only the distance counts.', {
        m: grouped(m),
        n: grouped(n),
        k: grouped(n - m),
      }),
  },
  {
    id: 'ntk_pair_slowdown',
    slot: 'ntk_base',
    objective: 'context_extension',
    level: 2,
    kind: 'numeric',
    // A pair in the first half (the slowest pair slows by exactly s, as the lesson shows), and a
    // width and stretch other than the lesson's worked 128 and 8.
    draw: (random) => {
      const d = pick(random, [64, 96, 256]);
      return { d, s: pick(random, [2, 4, 16]), i: whole(random, 1, d / 4) };
    },
    ask: ({ d, s, i }) =>
      t(
        'NTK-aware scaling stretches a RoPE model with d = {d} by s = {s}. By what factor does pair i = {i} slow down, s^(2i/(d−2))?',
        { d: grouped(d), s: grouped(s), i: grouped(i) },
      ),
    answerWith: (engine, { d, s, i }) =>
      engine.ropeFrequencies(d, 10000)[i] / engine.ropeFrequencies(d, engine.ntkScaledBase(10000, s, d))[i],
    formulaWith: ({ d, s, i }) => s ** ((2 * i) / (d - 2)),
    formulaText: 's^(2i/(d−2))',
    tolerance: 0.005,
    relative: true,
    toleranceText: t('within 0.5%'),
    explainWith: ({ s }) =>
      t('The fast pairs slow by little; only the slowest pair slows by the full {s}×.', { s: grouped(s) }),
  },
  {
    id: 'interpolated_distance',
    slot: 'interpolated_position',
    objective: 'context_extension',
    level: 2,
    kind: 'numeric',
    // A trained length other than the lesson's 4,096, stretched 2, 4 or 16 times (never to its
    // 32,768), and a distance in tokens.
    draw: (random) => {
      for (;;) {
        const train = pick(random, [1024, 2048, 8192]);
        const target = train * pick(random, [2, 4, 16]);
        if (target !== 32768) return { train, target, gap: whole(random, 3, 999) };
      }
    },
    ask: ({ train, target, gap }) =>
      t(
        'Position interpolation stretches a model trained on {train} tokens to {target}. Two tokens are {gap} apart: how far apart are their interpolated positions?',
        { train: grouped(train), target: grouped(target), gap: grouped(gap) },
      ),
    answerWith: (engine, { train, target, gap }) => {
      const [a, b] = engine.interpolatePositions([0, gap], train, target);
      return b - a;
    },
    formulaWith: ({ train, target, gap }) => (gap * train) / target,
    formulaText: 'gap · L_train / L_new',
    tolerance: 0.005,
    toleranceText: t('within ±0.005 (three decimals)'),
    explainWith: () => t('Every distance shrinks by the same factor L_train / L_new, so neighbours sit closer.'),
  },
  {
    id: 'sinusoidal_cosine',
    slot: 'sinusoidal_entry',
    objective: 'sinusoidal',
    level: 2,
    kind: 'numeric',
    // The second pair's cosine, at a position past 1.
    draw: (random) => ({ p: whole(random, 2, 40), d: pick(random, [8, 16, 32]) }),
    ask: ({ p, d }) =>
      t(
        "Sinusoidal codes with d = {d}: what is the fourth entry of position {p}'s code, cos({p} · ω₁), where ω₁ = 10000^(−2/d)?",
        { p: grouped(p), d: grouped(d) },
      ),
    answerWith: (engine, { p, d }) => engine.sinusoidalEncoding(p + 1, d).data[p * d + 3],
    formulaWith: ({ p, d }) => Math.cos(p * 10000 ** (-2 / d)),
    formulaText: 'cos(p · 10000^(−2/d))',
    tolerance: 0.005,
    toleranceText: t('within ±0.005 (three decimals)'),
    explainWith: () => t('Each pair holds a sine and a cosine of the same angle; the second pair turns at ω₁.'),
  },
  {
    id: 'alibi_penalty',
    slot: 'alibi_slope',
    objective: 'alibi_and_mask',
    level: 2,
    kind: 'numeric',
    // 4, 8 or 16 heads, one of the first four, and a key some tokens back.
    draw: (random) => ({
      heads: pick(random, [4, 8, 16]),
      head: whole(random, 1, 4),
      distance: whole(random, 2, 40),
    }),
    ask: ({ heads, head, distance }) =>
      t(
        'ALiBi with {heads} heads: head {head} has the slope 2^(−8·{head}/{heads}). What bias does it add to the score of a key {distance} tokens before the query?',
        { heads: grouped(heads), head: grouped(head), distance: grouped(distance) },
      ),
    answerWith: (engine, { heads, head, distance }) => {
      const length = distance + 1;
      return engine.alibiBias(engine.alibiSlopes(heads)[head - 1], length).data[distance * length];
    },
    formulaWith: ({ heads, head, distance }) => -distance * 2 ** ((-8 * head) / heads),
    formulaText: '−distance · 2^(−8h/H)',
    tolerance: 0.005,
    relative: true,
    toleranceText: t('within 0.5%'),
    explainWith: () => t('The penalty is the slope times the distance, subtracted: far keys lose more.'),
  },
  {
    id: 'rope_shift_both',
    slot: 'rope_depends_on',
    objective: 'rope_relative',
    level: 2,
    kind: 'choice',
    prompt: t(
      'Under RoPE, a query and a key both move 500 positions further into the text. What happens to their score?',
    ),
    choices: [
      {
        id: 'unchanged',
        text: t('It stays the same: both turn 500 steps more, and only the gap counts.'),
        correct: true,
        why: t('The score depends on n − m, which the shift leaves as it was.'),
      },
      {
        id: 'smaller',
        text: t('It gets smaller: scores decay the further into the text a pair sits.'),
        why: t('RoPE’s decay is with the distance between the two, not with how far into the text they are.'),
      },
      {
        id: 'larger',
        text: t('It gets larger: the rotation angles grow, so the product grows.'),
        why: t('Larger angles turn both vectors, but the dot product sees only their difference.'),
      },
      {
        id: 'unpredictable',
        text: t('It changes unpredictably: each vector turns by an angle of its own.'),
        why: t('Each turns by an angle of its own, but the two turns still differ by the same amount.'),
      },
    ],
  },
  {
    id: 'ntk_fast_pair',
    slot: 'pi_vs_ntk',
    objective: 'context_extension',
    level: 2,
    kind: 'choice',
    prompt: t('NTK-aware scaling stretches a RoPE model by s = 8. What happens to its fastest pair, θ₀?'),
    choices: [
      {
        id: 'kept',
        text: t('It stays at θ₀ = 1: a larger base changes only the slower pairs.'),
        correct: true,
        why: t('θ₀ = base⁰ = 1 whatever the base, so local order is read as in training.'),
      },
      {
        id: 'slowed',
        text: t('It slows by 8×, as every pair does under position interpolation.'),
        why: t('That is what interpolation does; NTK changes the base, which θ₀ does not depend on.'),
      },
      {
        id: 'sped_up',
        text: t('It turns 8× faster, to make up for the slower pairs.'),
        why: t('Nothing speeds up: a larger base can only lower θ_i = base^(−2i/d) for i > 0.'),
      },
    ],
  },
];

/**
 * The bank: every variant, each second variant after the first of its slot (the lesson's order).
 * A slot is the first variant's id, the placeholder's data-item in lesson.md.
 */
export const SELF_TEST_ITEMS = FIRST_VARIANTS.flatMap((item) => [
  item,
  ...SECOND_VARIANTS.filter((variant) => variant.slot === item.id),
]);

/** The slot `item` fills: the placeholder it is shown in. */
export function slotOf(item) {
  return item.slot ?? item.id;
}

/** The slots of `bank`, in its order. */
export function slotsOf(bank = SELF_TEST_ITEMS) {
  return [...new Set(bank.map(slotOf))];
}

/**
 * The variant of `slot` the attempt with `seed` asks, among those in `bank`: drawn from the seed
 * (the same seed, the same variant: a resumed attempt keeps it; a new seed draws again).
 */
export function drawnVariant(slot, seed, bank = SELF_TEST_ITEMS) {
  const variants = bank.filter((item) => slotOf(item) === slot);
  if (variants.length <= 1) return variants[0];
  return variants[Math.floor(attemptRandom(`${seed}:${slot}:variant`)() * variants.length)];
}

/** Whether the attempt with `seed` asks `item` (the variant its slot drew). */
export function isDrawn(item, seed, bank = SELF_TEST_ITEMS) {
  return drawnVariant(slotOf(item), seed, bank) === item;
}

/**
 * The first seed, counting up from 00000000, whose attempt draws every item of `ids` (a record kept
 * without its seed, read back from what a course site holds), or null when none of the first
 * `tries` does (answers to two variants of one slot are never drawn together).
 */
export function seedDrawing(ids, bank = SELF_TEST_ITEMS, tries = 1 << 20) {
  const wanted = bank.filter((item) => ids.includes(item.id));
  for (let n = 0; n < tries; n++) {
    const seed = n.toString(16).padStart(8, '0');
    if (wanted.every((item) => isDrawn(item, seed, bank))) return seed;
  }
  return null;
}

/** The items the attempt with `seed` asks, one per slot of `bank`, as it asks them (itemForAttempt). */
export function attemptItems(seed, bank = SELF_TEST_ITEMS) {
  return slotsOf(bank).map((slot) => itemForAttempt(drawnVariant(slot, seed, bank), seed));
}

/** The answers the lesson's worked examples print: no attempt's answer is within twice its tolerance of one. */
export const PRINTED_ANSWERS = [-0.654, 82685, 1500, 0.841, 0.125];

function nearPrinted(item, value) {
  const allowed = item.relative ? Math.abs(value) * item.tolerance : item.tolerance;
  return PRINTED_ANSWERS.some((printed) => Math.abs(printed - value) <= 2 * allowed);
}

/** A whole number from `low` to `high`, both included, from `random` (numbers in [0, 1)). */
function whole(random, low, high) {
  return low + Math.floor(random() * (high - low + 1));
}

/** One of `list`, from `random`. */
function pick(random, list) {
  return list[Math.floor(random() * list.length)];
}

/**
 * `item` as the attempt with `seed` asks it: a numeric item with its parameters drawn from the seed
 * (the same seed, the same numbers: a resumed attempt keeps them) and its prompt, explanation,
 * engine answer answer(engine) and formula() for them; any other item as it is.
 */
export function itemForAttempt(item, seed) {
  if (!item.draw) return item;
  const random = attemptRandom(`${seed}:${item.id}:draw`);
  // A draw whose answer is one the lesson prints (or near it) is drawn again: copying it must not pass.
  let params;
  do params = item.draw(random);
  while (nearPrinted(item, item.formulaWith(params)));
  return {
    ...item,
    params,
    prompt: item.ask(params),
    explain: item.explainWith(params),
    answer: (engine) => item.answerWith(engine, params),
    formula: () => item.formulaWith(params),
  };
}

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

/** The self-tests a reader or a course can choose: Level 1's checks, Level 2's, or both. */
export const TEST_LEVELS = ['1', '2', 'all'];

/** `text` (a ?level= value, a course's setting) as one of TEST_LEVELS: anything else is both levels. */
export function testLevel(text) {
  return TEST_LEVELS.includes(String(text)) ? String(text) : 'all';
}

/** Whether `item` belongs to the test of `level` ('1', '2' or 'all'): the other level's items never count. */
export function inLevel(item, level) {
  return level === 'all' || String(item.level) === level;
}

/** Whether `item` counts towards the score: the checks do, predictions do not. */
export function isGraded(item) {
  return item.kind !== 'predict';
}

/** The share of the graded checks a learner must get right to pass (cmi5 masteryScore, SCORM mastery). */
export const MASTERY_SCORE = 0.8;
