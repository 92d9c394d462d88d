// @ts-check
// The registry of every live number on the page: the name lesson.md writes in {{live:NAME}} → the
// engine call (with the worked example's inputs) and the format the lesson prints it in. main.js
// fills data-live elements from it, the site build rejects a name it lacks, the browser test compares.
// LIVE_PARAMETERS are the inputs the prose lets the reader move ({{param:NAME}}): each quantity
// declares the parameters it reads (`inputs`), and the page recomputes those dependents.
import { formatValue } from '../locale/format.js';
import { numberRule } from '../chart-kit/number-rule.js';
import { t } from '../locale/i18n.js';
import { CHART_DECLARATIONS, PRECISION_SAMPLES } from '../charts/declarations.js';
import { logSpacedWholes } from '../chart-kit/scales.js';
import { SINCE_2024_QUANTITIES } from './since-2024-values.js';

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
/** RoPE on one pair: q = k = (1, 0), the query at 3 and the key at 7 (then both 100 later, and the key at 8). */
const ROPE = { q: [1, 0], k: [1, 0], query: 3, key: 7, theta: 1, periodDim: 64 };
/** Stretching a 4,096-token model to 32,768 tokens; position 32,000 as the example. */
export const EXTENSION = { trainedLength: 4096, targetLength: 32768, examplePosition: 32000 };
/** NTK-aware scaling of base 10,000 for a head dimension of 128, by the stretch of EXTENSION (8×). */
export const NTK = { base: 10000, headDim: 128 };
/**
 * Section 6's configs (quoted facts): Gemma 4's full-attention layers (proportional RoPE, a quarter
 * of the pairs turning, base 1,000,000, heads of 512); Qwen2.5-VL's M-RoPE (64 pairs, base
 * 1,000,000, mrope_section 16 / 24 / 24 in order); Llama 4's layers without RoPE (floor_scale
 * 8,192, attn_scale 0.1), read at tokens 1,048,576 and 10,000,000 (positions from 0).
 */
const PROPORTIONAL = { headDim: 512, base: 1e6, partial: 0.25 };
const MROPE = { headDim: 128, base: 1e6, section: [16, 24, 24] };
const LLAMA4_NOPE = { floorScale: 8192, attnScale: 0.1, tokens: [1048576, 10000000] };
/** GPT-2's learned position table: 1,024 positions of 768 numbers (quoted facts, not computed). */
const GPT2 = { positions: 1024, width: 768 };

// The inputs each family of quantities reads (a dependent recomputes when one of them moves).
const INTERPOLATION = ['extension.trained', 'extension.target'];
// NTK's stretch s is the interpolation's target / trained: one stretch for both halves of the story.
const NTK_INPUTS = [...INTERPOLATION, 'extension.base', 'extension.d'];
const CLOCK = ['rope.query', 'rope.key'];

/**
 * A rotated vector of the clock (`field` of ropeClock) as live number `name`, with its parts `name`.x
 * and `name`.y (the factors of the written-out score, so a negative one prints in parentheses).
 */
const clockVector = (name, field) => ({
  [name]: { format: 'fixed3-tuple', inputs: CLOCK, value: (e, live, p) => Array.from(ropeClock(e, p)[field]) },
  [`${name}.x`]: { format: 'fixed3-factor', inputs: CLOCK, value: (e, live) => live(name)[0] },
  [`${name}.y`]: { format: 'fixed3-factor', inputs: CLOCK, value: (e, live) => live(name)[1] },
});

// ---- the parameters the prose makes movable ------------------------------------------------------

/** A section's parameter values: name → value (the lesson's value where a name has no entry). */
/** @typedef {Record<string, number>} ParameterValues */

/**
 * A handle on other parameters' state: it shows read(values), and moving it sets parameter `of`
 * to write(value, values); no quantity reads it.
 * @typedef {object} ParameterView
 * @property {string} of
 * @property {string[]} inputs
 * @property {(values: ParameterValues) => number} read
 * @property {(value: number, values: ParameterValues) => number} write
 */

/**
 * A bound one parameter keeps against another, as the figure holds it, and the message it gives.
 * @typedef {{ name: string, why: (value: number) => string }} ParameterBound
 */

/**
 * A number the reader can move in the prose ({{param:NAME}}).
 * @typedef {object} LiveParameter
 * @property {string} label
 * @property {string} unit
 * @property {number} value the lesson's value
 * @property {string} format a format of web/js/locale/format.js
 * @property {number | 'any'} step
 * @property {number} bigStep Shift's and the Page keys' step
 * @property {number} [min]
 * @property {number} [max]
 * @property {boolean} [integer]
 * @property {boolean} [even]
 * @property {number} [above] values at or below it are refused
 * @property {{ id: string, key: string }} [chart] the nearby figure's control of the same meaning
 * @property {ParameterBound} [atLeast] the parameter this one never goes below
 * @property {ParameterBound} [atMost] the parameter this one never goes above
 * @property {ParameterView} [view]
 */

/**
 * The rules of chart `chart`'s control `key`, for a parameter of the same meaning.
 * @param {string} chart
 * @param {string} key
 * @returns {Pick<LiveParameter, 'min' | 'max' | 'integer' | 'even' | 'above' | 'chart'>}
 */
const chartControl = (chart, key) => {
  const { min, max, integer = true, even = false, above } = CHART_DECLARATIONS[chart].controls[key];
  return { min, max, integer, even, above, chart: { id: chart, key } };
};

/**
 * Parameter name → { label, value (the lesson's), format (format.js), unit, step, bigStep (Shift),
 * min, max, integer, even, above (the rules the engine and the chart's control apply), chart?: { id,
 * key } (the nearby figure's control of the same meaning), atLeast?: { name, why(value) } (the
 * parameter this one never goes below, as the figure holds it), view?: { of, inputs, read(values),
 * write(value, values) } (a handle on other parameters' state: it shows read(values), and moving it
 * sets parameter `of` to write(value, values); no quantity reads it) }. A parameter moved in one
 * section changes the live numbers of that section only; everywhere else the lesson's value holds.
 * @type {Record<string, LiveParameter>}
 */
export const LIVE_PARAMETERS = {
  'extension.trained': {
    label: t('trained length'),
    unit: t('tokens'),
    value: EXTENSION.trainedLength,
    format: 'int',
    step: 256,
    bigStep: 4096,
    ...chartControl('context-extension', 'trained'),
  },
  'extension.target': {
    label: t('target length'),
    unit: t('tokens'),
    value: EXTENSION.targetLength,
    format: 'int',
    step: 1024,
    bigStep: 16384,
    ...chartControl('context-extension', 'target'),
    // As the figure holds it: a stretch, never a shrink. A trained length moved past the target takes
    // the target with it; a target moved below the trained length stops there.
    atLeast: {
      name: 'extension.trained',
      why: (trained) =>
        t('The target must be at least the trained length; using {trained}.', { trained: formatValue(trained, 'int') }),
    },
  },
  'extension.position': {
    label: t('position to interpolate'),
    unit: '',
    value: EXTENSION.examplePosition,
    format: 'int',
    step: 100,
    bigStep: 4000,
    // interpolatePositions takes any finite position; the lesson keeps to the target length's range:
    // a position of the long input, from 0 to the target length (the target moved below it takes it along).
    min: 0,
    max: 2097152,
    integer: true,
    atMost: {
      name: 'extension.target',
      why: (target) =>
        t('The position is one of the target length’s, at most {target}; using {target}.', {
          target: formatValue(target, 'int'),
        }),
    },
  },
  'extension.base': {
    label: t('RoPE base'),
    unit: '',
    value: NTK.base,
    // Any real base above 1 (1.5 at the least): printed with its decimals, never rounded to a whole number.
    format: 'real',
    step: 1000,
    bigStep: 10000,
    ...chartControl('context-extension', 'base'),
  },
  // The stretch is not a state of its own: it reads target / trained, and moving it moves the target
  // (trained × s), so interpolation, NTK and the figure always tell one stretch.
  'extension.scale': {
    label: t('stretch factor s'),
    // "8×": a sign, not a word, so that a stretch of 1 reads "1×" in every language.
    unit: '×',
    value: EXTENSION.targetLength / EXTENSION.trainedLength,
    format: 'stretch',
    step: 1,
    bigStep: 4,
    // A stretch below 1 is a shrink (the figure holds the target at or above the trained length);
    // above 512 the lesson's 4,096 tokens pass the target length's largest.
    min: 1,
    max: 512,
    integer: false,
    view: {
      of: 'extension.target',
      inputs: INTERPOLATION,
      read: (v) => v['extension.target'] / v['extension.trained'],
      write: (s, v) => Math.round(v['extension.trained'] * s),
    },
  },
  'extension.d': {
    label: t('head width d'),
    unit: '',
    value: NTK.headDim,
    format: 'int',
    step: 2,
    bigStep: 32,
    ...chartControl('context-extension', 'd'),
  },
  'rope.query': {
    label: t('query position m'),
    unit: '',
    value: ROPE.query,
    format: 'int',
    step: 1,
    bigStep: 10,
    ...chartControl('rope-clock', 'm'),
  },
  'rope.key': {
    label: t('key position n'),
    unit: '',
    value: ROPE.key,
    format: 'int',
    step: 1,
    bigStep: 10,
    ...chartControl('rope-clock', 'n'),
  },
};

/** The lesson's value of every parameter: name → number. */
export const PARAMETER_DEFAULTS = Object.fromEntries(Object.entries(LIVE_PARAMETERS).map(([n, p]) => [n, p.value]));

/**
 * What {{echo:NAME}} repeats in the text: a parameter's value as its section holds it (each
 * parameter is its own echo), or the positions the worked example derives from the reader's own
 * (the gap n − m, both positions 100 later): name → { inputs, format, value(params) }. Echoes
 * restate inputs; every number the lesson computes from them is a live quantity.
 */
export const PARAMETER_ECHOES = {
  ...Object.fromEntries(
    Object.entries(LIVE_PARAMETERS).map(([name, p]) => [
      name,
      p.view
        ? { inputs: p.view.inputs, format: p.format, value: p.view.read }
        : { inputs: [name], format: p.format, value: (v) => v[name] },
    ]),
  ),
  'rope.distance': { inputs: CLOCK, format: 'int', value: (v) => v['rope.key'] - v['rope.query'] },
  'rope.query-later': { inputs: ['rope.query'], format: 'int', value: (v) => v['rope.query'] + 100 },
  'rope.key-later': { inputs: ['rope.key'], format: 'int', value: (v) => v['rope.key'] + 100 },
};

/** A row-major matrix for the engine: { rows, cols, data }. */
function matrix(rows) {
  return { rows: rows.length, cols: rows[0].length, data: Float64Array.from(rows.flat()) };
}
const row = (m, r) => Array.from(m.data.subarray(r * m.cols, (r + 1) * m.cols));
const at = (m, r, c) => m.data[r * m.cols + c];

const attention = (engine, rows) => engine.attention(matrix(rows), matrix(rows), matrix(rows), false);
const orderSimilarities = (engine) => engine.orderSimilarities(DOG_BITES_MAN, MAN_BITES_DOG);
const interpolated = (engine, p, position) =>
  engine.interpolatePositions([position], p['extension.trained'], p['extension.target'])[0];
/** One RoPE pair by hand (d = 2, q = k = (1, 0)): the query at m, the key at n, turning θ per position. */
const ropeClock = (engine, p, m = p['rope.query'], n = p['rope.key']) =>
  engine.ropeClock(ROPE.q, ROPE.k, m, n, ROPE.theta);
/** The stretch s = target / trained, as the engine's interpolation divides positions by it. */
const stretch = (e, p) => 1 / interpolated(e, p, 1);
/** The NTK-aware base for the stretch s = target / trained (`stretch`). */
const ntkBase = (e, p, stretch) => e.ntkScaledBase(p['extension.base'], stretch, p['extension.d']);

/** The sinusoidal heatmap's opening d and base (its chart declaration). */
const HEATMAP = CHART_DECLARATIONS['sinusoidal-heatmap'].controls;
/** A full turn of pair `pick(ω)` of the heatmap as it opens, in positions: 2π / ω_i. */
const heatmapPeriod = (pick) => ({
  format: 'decimal1',
  value: (e) => (2 * Math.PI) / pick(e.ropeFrequencies(HEATMAP.d.value, HEATMAP.base.value)),
});
/** The precision chart as it opens: its largest position, d, base and pairs. */
const PRECISION = CHART_DECLARATIONS.precision.controls;
/**
 * The largest float32 rotation error the precision chart draws as it opens (every pair, every
 * sampled position): { error, position }.
 */
function precisionPeak(e) {
  const pairs = PRECISION.pairs.value.split(',').map(Number);
  const positions = logSpacedWholes(PRECISION.max.value, PRECISION_SAMPLES);
  const errors = e.float32AngleErrors(positions, pairs, PRECISION.d.value, PRECISION.base.value).rotationError.data;
  let peak = 0;
  for (let i = 1; i < errors.length; i++) if (errors[i] > errors[peak]) peak = i;
  return { error: errors[peak], position: positions[peak % positions.length] };
}
/** Positions per turn of the slowest pair of frequencies `theta` that turns at all (θ > 0). */
const slowestTurn = (e, theta) => Math.max(...e.pairWavelengths(theta.filter((t) => t > 0)));
const proportional = (e) =>
  e.proportionalRopeFrequencies(PROPORTIONAL.headDim, PROPORTIONAL.base, PROPORTIONAL.partial);
/** M-RoPE's last pair of axis `axis` (0 time, 1 height, 2 width), the sections taken in order. */
const mropeSlowest = (axis) => ({
  format: 'int',
  value: (e) => {
    const last = MROPE.section.slice(0, axis + 1).reduce((a, b) => a + b) - 1;
    return e.pairWavelengths(e.ropeFrequencies(MROPE.headDim, MROPE.base))[last];
  },
});
const nopeTemperature = (token) => ({
  format: 'fixed3',
  value: (e) => e.nopeQueryTemperature(token - 1, LLAMA4_NOPE.floorScale, LLAMA4_NOPE.attnScale),
});

const heatmapPeriods = () => ({
  'heatmap.period-first': heatmapPeriod((w) => w[0]),
  'heatmap.period-second': heatmapPeriod((w) => w[1]),
  'heatmap.period-last': { ...heatmapPeriod((w) => w.at(-1)), format: 'int' },
});

// ---- the registry ------------------------------------------------------------------------------

/**
 * Live name → { format, inputs?, value(engine, live, params) }: `value` calls the engine (live(name)
 * reads another entry, computed once; params[name] is a LIVE_PARAMETERS value, the lesson's unless
 * the reader moved it). `inputs` names every parameter the value reads. An entry marked derived
 * multiplies quoted facts in the page and needs no engine.
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
  // The heatmap as it opens (its d and base): how many positions each pair takes to turn a full circle.
  ...heatmapPeriods(),
  'precision.peak-error': { format: 'sci-unicode', value: (e) => precisionPeak(e).error },
  'precision.peak-position': { format: 'int', value: (e) => precisionPeak(e).position },
  'gpt2.position-parameters': { format: 'int', derived: true, value: () => GPT2.positions * GPT2.width },
  'rope.theta0': { format: 'trimmed', value: (e) => e.ropeFrequencies(2)[0] },
  ...clockVector('rope.q-at-3', 'qRotated'),
  ...clockVector('rope.k-at-7', 'kRotated'),
  'rope.score-3-7': { format: 'fixed3', inputs: CLOCK, value: (e, live, p) => ropeClock(e, p).score },
  // "Move both 100 positions later."
  'rope.score-103-107': {
    format: 'fixed3',
    inputs: CLOCK,
    value: (e, live, p) => ropeClock(e, p, p['rope.query'] + 100, p['rope.key'] + 100).score,
  },
  // The same gap from position 0: cos((n − m)·θ).
  'rope.score-distance-4': {
    format: 'fixed3',
    inputs: CLOCK,
    value: (e, live, p) => ropeClock(e, p, 0, p['rope.key'] - p['rope.query']).score,
  },
  // The key one step further on.
  'rope.score-3-8': {
    format: 'fixed3',
    inputs: CLOCK,
    value: (e, live, p) => ropeClock(e, p, p['rope.query'], p['rope.key'] + 1).score,
  },
  'rope.pair0-period': { format: 'int-plain', value: (e) => (2 * Math.PI) / e.ropeFrequencies(ROPE.periodDim)[0] },
  'interp.ratio': { format: 'fraction', inputs: INTERPOLATION, value: (e, live, p) => interpolated(e, p, 1) },
  // The stretch as the worked sum divides by it: to as many decimals as keep "pos / s = pos'" true as printed.
  'interp.factor': {
    format: 'trimmed-exact',
    inputs: [...INTERPOLATION, 'extension.position'],
    value: (e, live, p) => {
      const [factor, position] = [stretch(e, p), p['extension.position']];
      const { format } = LIVE_QUANTITIES['interp.example-result'];
      const result = formatValue(live('interp.example-result'), format);
      for (let digits = 3; digits < 12; digits++) {
        const shown = Number(factor.toFixed(digits));
        if (formatValue(position / shown, format) === result) return shown;
      }
      return factor;
    },
  },
  // A position RoPE is given: a real number (32,000 / 65,536 is 0.49, not 0).
  'interp.example-result': {
    format: 'decimal2',
    inputs: [...INTERPOLATION, 'extension.position'],
    value: (e, live, p) => interpolated(e, p, p['extension.position']),
  },
  'ntk.base': { format: 'base', inputs: NTK_INPUTS, value: (e, live, p) => ntkBase(e, p, stretch(e, p)) },
  'ntk.factor': { format: 'fixed2', inputs: NTK_INPUTS, value: (e, live, p) => live('ntk.base') / p['extension.base'] },
  // The power s is raised to, d/(d − 2), read off the engine at s = 2: it does not depend on s, and
  // the stretch itself can be 1 (trained = target), where log(base′/base)/log s is 0/0.
  'ntk.exponent': {
    format: 'fixed3',
    inputs: ['extension.base', 'extension.d'],
    value: (e, live, p) => Math.log(ntkBase(e, p, 2) / p['extension.base']) / Math.LN2,
  },
  'ntk.theta0-after': {
    format: 'trimmed',
    inputs: NTK_INPUTS,
    value: (e, live, p) => e.ropeFrequencies(p['extension.d'], live('ntk.base'))[0],
  },
  'ntk.slowest-before': {
    format: 'sci-unicode',
    inputs: ['extension.base', 'extension.d'],
    value: (e, live, p) => e.ropeFrequencies(p['extension.d'], p['extension.base']).at(-1),
  },
  'ntk.slowest-after': {
    format: 'sci-unicode',
    inputs: NTK_INPUTS,
    value: (e, live, p) => e.ropeFrequencies(p['extension.d'], live('ntk.base')).at(-1),
  },
  'ntk.slowdown': {
    format: 'trimmed',
    inputs: NTK_INPUTS,
    value: (e, live) => live('ntk.slowest-before') / live('ntk.slowest-after'),
  },
  'extension.raw-over-band': {
    format: 'trimmed',
    inputs: [...INTERPOLATION, 'extension.d', 'extension.base'],
    value: (e, live, p) => {
      const [trained, target] = [p['extension.trained'], p['extension.target']];
      const curves = e.contextExtensionCurves([target], trained, target, p['extension.d'], p['extension.base']);
      return curves.angles.data[0] / curves.trainedMax;
    },
  },
  'nope.temperature-1m': nopeTemperature(LLAMA4_NOPE.tokens[0]),
  'nope.temperature-10m': nopeTemperature(LLAMA4_NOPE.tokens[1]),
  'prope.pairs': { format: 'int', value: (e) => proportional(e).length },
  'prope.turning': { format: 'int', value: (e) => proportional(e).filter((t) => t > 0).length },
  'prope.slowest-turning': { format: 'int', value: (e) => slowestTurn(e, proportional(e)) },
  // Partial RoPE on the same head: as many pairs turn, spaced over the turning part alone.
  'partial.slowest-turning': {
    format: 'int',
    value: (e, live) => slowestTurn(e, e.ropeFrequencies(2 * live('prope.turning'), PROPORTIONAL.base)),
  },
  'full.slowest-turning': {
    format: 'int',
    value: (e) => slowestTurn(e, e.ropeFrequencies(PROPORTIONAL.headDim, PROPORTIONAL.base)),
  },
  'mrope.time-slowest': mropeSlowest(0),
  'mrope.height-slowest': mropeSlowest(1),
  'mrope.width-slowest': mropeSlowest(2),
  ...SINCE_2024_QUANTITIES,
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

function unknownParameter(name) {
  return new Error(`unknown live parameter "${name}" (not in LIVE_PARAMETERS, web/js/prose/live-values.js)`);
}

/** The live quantities whose declared inputs include parameter `name` (for a view, the parameter it moves). */
export function dependentsOf(name) {
  if (!LIVE_PARAMETERS[name]) throw unknownParameter(name);
  const moved = LIVE_PARAMETERS[name].view?.of ?? name;
  return Object.keys(LIVE_QUANTITIES).filter((q) => LIVE_QUANTITIES[q].inputs?.includes(moved));
}

/**
 * The stored parameter values after the reader sets parameter `name` to `value` over `values` (the
 * section's): a view's value goes to the parameter it moves. Returns { name, value } as stored.
 * @param {string} name
 * @param {number} value
 * @param {ParameterValues} values
 * @returns {{ name: string, value: number }}
 */
export function storedParameter(name, value, values) {
  const view = LIVE_PARAMETERS[name]?.view;
  if (!view) return { name, value };
  return { name: view.of, value: view.write(value, { ...PARAMETER_DEFAULTS, ...values }) };
}

const parameterRules = new Map();

/**
 * The number rule of parameter `name` (chart-kit/number-rule.js): the rules its engine call and
 * chart control apply, stepped by its step and bigStep, its numbers printed in its own format.
 * @param {string} name
 */
export function parameterRule(name) {
  const p = LIVE_PARAMETERS[name];
  if (!p) throw unknownParameter(name);
  if (!parameterRules.has(name)) {
    const label = p.label.charAt(0).toUpperCase() + p.label.slice(1); // it opens the message's sentence
    const { min, max, integer, even, above, step, bigStep } = p;
    parameterRules.set(
      name,
      numberRule({ label, min, max, integer, even, above, step, bigStep, format: (v) => formatValue(v, p.format) }),
    );
  }
  return parameterRules.get(name);
}

/**
 * The value parameter `name` takes for `raw`, by the rules its engine call and chart control apply,
 * and why it changed ('' when it did not). A value that is not a number, or not above `above`, keeps `current`.
 * @param {string} name
 * @param {unknown} raw
 * @param {number} [current]
 * @returns {{ value: number, why: string }}
 */
export function validateParameter(name, raw, current = LIVE_PARAMETERS[name]?.value) {
  return parameterRule(name).validate(raw, current);
}

/**
 * A section's parameter values (`values`: name → value, the lesson's value kept as no entry) after
 * the reader moves parameter `name` to `raw`, by the rules the page applies: the parameter's own
 * rule (validateParameter); a view moves the parameter it views; a parameter held at or above
 * another (atLeast) stops there; one held at or below another (atMost) stops there; and one held
 * at or above this one comes along. Returns { values, why, moved } (why: '' when raw was taken as
 * it was; moved: the parameters whose value changed).
 * @param {ParameterValues} values
 * @param {string} name
 * @param {unknown} raw
 * @returns {{ values: ParameterValues, why: string, moved: string[] }}
 */
export function settleParameter(values, name, raw) {
  const current = (n) => {
    const view = LIVE_PARAMETERS[n].view;
    return view ? view.read({ ...PARAMETER_DEFAULTS, ...values }) : (values[n] ?? PARAMETER_DEFAULTS[n]);
  };
  let { value, why } = validateParameter(name, raw, current(name));
  if (value !== current(name) && LIVE_PARAMETERS[name].view) {
    const stored = storedParameter(name, value, values);
    name = stored.name;
    const kept = validateParameter(name, stored.value, current(name));
    value = kept.value;
    why ||= kept.why;
  }
  const floor = LIVE_PARAMETERS[name].atLeast;
  if (floor && value < current(floor.name)) {
    value = current(floor.name);
    why = floor.why(value);
  }
  const ceiling = LIVE_PARAMETERS[name].atMost;
  if (ceiling && value > current(ceiling.name)) {
    value = current(ceiling.name);
    why = ceiling.why(value);
  }
  if (value === current(name)) return { values, why, moved: [] };
  const next = { ...values };
  const store = (n, v) => {
    if (v === PARAMETER_DEFAULTS[n]) delete next[n];
    else next[n] = v;
  };
  store(name, value);
  const moved = [name];
  // Parameters held at or above this one (the target above the trained length) come along, and
  // those held at or below it (a position within the target) too.
  for (const [other, p] of Object.entries(LIVE_PARAMETERS)) {
    const now = next[other] ?? PARAMETER_DEFAULTS[other];
    if (p.atLeast?.name === name && now < value) {
      store(other, value);
      moved.push(other);
    }
  }
  for (const [other, p] of Object.entries(LIVE_PARAMETERS)) {
    const bound = p.atMost?.name;
    if (!bound || !moved.includes(bound)) continue;
    const limit = next[bound] ?? PARAMETER_DEFAULTS[bound];
    if ((next[other] ?? PARAMETER_DEFAULTS[other]) > limit) {
      store(other, limit);
      moved.push(other);
    }
  }
  return { values: next, why, moved };
}

/**
 * The parameters a chart's `state` sets (those declaring a control of the chart as theirs): name → value.
 * @param {string} id
 * @param {Record<string, unknown>} state
 * @returns {ParameterValues}
 */
export function chartParameters(id, state) {
  const values = {};
  for (const [name, p] of Object.entries(LIVE_PARAMETERS)) {
    if (p.chart?.id === id && p.chart.key in state) values[name] = state[p.chart.key];
  }
  return values;
}

/**
 * The conditions the lesson's templated sentences need: claim name → { inputs, holds(results,
 * values) } (results: computeEngineResults's; values: every parameter, the lesson's where not
 * moved). lesson.md writes {{when:NAME}}…{{else}}…{{end}}: the first text while the claim holds
 * for the section's values, the second otherwise, each a whole clause in its language.
 */
export const LIVE_CLAIMS = {
  // The target is longer than the trained length: there is a stretch to tell (the equal case is "no stretch").
  'extension.stretched': {
    inputs: INTERPOLATION,
    holds: (results, p) => p['extension.target'] > p['extension.trained'],
  },
  // Raw positions end above the trained band, by the factor the caption prints (shown above 1).
  'extension.raw-leaves-band': {
    inputs: [...INTERPOLATION, 'extension.d', 'extension.base'],
    holds: (results) => {
      const over = results.read('extension.raw-over-band');
      return over > 1 && liveText('extension.raw-over-band', results) !== formatValue(1, 'trimmed');
    },
  },
  // d/(d − 2) is "just above 1" up to 1.1 (d ≥ 22); the lesson's d = 128 gives 1.016.
  'ntk.power-near-one': {
    inputs: ['extension.d'],
    holds: (results, p) => p['extension.d'] / (p['extension.d'] - 2) <= NEAR_ONE,
  },
  // "Slightly more than the stretch factor": a stretch above 1 and a power near 1.
  'ntk.slightly-more': {
    inputs: NTK_INPUTS,
    holds: (results, p) =>
      p['extension.target'] > p['extension.trained'] && p['extension.d'] / (p['extension.d'] - 2) <= NEAR_ONE,
  },
};

/** The largest power d/(d − 2) the text calls "just above 1". */
const NEAR_ONE = 1.1;

/** Whether claim `name` holds for `results` and parameter `values`; throws for an unknown claim. */
export function claimHolds(name, results, values) {
  const claim = LIVE_CLAIMS[name];
  if (!claim) throw new Error(`unknown claim "${name}" (not in LIVE_CLAIMS, web/js/prose/live-values.js)`);
  return claim.holds(results, { ...PARAMETER_DEFAULTS, ...values });
}

/** The text a parameter handle shows for `value`: the lesson's own format. */
export function parameterText(name, value) {
  const p = LIVE_PARAMETERS[name];
  if (!p) throw unknownParameter(name);
  return formatValue(value, p.format);
}

/**
 * The live numbers of one engine: { read(name) }, each computed on first read and kept. A call
 * that fails (say, a function this engine build lacks) fails only the quantities that read it.
 */
export function computeEngineResults(engine, params = {}) {
  for (const name of Object.keys(params)) if (!LIVE_PARAMETERS[name]) throw unknownParameter(name);
  const values = { ...PARAMETER_DEFAULTS };
  for (const [name, value] of Object.entries(params)) {
    const stored = storedParameter(name, value, params);
    values[stored.name] = stored.value;
  }
  const outcomes = new Map();
  const read = (name) => {
    const quantity = LIVE_QUANTITIES[name];
    if (!quantity) throw unknownLiveName(name);
    if (!outcomes.has(name)) {
      try {
        outcomes.set(name, { value: quantity.value(engine, read, values) });
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
