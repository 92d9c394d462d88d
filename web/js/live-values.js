// The registry of every live number on the page: the name lesson.md writes in {{live:NAME}} → the
// engine call (with the worked example's inputs) and the format the lesson prints it in. main.js
// fills data-live elements from it, the site build rejects a name it lacks, the browser test compares.
import { formatValue } from './format.js';

// ---- the lesson's worked examples: each input the prose quotes, written once -----------------

const DOG_BITES_MAN = 'dog bites man';
const MAN_BITES_DOG = 'man bites dog';

/** The hand-worked attention example: dog = (1, 0), bites = (0, 1), man = (1, 1); q = k = v. */
export const ATTENTION_X = [
  [1, 0],
  [0, 1],
  [1, 1],
];
/** The same rows with rows 1 and 3 swapped: man, bites, dog. */
export const ATTENTION_PX = [ATTENTION_X[2], ATTENTION_X[1], ATTENTION_X[0]];

/** The sinusoidal table the lesson prints: positions 0..2, four dimensions; dot products at d = 32. */
const SINUSOIDAL = { positions: 3, dim: 4, dotDim: 32 };
/** RoPE on one pair: q = k = (1, 0); queries at 3, 103 and 0, keys up to 5 positions later. */
const ROPE = { q: [1, 0], k: [1, 0], queryPositions: [3, 103, 0], maxDistance: 5, periodDim: 64 };
/** Stretching a 4,096-token model to 32,768 tokens; position 32,000 as the example. */
const EXTENSION = { trainedLength: 4096, targetLength: 32768, examplePosition: 32000 };
/** NTK-aware scaling of base 10,000 by 8 for a head dimension of 128. */
const NTK = { base: 10000, scale: 8, headDim: 128 };
/** GPT-2's learned position table: 1,024 positions of 768 numbers (quoted facts, not computed). */
const GPT2 = { positions: 1024, width: 768 };

/** A row-major matrix for the engine: { rows, cols, data }. */
function matrix(rows) {
  return { rows: rows.length, cols: rows[0].length, data: Float64Array.from(rows.flat()) };
}
const row = (m, r) => Array.from(m.data.subarray(r * m.cols, (r + 1) * m.cols));
const at = (m, r, c) => m.data[r * m.cols + c];

const attention = (engine, rows) => engine.attention(matrix(rows), matrix(rows), matrix(rows), false);
const orderSimilarities = (engine) => engine.orderSimilarities(DOG_BITES_MAN, MAN_BITES_DOG);
const interpolated = (engine, position) =>
  engine.interpolatePositions([position], EXTENSION.trainedLength, EXTENSION.targetLength)[0];
/** The RoPE score q·k for the query at `queryPosition` and the key `distance` positions later. */
const ropeScore = (engine, queryPosition, distance) => {
  const scores = engine.ropeScoresOverDistance(ROPE.q, ROPE.k, ROPE.queryPositions, ROPE.maxDistance);
  return at(scores, ROPE.queryPositions.indexOf(queryPosition), distance);
};

// ---- the registry ------------------------------------------------------------------------------

/**
 * Live name → { format, value(engine, live) }: `value` calls the engine (live(name) reads another
 * entry, computed once). An entry marked derived multiplies quoted facts in the page and needs no engine.
 */
export const LIVE_QUANTITIES = {
  'order.none': { format: 'fixed3', value: (e) => orderSimilarities(e).none },
  'order.sinusoidal': { format: 'fixed3', value: (e) => orderSimilarities(e).sinusoidal },
  'order.rope': { format: 'fixed3', value: (e) => orderSimilarities(e).rope },
  'order.causal': { format: 'fixed3', value: (e) => orderSimilarities(e).causal },
  'order.dog-row-difference': {
    format: 'sci1-py',
    // "dog" is word 1 of one sentence and word 3 of the other: with no positions its rows match.
    value: (e) => {
      const dogFirst = e.encodeSentence(DOG_BITES_MAN, 'none', false);
      const dogLast = e.encodeSentence(MAN_BITES_DOG, 'none', false);
      return Math.max(...row(dogFirst, 0).map((v, j) => Math.abs(v - at(dogLast, 2, j))));
    },
  },
  'attn.dog-scores': { format: 'trimmed-list', value: (e) => row(attention(e, ATTENTION_X).scores, 0) },
  'attn.dog-scaled-scores': { format: 'trimmed-list', value: (e) => row(attention(e, ATTENTION_X).scaledScores, 0) },
  'attn.dog-weights': { format: 'fixed3-list', value: (e) => row(attention(e, ATTENTION_X).weights, 0) },
  'attn.dog-weight-0': { format: 'fixed3', value: (e, live) => live('attn.dog-weights')[0] },
  'attn.dog-weight-1': { format: 'fixed3', value: (e, live) => live('attn.dog-weights')[1] },
  'attn.dog-weight-2': { format: 'fixed3', value: (e, live) => live('attn.dog-weights')[2] },
  'attn.dog-output': { format: 'fixed3-tuple', value: (e) => row(attention(e, ATTENTION_X).output, 0) },
  // After the swap "dog" is row 3.
  'attn.dog-output-shuffled': { format: 'fixed3-tuple', value: (e) => row(attention(e, ATTENTION_PX).output, 2) },
  'sin.omega0': { format: 'trimmed', value: (e) => e.ropeFrequencies(SINUSOIDAL.dim)[0] },
  'sin.omega1-inverse': { format: 'trimmed', value: (e) => 1 / e.ropeFrequencies(SINUSOIDAL.dim)[1] },
  'sin.dot-10-13': { format: 'fixed4', value: (e) => e.sinusoidalDot(10, 13, SINUSOIDAL.dotDim) },
  'sin.dot-70-73': { format: 'fixed4', value: (e) => e.sinusoidalDot(70, 73, SINUSOIDAL.dotDim) },
  'gpt2.position-parameters': { format: 'int', derived: true, value: () => GPT2.positions * GPT2.width },
  'rope.theta0': { format: 'trimmed', value: (e) => e.ropeFrequencies(2)[0] },
  'rope.q-at-3': { format: 'fixed3-tuple', value: (e) => Array.from(e.applyRope(ROPE.q, 3)) },
  'rope.q-at-3.x': { format: 'fixed3', value: (e, live) => live('rope.q-at-3')[0] },
  'rope.q-at-3.y': { format: 'fixed3', value: (e, live) => live('rope.q-at-3')[1] },
  'rope.k-at-7': { format: 'fixed3-tuple', value: (e) => Array.from(e.applyRope(ROPE.k, 7)) },
  'rope.k-at-7.x': { format: 'fixed3', value: (e, live) => live('rope.k-at-7')[0] },
  'rope.k-at-7.y': { format: 'fixed3', value: (e, live) => live('rope.k-at-7')[1] },
  'rope.score-3-7': { format: 'fixed3', value: (e) => ropeScore(e, 3, 4) },
  'rope.score-103-107': { format: 'fixed3', value: (e) => ropeScore(e, 103, 4) },
  'rope.score-distance-4': { format: 'fixed3', value: (e) => ropeScore(e, 0, 4) },
  'rope.score-3-8': { format: 'fixed3', value: (e) => ropeScore(e, 3, 5) },
  'rope.pair0-period': { format: 'int-plain', value: (e) => (2 * Math.PI) / e.ropeFrequencies(ROPE.periodDim)[0] },
  'interp.ratio': { format: 'fraction', value: (e) => interpolated(e, 1) },
  'interp.factor': { format: 'trimmed', value: (e, live) => 1 / live('interp.ratio') },
  'interp.example-result': { format: 'int', value: (e) => interpolated(e, EXTENSION.examplePosition) },
  'ntk.base': { format: 'int', value: (e) => e.ntkScaledBase(NTK.base, NTK.scale, NTK.headDim) },
  'ntk.factor': { format: 'fixed2', value: (e, live) => live('ntk.base') / NTK.base },
  'ntk.exponent': { format: 'fixed3', value: (e, live) => Math.log(live('ntk.base') / NTK.base) / Math.log(NTK.scale) },
  'ntk.theta0-after': { format: 'trimmed', value: (e, live) => e.ropeFrequencies(NTK.headDim, live('ntk.base'))[0] },
  'ntk.slowest-before': { format: 'sci-unicode', value: (e) => e.ropeFrequencies(NTK.headDim).at(-1) },
  'ntk.slowest-after': {
    format: 'sci-unicode',
    value: (e, live) => e.ropeFrequencies(NTK.headDim, live('ntk.base')).at(-1),
  },
  'ntk.slowdown': { format: 'trimmed', value: (e, live) => live('ntk.slowest-before') / live('ntk.slowest-after') },
  'extension.raw-over-band': {
    format: 'trimmed',
    value: (e) => {
      const { trainedLength, targetLength } = EXTENSION;
      const curves = e.contextExtensionCurves([targetLength], trainedLength, targetLength, NTK.headDim);
      return curves.angles.data[0] / curves.trainedMax;
    },
  },
};
// The printed table: sin.pe.P.C is one cell, sin.pe.1 the row the prose works through.
const sinusoidalTable = (e) => e.sinusoidalEncoding(SINUSOIDAL.positions, SINUSOIDAL.dim);
LIVE_QUANTITIES['sin.pe.1'] = { format: 'fixed3-tuple', value: (e) => row(sinusoidalTable(e), 1) };
for (let p = 0; p < SINUSOIDAL.positions; p++) {
  for (let c = 0; c < SINUSOIDAL.dim; c++)
    LIVE_QUANTITIES[`sin.pe.${p}.${c}`] = { format: 'fixed3', value: (e) => at(sinusoidalTable(e), p, c) };
}

function unknownLiveName(name) {
  return new Error(`unknown live quantity "${name}"`);
}

/**
 * The live numbers of one engine: { read(name) }, each computed on first read and kept. A call
 * that fails (say, a function this engine build lacks) fails only the quantities that read it.
 */
export function computeEngineResults(engine) {
  const outcomes = new Map();
  const read = (name) => {
    const quantity = LIVE_QUANTITIES[name];
    if (!quantity) throw unknownLiveName(name);
    if (!outcomes.has(name)) {
      try {
        outcomes.set(name, { value: quantity.value(engine, read) });
      } catch (error) {
        outcomes.set(name, { error });
      }
    }
    const outcome = outcomes.get(name);
    if (outcome.error) throw outcome.error;
    return outcome.value;
  };
  return { read };
}

/** The text a data-live element shows: its quantity's value in its own or the default format. */
export function liveText(name, results, format) {
  const quantity = LIVE_QUANTITIES[name];
  if (!quantity) throw unknownLiveName(name);
  const value = quantity.derived ? quantity.value() : results.read(name);
  return formatValue(value, format || quantity.format);
}
