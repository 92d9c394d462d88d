// The table of every live number on the page: quantity name → the engine computation behind it
// and the format the lesson prints it in. main.js fills data-live elements from it; the browser
// test imports the same module and compares.
import { formatValue } from './format.js';

const DOG_BITES_MAN = 'dog bites man';
const MAN_BITES_DOG = 'man bites dog';

/** A row-major matrix for the engine: { rows, cols, data }. */
function matrix(rows) {
  return { rows: rows.length, cols: rows[0].length, data: Float64Array.from(rows.flat()) };
}
const row = (m, r) => Array.from(m.data.subarray(r * m.cols, (r + 1) * m.cols));
const at = (m, r, c) => m.data[r * m.cols + c];

/** The hand-worked attention example: dog = (1, 0), bites = (0, 1), man = (1, 1); q = k = v. */
export const ATTENTION_X = [[1, 0], [0, 1], [1, 1]];
/** The same rows with rows 1 and 3 swapped: man, bites, dog. */
export const ATTENTION_PX = [ATTENTION_X[2], ATTENTION_X[1], ATTENTION_X[0]];

/**
 * The engine calls behind the live numbers, each run once on first use. A call that fails
 * (say, a function this engine build lacks) fails only the quantities that read it.
 */
export function computeEngineResults(engine) {
  const X = () => matrix(ATTENTION_X);
  const PX = () => matrix(ATTENTION_PX);
  const calls = {
    attentionX: () => engine.attention(X(), X(), X(), false),
    attentionPX: () => engine.attention(PX(), PX(), PX(), false),
    order: () => engine.orderSimilarities(DOG_BITES_MAN, MAN_BITES_DOG),
    dogRowDifference: () => {
      const dogFirst = engine.encodeSentence(DOG_BITES_MAN, 'none', false);
      const dogLast = engine.encodeSentence(MAN_BITES_DOG, 'none', false);
      return Math.max(...row(dogFirst, 0).map((v, j) => Math.abs(v - at(dogLast, 2, j))));
    },
    pe: () => engine.sinusoidalEncoding(3, 4),
    frequencies4: () => engine.ropeFrequencies(4),
    // q = k = (1, 0) on one pair; queries at 3, 103 and 0; keys 0..5 positions later.
    ropeScores: () => engine.ropeScoresOverDistance([1, 0], [1, 0], [3, 103, 0], 5),
    interpolated: () => engine.interpolatePositions([32000, 1], 4096, 32768),
    ntkBase: () => engine.ntkScaledBase(10000, 8, 128),
    slowest: () => engine.ropeFrequencies(128).at(-1),
    ntkFrequencies: () => engine.ropeFrequencies(128, engine.ntkScaledBase(10000, 8, 128)),
    curves: () => engine.contextExtensionCurves([32768], 4096, 32768, 128),
    qAt3: () => Array.from(engine.applyRope([1, 0], 3)),
    kAt7: () => Array.from(engine.applyRope([1, 0], 7)),
    theta0: () => engine.ropeFrequencies(2)[0],
    pair0: () => engine.ropeFrequencies(64)[0],
    dot1013: () => engine.sinusoidalDot(10, 13, 32),
    dot7073: () => engine.sinusoidalDot(70, 73, 32),
  };
  const results = {};
  for (const [key, call] of Object.entries(calls)) {
    let outcome = null;
    Object.defineProperty(results, key, {
      enumerable: true,
      get() {
        outcome ??= (() => {
          try {
            return { value: call() };
          } catch (error) {
            return { error };
          }
        })();
        if (outcome.error) throw outcome.error;
        return outcome.value;
      },
    });
  }
  return results;
}

/**
 * quantity → { format, value(r) } where r = computeEngineResults(engine). A quantity marked
 * derived multiplies quoted facts in the page rather than calling the engine.
 */
export const LIVE_QUANTITIES = {
  'order.none': { format: 'fixed3', value: (r) => r.order.none },
  'order.sinusoidal': { format: 'fixed3', value: (r) => r.order.sinusoidal },
  'order.rope': { format: 'fixed3', value: (r) => r.order.rope },
  'order.causal': { format: 'fixed3', value: (r) => r.order.causal },
  'order.dog-row-difference': { format: 'sci1-py', value: (r) => r.dogRowDifference },
  'attn.dog-scores': { format: 'trimmed-list', value: (r) => row(r.attentionX.scores, 0) },
  'attn.dog-scaled-scores': { format: 'trimmed-list', value: (r) => row(r.attentionX.scaledScores, 0) },
  'attn.dog-weights': { format: 'fixed3-list', value: (r) => row(r.attentionX.weights, 0) },
  'attn.dog-weight-0': { format: 'fixed3', value: (r) => at(r.attentionX.weights, 0, 0) },
  'attn.dog-weight-1': { format: 'fixed3', value: (r) => at(r.attentionX.weights, 0, 1) },
  'attn.dog-weight-2': { format: 'fixed3', value: (r) => at(r.attentionX.weights, 0, 2) },
  'attn.dog-output': { format: 'fixed3-tuple', value: (r) => row(r.attentionX.output, 0) },
  'attn.dog-output-shuffled': { format: 'fixed3-tuple', value: (r) => row(r.attentionPX.output, 2) },
  'sin.omega0': { format: 'trimmed', value: (r) => r.frequencies4[0] },
  'sin.omega1-inverse': { format: 'trimmed', value: (r) => 1 / r.frequencies4[1] },
  'sin.pe.1': { format: 'fixed3-tuple', value: (r) => row(r.pe, 1) },
  'sin.dot-10-13': { format: 'fixed4', value: (r) => r.dot1013 },
  'sin.dot-70-73': { format: 'fixed4', value: (r) => r.dot7073 },
  'gpt2.position-parameters': { format: 'int', derived: true, value: () => 1024 * 768 },
  'rope.theta0': { format: 'trimmed', value: (r) => r.theta0 },
  'rope.q-at-3': { format: 'fixed3-tuple', value: (r) => r.qAt3 },
  'rope.q-at-3.x': { format: 'fixed3', value: (r) => r.qAt3[0] },
  'rope.q-at-3.y': { format: 'fixed3', value: (r) => r.qAt3[1] },
  'rope.k-at-7': { format: 'fixed3-tuple', value: (r) => r.kAt7 },
  'rope.k-at-7.x': { format: 'fixed3', value: (r) => r.kAt7[0] },
  'rope.k-at-7.y': { format: 'fixed3', value: (r) => r.kAt7[1] },
  'rope.score-3-7': { format: 'fixed3', value: (r) => at(r.ropeScores, 0, 4) },
  'rope.score-103-107': { format: 'fixed3', value: (r) => at(r.ropeScores, 1, 4) },
  'rope.score-distance-4': { format: 'fixed3', value: (r) => at(r.ropeScores, 2, 4) },
  'rope.score-3-8': { format: 'fixed3', value: (r) => at(r.ropeScores, 0, 5) },
  'rope.pair0-period': { format: 'int-plain', value: (r) => (2 * Math.PI) / r.pair0 },
  'interp.ratio': { format: 'fraction', value: (r) => r.interpolated[1] },
  'interp.factor': { format: 'trimmed', value: (r) => 1 / r.interpolated[1] },
  'interp.example-result': { format: 'int', value: (r) => r.interpolated[0] },
  'ntk.base': { format: 'int', value: (r) => r.ntkBase },
  'ntk.factor': { format: 'fixed2', value: (r) => r.ntkBase / 10000 },
  'ntk.exponent': { format: 'fixed3', value: (r) => Math.log(r.ntkBase / 10000) / Math.log(8) },
  'ntk.theta0-after': { format: 'trimmed', value: (r) => r.ntkFrequencies[0] },
  'ntk.slowest-before': { format: 'sci-unicode', value: (r) => r.slowest },
  'ntk.slowest-after': { format: 'sci-unicode', value: (r) => r.ntkFrequencies.at(-1) },
  'ntk.slowdown': { format: 'trimmed', value: (r) => r.slowest / r.ntkFrequencies.at(-1) },
  'extension.raw-over-band': { format: 'trimmed', value: (r) => r.curves.angles.data[0] / r.curves.trainedMax },
};
for (let p = 0; p < 3; p++) {
  for (let c = 0; c < 4; c++) LIVE_QUANTITIES[`sin.pe.${p}.${c}`] = { format: 'fixed3', value: (r) => at(r.pe, p, c) };
}

/** The text a data-live element shows: its quantity's value in its own or the default format. */
export function liveText(name, results, format) {
  const quantity = LIVE_QUANTITIES[name];
  if (!quantity) throw new Error(`unknown live quantity "${name}"`);
  return formatValue(quantity.value(results), format || quantity.format);
}
