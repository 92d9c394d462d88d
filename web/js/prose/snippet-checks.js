// Recomputes the result each Python snippet's "# → …" comment claims, with the engine, and
// prints it the way Python would, so the page can compare it with the lesson's claim.
import { pyFloat, pyList, pyRound, pyStr, pyTuple, pyExponent } from '../locale/format.js';
import { ATTENTION_PX, ATTENTION_X, EXTENSION, NTK } from './live-values.js';

const matrix = (rows) => ({ rows: rows.length, cols: rows[0].length, data: Float64Array.from(rows.flat()) });
const rowsOf = (m) =>
  Array.from({ length: m.rows }, (_, r) => Array.from(m.data.subarray(r * m.cols, (r + 1) * m.cols)));
const pyRows3 = (m) => pyList(rowsOf(m).map((r) => pyTuple(r.map((v) => pyFloat(pyRound(v, 3))))));
const pyFixed = (x, digits) => x.toFixed(digits).replace(/^-(0\.0+)$/, '$1');

/**
 * check id → { source, claims(engine) → string[] }: the engine's answers, in the order the
 * snippet's claims appear. `source` says what computed them (shown on the badge).
 */
export const SNIPPET_CHECKS = {
  attention: {
    source: 'engine',
    claims(engine) {
      const X = matrix(ATTENTION_X);
      const PX = matrix(ATTENTION_PX);
      return [pyRows3(engine.attention(X, X, X, false).output), pyRows3(engine.attention(PX, PX, PX, false).output)];
    },
  },
  'sinusoidal-row': {
    source: 'engine',
    claims(engine) {
      const pe = engine.sinusoidalEncoding(2, 4);
      return [pyList(Array.from(pe.data.subarray(4, 8), (v) => pyStr(pyFixed(v, 3))))];
    },
  },
  'learned-table': {
    // The engine has no learned table: x_3 = E_dog + P_3 is plain addition, checked in the page.
    source: 'page',
    claims() {
      const eDog = [0.5, -0.2];
      const table = [
        [0, 0],
        [0, 0],
        [0, 0],
        [0.1, 0.3],
      ];
      return [pyList(eDog.map((e, i) => pyFloat(pyRound(e + table[3][i], 2)))), table.length > 1024 ? 'True' : 'False'];
    },
  },
  'rope-rotate': {
    source: 'engine',
    claims(engine) {
      const rotated = engine.applyRope([1, 0], 3);
      return [pyList(Array.from(rotated, (v) => pyStr(pyFixed(v, 3)))), pyFloat(engine.ropeFrequencies(2)[0])];
    },
  },
  'rope-distance': {
    source: 'engine',
    claims(engine) {
      // Rows: query at 3, at 0 (the distance alone), at 103; column 4 is the key 4 positions on.
      const s = engine.ropeScoresOverDistance([1, 0], [1, 0], [3, 0, 103], 4);
      return [0, 1, 2].map((r) => pyFloat(pyRound(s.data[r * s.cols + 4], 3)));
    },
  },
  interpolation: {
    source: 'engine',
    claims(engine) {
      const { examplePosition, trainedLength, targetLength } = EXTENSION;
      return [pyFloat(engine.interpolatePositions([examplePosition], trainedLength, targetLength)[0])];
    },
  },
  ntk: {
    source: 'engine',
    claims(engine) {
      // The lesson's worked example: its base and head dimension, stretched as far as interpolation is.
      const { base, headDim } = NTK;
      const baseNew = engine.ntkScaledBase(base, EXTENSION.targetLength / EXTENSION.trainedLength, headDim);
      const slowest = (b) => engine.ropeFrequencies(headDim, b).at(-1);
      return [
        pyFloat(pyRound(baseNew / base, 2)),
        String(Math.round(baseNew)),
        pyTuple([pyStr(pyExponent(slowest(base), 2)), pyStr(pyExponent(slowest(baseNew), 2))]),
        pyFloat(pyRound(slowest(base) / slowest(baseNew), 6)),
      ];
    },
  },
};
