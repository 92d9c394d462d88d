// Figure 5, live: the slowest RoPE pair's angle over a stretched context for raw positions,
// position interpolation, NTK-aware base (the lesson's three), YaRN and dynamic NTK, with the
// band of angles seen in training; and every pair's wavelength per method against the trained length.

import { decimal, fixed, formatValue, grouped, listed, significant } from '../locale/format.js';
import { defineChart } from '../chart-kit/define-chart.js';
import { holdWithin } from '../chart-kit/chart-controls.js';
import * as plot from '../chart-kit/plot.js';
import { linearScale, logScale, logTicks, niceTicks, powersOfTwo } from '../chart-kit/scales.js';
import { drawWithKnobs } from '../chart-kit/handles.js';
import { CHART_DECLARATIONS, chartDeclaration } from './declarations.js';
import { t } from '../locale/i18n.js';

/** The chart's controls, their ranges and defaults, and older URL prefixes: declared in declarations.js. */
const { controls: CONTROLS } = CHART_DECLARATIONS['context-extension'];
const METHODS = [
  { key: 'raw', label: t('raw positions (extended)'), color: (c) => c.red, dash: [] },
  { key: 'pi', label: t('position interpolation'), color: (c) => c.blue, dash: [] },
  { key: 'ntk', label: t('NTK-aware base'), color: (c) => c.black, dash: [6, 4] },
  { key: 'yarn', label: 'YaRN', color: (c) => c.cycle[2], dash: [], added: true },
  { key: 'dynamic', label: t('dynamic NTK'), color: (c) => c.cycle[4], dash: [2, 3], added: true },
];

/** Method names as a list in the page's language: "a, b, c" in English, "a、b、c" in Chinese. */

/** Calls draw(method, row) for the methods beyond the lesson first (wide, faint, underneath), then the lesson's three on top. */
function drawMethods(ctx, draw) {
  ctx.save();
  ctx.globalAlpha = 0.45;
  METHODS.forEach((m, r) => m.added && draw(m, r));
  ctx.restore();
  METHODS.forEach((m, r) => !m.added && draw(m, r));
}

const WAVES = 1; // the wavelength chart's canvas, where the two lengths are lines to drag

/** Arrow keys move a length by 1,024 tokens; Shift (and Page Up/Down) doubles or halves it. */
const lengthStep = (value, direction, big) =>
  big ? (direction > 0 ? value * 2 : value / 2) : value + direction * 1024;

/**
 * The two lengths as handles on the wavelength chart: each knob on its dashed line (trained left
 * of target, so they never sit on each other), dragged up and down the log axis.
 */
const HANDLES = [
  ['trained', 0.56],
  ['target', 0.72],
].map(([key, across]) => ({
  key,
  part: key,
  label: key === 'trained' ? t('trained length') : t('target length'),
  canvas: WAVES,
  axis: 'y',
  scale: ({ layout }) => layout.waves?.y ?? null,
  across: ({ layout }) => layout.waves.frame.x + layout.waves.frame.w * across,
  // The whole dashed line grabs too.
  near: ({ state, layout: { waves } }, px, py) =>
    Boolean(waves) &&
    px >= waves.frame.x &&
    px <= waves.frame.x + waves.frame.w &&
    Math.abs(waves.y(state[key]) - py) <= 5,
  // A drag walks the powers of two (4,096, 8,192 …), one per finger's movement at least.
  dragStops: () => powersOfTwo(CONTROLS[key].min, CONTROLS[key].max),
  min: key === 'target' ? ({ state }) => state.trained : undefined,
  keyStep: lengthStep,
  valueText: (v, { state }) =>
    key === 'target'
      ? t('{length} tokens, {ratio}× the trained length', { length: grouped(v), ratio: fixed(v / state.trained, 2) })
      : t('{length} tokens', { length: grouped(v) }),
}));

/** The positions the curves sample: the lesson's step of 64, coarser past 256K. */
export function extensionPositions(target) {
  const step = target <= 262144 ? 64 : 64 * Math.ceil(target / 262144);
  const count = Math.ceil(target / step);
  return Float64Array.from({ length: count }, (_, i) => i * step);
}

/**
 * Context extension, on the chart skeleton: angle curves and pair wavelengths. Its parts are the
 * two lengths, 'trained' and 'target' (their marks on the wavelength chart; on the angle chart
 * the top of the trained band and the target's end of the position axis), and the two ends of the
 * wavelength chart, 'fastest-pair' (pair 0) and 'slowest-pair' (pair d/2 − 1, the one the angle chart draws).
 */
export const CONTEXT_EXTENSION = defineChart(chartDeclaration('context-extension'), {
  parts: ['trained', 'target', 'fastest-pair', 'slowest-pair'],
  focusParts: { trained: 'trained', target: 'target' },
  handles: HANDLES,
  // The stretch played out: the target sweeps from the trained length to its largest, on a log scale.
  motion: {
    label: t('Play the stretch'),
    duration: 5000,
    start: ({ state }) => ({ from: state.trained, to: CONTROLS.target.max }),
    frame: (progress, { from, to }) => ({
      target: Math.max(from, Math.round((from * (to / from) ** progress) / 16) * 16),
    }),
  },
  reconcile(state, controls) {
    holdWithin(state, controls, 'target', { min: state.trained }, () =>
      t('The target must be at least the trained length; using {trained}.', { trained: grouped(state.trained) }),
    );
  },
  compute: {
    positions: { reads: ['target'], run: (state) => extensionPositions(state.target) },
    curves: {
      reads: ['trained', 'target', 'd', 'base'],
      after: ['positions'],
      run: (state, engine, { positions }) =>
        engine.extensionCurves(positions, state.trained, state.target, state.d, state.base),
    },
    // Every pair's wavelength per method (5 rows of d/2).
    wavelengths: {
      reads: ['trained', 'target', 'd', 'base'],
      run(state, engine) {
        const inv = engine.extensionInverseFrequencies(state.d, state.base, state.trained, state.target);
        return METHODS.map((_, r) => engine.pairWavelengths(inv.data.subarray(r * inv.cols, (r + 1) * inv.cols)));
      },
    },
  },
  canvases: [
    {
      label: t(
        'Line chart: angle of the slowest RoPE pair over positions for five context-extension methods, with the band of angles seen in training',
      ),
      // On a phone the plot keeps about 210 px, so the band of trained angles (an eighth of the
      // y range at the default stretch) is some 26 px rather than 15.
      aspect: plot.legendAspect(1.35, 0.6),
      reads: ['target', 'positions', 'curves'],
      // The pairs' parts live on the wavelength chart: emphasising one leaves this chart as it is.
      shows: ['trained', 'target'],
      draw: drawAngles,
    },
    {
      label: t('Line chart, log scale: wavelength of every RoPE pair under each method, against the trained length'),
      aspect: plot.legendAspect(0.95, 0.5),
      minHeight: 200,
      reads: ['trained', 'target', 'd', 'wavelengths'],
      draw: drawWithKnobs(drawWavelengths, HANDLES, { canvas: WAVES }),
      hit({ state, layout: { waves } }, px, py) {
        if (!waves || px < waves.frame.x || px > waves.frame.x + waves.frame.w) return null;
        const near = (value) => Math.abs(waves.y(value) - py) <= 6;
        if (near(state.trained)) return 'trained';
        if (near(state.target)) return 'target';
        return null;
      },
    },
  ],
  note({ state, data: { curves } }) {
    if (state.target === state.trained)
      return t(
        'No stretch: the target is the trained length, so every method leaves every pair at its trained speed and the NTK-aware base stays {base}.',
        { base: formatValue(curves.ntkBase, 'base') },
      );
    const { kept, ramped, interpolated } = yarnPairs(curves.yarnRange, state.d / 2);
    return t(
      'Stretch {scale}×. NTK-aware base {base}. YaRN keeps {kept} at the trained speed, interpolates {interpolated}, ramps {ramped} in between, and multiplies attention logits by the temperature factor {factor}² (0.1·ln s + 1 = {factor} on cos and sin).',
      {
        scale: decimal(state.target / state.trained, 2, 2),
        base: formatValue(curves.ntkBase, 'base'),
        kept,
        ramped,
        interpolated,
        factor: fixed(curves.attentionFactor, 3),
      },
    );
  },
  describe({ state, data: { positions, curves, wavelengths } }) {
    const n = positions.length;
    const last = (r) => curves.angles.data[r * n + n - 1];
    const inBand = METHODS.filter((_, r) => last(r) <= curves.trainedMax * (1 + 1e-9)).map((m) => m.label);
    const changed = (r) => wavelengths[r].filter((v, i) => Math.abs(v / wavelengths[0][i] - 1) > 1e-9).length;
    const params = {
      trained: grouped(state.trained),
      target: grouped(state.target),
      d: grouped(state.d),
      base: significant(state.base),
      angle: fixed(last(0), 3),
      max: fixed(curves.trainedMax, 3),
      methods: listed(inBand),
      pi: changed(1),
      ntk: changed(2),
      yarn: changed(3),
      dynamic: changed(4),
      pairs: grouped(state.d / 2),
    };
    return inBand.length
      ? t(
          "Trained at {trained}, stretched to {target} (d {d}, base {base}). At the last position the slowest pair's angle is {angle} rad raw against a trained maximum of {max}; inside the band: {methods}. Pairs changed: interpolation {pi}, NTK {ntk}, YaRN {yarn}, dynamic NTK {dynamic} of {pairs}.",
          params,
        )
      : t(
          "Trained at {trained}, stretched to {target} (d {d}, base {base}). At the last position the slowest pair's angle is {angle} rad raw against a trained maximum of {max}; inside the band: none. Pairs changed: interpolation {pi}, NTK {ntk}, YaRN {yarn}, dynamic NTK {dynamic} of {pairs}.",
          params,
        );
  },
  table: ({ data }) => ({
    caption: t('Slowest pair angle (rad) by position'),
    columns: [t('position'), ...METHODS.map((m) => m.label)],
    rows: curveRows(data),
  }),
  csv: ({ data }) => ({ header: ['position', ...METHODS.map((m) => `${m.key} angle`)], rows: curveRows(data) }),
  values: ({ data }) => data.curves,
  extend(chart, { layout, state }) {
    /** Where the wavelength chart marks `part`'s length, in CSS pixels of that canvas (for tests). */
    chart.markOf = (part) => ({
      x: layout.waves.frame.x + layout.waves.frame.w / 2,
      y: layout.waves.y(state[part]),
    });
  },
});

/** Pairs `first` to `last` as a phrase: "pairs 3–9", "pair 3", or "no pair" when first > last. */
function pairRange(first, last) {
  if (first > last) return t('no pair');
  if (first === last) return t('pair {pair}', { pair: grouped(first) });
  return t('pairs {first}–{last}', { first: grouped(first), last: grouped(last) });
}

/**
 * YaRN's three groups of a head's `pairs` pairs, from its correction range { low, high } (a pair
 * i ≤ low keeps its trained speed, i ≥ high is interpolated, those between are ramped): each a
 * phrase of pairRange, the range cut to the pairs the head has (the range itself may pass them).
 */
export function yarnPairs({ low, high }, pairs) {
  const last = pairs - 1;
  const keptEnd = Math.min(Math.floor(low), last);
  const interpolatedStart = Math.max(Math.ceil(high), keptEnd + 1, 0);
  return {
    kept: pairRange(0, keptEnd),
    ramped: pairRange(Math.max(keptEnd + 1, 0), Math.min(interpolatedStart - 1, last)),
    interpolated: pairRange(interpolatedStart, last),
  };
}

/** Mounts the chart in `slot` (the factory index.js calls). */
export const createContextExtensionChart = CONTEXT_EXTENSION.create;

function curveRows({ positions, curves }) {
  const n = positions.length;
  return Array.from({ length: n }, (_, j) => [positions[j], ...METHODS.map((_, r) => curves.angles.data[r * n + j])]);
}

function drawAngles(ctx, width, height, colors, { state, data: { positions, curves }, highlighted }) {
  if (!curves) return;
  const legend = [
    { label: t('angles seen in training'), fill: colors.grey },
    ...METHODS.map((m) => ({ label: m.label, color: m.color(colors), dash: m.dash })),
  ];
  const frame = plot.plotFrame(width, height, { bottom: 46 + plot.legendSpace(ctx, legend, width) });
  const n = positions.length;
  const top = Math.max(curves.angles.data[n - 1], curves.trainedMax) * 1.05;
  const x = linearScale(0, state.target, frame.x, frame.x + frame.w);
  const y = linearScale(0, top, frame.y + frame.h, frame.y);
  ctx.save();
  ctx.fillStyle = colors.grey;
  ctx.globalAlpha = 0.3;
  ctx.fillRect(frame.x, y(curves.trainedMax), frame.w, y(0) - y(curves.trainedMax));
  ctx.restore();
  plot.drawAxes(ctx, frame, colors, {
    x,
    y,
    xTicks: niceTicks(0, state.target, 5),
    yTicks: niceTicks(0, top, 5),
    xLabel: t('position'),
    yLabel: t('angle of the slowest RoPE pair (rad)'),
    title: t('Keeping long contexts inside the trained range'),
  });
  // The methods beyond the lesson go underneath: on the slowest pair YaRN coincides with
  // interpolation, and the lesson's three lines must stay readable on top.
  drawMethods(ctx, (m, r) =>
    plot.drawLine(ctx, frame, x, y, positions, curves.angles.data.subarray(r * n, (r + 1) * n), {
      color: m.color(colors),
      dash: m.dash,
      width: m.added ? 4 : 1.6,
    }),
  );
  if (highlighted === 'trained' || highlighted === 'target') {
    // The trained length: the top of the band of angles it saw; the target: the axis's far end
    // (the pairs' parts are on the wavelength chart only).
    ctx.save();
    ctx.strokeStyle = colors.fg;
    ctx.lineWidth = 3;
    ctx.beginPath();
    if (highlighted === 'trained') {
      ctx.moveTo(frame.x, y(curves.trainedMax));
      ctx.lineTo(frame.x + frame.w, y(curves.trainedMax));
    } else {
      ctx.moveTo(frame.x + frame.w, frame.y);
      ctx.lineTo(frame.x + frame.w, frame.y + frame.h);
    }
    ctx.stroke();
    ctx.restore();
  }
  plot.drawLegend(ctx, frame, colors, legend, plot.legendCorner(width, 'tl'));
}

function drawWavelengths(ctx, width, height, colors, { state, data: { wavelengths }, highlighted, layout }) {
  if (!wavelengths) return;
  const legend = METHODS.map((m) => ({ label: m.label, color: m.color(colors), dash: m.dash }));
  const frame = plot.plotFrame(width, height, { bottom: 46 + plot.legendSpace(ctx, legend, width) });
  const pairs = state.d / 2;
  let hi = state.target;
  for (const row of wavelengths) for (const v of row) hi = Math.max(hi, v);
  const x = linearScale(-0.5, pairs - 0.5, frame.x, frame.x + frame.w);
  const y = logScale(1, hi * 2, frame.y + frame.h, frame.y);
  layout.waves = { frame, y };
  plot.drawAxes(ctx, frame, colors, {
    x,
    y,
    xTicks: niceTicks(0, pairs - 1, 6),
    yTicks: logTicks(1, hi * 2),
    xLabel: t('pair i (0 turns fastest)'),
    yLabel: t('wavelength 2π/θᵢ (positions)'),
    title: t('Which pairs each method slows'),
  });
  const xs = Array.from({ length: pairs }, (_, i) => i);
  const marks =
    state.target === state.trained
      ? [[state.trained, t('trained = target length'), null]]
      : [
          [state.trained, t('trained length'), 'trained'],
          [state.target, t('target length'), 'target'],
        ];
  // Two labels closer than a line of text apart go to opposite sides, so neither prints over the other.
  const apart = marks.length < 2 || Math.abs(y(state.trained) - y(state.target)) >= 14;
  marks.forEach(([value, label, part], k) => {
    const emphasised = highlighted && (part === highlighted || part === null);
    plot.drawLine(ctx, frame, x, y, [-0.5, pairs - 0.5], [value, value], {
      color: emphasised ? colors.fg : colors.grey,
      width: emphasised ? 2.5 : 1,
      dash: [4, 3],
    });
    ctx.fillStyle = emphasised ? colors.fg : colors.muted;
    const right = !apart && k === 1;
    ctx.textAlign = right ? 'right' : 'left';
    ctx.textBaseline = 'bottom';
    ctx.fillText(label, right ? frame.x + frame.w - 4 : frame.x + 4, y(value) - 2);
  });
  drawMethods(ctx, (m, r) =>
    plot.drawLine(ctx, frame, x, y, xs, wavelengths[r], {
      color: m.color(colors),
      dash: m.dash,
      width: m.added ? 4 : 1.6,
    }),
  );
  const pair = { 'fastest-pair': 0, 'slowest-pair': pairs - 1 }[highlighted];
  if (pair !== undefined) {
    // The pair's column, and a ring on each method's wavelength for it.
    ctx.save();
    ctx.strokeStyle = colors.fg;
    ctx.lineWidth = 2.5;
    ctx.beginPath();
    ctx.moveTo(x(pair), frame.y);
    ctx.lineTo(x(pair), frame.y + frame.h);
    ctx.stroke();
    for (const row of wavelengths) {
      ctx.beginPath();
      ctx.arc(x(pair), y(row[pair]), 5, 0, 2 * Math.PI);
      ctx.stroke();
    }
    ctx.restore();
  }
  plot.drawLegend(ctx, frame, colors, legend, plot.legendCorner(width, 'br'));
}
