// Widget: RoPE angles m·θ_i in float32 against float64 as the position grows to a million and
// beyond. The fast pairs' rotations drift first: float32 keeps 24 bits, so an angle of 10⁶ rad
// is only known to ~0.06 rad. Errors per pair and position from engine.float32AngleErrors.

import { formatG2, grouped, listed, sciUnicode, significant, trueMinus } from '../locale/format.js';
import { defineChart } from '../chart-kit/define-chart.js';
import { holdWithin } from '../chart-kit/chart-controls.js';
import * as plot from '../chart-kit/plot.js';
import { logScale, logSpacedWholes, logTicks, powersOfTwo } from '../chart-kit/scales.js';
import { pairsNote, parsePairs, pickedPairs, positionReadHandle } from './rope-frequencies.js';
import { drawWithKnobs, drawMarker } from '../chart-kit/handles.js';
import { geometricKeyStep } from '../chart-kit/number-rule.js';
import { chartDeclaration, PRECISION_SAMPLES } from './declarations.js';
import { t } from '../locale/i18n.js';

/** The chart's controls, their ranges and defaults, and older URL prefixes: declared in declarations.js. */
const FLOOR = 1e-10; // exact results (error 0) are drawn at this floor of the log axis

/** Items as a list in the page's language: "a, b, c" in English, "a、b、c" in Chinese. */

/** Log-spaced whole positions from 1 to max (distinct). */
export const precisionPositions = (max) => logSpacedWholes(max, PRECISION_SAMPLES);

/**
 * The position read as a handle on the (log) position axis: a vertical marker with each pair's
 * error there ringed. Arrows move it by a quarter (×1.25), Shift doubles or halves it.
 */
const POSITION_HANDLE = positionReadHandle({
  across: ({ layout: { frame } }) => frame.y + frame.h - 12,
  max: ({ state }) => state.max,
  keyStep: geometricKeyStep,
  dragStops: ({ state }) => powersOfTwo(1, state.max),
});

// The largest d: the legend keeps room for every pair typed, the last of which d may bring in.
const D_MAX = chartDeclaration('precision').controls.d.max;

/** A pair's legend label: its index and its θ as formatted text. */
const pairLabel = (pair, theta) => t('pair {pair} (θ={theta})', { pair, theta: trueMinus(theta) });

/**
 * float32 vs float64 RoPE rotation errors, on the chart skeleton. Its parts are the fastest pair
 * shown (the lowest index, the first to drift) and the slowest.
 */
export const PRECISION = defineChart(chartDeclaration('precision'), {
  parts: ['fastest-pair', 'slowest-pair', 'position'],
  focusParts: { position: 'position' },
  handles: [POSITION_HANDLE],
  reconcile(state, controls) {
    holdWithin(state, controls, 'position', { max: state.max }, () =>
      t('The largest position shown is {max}; reading position {max}.', { max: grouped(state.max) }),
    );
    controls.pairs.note(pairsNote(state));
  },
  compute: {
    pairs: { reads: ['pairs', 'd'], run: pickedPairs },
    positions: { reads: ['max'], run: (state) => precisionPositions(state.max) },
    errors: {
      reads: ['d', 'base'],
      after: ['pairs', 'positions'],
      run: (state, engine, { pairs, positions }) =>
        pairs.length ? engine.float32AngleErrors(positions, pairs, state.d, state.base) : null,
    },
    // The errors at the marked position, exactly (not read off the sampled curves).
    marked: {
      reads: ['position', 'd', 'base'],
      after: ['pairs'],
      run: (state, engine, { pairs }) =>
        pairs.length ? engine.float32AngleErrors([state.position], pairs, state.d, state.base) : null,
    },
  },
  canvases: [
    {
      label: t('Log-log line chart: error of float32 RoPE rotations against float64 by position, per pair'),
      aspect: plot.legendAspect(0.95, 0.6),
      draw: drawWithKnobs(drawErrors, [POSITION_HANDLE], { shown: ({ data }) => Boolean(data.errors) }),
      hit({ data: { pairs, positions, errors }, layout: { frame, x, y } }, px, py) {
        if (!errors || !frame || px < frame.x || px > frame.x + frame.w) return null;
        // The sample nearest the pointer along the (log) position axis.
        let j = 0;
        for (let k = 1; k < positions.length; k++) {
          if (Math.abs(x(positions[k]) - px) < Math.abs(x(positions[j]) - px)) j = k;
        }
        const n = positions.length;
        let nearest = -1;
        let best = 10; // px: how close the pointer must be to a line
        pairs.forEach((_, r) => {
          const gap = Math.abs(y(Math.max(errors.rotationError.data[r * n + j], FLOOR)) - py);
          if (gap < best) [nearest, best] = [r, gap];
        });
        return nearest < 0 ? null : partOfPair(pairs, pairs[nearest]);
      },
    },
  ],
  describe({ state, data }) {
    const { pairs, positions, errors } = data;
    if (!errors) {
      if (!String(state.pairs).trim()) return t('No pair selected.');
      return t('None of the pairs asked for ({pairs}) exists at d {d}, whose last pair is {last}.', {
        pairs: listed(parsePairs(state.pairs, state.d / 2 - 1).dropped),
        d: grouped(state.d),
        last: grouped(state.d / 2 - 1),
      });
    }
    const n = positions.length;
    const last = n - 1;
    const error = (v) => (v === 0 ? '0' : sciUnicode(v, 1));
    const item = (p, v) => t('pair {pair} {error}', { pair: p, error: error(v) });
    const ends = pairs.map((p, r) => errors.rotationError.data[r * n + last]);
    const params = {
      max: grouped(state.max),
      d: grouped(state.d),
      base: significant(state.base),
      summary: listed(pairs.map((p, r) => item(p, ends[r]))),
      position: grouped(state.position),
      marked: listed(pairs.map((p, r) => item(p, data.marked.rotationError.data[r]))),
      worst: grouped(pairs[ends.indexOf(Math.max(...ends))]),
    };
    // "The fastest pairs drift first" holds while the error falls (or stays) from pair to pair.
    const fastestFirst = ends.every((v, r) => r === 0 || v <= ends[r - 1]);
    return fastestFirst
      ? t(
          'At position {max} (d {d}, base {base}) the float32 rotation is off by: {summary}. The fastest pairs drift first. At the marked position {position}: {marked}.',
          params,
        )
      : t(
          'At position {max} (d {d}, base {base}) the float32 rotation is off by: {summary}. Here the error does not fall from pair to pair: pair {worst} drifts most. At the marked position {position}: {marked}.',
          params,
        );
  },

  table: ({ data }) =>
    data.errors
      ? {
          caption: t('float32 errors (rad) by position'),
          columns: [
            t('position'),
            ...data.pairs.flatMap((p) => [t('pair {pair} angle', { pair: p }), t('pair {pair} rotation', { pair: p })]),
          ],
          rows: rows(data),
        }
      : { caption: t('Errors'), columns: [t('position')], rows: [] },
  csv: ({ data }) => ({
    header: ['position', ...data.pairs.flatMap((p) => [`pair${p}_angle_error`, `pair${p}_rotation_error`])],
    rows: rows(data),
  }),
  values: ({ data }) => data.errors,
});

/** Mounts the chart in `slot` (the factory index.js calls). */
export const createPrecisionChart = PRECISION.create;

const rows = ({ pairs, positions, errors }) =>
  Array.from(positions, (m, j) => [
    m,
    ...pairs.flatMap((_, r) => [
      errors.angleError.data[r * positions.length + j],
      errors.rotationError.data[r * positions.length + j],
    ]),
  ]);

/** 'fastest-pair' for the lowest pair index shown (the largest θ), 'slowest-pair' for the highest. */
function partOfPair(pairs, pair) {
  if (pair === Math.min(...pairs)) return 'fastest-pair';
  if (pair === Math.max(...pairs)) return 'slowest-pair';
  return null;
}

function drawErrors(
  ctx,
  width,
  height,
  colors,
  { state, data: { pairs, positions, errors, marked }, highlighted, layout },
) {
  if (!errors) return;
  const n = positions.length;
  const legend = pairs.map((p, r) => ({
    label: pairLabel(p, formatG2(errors.theta[r])),
    color: colors.cycle[r],
  }));
  // Room for the legend of every pair typed, at the widest θ, whatever d is: stepping d past a pair
  // (63 needs d of 128 or more) or changing its θ's digits then leaves the canvas its size.
  const typed = parsePairs(state.pairs, D_MAX / 2 - 1).pairs;
  const widest = (theta) => typed.map((p) => pairLabel(p, theta));
  const room = plot.legendSpaceFor(ctx, legend, width, widest('8.8e-05'), widest('0.00088'));
  const frame = plot.plotFrame(width, height, { bottom: 46 + room });
  const x = logScale(1, state.max, frame.x, frame.x + frame.w);
  const y = logScale(FLOOR, 2, frame.y + frame.h, frame.y);
  Object.assign(layout, { frame, x, y });
  plot.drawAxes(ctx, frame, colors, {
    x,
    y,
    xTicks: logTicks(1, state.max),
    yTicks: logTicks(FLOOR, 1),
    xLabel: t('position m'),
    yLabel: t('float32 rotation error'),
    title: t('float32 loses the fast pairs at long positions'),
  });
  pairs.forEach((p, r) => {
    const ys = Array.from(errors.rotationError.data.subarray(r * n, (r + 1) * n), (v) => Math.max(v, FLOOR));
    const emphasised = highlighted && partOfPair(pairs, p) === highlighted;
    ctx.save();
    if (highlighted && !emphasised) ctx.globalAlpha = 0.3;
    plot.drawLine(ctx, frame, x, y, positions, ys, { color: colors.cycle[r], width: emphasised ? 3.5 : 1.5 });
    ctx.restore();
  });
  // The position marker: a vertical line at the marked position, each pair's error there ringed.
  const rings = pairs.map((_, r) => ({ y: y(Math.max(marked.rotationError.data[r], FLOOR)), color: colors.cycle[r] }));
  drawMarker(ctx, frame, x(state.position), rings, colors, highlighted === 'position');
  plot.drawLegend(ctx, frame, colors, legend, plot.legendCorner(width, 'tl'));
}
